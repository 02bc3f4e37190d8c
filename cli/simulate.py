"""``annals simulate``: bot games, one log per game."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import typer
from rich.progress import Progress

from annals.cli.app import app, out, reported
from annals.engine.simulate import simulate as run_simulation


@app.command()
def simulate(
    ruleset: str = typer.Argument(..., help="miras9 or morana."),
    games: int = typer.Option(10, "--games", "-n", min=1, help="How many games."),
    seed: int = typer.Option(1, "--seed", help="Seed of the first game; game i uses seed + i."),
    decks: str = typer.Option(..., "--decks", help="Two deck names, comma-separated."),
    bots: str = typer.Option("random,random", "--bots", help="Two bot names, comma-separated."),
    out_dir: Path = typer.Option(Path("games"), "--out", help="Folder for the log files."),
    max_turns: int | None = typer.Option(
        None, "--max-turns", min=0, help="End bot games after this many turns (0: no cap; default: the ruleset's)."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Play bot games and write one log per game.

    Example: annals simulate miras9 --games 100 --seed 7 --decks vanguard,bastion --bots heuristic,random --out games
    """
    wins: Counter[str] = Counter()  # by "bot/deck" (seats alternate between games); "" for no winner
    with reported(), Progress(disable=quiet, transient=True) as progress:
        task = progress.add_task("games", total=games)
        for result in run_simulation(
            ruleset, games, seed, decks.split(","), bots.split(","), out_dir, max_turns=max_turns
        ):
            wins[result.winner_seat] += 1
            progress.advance(task)
    sides = [f"{bot}/{deck}" for bot, deck in zip(bots.split(","), decks.split(","), strict=True)]
    tally = ", ".join(f"{side} won {wins[side]}" for side in dict.fromkeys(sides))
    out.print(f"{games} games written to {out_dir} ({tally}, no winner {wins['']})")
