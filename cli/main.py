"""Entry point: the app with every command module registered."""

from __future__ import annotations

import typer

from annals.cli import (  # noqa: F401 - importing registers the commands
    cards,
    db,
    demo,
    event,
    export,
    ingest,
    judge,
    keys,
    logs,
    pictures,
    play,
    position,
    query,
    replay,
    review,
    scenario,
    schema,
    serve,
    simulate,
)
from annals.cli.app import app
from annals.engine import ENGINE_VERSION
from annals.engine.compiled import engine_build


def _version(value: bool) -> None:
    if value:
        typer.echo(f"annals {ENGINE_VERSION}")  # not rich: --version must not import it
        typer.echo(f"engine: {engine_build()}")  # compiled (mypyc), or pure Python and why (engine.compiled)
        raise typer.Exit()


@app.callback()
def main(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version."),
) -> None:
    """Record, replay and analyse games of The Miras 9 TCG and MORANA."""


__all__ = ["app"]
