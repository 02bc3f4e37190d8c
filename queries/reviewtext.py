"""A game's decision review in words and files (``annals review``): the table a person reads at a terminal, CSV,
JSON and the one line per game of a folder's review. The review itself is ``queries.review``."""

from __future__ import annotations

import csv
import io
import textwrap
from collections.abc import Sequence
from typing import Any

import msgspec

from annals.engine.names import SEARCH_ITERATIONS as ITERATIONS
from annals.engine.names import SET_UP
from annals.engine.words import plural, words_of
from annals.schemas.review import CLASSES, DecisionReview, Thresholds, accuracy

COLUMNS = (
    "decision",
    "turn",
    "seat",
    "point",
    "chance_before",
    "chance_made",
    "chance_best",
    "loss",
    "verdict",
    "made",
    "best",
)


def _row(r: DecisionReview) -> list[Any]:
    return [getattr(r, c) for c in COLUMNS]


WHOLE = 0  # a width of 0: each decision on one line however long (a pipe or a file: one line a record for grep)
CLASS_PLURAL = {"best": "best", "good": "good", "inaccuracy": "inaccuracies", "mistake": "mistakes"}


def review_table(
    reviews: list[DecisionReview],
    *,
    players: Sequence[str] = (),
    iterations: int = ITERATIONS,
    thresholds: Thresholds = Thresholds(),
    width: int = WHOLE,
) -> list[str]:
    """Text lines: what the numbers are (whose chance, the budget, the thresholds), a header, a line per decision,
    then each seat's accuracy. ``width``: a terminal's; a decision whose choices do not fit has them on lines of
    their own under its numbers, wrapped at words (at 80 columns the numbers alone take 68)."""
    t = thresholds
    seats = ", ".join(f"{seat} {name}" for seat, name in enumerate(players))
    said = (
        "before, made, best: the deciding seat's winning chance (0 to 1) before the decision, after the choice "
        "made and after the best choice found, estimated by the search bot from what that seat could see "
        f"({plural(iterations, 'iteration')} a decision); loss = best - made; a loss from {t.inaccuracy:g} is an "
        f"inaccuracy, from {t.mistake:g} a mistake, from {t.blunder:g} a blunder"
        + (f". Seats: {seats}." if seats else ".")
    )
    lines = textwrap.wrap(said, width) if width else [said]
    numbers = (
        f"{'#':>5} {'turn':>6} {'seat':>4} {'point':<13} {'before':>6} {'made':>6} {'best':>6} {'loss':>5} "
        f"{'class':<10}"
    )
    head = f"{numbers} choice made / best choice found"
    lines.append(head if not width or len(head) <= width else numbers.rstrip())  # narrower: "made:", "best:" say it
    indent = " " * 7
    for r in reviews:
        numbers = (
            f"{r.decision:>5} {r.turn or SET_UP:>6} {r.seat:>4} {words_of(r.point):<13} {r.chance_before:>6.2f} "
            f"{r.chance_made:>6.2f} {r.chance_best:>6.2f} {r.loss:>5.2f} {r.verdict:<10}"
        )
        found = "" if r.verdict == "best" else f"  (best: {r.best})"
        line = f"{numbers} {r.made}{found}"
        if not width or len(line) <= width:
            lines.append(line)
            continue
        lines.append(numbers.rstrip())
        lines += textwrap.wrap(f"made: {r.made}", width, initial_indent=indent, subsequent_indent=indent + "  ")
        if found:
            lines += textwrap.wrap(f"best: {r.best}", width, initial_indent=indent, subsequent_indent=indent + "  ")
    for seat in sorted({r.seat for r in reviews}):
        mine = [r for r in reviews if r.seat == seat]
        counts = ", ".join(_count(sum(r.verdict == c for r in mine), c) for c in CLASSES)
        who = f"seat {seat} ({players[seat]})" if seat < len(players) else f"seat {seat}"
        line = f"{who}: accuracy {accuracy(mine, seat):.1f} of 100 over {plural(len(mine), 'decision')}: {counts}"
        lines += textwrap.wrap(line, width, subsequent_indent="  ") if width else [line]
    return lines


def _count(n: int, verdict: str) -> str:
    """``1 mistake``, ``0 inaccuracies``, ``3 best``."""
    return f"{n} {verdict if n == 1 else CLASS_PLURAL.get(verdict, verdict + 's')}"


def review_csv(reviews: list[DecisionReview]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(_row(r) for r in reviews)
    return buffer.getvalue()


def review_json(
    reviews: list[DecisionReview], *, iterations: int = ITERATIONS, thresholds: Thresholds = Thresholds()
) -> bytes:
    """The decisions and each seat's accuracy, with the budget and the thresholds the classes were given by (a
    reader of the file alone could not tell a 'mistake' at --mistake 0.3 from one at the default 0.10)."""
    seats = sorted({r.seat for r in reviews})
    doc = {
        "iterations": iterations,
        "thresholds": thresholds,
        "decisions": reviews,
        "accuracy": {str(s): accuracy(reviews, s) for s in seats},
    }
    return msgspec.json.encode(doc)


def review_summary(reviews: list[DecisionReview]) -> str:
    """One line for a game's review: decisions rated, each seat's accuracy and its mistakes and blunders."""
    parts = [plural(len(reviews), "decision")]
    for seat in sorted({r.seat for r in reviews}):
        mine = [r for r in reviews if r.seat == seat]
        mistakes = plural(sum(r.verdict == "mistake" for r in mine), "mistake")
        blunders = plural(sum(r.verdict == "blunder" for r in mine), "blunder")
        parts.append(f"seat {seat} accuracy {accuracy(reviews, seat):.1f} ({mistakes}, {blunders})")
    return ", ".join(parts)
