"""``annals simulate morana`` writes logs that ``annals verify`` re-runs identically; a bad deck name is refused."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from annals.cli.main import app

runner = CliRunner()


def test_simulate_then_verify_morana(tmp_path: Path) -> None:
    """Four heuristic-vs-random games on the shipped decks; each log verifies (a CLI test: it cites no rule)."""
    out = tmp_path / "games"
    result = runner.invoke(
        app,
        [
            "simulate",
            "morana",
            "-n",
            "4",
            "--seed",
            "9",
            "--decks",
            "clash,glory",
            "--bots",
            "heuristic,random",
            "--out",
            str(out),
            "-q",
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith("4 games written to")
    logs = sorted(out.glob("morana-*.log"))
    assert len(logs) == 4
    for log in logs:
        verified = runner.invoke(app, ["verify", str(log)])
        assert verified.exit_code == 0 and ": ok (" in verified.output, verified.output


def test_simulate_refuses_an_unknown_deck(tmp_path: Path) -> None:
    """An unknown deck name is refused with the choices listed (a CLI test; deck legality is test_cards)."""
    result = runner.invoke(app, ["simulate", "morana", "--decks", "clash,nope", "--out", str(tmp_path), "-q"])
    assert result.exit_code != 0
    assert "unknown deck 'nope'" in result.output and "starter-winter" in result.output
