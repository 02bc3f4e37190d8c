"""Stop anywhere: a position taken at any stop of a real game (every decision, and MORANA's automatic stage
boundaries: the start of Dusk, the Rite and a Dawn), written as a scenario and read back, plays on exactly as the
game did; what a position cannot hold is refused by name.

MORANA [MOR-13]: Dawn [MOR-14], Commit [MOR-15], Dusk [MOR-16], the Rite [MOR-17], [MOR-19], with this turn's
trackers (Reborns [MOR-23], off-board Slava [MOR-31], Initiative granted [MOR-29]). Miras 9: inside waves
[M9-073]-[M9-082] with Units that left them [M9-081], a Blackwake choice waiting [M9-088], [M9-089], a
card-granted extra attack waiting [M9-073], En Route cards [M9-054], and the turn trackers (once per turn [M9-044],
Manifest and Pressure [M9-097]) and the wave count.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine import statecopy
from annals.engine.miras9 import builder as m9
from annals.engine.miras9.state import ZONE_ROUTE, M9State
from annals.engine.miras9.turn import at_boundary
from annals.engine.morana import builder as mor
from annals.engine.replay import fold, verify_log
from annals.engine.simulate import simulate
from annals.engine.spec import SpecError
from annals.queries.positions.files import InvalidPositionError, load_position, position_file
from annals.queries.positions.midway import check_not_midway
from annals.queries.positions.stops import NotAStopError, check_stop
from annals.queries.positions.timeline import Timeline
from annals.queries.workbench.scenario import ScenarioError, load_scenario, run_file, scenario_from_log
from annals.schemas.logfile import read_log
from tests.resumecheck import resume_matches, stops

runner = CliRunner()


def _saved_and_continued(tmp_path: Path, log: str | Path, at: str, name: str) -> Path:
    """``annals position LOG --at AT --save NAME.json``, then ``annals continue`` from it by two heuristic bots
    into ``NAME.log`` (both checked to succeed); the continued log's path."""
    saved, out = tmp_path / f"{name}.json", tmp_path / f"{name}.log"
    cli = runner.invoke(app, ["position", str(log), "--at", at, "--save", str(saved)])
    assert cli.exit_code == 0, cli.stderr
    played = runner.invoke(app, ["continue", str(saved), "--bots", "heuristic,heuristic", "--out", str(out)])
    assert played.exit_code == 0, played.stderr
    return out


def test_morana_every_stop_of_real_games_resumes_identically_MOR_13_MOR_16_MOR_17(tmp_path: Path) -> None:
    """Every Commit decision and the start of every Dawn, Dusk and Rite of real games: the rest of the game, event
    for event, from the position rebuilt through a scenario spec [MOR-13], [MOR-14], [MOR-16], [MOR-17]."""
    seen: Counter[str] = Counter()
    for result in simulate("morana", 10, 61, None, ["heuristic", "random"], tmp_path):
        log = read_log(result.path)
        for count in stops(log):
            state: Any = fold(log, count)
            if (state.step == "setup" and not state.boundary) or state.over:  # set-up under way (chance pending)
                continue
            compared = resume_matches(log, count, mor)
            assert compared == len(log.events) - count  # to the game's end
            seen[state.step] += 1
            seen["with Reborns this turn"] += any(state.reborns)
            seen["with a sealed Invocation"] += bool(state.invoking)
            seen["with Initiative granted"] += any(state.initiative_next)
            seen["with off-board Slava"] += any(state.offboard)
            seen["with cards revealed, to fire"] += bool(state.revealed)
    assert {"setup", "commit", "dusk", "dusk.site1", "dusk.site2", "dusk.site3", "rite", "dawn"} <= set(seen), seen
    assert seen["with cards revealed, to fire"], seen
    assert all(seen[k] for k in ("with Reborns this turn", "with Initiative granted", "with off-board Slava")), seen


