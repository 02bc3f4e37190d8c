"""Files on disk that annals names for a user: where it writes when not told (never the current folder, which may be
a checkout), the log files a command line names (globs expanded when the shell did not), logs that must be regular
files, outputs that must not land on a folder or an input, and operating-system errors as named errors that say
what to do.

The annals home is ``$ANNALS_HOME``, else ``$XDG_DATA_HOME/annals``, else ``~/.local/share/annals``: simulated
games go to ``HOME/games``, the database is ``HOME/annals.duckdb``, the demo runs in ``HOME/demo``.

Only regular files are read as logs and position files: a FIFO would block the reader until someone writes to it,
``/dev/zero`` never ends, a folder or a symbolic-link loop cannot be read at all. ``open_regular`` opens without
blocking (``O_NONBLOCK``, harmless for a regular file), checks the opened file's type (no window between a check and
the open) and refuses anything larger than a limit, so every read is bounded by the size seen.
"""

from __future__ import annotations

import errno
import glob
import io
import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from annals.schemas.archive import archive_refs, is_archive, split_ref
from annals.schemas.errors import AnnalsError

EVENT_KEY_NAME: Final = "event.key"  # the private key's file in an event folder (here, where the help can name it)


class NoMatchError(AnnalsError, FileNotFoundError):
    """A path or glob pattern on the command line that names no file."""


class PathError(AnnalsError, ValueError):
    """A path names the wrong kind of thing: a folder for a file, a file for a folder, an input as the output."""


class NotARegularFileError(PathError):
    """A FIFO, a device, a socket or a folder where a file was expected."""


class OutputExistsError(PathError, FileExistsError):
    """An output path where a file already is: no command writes over one."""


class FileSystemError(AnnalsError, OSError):
    """The operating system refused a read or write (disk full, read-only, no permission, a loop of links)."""


# ---------------------------------------------------------------- where annals writes when not told


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


# ---------------------------------------------------------------- what the command line names


def is_pattern(text: str) -> bool:
    """Whether ``text`` is a glob pattern (``expand`` matches it against the file system)."""
    return any(c in text for c in "*?[")


