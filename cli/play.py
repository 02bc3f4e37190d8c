"""``annals play``: one game with a person, an external program or a bot in each seat, recorded live."""

from __future__ import annotations

from pathlib import Path

import typer

from annals.cli.app import app, out, reported
from annals.engine.players import DECISION_TIMEOUT, play_live


@app.command()
def play(
    ruleset: str = typer.Argument(..., help="miras9 or morana."),
    decks: str = typer.Option(..., "--decks", help="Two deck names, comma-separated."),
    players: str = typer.Option(
        "human,heuristic", "--players", help="Two seats: human, external:COMMAND, or a bot name; comma-separated."
    ),
    seed: int = typer.Option(1, "--seed", help="The game's seed."),
    log: Path = typer.Option(Path("game.log"), "--out", help="Where to write the log."),
    timeout: float = typer.Option(
        DECISION_TIMEOUT, "--timeout", help="Seconds an external program has per decision; out of time, it loses."
    ),
) -> None:
    """Play one game at the terminal (or seat an external program speaking JSON lines), writing its log live.

    Example: annals play morana --decks dawn,dusk --players human,heuristic --out my-game.log
    """
    with reported():
        result = play_live(ruleset, decks.split(","), players.split(","), seed, log, timeout=timeout)
    if result.note:
        out.print(result.note, markup=False)
    out.print(f"game {result.game_id}: winner {result.winner} ({result.end_reason}); log written to {log}")