def test_morana_inside_a_stage_is_refused_by_name_MOR_16(tmp_path: Path) -> None:
    """Between a stage's start and its end (a Site's effects resolving, a Site scored, the cards flipped) no
    position goes on: a scenario refuses it naming the stops, a position file as saved in the middle of an action
    [MOR-16]; the stage starts and each Site's resolution start (the Sites resolve in order, left to right
    [MOR-16], [MOR-19]) load and play on."""
    (result,) = simulate("morana", 1, 3, None, ["heuristic", "heuristic"], tmp_path)
    timeline = Timeline.from_file(result.path)
    for at in ("turn:3/OmenFired:1", "turn:3/rite:1", "turn:3/flip:1"):
        with pytest.raises(ScenarioError, match=r"inside a stage; choose .*turn:3/rite"):
            scenario_from_log(result.path, at)
        path = tmp_path / "mid.json"
        path.write_bytes(position_file(timeline, timeline.resolve(at), at))
        with pytest.raises(InvalidPositionError, match="inside one action of the rules"):
            load_position(path)
    for at in ("turn:3/dusk", "turn:3/site:1", "turn:3/site:2", "turn:3/dusk.site3", "turn:3/rite", "turn:4/dawn",
               "turn:4/commit"):  # fmt: skip
        out = _saved_and_continued(tmp_path, result.path, at, at.replace(":", "-").replace("/", "-"))
        assert verify_log(out).events > 0


@pytest.mark.parametrize("at", ["turn:3/dusk", "turn:3/rite", "turn:4/dawn"])
def test_annals_scenario_new_at_a_morana_stage_starts_there_MOR_17(tmp_path: Path, at: str) -> None:
    """``annals scenario new --from LOG --at turn:T/rite`` (and Dusk, Dawn) writes a scenario that starts there:
    its game, run, gives the rest of that turn as the log has it [MOR-17]."""
    (result,) = simulate("morana", 1, 3, None, ["heuristic", "heuristic"], tmp_path)
    out = tmp_path / "at.toml"
    cli = runner.invoke(app, ["scenario", "new", "--from", result.path, "--at", at, "--output", str(out)])
    assert cli.exit_code == 0, cli.stderr
    stage = at.split("/")[1]
    assert f'step = "{stage}"' in out.read_text()
    outcome = run_file(out, tmp_path / "at.log")
    assert outcome.failed == ""
    log = read_log(result.path)
    count = Timeline(log).resolve(at)
    mine = [type(e).__name__ for e in read_log(outcome.log).events]
    theirs = [type(e).__name__ for e in log.events[count : count + len(mine)]]
    assert mine == theirs and mine  # up to the next Commit decision
    assert stage != "rite" or mine[0] == "SiteScored"


GAMES = {  # deck pairs and seeds whose heuristic games reach every kind of stop asked for below
    ("wreckers", "corsairs"): 41,
    ("wreckers", "wayfarer"): 41,
}


def _features(s: M9State) -> list[str]:
    w = s.wave
    return [name for name, present in {
        "a Blackwake choice waiting": s.bw_card,
        "an extra attack waiting": s.extra,
        "inside an extra attack": w is not None and w.extra,
        "a Unit that left the wave": w is not None and w.left,
        "an En Route card": any(s.cards[c].zone in ZONE_ROUTE for c in s.board),
        "a once-per-turn ability used": s.once,
        "a Manifest this turn": s.manifested,
        "a stack": s.stack,
        "Battle Damage owed": s.bd_player >= 0,
    }.items() if present]  # fmt: skip


