"""Read-only SQL over the database, and frames written as a table, CSV, JSON or Parquet."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from annals.ingest.schema import open_database
from annals.queries.names import FORMATS as FORMATS  # defined there, light, for the command line
from annals.schemas.errors import AnnalsError, UnknownNameError, one_line
from annals.schemas.files import os_error, output_file


class ReadOnlyError(AnnalsError, PermissionError):
    """A query tried to change the database through the read-only connection."""


class QueryError(AnnalsError, ValueError):
    """DuckDB rejected a query."""


class FileAccessError(AnnalsError, PermissionError):
    """A query tried to reach a file, an extension or a setting: `annals sql` reaches only its database."""


def _refusal(query: str, exc: duckdb.Error) -> AnnalsError:
    text = str(exc)
    low = text.lower()
    shown = repr(query.strip()[:80])
    if "read-only" in low or "read only" in low:
        return ReadOnlyError(
            f"{shown} would change the database, and `annals sql` is read-only; "
            "use `annals ingest` to add games, or copy the database to experiment"
        )
    if "disabled by configuration" in low or "disabled through configuration" in low:
        if "extension" in low:
            return FileAccessError(f"{shown}: `annals sql` installs and loads no extensions ({text.splitlines()[0]})")
        return FileAccessError(
            f"{shown} reaches a file outside the database, and `annals sql` reads only its database "
            f"({text.splitlines()[0]}); to read or write files under a folder, pass --allow-files DIR"
        )
    if "configuration has been locked" in low:
        return FileAccessError(f"{shown}: `annals sql` changes no settings ({text.splitlines()[0]})")
    return QueryError(f"{one_line(text)}; `annals tables` lists the tables and views")


def run_sql(db: str | Path, query: str, *, allow_files: Sequence[str | Path] = ()) -> pl.DataFrame:
    """Run ``query`` on a read-only connection that reaches nothing but the database (no file outside it, unless
    under ``allow_files``; no extension; no setting); a write attempt raises ``ReadOnlyError``, a file, extension
    or setting ``FileAccessError``."""
    for folder in allow_files:
        if not Path(folder).is_dir():
            raise QueryError(f"--allow-files {folder}: not a folder; give an existing folder")
    con = open_database(db, read_only=True, lockdown=list(allow_files))
    try:
        return con.sql(query).pl() if query.strip() else pl.DataFrame()
    except duckdb.Error as exc:
        raise _refusal(query, exc) from None
    finally:
        con.close()


def _flat(frame: pl.DataFrame) -> pl.DataFrame:
    """CSV has no lists or structs: those columns are written as JSON text."""
    nested = [name for name, dtype in frame.schema.items() if dtype.is_nested()]
    if not nested:
        return frame
    return frame.with_columns(
        pl.col(name).map_elements(
            lambda v: json.dumps(v.to_list() if isinstance(v, pl.Series) else v), return_dtype=pl.String
        )
        for name in nested
    )


TABLE_ROWS = 200  # rows a table shows; the rest are counted in a last line
CELL_CHARS = 40  # a text cell longer than this is cut in a table


def _cell(value: object) -> str:
    if isinstance(value, pl.Series):
        value = value.to_list()
    if isinstance(value, (list, dict)):
        return json.dumps(value)
    return "null" if value is None else str(value)


def records(frame: pl.DataFrame, width: int) -> str:
    """The frame as one block per row, a column per line (``-[ row 1 ]----`` then ``name | value``), each value
    cut to fit ``width``: for a frame with too many columns to sit side by side (``psql``'s expanded display)."""
    label = max((len(name) for name in frame.columns), default=0)
    room = max(width - label - 3, 8)
    lines: list[str] = []
    for i, row in enumerate(frame.iter_rows(), start=1):
        lines.append(f"-[ row {i} ]".ljust(min(width, label + 3 + room), "-"))
        for name, value in zip(frame.columns, row, strict=True):
            text = _cell(value).replace("\n", " ")
            if len(text) > room:
                text = text[: room - 1] + "…"
            lines.append(f"{name.ljust(label)} | {text}")
    return "\n".join(lines)


def _side_by_side(frame: pl.DataFrame, cell_chars: int, decimals: int | None) -> str:
    with pl.Config(
        tbl_rows=TABLE_ROWS, tbl_cols=-1, fmt_str_lengths=cell_chars, tbl_hide_dataframe_shape=True,
        tbl_width_chars=10_000, float_precision=decimals,
    ):  # fmt: skip
        return str(frame)


def table(frame: pl.DataFrame, width: int) -> str:
    """The frame as a table no wider than ``width``: side by side when it fits (text cells cut at
    ``CELL_CHARS``; failing that, at a third of it and floats at 4 decimals), else one record per row
    (``records``); past ``TABLE_ROWS`` rows a last line says how many more there are."""
    shown = frame.head(TABLE_ROWS)
    for cell_chars, decimals in ((CELL_CHARS, None), (CELL_CHARS // 3, 4)):
        text = _side_by_side(shown, cell_chars, decimals)
        if max((len(line) for line in text.splitlines()), default=0) <= width:
            break
    else:
        text = records(shown, width)
    if frame.height > TABLE_ROWS:
        text += f"\n({frame.height - TABLE_ROWS} more rows not shown; --format csv gives them all)"
    return text


def card_names(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with ``card``: each ``card_id``'s printed name in its ruleset's pool (the id where the pool has no
    such card, or two cards share the name)."""
    from annals.engine.registry import get_ruleset

    names: dict[tuple[str, str], str] = {}
    for ruleset in frame["ruleset"].unique().to_list():
        try:
            pool = get_ruleset(ruleset).cards()
        except LookupError:
            continue
        taken = [c.name for c in pool.values()]
        names.update({(ruleset, i): c.name for i, c in pool.items() if taken.count(c.name) == 1})
    keys = list(zip(frame["ruleset"].to_list(), frame["card_id"].to_list(), strict=True))
    return frame.with_columns(pl.Series("card", [names.get(k, k[1]) for k in keys], dtype=pl.String))


def endings(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with each ``end_reason`` in words, as every reader says how a game ended (``words.END_REASONS``:
    ``slava_13`` is ``13 Slava``), under the heading ``ended by``."""
    from annals.engine.words import END_REASONS, words_of

    said = [END_REASONS.get(r, words_of(r)) if r is not None else None for r in frame["end_reason"].to_list()]
    return frame.with_columns(pl.Series("end_reason", said, dtype=pl.String)).rename({"end_reason": "ended by"})


def for_people(frame: pl.DataFrame) -> pl.DataFrame:
    """A report's rows as the terminal shows them to a person: each card by its printed name (``card``, in the place
    of ``card_id``), each end reason in words (``endings``). CSV, JSON and Parquet keep ``card_id``, the key programs
    join on (``cards.card_id``), and ``end_reason``, the code."""
    if "end_reason" in frame.columns:
        frame = endings(frame)
    if "card_id" not in frame.columns:
        return frame
    named = frame if "card" in frame.columns or "ruleset" not in frame.columns else card_names(frame)
    if "card" not in named.columns:
        return frame
    order = [c for c in frame.columns if c != "card"]
    order[order.index("card_id")] = "card"
    return named.select(order)


def render(
    frame: pl.DataFrame,
    fmt: str,
    output: Path | None,
    meta: dict[str, Any] | None = None,
    *,
    width: int = 100,
    inputs: Sequence[str | Path] = (),
    layout: Callable[[pl.DataFrame, int], str] | None = None,
) -> str | None:
    """Write ``frame`` to ``output`` in ``fmt``; without ``output`` return the text (parquet needs a file).

    Text ends with exactly one newline (``tail -1`` gives the last row of a CSV); a table fits ``width``.
    With ``meta`` (a report's name, description, sample and filters) JSON is an object holding ``meta``'s keys and
    ``rows``, and Parquet carries each key in its key-value metadata (values as JSON text); CSV has no place for it,
    so the caller prints the sample on stderr.

    ``layout`` draws the table instead of ``table`` (a report that is a matrix: ``reports.matrix``).

    ``output`` must be a file in an existing folder and none of ``inputs`` (the database: writing over it would
    destroy it); a failed write (disk full, no permission) is a ``FileSystemError`` and leaves no partial file.
    """
    if fmt not in FORMATS:
        raise UnknownNameError("format", fmt, FORMATS)
    if fmt == "parquet" and output is None:
        raise QueryError("--format parquet needs --output FILE (Parquet is binary)")
    if output is not None:
        output_file(output, inputs=inputs, what="--output")
    if fmt == "parquet":
        assert output is not None
        if meta is None:
            _written(output, lambda tmp: frame.write_parquet(tmp))
        else:
            import pyarrow.parquet as pq  # here: a report written as CSV, JSON or a table needs no pyarrow

            arrow = frame.to_arrow()
            kv = {**(arrow.schema.metadata or {}), **{k.encode(): json.dumps(v).encode() for k, v in meta.items()}}
            _written(output, lambda tmp: pq.write_table(arrow.replace_schema_metadata(kv), tmp))
        return None
    if fmt == "csv":
        text = _flat(frame).write_csv()
    elif fmt == "json":
        text = frame.write_json() if meta is None else json.dumps({**meta, "rows": frame.to_dicts()}, default=str)
    else:
        text = (layout or table)(frame, width)
    text = text.rstrip("\n") + "\n"
    if output is not None:
        _written(output, lambda tmp: tmp.write_text(text))
        return None
    return text


def _written(output: Path, write: Callable[[Path], object]) -> None:
    """Write through a temporary file beside ``output``, renamed over it when complete."""
    tmp = output.with_name(f".{output.name}.annals-tmp")
    try:
        write(tmp)
        os.replace(tmp, output)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise os_error(exc, f"write {output}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
