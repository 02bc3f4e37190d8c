"""Log archives (shards): many whole game logs in one file, with an index, each game readable on its own.

Ten million games are ten million files, a file-system problem before an analysis one; an archive holds
thousands. Layout::

    preamble  ARCHIVE_MAGIC (8 bytes) + archive format version (u16, little-endian)
    entry*    'G' | 0 | log length (u32) | game id length (u16) | CRC-32 of those 8 bytes and the id (u32)
              game id (ASCII) | the game's log (exactly the bytes its ``.log`` file would hold)
    index     'I' | 0 | payload length (u32) | 0 (u16) | CRC-32 of those 8 bytes and the payload (u32)
              payload: msgpack ``[[game_id, offset of the log, length, chain digest], ...]``
    footer    offset of the index entry (u64) | INDEX_MAGIC (8 bytes)

Each game's log keeps its own framing, checksums and chain (``schemas.logfile``), so a game is verified alone and
a damaged game spoils only itself. The index is for finding a game without reading the others; an archive without
one (a writer that crashed, a torn copy) is read by walking the entries, each checked by its CRC: every whole game
before the tear reads back, and a game cut short reads as its own torn log (``TruncatedLogError`` naming its
complete frames). The writer writes to ``PATH.partial`` and renames it to ``PATH`` once the index is written, so a
name without ``.partial`` always holds a finished archive (a retried task writes the same bytes again).

A game in an archive is named ``ARCHIVE#GAME_ID`` wherever a log path is taken: ``member_bytes`` gives its log
bytes, ``split_ref`` the two parts.
"""

from __future__ import annotations

import hashlib
import os
import stat
import struct
import zlib
from functools import lru_cache
from pathlib import Path
from typing import Final, NamedTuple

import msgspec

from annals.schemas.commandline import quoted
from annals.schemas.errors import CorruptLogError, LogError, NotALogError, TruncatedLogError, UnsupportedFormatError

ARCHIVE_MAGIC: Final = b"\x89ANSHRD\n"
INDEX_MAGIC: Final = b"ANNALSIX"
ARCHIVE_VERSION: Final = 1
SUFFIX: Final = ".shard"

_PREAMBLE = struct.Struct("<8sH")
_ENTRY = struct.Struct("<cBIH")  # tag, 0, length, id length
_CRC = struct.Struct("<I")
_FOOTER = struct.Struct("<Q8s")
ENTRY_HEAD_SIZE: Final = _ENTRY.size + _CRC.size


class Member(NamedTuple):
    """One game of an archive: its id, where its log starts and how long it is (``complete`` False: cut short by
    a torn tail, ``length`` then the bytes there are), and its chain digest ("" when read without the index)."""

    game_id: str
    offset: int
    length: int
    digest: str = ""
    complete: bool = True


class Archive(NamedTuple):
    """An archive as read: its games in order, whether its index was there (a finished archive), and the damage
    that stopped a walk over the entries (None when every entry read)."""

    path: str
    members: list[Member]
    indexed: bool
    problem: LogError | None

    def member(self, game_id: str) -> Member:
        for m in self.members:
            if m.game_id == game_id:
                return m
        raise NoSuchGameError(self.path, game_id, [m.game_id for m in self.members])

    def refs(self) -> list[str]:
        """``ARCHIVE#GAME_ID`` of every game in it, and ``ARCHIVE#@OFFSET`` for damage or a torn entry header
        that stopped the walk (reading it raises that error, so ingest quarantines it and nothing goes unsaid)."""
        found = [ref(self.path, m.game_id) for m in self.members]
        if self.problem is not None:
            found.append(ref(self.path, f"@{self.problem.offset}"))
        return found


class NoSuchGameError(LogError):
    """``ARCHIVE#GAME_ID`` names a game the archive does not hold."""

    def __init__(self, path: str, game_id: str, known: list[str]):
        near = [g for g in known if g.startswith(game_id[:4])][:3] if game_id else []
        hint = (
            f" (did you mean {', '.join(near)}?)"
            if near
            else f"; it holds {len(known)} game(s): annals show {quoted(path)}"
        )
        super().__init__(path, f"the archive holds no game {game_id!r}{hint}", offset=0)