def test_miras9_every_decision_of_real_games_resumes_identically(tmp_path: Path) -> None:
    """Every decision of real games after set-up, inside waves too, with a Blackwake choice waiting [M9-088],
    [M9-089], an extra attack waiting or under way [M9-073], Units that left the wave [M9-081], cards En Route
    [M9-054], once-per-turn uses [M9-044] and Manifests made [M9-097]: the rest of the game, event for event, from
    the position rebuilt through a scenario spec. Set-up alone is refused, by name."""
    seen: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    for (a, b), seed in GAMES.items():
        for result in simulate("miras9", 3, seed, [a, b], ["heuristic", "heuristic"], tmp_path / a / b, max_turns=14):
            log = read_log(result.path)
            for count in stops(log):
                state: Any = fold(log, count)
                if state.over or state.turn > log.header.max_turns:  # past the cap the game stops at once
                    continue
                try:
                    assert resume_matches(log, count, m9) == len(log.events) - count
                except SpecError as exc:
                    refused[state.phase] += 1
                    assert "set-up" in str(exc), exc
                    continue
                seen[state.step] += 1
                seen.update(_features(state))
    assert all(phase.startswith("setup") for phase in refused), refused
    wanted = {"attack.declare", "attack.blockers", "attack.reactions_before_damage", "attack.consequences",
              "attack.after_wave", "action", "move", "attune", "awaken.flow", "awaken.generate"}  # fmt: skip
    assert wanted <= set(seen), seen
    for feature in ("a Blackwake choice waiting", "an extra attack waiting", "inside an extra attack",
                    "a Unit that left the wave", "an En Route card", "a once-per-turn ability used",
                    "a Manifest this turn", "a stack", "Battle Damage owed"):  # fmt: skip
        assert seen[feature], (feature, seen)


def test_miras9_what_a_position_cannot_hold_is_refused_by_name() -> None:
    """Combat damage (dealt at once, no one stops in it [M9-078]) and a card resolving are refused, naming why."""
    s = m9.from_spec({"position": {"phase": "action"}, "p0": {"hand": ["e1=ev-strike"]}}).state
    resolving = statecopy.clone(s)
    card = next(iter(c for c, cs in s.cards.items() if cs.cid == "ev-strike"))
    resolving.players[0].hand.remove(card)
    resolving.cards[card].zone = "stack"
    resolving.stack_cards = [card]
    with pytest.raises(SpecError, match="a card resolving"):
        m9.to_spec(resolving)
    spec = {"position": {"phase": "attack"}, "wave": {"lane": "exterior", "step": "reactions_before_damage",
            "attackers": ["a1"]}, "p0": {"board": [{"card": "a1=char-raider", "tapped": True}]}}  # fmt: skip
    dealing = m9.from_spec(spec).state
    assert dealing.wave is not None
    dealing.wave.step, dealing.window = 5, ""
    with pytest.raises(SpecError, match=r"combat damage is dealt at once \[M9-078\]"):
        m9.to_spec(dealing)


def _load(tmp_path: Path, text: str) -> Any:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    return load_scenario(path)


MOR_BASE = """scenario = "x"
ruleset = "morana"
rules = ["MOR-17"]
expect = ["turn == 4"]

[position]
turn = 4
step = "rite"

[p0]
deck = ["kikimora"]
site1 = [{ card = "a1=bannik", power = 3 }]

[p1]
deck = ["kikimora"]
"""

