"""Charts of the reports, drawn from a real DuckDB file of real games: SVG that parses and names what it shows,
PNG of the right kind, the Vega-Lite spec holding the report's own rows; a report with no chart or a file type not
offered is refused with the reason, by the library and by ``annals report --plot`` (a usage error)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.queries.pictures.plots import CHARTS, PlotError, report_chart, write_plot
from annals.queries.reports.run import run_report

runner = CliRunner()


@pytest.fixture(scope="module")
def con(picture_db: Path) -> duckdb.DuckDBPyConnection:
    return duckdb.connect(str(picture_db), read_only=True)


def svg_texts(path: Path) -> str:
    root = ET.fromstring(path.read_text())
    return " ".join("".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text"))


@pytest.mark.parametrize("name", list(CHARTS))
def test_each_chart_draws_its_reports_rows(con: duckdb.DuckDBPyConnection, tmp_path: Path, name: str) -> None:
    result = run_report(con, name, database="pictures.duckdb", min_games=0)
    spec = report_chart(result).to_dict()
    datasets = spec.get("datasets") or {}
    rows = [row for values in datasets.values() for row in values] or spec["data"]["values"]
    assert rows and {k for k in rows[0]} <= set(result.frame.columns) | {"label"}
    svg = write_plot(result, tmp_path / f"{name}.svg")
    words = svg_texts(svg)
    assert result.title in words and "sample:" in words
    if name == "deck_matrix":
        assert all(deck in words for deck in result.frame["deck"].unique().to_list())
    if name == "first_player":
        png = write_plot(result, tmp_path / "first.png")
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert json.loads(write_plot(result, tmp_path / "first.json").read_text())["title"]["text"] == result.title


def test_no_chart_or_no_such_format_is_refused(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    with pytest.raises(PlotError, match="has no chart"):
        write_plot(run_report(con, "initiative", min_games=0), tmp_path / "x.svg")
    with pytest.raises(PlotError, match=r"name it \.svg, \.png or \.json"):
        write_plot(run_report(con, "first_player", min_games=0), tmp_path / "x.gif")


def test_report_plot_on_the_command_line(picture_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "fp.svg"
    r = runner.invoke(app, ["report", "first_player", "--db", str(picture_db), "--plot", str(out), "--min-games", "0"])
    assert r.exit_code == 0, r.output
    assert f"chart written to {out}" in r.output and "First-player advantage" in svg_texts(out)
    bad = runner.invoke(app, ["report", "initiative", "--db", str(picture_db), "--plot", str(out)])
    assert bad.exit_code == 2 and "has no chart" in bad.stderr
    bad = runner.invoke(app, ["report", "first_player", "--db", str(picture_db), "--plot", str(tmp_path / "a.bmp")])
    assert bad.exit_code == 2 and ".svg, .png or .json" in bad.stderr
