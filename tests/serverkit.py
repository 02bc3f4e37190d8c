"""A real server on 127.0.0.1 for the tests: started as a process (``annals serve``), tables made over its API,
seats played by protocol-only WebSocket clients."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import weakref
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from annals.engine.rng import Rng
from annals.schemas import protocol as p

ADMIN = "test-admin-token-0123456789abcdef"


def run_alone(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """``asyncio.run(scenario())`` on a thread of its own: a test before may have left this thread inside an
    event loop (Playwright's sync API keeps one), where ``asyncio.run`` refuses to start."""
    failed: list[BaseException] = []

    def main() -> None:
        try:
            asyncio.run(scenario())
        except BaseException as exc:  # handed to the test's thread
            failed.append(exc)

    thread = threading.Thread(target=main)
    thread.start()
    thread.join(120)
    assert not thread.is_alive(), "the scenario did not end within 120 s"
    if failed:
        raise failed[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Running:
    def __init__(self, proc: subprocess.Popen[bytes], port: int, data: Path):
        self.proc, self.port, self.data = proc, port, data
        self.base = f"http://127.0.0.1:{port}"

    def api(self, path: str, body: Any = None, token: str = ADMIN, raw: bytes | None = None) -> tuple[int, Any]:
        """A GET, or a POST of ``body`` as JSON (or of ``raw`` bytes as they are); the status and the JSON answer."""
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        request = urllib.request.Request(self.base + path, data=data, method="POST" if data is not None else "GET")
        request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"{}")

    def table(self, ruleset: str, decks: list[str], seats: list[str], **extra: Any) -> dict[str, Any]:
        status, made = self.api("/api/tables", {"ruleset": ruleset, "decks": decks, "seats": seats, **extra})
        assert status == 201, made
        return dict(made)

    def socket(self, table: str, token: str, query: str = "") -> ClientConnection:
        return connect(f"ws://127.0.0.1:{self.port}/ws/{table}?token={token}{query}", open_timeout=10)

    def wait_over(self, table: str, timeout: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status, info = self.api(f"/api/tables/{table}")
            if status == 200 and info["over"]:
                return dict(info)
            time.sleep(0.05)
        raise AssertionError(f"table {table} not over after {timeout} s")


def start(data: Path, port: int | None = None, *extra: str) -> Running:
    port = port or free_port()
    env = {**os.environ, "ANNALS_ADMIN_TOKEN": ADMIN}
    args = [str(Path(sys.executable).parent / "annals"), "serve", "--data", str(data), "--port", str(port), *extra]
    proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server stopped: {proc.stdout.read().decode() if proc.stdout else ''}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return Running(proc, port, data)
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise AssertionError("the server did not start within 30 s")


def stop(running: Running, *, kill: bool = False) -> str:
    if running.proc.poll() is None:
        running.proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
    try:
        out, _ = running.proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        running.proc.kill()
        out, _ = running.proc.communicate()
    return out.decode() if out else ""


@contextmanager
def server(data: Path, *extra: str) -> Iterator[Running]:
    running = start(data, None, *extra)
    try:
        yield running
    finally:
        stop(running)


_waiting: weakref.WeakKeyDictionary[ClientConnection, list[Any]] = weakref.WeakKeyDictionary()


def recv(ws: ClientConnection, timeout: float = 10) -> Any:
    """The next message from the table (decoded): a frame holds one or more, one per line."""
    waiting = _waiting.setdefault(ws, [])
    while not waiting:
        waiting.extend(p.split_frame(ws.recv(timeout=timeout)))
    return waiting.pop(0)


def play_seat(
    ws: ClientConnection, seed: int, *, stop_after: int | None = None, timeout: float = 30, think: float = 0
) -> list[Any]:
    """Answer a random option at every decide for this seat (after ``think`` seconds); returns every message
    received (decoded). With ``stop_after``, returns after that many answers (the socket stays open)."""
    rng = Rng(seed)
    got: list[Any] = []
    seat = -2
    answered = 0
    while True:
        message = recv(ws, timeout)
        got.append(message)
        kind = message["type"]
        if kind == "hello":
            seat = message["seat"]
        elif kind == "decide" and message["player"] == seat:
            if stop_after is not None and answered >= stop_after:
                return got
            choice = rng.below(len(message["options"]))
            time.sleep(think)
            ws.send(json.dumps({"type": "answer", "choose": choice, "decision": message["decision"]}))
            answered += 1
        elif kind == "close":
            return got