MOR_BAD = {  # a change to a good file -> the field the error names and what it says
    "unknown step": (('step = "rite"', 'step = "dusk.invocation"'), r"position\.step: 'dusk\.invocation' is not where"),
    "revealed at the Rite": (
        ("power = 3 }", "revealed = true }"),
        r"p0\.site1\[0\]\.revealed: a card flipped this "
        r"Dusk waits to fire only at a Site's resolution",
    ),
    "revealed at a Site resolved": (
        (
            'step = "rite"\n\n[p0]\ndeck = ["kikimora"]\nsite1 = [{ card = "a1=bannik", power = 3 }]',
            'step = "dusk.site2"\n\n[p0]\ndeck = ["kikimora"]\nsite1 = [{ card = "a1=bannik", revealed = true }]',
        ),
        r"p0\.site1\[0\]\.revealed: .*at its own Site or one not yet resolved",
    ),
    "sealed at the Rite": (("power = 3 }", "sealed = true }"), r"p0\.site1\[0\]\.sealed: everything sealed is flipped"),
    "committing at the Rite": (('step = "rite"', 'step = "rite"\ncommitting = "p0"'), r"position\.committing: at rite"),
    "too many Reborns": (("[p1]", "reborns = 3\n[p1]"), r"p0\.reborns: 3 Reborns this turn: at most 2 \[MOR-23\]"),
    "off-board over the cap": (("[p1]", "offboard = 5\n[p1]"), r"p0\.offboard: 5: off-board Slava is capped at 4"),
    "Invocation at the Rite": (("[p1]", "invoking = true\n[p1]"), r"p0\.invoking: a sealed Invocation resolves"),
    "commit order of no sealed card": (
        ('step = "rite"', 'step = "dusk"\ncommit_order = ["a1"]'),
        r"position\.commit_order\[0\]: 'a1' is not the label of a sealed card",
    ),
    "reborn without sealed": (("power = 3 }", "reborn = true }"), r"p0\.site1\[0\]\.reborn: a Reborn is sealed"),
    "a Charm Reborn": (
        (
            'step = "rite"\n\n[p0]\ndeck = ["kikimora"]\nsite1 = [{ card = "a1=bannik", power = 3 }]',
            'step = "dusk"\n\n[p0]\ndeck = ["kikimora"]\nsite1 = [{ card = "a1=candle-for-the-dead", sealed = true, '
            "reborn = true }]",
        ),
        r"p0\.site1\[0\]\.reborn: 'candle-for-the-dead' is a Charm: only Spirits are Reborn \[MOR-21\]",
    ),
}


@pytest.mark.parametrize("case", sorted(MOR_BAD))
def test_a_bad_morana_stop_names_the_field(tmp_path: Path, case: str) -> None:
    (old, new), message = MOR_BAD[case]
    assert old in MOR_BASE
    with pytest.raises(ScenarioError, match=r"bad\.toml:\d+: " + message):
        _load(tmp_path, MOR_BASE.replace(old, new, 1))
    assert _load(tmp_path, MOR_BASE).built.state.boundary  # the base itself loads, at the start of the Rite


M9_BASE = """scenario = "x"
ruleset = "miras9"
rules = ["M9-088"]
expect = ["turn == 3"]

[position]
turn = 3
phase = "attack"
active = "p0"

[wave]
lane = "exterior"
step = "consequences"
attackers = ["a1"]

[battle_damage]
sources = ["a1"]
revealed = "deck"

[p0]
deck = ["char-recruit"]
board = [{ card = "a1=char-raider", lane = "exterior", tapped = true }, { card = "u2=char-recruit", lane = "interior" }]

[p1]
deck = ["d1=char-drifter", "char-recruit"]
"""

