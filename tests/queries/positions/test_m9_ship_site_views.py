"""The Miras 9 Ship-Site events in the database: ``m9_ship_sites`` holds exactly what the logs hold (each card of
each Ship-Site move, contest and return [M9-063], each unblocked attack on a Ship-Site [M9-072]); the C ingest path
flattens them as the reference does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest

from annals.engine.miras9.state import ROUTE_NAMES, M9State
from annals.engine.simulate import simulate
from annals.ingest.flatten import collect, flatten_files
from annals.ingest.loader import ingest
from annals.queries.positions.files import InvalidPositionError, load_position, position_file
from annals.queries.positions.timeline import Timeline, position_from_db
from annals.schemas import miras9 as ev
from annals.schemas.logfile import read_log
from tests.ingest.test_columnar import assert_same, fast, needs_c


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
    for log_path in collect([corsair_logs]):  # the SQL position() macro agrees with the fold after each of them
        timeline = Timeline.from_file(log_path)
        for n, e in enumerate(timeline.events):
            if type(e) in (ev.ShipSiteMoved, ev.ShipSiteAttacked):
                assert timeline.position(n + 1) == position_from_db(con, timeline.header.game_id, n), (log_path, n)


@needs_c
def test_the_c_path_flattens_ship_site_events_as_the_reference(corsair_logs: Path) -> None:
    files = collect([corsair_logs])
    assert_same(fast(files), flatten_files(files, {}, fast=False))


def test_a_position_with_a_ship_site_reads_back_and_an_impossible_one_is_refused_M9_064(
    corsair_logs: Path, tmp_path: Path
) -> None:
    """A position file holds a Ship-Site at the position it moved to and reads back to the same state; one En Route
    (a Ship-Site moves at once, ruling R-M9-53) or sharing its position with another [M9-064] is refused."""
    found = None
    for log_path in collect([corsair_logs]):
        timeline = Timeline.from_file(log_path)
        for n, e in enumerate(timeline.events):
            if type(e) is ev.ShipSiteMoved:
                state = timeline.state_after(n + 1)
                assert isinstance(state, M9State)
                others = [c for c in state.board if state.cards[c].cid.startswith("ss-") and c != e.cards[0]]
                if others:
                    found = (timeline, n + 1, e, others[0])
                    break
        if found:
            break
    assert found is not None, "no sample position with two Ship-Sites in play"
    timeline, count, moved, other = found
    path = tmp_path / "ship.json"
    path.write_bytes(position_file(timeline, count))
    assert load_position(path).state == timeline.state_after(count)
    doc = json.loads(path.read_text())
    card = doc["state"]["cards"][str(moved.cards[0])]
    assert card["zone"] == moved.dst
    card["zone"] = ROUTE_NAMES[card["loc"]]
    path.write_text(json.dumps(doc))
    with pytest.raises(InvalidPositionError, match="never En Route"):
        load_position(path)
    card["zone"] = moved.dst
    twin = doc["state"]["cards"][str(other)]
    twin["zone"], twin["loc"] = card["zone"], card["loc"]
    path.write_text(json.dumps(doc))
    with pytest.raises(InvalidPositionError, match=r"M9-064"):
        load_position(path)
