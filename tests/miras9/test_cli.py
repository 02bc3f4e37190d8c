"""``annals simulate miras9`` and ``annals verify`` through the generic commands."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from annals.cli.main import app


def test_simulate_and_verify_miras9(tmp_path: Path) -> None:
    """Two heuristic-vs-random games: one log each, and each re-runs identically from its decisions."""
    runner = CliRunner()
    res = runner.invoke(
        app,
        ["simulate", "miras9", "--games", "2", "--seed", "3", "--decks", "vanguard,wayfarer",
         "--bots", "heuristic,random", "--out", str(tmp_path), "--max-turns", "200", "--quiet"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    logs = sorted(tmp_path.glob("miras9-*.log"))
    assert len(logs) == 2
    for log in logs:
        v = runner.invoke(app, ["verify", str(log)])
        assert v.exit_code == 0 and "re-run identically" in v.output, v.output
