"""The server watching an event's record (``EventDesk.watch``): a record it cannot read (edited by hand, or written
by a newer annals) is said once, not every few seconds until it is put right, and its reading again is said."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from annals.engine.tournament.record import EventError
from annals.server.event_desk import EventDesk
from tests.serverkit import run_alone


class Record:
    """A desk whose record fails to read on the calls listed, and reads (with nothing new) on the others."""

    def __init__(self, failing: dict[int, str]):
        self.failing, self.calls = failing, 0

    def catch_up(self, base: str) -> list[str]:
        self.calls += 1
        if self.calls in self.failing:
            raise EventError(self.failing[self.calls])
        return []


def test_a_record_that_cannot_be_read_is_said_once_until_it_changes() -> None:
    broken = "club/event.log: frame 36: payload does not match the schema"
    desk = Record({2: broken, 3: broken, 4: broken, 5: "club/event.log: frame 37: torn", 7: broken})
    said: list[str] = []

    async def watch() -> None:
        task = asyncio.create_task(EventDesk.watch(cast(Any, desk), "http://host", said.append, every_s=0.001))
        while desk.calls < 8:
            await asyncio.sleep(0.001)
        task.cancel()

    run_alone(watch)  # not asyncio.run here: a Playwright test before may have left this thread in a loop
    assert said[:4] == [
        f"the event's record cannot be read: {broken}",
        "the event's record cannot be read: club/event.log: frame 37: torn",
        "the event's record reads again",
        f"the event's record cannot be read: {broken}",
    ]
