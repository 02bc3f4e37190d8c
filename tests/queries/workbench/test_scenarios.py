"""Scenario files: every one under tests/scenarios plays and its expectations hold; the documented worked examples
run as written; bad files are refused naming the file, line, field and fix; a scenario can be taken from a real
game; ``annals scenario`` is thin over ``queries.workbench.scenario``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.core import replaced
from annals.engine.replay import fold, verify_log
from annals.engine.simulate import simulate
from annals.queries.workbench.scenario import ScenarioError, load_scenario, run_file, scenario_from_log
from annals.schemas.logfile import read_log

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = sorted((ROOT / "tests" / "scenarios").glob("*/*.toml"))
RULES = {
    "M9": (ROOT.parent.parent / "shared" / "rules" / "miras9-rules-numbered.md"),
    "MOR": (ROOT.parent.parent / "shared" / "rules" / "morana-rules-numbered.md"),
}
runner = CliRunner()


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_scenario_plays_and_every_expectation_holds(path: Path, tmp_path: Path) -> None:
    outcome = run_file(path, tmp_path / "game.log")
    assert outcome.failed == "", "\n".join(outcome.lines)
    sc = load_scenario(path)
    assert sc.rules, f"{path.name} cites no paragraph it decides"
    assert sc.expect, f"{path.name} expects nothing"
    assert sc.header.sandbox and sc.ruleset == path.parent.name
    # its game, written as a log: verify re-runs it from the scenario's position, event for event
    checked = verify_log(outcome.log)
    assert checked.events == outcome.events and checked.decisions == outcome.decisions
    log = read_log(outcome.log)
    start = msgspec.msgpack.decode(log.header.start_position, type=type(sc.built.state))
    assert start == replaced(sc.built.state, n=0) and log.header.sandbox


def test_enough_scenarios_per_ruleset_each_citing_existing_paragraphs() -> None:
    per = {name: [p for p in SCENARIOS if p.parent.name == name] for name in ("miras9", "morana")}
    assert len(per["miras9"]) >= 40 and len(per["morana"]) >= 20, {k: len(v) for k, v in per.items()}
    texts = {k: v.read_text() if v.exists() else "" for k, v in RULES.items()}
    for path in SCENARIOS:
        for rule in load_scenario(path).rules:
            prefix = rule.split("-")[0]
            if texts[prefix]:
                assert f"[{rule}]" in texts[prefix], f"{path.name} cites {rule}, which the rules text does not have"


def _readme_scenarios() -> list[str]:
    """The worked examples of the scenario file's reference (docs/reference/formats.md, its "Scenario file")."""
    text = (ROOT / "docs" / "reference" / "formats.md").read_text()
    section = text.split("## Scenario file", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```toml\n(.*?)```", section, re.S)


def test_the_readme_worked_examples_run_as_written(tmp_path: Path) -> None:
    examples = _readme_scenarios()
    assert len(examples) >= 4
    rulesets = []
    for i, text in enumerate(examples):
        path = tmp_path / f"example-{i}.toml"
        path.write_text(text)
        outcome = run_file(path)
        assert outcome.failed == "", "\n".join(outcome.lines)
        rulesets.append(load_scenario(path).ruleset)
    assert rulesets.count("miras9") >= 2 and rulesets.count("morana") >= 2


BASE = (ROOT / "tests" / "scenarios" / "miras9" / "battle-damage-point-by-point.toml").read_text()


BAD = {  # what is changed in a good file -> what the one-line error must say (after "FILE:LINE: ")
    "unknown card": (
        ('"a1=char-raider"', '"a1=char-rader"'),
        r"p0\.board\[0\]\.card: unknown card 'char-rader'",
    ),
    "card in two places": (
        ('"d1=char-recruit"', '"a1=char-recruit"'),
        r"p0\.board\[0\]\.card: label 'a1' is used twice",
    ),
    "malformed expectation": (
        ('"p1.echo == 0"', '"p1.echo === 0"'),
        r"expect\[0\]: '.*': not an expectation",
    ),
    "decision not offered": (('"p0 confirm"', '"p0 add_attacker card=d1"'), r"decisions\[2\]: '.*': not offered"),
    "negative counter": (("echo = 2", "echo = -2"), r"p1\.echo: -2 must be a whole number, at least 0"),
    "bad lane": (('lane = "exterior" }', 'lane = "outside" }'), r"p0\.board\[0\]\.lane: 'outside' is not a lane; use"),
    "bad phase": (('phase = "attack"', 'phase = "battle"'), r"position\.phase: 'battle' is not a phase"),
    "unknown player": (("[p1]", "[p3]"), r"p3: unknown key; a scenario has"),
}


AT = {"card in two places": 'board = [{ card = "a1='}  # where the error is, when not at the changed text


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_scenario_file_names_file_line_field_and_fix(tmp_path: Path, case: str) -> None:
    (old, new), message = BAD[case]
    assert old in BASE
    path = tmp_path / "bad.toml"
    text = BASE.replace(old, new, 1)
    path.write_text(text)
    line = text[: text.index(AT.get(case, new))].count("\n") + 1
    with pytest.raises(ScenarioError, match=re.escape(f"{path}:{line}: ") + message):
        run_file(path)
    result = runner.invoke(app, ["scenario", "run", str(path)])
    assert result.exit_code == 1 and len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_a_bad_card_definition_in_a_scenario_names_the_field(tmp_path: Path) -> None:
    text = (ROOT / "tests" / "scenarios" / "morana" / "worked-example-clash.toml").read_text()
    path = tmp_path / "bad.toml"
    text = text.replace("power = 2\n", 'power = "two"\n', 1)
    path.write_text(text)
    line = text[: text.index('power = "two"')].count("\n") + 1  # the field's own line in the card's table
    with pytest.raises(ScenarioError, match=re.escape(f"{path}:{line}: ") + r"cards: .*t-stone.*power"):
        load_scenario(path)


ONE_PER_LINE = """decisions = [
  "p0 declare_at lane=exterior",
  "p0 add_attacker card=a1",
  "p0 confirm",
  "p1 pass",
  "p0 pass",
  "p0 pass",
  "p1 pass",
  "p1 pay_point source=echo",
  "p1 pay_point source=deck",
  "p1 pay_point source=echo",
]
"""


@pytest.mark.parametrize(
    ("change", "bad"),
    [
        (("echo = 2", "echo = 1"), 9),  # the second 'pay_point source=echo': no Echo left to pay with [M9-087]
        (('  "p0 pass",\n  "p1 pass",\n  "p1 pay', '  "p1 pass",\n  "p0 pass",\n  "p1 pay'), 5),  # [M9-075]
    ],
)
def test_an_illegal_decision_written_twice_points_at_the_second(
    tmp_path: Path, change: tuple[str, str], bad: int
) -> None:
    """The same decision text twice, the first legal and the second not: the error names the second's line (the
    attacker has priority first in the window before damage [M9-075]; Battle Damage is paid from Echo only while
    there is Echo [M9-087])."""
    head, rest = BASE.split("decisions = [", 1)
    text = head + ONE_PER_LINE + rest.split("]\n", 1)[1]
    text = text.replace(*change, 1)
    path = tmp_path / "twice.toml"
    path.write_text(text)
    lines = text.splitlines()
    written = load_scenario(path).decisions
    first = written.index(written[bad])
    assert first < bad  # the same text, earlier and legal
    line = lines.index("decisions = [") + 2 + bad  # one decision a line
    assert lines[line - 1] == lines[line - 1 - (bad - first)] == f'  "{written[bad]}",'
    refused = ".*(not offered|it is p0's decision)"
    with pytest.raises(ScenarioError, match=re.escape(f"{path}:{line}: decisions[{bad}]: ") + refused):
        run_file(path)


def test_a_failing_expectation_exits_1_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "wrong.toml"
    path.write_text(BASE.replace('"p1.echo == 0"', '"p1.echo == 1"'))
    result = runner.invoke(app, ["scenario", "run", str(path)])
    assert result.exit_code == 1
    assert "expectation 'p1.echo == 1' failed: p1.echo is 0" in result.stderr
    assert "Recruit[d1]" in result.stdout  # every step printed with card names


@pytest.mark.parametrize(("ruleset", "at"), [("miras9", "turn:4/attack"), ("morana", "turn:3/commit")])
def test_a_scenario_from_a_real_game_starts_where_the_game_was(tmp_path: Path, ruleset: str, at: str) -> None:
    (result,) = simulate(ruleset, 1, 11, None, ["heuristic", "heuristic"], tmp_path)
    log = read_log(result.path)
    text = scenario_from_log(result.path, at)
    assert "no deck-building rules" in text  # a sandbox, and it says so
    path = tmp_path / "from-game.toml"
    path.write_text(text)
    sc = load_scenario(path)
    from annals.engine.registry import get_ruleset
    from annals.queries.positions.timeline import Timeline

    rules = get_ruleset(ruleset)
    count = Timeline(log).resolve(at)
    real = fold(log, count)
    mine = sc.built.state
    theirs, ours = rules.pending(real), rules.pending(mine)
    assert theirs is not None and ours is not None
    # the same question with as many options (instances are numbered afresh), the same counters
    assert ours.point == theirs.point and ours.player == theirs.player
    assert len(ours.options) == len(theirs.options)
    assert sorted(rules.position(mine).counters.values()) == sorted(rules.position(real).counters.values())
    cli = runner.invoke(
        app, ["scenario", "new", "--from", result.path, "--at", at, "--output", str(tmp_path / "c.toml")]
    )
    assert cli.exit_code == 0, cli.stderr


def test_scenario_run_writes_a_log_that_verify_and_show_open(tmp_path: Path) -> None:
    """``annals scenario run --out``: the game as a log (the stop after the scripted decisions is its end,
    ``scenario_end``, no winner); ``annals verify`` re-runs it and ``annals show`` prints it with the result; a
    default goes to ANNALS_HOME/scenarios; a re-run replaces its own earlier log, never another file."""
    source = ROOT / "tests" / "scenarios" / "miras9" / "battle-damage-point-by-point.toml"
    log = tmp_path / "bd.log"
    result = runner.invoke(app, ["scenario", "run", str(source), "--out", str(log)])
    assert result.exit_code == 0, result.stderr
    assert f"log: {log}" in result.stdout
    assert read_log(log).close.end_reason == "scenario_end" and read_log(log).close.winner == -1
    verified = runner.invoke(app, ["verify", str(log)])
    assert verified.exit_code == 0 and ": ok (28 events re-run identically" in verified.stdout, verified.stderr
    shown = runner.invoke(app, ["show", "--format", "records", str(log)])
    assert shown.exit_code == 0 and "sandbox" in shown.stdout and "BattleDamagePaid" in shown.stdout
    assert "result: no winner: the scenario's decisions are all played, after 3 turns" in shown.stdout  # in words
    again = runner.invoke(app, ["scenario", "run", str(source), "--out", str(log)])  # its own log: replaced
    assert again.exit_code == 0 and "replaces this scenario's earlier log" in again.stdout, again.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bd.log"] and verify_log(log).events == 28
    other = ROOT / "tests" / "scenarios" / "miras9" / "bd-pay-from-hand.toml"
    theirs = runner.invoke(app, ["scenario", "run", str(other), "--out", str(log)])  # another's: never
    assert theirs.exit_code == 1 and "is not this scenario's log" in theirs.stderr
    home = tmp_path / "home"
    won = ROOT / "tests" / "scenarios" / "morana" / "thirteen-slava-wins-in-the-rite.toml"
    for _ in range(2):  # a re-run replaces its own earlier logs rather than piling NAME-2.log beside them
        both = runner.invoke(app, ["scenario", "run", str(source), str(won), "-q"], env={"ANNALS_HOME": str(home)})
        assert both.exit_code == 0, both.stderr
    written = sorted(p.name for p in (home / "scenarios").iterdir())
    assert written == ["battle-damage-point-by-point.log", "thirteen-slava-wins-in-the-rite.log"]
    ended = read_log(home / "scenarios" / written[1]).close
    assert ended.end_reason != "scenario_end" and ended.winner == 0  # a real end is the game's own result


def test_scenario_end_closes_only_a_sandbox_game(tmp_path: Path) -> None:
    """A log that is no scenario's (no sandbox header) cannot claim it stopped as a scenario: read refuses it."""
    from annals.engine.runner import finalize_header
    from annals.schemas.errors import AnnalsError
    from annals.schemas.header import SCENARIO_REASON, LogClose
    from annals.schemas.logfile import LogWriter

    sc = load_scenario(ROOT / "tests" / "scenarios" / "miras9" / "battle-damage-point-by-point.toml")
    outcome = run_file(sc.path, tmp_path / "good.log")
    good = read_log(outcome.log)
    header = msgspec.structs.replace(good.header, sandbox=False, game_id="")
    writer = LogWriter(tmp_path / "forged.log", finalize_header(header))
    writer.write_batch(good.events, good.decisions)
    writer.close(LogClose(-1, SCENARIO_REASON, len(good.events), len(good.decisions), good.close.turns))
    with pytest.raises(AnnalsError, match=r"scenario_end.*sandbox"):
        read_log(tmp_path / "forged.log")


def _options_by_card(state: Any, options: Any) -> list[str]:
    """The options with each card instance written as its card id (a rebuilt position numbers cards afresh)."""
    out = []
    for option in options:
        fields = []
        for name in option.__struct_fields__:
            value = getattr(option, name)
            card = state.cards.get(value) if isinstance(value, int) and value >= 1000 else None
            fields.append(f"{name}={card.cid if card is not None else value}")
        out.append(f"{type(option).__name__}({', '.join(fields)})")
    return sorted(out)


def test_a_miras9_scenario_stops_anywhere_in_a_wave_of_a_real_game(tmp_path: Path) -> None:
    """Every decision of real games, inside waves too (attackers, blockers, reaction windows with the stack, Battle
    Damage owed) [M9-073]-[M9-080], [M9-086], [M9-114]: written as a scenario at that event and read back, the same
    player is asked the same question with the same options (cards by id) as in the game."""
    from annals.engine.miras9.builder import to_spec
    from annals.engine.miras9.ruleset import RULESET
    from annals.engine.spec import SpecError

    results = simulate("miras9", 3, 21, ["vanguard", "tempest"], ["heuristic", "heuristic"], tmp_path, max_turns=12)
    points: dict[str, int] = {}
    held = refused = 0
    for result in results:
        log = read_log(result.path)
        for d in log.decisions[1::3]:
            real: Any = fold(log, d.at)
            try:
                to_spec(real)
            except SpecError:
                refused += 1
                continue
            path = tmp_path / f"at-{d.at}.toml"
            path.write_text(scenario_from_log(result.path, f"event:{d.at - 1}"))  # the position after event at-1
            mine: Any = load_scenario(path).built.state
            ours, theirs = RULESET.pending(mine), RULESET.pending(real)
            assert ours is not None and theirs is not None
            assert (ours.player, ours.point) == (theirs.player, theirs.point), (d.at, real.step)
            assert _options_by_card(mine, ours.options) == _options_by_card(real, theirs.options), (d.at, real.step)
            assert (mine.wave is None) == (real.wave is None) and mine.window == real.window
            assert len(mine.stack) == len(real.stack) and len(mine.bd_sources) == len(real.bd_sources)
            points[real.step] = points.get(real.step, 0) + 1
            points["with a stack"] = points.get("with a stack", 0) + bool(real.stack)
            points["with Battle Damage owed"] = points.get("with Battle Damage owed", 0) + (real.bd_player >= 0)
            held += 1
            path.unlink()
    inside = {"attack.declare", "attack.blockers", "attack.reactions_before_damage", "attack.consequences"}
    assert inside <= set(points), points  # the stops inside a wave were all reached
    assert held > 10 * max(refused, 1), (held, refused)


WAVE_BASE = (ROOT / "tests" / "scenarios" / "miras9" / "wave-stack-waiting-before-damage.toml").read_text()
BAD_WAVES = {  # a wave the rules could not have reached -> the error (file:line: field: ...)
    "ready attacker": ((", tapped = true }]", " }]"), r"wave\.attackers\[0\]\.card: 'a1' is declared .* \[M9-074\]"),
    "a stack in the damage step": (
        ('step = "reactions_before_damage"', 'step = "damage"'),
        r"wave\.stack: damage is no reaction window: .* \[M9-114\]",
    ),  # [M9-078]
    "stack outside a window": (
        ('step = "reactions_before_damage"', 'step = "consequences"'),
        r"wave\.stack: consequences is no reaction window",
    ),
    "not a reaction": (
        ('"s1=rx-counter"', '"s1=char-recruit"'),
        r"wave\.stack\[0\]\.card: .* no Reaction: .*\[M9-042\]",
    ),
    "attacker elsewhere": (('lane = "exterior"\nstep', 'lane = "space"\nstep'), r"wave\.attackers\[0\]\.card: .*"),
    "owed outside consequences": (("[p1]", '[battle_damage]\nsources = ["a1"]\n\n[p1]'), r"battle_damage: .*M9-079"),
}


@pytest.mark.parametrize("case", sorted(BAD_WAVES))
def test_a_wave_the_rules_could_not_reach_is_refused_naming_the_field(tmp_path: Path, case: str) -> None:
    (old, new), message = BAD_WAVES[case]
    assert old in WAVE_BASE
    path = tmp_path / "bad-wave.toml"
    path.write_text(WAVE_BASE.replace(old, new, 1))
    with pytest.raises(ScenarioError, match=re.escape(str(path)) + r":\d+: " + message):
        load_scenario(path)


def test_a_file_in_the_old_spelling_of_the_players_plays_as_the_same_file_in_annals_numbering(tmp_path: Path) -> None:
    """Players are p0 and p1 as everywhere else; a file written before (p1 and p2, no p0) is read the same way,
    and says so."""
    old = tmp_path / "old.toml"
    old.write_text(re.sub(r"\bp([01])\b", lambda m: f"p{int(m.group(1)) + 1}", BASE))
    assert "p0" not in old.read_text() and "[p2]" in old.read_text()
    (tmp_path / "new.toml").write_text(BASE)
    new, was = run_file(tmp_path / "new.toml"), run_file(old)
    assert new.failed == was.failed == ""
    note = "  players: (this file counts its players p1 and p2, the old spelling: read as p0 and p1)"
    assert was.lines[1:] == [new.lines[1], note, *new.lines[2:]] and note not in new.lines
    old.write_text(old.read_text().replace('"p2.echo == 0"', '"p2.echo === 0"'))
    with pytest.raises(ScenarioError, match=r"expect\[\d+\]: 'p1.echo === 0'.*the old spelling: read as p0 and p1"):
        load_scenario(old)


@pytest.mark.parametrize(
    "text",
    ['ruleset = "morana"\n[p2]\nlife = \n', 'ruleset = "morana"\nscenario = "unclosed\n'],
    ids=["old-spelling", "no-player-named"],
)
def test_a_toml_syntax_error_goes_without_the_players_numbering_note(tmp_path: Path, text: str) -> None:
    """The note on p1 and p2 was added to every error of a file naming no p0, a syntax error too (renumbering
    keeps every line and column: it has no part in one), and to a file naming no player at all."""
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ScenarioError, match="not valid TOML") as info:
        load_scenario(path)
    assert "old spelling" not in str(info.value)
