"""MkDocs hooks: the reference pages the code itself writes, at every build, with no network.

A page holds a marker comment where generated text goes:

* ``<!-- annals:commands -->``  every command's ``--help``, from the typer app (``annals.cli.main``), in the order
  ``annals --help`` lists them, each group's commands after it;
* ``<!-- annals:database -->``  every table, view and column with its comment, from a fresh database
  (``ingest/sql/comments.sql`` applied as ``annals schema`` shows it);
* ``<!-- annals:reports -->``   every report with its title, the rulesets it reads, its ``--by`` splits and its
  description (``queries/reports/run.py``).

Nothing is written twice: change a help text, a column comment or a report's definition and the site follows.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import typer.core
import typer.main
from typer._click.core import Command, Context

WIDTH = 80  # the help as an 80-column terminal shows it (fits the page's column)


def _commands(command: Command, ctx: Context) -> Iterator[tuple[Command, Context]]:
    yield command, ctx
    if isinstance(command, typer.core.TyperGroup):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                yield from _commands(sub, Context(sub, parent=ctx, info_name=name, terminal_width=WIDTH))


def commands_page() -> str:
    from annals.cli.main import app

    group = typer.main.get_command(app)
    parts = []
    for command, ctx in _commands(group, Context(group, info_name="annals", terminal_width=WIDTH)):
        depth = ctx.command_path.count(" ") + 1
        parts.append(f"{'#' * (depth + 1)} `{ctx.command_path}`\n\n```text\n{command.get_help(ctx)}\n```\n")
    return "\n".join(parts)


def _cell(text: object) -> str:
    return "" if text is None else str(text).replace("|", "\\|").replace("\n", " ")


def database_page() -> str:
    from annals.ingest.schema import open_database
    from annals.queries.reports.dictionary import dictionary

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "empty.duckdb"
        open_database(path).close()  # a writable open creates the schema and applies the comments
        con = open_database(path, read_only=True)
        try:
            rows = list(dictionary(con).iter_rows(named=True))
        finally:
            con.close()
    parts: list[str] = []
    for row in rows:
        if row["column"] is None:
            parts.append(f"\n### `{row['table']}`\n\n*{row['kind']}*: {_cell(row['comment'])}\n")
            parts.append("| column | type | meaning |\n|---|---|---|")
        else:
            parts.append(f"| `{row['column']}` | {_cell(row['type'])} | {_cell(row['comment'])} |")
    return "\n".join(parts) + "\n"


def reports_page() -> str:
    from annals.queries.reports.run import REPORTS

    parts = []
    for name, spec in REPORTS.items():
        reads = ", ".join(spec.rulesets) if spec.rulesets else "every ruleset"
        splits = f"; `--by` {', '.join(spec.by)}" if spec.by else ""
        source = "the tournament tables" if spec.event_tables else reads
        parts.append(f"### `{name}`\n\n**{spec.title}** (reads {source}{splits})\n\n{_cell(spec.description)}\n")
    return "\n".join(parts)


GENERATED: dict[str, Callable[[], str]] = {
    "<!-- annals:commands -->": commands_page,
    "<!-- annals:database -->": database_page,
    "<!-- annals:reports -->": reports_page,
}


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    for marker, make in GENERATED.items():
        if marker in markdown:
            markdown = markdown.replace(marker, make())
    return markdown
