"""A docs page that pipes a report's CSV through ``grep -e ^COLUMN`` to keep its header keeps it: the designer's
page grepped ``^ruleset`` after the report's first column became ``pairing``, and its reader got rows of numbers
with no names (the page still "ran", the rows matched)."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from annals.cli.main import app

DOCS = Path(__file__).resolve().parents[1] / "docs"
runner = CliRunner()
PIPED = re.compile(r"annals (report \w+)[^|\n]*--format csv \| grep -e \^(\w+)")


def test_every_report_header_a_docs_page_greps_for_is_the_reports_first_column(real_db: Path) -> None:
    found = [(page.name, *m.groups()) for page in sorted(DOCS.rglob("*.md")) for m in PIPED.finditer(page.read_text())]
    assert found, "the designer's page greps a report's header"
    for page, command, column in found:
        done = runner.invoke(app, [*command.split(), "--db", str(real_db), "--min-games", "0", "--format", "csv"])
        assert done.exit_code == 0, done.output
        header = done.stdout.splitlines()[0]
        assert header.split(",")[0] == column, (page, command, header)
