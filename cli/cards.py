"""``annals card``, ``annals cards`` and ``annals deck``: a card's text and stats, a ruleset's whole pool, and a
shipped deck as a deck list file."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import typer

from annals.cli.app import app, fail, out, reported
from annals.queries.names import FORMATS

# Each command imports the library it calls in its body: building ``annals --help`` loads no rules, DuckDB or polars.


@contextmanager
def _usage(*more: type[Exception]) -> Iterator[None]:
    """A name (or, with ``more``, a format) that does not exist is a usage error: exit 2 with the message (and its
    suggestions)."""
    from annals.queries.cards import AmbiguousCardError, UnknownCardError
    from annals.schemas.rulesets import UnknownRulesetError

    usage: tuple[type[Exception], ...] = (AmbiguousCardError, UnknownCardError, UnknownRulesetError, *more)
    try:
        yield
    except usage as exc:
        fail(str(exc), code=2)


@app.command()
def card(
    name: str = typer.Argument(..., help="A card's name or id (any case), or enough of it to name one card."),
    # "annals card miras9 NAME", the ruleset first as 'annals deck' takes it
    named: str | None = typer.Argument(None, hidden=True, metavar="NAME"),
    ruleset: str = typer.Option(None, "--ruleset", help="Look in this ruleset only (when a name is in both)."),
) -> None:
    """Print a card's type, cost, stats and rules text (the ruleset may come first: annals card miras9 Recruit).

    Example: annals card "Ember Sprite"
    """
    from annals.queries.cards import describe, find_card
    from annals.schemas.rulesets import ruleset_names

    if named is not None:
        if name not in ruleset_names():
            fail(f'one card name, quoted if it has spaces: annals card "{name} {named}"', code=2)
        if ruleset and ruleset != name:
            fail(f"{name} and --ruleset {ruleset}: give one ruleset", code=2)
        name, ruleset = named, name
    if not name.strip():
        fail('the card name is empty: give a card\'s name or id, as in annals card "Ember Sprite"', code=2)
    with reported(), _usage():
        lines = describe(find_card(name, ruleset))
    for line in lines:
        out.print(line, markup=False)


@app.command()
def cards(
    ruleset: str = typer.Argument(..., help="miras9 or morana."),
    fmt: str = typer.Option("table", "--format", "-f", help=f"One of: {', '.join(FORMATS)}."),
    output: Path = typer.Option(None, "--output", "-o", help="Write to this file instead of the terminal."),
) -> None:
    """List a ruleset's card pool: id, name, type, cost, stats and rules text.

    Example: annals cards morana --format csv
    """
    from annals.queries.cards import pool_frame
    from annals.queries.reports.output import QueryError, render

    with reported(), _usage(QueryError):
        text = render(pool_frame(ruleset), fmt, output)
    if text is not None:
        out.print(text, markup=False, end="" if text.endswith("\n") else "\n", soft_wrap=True)  # laid out already
    elif output is not None:
        out.print(f"written to {output}", markup=False)


@app.command()
def deck(
    ruleset: str = typer.Argument(..., metavar="RULESET", help="miras9 or morana."),
    name: str = typer.Argument(..., metavar="DECK", help="A shipped deck (annals simulate --help names them)."),
    output: Path | None = typer.Option(None, "--output", "-o", help="Write the list here (never over a file)."),
) -> None:
    """Print a shipped deck as a deck list file: a list to edit, then register or play with.

    The format is docs/deck-lists.md's; annals event register --deck and annals play --deck-file read it back.

    Example: annals deck miras9 vanguard --output ada.txt
    """
    from annals.engine.decks import shipped_deck, write_deck_list

    with reported():
        text = write_deck_list(shipped_deck(ruleset, name), ruleset)
        if output is not None:
            with output.open("x", encoding="utf-8") as file:  # "x": an existing file is never replaced
                file.write(text)
    if output is None:
        typer.echo(text, nl=False)
    else:
        out.print(f"deck list {name!r} written to {output}", markup=False)
