"""A game's decision review as a file beside its log (``annals review LOG --save``), which ``annals ingest`` loads
into the ``decision_reviews`` table. The log itself is never changed.

The review of ``games/x.log`` is ``games/x.log.review.json``: JSON written by msgspec, the log's ``game_id`` and
chain ``digest``, the review's parameters (search ``iterations``, the ``thresholds`` of the classes, the ``seats``
reviewed) and one ``DecisionReview`` per decision rated. It lives in ``schemas/`` because both ``queries.review``
(which writes it) and ``ingest`` (which reads it) need it, and ingest must not import queries.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from pathlib import Path

import msgspec

from annals.schemas.errors import AnnalsError
from annals.schemas.files import PathError, read_regular

FORMAT = 1
SUFFIX = ".review.json"
MAX_REVIEW_BYTES = 64 << 20  # a decision is a few hundred bytes: a long game's review is well under 1 MiB
CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")


class DamagedReviewError(AnnalsError, ValueError):
    """A review file that does not parse, is of a newer format, or holds a value out of range."""


class Thresholds(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The loss (in winning chance, 0..1) from which a choice is an inaccuracy, a mistake, a blunder."""

    inaccuracy: float = 0.05
    mistake: float = 0.10
    blunder: float = 0.20

    def classify(self, loss: float, is_best: bool) -> str:
        if is_best:
            return "best"
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return "good"


class DecisionReview(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    decision: int  # the decision's number in the log (decisions.n)
    at: int  # events applied when it was asked
    turn: int
    seat: int
    point: str
    chance_before: float
    chance_made: float
    chance_best: float
    made: str  # the choice made, in words
    best: str  # the best choice found, in words
    loss: float
    verdict: str  # one of CLASSES

    @property
    def coordinate(self) -> str:
        """Where the decision was asked, as ``annals position`` and the notes take it."""
        return "start" if self.at == 0 else f"event:{self.at - 1}"


class ReviewFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    game_id: str  # the log header's game id
    digest: str  # the reviewed log's chain digest
    ruleset: str
    iterations: int  # the search budget per decision
    thresholds: Thresholds
    seats: list[int]  # the seats reviewed
    decisions: list[DecisionReview]
    format: int = FORMAT


def review_path(log: str | os.PathLike[str]) -> Path:
    """Where the review of ``log`` is kept: beside it, named after it."""
    p = Path(log)
    return p.with_name(p.name + SUFFIX)


def encode_review(review: ReviewFile) -> bytes:
    return msgspec.json.format(msgspec.json.encode(review), indent=1) + b"\n"


def write_review(log: str | os.PathLike[str], review: ReviewFile) -> Path:
    """``review`` written beside ``log`` (whole or not at all: a temporary file renamed over it)."""
    path = review_path(log)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(encode_review(review))
    tmp.replace(path)
    return path


def read_review(path: str | os.PathLike[str]) -> ReviewFile:
    """The review file at ``path``, checked; anything wrong is a ``DamagedReviewError`` naming the file and why."""
    try:
        doc = msgspec.json.decode(read_regular(path, what="review", max_bytes=MAX_REVIEW_BYTES), type=ReviewFile)
    except PathError as exc:
        raise DamagedReviewError(f"{exc}; write it again with `annals review LOG --save`") from None
    except (msgspec.DecodeError, RecursionError) as exc:
        raise DamagedReviewError(
            f"{path}: not a review file ({exc}); write it again with `annals review LOG --save`"
        ) from None
    if doc.format > FORMAT:
        raise DamagedReviewError(f"{path}: review format {doc.format} is newer than this annals reads ({FORMAT})")
    for r in doc.decisions:
        bad = _bad_value(r)
        if bad:
            raise DamagedReviewError(f"{path}: decision {r.decision}: {bad}")
    return doc


def _bad_value(r: DecisionReview) -> str:
    if r.verdict not in CLASSES:
        return f"verdict {r.verdict!r} is none of {', '.join(CLASSES)}"
    if r.seat not in (0, 1):
        return f"seat {r.seat!r} is not 0 or 1"
    for name in ("chance_before", "chance_made", "chance_best", "loss"):
        value = getattr(r, name)
        if not 0.0 <= value <= 1.0:
            return f"{name} {value!r} is not a chance between 0 and 1"
    return ""


def move_accuracy(loss: float) -> float:
    """A decision's accuracy (0-100) from the winning chance it gave up, by Lichess's curve (a loss of 0: 100)."""
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * loss * 100) - 3.1669))


def accuracy(reviews: Iterable[DecisionReview], seat: int) -> float | None:
    """A seat's accuracy: the mean of its reviewed decisions' (None: none of them reviewed)."""
    mine = [move_accuracy(r.loss) for r in reviews if r.seat == seat]
    return sum(mine) / len(mine) if mine else None
