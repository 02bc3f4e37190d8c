"""``annals simulate``: bot games, one log per game."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import typer

from annals.cli.app import app, fail, out, reported
from annals.engine.names import BOTS_HELP, plural
from annals.schemas.files import default_games


def names(text: str | None) -> list[str] | None:
    """``a,b`` as a list (``None`` stays ``None``: the library's default)."""
    return None if text is None else [name.strip() for name in text.split(",")]


@app.command()
def simulate(
    ruleset: str = typer.Argument(..., metavar="RULESET", help="miras9 or morana."),
    games: int = typer.Option(10, "--games", "-n", min=1, help="How many games."),
    seed: int = typer.Option(1, "--seed", help="Seed of the first game; game i uses seed + i."),
    decks: str | None = typer.Option(
        None, "--decks", help="Two deck names, comma-separated (default: the ruleset's pair, e.g. vanguard,bastion)."
    ),
    bots: str = typer.Option("random,random", "--bots", help=BOTS_HELP),
    out_dir: Path | None = typer.Option(None, "--out", help="Folder for the log files (default: ANNALS_HOME/games)."),
    max_turns: int | None = typer.Option(
        None, "--max-turns", min=0, help="End bot games after this many turns (0: no cap; default: the ruleset's)."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    cards: Path | None = typer.Option(
        None, "--cards", help="A TOML file of card definitions to add or change (each log embeds them)."
    ),
    jobs: int | None = typer.Option(
        None, "--jobs", "-j", min=1, help="Processes to play in (default: all cores, from 32 games on)."
    ),
    shard_size: int = typer.Option(
        0, "--shard-size", min=0, help="Write archives of this many games each (RULESET-SEED-SEED.shard), not logs."
    ),
    spark: str | None = typer.Option(
        None, "--spark", metavar="MASTER", help="Play on Spark (local[2], spark://host:7077); needs annals[spark]."
    ),
) -> None:
    """Play bot games and write one log per game (or archives of many).

    The same seeds give the same logs, byte for byte, with any --jobs, --shard-size or --spark.

    Example: annals simulate miras9 --games 20 --seed 7 --decks vanguard,bastion --bots heuristic,random --out games
    Example: annals simulate morana --games 40 --shard-size 20 --jobs 2 --out shards
    """
    from rich.progress import Progress

    from annals.engine.registry import load_cards
    from annals.engine.simulate import simulate as run_simulation

    if spark is not None:
        if cards is not None:
            fail("--cards and --spark do not go together yet: simulate games with extra cards locally (--jobs)", code=2)
        with reported():
            from annals.spark.simulate import simulate_on_spark

            folder = out_dir if out_dir is not None else default_games()
            summary = simulate_on_spark(
                spark, ruleset, games, seed, names(decks), bots.split(","), folder,
                max_turns=max_turns, shard_size=shard_size,
            )  # fmt: skip
        archives = plural(len(summary.shards), "archive")
        out.print(f"{plural(summary.games, 'game')} in {archives} written to {folder}", markup=False)
        return
    folder = out_dir if out_dir is not None else default_games()

    wins: Counter[str] = Counter()  # by "bot/deck" (seats alternate between games); "" for no winner
    sides: dict[str, None] = {}
    with reported(), Progress(disable=quiet or not out.is_terminal, transient=True) as progress:
        task = progress.add_task("games", total=games)
        extra = load_cards(ruleset, cards) if cards is not None else None
        played = run_simulation(
            ruleset, games, seed, names(decks), bots.split(","), folder, max_turns=max_turns, cards=extra,
            jobs=jobs if jobs is not None else 0, shard_size=shard_size,
        )  # fmt: skip
        for result in played:
            sides.update(dict.fromkeys(result.seats))
            wins[result.winner_seat] += 1
            progress.advance(task)
    tally = ", ".join(f"{side} won {wins[side]}" for side in sides)
    out.print(f"{plural(games, 'game')} written to {folder} ({tally}, no winner {wins['']})", markup=False)
