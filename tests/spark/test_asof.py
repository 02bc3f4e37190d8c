"""The Spark rewrite of DuckDB's ASOF join (``spark.asof``), checked where it is cheap: on DuckDB itself, which runs
both forms. Random tables for every inequality, inner and left; the two reports that use it on real games. The
Spark run of those reports against DuckDB's is in ``test_spark.py``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
import sqlglot
from hypothesis import given, settings
from hypothesis import strategies as st

from annals.engine.simulate import simulate
from annals.ingest.loader import ingest
from annals.ingest.schema import open_database
from annals.queries.reports import sqlfiles
from annals.queries.reports.filters import Filters
from annals.queries.reports.run import run_report
from annals.spark.asof import AsofShapeError, is_asof, without_asof

rows = st.lists(st.tuples(st.integers(0, 2), st.integers(-3, 8)), max_size=12)


def _rewritten(sql: str) -> str:
    tree = sqlglot.parse_one(sql, read="duckdb")
    assert any(is_asof(j) for j in tree.find_all(sqlglot.exp.Join))
    done = without_asof(tree)
    assert not any(is_asof(j) for j in done.find_all(sqlglot.exp.Join))
    return done.sql(dialect="duckdb")


@pytest.fixture(scope="module")
def con() -> Iterator[duckdb.DuckDBPyConnection]:
    connection = duckdb.connect()
    yield connection
    connection.close()


@settings(max_examples=40, deadline=None)
@given(left=rows, right=rows, op=st.sampled_from([">=", ">", "<=", "<"]), side=st.sampled_from(["LEFT ", ""]),
       flipped=st.booleans())  # fmt: skip
def test_the_rewrite_matches_what_asof_matches(con: duckdb.DuckDBPyConnection, left: list[tuple[int, int]],
                                               right: list[tuple[int, int]], op: str, side: str,
                                               flipped: bool) -> None:  # fmt: skip
    con.execute("CREATE OR REPLACE TABLE l (k INTEGER, x INTEGER)")
    con.execute("CREATE OR REPLACE TABLE r (k INTEGER, y INTEGER, v VARCHAR)")
    if left:
        con.executemany("INSERT INTO l VALUES (?, ?)", left)
    unique = sorted(set(right))  # one row of R per key and y: ASOF's pick among equals is arbitrary
    if unique:
        con.executemany("INSERT INTO r VALUES (?, ?, ?)", [(k, y, f"{k}/{y}") for k, y in unique])
    mirrored = {">=": "<=", ">": "<", "<=": ">=", "<": ">"}[op]
    cond = f"r.y {mirrored} l.x" if flipped else f"l.x {op} r.y"
    sql = f"SELECT l.k, l.x, r.v FROM l ASOF {side}JOIN r ON l.k = r.k AND {cond}"
    expected = sorted(con.execute(sql).fetchall(), key=repr)
    assert sorted(con.execute(_rewritten(sql)).fetchall(), key=repr) == expected


def test_an_asof_join_of_another_shape_is_refused_by_name() -> None:
    for on in ("l.k = r.k", "l.x >= r.y AND l.x <= r.y", "l.x + r.y >= 3"):
        with pytest.raises(AsofShapeError):
            without_asof(sqlglot.parse_one(f"SELECT * FROM l ASOF JOIN r ON {on}", read="duckdb"))


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("asof")
    list(simulate("morana", 16, 5, None, ["heuristic", "random"], root / "logs"))
    ingest([root / "logs"], root / "db.duckdb")
    return root / "db.duckdb"


@pytest.mark.parametrize("name", ["site_control", "slava_curves"])
def test_the_asof_reports_rewritten_give_the_same_rows_on_duckdb(name: str, db: Path) -> None:
    """Real MORANA games (Site scorings, Slava gained): each report's SQL rewritten gives its ASOF rows."""
    con = open_database(db, read_only=True)
    try:
        run_report(con, name, filters=Filters())  # makes the sel_ tables the report reads
        sql = sqlfiles.load(f"report_{name}")
        again = con.sql(_rewritten(sql)).pl()
        original = con.sql(sql).pl()
        assert original.height > 0
        assert again.sort(again.columns).equals(original.sort(original.columns))
    finally:
        con.close()
