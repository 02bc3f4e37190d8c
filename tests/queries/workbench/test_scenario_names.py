"""A ruling test cannot pass for nothing: every name a scenario writes is looked up when it is read (a misspelt
counter, zone, label, event or option kind is refused with the closest name, never read as 0); expectations hold at
a point of play (``after N:``); several refusals fit in one file; a card's controller can be another than its
owner; the file itself goes through the input door (regular, bounded in size, nesting and numbers)."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.miras9.builder import from_spec, to_spec
from annals.queries.workbench.scenario import ScenarioError, load_scenario, run_file, template

runner = CliRunner()


def _write(tmp_path: Path, ruleset: str, replace: dict[str, str]) -> Path:
    """The ruleset's starter scenario with each ``old`` text replaced by ``new``."""
    text = template(ruleset)
    for old, new in replace.items():
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / f"{ruleset}.toml"
    path.write_text(text)
    return path


M9_EXPECT = '"p1.echo == 0",'
MOR_EXPECT = '"p0.slava == 1",'


@pytest.mark.parametrize(
    ("ruleset", "old", "new", "message"),
    [
        # the case: p0.slavaa printed ok, the file "every expectation holds"
        ("morana", MOR_EXPECT, '"p0.slavaa == 0",', r"'slavaa' is no counter .*; did you mean 'slava'"),
        ("morana", MOR_EXPECT, '"p0.slav == 3",', r"'slav' is no counter or zone of a player; did you mean 'slava'"),
        ("morana", MOR_EXPECT, '"a1 in p0.sight1",', r"'sight1' is no zone of a player; did you mean 'site1'"),
        ("morana", MOR_EXPECT, '"a1.powr == 1",', r"'powr' is no counter of a card; did you mean 'power'"),
        ("miras9", M9_EXPECT, '"p1.ecoh == 0",', r"did you mean 'echo'"),
        ("miras9", M9_EXPECT, '"p1.slava == 0",', r"'slava' is no counter or zone of a player"),  # another ruleset's
        ("miras9", M9_EXPECT, '"a1.wound == 0",', r"'wound' is no counter of a card; did you mean 'wounds'"),
        ("miras9", M9_EXPECT, '"a11.wounds == 0",', r"'a11.wounds' names no player.*did you mean 'a1'"),
        ("miras9", M9_EXPECT, '"d1 in p1.discrad",', r"'discrad' is no zone of a player; did you mean 'discard'"),
        ("miras9", M9_EXPECT, '"winner == p2",', r"write winner == p0, p1 or none"),
        ("miras9", M9_EXPECT, '"decision 11 is refused",', r"decision 11: the scenario has 10 decision"),
        ("miras9", M9_EXPECT, '"after 12: a1.wounds == 2",', r"after 12: the scenario has 10 decision"),
        ("miras9", M9_EXPECT, '"after 2: event WaveDeclard",', r"'WaveDeclared'"),
        ("miras9", '"p0 add_attacker card=a1"', '"p0 add_atacker card=a1"', r"did you mean 'add_attacker'"),
        ("miras9", '"p0 add_attacker card=a1"', '"p0 add_attacker crd=a1"', r"'crd' is no field .*'card'"),
        ("miras9", "echo = 2", "echos = 2", r"p1.echos: unknown field; did you mean 'echo'"),
        ("miras9", 'lane = "exterior" }', 'lane = "exterior", wound = 1 }', r"did you mean 'wounds'"),
    ],
)
def test_a_name_that_names_nothing_is_refused_with_the_closest(
    tmp_path: Path, ruleset: str, old: str, new: str, message: str
) -> None:
    path = _write(tmp_path, ruleset, {old: new})
    with pytest.raises(ScenarioError, match=message) as caught:
        load_scenario(path)
    assert str(caught.value).startswith(f"{path}:")  # the file and the line
    result = runner.invoke(app, ["scenario", "run", str(path)])
    assert result.exit_code == 1 and "every expectation holds" not in result.stdout
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_expectations_hold_at_a_point_of_play(tmp_path: Path) -> None:
    """``after N:`` is checked once decision N is made and the automatic steps after it ran: the same counter
    can hold one value mid-game and another at the end, and a check that fails mid-game fails the file."""
    mid = ['"after 0: p1.echo == 2",', '"after 7: p1.echo == 2",', '"after 8: p1.echo == 1",', M9_EXPECT]
    path = _write(tmp_path, "miras9", {M9_EXPECT: "\n  ".join(mid)})
    outcome = run_file(path)
    assert outcome.failed == "", outcome.lines
    printed = [line for line in outcome.lines if "expect 'after" in line]
    assert printed == [f"  expect {line.strip(',')[1:-1]!r}: ok" for line in mid[:3]]
    # printed where it was checked: after decision 8 is played, before decision 9 is
    order = [i for i, line in enumerate(outcome.lines) if "after 8:" in line or line.startswith("? decision 9")]
    assert len(order) == 2 and "after 8" in outcome.lines[order[0]]
    wrong = _write(tmp_path, "miras9", {M9_EXPECT: '"after 8: p1.echo == 2", ' + M9_EXPECT})
    failed = run_file(wrong)
    assert "expectation 'after 8: p1.echo == 2' failed: p1.echo is 1" in failed.failed


