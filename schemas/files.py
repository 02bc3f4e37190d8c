"""Files on disk that annals names for a user: where it writes when not told (never the current folder, which may be
a checkout), and the log files a command line names (globs expanded when the shell did not).

The annals home is ``$ANNALS_HOME``, else ``$XDG_DATA_HOME/annals``, else ``~/.local/share/annals``: simulated
games go to ``HOME/games``, the database is ``HOME/annals.duckdb``, the demo runs in ``HOME/demo``.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable
from pathlib import Path

from annals.schemas.archive import archive_refs, is_archive, split_ref
from annals.schemas.errors import AnnalsError


class NoMatchError(AnnalsError, FileNotFoundError):
    """A path or glob pattern on the command line that names no file."""


def annals_home() -> Path:
    """The folder annals writes to by default (see the module docstring)."""
    if home := os.environ.get("ANNALS_HOME"):
        return Path(home)
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(data) / "annals"


def default_games() -> Path:
    """Where ``simulate``, ``play`` and ``continue`` write logs when no ``--out`` is given."""
    return annals_home() / "games"


def default_database() -> Path:
    """The database ``ingest`` writes and the analysis commands read when no ``--db`` is given."""
    return annals_home() / "annals.duckdb"


def unused(path: Path) -> Path:
    """``path``, or ``NAME-2.EXT``, ``NAME-3.EXT``, ... the first that does not exist (a default never overwrites)."""
    candidate, k = path, 1
    while candidate.exists():
        k += 1
        candidate = path.with_name(f"{path.stem}-{k}{path.suffix}")
    return candidate


def expand(patterns: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Each path as given, or the sorted files a glob pattern matches (``games/*.log`` quoted, or on a shell that
    does not expand); a name that is neither an existing path nor a pattern matching something is refused.

    >>> expand(["no/such/*.log"])
    Traceback (most recent call last):
    ...
    annals.schemas.files.NoMatchError: no file matches 'no/such/*.log'; check the folder and the pattern
    """
    found: list[Path] = []
    for pattern in patterns:
        text = os.fspath(pattern)
        if is_archive(text):  # every game in it, as ARCHIVE#GAME_ID
            found.extend(Path(r) for r in archive_refs(text))
        elif os.path.exists(text) or split_ref(text) is not None:
            found.append(Path(text))
        elif any(c in text for c in "*?["):
            matches = sorted(glob.glob(os.path.expanduser(text), recursive=True))
            if not matches:
                raise NoMatchError(f"no file matches {text!r}; check the folder and the pattern")
            for m in matches:
                found.extend(Path(r) for r in archive_refs(m)) if is_archive(m) else found.append(Path(m))
        else:
            raise NoMatchError(f"no such file or folder: {text}; check the path")
    return found
