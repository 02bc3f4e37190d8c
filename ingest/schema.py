"""The database schema: DDL, views and the ``position()`` macro loaded by name from ``ingest/sql/``, a stored
version, and migration or refusal.

``open_database`` creates a new database from ``schema_v1.sql`` and the migrations; an older one is migrated with
the scripts ``migrate_to_vN.sql`` in order when they exist, otherwise refused with ``SchemaVersionError`` saying
what to do; a newer one is always refused (an older annals must not write into it). So a new database and a
migrated one are built by the same DDL. Version 2 added the tournament tables (``migrate_to_v2.sql``).
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from annals.ingest.sqlfiles import SqlFolder
from annals.schemas.errors import AnnalsError

SCHEMA_VERSION = 2
SQL_DIR = Path(__file__).with_name("sql")
DEFAULT_DB = "annals.duckdb"


class DatabaseNotFoundError(AnnalsError, FileNotFoundError):
    """A read-only command was pointed at a database file that does not exist."""


class SchemaVersionError(AnnalsError, ValueError):
    """The database was made by another schema version and cannot be used as it is."""


ddl = SqlFolder(SQL_DIR).load  # the text of ``ingest/sql/NAME.sql``


def stored_version(con: duckdb.DuckDBPyConnection) -> int | None:
    """The schema version stored in the database, or None for an empty database."""
    found = con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'schema_version'"
    ).fetchall()[0][0]
    if not found:
        return None
    rows = con.execute("SELECT max(version) FROM schema_version").fetchall()
    return None if rows[0][0] is None else int(rows[0][0])


def ensure_schema(con: duckdb.DuckDBPyConnection, path: str = "") -> None:
    """Create, migrate or refuse; then (re)create the views."""
    version = stored_version(con)
    if version is None:  # a new database: version 1, then every migration
        con.execute(ddl("schema_v1"))
        con.execute("INSERT INTO schema_version VALUES (?)", [1])
        version = 1
    if version > SCHEMA_VERSION:
        raise SchemaVersionError(
            f"database {path!r} has schema version {version}, newer than this annals' {SCHEMA_VERSION}; "
            "upgrade annals, or ingest into a new file with --db"
        )
    elif version < SCHEMA_VERSION:
        for target in range(version + 1, SCHEMA_VERSION + 1):
            script = SQL_DIR / f"migrate_to_v{target}.sql"
            if not script.exists():
                raise SchemaVersionError(
                    f"database {path!r} has schema version {version} and no migration to {target} exists; "
                    "re-ingest the logs into a new file with --db"
                )
            con.execute("BEGIN")
            con.execute(script.read_text())
            con.execute("UPDATE schema_version SET version = ?", [target])
            con.execute("COMMIT")
    con.execute(ddl("views"))
    con.execute(ddl("position"))


def open_database(path: str | Path = DEFAULT_DB, *, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """A connection to the annals database at ``path``, with the schema checked (and created when writable)."""
    name = str(path)
    if read_only:
        if not Path(name).exists():
            raise DatabaseNotFoundError(
                f"no annals database at {name!r}: create it with `annals ingest LOGS --db {name}`, or pass --db"
            )
        con = duckdb.connect(name, read_only=True)
        con.execute("SET enable_progress_bar = false")
        version = stored_version(con)
        if version != SCHEMA_VERSION:
            con.close()
            raise SchemaVersionError(
                f"database {name!r} has schema version {version}, this annals reads {SCHEMA_VERSION}; "
                "open it once with `annals ingest --db` to migrate it, or re-ingest"
            )
        return con
    con = duckdb.connect(name)
    con.execute("SET enable_progress_bar = false")
    try:
        ensure_schema(con, name)
    except BaseException:
        con.close()
        raise
    return con
