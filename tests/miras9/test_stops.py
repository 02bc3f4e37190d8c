"""Where a Miras 9 game stops inside its automatic steps: the damage and consequences steps' starts, set-up's end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from annals.engine.miras9 import builder as m9
from annals.engine.replay import fold
from annals.engine.simulate import simulate
from annals.schemas.logfile import read_log
from tests.resumecheck import resume_matches, stops


def test_damage_and_consequences_are_held_at_their_start_only_M9_078_M9_079(tmp_path: Path) -> None:
    """R-M9-63: just after the damage step's and the consequences step's ``WaveStep`` the game stops (no wound
    dealt yet [M9-078]; no defeat yet, the wounds placed remembered for Killing Machine [M9-079], [M9-083]) and goes
    on event for event as the game did; after a wound of the damage step it does not stop."""
    checked = {5: 0, 6: 0}
    for result in simulate("miras9", 2, 41, ["wreckers", "corsairs"], ["heuristic", "heuristic"], tmp_path,
                           max_turns=8):  # fmt: skip
        log = read_log(result.path)
        at = set(stops(log))
        for i, e in enumerate(log.events):
            if type(e).__name__ == "WaveStep" and e.step_no in (5, 6):
                assert i + 1 in at
                state: Any = fold(log, i + 1)
                assert state.boundary == i + 1 and state.wave.step == e.step_no
                assert resume_matches(log, i + 1, m9) == len(log.events) - i - 1
                checked[e.step_no] += 1
            elif type(e).__name__ == "CombatDamage":
                assert i + 1 not in at  # the wounds are dealt at once
    assert checked[5] and checked[6], checked


def test_set_up_ends_at_a_stop_the_first_player_chosen_M9_022(tmp_path: Path) -> None:
    """R-M9-64: once the first player is chosen [M9-022] the game stops before the first turn and goes on as it
    did; before that, inside set-up [M9-019]-[M9-021], only the start is a stop (no position is taken there)."""
    (result,) = simulate("miras9", 1, 41, ["wreckers", "corsairs"], ["heuristic", "heuristic"], tmp_path,
                         max_turns=4)  # fmt: skip
    log = read_log(result.path)
    chosen = next(i for i, e in enumerate(log.events) if type(e).__name__ == "FirstPlayerChosen") + 1
    state: Any = fold(log, chosen)
    assert state.turn == 0 and state.boundary == chosen and m9.to_spec(state)["position"]["phase"] == "setup.done"
    assert chosen in stops(log)
    assert resume_matches(log, chosen, m9) == len(log.events) - chosen
