"""Named errors for bad input. Each says what was wrong, where, and how to fix it."""

from __future__ import annotations

import os
from collections.abc import Iterable
from difflib import get_close_matches
from typing import Self


class AnnalsError(Exception):
    """Base of every error annals raises on purpose."""

    file: str | None = None  # the file or folder it says is missing or unreadable (``about``)

    def about(self, path: str | os.PathLike[str]) -> Self:
        """This error, saying that ``path`` is missing or cannot be read: when ``path`` was typed on the command
        line, the command line calls it a usage error (exit 2), as for a name that names nothing."""
        self.file = os.fspath(path)
        return self


class LogError(AnnalsError, ValueError):
    """A log file cannot be read as written."""

    def __init__(
        self,
        path: str,
        message: str,
        *,
        frame: int | None = None,
        offset: int | None = None,
        field: str | None = None,
    ):
        self.path = path
        self.frame = frame
        self.offset = offset
        self.field = field  # the record and field at fault ("decision 12: chosen"), when one is
        self.reason = message if field is None else f"{field}: {message}"
        where = path
        if frame is not None:
            where += f": frame {frame}"
        if offset is not None:
            where += f" at byte {offset}"
        super().__init__(f"{where}: {self.reason}")


class NotALogError(LogError):
    """The file does not start with the annals log magic bytes."""


class UnsupportedFormatError(LogError):
    """The log was written by a newer (or unknown) format version."""


class CorruptLogError(LogError):
    """A frame's checksum, chain digest, index or payload does not match what was written."""


class InconsistentLogError(CorruptLogError):
    """Every frame is intact, but the records contradict each other or the game: a closing record that is not the
    result of its events, a game id that is not its header's, a decision that does not fit the events around it,
    or (from ``verify``) a record that the re-run of the game does not reproduce."""


class CardPoolError(InconsistentLogError):
    """The header's card-pool hash does not fit the log (ruling R-M9-45): the message names the pool, the deck
    card, event or decision at fault, and the hash the header would need."""


class UnknownCardPoolError(CardPoolError):
    """The header names a card pool that is neither this engine's nor an earlier one it still re-runs."""


class CardNotInPoolError(CardPoolError):
    """A deck or an event names a card that the pool the header names did not have."""


class EditionMismatchError(CardPoolError):
    """The log holds a record the rules edition of the header's pool never makes (an edition-1 game with a move),
    or lacks one it always makes (a Move-phase decision under edition 2)."""


class TruncatedLogError(LogError):
    """The log ends early: every complete frame before ``offset`` is valid, the tail is torn or missing."""

    def __init__(self, path: str, message: str, *, frame: int, offset: int, complete_frames: int):
        self.complete_frames = complete_frames
        super().__init__(path, message, frame=frame, offset=offset)


class IllegalDecisionError(AnnalsError, ValueError):
    """An agent chose something that was not among the legal options offered."""


class InvalidDeckError(AnnalsError, ValueError):
    """A deck list breaks a construction rule; the message names the rule paragraph."""


class CardDataError(AnnalsError, ValueError):
    """A card data file is malformed or inconsistent."""


class ReplayMismatchError(AnnalsError):
    """Re-running a log's decisions produced a different event stream."""

    def __init__(self, message: str, *, decision: int | None = None, field: str | None = None):
        self.decision = decision  # the recorded decision at fault, when one is
        self.field = field
        super().__init__(message)


class BadArgumentError(AnnalsError):
    """What was typed names nothing annals knows, or does not parse: the command line exits 2 for it, as for a
    bad option value, where an error found while running (a damaged log, a missing file) exits 1."""


class OutOfRangeError(BadArgumentError, ValueError):
    """A number outside what annals takes (a seed, a turn cap): a usage error (exit 2), which the command line ends
    with where to read what the command takes (``see 'annals simulate --help'``), as typer's own range errors do."""


def one_line(text: str) -> str:
    """``text`` on one line: a multi-line message (DuckDB's) joined, caret lines (``   ^^^``) dropped."""
    parts = [part.strip() for part in text.splitlines()]
    return " ".join(part for part in parts if part and part.strip("^~ "))


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``" did you mean 'x'?"`` for the closest of ``known`` to ``name`` (difflib), or ``""`` when none is close.

    >>> did_you_mean("vangard", ["vanguard", "bastion"])
    " did you mean 'vanguard'?"
    >>> did_you_mean("xyz", ["vanguard", "bastion"])
    ''
    """
    close = get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" did you mean {close[0]!r}?" if close else ""


class UnknownNameError(BadArgumentError, LookupError):
    """A name (a ruleset, deck, bot, report, view, coordinate kind...) that is not one of the known ones.

    The message says which kind of name, suggests the closest known one, and lists them all:
    ``unknown deck 'vangard'; did you mean 'vanguard'? choose one of: bastion, vanguard``.
    """

    def __init__(self, kind: str, name: str, known: Iterable[str], *, choices: str = ""):
        names = list(known)
        self.kind, self.name, self.known = kind, name, names
        listed = choices or f"choose one of: {', '.join(names)}"
        super().__init__(f"unknown {kind} {name!r};{did_you_mean(name, names)} {listed}")
