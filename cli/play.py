"""``annals play``: one game with a person, an external program or a bot in each seat, recorded live;
``annals resume``: play on a log that stops before its end (after a judge's backup, or a crash)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from annals.cli.app import app, out, reported
from annals.cli.simulate import names as deck_names
from annals.engine.names import DECISION_TIMEOUT, SEAT_BOTS
from annals.schemas import screen
from annals.schemas.commandline import quoted

if TYPE_CHECKING:
    from annals.engine.runner import GameResult


def _pair(text: str) -> list[str]:
    return [part.strip() for part in text.split(",")] if text else []


@app.command()
def play(
    ruleset: str = typer.Argument(..., metavar="RULESET", help="miras9 or morana."),
    decks: str | None = typer.Option(
        None,
        "--decks",
        help="Two deck names, comma-separated (default: the ruleset's pair; a seat with a --deck-file: empty).",
    ),
    players: str = typer.Option(
        "human,heuristic", "--players", help=f"Two seats, comma-separated, each external:COMMAND, {SEAT_BOTS}."
    ),
    names: str = typer.Option("", "--name", help="The players' names, comma-separated (default: human-0, ...)."),
    deck_files: str = typer.Option(
        "", "--deck-file", help="Deck list files (docs/deck-lists.md), comma-separated by seat."
    ),
    seed: int = typer.Option(None, "--seed", help="The game's seed (default: a fresh random one, printed)."),
    log: Path | None = typer.Option(
        None,
        "--out",
        help="Where to write the log (never over an existing file; default: a new file in ANNALS_HOME/games).",
    ),
    clock: int = typer.Option(0, "--clock", help="Each seat's time bank in seconds (0: no clock)."),
    timeout: float = typer.Option(
        DECISION_TIMEOUT, "--timeout", help="Seconds an external program has per decision; out of time, it loses."
    ),
    max_turns: int | None = typer.Option(
        None,
        "--max-turns",
        min=0,
        help="End the game after this many turns, a draw (0: no cap; default: the ruleset's).",
    ),
) -> None:
    """Play one game at the terminal (or seat an external program speaking JSON lines), writing its log live.

    At your prompt: a number chooses, and help, board, hand, card NAME, log, concede; quit saves the game and prints
    the annals resume command that plays on.

    Example: annals play morana --decks starter-sun,starter-winter --players human,heuristic --name Ann --out game.log
    """
    from annals.clients.terminal import human_seat
    from annals.engine.players import ensure_new, fresh_seed, play_live
    from annals.engine.registry import get_ruleset

    files = [Path(f) if f else None for f in _pair(deck_files)]
    chosen = fresh_seed() if seed is None else seed
    with reported(), _left(players):
        if log is not None:
            ensure_new(log)  # before anyone sits down to play
        cap = get_ruleset(ruleset).default_max_turns if max_turns is None else max_turns  # as simulate and serve
        result = play_live(
            ruleset, deck_names(decks), _pair(players), chosen, log, names=_pair(names),
            deck_files=files, human=human_seat(sys.stdin, sys.stdout), bank_ms=clock * 1000, timeout=timeout,
            max_turns=cap,
        )  # fmt: skip
    if result.note:
        out.print(result.note, markup=False)
    fresh = ", fresh" if seed is None else ""
    out.print(
        f"game {result.game_id} (seed {chosen}{fresh}): {_ending(Path(result.path), result)}; "
        f"log written to {result.path}",
        markup=False,
    )


@contextmanager
def _left(players: str) -> Iterator[None]:
    """A person who typed quit: the game stopped with its log open; say how to play on, and end quietly (exit 0:
    leaving is not a failure)."""
    from annals.engine.players import SeatLeft

    try:
        yield
    except SeatLeft as left:
        if left.path is None:
            raise
        again = f"annals resume {quoted(left.path)} --players {quoted(players)}"
        screen.command(out, f"you left the game; {left.path} keeps every decision so far; play on with: ", again)
        raise typer.Exit(0) from None


def _ending(log: Path, result: GameResult) -> str:
    """How the game ended, in the players' names as the table said it (``Bo reaches 13 Slava and wins``)."""
    from annals.engine.words import Words
    from annals.schemas.logfile import LogReader

    with LogReader(log) as reader:
        header = reader.header
    return Words(header.ruleset, lambda _card: "", [pl.name for pl in header.players]).ending(
        result.winner, result.end_reason
    )


@app.command()
def resume(
    log: Path = typer.Argument(..., help="A log that stops before its end."),
    players: str = typer.Option(
        "human,human", "--players", help=f"The seats, comma-separated, each external:COMMAND, {SEAT_BOTS}."
    ),
    key: Path = typer.Option(
        None,
        "--key",
        help="The event's private key file: sign the log at the end (found by itself for a log in an event's folder).",
    ),
    timeout: float = typer.Option(
        DECISION_TIMEOUT, "--timeout", help="Seconds an external program has per decision; out of time, it loses."
    ),
) -> None:
    """Play on a game from where its log stops (a judge's backup, or a crash), appending to the same log. A game of
    an event, in the event's folder, is signed with the event's key and its match follows the new result.

    Example: annals resume game.log --players human,heuristic --key events/spring-open/event.key
    """
    from annals.clients.terminal import human_seat
    from annals.engine.event_judge import event_of, restate_match
    from annals.engine.players import resume_live
    from annals.schemas.keys import load_signing_key
    from annals.schemas.logfile import LogReader

    with reported():
        with LogReader(log) as reader:
            event = event_of(log, reader.header)
        signing = load_signing_key(key) if key is not None else event.signing_key() if event is not None else None
        with _left(players):
            result = resume_live(
                log, _pair(players), human=human_seat(sys.stdin, sys.stdout), key=signing, timeout=timeout
            )
        match = restate_match(event, log) if event is not None else None
    if result.note:
        out.print(result.note, markup=False)
    out.print(f"game {result.game_id}: {_ending(log, result)}; appended to {log}", markup=False)
    if match is not None:
        out.print(
            f"match round {match.round} table {match.table}: {match.a} {match.wins_a}-{match.wins_b}-{match.draws} "
            f"{match.b}, {'winner ' + match.winner if match.winner else 'drawn'}",
            markup=False,
        )
