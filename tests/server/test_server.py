"""The game server on 127.0.0.1, as a real process: whole games over WebSocket, access, bad messages, clocks,
disconnects, and a kill -9 in the middle of a game."""

from __future__ import annotations

import contextlib
import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from annals.engine.replay import rerun
from annals.schemas import protocol as p
from annals.schemas.logfile import read_log
from annals.server.store import TOKEN_BYTES, Store
from tests.serverkit import Running, play_seat, recv, server, start, stop


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with server(tmp_path_factory.mktemp("served")) as s:
        yield s


def _both(s: Running, table: dict[str, Any], seeds: tuple[int, int] = (1, 2)) -> dict[int, list[Any]]:
    got: dict[int, list[Any]] = {}

    def seat(i: int) -> None:
        with s.socket(table["table"], table["tokens"][i]) as ws:
            got[i] = play_seat(ws, seeds[i])

    threads = [threading.Thread(target=seat, args=(i,)) for i in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return got


def test_two_clients_play_a_whole_morana_game_over_websocket(running: Running) -> None:
    """[MOR-05] [MOR-15] A whole game between two WebSocket clients; the log verifies and names its result;
    each seat's hello is its own, and the opponent's draws reach it only as hidden cards."""
    table = running.table("morana", ["clash", "glory"], ["human", "human"])
    got = _both(running, table)
    info = running.wait_over(table["table"])
    game = read_log(info["log"])
    assert rerun(game).ok and game.close.end_reason == info["result"]["reason"]
    for seat in (0, 1):
        assert got[seat][0]["type"] == "hello" and got[seat][0]["seat"] == seat
        assert [m["type"] for m in got[seat][-2:]] == ["game_over", "close"]
        foe_draws = [m["event"] for m in got[seat] if m["type"] == "event" and m["event"]["kind"] == "Drew"
                     and m["event"]["player"] != seat]  # fmt: skip
        assert foe_draws and all(e["card"] == -1 for e in foe_draws)


def test_a_client_plays_miras9_against_a_bot_to_the_turn_cap(running: Running) -> None:
    """[M9-011] A Miras 9 table, a client against the heuristic bot, capped at 6 turns; the log verifies."""
    table = running.table("miras9", ["vanguard", "tempest"], ["human", "heuristic"], max_turns=6)
    assert table["tokens"][1] == ""  # the bot's seat has no token
    with running.socket(table["table"], table["tokens"][0]) as ws:
        got = play_seat(ws, 5)
    info = running.wait_over(table["table"])
    assert rerun(read_log(info["log"])).ok and got[-1]["type"] == "close"


def test_tokens_are_unguessable_and_a_wrong_or_other_tables_token_is_refused(running: Running) -> None:
    """Tokens hold 192 bits from secrets; a made-up token, another table's token and no token are refused
    before the socket opens (403)."""
    a = running.table("morana", ["clash", "glory"], ["human", "human"])
    b = running.table("morana", ["clash", "glory"], ["human", "human"])
    tokens = [*a["tokens"], *b["tokens"], a["spectator_token"], b["spectator_token"]]
    assert len(set(tokens)) == 6 and all(len(t) >= TOKEN_BYTES * 4 // 3 for t in tokens)
    for table, token in ((a["table"], b["tokens"][0]), (a["table"], "guess"), (a["table"], ""),
                         ("nosuchtable", a["tokens"][0]), (b["table"], a["spectator_token"])):  # fmt: skip
        with pytest.raises(InvalidStatus) as refused:
            running.socket(table, token)
        assert refused.value.response.status_code == 403
    records = Store(running.data).records()
    assert all(a["tokens"][0] not in json.dumps(r.token_hashes) for r in records)  # only hashes are kept
    status, _ = running.api("/api/tables", {"ruleset": "morana", "decks": [], "seats": []}, token="wrong")
    assert status == 401


def test_a_spectator_cannot_act_and_sees_no_hand(running: Running) -> None:
    """[MOR-07] The spectators' token opens the spectator view: an answer from it is refused with the spectator
    error code; the game goes on between the seats, and the spectator sees every card drawn only as hidden."""
    table = running.table("morana", ["clash", "glory"], ["human", "human"], delay=2)
    with running.socket(table["table"], table["spectator_token"]) as watcher:
        hello = recv(watcher, 10)
        assert hello["type"] == "hello" and hello["seat"] == -1 and hello["deck"] == [] and hello["delay"] == 2
        watcher.send(json.dumps({"type": "answer", "choose": 0}))
        seen = []
        while (m := recv(watcher, 10))["type"] != "error":
            seen.append(m)
        assert m["code"] == p.SPECTATOR
        _both(running, table)
        while m["type"] != "close":
            m = recv(watcher, 10)
            seen.append(m)
    draws = [m["event"] for m in seen if m["type"] == "event" and m["event"]["kind"] == "Drew"]
    assert draws and all(e["card"] == -1 for e in draws)
    log = read_log(running.wait_over(table["table"])["log"])
    assert len([m for m in seen if m["type"] == "event"]) == len(log.events)


def test_bad_messages_get_named_errors_and_the_question_again(running: Running) -> None:
    """Malformed JSON, an unknown message, a wrong index, a wrong type, a stale decision number, a line over the
    protocol's limit: each gets an error with its code and the game is unchanged; a frame over the socket's limit
    closes the socket, and the seat reconnects and finishes; the log verifies."""
    table = running.table("morana", ["clash", "glory"], ["human", "heuristic"])
    with running.socket(table["table"], table["tokens"][0]) as ws:
        while (m := recv(ws, 10))["type"] != "decide":
            pass
        n = len(m["options"])
        for bad, code in ((b"{not json", p.MALFORMED), (b"[]", p.MALFORMED), (b'{"type": "dance"}', p.UNKNOWN_MESSAGE),
                          (json.dumps({"type": "answer", "choose": n}).encode(), p.BAD_ANSWER),
                          (b'{"type": "answer", "choose": "0"}', p.UNKNOWN_MESSAGE),
                          (json.dumps({"type": "answer", "choose": 0, "decision": 999}).encode(), p.NOT_YOUR_DECISION),
                          (b'{"type": "answer", "choose": 0, "pad": "' + b"x" * p.MAX_MESSAGE_BYTES + b'"}',
                           p.TOO_LONG)):  # fmt: skip
            ws.send(bad.decode())
            while (reply := recv(ws, 10))["type"] not in ("error",):
                pass
            assert reply["code"] == code and reply["message"], bad[:40]
        with pytest.raises(ConnectionClosed):  # the server closes it: while the frame is still going out, or after
            ws.send("x" * (2 * 1024 * 1024))  # beyond the socket's frame limit
            while True:
                recv(ws, 10)
    with running.socket(table["table"], table["tokens"][0]) as ws:
        got = play_seat(ws, 3)
    assert got[0]["type"] == "hello" and got[0]["resumed_at"] > 0
    info = running.wait_over(table["table"])
    game = read_log(info["log"])
    assert rerun(game).ok and game.close.end_reason != "time"


def test_a_client_that_never_answers_loses_on_time(running: Running) -> None:
    """A seat whose time bank runs out while it is asked loses: a ClockCharged and a Forfeited event end the
    log, with end reason "time"; the log verifies."""
    table = running.table("morana", ["clash", "glory"], ["human", "heuristic"], clock=1)
    with running.socket(table["table"], table["tokens"][0]) as ws:
        got = play_seat(ws, 1, stop_after=0)
        assert got[-1]["type"] == "decide"
        info = running.wait_over(table["table"], timeout=20)
    game = read_log(info["log"])
    assert game.close.end_reason == "time" and game.close.winner == 1
    assert [type(e).__name__ for e in game.events[-2:]] == ["ClockCharged", "Forfeited"]
    assert game.events[-2].left_ms == 0 and rerun(game).ok


def test_a_client_that_disconnects_mid_decision_reconnects_and_continues(running: Running) -> None:
    """Mid-decision the socket drops; with the same token the seat gets the hello, its whole view again, the same
    decide (same decision number), and plays on; ClockCharged events record the time each decision took."""
    table = running.table("morana", ["clash", "glory"], ["human", "heuristic"], clock=60)
    with running.socket(table["table"], table["tokens"][0]) as ws:
        first = play_seat(ws, 4, stop_after=3)
    asked = first[-1]
    with running.socket(table["table"], table["tokens"][0]) as ws:
        again = play_seat(ws, 4)
    decides = [m for m in again if m["type"] == "decide"]
    assert decides[0]["decision"] == asked["decision"] and decides[0]["options"] == asked["options"]
    events_before = [m for m in first if m["type"] == "event"]
    assert [m for m in again if m["type"] == "event"][: len(events_before)] == events_before
    game = read_log(running.wait_over(table["table"])["log"])
    clocks = [e for e in game.events if type(e).__name__ == "ClockCharged"]
    assert rerun(game).ok and clocks and all(0 <= e.left_ms <= 60_000 for e in clocks)


def test_static_files_cannot_be_read_outside_their_folder(running: Running) -> None:
    ok = urllib.request.urlopen(running.base + "/static/app.js", timeout=10)
    assert ok.status == 200 and b"WebSocket" in ok.read()
    page = urllib.request.urlopen(running.base + "/play/x?token=y", timeout=10).read()
    assert b'<script type="module" src="/static/app.js">' in page and b"http" not in page.replace(b"http-equiv", b"")
    escapes = ["/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2f..%2fserver%2fapp.py",
               "/static/%2e%2e%2f%2e%2e%2fpyproject.toml", "/static//etc/passwd", "/static/....//app.py"]  # fmt: skip
    for path in escapes:
        try:
            with urllib.request.urlopen(running.base + path, timeout=10) as response:
                body = response.read()
                assert b"Starlette" not in body and b"[project]" not in body and b"root:" not in body, path
                assert response.status != 200, path
        except urllib.error.HTTPError as exc:
            assert exc.code in (400, 404), path


def test_the_server_listens_on_localhost_unless_told(running: Running) -> None:
    """Without --host the listening socket is 127.0.0.1 (read from the kernel's table of sockets)."""
    port = f"{running.port:04X}"
    listening = [line.split() for line in Path("/proc/net/tcp").read_text().splitlines()[1:]]
    ours = [cols[1] for cols in listening if cols[1].endswith(":" + port) and cols[3] == "0A"]
    assert ours == ["0100007F:" + port]
    assert not [c for c in Path("/proc/net/tcp6").read_text().splitlines() if f":{port} " in c and " 0A " in c]


def test_kill_9_mid_game_then_restart_both_clients_reconnect_and_finish(tmp_path: Path) -> None:
    """The server dies by SIGKILL mid-game; started again on the same data, it resumes the game from its live
    log; both clients reconnect with their tokens, finish the game, and the log verifies."""
    from annals.engine.table import read_prefix

    first = start(tmp_path)
    table = first.table("morana", ["clash", "glory"], ["human", "human"])
    log = tmp_path / "tables" / f"{table['table']}.log"

    def part(i: int) -> None:
        try:
            with first.socket(table["table"], table["tokens"][i]) as ws:
                play_seat(ws, 10 + i, timeout=15)
        except (ConnectionClosed, OSError):  # the server is killed under it
            pass

    threads = [threading.Thread(target=part, args=(i,), daemon=True) for i in (0, 1)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 30
    while len(read_prefix(log)[2]) < 6 and time.monotonic() < deadline:
        time.sleep(0.001)
    stop(first, kill=True)
    for t in threads:
        t.join(20)
    _, events, decisions, close = read_prefix(log)
    assert close is None and len(decisions) >= 6  # killed mid-game
    second = start(tmp_path, first.port)
    try:
        got = _both(second, table, (20, 21))
        info = second.wait_over(table["table"])
    finally:
        out = stop(second)
    assert f"resumed table {table['table']}" in out
    game = read_log(info["log"])
    assert rerun(game).ok and game.close.events == len(game.events)
    assert game.events[: len(events)] == events and game.decisions[: len(decisions)] == decisions
    assert all(got[i][0]["resumed_at"] > 0 for i in (0, 1))


def test_many_decisions_each_on_disk_before_the_next_question(running: Running) -> None:
    """The log is written live: when a seat is asked decision k, the log on disk already holds k decisions."""
    table = running.table("morana", ["clash", "glory"], ["human", "heuristic"])
    path = running.data / "tables" / f"{table['table']}.log"
    from annals.engine.table import read_prefix

    checked = 0
    with running.socket(table["table"], table["tokens"][0]) as ws:
        while True:
            m = recv(ws, 10)
            if m["type"] == "decide":
                _, _, decisions, _ = read_prefix(path)
                assert len(decisions) == m["decision"]
                checked += 1
                ws.send(json.dumps({"type": "answer", "choose": 0}))
            elif m["type"] == "close":
                break
    time.sleep(0)
    assert checked >= 5


def test_spectators_see_the_game_a_set_number_of_decisions_late(running: Running) -> None:
    """With delay 3, while a seat is asked decision c the spectators have been sent exactly the events from
    before decision c - 3 (read from the live log), and at the end every event."""
    from annals.engine.table import read_prefix

    table = running.table("morana", ["clash", "glory"], ["human", "heuristic"], delay=3)
    path = running.data / "tables" / f"{table['table']}.log"
    with running.socket(table["table"], table["spectator_token"]) as watcher, \
            running.socket(table["table"], table["tokens"][0]) as seat:  # fmt: skip
        asked = play_seat(seat, 7, stop_after=6)[-1]
        assert asked["type"] == "decide", f"the table stopped before the seat's 7th decision: {asked}"
        c = asked["decision"]
        events = 0
        with contextlib.suppress(TimeoutError):
            while True:
                events += recv(watcher, 0.5)["type"] == "event"
        _, logged, decisions, _ = read_prefix(path)
        assert c >= 6 and events == decisions[c - 3].at < len(logged)
        m = asked
        while m["type"] != "close":  # play on: answer every question put to this seat
            if m["type"] == "decide" and m["player"] == 0:
                seat.send(json.dumps({"type": "answer", "choose": 0, "decision": m["decision"]}))
            m = recv(seat, 10)
        while (m := recv(watcher, 10))["type"] != "close":
            events += m["type"] == "event"
    assert events == len(read_log(path).events)


def test_a_spectator_gets_a_board_of_the_delayed_view_never_the_present(running: Running) -> None:
    """[MOR-07] [MOR-21] Spectators get a board after each release of events: every board they get is exactly the
    spectator view folded from the events they have been sent (the log's first k), so with delay 3 it shows the
    position as it stood three decisions back, with no hand card named; at the end the board of the whole game."""
    from annals.engine.registry import get_ruleset
    from annals.engine.seats import SeatStream

    table = running.table("morana", ["clash", "glory"], ["human", "heuristic"], delay=3)
    with running.socket(table["table"], table["spectator_token"]) as watcher:
        _seat_plays(running, table, seed=9)
        seen = []
        while (m := recv(watcher, 10))["type"] != "close":
            seen.append(m)
    log = read_log(running.wait_over(table["table"])["log"])
    stream = SeatStream(get_ruleset("morana"), log.header, -1)
    boards, events_sent = 0, 0
    for m in seen:
        if m["type"] == "event":
            stream.event(log.events[events_sent])  # fold what the spectator has been sent, and no more
            events_sent += 1
        elif m["type"] == "board":
            assert json.loads(p.encode(stream.board())) == m, f"board after {events_sent} events"
            assert not [c for z in m["zones"] if z["zone"] == "hand" for c in z["cards"]]  # no hand card named
            boards += 1
    assert events_sent == len(log.events) and boards >= log.close.decisions // 2
    assert seen[-1]["type"] == "game_over" and seen[-2]["type"] == "board"


def _seat_plays(running: Running, table: dict[str, Any], seed: int) -> threading.Thread:
    """Seat 0 of ``table`` played to the end by a random client in a thread (joined by the caller's reads)."""

    def seat() -> None:
        with running.socket(table["table"], table["tokens"][0]) as ws:
            play_seat(ws, seed)

    thread = threading.Thread(target=seat, daemon=True)
    thread.start()
    return thread


def test_kill_9_resume_appends_keeps_judge_frames_and_signatures_and_restores_time_banks(tmp_path: Path) -> None:
    """[R-CORE-5] A clocked game: the server dies by SIGKILL mid-game; while it is down a judge's note and an
    event's signature are appended to the live log. On restart the game resumes by appending: the final log
    begins with every byte the log held (judge frame and signature included), and each seat's clock goes on from
    the time bank the log last recorded for it, not from a fresh bank. The game finishes and verifies."""
    from annals.engine.judge import intervene
    from annals.engine.replay import verify_log
    from annals.engine.table import read_prefix
    from annals.schemas.judge import Intervention
    from annals.schemas.keys import SigningKey
    from annals.schemas.records import ClockCharged
    from annals.schemas.signing import sign_log, verify_signature

    first = start(tmp_path)
    table = first.table("morana", ["clash", "glory"], ["human", "human"], clock=120)
    log = tmp_path / "tables" / f"{table['table']}.log"

    def part(i: int) -> None:
        # the server is killed under it
        with contextlib.suppress(ConnectionClosed, OSError), first.socket(table["table"], table["tokens"][i]) as ws:
            play_seat(ws, 30 + i, timeout=15, think=0.03)

    threads = [threading.Thread(target=part, args=(i,), daemon=True) for i in (0, 1)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 30
    while len(read_prefix(log)[2]) < 8 and time.monotonic() < deadline:
        time.sleep(0.005)
    stop(first, kill=True)
    for t in threads:
        t.join(20)
    _, events, decisions, close = read_prefix(log)
    assert close is None and len(decisions) >= 8
    recorded = {e.player: e.left_ms for e in events if type(e) is ClockCharged}
    assert set(recorded) == {0, 1} and all(left < 120_000 - 20 for left in recorded.values())  # time was spent
    intervene(log, Intervention("note", "R. Vance", note="server restarted after a crash"))
    key = SigningKey.generate("Spring Open")
    sign_log(log, key)
    before = log.read_bytes()

    second = start(tmp_path, first.port)
    try:
        got = _both(second, table, (40, 41))
        info = second.wait_over(table["table"])
    finally:
        out = stop(second)
    assert f"resumed table {table['table']}" in out and all(got[i][0]["resumed_at"] > 0 for i in (0, 1))
    after = log.read_bytes()
    assert after.startswith(before) and len(after) > len(before)  # appended, never rewritten
    game = read_log(info["log"])
    assert [j.record.note for j in game.judged] == ["server restarted after a crash"]
    status = verify_signature(log)  # the signature over the prefix still checks; the frames after it await the key
    assert status.signatures == 1 and "is followed by" in status.message and not status.ok
    sign_log(log, key)  # the event's key re-signs the finished game (the server does not hold it)
    assert verify_signature(log).ok and verify_signature(log).signatures == 2
    later = [e for e in game.events[len(events) :] if type(e) is ClockCharged]
    for seat in (0, 1):  # each seat's first charge after the restart starts from its recorded bank
        charge = next(e for e in later if e.player == seat)
        assert charge.left_ms + charge.spent_ms == recorded[seat] or charge.left_ms == 0
    assert verify_log(log).events == len(game.events) and game.events[: len(events)] == events


def test_a_torn_last_frame_is_moved_aside_and_the_game_resumes_from_the_whole_frames(tmp_path: Path) -> None:
    """[R-CORE-5] A live log whose last write was cut short (half a frame on disk): ``LiveTable.resume`` moves
    the torn bytes to LOG.torn-OFFSET, appends after the whole frames, and the finished game verifies."""
    from annals.engine.players import run_table
    from annals.engine.registry import get_ruleset
    from annals.engine.simulate import make_header
    from annals.engine.table import LiveTable
    from tests.live import RandomClient

    ruleset = get_ruleset("morana")
    header = make_header(ruleset, 5, ["clash", "glory"], ["external", "external"], known_agents=["external"])
    path = tmp_path / "live.log"
    table = LiveTable(ruleset, header, path)
    for _ in range(6):
        point = table.question()
        assert point is not None
        table.answer(0)
    table.question()
    whole = path.read_bytes()  # six decisions, on disk before the seventh question
    table.answer(0)
    table.question()  # the seventh decision's frame is written...
    table.abandon()
    written = path.read_bytes()
    torn = written[len(whole) : len(whole) + (len(written) - len(whole)) // 2]
    path.write_bytes(whole + torn)  # ...but only its first half reached the disk
    resumed = LiveTable.resume(path)
    assert (tmp_path / f"live.log.torn-{len(whole)}").read_bytes() == torn
    result = run_table(resumed, [RandomClient(resumed, 1), RandomClient(resumed, 2)])
    game = read_log(path)
    assert path.read_bytes().startswith(whole) and rerun(game).ok and result.decisions == len(game.decisions)
    assert game.decisions[:6] == read_log_prefix_decisions(whole, tmp_path)


def read_log_prefix_decisions(data: bytes, folder: Path) -> list[Any]:
    from annals.engine.table import read_prefix

    copy = folder / "prefix.log"
    copy.write_bytes(data)
    return read_prefix(copy)[2]
