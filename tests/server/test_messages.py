"""A table writes an event's message once when its seats see it alike (``Table._on_event``): each seat's
messages are still exactly those its own ``SeatStream`` writes, so no seat is sent a card another seat knows."""

from __future__ import annotations

from pathlib import Path

import pytest

from annals.engine.players import run_table
from annals.engine.registry import get_ruleset
from annals.engine.seats import SeatStream
from annals.engine.simulate import make_header
from annals.engine.table import LiveTable, read_live
from annals.schemas import protocol as p
from annals.server.store import TableRecord
from annals.server.tables import Table
from tests.live import RandomClient

GAMES = {"morana": (["clash", "glory"], 6, 0), "miras9": (["vanguard", "tempest"], 2, 6)}


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_each_seats_messages_are_its_own_views_whether_shared_or_not_MOR_15_M9_011(
    ruleset: str, tmp_path: Path
) -> None:
    """[MOR-15] [M9-011] Whole games: the face-down commits and hidden hands of MORANA, the hidden hand
    and deck of Miras 9; a table's history for each seat equals that seat's stream fed alone, message by message,
    and some messages were shared (the saving is real)."""
    rules = get_ruleset(ruleset)
    decks, games, cap = GAMES[ruleset]
    shared = 0
    for i in range(games):
        header = make_header(rules, i, decks, ["external", "external"], known_agents=["external"], max_turns=cap)
        path = tmp_path / f"{i}.log"
        live = LiveTable(rules, header, path)
        run_table(live, [RandomClient(live, 2 * i), RandomClient(live, 2 * i + 1)])
        record = TableRecord(f"{i:012x}", ruleset, decks, ["human", "human"], i, cap, 0, 0, ["a", "b"], "c")
        table = Table.finished(record, path)
        header, events, *_ = read_live(path)
        for seat in (0, 1):
            alone = SeatStream(rules, header, seat)
            assert table.history[seat] == [p.encode(alone.event(e)) for e in events]
        shared += sum(a is b for a, b in zip(table.history[0], table.history[1], strict=True))
        assert any(a != b for a, b in zip(table.history[0], table.history[1], strict=True))  # views differ
    assert shared > 0
