"""``annals db``: changes to the database by hand, each recorded (``db remove``)."""

from __future__ import annotations

from pathlib import Path

import typer

from annals.cli.app import app, out, reported
from annals.schemas.files import default_database

db_app = typer.Typer(
    help="Changes to the database by hand, each recorded. Example: annals db remove 3f2a9c0d1e2b4a5c --reason 'test "
    "game'  # fails: no such game",
    no_args_is_help=True,
)
app.add_typer(db_app, name="db")


@db_app.command("remove")
def remove(
    game_id: str = typer.Argument(..., metavar="GAME_ID", help="The stored game's id (games.game_id)."),
    reason: str = typer.Option(..., "--reason", help="Why it is removed (recorded in games_removed)."),
    db: Path | None = typer.Option(None, "--db", help="The DuckDB file (default: ANNALS_HOME/annals.duckdb)."),
) -> None:
    """Remove one game from the database (its log is not touched); recorded in games_removed with the reason.

    Example: annals db remove 3f2a9c0d1e2b4a5c --reason "a test game ingested by mistake"  # fails: no such game
    """
    from annals.ingest.remove import remove_game  # DuckDB: imported when the command runs (tests/test_cli_startup.py)

    target = db if db is not None else default_database()
    with reported():
        removed = remove_game(target, game_id, reason)
    out.print(
        f"game {removed.game_id} ({removed.events} events, from {removed.file}) removed from {target}; recorded in "
        "games_removed",
        markup=False,
    )