M9_BAD = {
    "revealed without a Blackwake": (
        ('"d1=char-drifter", ', ""),
        r"battle_damage\.revealed: the top card of the defender's deck has no Blackwake instruction",
    ),
    "revealed from hand": (('revealed = "deck"', 'revealed = "hand"'), r"battle_damage\.revealed: 'hand': a point"),
    "waves against the wave": (('active = "p0"', 'active = "p0"\nwaves = 4'), r"position\.waves: 4 does not agree"),
    "manifested nowhere": (('active = "p0"', 'active = "p0"\nmanifested = ["p2:exterior"]'),
                           r"position\.manifested\[0\]: 'p2:exterior' is not a board position"),
    "once of no ability": (('active = "p0"', 'active = "p0"\nonce = [{ card = "a1", ability = 3 }]'),
                           r"position\.once\[0\]\.ability: 'a1' has no ability 3"),
    "arrival missing one": (('active = "p0"', 'active = "p0"\narrival = ["a1"]'),
                            r"position\.arrival: lists 1 of the 2 cards on the board; add u2"),
    "origin its own place": (('lane = "interior" }', 'lane = "interior", origin = "p0:interior" }'),
                             r"p0\.board\[1\]\.origin: a card En Route"),
    "left and attacking": (('attackers = ["a1"]', 'attackers = ["a1"]\nleft = ["a1"]'),
                           r"wave\.attackers\[0\]\.card: 'a1' left the wave"),
    "extra of another Unit": (('attackers = ["a1"]', 'attackers = ["a1"]\nextra = "u2"'), r"wave\.extra: 'u2' is not"),
    "extra attack of the defender": (("[p0]", '[extra_attack]\nunits = ["d1"]\nlane = "exterior"\n\n[p0]'),
                                     r"extra_attack\.units\[0\]: 'd1' is not a Unit of the active player"),
    "begun at a window step": (('step = "consequences"', 'step = "after_wave"\nbegun = true'),
                               r'wave\.begun: begun is for the damage and consequences steps; after_wave starts at '
                               r'window = "opening"'),
    "inside the damage step": (('step = "consequences"', 'step = "damage"\nbegun = false'),
                               r"wave\.begun: combat damage is dealt at once, no one stops in it \[M9-078\]"),
    "wounds after the defeats": (('step = "consequences"',
                                  'step = "consequences"\nwounded = [{ card = "u2", by = "a1" }]'),
                                 r"wave\.wounded: the wounds placed are read at the start of the consequences step"),
    "wounds reaching GRIT": (('lane = "exterior", tapped = true }', 'lane = "exterior", tapped = true, wounds = 9 }'),
                             r"position: .*state\.cards\[\d+\]\.wounds = 9 is not allowed: below its GRIT 2: defeats "
                             r"are checked after every action \[M9-084\]"),
    "no event kind": (('expect = ["turn == 3"]', 'expect = ["no event BattleDamageDealt"]'),
                      r"expect\[0\]: .*'BattleDamageDealt' is no event kind of the ruleset"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(M9_BAD))
def test_a_bad_miras9_stop_names_the_field(tmp_path: Path, case: str) -> None:
    (old, new), message = M9_BAD[case]
    assert old in M9_BASE
    with pytest.raises(ScenarioError, match=r"bad\.toml:\d+: " + message):
        _load(tmp_path, M9_BASE.replace(old, new, 1))
    assert _load(tmp_path, M9_BASE).built.state.bw_card  # the base itself loads, its Blackwake choice waiting


def test_old_position_files_without_the_boundary_field_still_load(tmp_path: Path) -> None:
    """A MORANA position file written before ``boundary`` existed (no such field) loads at a Commit as before."""
    (result,) = simulate("morana", 1, 5, None, ["heuristic", "heuristic"], tmp_path)
    timeline = Timeline.from_file(result.path)
    doc = json.loads(position_file(timeline, timeline.resolve("turn:2/commit")))
    del doc["state"]["boundary"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(doc))
    assert not load_position(path).state.boundary
    assert re.search(r'"boundary"', position_file(timeline, timeline.resolve("turn:2/rite")).decode())


EVERY_INDEX = {  # ruleset, decks, seed, turn cap: short real games whose every event index is tried
    "morana": ("morana", None, 61, None),
    "miras9 wreckers-corsairs": ("miras9", ["wreckers", "corsairs"], 41, 8),
    "miras9 wreckers-wayfarer": ("miras9", ["wreckers", "wayfarer"], 41, 8),
}


def _kind(s: Any) -> str:
    """What kind of stop a position accepted at is (the new boundaries by name)."""
    if hasattr(s, "players"):
        w = s.wave
        if at_boundary(s) and w is not None and w.step in (5, 6):
            return "damage begun" if w.step == 5 else "consequences begun"
        if at_boundary(s) and w is None and s.turn == 0:
            return "set-up done"
        if at_boundary(s):
            return "window opening" if w is not None else "awaken begun" if s.phase == "awaken" else "turn begun"
        if w is not None and w.step in (2, 4, 7) and not s.window:
            return "window closed"
        return "other"
    return f"morana {s.step}"


@pytest.mark.parametrize("game", sorted(EVERY_INDEX))
def test_every_event_index_resumes_identically_or_is_refused_by_name(tmp_path: Path, game: str) -> None:
    """After every event of real games, not only at decisions: a position is either refused by name (inside one
    action of the rules: ``NotAStopError`` naming the stops around it; set-up, by ``SpecError``), or it is a stop
    and, rebuilt through a scenario spec, plays on event for event to the game's end. So no accepted position plays
    on wrongly: just after a turn began (the survival check [M9-023] and Awaken [M9-031], [M9-032] follow), the
    Awaken phase began, a wave step began whose window opens next [M9-075], [M9-077], [M9-080], a window closed
    [M9-115]; MORANA's Dawn, Dusk and Rite [MOR-13], and Embers paid for a Commit not yet sealed [MOR-15]
    (refused, by ``to_spec`` too)."""
    ruleset, decks, seed, cap = EVERY_INDEX[game]
    builder = m9 if ruleset == "miras9" else mor
    accepted: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    for result in simulate(ruleset, 2, seed, decks, ["heuristic", "heuristic"], tmp_path, max_turns=cap):
        log = read_log(result.path)
        at = stops(log)
        for count in range(len(log.events) + 1):
            state: Any = fold(log, count)
            if state.over or (log.header.max_turns and state.turn > log.header.max_turns):
                continue  # nothing goes on from the end, nor past the turn cap
            try:
                check_stop(log, count, at)
            except NotAStopError as exc:
                assert count not in at
                try:  # what the state shows half done, a position file's loader names (queries.positions.midway)
                    check_not_midway(ruleset, state)
                except InvalidPositionError as named:
                    assert "inside one action of the rules" in str(named) or "is not allowed" in str(named)
                    refused["named by the position loader"] += 1
                assert re.search(r"inside one action of the rules.*; choose (start|event:\d+) \(before it\)",
                                 str(exc)), exc  # fmt: skip
                if getattr(state, "paying", False):
                    with pytest.raises(SpecError, match=r"inside a Commit action: its Embers are paid"):
                        mor.to_spec(state)
                    refused["Embers paid, not sealed"] += 1
                refused["inside an action"] += 1
                continue
            try:
                compared = resume_matches(log, count, builder)
            except SpecError as exc:
                assert state.step.startswith("setup"), (count, exc)
                refused["set-up"] += 1
                continue
            assert compared == len(log.events) - count
            check_not_midway(ruleset, state)  # a stop is never taken for half an action
            accepted[_kind(state)] += 1
    m9_wanted = {"set-up done", "turn begun", "awaken begun", "window opening", "window closed", "damage begun",
                 "consequences begun", "other"}  # fmt: skip
    morana_wanted = {f"morana {step}" for step in ("setup", "commit", "dusk", "dusk.site1", "dusk.site2",
                                                   "dusk.site3", "rite", "dawn")}  # fmt: skip
    wanted = m9_wanted if ruleset == "miras9" else morana_wanted
    assert wanted <= set(accepted), accepted
    assert refused["inside an action"], refused
    assert refused["named by the position loader"], refused
    assert ruleset == "miras9" or refused["Embers paid, not sealed"], refused


def test_a_coordinate_inside_an_action_is_refused_naming_the_stops(tmp_path: Path) -> None:
    """``annals scenario new --at`` inside one action (a card played, not yet paid for [M9-039]; Embers paid, the
    card not yet sealed [MOR-15]) is refused naming the coordinates to use; where a turn begins is a stop that
    plays on as the game did [M9-031]."""
    (result,) = simulate("miras9", 1, 41, ["wreckers", "corsairs"], ["heuristic", "heuristic"], tmp_path,
                         max_turns=8)  # fmt: skip
    with pytest.raises(ScenarioError, match=r"after event \d+ \(CardPlayed\) the game is inside one action.*choose "
                       r"event:\d+ \(before it\) or event:\d+ \(after it\)"):  # fmt: skip
        scenario_from_log(result.path, "CardPlayed:1")
    saved = tmp_path / "mid.json"  # nor is a position file saved there: it would play on from a half-done action
    cli = runner.invoke(app, ["position", result.path, "--at", "CardPlayed:1", "--save", str(saved)])
    assert cli.exit_code == 1 and "inside one action of the rules" in cli.stderr, cli.stderr
    assert not saved.exists()
    out = tmp_path / "turn.toml"
    cli = runner.invoke(app, ["scenario", "new", "--from", result.path, "--at", "turn:5", "--output", str(out)])
    assert cli.exit_code == 0, cli.stderr
    assert 'phase = "turn"' in out.read_text()
    outcome = run_file(out, tmp_path / "turn.log")
    assert outcome.failed == ""
    log = read_log(result.path)
    count = Timeline(log).resolve("turn:5")
    mine = [type(e).__name__ for e in read_log(outcome.log).events]
    assert mine and mine == [type(e).__name__ for e in log.events[count : count + len(mine)]]
    assert mine[0] == "PhaseBegan"  # the Awaken phase, as the game went on
    (morana,) = simulate("morana", 1, 3, None, ["heuristic", "heuristic"], tmp_path / "m")
    paid = tmp_path / "paid.toml"  # after event 19: p0's Commit paid for, not sealed
    cli = runner.invoke(app, ["scenario", "new", "--from", morana.path, "--at", "turn:1/EmbersChanged:3", "--output",
                              str(paid)])  # fmt: skip
    assert cli.exit_code == 1
    assert "inside a Commit action: its Embers are paid" in cli.stderr, cli.stderr
    assert not paid.exists()


def _edited(tmp_path: Path, log: Path, at: str, edit: Any) -> Path:
    """The position file of ``log`` at the stop ``at``, its state edited by ``edit(state)``."""
    timeline = Timeline.from_file(log)
    doc = json.loads(position_file(timeline, timeline.resolve(at), at))
    edit(doc["state"])
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc))
    return path


