"""``annals report NAME --spark MASTER --lake DIR``: the named reports on Spark SQL over the Parquet lake.

There is one definition of each report: its DuckDB SQL in ``queries/reports/sql/report_NAME.sql`` (and the filters'
``select.sql``, the ``sample.sql`` line), translated to Spark SQL by SQLGlot (``translate``); the rows are then
finished by the same code as DuckDB's (``queries.reports.run.finish_report``), so both engines give the same numbers
on the same games. DuckDB's ``$name`` parameters are bound as typed literals in the tree SQLGlot parsed (never
pasted into text); an ASOF join, which Spark SQL lacks, becomes an interval join (``spark.asof``). The lake's
tables are Spark views of its Parquet folders (``lake`` may be any path Spark reads: a folder, ``hdfs://``,
``s3a://``).

The event reports read the lake's tournament tables (``spark.lake_events``: written from event folders, ``export
--events``). What the lake does not hold is refused with a named error: ``--since``/``--until`` (the lake keeps a
game's month, not its recording time), the event reports on a lake written before it held tournament tables, and
the reports reading the card pools (``cards``) on a lake written before it held them.
"""

from __future__ import annotations

import os
import re
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

import polars as pl
import sqlglot
from sqlglot import exp

from annals.ingest.schema import option_kind_rows
from annals.queries.export import EVENT_TABLES, OMNISCIENT, REVIEWS
from annals.queries.reports import sqlfiles
from annals.queries.reports.filters import Filters, NotApplicableError, extras_read
from annals.queries.reports.run import (
    REPORTS,
    ReportResult,
    UnknownReportError,
    finish_report,
    read_rulesets,
    refuse_inapplicable,
)
from annals.schemas.errors import AnnalsError
from annals.spark.asof import without_asof
from annals.spark.session import session

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


class NotInLakeError(NotApplicableError):
    """A report, or a filter, that needs what the lake does not hold (the tournament tables, recording times)."""


class LakeNotFoundError(AnnalsError, FileNotFoundError):
    """``--lake`` names no lake (no manifest, or a table folder missing)."""


# The type each filter parameter has when it is NULL (Spark types a bare NULL as void, which it refuses in places).
PARAM_TYPES = {"rulesets": "ARRAY<STRING>", "seat": "INT", "min_turns": "INT", "since": "DATE", "until": "DATE"}


class Statement(NamedTuple):
    """One translated statement: a query, or a temporary table made by one (``CREATE TEMP TABLE name AS``)."""

    table: str | None
    query: exp.Expr


@cache
def _parsed(name: str) -> tuple[Statement, ...]:
    statements = []
    for tree in sqlglot.parse(sqlfiles.load(name), read="duckdb"):
        assert tree is not None
        if isinstance(tree, exp.Create):
            statements.append(Statement(tree.this.name, tree.expression))
        else:
            statements.append(Statement(None, tree))
    return tuple(statements)


def _literal(name: str, value: Any) -> exp.Expr:
    if value is None:
        return exp.cast(exp.null(), PARAM_TYPES.get(name, "STRING"), dialect="spark")
    if isinstance(value, list):
        return exp.Array(expressions=[exp.convert(v) for v in value])
    return exp.convert(value)


def _spark_form(node: exp.Expr) -> exp.Expr:
    """Where SQLGlot's Spark output would change a result, Spark's exact form of the DuckDB function: an exact
    ``percentile_disc(q) WITHIN GROUP (ORDER BY x)`` for ``quantile_disc(x, q)`` (not ``percentile_approx``), and
    ``any_value(x, true)`` for DuckDB's ``any_value``, which skips NULLs; ``from_json`` for a cast to ``JSON[]``."""
    if isinstance(node, exp.PercentileDisc) and node.expression is not None:
        ordered = exp.Order(expressions=[exp.Ordered(this=node.this.copy())])
        return exp.WithinGroup(this=exp.Anonymous(this="PERCENTILE_DISC", expressions=[node.expression.copy()]),
                               expression=ordered)  # fmt: skip
    if isinstance(node, exp.IgnoreNulls) and isinstance(node.this, exp.AnyValue):
        return exp.Anonymous(this="ANY_VALUE", expressions=[node.this.this.copy(), exp.true()])
    if isinstance(node, exp.Cast) and _is_json_array(node.to):
        return exp.Anonymous(this="FROM_JSON", expressions=[node.this.copy(), exp.Literal.string("ARRAY<STRING>")])
    return node


