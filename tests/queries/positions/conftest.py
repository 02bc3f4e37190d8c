"""Fixtures of the position tests."""

from __future__ import annotations

import json
from typing import Any

import pytest

from annals.engine.registry import get_ruleset
from annals.engine.simulate import simulate
from annals.queries.positions.files import InvalidPositionError, load_position, position_file
from annals.queries.positions.timeline import Timeline


@pytest.fixture(scope="session")
def wave_position(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A position file of a Miras 9 game held in a wave's blocking or later step (a decision point), as saved."""
    root = tmp_path_factory.mktemp("wave-games")
    for _ in simulate("miras9", 1, 5, ["bastion", "tempest"], ["heuristic", "heuristic"], root):
        pass
    timeline = Timeline.from_file(next(root.glob("*.log")))
    path = root / "p.json"
    for count in range(len(timeline.events)):
        state: Any = timeline.state_after(count)
        if state.wave is None or state.wave.step < 3 or get_ruleset("miras9").pending(state) is None:
            continue
        path.write_bytes(position_file(timeline, count))
        try:
            load_position(path)
        except InvalidPositionError:
            continue
        doc: dict[str, Any] = json.loads(path.read_text())
        return doc
    raise AssertionError("no wave held at a decision point in the game")