def expand(patterns: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Each path as given, or the sorted files a glob pattern matches (``games/*.log`` quoted, or on a shell that
    does not expand); a name that is neither an existing path nor a pattern matching something is refused. A link
    that leads nowhere (or to itself) is kept, for its reader to say what is wrong with it.

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
        elif os.path.lexists(text) or split_ref(text) is not None:
            found.append(Path(text))
        elif is_pattern(text):
            matches = sorted(glob.glob(os.path.expanduser(text), recursive=True))
            if not matches:
                raise _no_match(f"no file matches {text!r}; check the folder and the pattern", text)
            for m in matches:
                found.extend(Path(r) for r in archive_refs(m)) if is_archive(m) else found.append(Path(m))
        else:
            raise _no_match(f"no such file or folder: {text}; check the path", text)
    return found


def _no_match(message: str, text: str) -> NoMatchError:
    return NoMatchError(message).about(text)  # what was typed: the command line calls it a usage error (exit 2)


# ---------------------------------------------------------------- reading only regular files

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def _opened(path: str | os.PathLike[str], what: str, max_bytes: int | None) -> tuple[int, os.stat_result]:
    """A descriptor of ``path`` opened non-blocking and its ``fstat``, refused with a named error unless a regular
    file (within ``max_bytes``); the caller closes it."""
    name = os.fspath(path)
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise os_error(exc, f"read the {what}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotARegularFileError(
                f"{name} is {kind_of(info.st_mode)}, not a regular file; give the path of a {what} file"
            )
        if max_bytes is not None and info.st_size > max_bytes:
            raise PathError(
                f"{name} is {info.st_size:,} bytes, more than a {what} can be ({max_bytes:,}); check the path"
            )
    except BaseException:
        os.close(fd)
        raise
    return fd, info


def open_regular(
    path: str | os.PathLike[str], *, what: str = "file", max_bytes: int | None = None
) -> io.BufferedReader:
    """``path`` opened for reading in binary, refused with a named error unless it is a regular file (within
    ``max_bytes``). Never blocks: a FIFO is opened non-blocking and refused."""
    fd, _ = _opened(path, what, max_bytes)
    try:
        os.set_blocking(fd, True)
        return io.BufferedReader(io.FileIO(fd, "rb"))
    except BaseException:
        os.close(fd)
        raise


def read_whole_regular(
    path: str | os.PathLike[str], *, what: str = "file", up_to: int
) -> tuple[bytes | None, os.stat_result]:
    """The bytes of a regular file of at most ``up_to`` bytes (the size it had when opened), and its ``fstat``; None
    for a larger one, which the caller streams through ``open_regular``. Refused as ``open_regular`` refuses. Read on
    the bare descriptor: a file object costs a game's log about half of its file's read."""
    fd, info = _opened(path, what, None)
    try:
        if info.st_size > up_to:
            return None, info
        data = os.read(fd, info.st_size)  # O_NONBLOCK is harmless for a regular file: it reads what is there
        while len(data) < info.st_size:  # a short read (a signal): on to the size seen, or to the end
            more = os.read(fd, info.st_size - len(data))
            if not more:
                break
            data += more
        return data, info
    finally:
        os.close(fd)


def read_regular(path: str | os.PathLike[str], *, what: str = "file", max_bytes: int | None = None) -> bytes:
    """The whole of a regular file (see ``open_regular``); reads no more than the size it had when opened."""
    with open_regular(path, what=what, max_bytes=max_bytes) as f:
        size = os.fstat(f.fileno()).st_size
        return f.read(size)


# ---------------------------------------------------------------- where outputs may go


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def output_file(
    path: str | os.PathLike[str],
    *,
    inputs: Iterable[str | os.PathLike[str]] = (),
    what: str = "output",
    exists_ok: bool = False,
) -> Path:
    """Check a file to be written: not a folder, its folder exists, it is none of ``inputs`` (writing onto the
    database or a log being read would destroy it), and, the one rule of every command, nothing is there yet: an
    output a user names is never written over (``exists_ok``: the caller replaces only a file it wrote itself)."""
    p = Path(path)
    if p.is_dir():
        raise PathError(f"{what} path {p} is a folder; give a file name, e.g. {p / 'out'}")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        missing = "does not exist" if not parent.exists() else "is not a folder"
        raise PathError(f"{what} path {p}: the folder {parent} {missing}; create it first or choose another path")
    for source in inputs:
        if same_file(p, source) or same_file(p, f"{os.fspath(source)}.wal"):
            raise PathError(f"{what} path {p} is the input {source}, writing it would destroy it; choose another")
    if not exists_ok and os.path.lexists(p):
        raise OutputExistsError(
            f"{what} path {p} exists; give another path or remove it (annals never writes over a file)"
        )
    return p


def output_folder(path: str | os.PathLike[str], *, what: str = "--out") -> Path:
    """A folder to write files into, created when missing; a file there is refused."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise PathError(f"{what} {p} is a file, not a folder; give a folder (it is created when missing)")
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise os_error(exc, "create the folder") from None
    return p


# ---------------------------------------------------------------- the operating system's refusals, in words

_ADVICE = {
    errno.ENOSPC: "the disk is full; free some space and retry",
    errno.EDQUOT: "the disk quota is used up; free some space and retry",
    errno.EFBIG: "the file would exceed the size limit for files (ulimit -f); raise it or write less",
    errno.EROFS: "the file system is read-only; choose a path on a writable one",
    errno.EACCES: "permission denied; check the file's and its folders' permissions",
    errno.EPERM: "operation not permitted; check the file's permissions",
    errno.EISDIR: "it is a folder; give a file",
    errno.ENOTDIR: "a part of the path is not a folder; check the path",
    errno.ELOOP: "too many levels of symbolic links (a link loop); fix or remove the link",
    errno.ENOENT: "no such file or folder; check the path",
    errno.ENAMETOOLONG: "the file name is too long; choose a shorter one",
    errno.ENXIO: "no such device (a FIFO with no writer, or a device that is gone); check the path",
    errno.EEXIST: "it exists, and annals never writes over a file; give another path or remove it",
}


def os_error(exc: OSError, action: str = "use the file") -> FileSystemError:
    """An operating-system error as a one-line named error: what failed, on which path, and what to do."""
    advice = _ADVICE.get(exc.errno or 0, f"{exc.strerror or exc}; check the path and its permissions")
    where = f" {exc.filename}" if exc.filename is not None else ""
    error = FileSystemError(f"could not {action}{where}: {advice}")
    error.errno = exc.errno
    if exc.filename is not None:
        error.about(exc.filename)
    return error
