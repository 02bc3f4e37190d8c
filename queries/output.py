"""Read-only SQL over the database, and frames written as a table, CSV, JSON or Parquet."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path

import duckdb
import polars as pl

from annals.ingest.schema import open_database
from annals.schemas.errors import AnnalsError
from annals.schemas.files import os_error, output_file

FORMATS = ("table", "csv", "json", "parquet")


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
    return QueryError(f"{type(exc).__name__}: {text}")


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


def render(frame: pl.DataFrame, fmt: str, output: Path | None, *, inputs: Sequence[str | Path] = ()) -> str | None:
    """Write ``frame`` to ``output`` in ``fmt``; without ``output`` return the text (parquet needs a file).

    ``output`` must be a file in an existing folder and none of ``inputs`` (the database: writing over it would
    destroy it); a failed write (disk full, no permission) is a ``FileSystemError`` and leaves no partial file."""
    if fmt not in FORMATS:
        raise QueryError(f"unknown format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    if fmt == "parquet" and output is None:
        raise QueryError("--format parquet needs --output FILE (Parquet is binary)")
    if output is not None:
        output_file(output, inputs=inputs, what="--output")
    if fmt == "parquet":
        assert output is not None
        _written(output, lambda tmp: frame.write_parquet(tmp))
        return None
    if fmt == "csv":
        text = _flat(frame).write_csv()
    elif fmt == "json":
        text = frame.write_json()
    else:
        with pl.Config(tbl_rows=200, tbl_cols=30, fmt_str_lengths=60, tbl_hide_dataframe_shape=True):
            text = str(frame)
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
