"""A lake written by an earlier annals brought to this layout by the next export into it (``migrate_keys``).

An earlier annals wrote the ``games`` table (the one table with a partition key of its own, ``games.ruleset``:
``queries.export.OWN_KEYS``) as ``games/ruleset_1=R/month=M/STEM_0.parquet``, each file with its ``ruleset``
column as well; this one writes ``games/ruleset=R/month=M/STEM_0.parquet``, the key in the path alone, as every
other table. Appending to such a lake without moving its files would leave both layouts in one folder, which no
hive reader reads as one table (two names for one key). Each old file is moved, one at a time:
written at its new path without its ``ruleset`` column (its other columns, types and key-value metadata as they
were; under a temporary name, then renamed), then removed from the old one, its folders removed once empty. Each
step is safe to redo, so an export killed midway leaves a lake the next export finishes moving.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

import pyarrow.compute as pc
import pyarrow.parquet as pq

from annals.queries.export import OWN_KEYS, PARTITION
from annals.schemas.errors import AnnalsError
from annals.spark.parquet import write_file

OLD_KEY = "ruleset_1"  # DuckDB's name for the second ``ruleset`` of the earlier query (``x.*, k.ruleset``)


class LakeLayoutError(AnnalsError, ValueError):
    """A lake file of the earlier layout that cannot be moved without losing what it holds."""


def old_files(lake: Path) -> list[Path]:
    """The files of the earlier layout in ``lake`` (``TABLE/ruleset_1=R/month=M/*.parquet``)."""
    return sorted(p for table in OWN_KEYS for p in (lake / table).glob(f"{OLD_KEY}=*/*/*.parquet"))


def _moved(path: Path) -> Path:
    """Where the earlier layout's file ``path`` goes: its ``ruleset_1=R`` folder named ``ruleset=R``."""
    month, key = path.parent, path.parent.parent
    return key.parent / f"{PARTITION[0]}={key.name.partition('=')[2]}" / month.name / path.name


def migrate_keys(lake: Path) -> list[Path]:
    """Move every file of the earlier layout in ``lake`` to this one (see the module docstring); return where
    each went. A file whose ``ruleset`` column holds another value than its folder says is refused
    (``LakeLayoutError``), left where it is."""
    moved = []
    for path in old_files(lake):
        table = pq.ParquetFile(path).read()
        key = unquote(path.parent.parent.name.partition("=")[2])
        if PARTITION[0] in table.column_names:
            held = pc.unique(table.column(PARTITION[0])).to_pylist()
            if held not in ([], [key]):
                raise LakeLayoutError(
                    f"{path}: the earlier layout's file says ruleset {key!r} in its folder and {held} in its rows; "
                    "export its archives into a new lake"
                )
            table = table.drop_columns([PARTITION[0]])
        dest = _moved(path)
        dest.parent.mkdir(parents=True, exist_ok=True)
        write_file(table, dest)  # the metadata as it was (the first game it says: ``parquet.renumber_file``)
        path.unlink()
        moved.append(dest)
    for table in OWN_KEYS:
        for folder in sorted((lake / table).glob(f"{OLD_KEY}=*")):
            for month in sorted(folder.iterdir()):
                if month.is_dir():
                    _remove_if_left_empty(month)
            _remove_if_left_empty(folder)
    return moved


def _remove_if_left_empty(folder: Path) -> None:
    """``folder`` removed where it holds nothing but what a killed write left (``.NAME.tmp-PID``)."""
    for child in folder.iterdir():
        if child.is_dir() or not (child.name.startswith(".") and ".tmp-" in child.name):
            return
    for child in folder.iterdir():
        child.unlink()
    folder.rmdir()
