"""Decision reviews saved beside the logs (``annals review LOG --save``: ``LOG.review.json``, ``schemas.review``)
into the ``decision_reviews`` table, after the logs of an ingest are stored.

Each log ingest reads (stored, skipped as already stored, or even quarantined) is looked for a review beside it; a
review names its game by the log's ``game_id`` and joins the database's game number. A game's rows are replaced
whole each time its review is loaded, in one transaction for all the reviews of an ingest, so re-ingesting adds
nothing twice and a review written again (more iterations, other thresholds) replaces the old one; a game leaving the
database (withdrawn, superseded, removed: ``loader.WITHDRAW_FROM``) takes its review rows with it, and the review
beside a superseding log is loaded for the new game.

Forgiving per file, like the logs: a review that cannot be loaded is skipped and named with the reason (a
``DamagedReviewError``; ``ReviewGameNotStoredError`` for a game not in the database; ``ReviewMismatchError`` for
decisions the stored game does not have, or a second review of one game); the others are loaded. The review's
``digest`` (of the log it was made from) need not be the stored game's: a log grown since by a judge's records or a
signature has the same decisions, and each reviewed decision is checked against the stored one
(its number, seat, event count and point).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import NamedTuple

import duckdb
import pyarrow as pa

from annals.schemas.archive import split_ref
from annals.schemas.errors import AnnalsError
from annals.schemas.review import DamagedReviewError, ReviewFile, read_review, review_path


class ReviewGameNotStoredError(AnnalsError, LookupError):
    """A review file whose game is not in the database."""


class ReviewMismatchError(AnnalsError, ValueError):
    """A review file naming decisions its stored game does not have, or a second review of one game."""


class Gathered(NamedTuple):
    """The reviews found beside an ingest's logs: those to load, by game number, and the skipped ones' lines."""

    games: dict[int, tuple[str, ReviewFile]]  # game number -> (review file, review)
    skipped: list[str]  # "file: Error: reason" lines


_COLUMNS: list[tuple[str, pa.DataType]] = [
    ("game", pa.int32()),
    ("game_id", pa.string()),
    ("seat", pa.int8()),
    ("decision", pa.int32()),
    ("at_event", pa.int32()),
    ("turn", pa.int32()),
    ("point", pa.string()),
    ("chance_before", pa.float64()),
    ("chance_made", pa.float64()),
    ("chance_best", pa.float64()),
    ("loss", pa.float64()),
    ("verdict", pa.string()),
    ("made", pa.string()),
    ("best", pa.string()),
    ("iterations", pa.int32()),
    ("inaccuracy", pa.float64()),
    ("mistake", pa.float64()),
    ("blunder", pa.float64()),
    ("file", pa.string()),
]


def review_files(logs: Sequence[str]) -> list[str]:
    """The review files beside ``logs`` (a log inside an archive has none), in the logs' order."""
    found = []
    for log in logs:
        if split_ref(log) is not None:
            continue
        path = review_path(log)
        if os.path.lexists(path):
            found.append(str(path))
    return found


def gather_reviews(con: duckdb.DuckDBPyConnection, logs: Sequence[str]) -> Gathered:
    """Every review beside ``logs`` read and checked against the database (see the module)."""
    games: dict[int, tuple[str, ReviewFile]] = {}
    skipped: list[str] = []
    for path in review_files(logs):
        try:
            doc = read_review(path)
            game = _stored_game(con, path, doc)
            if game in games:
                raise ReviewMismatchError(
                    f"{path}: another review of game {doc.game_id!r} was loaded from {games[game][0]}; keep one"
                )
        except (DamagedReviewError, ReviewGameNotStoredError, ReviewMismatchError) as exc:
            skipped.append(f"{path}: {type(exc).__name__}: {exc}")
            continue
        games[game] = (path, doc)
    return Gathered(games, skipped)


def _stored_game(con: duckdb.DuckDBPyConnection, path: str, doc: ReviewFile) -> int:
    """The game number of the review's game, its reviewed decisions checked to be the stored game's."""
    rows = con.execute("SELECT game FROM games WHERE game_id = ?", [doc.game_id]).fetchall()
    if not rows:
        raise ReviewGameNotStoredError(
            f"{path}: its game {doc.game_id!r} is not in the database (its log was not ingested, or was "
            "quarantined: see the quarantine table)"
        )
    game = int(rows[0][0])
    asked = "SELECT n, player, at_event, point FROM decisions WHERE game = ?"
    stored = {int(n): (int(p), int(at), str(pt)) for n, p, at, pt in con.execute(asked, [game]).fetchall()}
    seen: set[int] = set()
    for r in doc.decisions:
        if stored.get(r.decision) != (r.seat, r.at, r.point):
            raise ReviewMismatchError(
                f"{path}: decision {r.decision} by seat {r.seat} at event {r.at} ({r.point}) is not one of stored "
                f"game {doc.game_id!r}'s; review its log again with `annals review LOG --save`"
            )
        if r.decision in seen:
            raise ReviewMismatchError(f"{path}: decision {r.decision} is reviewed twice")
        seen.add(r.decision)
    return game


def review_rows(game: int, file: str, doc: ReviewFile) -> list[tuple[object, ...]]:
    """The ``decision_reviews`` rows of one review, in column order."""
    t = doc.thresholds
    return [
        (game, doc.game_id, r.seat, r.decision, r.at, r.turn, r.point, r.chance_before, r.chance_made, r.chance_best,
         r.loss, r.verdict, r.made, r.best, doc.iterations, t.inaccuracy, t.mistake, t.blunder, file)
        for r in doc.decisions
    ]  # fmt: skip


def store_reviews(con: duckdb.DuckDBPyConnection, gathered: Gathered) -> int:
    """The gathered reviews into ``decision_reviews``, each game's rows replacing those it had, in one transaction;
    the rows stored."""
    if not gathered.games:
        return 0
    rows = [row for game, (file, doc) in sorted(gathered.games.items()) for row in review_rows(game, file, doc)]
    columns: list[Sequence[object]] = list(zip(*rows, strict=True)) if rows else [() for _ in _COLUMNS]
    table = pa.table({name: pa.array(col, kind) for (name, kind), col in zip(_COLUMNS, columns, strict=True)})
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute(
            "DELETE FROM decision_reviews WHERE game IN (SELECT unnest($games))", {"games": sorted(gathered.games)}
        )
        con.register("_in_reviews", table)
        con.execute("INSERT INTO decision_reviews BY NAME SELECT * FROM _in_reviews")
        con.unregister("_in_reviews")
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return len(rows)
