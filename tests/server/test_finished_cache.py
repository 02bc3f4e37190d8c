"""A finished table that has left memory is cheap to ask about again: its status comes from a closing record kept
in memory (bounded, the least recently asked for going first) and a seat that comes back gets the table as it
was dropped (the last few kept), neither read from the log again while the log is unchanged; once the log
changes (a judge's backup, the game played on) both are read anew. The server's ``Server`` in this process, its
tables played by bots to the end."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from annals.engine.judge import backup
from annals.engine.players import resume_live
from annals.server.app import FINISHED_KEPT, NewTable, Server
from tests.serverkit import run_alone


async def _played(server: Server, seeds: range) -> list[dict[str, Any]]:
    """Tables of two bots, played to the end and dropped from memory."""
    made = [server.create(NewTable("morana", ["clash", "glory"], ["random", "heuristic"], seed=i)) for i in seeds]
    await asyncio.gather(*(server.tasks[m["table"]] for m in made))
    for _ in range(200):
        if not any(m["table"] in server.tables for m in made):
            break
        await asyncio.sleep(0.01)
    assert not any(m["table"] in server.tables for m in made)
    return made


def test_a_dropped_tables_status_is_read_once_and_again_when_its_log_changes(tmp_path: Path) -> None:
    async def scenario() -> None:
        server = Server(tmp_path, "admin", keep_s=0)
        (made,) = await _played(server, range(1))
        table_id = made["table"]
        first = server.status(table_id)
        assert first is not None and first["over"] and not first["in_memory"]
        reads = server.store.logs_read
        for _ in range(5):
            assert server.status(table_id) == first
        assert server.store.logs_read == reads  # answered from memory
        log = Path(first["log"])
        backup(log, 3, "R. Vance")  # the game taken back to decision 3: no longer over
        assert server.status(table_id) is None  # not the kept record: the log changed
        resume_live(log, ["random", "random"])  # played on to a new end
        again = server.status(table_id)
        assert again is not None and again["over"] and server.store.logs_read == reads + 2
        assert server.store.closed(table_id) == server.store.closed(table_id)
        assert again["decisions"] == server.store.closed(table_id).decisions  # type: ignore[union-attr]

    run_alone(scenario)


def test_the_closing_records_kept_are_bounded_and_the_evicted_read_again(tmp_path: Path) -> None:
    async def scenario() -> None:
        server = Server(tmp_path, "admin", keep_s=0)
        server.store.closed_kept = 3
        made = await _played(server, range(5))
        statuses = [server.status(m["table"]) for m in made]
        assert all(s is not None and s["over"] for s in statuses)
        assert server.store.kept_closed() == 3
        reads = server.store.logs_read
        assert [server.status(m["table"]) for m in made[2:]] == statuses[2:]  # the 3 last asked: kept
        assert server.store.logs_read == reads
        assert server.status(made[0]["table"]) == statuses[0]  # evicted: read again, the same answer
        assert server.store.logs_read == reads + 1 and server.store.kept_closed() == 3

    run_alone(scenario)


def test_a_dropped_table_is_taken_back_as_it_was_until_its_log_changes(tmp_path: Path) -> None:
    async def scenario() -> None:
        server = Server(tmp_path, "admin", keep_s=0)
        made = await _played(server, range(FINISHED_KEPT + 2))
        assert len(server.finished) == FINISHED_KEPT  # bounded: the first two dropped are not kept
        evicted = [m for m in made if m["table"] not in server.finished]
        last = next(m for m in made if m["table"] in server.finished)
        assert len(evicted) == 2
        table = server.table(last["table"], last["spectator_token"])
        assert table is not None and server.read_back == 0  # the table as dropped, not read from its log
        seen = table.live.closed
        first = server.table(evicted[0]["table"], evicted[0]["spectator_token"])
        assert first is not None and server.read_back == 1  # not kept: read back from its log
        assert server.table(last["table"], "not a token") is table  # in memory again; a wrong token gets no seat
        assert table.seat_for("not a token") is None
        await asyncio.sleep(0.05)  # both dropped again
        assert last["table"] not in server.tables
        log = server.store.log_path(last["table"])
        backup(log, 2, "R. Vance")
        resume_live(log, ["random", "random"])
        again = server.table(last["table"], last["spectator_token"])
        assert again is not None and again is not table and server.read_back == 2  # the log changed: read anew
        assert again.live.closed == server.store.closed(last["table"]) and again.live.closed != seen

    run_alone(scenario)
