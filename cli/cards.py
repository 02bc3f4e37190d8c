"""``annals card`` and ``annals cards``: a card's text and stats, and a ruleset's whole pool."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import typer

from annals.cli.app import app, fail, out, reported
from annals.queries.cards import AmbiguousCardError, UnknownCardError, describe, find_card, pool_frame
from annals.queries.output import FORMATS, QueryError, render
from annals.schemas.rulesets import UnknownRulesetError

USAGE_ERRORS = (AmbiguousCardError, UnknownCardError, UnknownRulesetError, QueryError)


@contextmanager
def _usage() -> Iterator[None]:
    """A name or format that does not exist is a usage error: exit 2 with the message (and its suggestions)."""
    try:
        yield
    except USAGE_ERRORS as exc:
        fail(str(exc), code=2)


@app.command()
def card(
    name: str = typer.Argument(..., help="A card's name or id (any case), or enough of it to name one card."),
    ruleset: str = typer.Option(None, "--ruleset", help="Look in this ruleset only (when a name is in both)."),
) -> None:
    """Print a card's type, cost, stats and rules text.

    Example: annals card "Ember Sprite"
    """
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
    with reported(), _usage():
        text = render(pool_frame(ruleset), fmt, output)
    if text is not None:
        out.print(text, markup=False, end="" if text.endswith("\n") else "\n")
    elif output is not None:
        out.print(f"written to {output}", markup=False)
