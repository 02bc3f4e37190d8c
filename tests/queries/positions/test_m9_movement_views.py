"""The Miras 9 movement and crew events in the database: ``m9_movements`` and ``m9_crews`` hold exactly what the
logs hold (each card of each move and arrival, each Spot, each embark and disembark) [M9-058], [M9-032], [M9-055],
[M9-060]; both ingest paths (C and reference) store them alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb

from annals.ingest.flatten import collect
from annals.schemas import miras9 as ev
from annals.schemas.logfile import read_log


def test_movements_and_crews_views_equal_the_logged_events(real_db: Path, real_logs: Path) -> None:
    con = duckdb.connect(str(real_db), read_only=True)
    logs = [read_log(p) for p in collect([real_logs / "miras9"])]
    seen = {"UnitMoved": 0, "Arrived": 0, "Embarked": 0}
    for log in logs:
        gid = log.header.game_id
        want_moves: list[tuple[Any, ...]] = []
        want_crews: list[tuple[Any, ...]] = []
        for e in log.events:
            if type(e) in (ev.UnitMoved, ev.Arrived):
                cost = e.cost if type(e) is ev.UnitMoved else None
                name = type(e).__name__
                want_moves += [(e.n, name, c, i == 0, e.src, e.dst, cost, None) for i, c in enumerate(e.cards)]
            elif type(e) is ev.Spotted:
                want_moves.append((e.n, "Spotted", e.card, None, None, None, None, e.source))
            elif type(e) in (ev.Embarked, ev.Disembarked):
                want_crews.append((e.n, type(e).__name__, e.card, e.host, type(e) is ev.Embarked, e.reason))
            if type(e).__name__ in seen:
                seen[type(e).__name__] += 1
        got_moves = con.execute(
            "SELECT n, kind, card, mover, src, dst, cost, spotted_by FROM m9_movements JOIN games USING (game) "
            "WHERE game_id = ? ORDER BY n, mover DESC NULLS LAST, card",
            [gid],
        ).fetchall()
        key = lambda r: (r[0], not r[3] if r[3] is not None else True, r[2])  # noqa: E731
        assert got_moves == sorted(want_moves, key=key)
        got_crews = con.execute(
            "SELECT n, kind, card, host, boarding, reason FROM m9_crews JOIN games USING (game) WHERE game_id = ? "
            "ORDER BY n",
            [gid],
        ).fetchall()
        assert got_crews == want_crews
    assert all(seen.values()), seen  # the sample games really move, arrive and embark
