"""A table moved to paper in the moment between its first game's log being written and its table opening (the
match's thread writes the log, then hands the table to the server's loop): the log is set aside under ``torn/`` and
recorded, and the event's record verifies [R-EVT-12]. It was left behind once, a file the record did not know (the
desk's browser test failed on it in CI)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from annals.engine.tournament.verify import verify_event
from annals.server.app import Server
from annals.server.event_desk import PAPER, EventDesk, ServedMatch
from tests.server.test_event_serve import new_event
from tests.serverkit import run_alone


def test_a_table_moved_to_paper_before_its_table_opens_sets_its_log_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = new_event(tmp_path / "spring", 4)
    server = Server(tmp_path / "data", "admin")
    desk = EventDesk(server, store.folder, organiser_token="organiser")
    opening = EventDesk._open_table
    clicks: list[asyncio.Task[ServedMatch]] = []

    async def moved_first(self: EventDesk, match: ServedMatch, *args: Any) -> Any:
        clicks.append(asyncio.create_task(self.to_paper(match.pairing.table)))  # the organiser's click lands first
        while not match.paper:
            await asyncio.sleep(0)
        return await opening(self, match, *args)

    monkeypatch.setattr(EventDesk, "_open_table", moved_first)

    async def scenario() -> None:
        started = desk.open_round()
        assert started
        for match in started:
            await asyncio.to_thread(match.thread.join, 60)  # type: ignore[union-attr]
        assert [moved.state for moved in await asyncio.gather(*clicks)] == [PAPER, PAPER]

    run_alone(scenario)
    logs = [store.log_path(1, table, 1) for table in (1, 2)]
    assert [desk.matches[(1, table)].state for table in (1, 2)] == [PAPER, PAPER]
    assert not any(log.exists() for log in logs)  # moved: under torn/, not where a game's log is looked for
    assert sorted(p.name for p in (store.folder / "torn").rglob("*.log")) == [log.name for log in logs]
    verdict = verify_event(store.folder)
    assert verdict.ok, verdict.problems
