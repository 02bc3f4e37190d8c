"""Opening a DuckDB file, with every ordinary failure as a named error that says what to do.

``connect`` checks the path before DuckDB sees it (a folder, a missing parent folder) and classifies what DuckDB
refuses: a file that is not a DuckDB database, one locked by another process (another annals writing), one that
cannot be written (read-only file or file system, no permission), a full disk. ``lock_down`` closes a connection to
everything but its database: no file read or written outside ``allowed`` folders, no extension installed or
loaded, and no setting changed afterwards (DuckDB's own ``enable_external_access``, ``allowed_directories``,
``autoinstall_known_extensions``, ``autoload_known_extensions``, ``allow_community_extensions`` and
``lock_configuration``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

import duckdb

from annals.schemas.errors import AnnalsError


class DatabaseError(AnnalsError, OSError):
    """The database file cannot be opened or written as asked."""


class NotADatabaseError(DatabaseError):
    """The file is not a DuckDB database (or is a folder)."""


class NotAnnalsDatabaseError(DatabaseError):
    """A DuckDB database of another program: annals does not read it or create its tables in it."""


class DatabaseLockedError(DatabaseError):
    """Another process holds the database's write lock (most likely an ``annals ingest`` running)."""


class DatabaseNotWritableError(DatabaseError):
    """The database (or its folder) cannot be written: read-only file or file system, no permission, disk full."""


_LOCK_HOLDER = re.compile(r"\(PID (\d+)\)")


def classify(exc: duckdb.Error, path: str) -> DatabaseError | None:
    """A DuckDB error about the file as a named error, or None when it is about something else."""
    text = str(exc)
    low = text.lower()
    if "could not set lock" in low or "conflicting lock" in low:
        pid = _LOCK_HOLDER.search(text)
        holder = f" (process {pid.group(1)})" if pid else ""
        return DatabaseLockedError(
            f"database {path} is in use by another process{holder}, most likely another annals writing to it; "
            "wait for it to finish and retry, or use another file with --db"
        )
    if "not a valid duckdb database" in low or "not a duckdb" in low:
        return NotADatabaseError(
            f"{path} is not a DuckDB database; give the database written by `annals ingest`, or a new file name"
        )
    if "no space left" in low or "disk quota" in low:
        return DatabaseNotWritableError(f"database {path}: the disk is full; free some space and retry")
    if "file too large" in low:
        return DatabaseNotWritableError(
            f"database {path}: the file would exceed the size limit for files (ulimit -f); raise it and retry"
        )
    if "read-only file system" in low:
        return DatabaseNotWritableError(f"database {path} is on a read-only file system; use another path with --db")
    if "permission denied" in low:
        return DatabaseNotWritableError(
            f"database {path} (or its folder) cannot be opened: permission denied; check its permissions"
        )
    if "is a directory" in low:
        return NotADatabaseError(f"{path} is a folder; give a database file name, e.g. {path}/annals.duckdb")
    return None


def _check_path(name: str, read_only: bool) -> None:
    p = Path(name)
    if p.is_dir():
        raise NotADatabaseError(f"--db {name} is a folder; give a database file name, e.g. {p / 'annals.duckdb'}")
    if p.exists() and not p.is_file():
        raise NotADatabaseError(f"--db {name} is not a regular file; give a database file")
    parent = p.parent if str(p.parent) else Path(".")
    if not p.exists() and not read_only and not parent.is_dir():
        raise DatabaseNotWritableError(
            f"--db {name}: the folder {parent} does not exist; create it first (mkdir -p {parent}) or choose another"
        )
    if p.exists() and not read_only and not os.access(p, os.W_OK):
        raise DatabaseNotWritableError(f"database {name} is read-only; make it writable or use another file with --db")


def connect(path: str | os.PathLike[str], *, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """``duckdb.connect`` with the failures above as named errors (``DatabaseError`` subclasses)."""
    name = os.fspath(path)
    _check_path(name, read_only)
    try:
        return duckdb.connect(name, read_only=read_only)
    except duckdb.Error as exc:
        named = classify(exc, name)
        if named is None:
            raise DatabaseError(f"database {name} cannot be opened: {exc}") from None
        raise named from None


def lock_down(con: duckdb.DuckDBPyConnection, allowed: Sequence[str | os.PathLike[str]] = ()) -> None:
    """No files outside ``allowed`` folders, no extensions, no setting changed from here on (see the docstring).

    The order matters: the allowed folders can be set only while external access is on, and nothing after the
    lock. Settings are per database instance, so do this on a connection of its own."""
    con.execute("SET autoinstall_known_extensions = false")
    con.execute("SET autoload_known_extensions = false")
    con.execute("SET allow_community_extensions = false")
    if allowed:
        folders = [os.path.join(os.path.realpath(os.fspath(d)), "") for d in allowed]
        con.execute("SET allowed_directories = ?", [folders])
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")