def ref(path: str | os.PathLike[str], game_id: str) -> str:
    return f"{os.fspath(path)}#{game_id}"


def split_ref(text: str | os.PathLike[str]) -> tuple[str, str] | None:
    """``(archive, game id)`` of an ``ARCHIVE#GAME_ID`` reference to an existing file, else None."""
    found = ref_stat(text)
    return None if found is None else (found[0], found[1])


def ref_stat(text: str | os.PathLike[str]) -> tuple[str, str, os.stat_result] | None:
    """``split_ref`` with the archive's ``os.stat`` (two system calls in all), for callers that need both: a
    reader of a member, the time a game's archive was written."""
    s = os.fspath(text)
    base, sep, game_id = s.rpartition("#")
    if not sep or not base or os.path.exists(s):
        return None
    try:
        st = os.stat(base)
    except (OSError, ValueError):
        return None
    return (base, game_id, st) if stat.S_ISREG(st.st_mode) else None


def log_exists(path: str | os.PathLike[str]) -> bool:
    """A log file, or an ``ARCHIVE#GAME_ID`` reference to an existing archive."""
    return os.path.lexists(path) or split_ref(path) is not None  # a link loop too: its reader says what is wrong


def is_archive(path: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` is a regular file that starts as an archive does (a FIFO or a device is
    never opened here: reading it could wait for ever; the log reader refuses it by name)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        with open(path, "rb") as f:
            return f.read(len(ARCHIVE_MAGIC)) == ARCHIVE_MAGIC
    except OSError:
        return False


def _crc(head: bytes, body: bytes) -> int:
    return zlib.crc32(body, zlib.crc32(head))


def _entry(tag: bytes, length: int, name: bytes, body_crc_input: bytes) -> bytes:
    head = _ENTRY.pack(tag, 0, length, len(name))
    return head + _CRC.pack(_crc(head, body_crc_input)) + name


class ArchiveWriter:
    """Writes an archive: ``add`` each game's whole log, then ``close`` writes the index and renames the file
    from ``PATH.partial`` to ``PATH`` (an existing ``PATH`` is replaced: archives are named by their games).

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> with ArchiveWriter(folder / "two.shard") as w:
    ...     w.add("a1", b"first log", "d1")
    ...     w.add("b2", b"second", "d2")
    >>> [m.game_id for m in read_archive(folder / "two.shard").members], member_bytes(f"{folder}/two.shard#b2")
    (['a1', 'b2'], b'second')
    """

    def __init__(self, path: str | os.PathLike[str], *, partial: str = ".partial"):
        self.path = Path(path)
        self.partial = self.path.with_name(self.path.name + partial)
        self._file = open(self.partial, "wb")  # noqa: SIM115 - closed by close()
        self._file.write(_PREAMBLE.pack(ARCHIVE_MAGIC, ARCHIVE_VERSION))
        self._offset = _PREAMBLE.size
        self.members: list[Member] = []

    def __enter__(self) -> ArchiveWriter:
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        if kind is None:
            self.close()
        else:
            self.abandon()

    def abandon(self) -> None:
        """Close without the index or the rename: the ``.partial`` file stays, and what was added reads back."""
        self._file.close()

    def add(self, game_id: str, log: bytes, digest: str) -> None:
        name = game_id.encode("ascii")
        entry = _entry(b"G", len(log), name, name)
        self._file.write(entry)
        self._file.write(log)
        self.members.append(Member(game_id, self._offset + len(entry), len(log), digest))
        self._offset += len(entry) + len(log)

    def close(self) -> None:
        payload = msgspec.msgpack.encode([[m.game_id, m.offset, m.length, m.digest] for m in self.members])
        self._file.write(_entry(b"I", len(payload), b"", payload) + payload)
        self._file.write(_FOOTER.pack(self._offset, INDEX_MAGIC))
        self._file.flush()
        os.fsync(self._file.fileno())
        self._file.close()
        os.replace(self.partial, self.path)


def _from_index(data: bytes, name: str) -> list[Member] | None:
    """The members the index names, if the footer and index are whole and agree with the entries."""
    if len(data) < _PREAMBLE.size + _FOOTER.size:
        return None
    at, magic = _FOOTER.unpack_from(data, len(data) - _FOOTER.size)
    if magic != INDEX_MAGIC or at + ENTRY_HEAD_SIZE > len(data) - _FOOTER.size:
        return None
    tag, _, length, _ = _ENTRY.unpack_from(data, at)
    (crc,) = _CRC.unpack_from(data, at + _ENTRY.size)
    payload = data[at + ENTRY_HEAD_SIZE : at + ENTRY_HEAD_SIZE + length]
    if tag != b"I" or len(payload) != length or crc != _crc(data[at : at + _ENTRY.size], payload):
        return None
    try:
        rows = msgspec.msgpack.decode(payload, type=list[tuple[str, int, int, str]])
    except msgspec.DecodeError:
        return None
    members = [Member(*row) for row in rows]
    for m in members:  # each entry head must name the game the index says is there
        gid = m.game_id.encode("ascii")
        if data[m.offset - len(gid) : m.offset] != gid or m.offset + m.length > at:
            return None
    return members


def _walk(data: bytes, name: str) -> tuple[list[Member], LogError | None]:
    """The members found by walking the entries from the start; stops at a torn tail or damage."""
    members: list[Member] = []
    at = _PREAMBLE.size
    while at < len(data):
        if len(data) - at < ENTRY_HEAD_SIZE:
            return members, _torn(name, at, members, "the archive ends inside an entry header")
        tag, _, length, id_length = _ENTRY.unpack_from(data, at)
        (crc,) = _CRC.unpack_from(data, at + _ENTRY.size)
        if tag == b"I":
            if len(data) - at - ENTRY_HEAD_SIZE < length:
                return members, _torn(name, at, members, "the archive ends inside its index")
            return members, None  # the index's own damage, if any, costs only the fast path
        body = data[at + ENTRY_HEAD_SIZE : at + ENTRY_HEAD_SIZE + id_length]
        if tag == b"G" and len(body) < id_length:
            return members, _torn(name, at, members, "the archive ends inside an entry header")
        if tag != b"G" or crc != _crc(data[at : at + _ENTRY.size], body):
            return members, CorruptLogError(
                name, f"archive entry {len(members)} is damaged (bad marker or CRC)", frame=len(members), offset=at
            )
        start = at + ENTRY_HEAD_SIZE + id_length
        game_id = body.decode("ascii", "replace")
        have = min(length, len(data) - start)
        members.append(Member(game_id, start, have, "", have == length))
        at = start + length
    return members, None


def _torn(name: str, at: int, members: list[Member], what: str) -> TruncatedLogError:
    return TruncatedLogError(
        name, f"archive is truncated: {what}; the {len(members)} game(s) before byte {at} are whole", frame=len(
            members), offset=at, complete_frames=len(members)
    )  # fmt: skip


def _read_all(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def parse_archive(data: bytes, name: str) -> Archive:
    """The archive in ``data`` (see the module docstring); ``name`` is for errors."""
    head = data[: _PREAMBLE.size]
    if not ARCHIVE_MAGIC.startswith(head[: len(ARCHIVE_MAGIC)]) or not head:
        raise NotALogError(name, "not an annals archive (bad magic bytes)", offset=0)
    if len(head) < _PREAMBLE.size:
        return Archive(name, [], False, _torn(name, 0, [], "the archive ends inside its preamble"))
    _, version = _PREAMBLE.unpack(head)
    if version != ARCHIVE_VERSION:
        raise UnsupportedFormatError(
            name, f"archive format {version} is not supported; this annals reads format {ARCHIVE_VERSION}: "
            "upgrade annals to read it", offset=8
        )  # fmt: skip
    indexed = _from_index(data, name)
    if indexed is not None:
        return Archive(name, indexed, True, None)
    members, problem = _walk(data, name)
    return Archive(name, members, False, problem)


@lru_cache(maxsize=64)
def _cached(path: str, mtime_ns: int, size: int) -> tuple[Archive, bytes]:
    data = _read_all(path)
    return parse_archive(data, path), data


def _load(path: str) -> tuple[Archive, bytes]:
    st = os.stat(path)
    return _cached(os.fspath(path), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=64)
def _by_id(path: str, mtime_ns: int, size: int) -> dict[str, Member]:
    """The archive's members by game id (the first of an id, as ``Archive.member`` finds it)."""
    return {m.game_id: m for m in reversed(_cached(path, mtime_ns, size)[0].members)}


def read_archive(path: str | os.PathLike[str]) -> Archive:
    """The archive at ``path``: its members (by the index, else by walking the entries)."""
    return _load(os.fspath(path))[0]


def read_index(path: str | os.PathLike[str]) -> Archive:
    """The archive's members from its index alone (a seek to the footer, one read of the index): what a driver
    that plans work over thousands of archives needs; an archive without a whole index is read and walked."""
    name = os.fspath(path)
    with open(name, "rb") as f:
        size = f.seek(0, os.SEEK_END)
        if size >= _PREAMBLE.size + _FOOTER.size:
            f.seek(size - _FOOTER.size)
            at, magic = _FOOTER.unpack(f.read(_FOOTER.size))
            if magic == INDEX_MAGIC and _PREAMBLE.size <= at < size:
                f.seek(at)
                tail = f.read(size - at)
                members = _from_tail(tail, at, name)
                if members is not None:
                    return Archive(name, members, True, None)
    return read_archive(name)


def _from_tail(tail: bytes, at: int, name: str) -> list[Member] | None:
    """The index entry at byte ``at`` (``tail``: the bytes from there to the end), checked, without the entries."""
    if len(tail) < ENTRY_HEAD_SIZE + _FOOTER.size:
        return None
    tag, _, length, _ = _ENTRY.unpack_from(tail, 0)
    (crc,) = _CRC.unpack_from(tail, _ENTRY.size)
    payload = tail[ENTRY_HEAD_SIZE : ENTRY_HEAD_SIZE + length]
    if tag != b"I" or len(payload) != length or crc != _crc(tail[: _ENTRY.size], payload):
        return None
    try:
        return [Member(*row) for row in msgspec.msgpack.decode(payload, type=list[tuple[str, int, int, str]])]
    except msgspec.DecodeError:
        return None


def archive_digest(archive: Archive) -> str:
    """A digest of what the archive holds: each game's id and chain digest, in order (BLAKE2b-128)."""
    text = "\n".join(f"{m.game_id} {m.digest}" for m in archive.members)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def member_bytes(text: str | os.PathLike[str]) -> bytes:
    """The log bytes of ``ARCHIVE#GAME_ID`` (a game cut short by a torn tail: the bytes there are)."""
    data = member_or_none(text)
    if data is None:
        raise FileNotFoundError(os.fspath(text))
    return data


def member_or_none(text: str | os.PathLike[str]) -> bytes | None:
    """The log bytes of ``text`` where it is an ``ARCHIVE#GAME_ID`` reference (``member_bytes``), else None: one
    look at the file system for both questions."""
    found = member_and_stat(text)
    return None if found is None else found[0]


def member_and_stat(text: str | os.PathLike[str]) -> tuple[bytes, os.stat_result] | None:
    """``member_or_none`` with its archive's ``os.stat`` (when it was written, for ingest's ``game_dates``)."""
    parts = ref_stat(text)
    if parts is None:
        return None
    version = (parts[0], parts[2].st_mtime_ns, parts[2].st_size)
    archive, data = _cached(*version)
    if archive.problem is not None and parts[1] == f"@{archive.problem.offset}":
        raise archive.problem
    m = _by_id(*version).get(parts[1]) or archive.member(parts[1])
    return data[m.offset : m.offset + m.length], parts[2]


def archive_refs(path: str | os.PathLike[str]) -> list[str]:
    """``ARCHIVE#GAME_ID`` of every game in the archive at ``path`` (see ``Archive.refs``)."""
    return read_archive(path).refs()


def source_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a log: a file's, or an archive member's."""
    return member_bytes(path) if split_ref(path) is not None else _read_all(os.fspath(path))


def file_of(path: str | os.PathLike[str]) -> str:
    """The file on disk that holds ``path``'s log (the archive, for a member)."""
    parts = split_ref(path)
    return parts[0] if parts is not None else os.fspath(path)
