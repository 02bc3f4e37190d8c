"""A bot that takes its time (the search bot: up to a second a decision, several a MORANA turn) thinks on a worker
thread: the server's loop goes on meanwhile, so other tables, pages and this table's own sockets are served while
it thinks, and the person's board says whom the table waits for. It ran on the loop's own thread: every table and
page of the server stood still for as long as the bot thought (an HTTP request waited up to 3 s in a game against
``search``). The server's ``Server`` in this process; the bot is a slow stand-in (a fixed sleep a decision, then
the random bot's choice), so the test does not depend on the search's speed."""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path
from typing import Any

from annals.engine.core import Agent, DecisionPoint
from annals.schemas import protocol as p
from annals.server.app import NewTable, Server
from tests.serverkit import run_alone

THINK_S = 0.3


class Slow:
    """An agent that thinks ``THINK_S`` seconds (blocking, as a search does), then answers as ``agent`` would;
    ``seen`` runs at the end of each think (what the person's socket has been sent by then)."""

    def __init__(self, agent: Agent, seen: Any = None):
        self.agent, self.seen, self.decisions = agent, seen, 0

    def choose(self, view: Any, point: DecisionPoint[Any]) -> Any:
        time.sleep(THINK_S)
        self.decisions += 1
        if self.seen is not None:
            self.seen()
        return self.agent.choose(view, point)


async def _ticks(stop: asyncio.Event, gaps: list[float]) -> None:
    """The loop's pulse: the longest wait between two 10 ms sleeps is how long the loop stood still."""
    last = time.monotonic()
    while not stop.is_set():
        await asyncio.sleep(0.01)
        now = time.monotonic()
        gaps.append(now - last)
        last = now


async def _stop(server: Server, table_id: str) -> None:
    task = server.tasks[table_id]
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def test_the_server_goes_on_while_a_bot_thinks(tmp_path: Path) -> None:
    """[MOR-05] Two slow bots play a MORANA table to the end; meanwhile the server's loop never stands still for
    as long as one decision's thought."""

    async def scenario() -> None:
        server = Server(tmp_path, "admin", keep_s=60)
        made = server.create(NewTable("morana", ["clash", "glory"], ["random", "heuristic"], seed=3))
        table = server.tables[made["table"]]
        for seat, agent in list(table.bots.items()):
            table.bots[seat] = Slow(agent)
        stop, gaps = asyncio.Event(), list[float]()
        pulse = asyncio.get_running_loop().create_task(_ticks(stop, gaps))
        await asyncio.sleep(6 * THINK_S)  # a few decisions' thought
        stop.set()
        await pulse
        thought = sum(bot.decisions for bot in table.bots.values() if isinstance(bot, Slow))
        assert thought >= 3, f"only {thought} decisions in {6 * THINK_S} s"
        assert max(gaps) < THINK_S / 2, f"the loop stood still {max(gaps):.2f} s while a bot thought"
        await _stop(server, made["table"])

    run_alone(scenario)


def test_the_persons_board_says_the_bot_is_deciding_while_it_thinks(tmp_path: Path) -> None:
    """[MOR-05] A person against a slow bot: by the end of each of the bot's thoughts, the person's socket has been
    sent a board naming the bot's seat as the one deciding (it was sent nothing until the bot had answered)."""

    async def scenario() -> None:
        server = Server(tmp_path, "admin", keep_s=60)
        made = server.create(NewTable("morana", ["clash", "glory"], ["human", "heuristic"], seed=5, clock=0))
        table = server.tables[made["table"]]
        frames: list[bytes] = []
        during: list[list[int]] = []  # for each of the bot's thoughts: the deciding seat of each board sent so far

        def seen() -> None:
            boards = [m for f in list(frames) for m in p.split_frame(f) if m["type"] == "board"]
            during.append([b.get("deciding", -1) for b in boards])

        table.bots[1] = Slow(table.bots[1], seen)

        async def send(frame: bytes) -> None:
            frames.append(frame)

        table.attach(0, send, settings=p.Settings(automatic=True, auto_pass=True))
        answered: set[int] = set()
        deadline = time.monotonic() + 60
        while len(during) < 3 and time.monotonic() < deadline and not table.live.over:
            for message in [m for f in list(frames) for m in p.split_frame(f)]:
                if message["type"] == "decide" and message["decision"] not in answered:
                    answered.add(message["decision"])
                    table.hear(0, p.Answer(len(message["options"]) - 1, message["decision"]))  # seal, pass, keep
            await asyncio.sleep(0.02)
        assert len(during) >= 3, "the bot was asked fewer than three times"
        for boards in during:
            assert boards and boards[-1] == 1, f"the last board sent while the bot thought said {boards[-1:]}"
        await _stop(server, made["table"])

    run_alone(scenario)
