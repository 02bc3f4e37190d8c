"""The card rows ingest makes, on real Miras 9 and MORANA games: ``deck_cards`` is each header's decks, card by card
(its columns are now made by Arrow, not a Python int per row), and the card tables derived by SQL
(``card_moves.sql``, ``card_games.sql``) give the same rows as the plain formulations they replaced for speed:
``moves`` grouped every event that names a card with each condition as an aggregate filter (it now groups only the
events that raise one), and ``card_games.other_seat`` was a window sum over the game and card id (now a grouping
joined back)."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

from annals.ingest import cardrows, loader
from annals.ingest.flatten import collect
from annals.ingest.schema import CARD_TABLES, ddl, derive_card_tables
from annals.schemas.logfile import LogReader
from annals.schemas.records import LEADER_INDEX, instance_id

USED = (
    "'AbilityActivated', 'TriggerFired', 'StackPushed', 'Manifested', 'Pressured', 'OmenFired', 'RebornFired', "
    "'CharmFired', 'ClashFired', 'InvocationFired'"
)
# What card_moves.sql's ``moves`` gave before: every event naming a card grouped, each fact an aggregate filter.
PLAIN_MOVES = f"""
SELECT game, card,
       min(turn) FILTER (WHERE turn >= 1 AND src IN ('deck', 'resource') AND dst = 'hand') AS drawn_turn,
       coalesce(bool_or(turn >= 1 AND src = 'resource' AND dst = 'hand'), false) AS from_resource,
       min(turn) FILTER (WHERE src = 'hand' AND dst NOT IN ('deck', 'hand', 'discard', 'exile', 'nav', 'gone'))
           AS played_turn,
       min(turn) FILTER (WHERE kind IN ({USED})) AS used_turn
FROM events WHERE card IS NOT NULL GROUP BY game, card
"""
# card_moves' columns from ``moves``, for each deck card: NULL (false) where no event names the copy.
DERIVED_MOVES = """
SELECT d.game, d.instance, c.drawn_turn, c.from_resource, c.played_turn, c.used_turn
FROM card_moves c JOIN deck_cards d ON d.game = c.game AND d.seat = c.seat AND d.idx = c.idx
"""
PLAIN_OTHER_SEAT = """
SELECT game, seat, card_id, sum(CASE WHEN opening_hand OR drawn THEN 1 WHEN placed_at_setup THEN 3 ELSE 2 END)
           OVER (PARTITION BY game, card_id)
       - CASE WHEN opening_hand OR drawn THEN 1 WHEN placed_at_setup THEN 3 ELSE 2 END
FROM card_games
"""


def test_card_moves_match_the_plain_grouping_of_every_event(real_db: Path, tmp_path: Path) -> None:
    path = tmp_path / "copy.duckdb"
    shutil.copy(real_db, path)
    con = duckdb.connect(str(path))
    try:
        lo, hi = con.execute("SELECT min(game), max(game) FROM games").fetchall()[0]
        con.execute(ddl("card_moves"), {"lo": lo, "hi": hi})
        derived = con.execute(DERIVED_MOVES + " ORDER BY ALL").fetchall()
        plain = {
            (game, card): rest for game, card, *rest in con.execute(PLAIN_MOVES).fetchall()
        }  # copies no event names are absent here: NULL, and from_resource false, in card_moves
        expected = sorted(
            (game, instance, *plain.get((game, instance), (None, False, None, None)))
            for game, instance in con.execute("SELECT game, instance FROM deck_cards").fetchall()
        )
        assert derived == expected
        assert any(r[2] is not None for r in derived) and any(r[4] is not None for r in derived)
        assert any(r[5] is not None for r in derived)  # each fact is seen on these games
    finally:
        con.close()


def test_other_seat_matches_the_window_sum(real_db: Path) -> None:
    con = duckdb.connect(str(real_db), read_only=True)
    try:
        stored = con.execute("SELECT game, seat, card_id, other_seat FROM card_games ORDER BY ALL").fetchall()
        assert stored == con.execute(PLAIN_OTHER_SEAT + " ORDER BY ALL").fetchall()
        assert any(other for *_, other in stored)
    finally:
        con.close()


def test_deck_cards_are_the_headers_decks_in_order(real_db: Path, real_logs: Path) -> None:
    """Each seat's cards in deck order, numbered from 0, with their instances; then its leader at -1."""
    expected = []
    for path in collect([real_logs]):
        with LogReader(path) as reader:
            h = reader.header
        for seat, deck in enumerate(h.decks):
            expected += [(h.game_id, seat, i, instance_id(seat, i), card) for i, card in enumerate(deck.cards)]
            if deck.leader:
                expected.append((h.game_id, seat, -1, instance_id(seat, LEADER_INDEX), deck.leader))
    con = duckdb.connect(str(real_db), read_only=True)
    try:
        stored = con.execute(
            "SELECT g.game_id, d.seat, d.idx, d.instance, d.card_id FROM deck_cards d JOIN games g USING (game) "
            "ORDER BY d.game, d.rowid"
        ).fetchall()
    finally:
        con.close()
    assert sorted(stored, key=lambda r: r[0]) == sorted(expected, key=lambda r: r[0])  # stable: order within a game
    assert any(r[2] == -1 for r in stored)


def test_card_tables_made_beside_the_writer_are_the_sql_over_the_stored_events(
    real_logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ingest derives each batch's card tables from its Arrow tables on the gathering thread
    (``ingest.cardrows``), not from the stored events in the writer: over several batches (and a copy of a log,
    skipped), the stored rows are what ``derive_card_tables`` makes from the stored events and deck cards, in the
    same order."""
    made: list[int] = []

    def counted(events: pa.Table, deck_cards: pa.Table, lo: int, hi: int, ddl: Sequence[str]) -> dict[str, pa.Table]:
        made.append(hi - lo + 1)
        return cardrows.batch_card_tables(events, deck_cards, lo, hi, ddl)

    monkeypatch.setattr(loader, "batch_card_tables", counted)
    logs = tmp_path / "logs"
    shutil.copytree(real_logs, logs)
    first = sorted(logs.rglob("*.log"))[0]
    shutil.copy(first, logs / "again.log")  # a copy under another name: skipped
    path = tmp_path / "annals.duckdb"
    report = loader.ingest([logs], path, workers=2, chunk_files=1, batch_rows=2_000)
    assert report.reconciled and report.batches >= 3 and len(made) >= 3 and report.games_skipped == 1
    con = duckdb.connect(str(path))
    try:
        lo, hi = con.execute("SELECT min(game), max(game) FROM games").fetchall()[0]
        stored = {t: con.execute(f"SELECT * FROM {t}").fetchall() for t in CARD_TABLES}
        for table in CARD_TABLES:
            con.execute(f"ALTER TABLE {table} RENAME TO was_{table}")
            con.execute(f"CREATE TABLE {table} AS SELECT * FROM was_{table} LIMIT 0")
        derive_card_tables(con, lo, hi)
        for table in CARD_TABLES:
            assert stored[table] == con.execute(f"SELECT * FROM {table}").fetchall(), table
            assert stored[table]
    finally:
        con.close()
