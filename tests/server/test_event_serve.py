"""An event's round played at a real server (``annals serve --event``): 8 players, best of 3, three tables over
real WebSockets by scripted clients on the players' own links and one table on paper typed at the desk; a judge's
game loss on game 1 of a match while its game 2 waits. The event's record verifies, its standings are the desk's
and the public page's, and ``annals ingest`` puts the same in the database [R-EVT-02] [R-EVT-07] [R-EVT-12]."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.table import read_prefix
from annals.engine.tournament import event as lib
from annals.engine.tournament import rounds as loop
from annals.engine.tournament.store import EventStore
from annals.engine.tournament.verify import verify_event
from annals.schemas.logfile import read_log
from tests.eventkit import ORGANISER, Player, call, desk, wait_for
from tests.serverkit import Running, play_seat, server, stop

ANNALS = str(Path(sys.executable).parent / "annals")
runner = CliRunner()


def new_event(folder: Path, players: int = 8, *, pair: bool = True) -> EventStore:
    made = runner.invoke(app, ["event", "new", str(folder), "--ruleset", "miras9", "--rounds", "1", "--seed", "11",
                               "--max-turns", "30"])  # fmt: skip
    assert made.exit_code == 0, made.output
    store = EventStore.open(folder)
    lib.fill_with_bots(store, players)
    if pair:
        loop.pair_next(store)
    return store


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Running, EventStore]]:
    store = new_event(tmp_path / "spring")
    monkeypatch.setenv("ANNALS_ORGANISER_TOKEN", ORGANISER)
    with server(tmp_path / "data", "--event", str(store.folder), "--paper", "4", "--game-clock", "600") as s:
        yield s, store


def test_a_round_of_three_online_tables_and_one_on_paper_with_a_judges_game_loss_M9_022(
    served: tuple[Running, EventStore], tmp_path: Path
) -> None:
    running, store = served
    view = desk(running)
    names = {p.id: p.name for p in store.players()}
    tokens = {p["id"]: p["link"].split("token=")[1] for p in view["players"]}
    assert set(tokens) == set(names) and len(set(tokens.values())) == 8
    pairings = store.rounds()[0].pairings
    judged_table = pairings[0]
    assert [t["state"] for t in view["tables"]] == ["waiting", "waiting", "waiting", "paper"]
    assert [(t["a"], t["b"]) for t in view["tables"]] == [(names[p.a], names[p.b]) for p in pairings]
    public = call(running, "/api/event", token="")[1]
    assert ORGANISER not in json.dumps(public) and not any(t in json.dumps(public) for t in tokens.values())
    assert all("spectate" not in t for t in public["tables"]) and "players" not in public

    go = threading.Event()
    concede = {pairings[1].a: (1, 3), pairings[1].b: (2,), judged_table.a: (1,)}  # decided games: who decides next
    people = [Player(running, tokens[pid], 100 + i, go if pid in (judged_table.a, judged_table.b) else None,
                     concede.get(pid, ()))
              for i, pid in enumerate(tokens) if pid not in (pairings[3].a, pairings[3].b)]  # fmt: skip
    for person in people:
        person.start()
    assert call(running, "/api/desk/clock", {"action": "start", "minutes": 50})[0] == 200

    # the judged match's game 2 is open (game 1 signed and read), its players held: a judge's game loss on game 1
    wait_for(running, lambda v: v["tables"][0].get("game") == 2)
    game1 = store.log_path(1, judged_table.table, 1)
    log = read_log(game1)
    assert log.header.tournament is not None and log.header.tournament.first_player >= 0  # [R-EVT-02] lots
    seat, _ = log.result
    loser_seat = seat if seat >= 0 else 0
    loser = log.header.tournament.player_ids[loser_seat]
    judged = runner.invoke(app, ["judge", "game-loss", str(game1), "--judge", "R. Vance", "--player", loser,
                                 "--reason", "marked cards"])  # fmt: skip
    assert judged.exit_code == 0, judged.output
    assert "re-signed with the event's key" in judged.output
    go.set()

    # the paper table: hostile input first, each refused by name, then its result
    assert call(running, "/api/desk/result", {"table": 4, "result": "2-1"}, token="wrong")[0] == 401
    status, refused = call(running, "/api/desk/result", raw=b'{"table": 4, "result": "5-0"}')
    assert (status, refused["error"]) == (
        400,
        "5-0-0 is not a result of a best of 3: a match ends when a player wins 2 games",
    ), refused
    status, refused = call(running, "/api/desk/result", raw=b'{"table": 4, "score": "2-1"}')
    assert status == 400 and refused["error"].startswith("score: unknown field"), refused
    status, refused = call(running, "/api/desk/result", raw=b"[" * 100_000)
    assert status == 400 and "error" in refused
    status, refused = call(running, "/api/desk/result", {"table": 1, "result": "2-0"})
    assert status == 409 and "played online" in refused["error"], refused
    status, refused = call(running, "/api/desk/result", {"table": 9, "result": "2-0"})
    assert status == 409 and "no match at table 9" in refused["error"], refused
    status, refused = call(running, "/api/desk/launch", {})
    assert status == 404 and "no desk action" in refused["error"]
    assert call(running, "/api/desk/result", {"table": 4, "result": "2-1"})[0] == 201

    done = wait_for(running, lambda v: v["complete"])
    for person in people:
        person.stop.set()
        person.join(10)
        assert not person.error, person.error
    assert [t["state"] for t in done["tables"]] == ["finished"] * 4
    assert [t.get("paper", False) for t in done["tables"]] == [False, False, False, True]

    # the record: every served match with its games, the judged one as it now stands [R-EVT-07]
    verdict = verify_event(store.folder)
    assert verdict.ok, verdict.problems
    matches = {m.table: m for m in store.matches()}
    assert (matches[4].wins_a, matches[4].wins_b, matches[4].games) == (2, 1, [])
    for table in (1, 2, 3):
        m = matches[table]
        assert 2 <= len(m.games) <= 3 and m.wins_a + m.wins_b + m.draws == len(m.games)
        for g in m.games:
            played = read_log(store.folder / g.log)
            assert [p.name for p in played.header.players] == [names[s] for s in g.seats]  # players by name
            assert [p.agent for p in played.header.players] == ["human", "human"]
            if g.number > 1:  # [R-EVT-02] the loser of the previous game decides; [R-EVT-12] and plays first
                before = m.games[g.number - 2]
                if before.winner and table != 1:
                    assert g.method == "loser" and g.decider != before.winner
                assert g.first == g.decider
    conceded = matches[2]  # its a conceded games 1 and 3, its b game 2: b wins 2-1, each loser playing first next
    assert [(g.winner, g.end_reason, g.first) for g in conceded.games] == [
        (conceded.b, "concession", conceded.games[0].first), (conceded.a, "concession", conceded.a),
        (conceded.b, "concession", conceded.b)]  # fmt: skip
    assert (conceded.wins_a, conceded.wins_b, conceded.winner) == (1, 2, conceded.b)
    first = matches[1].games[0]
    assert first.winner != loser and first.winner in (judged_table.a, judged_table.b)
    assert read_log(store.folder / first.log).judged[-1].record.kind == "game_loss"

    # the desk's and the public page's standings are the record's, and the database's after ingest
    standings = lib.current_standings(store)
    want = [(s.rank, names[s.player], s.points) for s in standings]
    assert [(s["rank"], s["name"], s["points"]) for s in done["standings"]] == want
    public = call(running, "/api/event", token="")[1]
    assert [(s["rank"], s["name"], s["points"]) for s in public["standings"]] == want
    db = tmp_path / "annals.duckdb"
    ingested = subprocess.run([ANNALS, "ingest", str(store.folder), "--db", str(db), "-q"], capture_output=True,
                              text=True)  # fmt: skip
    assert ingested.returncode == 0, ingested.stderr
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("SELECT player_id, rank, points FROM standings ORDER BY rank").fetchall()
    assert rows == [(s.player, s.rank, s.points) for s in standings]
    games = sum(len(m.games) for m in matches.values())
    assert con.execute("SELECT count(*) FROM match_games").fetchall()[0][0] == games
    assert con.execute("SELECT count(*) FROM interventions WHERE kind = 'game_loss'").fetchall()[0][0] == 1


def answer_a_few(ws: Any, seed: int) -> None:
    """A seat answering its first questions (three at most; the other seat may be the one asked)."""
    with contextlib.suppress(TimeoutError):
        play_seat(ws, seed, stop_after=3, timeout=3)


def test_a_restart_keeps_the_links_and_resumes_the_interrupted_game_and_the_desk_refuses_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = new_event(tmp_path / "spring", 4)
    monkeypatch.setenv("ANNALS_ORGANISER_TOKEN", ORGANISER)
    data = tmp_path / "data"
    pairing = store.rounds()[0].pairings[0]
    with server(data, "--event", str(store.folder)) as running:
        links = {p["id"]: p["link"] for p in desk(running)["players"]}
        tokens = {pid: link.split("token=")[1] for pid, link in links.items()}
        # hostile input, each refused with a named error and a 4xx, never a traceback
        assert call(running, "/api/desk", token="nope") == (401, {"error": "the organiser's token is wrong or missing"})
        assert call(running, "/api/me?token=nope", token="")[0] == 403
        status, refused = call(running, "/api/desk/clock", {"action": "pause"})
        assert (status, refused["error"]) == (400, "clock action 'pause': give start or end")
        status, refused = call(running, "/api/desk/clock", raw=b'{"action": "start", "minutes": -5}')
        assert (status, refused["error"]) == (400, "minutes: expected int >= 1"), refused
        status, refused = call(running, "/api/desk/paper", raw=b"\xff\xfe not json")
        assert status == 400 and "error" in refused
        status, refused = call(running, "/api/desk/drop", {"player": "nobody"})
        assert status == 400 and "no player 'nobody' in this event" in refused["error"], refused
        status, refused = call(running, "/api/desk/pair", {})
        assert status == 409 and "error" in refused  # round 1 has no result yet
        assert call(running, "/api/desk/drop", {"player": pairing.a, "reason": "went home"}) == (
            200, {"dropped": pairing.a})  # fmt: skip
        # game 1 of table 1 begins: both players sit down and answer a few questions; then the server is killed
        table = call(running, f"/api/me?token={tokens[pairing.a]}", token="")[1]["table"]
        with contextlib.ExitStack() as sockets:
            seated = [sockets.enter_context(running.socket(table, tokens[pid])) for pid in (pairing.a, pairing.b)]
            wait_for(running, lambda v: v["tables"][0]["state"] == "game 1")
            status, refused = call(running, "/api/desk/paper", {"table": 1})
            assert status == 409 and "has begun its game 1" in refused["error"], refused
            answering = [threading.Thread(target=answer_a_few, args=(ws, 11 + i)) for i, ws in enumerate(seated)]
            for thread in answering:
                thread.start()
            for thread in answering:
                thread.join(30)
            stop(running, kill=True)
    torn_log = store.log_path(1, pairing.table, 1)
    before = read_prefix(torn_log)[2]
    assert len(before) >= 2  # the questions answered before the kill are in the live log
    kept = data / "events" / f"{store.config().event_id}.json"
    assert kept.stat().st_mode & 0o077 == 0  # the players' tokens: the server's owner alone reads them
    with server(data, "--event", str(store.folder)) as running:
        assert {p["id"]: p["link"] for p in desk(running)["players"]} == links  # the same links after a restart
        people = [Player(running, tokens[pid], 3 + i, concede=(1, 2, 3)) for i, pid in enumerate(tokens)]
        for person in people:
            person.start()
        done = wait_for(running, lambda v: v["complete"])
        for person in people:
            person.stop.set()
            person.join(10)
            assert not person.error, person.error
        # the drop made before the restart: the player played the round out [R-EVT-08]
        assert [p["dropped"] for p in desk(running)["players"] if p["id"] == pairing.a] == [True]
        status, refused = call(running, "/api/desk/drop", {"player": pairing.b})
        assert status == 409 and "ended" in refused["error"], refused  # the event has ended
    assert [t["state"] for t in done["tables"]] == ["finished", "finished"]
    printed = runner.invoke(app, ["event", "pairings", str(store.folder), "--by", "name", "--format", "csv",
                                  "--links", "http://desk.example:8765/", "--data", str(data)])  # fmt: skip
    assert printed.exit_code == 0, printed.output
    names = {p.id: p.name for p in store.players()}
    rows = {line.split(",")[0]: line.split(",")[-1] for line in printed.output.splitlines()[1:]}
    assert rows == {names[pid]: f"http://desk.example:8765{link}" for pid, link in links.items()}
    assert runner.invoke(app, ["event", "pairings", str(store.folder), "--links", "http://x"]).exit_code == 2
    # the interrupted game went on where it stopped: nothing set aside, its log begins with the answers given before
    assert not (store.folder / "torn").exists()
    assert read_log(torn_log).decisions[: len(before)] == before
    verdict = verify_event(store.folder)
    assert verdict.ok, verdict.problems


def test_a_failed_table_goes_to_paper_with_its_online_games_set_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A match that fails online (here its log's place on disk is taken by a folder) is shown failed, by name; the
    organiser moves it to paper and types its result at the desk, and the record verifies [R-EVT-12]."""
    store = new_event(tmp_path / "spring", 4)
    monkeypatch.setenv("ANNALS_ORGANISER_TOKEN", ORGANISER)
    blocked = store.log_path(1, 1, 1)
    blocked.mkdir(parents=True)
    with server(tmp_path / "data", "--event", str(store.folder)) as running:
        failed = wait_for(running, lambda v: v["tables"][0]["state"] == "failed", timeout=30)["tables"][0]
        assert "table-001-game-1.log" in failed["error"], failed
        status, refused = call(running, "/api/desk/result", {"table": 1, "result": "2-0"})
        assert status == 409 and "played online (failed)" in refused["error"], refused
        blocked.rmdir()  # the disk mended; in its place, what a failed game may leave: a log cut short
        blocked.write_bytes(b"a game log cut short")
        status, moved = call(running, "/api/desk/paper", {"table": 1})
        assert status == 200 and moved["state"] == "paper", moved
        assert call(running, "/api/desk/result", {"table": 1, "result": "2-1"})[0] == 201
        assert desk(running)["tables"][0]["state"] == "finished"
        assert call(running, "/api/desk/paper", {"table": 2})[0] == 200  # the other table, not begun, on paper too
        assert call(running, "/api/desk/result", {"table": 2, "result": "2-0"})[0] == 201
    verdict = verify_event(store.folder)
    assert verdict.ok, verdict.problems
    (match,) = [m for m in store.matches() if m.table == 1]
    assert (match.wins_a, match.wins_b, match.games) == (2, 1, [])
    assert (store.folder / "torn" / blocked.relative_to(store.folder / "logs")).read_bytes() == b"a game log cut short"
