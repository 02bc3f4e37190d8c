"""A long event does not grow the server without bound: a finished table leaves memory after its grace period
(``annals serve --keep-finished``), and whoever comes for it later is answered from its closed log, losing
nothing: the status and result, and a seat's whole view, result and close, as the seat was sent them live."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosedOK, InvalidStatus

from tests.serverkit import Running, play_seat, recv, server

GAMES = 30


def _in_memory(s: Running) -> list[dict[str, Any]]:
    status, listed = s.api("/api/tables")
    assert status == 200
    return list(listed["tables"])


def _until_empty(s: Running, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while _in_memory(s) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _in_memory(s) == []


def _rest_of(ws: Any) -> list[Any]:
    got: list[Any] = []
    while not got or got[-1]["type"] != "close":
        got.append(recv(ws))
    return got


def test_finished_tables_leave_memory_and_are_answered_from_their_closed_logs(tmp_path: Any) -> None:
    """Many short games (bots against bots, and people's seats played over WebSocket): once each is over and its
    grace period has passed, the server holds no table; the status of a
    dropped table comes from its closing record, and a seat that reconnects gets the hello, every event of its
    view as it was sent live, the same game_over and a close; the table then leaves memory again."""
    with server(tmp_path, "--keep-finished", "0.3") as s:
        assert _in_memory(s) == []  # the baseline
        bots = [s.table("morana", ["clash", "glory"], ["random", "heuristic"], seed=i) for i in range(GAMES)]
        people = [s.table("morana", ["glory", "clash"], ["human", "random"], seed=100 + i) for i in range(3)]
        live: dict[int, list[Any]] = {}

        def seat(i: int) -> None:
            with s.socket(people[i]["table"], people[i]["tokens"][0]) as ws:
                live[i] = play_seat(ws, i)

        threads = [threading.Thread(target=seat, args=(i,)) for i in range(len(people))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        results = {made["table"]: s.wait_over(made["table"]) for made in bots + people}
        assert all(info["over"] and info["result"]["reason"] for info in results.values())
        _until_empty(s)

        for table_id, before in results.items():  # each answered from its log, nothing lost
            status, after = s.api(f"/api/tables/{table_id}")
            assert status == 200 and after == {**before, "in_memory": False}
        assert _in_memory(s) == []  # a status read does not bring the table back

        for i, made in enumerate(people):
            with s.socket(made["table"], made["tokens"][0]) as ws:
                again = _rest_of(ws)
            assert again[0]["type"] == "hello" and again[0]["resumed_at"] == len(
                [m for m in live[i] if m["type"] == "event"]
            )
            assert [m for m in again if m["type"] == "event"] == [m for m in live[i] if m["type"] == "event"]
            over = [m for m in again if m["type"] == "game_over"]
            assert over == [m for m in live[i] if m["type"] == "game_over"] and len(over) == 1
            assert over[0]["winner"] == results[made["table"]]["result"]["winner"]
            with pytest.raises(InvalidStatus):  # read back from its log, the table still refuses another's token
                s.socket(made["table"], people[(i + 1) % len(people)]["tokens"][0]).recv(timeout=5)
        _until_empty(s)
        with pytest.raises(InvalidStatus):  # a wrong token does not even bring a finished table back to memory
            s.socket(people[0]["table"], "not-a-token").recv(timeout=5)
        assert _in_memory(s) == []
        status, missing = s.api("/api/tables/000000000000")
        assert status == 404 and "no such table" in missing["error"]


def test_a_client_still_connected_when_its_table_leaves_memory_is_closed_cleanly(tmp_path: Any) -> None:
    """A seat that stays connected after game over: when the grace period ends its socket is closed by
    the server (after the close message it already had), and the table is gone from memory."""
    with server(tmp_path, "--keep-finished", "0.5") as s:
        made = s.table("morana", ["clash", "glory"], ["human", "random"], seed=5)
        with s.socket(made["table"], made["tokens"][0]) as ws:
            got = play_seat(ws, 3)
            assert got[-1]["type"] == "close"
            with pytest.raises(ConnectionClosedOK):  # the server closes the socket: no frame more
                ws.recv(timeout=20)
        _until_empty(s)