def test_a_checkpoint_play_never_reached_fails(tmp_path: Path) -> None:
    """A check after a decision that was never made (the game ended first) fails: it did not hold, it was never
    looked at."""
    won = Path(__file__).resolve().parents[2] / "scenarios" / "morana" / "thirteen-slava-wins-in-the-rite.toml"
    text = won.read_text().replace('"p1 done"]', '"p1 done", "p0 done"]')  # one decision past the game's end
    path = tmp_path / "won.toml"
    path.write_text(text.replace('"p0.slava == 13"]', '"p0.slava == 13", "after 3: over == true"]'))
    assert run_file(path).failed == ""
    path.write_text(text.replace('"p0.slava == 13"]', '"p0.slava == 13", "after 4: over == true"]'))
    outcome = run_file(path)
    assert outcome.failed.endswith("failed: play ended after decision 3, before decision 4 was made")


def test_two_refusals_and_a_mid_game_check_fit_in_one_file(tmp_path: Path) -> None:
    """A refused decision no longer ends play: the next line is tried at the same point (the shipped example
    ``opponent-controlled-unit-attacks-not-for-its-owner`` has two refusals and checks between them)."""
    root = Path(__file__).resolve().parents[2] / "scenarios" / "miras9"
    outcome = run_file(root / "opponent-controlled-unit-attacks-not-for-its-owner.toml")
    assert outcome.failed == "", outcome.lines
    refused = [line for line in outcome.lines if ": refused (" in line]
    assert len(refused) == 2 and all(line.endswith("play goes on") for line in refused)
    assert outcome.decisions == 3  # played; the two refused are not in the game
    # a refusal the file does not expect is an error naming the decision and what is offered
    text = (root / "opponent-controlled-unit-attacks-not-for-its-owner.toml").read_text()
    unexpected = tmp_path / "u.toml"
    unexpected.write_text(text.replace('"decision 4 is refused",', ""))
    with pytest.raises(ScenarioError, match=r"decisions\[3\]: 'p0 add_attacker card=b1 target=0': not offered"):
        run_file(unexpected)


def test_a_controller_apart_from_the_owner_round_trips() -> None:
    """``controller = "p1"`` on a board entry: the card stays p0's (its instance is p0's), p1 directs it; writing
    the position back gives the same entry."""
    spec = {
        "position": {"turn": 3, "phase": "attack", "active": "p0"},
        "p0": {"deck": ["char-recruit"], "board": [{"card": "a1=char-raider", "side": "p1", "controller": "p1"}]},
        "p1": {"deck": ["char-recruit"]},
    }
    built = from_spec(spec)
    card = built.state.cards[built.labels["a1"]]
    assert (card.owner, card.ctrl) == (0, 1)
    written = to_spec(built.state)
    assert written["p0"]["board"][0]["controller"] == "p1"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("wounds = 10**21", None),  # not TOML: the syntax error, named
        ('lane = "exterior", wounds = 10000000000000000000000 }', r":\d+: p0\.board\[0\]\.wounds: 10+ is outside"),
        ('lane = "exterior", wounds = -1000000000000000000000 }', r"is outside -1000000 \.\. 1000000"),
    ],
)
def test_numbers_are_bounded(tmp_path: Path, text: str, message: str | None) -> None:
    if message is None:
        path = tmp_path / "s.toml"
        path.write_text(template("miras9") + f"\n{text}\n")
        with pytest.raises(ScenarioError, match=r"not valid TOML"):
            load_scenario(path)
        return
    path = _write(tmp_path, "miras9", {'lane = "exterior" }': text})
    with pytest.raises(ScenarioError, match=message):
        load_scenario(path)


def test_nesting_is_bounded(tmp_path: Path) -> None:
    """500 nested inline tables: a named error with the line, not a RecursionError."""
    path = tmp_path / "deep.toml"
    path.write_text(template("miras9") + "\n[wave]\nx = " + "{ a = " * 500 + "1" + " }" * 500 + "\n")
    with pytest.raises(ScenarioError, match=r"deep.toml: nested deeper than a scenario file may be \(32 levels\)"):
        load_scenario(path)
    shallow = tmp_path / "shallow.toml"
    shallow.write_text(template("miras9") + "\n[wave]\nx = " + "{ a = " * 40 + "1" + " }" * 40 + "\n")
    with pytest.raises(ScenarioError, match=r"shallow.toml:\d+: wave\.x(\.a)+: nested 3\d levels deep"):
        load_scenario(shallow)


def test_a_fifo_or_a_device_is_refused_at_once(tmp_path: Path) -> None:
    """``annals scenario run /dev/zero`` read until memory ran out; a FIFO hung. Both are refused by name."""
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    done: list[str] = []
    worker = threading.Thread(target=lambda: done.append(_refusal(fifo)), daemon=True)
    start = time.monotonic()
    worker.start()
    worker.join(10)
    assert done and "a FIFO" in done[0], "a FIFO was waited on"
    assert time.monotonic() - start < 10
    assert "a character device" in _refusal(Path("/dev/zero"))
    result = runner.invoke(app, ["scenario", "run", "/dev/zero"])
    assert result.exit_code == 1 and "not a regular file" in result.stderr and "Traceback" not in result.stderr
    big = tmp_path / "big.toml"
    with big.open("wb") as f:
        f.truncate(2 << 20)
    assert "more than a scenario can be" in _refusal(big)


def _refusal(path: Path) -> str:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    return str(caught.value)


def test_a_file_saved_with_a_byte_order_mark_plays_as_without(tmp_path: Path) -> None:
    """Windows Notepad starts a UTF-8 file with U+FEFF; TOML would refuse it as an 'invalid statement' at 1:1."""
    path = tmp_path / "notepad.toml"
    path.write_bytes(b"\xef\xbb\xbf" + template("miras9").encode())
    result = runner.invoke(app, ["scenario", "run", str(path)])
    assert result.exit_code == 0, result.output
    assert "every expectation holds" in result.output
