"""``annals play``: one game with a person, an external program or a bot in each seat, recorded live."""

from __future__ import annotations

from pathlib import Path

import typer

from annals.cli.app import app, out, reported
from annals.cli.simulate import names
from annals.engine.players import play_live


@app.command()
def play(
    ruleset: str = typer.Argument(..., metavar="RULESET", help="miras9 or morana."),
    decks: str | None = typer.Option(
        None, "--decks", help="Two deck names, comma-separated (default: the ruleset's pair, e.g. clash,glory)."
    ),
    players: str = typer.Option(
        "human,heuristic", "--players", help="Two seats: human, external:COMMAND, or a bot name; comma-separated."
    ),
    seed: int = typer.Option(1, "--seed", help="The game's seed."),
    log: Path | None = typer.Option(
        None, "--out", help="Where to write the log (default: a new file in ANNALS_HOME/games)."
    ),
) -> None:
    """Play one game at the terminal, writing its log live.

    Each seat is a person at the terminal, a bot, or an external program.
    The program speaks JSON lines on stdin and stdout (the protocol is in annals.engine.players).

    Example: annals play morana --decks starter-sun,starter-winter --players human,heuristic --out my-game.log
    """
    with reported():
        result = play_live(ruleset, names(decks), players.split(","), seed, log)
    out.print(
        f"game {result.game_id}: winner {result.winner} ({result.end_reason}); log written to {result.path}",
        markup=False,
    )