def _is_json_array(kind: exp.DataType) -> bool:
    """``JSON[]``: a JSON text's array, each item as JSON, which Spark (no JSON type; the lake's JSON columns are
    strings) gets from ``from_json(x, 'ARRAY<STRING>')``: each item its JSON text, read on by ``->>``."""
    items = kind.expressions
    return kind.is_type(exp.DataType.Type.ARRAY) and len(items) == 1 and items[0].is_type(exp.DataType.Type.JSON)


def translate(name: str, values: dict[str, Any]) -> list[tuple[str | None, str]]:
    """The statements of ``queries/sql/NAME.sql`` as Spark SQL (SQLGlot, DuckDB dialect to Spark's), each
    ``$name`` parameter bound to its value as a typed literal; with the temporary table each one makes, if any."""

    def bind(node: exp.Expr) -> exp.Expr:
        if isinstance(node, exp.Placeholder) and node.name in values:
            return _literal(node.name, values[node.name])
        return _spark_form(node)

    out = []
    for table, query in _parsed(name):
        bound = without_asof(query).transform(bind)
        out.append((table, bound.sql(dialect="spark", unsupported_level=sqlglot.ErrorLevel.RAISE)))
    return out


def _run(spark: SparkSession, name: str, values: dict[str, Any]) -> pl.DataFrame | None:
    """Run ``NAME.sql`` on Spark: its temporary tables made (cached views), its last query's rows returned."""
    rows = None
    for table, query in translate(name, values):
        frame = spark.sql(query)
        if table is not None:
            frame.cache().createOrReplaceTempView(table)
        else:
            converted = pl.from_arrow(frame.toArrow())
            assert isinstance(converted, pl.DataFrame)
            rows = converted
    return rows


def _exists(spark: SparkSession, path: str) -> bool:
    """Whether ``path`` exists, asked of the file system Spark reads it with (a local folder, HDFS, S3...)."""
    jvm = spark.sparkContext._jvm
    assert jvm is not None
    hadoop_path = jvm.org.apache.hadoop.fs.Path(path)
    return bool(hadoop_path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration()).exists(hadoop_path))


# The card pools of the lake's games (``spark.lake.write_cards``: the omniscient export writes them whole beside the
# game tables), which the reports naming cards read (mulligan types the cards drawn by them); a lake without (written
# before it held them) has the view dropped, and such a report is refused by name (``report_on_spark``).
POOLS = ("cards",)


def open_lake(spark: SparkSession, lake: str) -> None:
    """Each table of the lake as a temporary view, partition columns included (``game_dates`` from ``games``,
    without times: the lake keeps months; ``option_kinds`` from the rulesets this annals knows, as
    ``ingest.schema`` makes it)."""
    reader = spark.read.option("recursiveFileLookup", "false")
    for table in (*OMNISCIENT, *EVENT_TABLES, *POOLS):
        if table in (*EVENT_TABLES, *REVIEWS, *POOLS) and not _exists(spark, f"{lake.rstrip('/')}/{table}"):
            spark.catalog.dropTempView(table)  # none held (an older lake; reviews: none in archives): reports say so
            continue
        try:
            frame = reader.parquet(f"{lake.rstrip('/')}/{table}")
        except Exception as exc:  # AnalysisException: PATH_NOT_FOUND
            raise LakeNotFoundError(
                f"no lake table {table!r} under {lake}: build the lake with `annals export LAKE --spark MASTER "
                "--shards ARCHIVES`"
            ) from exc
        frame.createOrReplaceTempView(table)
    kinds = spark.createDataFrame(option_kind_rows(), "ruleset STRING, tag STRING, kind STRING, fields ARRAY<STRING>")
    kinds.createOrReplaceTempView("option_kinds")  # the rulesets' option types: annals' own, as a database has
    spark.sql("CREATE OR REPLACE TEMPORARY VIEW game_dates AS SELECT game, CAST(NULL AS TIMESTAMP) AS recorded_at "
              "FROM games")  # fmt: skip


