"""An event served by a real server (``annals serve --event``) for the tests: the organiser's token, the desk's API
and scripted players, each on their own link, playing their games over the tables' WebSockets."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from tests.serverkit import Running, play_seat

ORGANISER = "organiser-token-for-the-test-0123456789"


def call(running: Running, path: str, body: Any = None, token: str = ORGANISER, raw: bytes | None = None) -> Any:
    """The server's API as the organiser (``token``) calls it."""
    return running.api(path, body, token, raw)


class Player(threading.Thread):
    """A player on their own link: asks /api/me for the game to play, plays it (random answers over the table's
    WebSocket), and again until the match is over; before game 2 it waits for ``hold`` if given; it concedes the
    games numbered in ``concede`` after five answers (a decided game: random play reaches the turn cap)."""

    def __init__(self, running: Running, token: str, seed: int, hold: threading.Event | None = None,
                 concede: tuple[int, ...] = ()):  # fmt: skip
        super().__init__(daemon=True)
        self.running, self.token, self.seed, self.hold, self.concede = running, token, seed, hold, concede
        self.played: list[str] = []
        self.error = ""
        self.stop = threading.Event()

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                status, me = call(self.running, f"/api/me?token={self.token}", token="")
                assert status == 200, me
                table = me["table"]
                if not table or table in self.played:
                    time.sleep(0.05)
                    continue
                if me["game"] >= 2 and self.hold is not None:
                    self.hold.wait(60)
                with self.running.socket(table, self.token) as ws:
                    if me["game"] in self.concede:
                        got = play_seat(ws, self.seed, stop_after=5, timeout=60)
                        if got[-1]["type"] != "close":
                            ws.send(json.dumps({"type": "concede"}))
                            play_seat(ws, self.seed, timeout=60)
                    else:
                        play_seat(ws, self.seed + len(self.played), timeout=60)
                self.played.append(table)
        except Exception as exc:  # reported by the test
            self.error = repr(exc)


def desk(running: Running) -> dict[str, Any]:
    status, view = call(running, "/api/desk")
    assert status == 200, view
    return dict(view)


def wait_for(running: Running, check: Any, timeout: float = 240) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = desk(running)
        if check(view):
            return view
        time.sleep(0.1)
    raise AssertionError(f"not reached in {timeout} s: {desk(running)}")
