"""The metagame report's ``in_top`` in a real DuckDB file (``annals ingest`` of event folders): "the top" is the
cut's players when the event has a cut, else the top 8 of its final standings (the whole field of 8 or fewer),
and ``top`` says how many places that is. Without a cut it counted the winner alone: one deck "in the top"."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from annals.engine.tournament import event as lib
from annals.engine.tournament import rounds as loop
from annals.engine.tournament.store import EventStore
from annals.ingest.schema import open_database
from annals.queries.reports.filters import Filters
from annals.queries.reports.run import run_report

ANNALS = str(Path(sys.executable).parent / "annals")


def _played(folder: Path, field: int, top: int) -> EventStore:
    """An event whose matches are reported as paper results (the first-named player wins 2-0, a table in three
    2-1 the other way): standings with places and no games to play."""
    lib.new_event(folder, folder.name, "miras9", rounds=2, best_of=3, top=top, seed=11)
    store = EventStore.open(folder)
    lib.fill_with_bots(store, field)
    while not store.state().finished():
        rnd = loop.pair_next(store)
        for p in rnd.pairings:
            if p.b:
                loop.report(store, rnd.number, p.table, loop.parse_outcome("1-2" if p.table % 3 == 0 else "2-0"))
    return store


@pytest.mark.parametrize(("field", "top", "places"), [(10, 0, 8), (10, 4, 4), (6, 0, 6)])
def test_in_top_counts_the_cut_or_the_top_8_of_the_final_standings(
    tmp_path: Path, field: int, top: int, places: int
) -> None:
    store = _played(tmp_path / f"ev-{field}-{top}", field, top)
    db = tmp_path / "annals.duckdb"
    done = subprocess.run([ANNALS, "ingest", str(store.folder), "--db", str(db), "-q"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    decks = {p.id: p.deck_name for p in store.players()}
    placed = lib.placings(store)
    assert len(placed) == field
    want = Counter(decks[pid] for place, pid in placed if place <= places)
    con = open_database(db, read_only=True)
    try:
        meta = run_report(con, "metagame", filters=Filters(event=store.config().event_id)).frame
    finally:
        con.close()
    got = {deck: n for deck, n in zip(meta["deck"], meta["in_top"], strict=True) if n}
    assert got == dict(want), (got, want)
    assert set(meta["top"]) == {places} and meta["in_top"].sum() == places
    assert meta["players"].sum() == field
