"""Whole games replayed against their golden text: any change to an event stream is a visible diff."""

from __future__ import annotations

import difflib

import pytest

from tests.golden.games import golden_games, golden_path, render_game


@pytest.mark.parametrize(("name", "seed"), golden_games())
def test_golden_game_is_unchanged(name: str, seed: int) -> None:
    path = golden_path(name, seed)
    assert path.exists(), f"no golden file {path.name}: run `make golden` and review the new file"
    expected = path.read_text()
    actual = render_game(name, seed)
    if actual != expected:
        diff = "".join(
            list(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), "golden", "now"))[:60]
        )
        pytest.fail(f"{name} seed {seed} no longer plays as recorded; if intended, run `make golden`:\n{diff}")