def _awaken_half_done(s: dict[str, Any]) -> None:
    s["phase"] = s["step"] = "awaken"


def _lethal_wounds(s: dict[str, Any]) -> None:
    s["cards"][str(s["board"][0])]["wounds"] = 99


def _resolving(s: dict[str, Any]) -> None:
    card = s["players"][0]["hand"].pop()
    s["cards"][str(card)]["zone"] = "stack"
    s["stack_cards"] = [card]


MIDWAY = {  # a hand edit of a real stop's position file -> what the loader says (field, what is half done)
    "awaken at work": ("miras9", "turn:5/action", _awaken_half_done,
                       r"state\.phase = 'awaken' is not allowed: .*inside one action of the rules \[M9-032\]; set "
                       r"boundary to n"),
    "wounds reach GRIT": ("miras9", "turn:5/action", _lethal_wounds,
                          r"state\.cards\[\d+\]\.wounds = 99 is not allowed: below its GRIT \d+: defeats are checked "
                          r"after every action \[M9-084\]"),
    "a card resolving": ("miras9", "turn:5/action", _resolving,
                         r"state\.stack_cards = \[\d+\] is not allowed: .* is resolving, inside one action of the "
                         r"rules \[M9-042\]; move it to its owner's discard"),
    "Embers paid, not sealed": ("morana", "turn:3/commit", lambda s: s.update(paying=True),
                                r"state\.paying = True is not allowed: false: Embers paid for a Commit action not "
                                r"yet sealed .*\[MOR-15\]"),
    "Dusk at work": ("morana", "turn:3/dusk", lambda s: s.update(boundary=False),
                     r"state\.boundary = False is not allowed: true at 'dusk': dusk runs without a stop"),
    "a Site's effects at work": ("morana", "turn:3/site:2", lambda s: s.update(site_begun=-1),
                                 r"state\.site_begun = -1 is not allowed: n \(\d+\) at 'dusk\.site2'.*\[MOR-16\]"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(MIDWAY))
def test_a_hand_edited_position_inside_an_action_is_refused_by_name(tmp_path: Path, case: str) -> None:
    """A position file edited into half of an action (the Awaken phase's arrivals and readying at work [M9-032],
    wounds reaching GRIT with the defeats not checked [M9-084], an Event resolving [M9-042], Embers paid for a
    Commit not sealed [MOR-15], Dusk or a Site's resolution at work [MOR-13], [MOR-16]) is refused by the loader
    before play, naming the field, what is half done and the fix; the file as saved loads."""
    ruleset, at, edit, message = MIDWAY[case]
    decks = None if ruleset == "morana" else ["wreckers", "corsairs"]
    seed = 3 if ruleset == "morana" else 41
    (result,) = simulate(ruleset, 1, seed, decks, ["heuristic", "heuristic"], tmp_path, max_turns=8)
    assert load_position(_edited(tmp_path, Path(result.path), at, lambda s: None)).state
    with pytest.raises(InvalidPositionError, match=message):
        load_position(_edited(tmp_path, Path(result.path), at, edit))


def test_a_position_file_held_at_a_boundary_continues_as_the_game_did(tmp_path: Path) -> None:
    """``annals continue`` numbers the events afresh and keeps the boundary a position is held at: a Miras 9 turn
    just begun (its survival check and Awaken next [M9-023], [M9-031]) and a MORANA Site's resolution just begun
    [MOR-16] go on with the same automatic events as the game."""
    for ruleset, decks, seed, at in (("miras9", ["wreckers", "corsairs"], 41, "turn:5"),
                                     ("morana", None, 3, "turn:3/site:2")):  # fmt: skip
        (result,) = simulate(ruleset, 1, seed, decks, ["heuristic", "heuristic"], tmp_path / ruleset, max_turns=8)
        out = _saved_and_continued(tmp_path, result.path, at, ruleset)
        log = read_log(result.path)
        count = Timeline(log).resolve(at)
        first = next(d.at for d in log.decisions if d.at >= count) - count  # the automatic events up to a decision
        mine = [_key(e) for e in read_log(out).events[:first]]
        assert mine and mine == [_key(e) for e in log.events[count : count + first]]


def _key(event: Any) -> tuple[Any, ...]:
    return (type(event).__name__, *(getattr(event, f) for f in event.__struct_fields__ if f != "n"))


def test_the_end_of_set_up_is_a_stop_and_set_up_itself_is_refused(tmp_path: Path) -> None:
    """Right after set-up, before the first turn, is a stop in both rulesets: Miras 9 once the first player is
    chosen [M9-022] (``phase = "setup.done"``), MORANA once the opening hands are drawn (``step = "setup"``); a
    scenario written there plays the first turn as the game did. Inside set-up (the deal's shuffles and draws, a
    mulligan to come) the generator's draws are still to be made and no position is taken (R-M9-64, R-MOR-24)."""
    (m9game,) = simulate("miras9", 1, 41, ["wreckers", "corsairs"], ["heuristic", "heuristic"], tmp_path / "m9",
                         max_turns=4)  # fmt: skip
    (morgame,) = simulate("morana", 1, 3, None, ["heuristic", "heuristic"], tmp_path / "mor")
    for result, at, written in ((m9game, "FirstPlayerChosen:1", 'phase = "setup.done"'),
                                (morgame, "turn:0/Drew:8", 'step = "setup"')):  # fmt: skip
        out = tmp_path / f"{written[:5]}.toml"
        cli = runner.invoke(app, ["scenario", "new", "--from", result.path, "--at", at, "--output", str(out)])
        assert cli.exit_code == 0, cli.stderr
        assert written in out.read_text() and "turn =" not in out.read_text().split("[p0]")[0]
        outcome = run_file(out, tmp_path / f"{written[:5]}.log")
        assert outcome.failed == ""
        log = read_log(result.path)
        count = Timeline(log).resolve(at)
        mine = [type(e).__name__ for e in read_log(outcome.log).events]
        assert mine[0] == "TurnBegan" and mine == [type(e).__name__ for e in log.events[count : count + len(mine)]]
        for inside in ("start", "turn:0/PileShuffled:1" if log.header.ruleset == "miras9" else "turn:0/Drew:7"):
            with pytest.raises(ScenarioError, match=r"set-up|inside a stage|inside one action"):
                scenario_from_log(result.path, inside)
