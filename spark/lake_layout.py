"""A lake written by an earlier annals is refused by the next export into it, by name (``check_layout``).

Two earlier layouts exist. The first wrote the ``games`` table as ``games/ruleset_1=R/month=M/*.parquet`` (its own
``ruleset`` column beside the key); the second wrote every table keyed by the per-lake ``game`` number alone,
with no ``game_id`` on child rows, no ``games.played_at`` and JSON columns as DuckDB's JSON. Files of this layout
carry ``game_id`` on every game-level row (``queries.export.table_query``), so tables of two exports join. A lake
is rebuilt from its archives, which an export is always given: appending to an earlier one would mix layouts that
no reader reads as one table, so the export stops before writing anything and says to export into a new lake.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq

from annals.queries.export import OWN_KEYS
from annals.schemas.errors import AnnalsError

OLD_KEY = "ruleset_1"  # DuckDB's name for the second ``ruleset`` of the first layout's query (``x.*, k.ruleset``)
KEYED = {"games": "played_at"}  # the column a file of this layout holds (``game_id`` for every other table)


class LakeLayoutError(AnnalsError, ValueError):
    """A lake written by an earlier annals: appending to it would mix two layouts."""


def earlier_files(lake: Path, tables: tuple[str, ...]) -> list[Path]:
    """The files of ``lake`` an earlier annals wrote: the first layout's ``games/ruleset_1=*`` files, and each
    table's files without the column this layout adds (only the first file of each folder is read)."""
    found = sorted(p for table in OWN_KEYS for p in (lake / table).glob(f"{OLD_KEY}=*/*/*.parquet"))
    for table in tables:
        for month in sorted((lake / table).glob("*=*/*=*")):
            first = next(iter(sorted(month.glob("*.parquet"))), None)
            if first is not None and KEYED.get(table, "game_id") not in pq.read_schema(first).names:
                found.append(first)
    return found


def check_layout(lake: Path, tables: tuple[str, ...]) -> None:
    """Refuse ``lake`` if an earlier annals wrote it (``LakeLayoutError`` naming a file and the fix)."""
    found = earlier_files(lake, tables)
    if found:
        raise LakeLayoutError(
            f"{lake} was written by an earlier annals ({found[0].relative_to(lake)} has no game_id on its rows); "
            "export its archives into a new lake"
        )