def report_on_spark(
    master: str, name: str, lake: str, *, filters: Filters | None = None, min_games: int | None = None
) -> ReportResult:
    """Report ``name`` over the lake at ``lake`` on Spark; the result ``queries.reports.run.run_report`` gives."""
    spec = REPORTS.get(name)
    if spec is None:
        raise UnknownReportError("report", name, REPORTS)
    f = filters if filters is not None else Filters()
    if f.since is not None or f.until is not None:
        raise NotInLakeError("--since and --until need recording times, which the lake does not hold (months)")
    refuse_inapplicable(name, spec, f, min_games)
    if "://" not in lake:  # a local path: the JVM's working folder need not be this one (a session started before)
        lake = os.path.abspath(lake)
    if spec.reviews:  # before a session starts: reviews are saved beside loose logs, and a lake is built of archives
        raise NotInLakeError(
            f"report {name!r} reads decision_reviews, which a lake holds none of (reviews are saved beside loose logs, "
            "a lake is built from archives): ingest the reviewed logs and run it on the database (--db)"
        )
    spark = session(master)
    open_lake(spark, lake)
    if spec.event_tables and not all(spark.catalog.tableExists(t) for t in EVENT_TABLES):
        raise NotInLakeError(
            f"report {name!r} reads the tournament tables, which the lake at {lake} does not hold (it was written "
            "before lakes held them): export again into a new lake, with --events EVENT_FOLDER for each event"
        )
    reads = sqlfiles.load(f"report_{name}")
    missing = [t for t in POOLS if re.search(rf"\b(FROM|JOIN)\s+{t}\b", reads) and not spark.catalog.tableExists(t)]
    if missing:
        raise NotInLakeError(
            f"report {name!r} reads {', '.join(missing)}, which the lake at {lake} does not hold (it was written "
            "before lakes held the card pools): export again into a new lake"
        )
    read = read_rulesets(spec)
    values: dict[str, Any] = {
        "ruleset": f.ruleset, "rulesets": list(read) if read is not None else None,
        "event": f.event, "since": None, "until": None, "min_turns": f.min_turns, "agent": f.agent, "deck": f.deck,
        "seat": f.seat, "by": f.by, "pool": bool(f.pool),
    }  # fmt: skip
    _run(spark, "select", values)
    for extra in extras_read(sqlfiles.load(f"report_{name}")):  # what the report reads beyond the two tables
        _run(spark, f"select_{extra}", {})
    rows = _run(spark, f"report_{name}", values)
    assert rows is not None

    def sample() -> str:
        counted = _run(spark, "sample", {})
        assert counted is not None
        games, decided, events, rulesets, seats = counted.row(0)
        reads = "" if read is None else f" (this report reads {', '.join(read)} games only)"
        unit = f", {seats} seat-games" if spec.per_seat else ""
        where = f"; filters: {', '.join(f'{k}={v}' for k, v in f.given().items())}" if f.given() else ""
        return (
            f"sample: {games} games ({decided} decided){unit}, {events} events, rulesets: {rulesets or 'none'}"
            f"{reads}{where}; from the lake {lake} on Spark"
        )

    return finish_report(name, f, rows, min_games, sample)
