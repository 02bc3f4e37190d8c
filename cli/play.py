"""``annals play``: one game with a person, an external program or a bot in each seat, recorded live."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from annals.cli.app import app, out, reported
from annals.clients.terminal import human_seat
from annals.engine.players import play_live


@app.command()
def play(
    ruleset: str = typer.Argument(..., help="miras9 or morana."),
    decks: str = typer.Option(..., "--decks", help="Two deck names, comma-separated."),
    players: str = typer.Option(
        "human,heuristic", "--players", help="Two seats: human, external:COMMAND, or a bot name; comma-separated."
    ),
    seed: int = typer.Option(1, "--seed", help="The game's seed."),
    log: Path = typer.Option(Path("game.log"), "--out", help="Where to write the log."),
    clock: int = typer.Option(0, "--clock", help="Each seat's time bank in seconds (0: no clock)."),
) -> None:
    """Play one game at the terminal (or seat an external program speaking JSON lines), writing its log live.

    At your prompt: a number chooses, and help, board, hand, card NAME, log; Ctrl-C asks whether to leave.

    Example: annals play morana --decks dawn,dusk --players human,heuristic --out my-game.log
    """
    with reported():
        human = human_seat(sys.stdin, sys.stdout)
        result = play_live(ruleset, decks.split(","), players.split(","), seed, log, human=human, bank_ms=clock * 1000)
    out.print(f"game {result.game_id}: winner {result.winner} ({result.end_reason}); log written to {log}")
