"""The Miras 9 Ship-Site events in the database: ``m9_ship_sites`` holds exactly what the logs hold (each card of
each Ship-Site move, contest and return [M9-063], each unblocked attack on a Ship-Site [M9-072]); the C ingest path
flattens them as the reference does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest

from annals.engine.simulate import simulate
from annals.ingest import columnar
from annals.ingest.flatten import collect, flatten_files
from annals.ingest.loader import ingest
from annals.schemas import miras9 as ev
from annals.schemas.logfile import read_log
from tests.analysis.test_columnar import assert_same, fast


@pytest.fixture(scope="module")
def corsair_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Bot games of the Ship-Site deck against itself (heuristic against random)."""
    root = tmp_path_factory.mktemp("corsairs")
    list(simulate("miras9", 3, 5, ["corsairs", "corsairs"], ["heuristic", "random"], root))
    return root


def test_ship_site_view_equals_the_logged_events(corsair_logs: Path, tmp_path: Path) -> None:
    path = tmp_path / "annals.duckdb"
    report = ingest([corsair_logs], path, workers=1)
    assert report.reconciled and report.games_added == 3
    con = duckdb.connect(str(path), read_only=True)
    seen = {"ShipSiteMoved": 0, "ShipSiteAttacked": 0}
    for log in (read_log(p) for p in collect([corsair_logs])):
        want: list[tuple[Any, ...]] = []
        for e in log.events:
            if type(e) is ev.ShipSiteMoved:
                want += [(e.n, "ShipSiteMoved", c, i == 0, e.src, e.dst, e.cost, e.kind, None, None, None)
                         for i, c in enumerate(e.cards)]  # fmt: skip
            elif type(e) is ev.ShipSiteAttacked:
                want.append((e.n, "ShipSiteAttacked", e.card, True, None, None, None, None, e.source, e.amount,
                             e.retaliation))  # fmt: skip
            if type(e).__name__ in seen:
                seen[type(e).__name__] += 1
        got = con.execute(
            "SELECT n, kind, card, ship_site, src, dst, cost, move_kind, attacker, amount, retaliation "
            "FROM m9_ship_sites JOIN games USING (game) WHERE game_id = ? ORDER BY n, ship_site DESC, card",
            [log.header.game_id],
        ).fetchall()
        assert got == sorted(want, key=lambda r: (r[0], not r[3], r[2]))
    assert all(seen.values()), seen  # the sample games really move Ship-Sites and attack them


@pytest.mark.skipif(not columnar.BUILT, reason="the C extension is not built here")
def test_the_c_path_flattens_ship_site_events_as_the_reference(corsair_logs: Path) -> None:
    files = collect([corsair_logs])
    assert_same(fast(files), flatten_files(files, {}, fast=False))
