"""What a fresh ``annals report`` pays for: the report's rows reach polars through the Arrow stream interface, the
same frame as DuckDB's ``.pl()`` but without importing pyarrow; a report written as CSV imports no pyarrow, pydantic
or rich and prints what the library gives; Parquet, which needs pyarrow, still carries the report's metadata."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import duckdb
import polars as pl
import pyarrow.parquet as pq
import pytest
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

from annals.cli.main import app
from annals.ingest.schema import open_database
from annals.queries.reports import run
from annals.queries.reports.filters import Filters, sample, select, unfiltered, whole_sample
from annals.queries.reports.output import render
from annals.queries.reports.run import REPORTS, run_report

FILTERS = [Filters(), Filters(by="agent"), Filters(ruleset="miras9", min_turns=3), Filters(seat=1, pool=True)]


def test_every_reports_rows_are_the_frame_pl_gives(real_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    con = open_database(real_db, read_only=True)
    con.execute("SET threads = 1")  # card_metrics' float sums vary in their last bit with the threads' order
    compared: list[str] = []
    frame_of = run.frame_of

    def both(relation: duckdb.DuckDBPyRelation) -> pl.DataFrame:
        expected, got = relation.pl(), frame_of(relation)
        assert got.schema == expected.schema
        assert got.to_dicts() == expected.to_dicts() or str(got.to_dicts()) == str(expected.to_dicts())  # NaN
        compared.append(f"{expected.height}")
        return got

    monkeypatch.setattr(run, "frame_of", both)
    for name, spec in REPORTS.items():
        for f in FILTERS:
            try:
                run_report(con, name, filters=f, min_games=0 if spec.sample_column else None)
            except ValueError:  # a filter the report does not take (NotApplicableError)
                continue
    con.close()
    assert len(compared) >= 2 * len(REPORTS) and sum(map(int, compared)) > 500


RUN = """
import sys
from annals.cli.main import app
try:
    app(sys.argv[1:])
except SystemExit as end:
    loaded = sorted({m.split(".")[0] for m in sys.modules} & {"pyarrow", "pydantic", "rich"})
    print(end.code, loaded, file=sys.stderr)
"""


@pytest.mark.parametrize("words", [["card_metrics", "--by", "agent"], ["card_winrate"], ["deck_matrix"]])
def test_a_report_as_csv_imports_no_pyarrow_pydantic_or_rich(real_db: Path, words: list[str]) -> None:
    argv = ["report", *words, "--db", str(real_db), "--min-games", "0", "-f", "csv"]
    done = subprocess.run([sys.executable, "-c", RUN, *argv], capture_output=True, text=True, timeout=120)
    title, ending = done.stderr.splitlines()[0], done.stderr.splitlines()[-1]
    assert ending == "0 []", done.stderr
    con = open_database(real_db, read_only=True)
    con.execute("SET threads = 1")
    f = Filters(by="agent" if "agent" in words else None)
    result = run_report(con, words[0], filters=f, min_games=0, database=str(real_db))
    con.close()
    assert title == f"{result.title}: {result.sample}"
    expected = render(result.frame, "csv", None)
    assert expected is not None and done.stdout.splitlines()[0] == expected.splitlines()[0]  # the same columns
    assert len(done.stdout.splitlines()) == len(expected.splitlines()) == result.frame.height + 1
    # the same values (card_metrics' float sums may differ in a last rounded digit between two runs of its SQL)
    assert_frame_equal(pl.read_csv(io.StringIO(done.stdout)), pl.read_csv(io.StringIO(expected)), abs_tol=2e-4)


def test_a_report_as_parquet_carries_its_metadata(real_db: Path, tmp_path: Path) -> None:
    target = tmp_path / "cards.parquet"
    done = CliRunner().invoke(app, ["report", "card_winrate", "--db", str(real_db), "-f", "parquet", "-o", str(target)])
    assert done.exit_code == 0, done.output
    table = pq.read_table(target)
    meta = table.schema.metadata
    assert json.loads(meta[b"report"]) == "card_winrate" and json.loads(meta[b"filters"]) == {}
    con = open_database(real_db, read_only=True)
    written = pl.from_arrow(table)
    assert isinstance(written, pl.DataFrame) and written.equals(run_report(con, "card_winrate").frame)
    con.close()


WHOLE = [Filters(), Filters(ruleset="miras9"), Filters(ruleset="morana", by="agent"), Filters(by="deck", pool=True)]


@pytest.mark.parametrize("fixture", ["db", "real_db"])
def test_a_whole_sample_is_the_selections_sample(fixture: str, request: pytest.FixtureRequest) -> None:
    """With no filter but the ruleset, the sample counted from games and players is the selection's, row for row."""
    con = open_database(request.getfixturevalue(fixture), read_only=True)
    for f in WHOLE:
        assert unfiltered(f)
        for rulesets in (None, ("miras9",), ("morana", "cardtoy"), ("nosuch",)):
            select(con, f, rulesets)
            assert whole_sample(con, f, rulesets) == sample(con), (f, rulesets)
    assert not unfiltered(Filters(min_turns=0)) and not unfiltered(Filters(agent="random"))
    con.close()


def test_a_report_read_from_its_summary_makes_no_selection_for_its_sample(real_db: Path) -> None:
    """card_winrate and plain card_metrics read rows stored at ingest: their sample line is the selection's, but the
    selection (sel_games, sel_seats) is not made for it."""
    for name, f in [("card_winrate", Filters()), ("card_metrics", Filters(ruleset="miras9")),
                    ("card_winrate", Filters(by="agent"))]:  # fmt: skip
        con = open_database(real_db, read_only=True)
        result = run_report(con, name, filters=f, min_games=0)
        made = con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE 'sel_%'").fetchall()[0][0]
        assert made == 0, name
        select(con, f, None)
        games, decided, events, rulesets, seats = sample(con)
        said = f"sample: {games} games ({decided} decided), {seats} seat-games, {events} events, rulesets: {rulesets}"
        assert said in result.sample
        con.close()
