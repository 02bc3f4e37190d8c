"""The decision review in the replay viewer (issue 32): the winning-chance graph above the timeline, its marks at
inaccuracies, mistakes and blunders, and each decision's choice made and better choice in words.

The review is the file ``annals review LOG --save`` writes beside the log (``schemas.review``); it must be of the
same game and the same log (its ``game_id`` and chain ``digest``), or it is not shown (``StaleReviewError``).

What a view gets. A seat's review is made from that seat's view: its chances are estimated over what that seat
knew (its own hand among it) and its words name that seat's cards. So a view gets the review of a seat only when it
sees everything that seat saw:

- ``omniscient``: every seat's review; the graph is the first player's winning chance;
- ``player0`` / ``player1``: that seat's own review only; the graph is that seat's chance at its own decisions;
- ``spectator``: none (the page says why, and which views have it).

The graph's points are the reviewed decisions (the chance before each, for the graph's seat), then the result at
the end when the game has one.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import msgspec

from annals.engine.names import turn_said
from annals.engine.views import viewer_of
from annals.schemas.commandline import quoted
from annals.schemas.errors import AnnalsError
from annals.schemas.review import DecisionReview, ReviewFile, Thresholds, accuracy, read_review, review_path

MARKED = ("inaccuracy", "mistake", "blunder")  # the classes the graph marks and "next mistake" visits
SYMBOL = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}  # as chess annotators write them


class StaleReviewError(AnnalsError, ValueError):
    """A review file beside a log that is of another game, or of the log before it changed."""


class ReviewPoint(msgspec.Struct, frozen=True):
    """One reviewed decision as the page reads it (``web/viewer.js``)."""

    at: int  # the position where it was asked: the board after ``at`` events
    seat: int
    chance: float  # the graph seat's winning chance before the decision, 0..1
    verdict: str  # one of schemas.review.CLASSES
    loss: float
    line: str  # the decision in words: whose, its class, the choice made, the better choice, the loss
    mark: str  # its mark's words before the position reaches it: the turn, whose and its class, no chance


class ReviewShown(msgspec.Struct, frozen=True):
    """What the page shows of a game's review in one view."""

    points: list[ReviewPoint]
    seat: int  # whose winning chance the graph draws
    said: str  # one sentence above the graph: the review's budget and accuracies, or why this view has none
    end: float | None  # the graph seat's result at the end: 1 won, 0 lost, 0.5 drawn; None if it did not end


def saved_review(log_path: str | os.PathLike[str], game_id: str, digest: str) -> ReviewFile | None:
    """The review saved beside the log (None when there is none), checked to be of this game and this log."""
    path = review_path(log_path)
    if not path.exists():
        return None
    review = read_review(path)
    if review.game_id != game_id or review.digest != digest:
        raise StaleReviewError(
            f"{path}: the review is of {'another game' if review.game_id != game_id else 'the log before it changed'}"
            f" (game {review.game_id}); write it again with `annals review {quoted(log_path)} --save`"
        )
    return review


def seats_shown(view: str) -> tuple[int, ...]:
    """The seats whose review ``view`` may show (see the module)."""
    viewer = viewer_of(view)
    if viewer is None:
        return (0, 1)
    return (viewer,) if viewer >= 0 else ()


def _pct(chance: float) -> str:
    return f"{round(chance * 100)}%"


def decision_line(r: DecisionReview, who: str) -> str:
    """A reviewed decision in words: ``Turn 3 · Bo's blunder (??): Seal the Commit; better: Commit Bannik at Site 1
    (23 points of winning chance lost: 77% after it, 100% after the better choice)``."""
    head = f"{turn_said(r.turn).capitalize()} · {who}"
    if r.verdict == "best":
        return f"{head}: {r.made}, the best choice found (winning chance {_pct(r.chance_made)})"
    points = round(r.loss * 100)
    lost = f"{points} point{'s' if points != 1 else ''} of winning chance lost"
    if r.verdict == "good":
        return f"{head}: {r.made}, a good choice ({lost}; best found: {r.best})"
    return (
        f"{head}'s {r.verdict} ({SYMBOL[r.verdict]}): {r.made}; better: {r.best} "
        f"({lost}: {_pct(r.chance_made)} after it, {_pct(r.chance_best)} after the better choice)"
    )


