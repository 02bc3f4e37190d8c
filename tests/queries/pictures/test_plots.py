"""Charts of the reports, drawn from a real DuckDB file of real games: SVG that parses and names what it shows,
PNG of the right kind, the Vega-Lite spec holding the report's own rows; a report with no chart or a file type not
offered is refused with the reason, by the library and by ``annals report --plot`` (a usage error)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
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


def _inline_rows(spec: object) -> Iterator[dict[str, object]]:
    """The rows of every inline data set in a spec (one per chart of a concatenation)."""
    if isinstance(spec, dict):
        if isinstance(spec.get("data"), dict) and "values" in spec["data"]:
            yield from spec["data"]["values"]
        for v in spec.values():
            if isinstance(v, (dict, list)) and v is not spec.get("data"):
                yield from _inline_rows(v)
    elif isinstance(spec, list):
        for v in spec:
            yield from _inline_rows(v)


@pytest.mark.parametrize("name", list(CHARTS))
def test_each_chart_draws_its_reports_rows(con: duckdb.DuckDBPyConnection, tmp_path: Path, name: str) -> None:
    result = run_report(con, name, database="pictures.duckdb", min_games=0)
    spec = report_chart(result).to_dict()
    datasets = spec.get("datasets") or {}
    rows = [row for values in datasets.values() for row in values] or list(_inline_rows(spec))
    assert rows and {k for k in rows[0]} <= set(result.frame.columns) | {"card", "rate", "sample", "dark", "ended by"}
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


def test_card_charts_say_printed_names(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    """Card charts label cards by their printed names, never by their ids."""
    from annals.engine.registry import get_ruleset

    result = run_report(con, "card_winrate", min_games=0)
    words = svg_texts(write_plot(result, tmp_path / "cards.svg"))
    ids = set(result.frame["card_id"].to_list())
    names = {c.name for r in ("miras9", "morana") for i, c in get_ruleset(r).cards().items() if i in ids}
    assert sum(name in words for name in names) >= 10
    assert not [i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", words) and i not in names]
    assert "opening hand" in words and "opening_hand" not in words


def _text_boxes(svg: str) -> dict[str, list[tuple[float, float, float, float, str]]]:
    """The heat map's cell texts per chart (``concat_N``): their boxes, from the position, size and length of each
    (a character ~0.62 of the font size wide), and their text."""
    root = ET.fromstring(svg)
    out: dict[str, list[tuple[float, float, float, float, str]]] = {}
    for g in root.iter("{http://www.w3.org/2000/svg}g"):
        cls = g.get("class", "")
        if "mark-text" not in cls or "concat_" not in cls:
            continue
        chart = re.search(r"concat_\d+", cls)
        for t in g.iter("{http://www.w3.org/2000/svg}text"):
            x, y = map(float, re.findall(r"-?[\d.]+", t.get("transform", ""))[:2])
            size = float(t.get("font-size", "11px").rstrip("px"))
            w = len(t.text or "") * size * 0.62
            out.setdefault(chart.group(0) if chart else "", []).append(
                (x - w / 2, y - size * 0.8, w, size, t.text or "")
            )
    return out


def test_the_deck_matrix_is_readable_at_its_default_size(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    """Each cell's rate and games are drawn in type of 10 px or more, and no two texts overlap (the map grows with
    the decks instead of cramming them)."""
    from annals.queries.pictures.plots import CELL

    result = run_report(con, "deck_matrix", min_games=0)
    charts = _text_boxes(write_plot(result, tmp_path / "decks.svg").read_text())
    shown = result.frame.filter(result.frame["games"] > 0)
    assert sum(len(b) for b in charts.values()) >= 2 * shown.filter(shown["side"] != "seat 1").height > 0
    for boxes in charts.values():
        assert all(h >= 10 and w < CELL - 4 for _, _, w, h, _ in boxes)
        for i, (x, y, w, h, text) in enumerate(boxes):
            for x2, y2, w2, h2, text2 in boxes[i + 1 :]:
                apart = x + w <= x2 or x2 + w2 <= x or y + h <= y2 or y2 + h2 <= y
                assert apart, f"{text!r} overlaps {text2!r}"
