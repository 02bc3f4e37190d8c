"""``annals scenario run`` prints play as a judge reads a game: each decision and event in words, cards by name and
label, and each option with the decision line that picks it (``queries.workbench.steps``); ``--records`` prints
the records field by field, as it always did. The bracketed lines are proved by playing them: a scenario whose
decisions are the lines one run printed plays the same game, and each option ``next:`` offers is the one its line
picks."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.simulate import simulate
from annals.queries.workbench.scenario import load_scenario, run_scenario, scenario_from_log

ROOT = Path(__file__).resolve().parents[3]
runner = CliRunner()
RECORD_NAMES = re.compile(r"\b(BattleDamagePaid|PayPoint|WaveStep|PriorityPassed|DeclareAt|Place|Done)\b")
DECIDED = re.compile(r"^\? decision (\d+) \((p[01])\): (.*) \[(p[01] [^\]]*)\]$")
OFFERED = re.compile(r"^    - (.*) \[(p[01] [^\]]*)\]$")


def _judge_walk_scenario(tmp_path: Path) -> Path:
    """The judge's guide's worked Battle Damage scenario, as the guide writes it."""
    guide = (ROOT / "docs" / "judge.md").read_text()
    text = re.search(r"cat > battle-damage.toml <<'EOF'\n(.*?)\nEOF\n", guide, re.S)
    assert text is not None, "docs/judge.md lost its battle-damage.toml example"
    path = tmp_path / "battle-damage.toml"
    path.write_text(text.group(1) + "\n")
    return path


def test_battle_damage_paid_point_by_point_reads_in_words(tmp_path: Path) -> None:
    """[M9-086] [M9-087]: the three points paid one at a time, the deck's point taking the top card, as sentences."""
    result = runner.invoke(app, ["scenario", "run", str(_judge_walk_scenario(tmp_path)), "--out", str(tmp_path / "g")])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "? decision 9 (p1): Pay with the top card of your deck [p1 pay_point source=deck]" in lines
    assert any(line.endswith("Raider[a1] is unblocked: p1 takes 3 Battle Damage") for line in lines), lines
    paid = [line.split(maxsplit=2)[2] for line in lines if "pays Battle Damage" in line]
    assert paid == [
        "p1 pays Battle Damage with 1 Echo (2 to pay)",
        "p1 pays Battle Damage with Recruit[d1] from the deck (1 to pay)",
        "p1 pays Battle Damage with 1 Echo (0 to pay)",
    ]
    assert not RECORD_NAMES.search(result.output), "a record's class name in the words"
    records = runner.invoke(
        app, ["scenario", "run", str(tmp_path / "battle-damage.toml"), "--out", str(tmp_path / "g"), "--records"]
    )
    assert records.exit_code == 0, records.output
    assert "? decision 9 (p1 at battle_damage): PayPoint source=deck card=0" in records.output.splitlines()
    assert "BattleDamagePaid point=2 remaining=1 source='deck'" in records.output


def _scenarios(tmp_path: Path) -> list[Path]:
    """Both rulesets' starters and positions of real games, with decisions to play and options to offer."""
    paths = [_judge_walk_scenario(tmp_path)]
    for ruleset in ("miras9", "morana"):
        starter = tmp_path / f"starter-{ruleset}.toml"
        assert runner.invoke(app, ["scenario", "new", ruleset, "--output", str(starter)]).exit_code == 0
        paths.append(starter)
    for ruleset, at in (("morana", "turn:4/commit"), ("miras9", "turn:5")):
        (game,) = simulate(ruleset, 1, 3, None, ["heuristic", "heuristic"], tmp_path / f"games-{ruleset}")
        path = tmp_path / f"from-{ruleset}.toml"
        path.write_text(scenario_from_log(game.path, at))
        paths.append(path)
    return paths


def test_the_printed_decision_lines_play_the_same_game(tmp_path: Path) -> None:
    for path in _scenarios(tmp_path):
        sc = load_scenario(path)
        first = run_scenario(sc)
        decided = [m for m in map(DECIDED.match, first.lines) if m]
        assert len(decided) == len(sc.decisions), first.lines
        again = run_scenario(msgspec.structs.replace(sc, decisions=[m.group(4) for m in decided]))
        assert again.failed == first.failed and again.events == first.events
        assert [line for line in again.lines if "log:" not in line] == [
            line for line in first.lines if "log:" not in line
        ]


@pytest.mark.parametrize("which", range(5))
def test_each_option_offered_is_the_one_its_line_picks(tmp_path: Path, which: int) -> None:
    sc = load_scenario(_scenarios(tmp_path)[which])
    stopped = run_scenario(sc)
    offered = [m for m in map(OFFERED.match, stopped.lines) if m]
    assert offered, stopped.lines
    for m in offered:
        words, line = m.group(1), m.group(2)
        picked = run_scenario(msgspec.structs.replace(sc, decisions=[*sc.decisions, line], expect=[]))
        decided = [d for d in map(DECIDED.match, picked.lines) if d]
        assert decided[-1].group(3) == words and decided[-1].group(4) == line, (line, picked.lines)
