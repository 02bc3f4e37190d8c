"""SQL kept in ``queries/sql/*.sql``, one query, view or macro per file, loaded by name."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from annals.schemas.errors import AnnalsError

SQL_DIR = Path(__file__).with_name("sql")


class UnknownQueryError(AnnalsError, KeyError):
    """No ``queries/sql/NAME.sql`` exists."""


def names() -> list[str]:
    return sorted(p.stem for p in SQL_DIR.glob("*.sql"))


@cache
def load(name: str) -> str:
    """The text of ``queries/sql/NAME.sql``."""
    path = SQL_DIR / f"{name}.sql"
    if not path.is_file():
        raise UnknownQueryError(f"no SQL named {name!r} in {SQL_DIR}; known: {', '.join(names())}")
    return path.read_text()


MACROS = ("position",)
