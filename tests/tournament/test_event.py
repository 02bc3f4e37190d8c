"""Whole simulated events: every game recorded, standings recomputed independently, no rematches, byes, drops,
the top cut, and a SIGKILL in the middle of round 3 that resumes to the same final standings."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import msgspec
import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.tournament import event as lib
from annals.engine.tournament import play
from annals.engine.tournament import rounds as loop
from annals.engine.tournament.store import EventError, EventStore
from annals.engine.tournament.verify import verify_event
from annals.schemas.logfile import read_log
from annals.schemas.miras9 import FirstPlayerChosen
from annals.schemas.signing import SIGNED, verify_signature

ANNALS = [str(Path(sys.executable).parent / "annals")]
runner = CliRunner()
PLAYERS, ROUNDS, TOP, CAP = 64, 6, 8, 20  # short turn caps keep the default run fast; some games reach them


def matches_on_disk(folder: Path) -> list[dict[str, Any]]:
    """Every match as recorded, as plain values."""
    return [msgspec.to_builtins(m) for m in EventStore.open(folder).matches()]


def independent_standings(folder: Path) -> dict[str, dict[str, float]]:
    """The four figures straight from the match records, written apart from ``engine.tournament.standings``."""
    players = [p.id for p in EventStore.open(folder).players()]
    mp: dict[str, int] = defaultdict(int)
    played: dict[str, int] = defaultdict(int)
    gp: dict[str, int] = defaultdict(int)
    games: dict[str, int] = defaultdict(int)
    opp: dict[str, list[str]] = defaultdict(list)
    for m in matches_on_disk(folder):
        if m["stage"] != "swiss":
            continue
        a, b = m["a"], m["b"]
        if not b:
            mp[a] += 3
            played[a] += 1
            gp[a] += 6
            games[a] += 2
            continue
        n = m["wins_a"] + m["wins_b"] + m["draws"]
        for me, them, won in ((a, b, m["wins_a"]), (b, a, m["wins_b"])):
            played[me] += 1
            games[me] += n
            gp[me] += 3 * won + m["draws"]
            opp[me].append(them)
            mp[me] += 3 if m["winner"] == me else 1 if m["winner"] == "" else 0
    mwp = {p: max(0.33, mp[p] / (3 * played[p])) if played[p] else 0.33 for p in players}
    gwp = {p: max(0.33, gp[p] / (3 * games[p])) if games[p] else 0.33 for p in players}
    out = {}
    for p in players:
        o = opp[p]
        out[p] = {
            "points": mp[p],
            "omw": sum(mwp[x] for x in o) / len(o) if o else 0.33,
            "gw": gwp[p],
            "ogw": sum(gwp[x] for x in o) / len(o) if o else 0.33,
        }
    return out


def new_sim(folder: Path, *, players: int, seed: int, ruleset: str = "miras9", rounds: int = ROUNDS, top: int = TOP,
            cap: int = CAP) -> EventStore:  # fmt: skip
    lib.new_event(folder, "sim", ruleset, rounds=rounds, best_of=3, top=top, seed=seed, max_turns=cap)
    store = EventStore.open(folder)
    lib.fill_with_bots(store, players)
    return store


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An event registered but not started: copied before each run, so both runs have the same seed and id."""
    folder = tmp_path_factory.mktemp("fresh") / "event"
    new_sim(folder, players=PLAYERS, seed=2026)
    return folder


