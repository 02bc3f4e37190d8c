"""``annals play``: one game with a person, an external program or a bot in each seat, recorded live;
``annals resume``: play on a log that stops before its end (after a judge's backup, or a crash)."""

from __future__ import annotations

from pathlib import Path

import typer

from annals.cli.app import app, out, reported
from annals.engine.players import ensure_new, fresh_seed, play_live, resume_live
from annals.schemas.keys import load_signing_key


def _pair(text: str) -> list[str]:
    return [part.strip() for part in text.split(",")] if text else []


@app.command()
def play(
    ruleset: str = typer.Argument(..., help="miras9 or morana."),
    decks: str = typer.Option(
        "", "--decks", help="Two deck names, comma-separated (a seat with a --deck-file: empty)."
    ),
    players: str = typer.Option(
        "human,heuristic", "--players", help="Two seats: human, external:COMMAND, or a bot name; comma-separated."
    ),
    names: str = typer.Option("", "--name", help="The players' names, comma-separated (default: human-0, ...)."),
    deck_files: str = typer.Option(
        "", "--deck-file", help="Deck list files (docs/deck-lists.md), comma-separated by seat."
    ),
    seed: int = typer.Option(None, "--seed", help="The game's seed (default: a fresh random one, printed)."),
    log: Path = typer.Option(Path("game.log"), "--out", help="Where to write the log (never over an existing file)."),
) -> None:
    """Play one game at the terminal (or seat an external program speaking JSON lines), writing its log live.

    Example: annals play morana --decks dawn,dusk --players human,human --name Ann,Bob --out ann-bob.log
    """
    files = [Path(f) if f else None for f in _pair(deck_files)]
    chosen = fresh_seed() if seed is None else seed
    with reported():
        ensure_new(log)  # before anyone sits down to play
        if seed is None:
            out.print(f"seed {chosen} (fresh; recorded in the log's header)", markup=False)
        result = play_live(ruleset, _pair(decks), _pair(players), chosen, log, names=_pair(names), deck_files=files)
    out.print(f"game {result.game_id}: winner {result.winner} ({result.end_reason}); log written to {log}")


@app.command()
def resume(
    log: Path = typer.Argument(..., help="A log that stops before its end."),
    players: str = typer.Option("human,human", "--players", help="The seats, as for annals play."),
    key: Path = typer.Option(None, "--key", help="The event's private key file: sign the log at the end."),
) -> None:
    """Play on a game from where its log stops (a judge's backup, or a crash), appending to the same log.

    Example: annals resume round3-table5-game1.log --players human,human --key event/event.key
    """
    with reported():
        signing = load_signing_key(key) if key is not None else None
        result = resume_live(log, _pair(players), key=signing)
    out.print(f"game {result.game_id}: winner {result.winner} ({result.end_reason}); appended to {log}")
