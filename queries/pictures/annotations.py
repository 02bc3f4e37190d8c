"""Annotations: a commentator's or judge's notes at coordinates of a game, kept in a side file next to its log, as
PGN comments are for chess. The log itself is never modified.

The side file of ``games/x.log`` is ``games/x.log.notes.json``::

    {"format": 1, "game_id": "590b4e9d94f31924",
     "notes": [{"at": "turn:5/attack", "text": "The wave that decides the game.", "author": "", "views": []}]}

``at`` is any coordinate ``annals position`` takes (``queries.positions.timeline``); ``views`` lists the views that show
the note (``[]``: every view), so a note that names a hidden card can be kept to the omniscient replay. A note whose
coordinate names nothing in its game, or a file for another game, is refused with the reason.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import msgspec

from annals.engine.views import VIEWERS
from annals.queries.positions.timeline import CoordinateError, Timeline
from annals.schemas.errors import AnnalsError
from annals.schemas.files import PathError
from annals.schemas.inputs import read_text

FORMAT = 1
MAX_NOTES_BYTES = 16 << 20  # notes are a line each: thousands of them are a few hundred KiB


class Note(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    at: str
    text: str
    author: str = ""
    views: list[str] = []


class NotesFile(msgspec.Struct, forbid_unknown_fields=True):
    game_id: str
    notes: list[Note] = []
    format: int = FORMAT


class AnnotationError(AnnalsError, ValueError):
    """A notes file that does not parse, belongs to another game, or has a note at no coordinate of its game."""


def notes_path(log: str | os.PathLike[str]) -> Path:
    """Where the notes of ``log`` live: beside it, named after it."""
    p = Path(log)
    return p.with_name(p.name + ".notes.json")


def load_notes(log: str | os.PathLike[str], game_id: str) -> list[Note]:
    """The notes of ``log`` (none when it has no side file), checked to belong to game ``game_id``."""
    path = notes_path(log)
    if not path.exists():
        return []
    try:
        doc = msgspec.json.decode(read_text(path, what="notes", max_bytes=MAX_NOTES_BYTES), type=NotesFile)
    except PathError as exc:
        raise AnnotationError(f"{exc}; move it aside, annals writes the notes file itself") from None
    except (msgspec.DecodeError, RecursionError) as exc:
        raise AnnotationError(
            f"{path}: not a notes file ({exc}); fix the JSON there, or move the file aside and annals annotate "
            "starts a new one"
        ) from None
    if doc.format > FORMAT:
        raise AnnotationError(f"{path}: notes format {doc.format} is newer than this annals reads ({FORMAT})")
    if doc.game_id != game_id:
        raise AnnotationError(f"{path}: its notes are for game {doc.game_id!r}, but the log is game {game_id!r}")
    for i, note in enumerate(doc.notes):
        bad = [v for v in note.views if v not in VIEWERS]
        if bad:
            raise AnnotationError(f"{path}: note {i + 1} names unknown view(s) {bad}; use {', '.join(VIEWERS)}")
    return doc.notes


def annotate(log: str | os.PathLike[str], at: str, text: str, *, author: str = "", views: Sequence[str] = ()) -> Path:
    """Add a note at coordinate ``at`` to ``log``'s side file (created if need be); returns the file's path.

    The coordinate is resolved against the log first, so a note always names a moment of its game."""
    if not text.strip():
        raise AnnotationError("the note is empty; write its text after the coordinate")
    timeline = Timeline.from_file(log)
    timeline.resolve(at)  # raises CoordinateError naming what is wrong
    bad = [v for v in views if v not in VIEWERS]
    if bad:
        raise CoordinateError(f"unknown view(s) {bad}; choose among: {', '.join(VIEWERS)}")
    game_id = timeline.header.game_id
    notes = load_notes(log, game_id)
    doc = NotesFile(game_id, [*notes, Note(at, text, author, list(views))])
    path = notes_path(log)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(msgspec.json.format(msgspec.json.encode(doc), indent=2) + b"\n")
    tmp.replace(path)  # the old notes stay whole if writing the new ones fails
    return path


def placed(notes: list[Note], timeline: Timeline, view: str) -> list[tuple[int, Note]]:
    """The notes ``view`` shows, each with the event count of its coordinate, in game order."""
    out = [(timeline.resolve(n.at), n) for n in notes if not n.views or view in n.views]
    return sorted(out, key=lambda item: item[0])