@pytest.fixture(scope="module")
def finished(fresh: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("finished") / "event"
    shutil.copytree(fresh, folder)
    play.run_event(EventStore.open(folder))
    return folder


def test_every_game_of_the_64_player_event_is_recorded_with_its_metadata_M9_022(finished: Path) -> None:
    store = EventStore.open(finished)
    config = store.config()
    names = {p.id: p.name for p in store.players()}
    decks = {p.id: p.deck for p in store.players()}
    ids = set()
    records = store.matches()
    public = store.public_key()
    assert len([m for m in records if m.stage == "swiss"]) == ROUNDS * PLAYERS // 2
    assert [len([m for m in records if m.round == r]) for r in (7, 8, 9)] == [4, 2, 1]
    turn_capped = 0
    for m in records:
        assert 2 <= len(m.games) <= 3 or (m.stage == "top" and len(m.games) <= 6)
        for g in m.games:
            log = read_log(finished / g.log)  # verifies checksums, chain and counts
            assert verify_signature(finished / g.log, public).state == SIGNED  # by the event's key
            info = log.header.tournament
            assert info is not None
            assert (info.event, info.round, info.table, info.game) == (config.event_id, m.round, m.table, g.number)
            assert info.match == f"r{m.round}-t{m.table}" and list(info.player_ids) == g.seats
            assert [p.name for p in log.header.players] == [names[s] for s in g.seats]
            assert log.header.decks == [decks[s] for s in g.seats]
            assert log.header.game_id == g.game_id and log.digest == g.digest
            assert log.header.max_turns == CAP
            winner = g.seats[log.close.winner] if log.close.winner >= 0 else ""
            assert (winner, log.close.end_reason) == (g.winner, g.end_reason)  # results come from the logs
            turn_capped += g.end_reason == "turn_cap"
            chosen = [e for e in log.events if isinstance(e, FirstPlayerChosen)]
            assert len(chosen) == 1 and g.seats[chosen[0].first] == g.first  # the decided first player played first
            ids.add(g.game_id)
        # who decided: lots for game 1, then the loser, the same decider after a drawn game (R-EVT-02)
        for prev, g in zip(m.games, m.games[1:], strict=False):
            assert g.method == ("loser" if prev.winner else "drawn")
            assert g.decider == ({m.a, m.b} - {prev.winner}).pop() if prev.winner else g.decider == prev.decider
        if m.games:
            assert m.games[0].method == "lot"
    assert len(ids) == sum(len(m.games) for m in records)  # game ids unique
    assert turn_capped > 0  # the time limit came up: drawn games are part of what is checked


def test_standings_match_an_independent_computation_of_the_four_figures(finished: Path) -> None:
    rows = lib.current_standings(EventStore.open(finished))
    mine = independent_standings(finished)
    assert len(rows) == PLAYERS
    for s in rows:
        want = mine[s.player]
        assert s.points == want["points"]
        for key in ("omw", "gw", "ogw"):
            assert getattr(s, key) == pytest.approx(want[key], abs=1e-9), (s.player, key)
    keys = [(s.points, s.omw, s.gw, s.ogw) for s in rows]
    assert keys == sorted(keys, reverse=True)


def test_no_rematch_in_the_swiss_and_the_cut_seeded_by_standings(finished: Path) -> None:
    store = EventStore.open(finished)
    pairs = [frozenset((m.a, m.b)) for m in store.matches() if m.stage == "swiss"]
    assert len(pairs) == len(set(pairs))
    rounds = store.rounds()
    assert [r.stage for r in rounds] == ["swiss"] * ROUNDS + ["top"] * 3
    seeds = [s.player for s in lib.current_standings(store)][:TOP]
    first = rounds[ROUNDS].pairings
    assert [(p.a, p.b) for p in first] == [(seeds[i - 1], seeds[j - 1]) for i, j in [(1, 8), (4, 5), (2, 7), (3, 6)]]
    final = store.match(ROUNDS + 3, 1)
    assert final is not None and final.winner
    places = lib.placings(store)
    assert places[0] == (1, final.winner) and len(places) == PLAYERS


def test_sigkill_in_round_3_resumes_to_the_same_final_standings(fresh: Path, finished: Path, tmp_path: Path) -> None:
    folder = tmp_path / "event"
    shutil.copytree(fresh, folder)
    proc = subprocess.Popen([*ANNALS, "event", "run", str(folder), "-q"], stdout=subprocess.DEVNULL)
    round3 = folder / "logs" / "round-03"
    deadline = time.monotonic() + 120
    try:
        while not any(round3.glob("table-002-game-*.log")):
            assert proc.poll() is None, "the run ended before round 3"
            assert time.monotonic() < deadline, "round 3 never started"
            time.sleep(0.005)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    store = EventStore.open(folder)
    store.sweep()  # a temporary file the kill may have left
    done = len([k for k in store.state().results if k[0] == 3])
    assert 0 < done < PLAYERS // 2, "the kill did not land inside round 3"
    assert len(store.rounds()) == 3
    cut_short = verify_event(folder).problems  # only the match being played when killed: its logs, named so
    assert all("whose match has no result yet" in p.message for p in cut_short), cut_short
    resumed = subprocess.run([*ANNALS, "event", "run", str(folder), "-q"], capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert lib.current_standings(store) == lib.current_standings(EventStore.open(finished))
    assert matches_on_disk(folder) == matches_on_disk(finished)  # every match, every game: the same records
    assert verify_event(folder).ok, verify_event(folder).problems


def test_a_torn_log_is_set_aside_recorded_and_its_game_replayed(fresh: Path, finished: Path, tmp_path: Path) -> None:
    folder = tmp_path / "event"
    shutil.copytree(fresh, folder)
    store = EventStore.open(folder)
    play.play_round(store, 1)
    loop.pair_next(store)
    record = EventStore.open(finished).match(2, 1)
    assert record is not None
    whole = (finished / record.games[0].log).read_bytes()
    log = folder / record.games[0].log
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_bytes(whole[: len(whole) // 2])  # as if killed during the match's first game
    play.play_round(store, 2)
    assert store.match(2, 1) == record
    assert log.read_bytes() == whole  # replayed to the same log
    torn = folder / "torn" / log.relative_to(folder / "logs")
    assert torn.read_bytes() == whole[: len(whole) // 2]  # the torn one kept, not overwritten, and recorded
    assert [a.path for a in store.state().set_aside] == [str(torn.relative_to(folder))]
    assert verify_event(folder).ok


def test_odd_field_with_drops_and_byes_MOR_13(tmp_path: Path) -> None:
    store = new_sim(tmp_path / "odd", players=13, seed=11, ruleset="morana", rounds=5, top=0, cap=0)
    play.play_round(store, 1)
    lib.drop(store, "bot-003")
    lib.drop(store, "bot-010")  # 11 active players: still odd
    play.run_event(store)
    rounds = store.rounds()
    assert len(rounds) == 5
    byes_seen: list[str] = []
    for r in rounds:
        seated = [x for p in r.pairings for x in (p.a, p.b) if x]
        if r.number > 1:
            assert "bot-003" not in seated and "bot-010" not in seated
        bye = [p.a for p in r.pairings if not p.b]
        assert len(bye) == 1 and bye[0] not in byes_seen  # one bye a round, never twice to a player
        byes_seen += bye
        rec = store.match(r.number, r.pairings[-1].table)
        assert rec is not None and (rec.wins_a, rec.wins_b, rec.winner, rec.ended) == (2, 0, bye[0], "bye")
    rows = {s.player: s for s in lib.current_standings(store)}
    assert len(rows) == 13 and all(rows[b].byes == 1 for b in byes_seen)
    for m in store.matches():  # MORANA has no first player [MOR-13]: seats by lot, then swapped each game
        assert all(g.first == "" and g.method == "seats" for g in m.games)
        assert all(g2.seats == g1.seats[::-1] for g1, g2 in zip(m.games, m.games[1:], strict=False))


def test_registration_closes_once_every_swiss_round_is_paired_and_standings_export(tmp_path: Path) -> None:
    store = new_sim(tmp_path / "small", players=4, seed=3, ruleset="morana", rounds=2, top=0, cap=0)
    play.play_round(store, 1)
    play.play_round(store, 2)
    deck = store.folder / "decks" / "bot-001.txt"
    with pytest.raises(EventError, match="registration is closed: all 2 Swiss rounds are paired"):
        lib.register(store, "late", "Late Comer", deck)
    play.run_event(store)
    out = runner.invoke(app, ["event", "standings", str(store.folder), "--format", "json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.stdout)
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    assert {r["player"] for r in rows} == {"bot-001", "bot-002", "bot-003", "bot-004"}
    csv = runner.invoke(app, ["event", "standings", str(store.folder), "--format", "csv"])
    assert csv.stdout.splitlines()[0] == "rank,player,name,deck,points,record,omw_pct,gw_pct,ogw_pct,dropped"


def test_a_correction_replaces_the_games_result_keeps_both_and_says_so(tmp_path: Path) -> None:
    store = new_sim(tmp_path / "judge", players=4, seed=8, ruleset="morana", rounds=2, top=0, cap=0)
    play.play_round(store, 1)
    before = store.match(1, 1)
    assert before is not None and before.winner
    loser_wins = (0, 2) if before.winner == before.a else (2, 0)
    result = f"{loser_wins[0]}-{loser_wins[1]}"
    args = ["--round", "1", "--table", "1", result, "--judge", "J. Doe", "--reason", "game loss"]
    play.play_round(store, 2)  # a correction of round 1 after round 2 is played
    done = runner.invoke(app, ["event", "correct", str(store.folder), *args])
    assert done.exit_code == 0, done.output
    after = store.match(1, 1)
    assert after is not None and after.override is not None and after.override.judge == "J. Doe"
    assert (after.wins_a, after.wins_b, after.winner, after.games) == (before.wins_a, before.wins_b, before.winner,
                                                                       before.games)  # fmt: skip
    points = {s.player: s.points for s in lib.current_standings(store)}
    loser = before.b if before.winner == before.a else before.a
    r2 = {p: m for m in store.matches() if m.round == 2 for p in (m.a, m.b)}
    assert points[loser] == 3 + 3 * (r2[loser].winner == loser)  # standings take the correction
    assert points[before.winner] == 3 * (r2[before.winner].winner == before.winner)
    state = store.state()
    assert state.results[(1, 1)].reported.outcome.wins_a == before.wins_a  # the record keeps the report too
    assert verify_event(store.folder).ok
    bad = runner.invoke(app, ["event", "correct", str(store.folder), "--round", "2", "--table", "1", "2/0",
                              "--judge", "J", "--reason", "r"])  # fmt: skip
    assert bad.exit_code == 2 and "2-1 or 2-1-1" in bad.stderr