def mark_words(r: DecisionReview, who: str) -> str:
    """A marked decision ahead of the position shown, in words that tell no winning chance (they would tell who
    is ahead later on): ``Turn 7 · Bo's blunder (??)``."""
    return f"{turn_said(r.turn).capitalize()} · {who}'s {r.verdict} ({SYMBOL.get(r.verdict, '')})"


def review_shown(review: ReviewFile, view: str, players: Sequence[str], winner: int | None) -> ReviewShown:
    """What ``view`` shows of ``review`` (see the module); ``players`` name the seats, ``winner`` is the game's
    (-1 a draw, None if it did not end)."""
    seats = seats_shown(view)
    mine = [r for r in review.decisions if r.seat in seats]
    rated = sorted({r.seat for r in mine}) or list(seats)
    graph = rated[0] if len(rated) == 1 else 0  # a review of one seat (--seat 1): the graph is that seat's chance
    points = [
        ReviewPoint(
            r.at,
            r.seat,
            r.chance_before if r.seat == graph else 1.0 - r.chance_before,
            r.verdict,
            r.loss,
            decision_line(r, players[r.seat]),
            mark_words(r, players[r.seat]),
        )
        for r in sorted(mine, key=lambda r: (r.at, r.decision))
    ]
    end = None if winner is None else 0.5 if winner < 0 else float(winner == graph)
    if not seats:
        said = (
            "This game has a decision review, but not in the spectators' page: each player's review is made from "
            "that player's view and names the cards in their hand. The omniscient page has both, each player's "
            "page its own."
        )
        return ReviewShown([], graph, said, None)
    if not points:  # a review made of the other seat only (annals review --seat)
        whose = " or ".join(players[seat] for seat in seats)
        t = review.thresholds
        same = [f"--seat {seat}" for seat in seats] + [f"--iterations {review.iterations}"]
        same += [f"--{name} {value:g}" for name, value, default in zip(
            ("inaccuracy", "mistake", "blunder"), (t.inaccuracy, t.mistake, t.blunder), (0.05, 0.10, 0.20), strict=True
        ) if value != default]  # fmt: skip
        said = (
            f"This game's decision review rates none of {whose}'s decisions: it was made with --seat "
            f"{' '.join(map(str, review.seats))}. `annals review LOG {' '.join(same)} --save` adds them (at the "
            "same budget and thresholds, or it would replace the review saved)."
        )
        return ReviewShown([], graph, said, None)
    scores = []
    for seat in seats:
        score = accuracy(review.decisions, seat)
        if score is not None:
            scores.append(f"{players[seat]}'s accuracy {score:.0f}")
    whose = "each player's own view" if len(rated) > 1 else f"{players[graph]}'s own view"
    said = (
        f"{players[graph]}'s winning chance at each reviewed decision, estimated by the search bot "
        f"({review.iterations} iterations a decision) from {whose}" + (f"; {', '.join(scores)}" if scores else "") + "."
    )
    return ReviewShown(points, graph, said, end)


def review_legend(shown: ReviewShown, players: Sequence[str], thresholds: Thresholds) -> list[tuple[str, str]]:
    """The legend's entries for the graph and its marks (``mark:NAME`` swatches, drawn by ``web/viewer.css``), with
    the review's own thresholds."""
    if not shown.points:
        return []
    who = players[shown.seat] if 0 <= shown.seat < len(players) else "the first player"
    t = [round(x * 100) for x in (thresholds.inaccuracy, thresholds.mistake, thresholds.blunder)]
    return [
        (
            f"mark:graph p{shown.seat}",
            f"the graph: {who}'s winning chance (high: {who} ahead) at each reviewed decision",
        ),
        ("mark:inaccuracy", f"an inaccuracy (?!): the choice gave up {t[0]} to {t[1]} points of winning chance"),
        ("mark:mistake", f"a mistake (?): it gave up {t[1]} to {t[2]} points of winning chance"),
        ("mark:blunder", f"a blunder (??): it gave up {t[2]} points of winning chance or more"),
    ]
