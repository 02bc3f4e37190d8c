"""The annals log file: one game per file, framed, checksummed and chained.

Layout::

    preamble   MAGIC (8 bytes) + format version (u16, little-endian)
    frame*     'F' | kind (1 byte) | index (u32) | length (u32) | header CRC-32 (u32)
               payload (length bytes, msgpack)
               chain digest (16 bytes) = XXH3-128(previous digest | frame header | payload)

The first frame is the header (kind ``H``), then batch frames (kind ``B``: a batch of events and the decisions
made between them), then one closing frame (kind ``C``). The first chain link is the XXH3-128 of the preamble.

Why each piece: the header CRC lets the reader trust a length before reading that many bytes (so a flipped length
bit is reported as corruption, not as a torn tail); the index names a reordered or dropped frame directly; the
chain digest detects any edit, swap or removal that the index alone would miss. The chain guards against damage,
not forgery, so it uses XXH3-128 (0.25 us per 4 KiB frame here, against 2.8 us for SHA-256 and 4.5 us for BLAKE2b);
a signature frame (below) signs a SHA-256 of the bytes. Writers append whole frames only, so a crash leaves a
prefix that the reader returns intact before raising ``TruncatedLogError``.

Format 2 adds two frame kinds, appended to a log after (or between) the frames above, never rewriting a byte:

* ``J`` a judge intervention (``schemas.judge.Intervention``). A backup record abandons the frames from its
  ``from_frame`` on: they stay in the log as the abandoned branch, and the game's own frames go on after the judge
  frame (the kept part of the cut frame first), up to a new closing frame;
* ``S`` a signature (``schemas.keys.SignatureRecord``) over every byte before it. A log is re-signed after a judge
  appends to it, so the last frame of a finished tournament log is its signature.

The reader walks the frame headers once before reading (a few microseconds) to learn which frames a backup
abandoned; ``raw_frames`` and ``batches`` then give the game as it stands (the kept branch) and ``read_log`` also
gives the abandoned branches. A format 1 log holds only ``H``, ``B`` and ``C`` frames and reads as before.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import os
import re
import struct
import typing
import zlib
from bisect import bisect_right
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Final, NamedTuple

import msgspec
from xxhash import xxh3_128, xxh3_128_digest

from annals.schemas.archive import member_and_stat
from annals.schemas.errors import CorruptLogError, LogError, NotALogError, TruncatedLogError, UnsupportedFormatError
from annals.schemas.files import open_regular, read_whole_regular
from annals.schemas.header import JUDGE_REASON_PREFIX, LogClose, LogHeader, header_record
from annals.schemas.judge import Intervention
from annals.schemas.keys import SignatureRecord
from annals.schemas.records import Decision, Forfeited
from annals.schemas.rulesets import RulesetSchema, UnknownRulesetError, schema_for
from annals.schemas.validate import FrameCheck, LastEvent, Where, check_header, fast_checks

# The stand-in closing record's end reason of a log read at a pending backup (``read_log(backup_pending=True)``):
# a judge's, so a re-run goes only as far as the kept decisions (``engine.replay.rerun``)
BACKUP_PENDING: Final = f"{JUDGE_REASON_PREFIX}backup_pending"

MAGIC: Final = b"\x89ANNALS\n"
FORMAT_VERSION: Final = 2
SUPPORTED_FORMATS: Final = frozenset({1, 2})
FIRST_AMENDABLE_FORMAT: Final = 2  # judge and signature frames

KIND_HEADER: Final = ord("H")
KIND_BATCH: Final = ord("B")
KIND_CLOSE: Final = ord("C")
KIND_JUDGE: Final = ord("J")
KIND_SIGNATURE: Final = ord("S")
_KIND_NAMES: Final = {
    KIND_HEADER: "header", KIND_BATCH: "batch", KIND_CLOSE: "close", KIND_JUDGE: "judge", KIND_SIGNATURE: "signature"
}  # fmt: skip

_PREAMBLE = struct.Struct("<8sH")
_FRAME = struct.Struct("<cBII")  # 'F', kind, index, length
_FRAME_CRC = struct.Struct("<I")
FRAME_HEAD_SIZE: Final = _FRAME.size + _FRAME_CRC.size
DIGEST_SIZE: Final = 16
MAX_FRAME_BYTES: Final = 64 * 1024 * 1024  # a frame holds one turn or step; anything this large is damage
GROUP_BYTES: Final = 64 * 1024  # completed frames gather up to this much before one write() sends them
_CREATE: Final = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC  # a new log: never replaces a file
_OVERWRITE: Final = os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC  # no O_TRUNC: see ``LogWriter.__init__``

_encoder = msgspec.msgpack.Encoder()
_header_decoder = msgspec.msgpack.Decoder(LogHeader)
_close_decoder = msgspec.msgpack.Decoder(LogClose)
_judge_decoder = msgspec.msgpack.Decoder(Intervention)
_signature_decoder = msgspec.msgpack.Decoder(SignatureRecord)


try:
    from annals.schemas import _framecheck
    from annals.schemas._framecheck import six_values as _six_values
except ImportError:  # no compiler where annals was installed
    _framecheck = None  # type: ignore[assignment]
    _six_values = None  # type: ignore[assignment]

# What stops a frame's verification, in the order the reader checks a frame (the codes of schemas/_framelayer.h):
# both frame layers name a problem so, and ``LogReader._frame_error`` says it in words.
TORN_HEAD, BAD_HEAD, TOO_LONG, BAD_INDEX, TORN_BODY, BAD_DIGEST = range(6)
_BLANK_HEAD: Final = bytes(FRAME_HEAD_SIZE)
# Frames verified per call: enough that the call costs nothing beside them, few enough that the bytes just hashed
# are still in the cache when they are decoded (verifying a whole large log first would evict them).
SCAN_FRAMES: Final = 8


def fast_frames() -> bool:
    """Whether the frame layer runs in C (``schemas/_framelayer.h``): the extension is built and
    ``ANNALS_PURE_PYTHON`` does not ask for the Python reference."""
    return _framecheck is not None and fast_checks()


def six_values(d: Decision[Any]) -> tuple[int, int, int, str, list[Any], int]:
    """A decision as the log writes it when the table did not answer it: its first six fields."""
    return (d.n, d.at, d.player, d.point, d.offered, d.chosen)


def _first_link(format_version: int) -> bytes:
    return xxh3_128_digest(_PREAMBLE.pack(MAGIC, format_version))


class Batch(msgspec.Struct, frozen=True, gc=False):
    """One decoded batch frame: events and the decisions taken among them, with where the frame sat."""

    index: int
    offset: int
    events: list[Any]
    decisions: list[Any]


class LogWriter:
    """Appends whole frames to a new log file (or, through ``reopen``, to an existing one: judge and signature
    frames, a game played on after a backup), so that a crash leaves a readable prefix.

    Frames are written whole, several per ``write()`` system call: completed frames wait in memory until
    ``group_bytes`` have gathered (64 KiB by default), then go out together. ``group_bytes=0`` writes every frame
    the moment it is complete, for games recorded live (the runner uses it when a person is playing); ``flush()``
    writes what is waiting. ``durable=True`` also fsyncs at close.

    >>> import tempfile, pathlib
    >>> from annals.schemas.header import DeckList, LogClose, LogHeader, PlayerInfo, game_id_of
    >>> from annals.schemas.morana import TurnBegan
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "game.log"
    >>> seats, decks = [PlayerInfo("ann", "human"), PlayerInfo("bo", "human")], [DeckList("clash", [])] * 2
    >>> header = LogHeader(FORMAT_VERSION, "0.1.0", "morana", "1", "none", 7, seats, decks, max_turns=1)
    >>> header = msgspec.structs.replace(header, game_id=game_id_of(header))
    >>> writer = LogWriter(path, header)
    >>> writer.write_batch([TurnBegan(0, 2, "dawn", -1, 0)], [])
    >>> writer.close(LogClose(-1, "turn_cap", 1, 0, 2))
    >>> game = read_log(path)
    >>> game.events, game.close.end_reason, game.digest == writer.digest
    ([TurnBegan(n=0, turn=2, step='dawn', player=-1, initiative=0)], 'turn_cap', True)
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        header: LogHeader,
        *,
        group_bytes: int = GROUP_BYTES,
        durable: bool = False,
        overwrite: bool = False,
    ):
        self.path = path if isinstance(path, Path) else Path(path)  # (a Path made again costs 2 us a bot game)
        self._durable = durable
        self._group_bytes = group_bytes
        # A bare descriptor, written with ``os.write``: our own whole-frame groups are the only buffering, so no write
        # ever holds half a frame (and a file object would cost a bot game's log an fstat and 2 us of wrapping).
        # An existing file is never replaced (``FileExistsError``) unless ``overwrite`` says so: simulations, whose
        # file names are their game ids, write the same bytes again.
        # ``overwrite`` writes over the old bytes in place and cuts the file to its new length at the end (``finish``,
        # ``abandon``): truncating at open makes ext4 flush the file at close (its guard for files replaced by
        # truncation), 100 us a log against 15 us in place, a sixth of a MORANA bot game. A simulation rewrites
        # the same bytes (its logs are named by game id), so even a crash midway leaves the old log whole.
        self._cut = overwrite
        self._fd = os.open(self.path, _OVERWRITE if overwrite else _CREATE, 0o666)
        self._pending = bytearray(_PREAMBLE.pack(MAGIC, FORMAT_VERSION))
        self._index = 0
        self._link = _first_link(FORMAT_VERSION)
        self.format_version = FORMAT_VERSION
        self._fast = fast_frames()
        self._flushed = 0  # bytes on disk
        self._header_end = 1 << 62  # until the header frame is made: nothing on disk is a log yet
        try:
            self._frame(KIND_HEADER, header_record(header))  # written at once when group_bytes is 0
        except BaseException:
            self.abandon()  # a header the disk refused: no file is left
            raise
        self._header_end = len(self._pending) + self._flushed  # the preamble and header frame: a log needs both

    @classmethod
    def reopen(
        cls, path: str | os.PathLike[str], *, group_bytes: int = 0, read: tuple[LogReader, int] | None = None
    ) -> LogWriter:
        """Append to an existing log after verifying every frame of it (finished or cleanly cut: a torn tail is
        refused). Only format 2 logs take judge and signature frames. ``read``: a reader of ``path`` that has just
        read it to its end, and the offset ``read_to_end`` gave, to save reading it again."""
        reader, end = read if read is not None else (LogReader(path), -1)
        with reader:
            if end < 0:
                end = reader.read_to_end()
            if reader.format_version < FIRST_AMENDABLE_FORMAT:
                raise UnsupportedFormatError(
                    str(path),
                    f"log format {reader.format_version} cannot hold judge or signature frames (format "
                    f"{FIRST_AMENDABLE_FORMAT} and later can); it reads and replays as it is",
                    offset=8,
                )
            index, link, version = reader.frames_read, reader._link, reader.format_version
        writer = cls.__new__(cls)
        writer.path = Path(path)
        writer._durable = False
        writer._cut = False
        writer._group_bytes = group_bytes
        writer._fd = os.open(writer.path, os.O_WRONLY | os.O_CLOEXEC)  # closed by finish()
        os.lseek(writer._fd, end, os.SEEK_SET)
        writer._pending = bytearray()
        writer._flushed = end
        writer._header_end = 0  # a log already whole: abandoning an append never removes it
        writer._index = index
        writer._link = link
        writer.format_version = version
        writer._fast = fast_frames()
        return writer

    @property
    def frames(self) -> int:
        """How many frames the log holds (written or waiting)."""
        return self._index

    @property
    def digest(self) -> str:
        """The chain digest of the last frame written: identifies the whole log's content."""
        return self._link.hex()

    def _frame(self, kind: int, payload: object) -> None:
        if self._fast:  # encoded in place, after the frames waiting; header, CRC and digest made in C
            pending = self._pending
            start = len(pending)
            try:
                pending += _BLANK_HEAD
                _encoder.encode_into(payload, pending, start + FRAME_HEAD_SIZE)
                length = len(pending) - start - FRAME_HEAD_SIZE
                if length > MAX_FRAME_BYTES:
                    raise ValueError(f"frame of {length} bytes exceeds {MAX_FRAME_BYTES}; write smaller batches")
                self._link = _framecheck.seal(pending, start, kind, self._index, self._link)
            except BaseException:
                del pending[start:]  # only whole frames wait
                raise
            self._index += 1
            if len(pending) >= self._group_bytes:
                self.flush()
            return
        buf = bytearray(FRAME_HEAD_SIZE)
        _encoder.encode_into(payload, buf, FRAME_HEAD_SIZE)
        length = len(buf) - FRAME_HEAD_SIZE
        if length > MAX_FRAME_BYTES:
            raise ValueError(f"frame of {length} bytes exceeds {MAX_FRAME_BYTES}; write smaller batches")
        _FRAME.pack_into(buf, 0, b"F", kind, self._index, length)
        _FRAME_CRC.pack_into(buf, _FRAME.size, zlib.crc32(memoryview(buf)[: _FRAME.size]))
        link = xxh3_128(self._link)
        link.update(buf)
        self._link = link.digest()
        self._pending += buf
        self._pending += self._link
        self._index += 1
        if len(self._pending) >= self._group_bytes:
            self.flush()

    def flush(self) -> None:
        """Write every completed frame still waiting in memory."""
        if self._pending:
            view = memoryview(self._pending)
            while view:  # an unbuffered write may write less (a file-size limit, a nearly full disk): go on
                written = os.write(self._fd, view)
                if not written:
                    raise OSError(errno.ENOSPC, "no bytes could be written", str(self.path))
                self._flushed += written
                view = view[written:]
            del view
            self._pending = bytearray()

    def sync(self) -> None:
        """Write what is waiting and make the file so far durable (fsync): a live table does it before it writes
        anything beside the log that refers to the frames in it (``LOG.open``)."""
        self.flush()
        os.fsync(self._fd)

    def write_batch(self, events: list[Any], decisions: list[Any]) -> None:
        # A decision is written as its six fields unless the table answered it (``Decision.automatic``): the
        # seventh value is there only when true, so logs without automatic answers are what they always were.
        if decisions and type(decisions[0]) is Decision:
            if _six_values is not None:  # the same list, made in C (schemas/_framecheck.c)
                decisions = _six_values(decisions, Decision)
            else:
                decisions = [d if d.automatic else six_values(d) for d in decisions]
        self._frame(KIND_BATCH, (events, decisions))

    def write_judge(self, record: Intervention) -> None:
        self._frame(KIND_JUDGE, record)

    def write_signature(self, record: SignatureRecord) -> None:
        self._frame(KIND_SIGNATURE, record)

    def close(self, record: LogClose) -> None:
        self._frame(KIND_CLOSE, record)
        self.finish()

    def finish(self) -> None:
        """Write what is waiting and close the file (after appended judge or signature frames)."""
        self.flush()
        if self._cut:
            self._cut_tail()
        if self._durable:
            os.fsync(self._fd)
        os.close(self._fd)

    def _cut_tail(self) -> None:
        """An overwritten log longer than this one: its tail goes. Only then: a truncate to the length the file
        has already costs a third of opening, writing and closing a bot game's log; a seek to the end, a tenth."""
        if os.lseek(self._fd, 0, os.SEEK_END) > self._flushed:
            os.ftruncate(self._fd, self._flushed)

    def abandon(self, events: list[Any] | None = None, decisions: list[Any] | None = None) -> bool:
        """Write the completed frames (and a last batch of ``events`` and ``decisions``) and close without a
        closing record: the log then reads as a truncated game. When the disk refuses (full, a size limit) before
        the preamble and header are whole on it, what little there is could be read as nothing: the file is
        removed. Whether the file is kept."""
        try:
            if events or decisions:
                self.write_batch(events or [], decisions or [])
            self.flush()
        except OSError:
            pass  # the error that stopped the game says what went wrong; here only what is kept matters
        finally:
            if self._cut:  # what an overwritten log held past this game's bytes is not this game
                with contextlib.suppress(OSError):
                    self._cut_tail()
            with contextlib.suppress(OSError):
                os.close(self._fd)
        if self._flushed >= self._header_end:
            return True
        with contextlib.suppress(OSError):
            self.path.unlink()
        return False


def _schema_path(message: str) -> str:
    """Where msgspec says a value went wrong: ``$.players[0].name``, or the missing field's name."""
    found = re.search(r"at `(\$[^`]*)`", message) or re.search(r"field `([^`]+)`", message)
    return found.group(1) if found else "$"


_batch_decoders: dict[str, msgspec.msgpack.Decoder[Any]] = {}


def _batch_decoder(schema: RulesetSchema) -> msgspec.msgpack.Decoder[Any]:
    """One typed decoder per ruleset: making one costs more than reading a short log."""
    decoder = _batch_decoders.get(schema.name)
    if decoder is None:
        decoder = _batch_decoders[schema.name] = msgspec.msgpack.Decoder(schema.batch_type)
    return decoder


# A log up to this size is read in one call and its frames taken from memory (a game's log is tens of KiB): a
# read per frame header and body costs more than the checks, and each releases the GIL, which ingest threads then
# hand back and forth. A larger log is streamed.
READ_WHOLE_BYTES = 16 << 20


class SignatureSeen(msgspec.Struct, frozen=True):
    """A signature frame as read: its record, its frame index and byte offset (it signs bytes ``[0, offset)``) and
    the chain digest of the frame before it."""

    record: SignatureRecord
    frame: int
    offset: int
    digest: str


class JudgeSeen(msgspec.Struct, frozen=True):
    """A judge frame as read: its record and frame index."""

    record: Intervention
    frame: int


class _Plan(msgspec.Struct):
    """What the walk over the frame headers learnt: the kept branch and the branches backups abandoned."""

    kept: set[int] | range  # the kept batch frames (a range: every frame in it that is a batch)
    kept_close: int | None
    branches: list[tuple[list[int], int | None, int]]  # (batch frames, close frame, judge frame) of each
    problems: dict[int, str]  # frame index -> what is wrong with it, raised when the verified read reaches it


def plan_of(kinds: bytes | list[int], backups: dict[int, Intervention], first: int) -> _Plan:
    """The kept branch, abandoned branches and problems of frames of ``kinds`` numbered from ``first``, the judge
    frames among them that are backups in ``backups`` (``LogReader._walk``)."""
    if not backups and kinds.count(KIND_CLOSE) <= 1:
        # No backup, one close at most (nearly every log): the loop below would keep every batch frame and find no
        # problem; a range says so without a step per frame (only batch frames are looked up in it).
        last = first + kinds.index(KIND_CLOSE) if KIND_CLOSE in kinds else None
        return _Plan(range(first, first + len(kinds)), last, [], {})
    current: list[int] = []
    close: int | None = None
    plan = _Plan(set(), None, [], {})
    for index, kind in enumerate(kinds, first):
        if kind == KIND_BATCH:
            current.append(index)
        elif kind == KIND_CLOSE:
            if close is not None:
                plan.problems[index] = (
                    f"a second closing record (frame {close} closed the game; only a judge's backup reopens it)"
                )
            close = index
        elif index in backups:
            cut = backups[index].from_frame
            if cut not in current:
                plan.problems[index] = (
                    f"a backup names frame {cut} as the first it abandons, which is not a batch frame of the game "
                    "before it"
                )
                continue
            plan.branches.append((current, close, index))
            current = [i for i in current if i < cut]
            close = None
    plan.kept, plan.kept_close = set(current), close
    return plan


class LogReader:
    """Streams a log file frame by frame, verifying each before decoding it.

    Iterating ``batches()`` yields every complete batch of the game as it stands (a judge's backup leaves the
    abandoned frames out; ``keep_abandoned=True`` keeps their payloads in ``abandoned`` for ``read_log``); a torn
    tail raises ``TruncatedLogError`` after the last complete frame, any damage raises ``CorruptLogError`` naming
    the frame and byte offset. The header is checked when the reader opens and each batch as it is read
    (``schemas.validate``: an ``InconsistentLogError`` names the frame and field); ``close_record`` is set once the
    log has been read to its end, and ``check_counts()`` then checks it against everything read; ``judged`` and
    ``signatures`` hold the judge and signature frames read.
    """

    def __init__(self, path: str | os.PathLike[str], *, keep_abandoned: bool = False):
        self.path = path if isinstance(path, Path) else Path(path)
        self._name = str(path)
        member = member_and_stat(path)  # ARCHIVE#GAME_ID: one game's log bytes in an archive (schemas.archive)
        self._data: bytes | None = None  # the whole log, when it was read in one call: frames are sliced from it
        if member is not None:
            self._data = member[0]
            self._file: IO[bytes] = io.BytesIO(self._data)
            self.modified = member[1].st_mtime
        else:
            # only a regular file (a FIFO or a device would block or never end): a named error otherwise; one read
            # (of the size it has now), then frames from memory, unless it is large
            self._data, st = read_whole_regular(self.path, what="log", up_to=READ_WHOLE_BYTES)
            self.modified = st.st_mtime  # when the log (or its archive) was last written, as the reader found it
            if self._data is not None:
                self._file = io.BytesIO(self._data)
            else:  # streamed, from what the file holds when it is opened again
                self._file = open_regular(self.path, what="log")
        self._offset = 0
        self._index = 0
        self.close_record: LogClose | None = None
        self.close_at: tuple[int, int] = (-1, -1)  # the closing frame's index and byte offset, once read
        self.events_read = 0
        self.decisions_read = 0
        self.judged: list[JudgeSeen] = []
        self.signatures: list[SignatureSeen] = []
        self.keep_abandoned = keep_abandoned
        self.abandoned: dict[int, tuple[int, bytes]] = {}  # frame index -> (offset, payload)
        self.abandoned_closes: dict[int, LogClose] = {}
        self._close: LogClose | None = None
        self.links: set[bytes] | None = None  # a set here gathers the chain digest after every frame read from now
        self.last_event: Any = None  # the last event ``batches()`` decoded
        self.end_events = 0  # how many of them were the ruleset's end event
        # A log in memory has its frames verified ahead in C (``_scanned``), a run of them at a time, and handed out
        # one by one as the reference reads them; what stopped the run is raised when the reading reaches it.
        self._fast = self._data is not None and fast_frames()
        self._queue: list[tuple[int, int, int, bytes]] = []
        self._queued = 0  # how many of the queue have been handed out
        self._problem: tuple[int, int, int] | None = None
        self._next_frame = self._scanned if self._fast else self._verified
        # ``batches`` decodes payloads in place (a view of the log's bytes); ``raw_frames`` hands out copies
        self._view = memoryview(self._data) if self._fast and self._data is not None else None
        self._views = False
        try:
            self.format_version = self._read_preamble()
            self._link = _first_link(self.format_version)
            first = self._next_frame()
            if first is None:
                raise self._truncated("no header frame", self._offset)
            kind, payload, at = first
            if kind != KIND_HEADER:
                raise CorruptLogError(self._name, "first frame is not the header", frame=0, offset=at)
            self.header: LogHeader = self._decode(_header_decoder, payload, 0, at)
            self.header_at = at
            try:
                self.schema: RulesetSchema = schema_for(self.header.ruleset)
            except UnknownRulesetError as exc:
                raise CorruptLogError(self._name, str(exc), frame=0, offset=at, field="header: ruleset") from exc
            check_header(Where(self._name, 0, at), self.header, self.format_version)
            self.check = FrameCheck(self._name, self.header)
            self._plan = self._walk() if self.format_version >= FIRST_AMENDABLE_FORMAT else None
        except BaseException:
            self._file.close()
            raise

    def __enter__(self) -> LogReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._file.close()

    @property
    def digest(self) -> str:
        """Chain digest of the last frame read; after a full read, equals the writer's ``digest``."""
        return self._link.hex()

    @property
    def frames_read(self) -> int:
        return self._index

    @property
    def branches(self) -> list[tuple[list[int], int | None, int]]:
        """Each abandoned branch: its batch frames (in order), its closing frame if it had one, the judge frame."""
        return self._plan.branches if self._plan is not None else []

    def _walk(self) -> _Plan:
        """Walk the frame headers after the header frame (unverified: the read proper checks every byte) to learn
        which frames a backup abandoned. Stops quietly at anything odd, which the read proper then reports."""
        kinds, backups = self._heads_in_c() if self._fast else self._heads()
        return plan_of(kinds, backups, self._index)

    def _heads(self) -> tuple[list[int], dict[int, Intervention]]:
        """The kind of each frame from the reading position on, and the backups among the judge frames."""
        start = self._offset
        kinds: list[int] = []
        backups: dict[int, Intervention] = {}
        f = self._file
        f.seek(start)  # frames read from memory do not move the file's position
        index = self._index
        while True:
            head = f.read(FRAME_HEAD_SIZE)
            if len(head) < FRAME_HEAD_SIZE:
                break
            tag, kind, _, length = _FRAME.unpack_from(head)
            if tag != b"F" or length > MAX_FRAME_BYTES:
                break
            if kind == KIND_JUDGE:
                try:
                    record = _judge_decoder.decode(f.read(length))
                except msgspec.DecodeError:
                    break
                if record.kind == "backup":
                    backups[index] = record
                f.seek(DIGEST_SIZE, io.SEEK_CUR)
            else:
                f.seek(length + DIGEST_SIZE, io.SEEK_CUR)
            kinds.append(kind)
            index += 1
        f.seek(start)
        return kinds, backups

    def _heads_in_c(self) -> tuple[bytes, dict[int, Intervention]]:
        """``_heads`` of a log in memory, the walk made in C; the judge frames decoded here, as there."""
        data = self._data
        assert data is not None
        kinds, judges = _framecheck.heads(data, self._offset, MAX_FRAME_BYTES)
        backups: dict[int, Intervention] = {}
        for position, start, stop in judges:
            try:
                record = _judge_decoder.decode(data[start:stop])
            except msgspec.DecodeError:
                return kinds[:position], backups  # the walk stops at it, the frame left out
            if record.kind == "backup":
                backups[self._index + position] = record
        return kinds, backups

    def _read_preamble(self) -> int:
        raw = self._file.read(_PREAMBLE.size)
        if len(raw) < _PREAMBLE.size or not raw.startswith(MAGIC[: len(raw)]):
            if not MAGIC.startswith(raw[: len(MAGIC)]):
                raise NotALogError(self._name, "not an annals log (bad magic bytes)", offset=0)
            raise TruncatedLogError(self._name, "file ends inside the preamble", frame=0, offset=0, complete_frames=0)
        magic, version = _PREAMBLE.unpack(raw)
        if magic != MAGIC:
            raise NotALogError(self._name, "not an annals log (bad magic bytes)", offset=0)
        if version not in SUPPORTED_FORMATS:
            supported = ", ".join(str(v) for v in sorted(SUPPORTED_FORMATS))
            raise UnsupportedFormatError(
                self._name,
                f"log format version {version} is not supported; this annals reads version(s) {supported}: "
                "upgrade annals to read it",
                offset=8,
            )
        self._offset = _PREAMBLE.size
        return int(version)

    def _truncated(self, what: str, at: int) -> TruncatedLogError:
        return TruncatedLogError(
            self._name,
            f"log is truncated: {what}; the {self._index} frame(s) before byte {at} are intact",
            frame=self._index,
            offset=at,
            complete_frames=self._index,
        )

    def _after_close(self, error: LogError) -> LogError:
        """Damage after a complete game: name it as bytes after the closing record."""
        if self._close is None:
            return error
        return CorruptLogError(
            self._name, f"unexpected bytes after the closing record ({error.reason})", frame=self._index,
            offset=self._offset,
        )  # fmt: skip

    def _frame_error(self, what: int, at: int, value: int = 0) -> LogError:
        """The named error of a frame that fails verification (``what``: one of ``TORN_HEAD`` ... ``BAD_DIGEST``),
        the same from either frame layer."""
        if what == TORN_HEAD:
            return self._after_close(self._truncated("file ends inside a frame header", at))
        if what == BAD_HEAD:
            error = CorruptLogError(
                self._name, "frame header is damaged (bad marker or CRC)", frame=self._index, offset=at
            )
            return self._after_close(error)
        if what == TORN_BODY:
            return self._after_close(self._truncated("file ends inside a frame", at))
        reason = {
            TOO_LONG: f"frame length {value} exceeds the maximum {MAX_FRAME_BYTES}",
            BAD_INDEX: f"frame index {value} found where {self._index} was expected (frames reordered or removed)",
            BAD_DIGEST: "chain digest mismatch (frame content edited, swapped or damaged)",
        }[what]
        return CorruptLogError(self._name, reason, frame=self._index, offset=at)

    def _scanned(self) -> tuple[int, bytes | memoryview, int] | None:
        """``_next_frame`` of a log in memory: the next frame the C frame layer verified (``_framecheck.scan``)."""
        data = self._data
        assert data is not None
        queued = self._queued
        if queued == len(self._queue):
            if self._problem is not None:
                raise self._frame_error(*self._problem)
            if self._offset >= len(data):
                return None
            # the header frame alone when the reader opens (a reader may want no more), then a few at a time
            limit = 1 if self._index == 0 else SCAN_FRAMES
            scan = _framecheck.scan(data, self._offset, self._index, self._link, limit, MAX_FRAME_BYTES)
            self._queue, self._problem, queued = scan[0], scan[4], 0
            if not self._queue:
                assert self._problem is not None
                raise self._frame_error(*self._problem)
        kind, at, length, digest = self._queue[queued]
        self._queued = queued + 1
        self._link = digest
        if self.links is not None:
            self.links.add(digest)
        start = at + FRAME_HEAD_SIZE
        self._offset = start + length + DIGEST_SIZE
        self._index += 1
        source = self._view if self._views and self._view is not None else data
        return kind, source[start : start + length], at

    def _verified(self) -> tuple[int, bytes | memoryview, int] | None:
        """Read and verify the next frame; return (kind, payload, offset of the frame), or None at a clean end (the
        reference frame layer: ``_next_frame`` of a reader on the Python frame layer)."""
        at = self._offset
        data = self._data
        head = self._file.read(FRAME_HEAD_SIZE) if data is None else data[at : at + FRAME_HEAD_SIZE]
        if not head:
            return None
        if len(head) < FRAME_HEAD_SIZE:
            raise self._frame_error(TORN_HEAD, at)
        tag, kind, index, length = _FRAME.unpack_from(head)
        (crc,) = _FRAME_CRC.unpack_from(head, _FRAME.size)
        if tag != b"F" or crc != zlib.crc32(head[: _FRAME.size]):
            raise self._frame_error(BAD_HEAD, at)
        if length > MAX_FRAME_BYTES:
            raise self._frame_error(TOO_LONG, at, length)
        if index != self._index:
            raise self._frame_error(BAD_INDEX, at, index)
        start = at + FRAME_HEAD_SIZE
        if data is None:
            body = self._file.read(length + DIGEST_SIZE)
            payload, stored = body[:length], body[length:]
        else:  # one copy of the payload, not two
            payload, stored = data[start : start + length], data[start + length : start + length + DIGEST_SIZE]
        if len(payload) + len(stored) < length + DIGEST_SIZE:
            raise self._frame_error(TORN_BODY, at)
        link = xxh3_128(self._link)
        link.update(head)
        link.update(payload)
        digest = link.digest()
        if digest != stored:
            raise self._frame_error(BAD_DIGEST, at)
        self._link = digest
        if self.links is not None:
            self.links.add(digest)
        self._offset = start + length + DIGEST_SIZE
        self._index += 1
        return kind, payload, at

    def _decode(self, decoder: msgspec.msgpack.Decoder[Any], payload: bytes | memoryview, index: int, at: int) -> Any:
        try:
            return decoder.decode(payload)
        except msgspec.DecodeError as exc:
            record = "header" if index == 0 else "close" if decoder is _close_decoder else "batch"
            raise CorruptLogError(
                self._name,
                f"payload does not match the schema: {exc}",
                frame=index,
                offset=at,
                field=f"{record}: {_schema_path(str(exc))}",
            ) from exc

    def raw_frames(self) -> Iterator[tuple[int, int, bytes]]:
        """Verified (index, offset, payload) of each batch frame of the game as it stands, undecoded; reads the
        judge and signature frames and the closing record on the way, to the end of the file."""
        return typing.cast(Iterator[tuple[int, int, bytes]], self._frames(views=False))  # copies: bytes

    def _frames(self, *, views: bool) -> Iterator[tuple[int, int, bytes | memoryview]]:
        """``raw_frames``, its payloads views of the log's bytes where ``views`` allows (a log in memory, on the C
        frame layer): ``batches`` decodes them in place."""
        self._views = views
        plan = self._plan
        while True:
            link = self._link
            index = self._index
            frame = self._next_frame()
            if frame is None:
                if self._close is None:
                    raise self._truncated("no closing record", self._offset)
                self.close_record = self._close
                return
            kind, payload, at = frame
            if plan is None:  # format 1: batches, then one close, then nothing
                if kind == KIND_BATCH and self._close is None:
                    yield index, at, payload
                    continue
                if kind == KIND_CLOSE and self._close is None:
                    self._close = self._decode(_close_decoder, payload, index, at)
                    self.close_at = (index, at)
                    continue
                if self._close is not None:
                    raise CorruptLogError(
                        self._name, "unexpected bytes after the closing record", frame=index, offset=at
                    )
            elif index in plan.problems:
                raise CorruptLogError(self._name, plan.problems[index], frame=index, offset=at)
            elif kind == KIND_BATCH:
                if index in plan.kept:
                    if self._close is not None:
                        raise CorruptLogError(
                            self._name, "a batch frame after the closing record", frame=index, offset=at
                        )
                    yield index, at, payload
                elif self.keep_abandoned:
                    self.abandoned[index] = (at, bytes(payload))
                continue
            elif kind == KIND_CLOSE:
                record = self._decode(_close_decoder, payload, index, at)
                if index == plan.kept_close:
                    self._close = record
                    self.close_at = (index, at)
                else:
                    self.abandoned_closes[index] = record
                continue
            elif kind == KIND_JUDGE:
                self.judged.append(JudgeSeen(self._decode(_judge_decoder, payload, index, at), index))
                continue
            elif kind == KIND_SIGNATURE:
                record = self._decode(_signature_decoder, payload, index, at)
                self.signatures.append(SignatureSeen(record, index, at, link.hex()))
                continue
            name = _KIND_NAMES.get(kind, repr(chr(kind)))
            raise CorruptLogError(self._name, f"unexpected {name} frame", frame=index, offset=at)

    def sha256_prefixes(self, ends: list[int]) -> dict[int, str]:
        """The SHA-256 (hex) of the file's bytes ``[0, end)`` for each of ``ends``, in one pass (before ``close``)."""
        digest = hashlib.sha256()
        done, hashes = 0, {}
        self._file.seek(0)
        for end in sorted(set(ends)):
            digest.update(self._file.read(end - done))
            done = end
            hashes[end] = digest.copy().hexdigest()
        self._file.seek(self._offset)
        return hashes

    def read_to_end(self) -> int:
        """Verify every remaining frame, without decoding batches; return the byte offset where the last complete
        frame ends. A log without a closing record (a game in progress, or backed up) is read to its end too."""
        try:
            for _ in self._frames(views=True):  # nothing kept: no copies
                pass
        except TruncatedLogError as exc:
            if exc.reason.startswith("log is truncated: no closing record"):
                return self._offset
            raise
        return self._offset

    def batches(self) -> Iterator[Batch]:
        decoder = _batch_decoder(self.schema)
        end = self.schema.end_event
        decode = decoder.decode
        typed = self.check.typed
        for index, at, payload in self._frames(views=True):
            try:
                events, decisions = decode(payload)
            except msgspec.DecodeError:
                events, decisions = self._decode(decoder, payload, index, at)  # raises, naming the frame and field
            self.end_events += typed(index, at, events, decisions, end)
            if events:
                self.last_event = events[-1]
            self.events_read += len(events)
            self.decisions_read += len(decisions)
            yield Batch(index, at, events, decisions)

    def check_counts(self) -> None:
        """After ``batches()`` is exhausted: the closing record must be the result of what was read (its counts,
        turns, winner and reason; see ``schemas.validate``)."""
        record = self.close_record
        assert record is not None, "check_counts() before the log was read to its end"
        last = self.last_event
        end = self.schema.end_event
        facts = None
        if last is not None:
            ended = type(last) is end or type(last) is Forfeited
            facts = LastEvent(
                type(last).__name__,
                last.turn,
                getattr(last, "winner", None) if ended else None,
                getattr(last, "reason", None) if ended else None,
            )
        where = Where(self._name, *self.close_at)
        self.check.close(where, record, facts, end.__name__ if end is not None else None, self.end_events)

    @property
    def result(self) -> tuple[int, str]:
        """The game's result as it stands: the closing record's, unless a judge's game loss or override after the
        last backup set another (the last of them counts); its end reason is then ``judge_<kind>``."""
        assert self.close_record is not None, "result before the log was read to its end"
        return judged_result(self.close_record, [j.record for j in self.judged])


class FrameSpan(NamedTuple):
    """Where a batch frame sits and which records it holds: for errors that name the frame of an event."""

    frame: int
    offset: int
    first_event: int
    first_decision: int


def judged_result(close: LogClose, judged: list[Intervention]) -> tuple[int, str]:
    winner, reason = close.winner, close.end_reason
    for record in judged:
        if record.kind == "backup":
            winner, reason = close.winner, close.end_reason
        given = record.result()
        if given is not None:
            winner, reason = given, f"judge_{record.kind}"
    return winner, reason


class AbandonedBranch(msgspec.Struct):
    """A branch a judge's backup abandoned: the game as it had been played up to the backup."""

    backup: Intervention
    judge_frame: int
    events: list[Any]
    decisions: list[Any]
    close: LogClose | None


class GameLog(msgspec.Struct):
    """A whole log in memory: for tests, replay and small tools (the reader streams for everything else)."""

    header: LogHeader
    events: list[Any]
    decisions: list[Any]
    close: LogClose
    digest: str
    judged: list[JudgeSeen] = []
    signatures: list[SignatureSeen] = []
    branches: list[AbandonedBranch] = []
    format_version: int = FORMAT_VERSION

    @property
    def result(self) -> tuple[int, str]:
        """The result as it stands (see ``LogReader.result``)."""
        return judged_result(self.close, [j.record for j in self.judged])

    frames: list[FrameSpan] = []  # the batch frames, in order
    header_at: int = -1  # the header frame's byte offset
    close_at: tuple[int, int] = (-1, -1)  # the closing frame's index and byte offset
    backup_pending: Intervention | None = None  # read with ``backup_pending``: the backup the game stands at

    def frame_of_event(self, n: int) -> tuple[int, int]:
        """(frame index, byte offset) of the frame holding event ``n`` (the closing frame's, past the last)."""
        i = bisect_right([f.first_event for f in self.frames], n) - 1
        if i < 0 or n >= len(self.events):
            return self.close_at
        return self.frames[i].frame, self.frames[i].offset

    def frame_of_decision(self, k: int) -> tuple[int, int]:
        i = bisect_right([f.first_decision for f in self.frames], k) - 1
        if i < 0 or k >= len(self.decisions):
            return self.close_at
        return self.frames[i].frame, self.frames[i].offset


def _pending_backup(reader: LogReader, events: list[Any], decisions: list[Any]) -> Intervention | None:
    """The judge's backup a log read to its end without a closing record stands at, if it does: its last judge
    record is a backup and the game holds exactly the events and decisions the backup kept (``annals resume`` has
    not played on). None for a log cut short any other way."""
    last = reader.judged[-1].record if reader.judged else None
    if last is None or last.kind != "backup":
        return None
    return last if (len(events), len(decisions)) == (last.events, last.to_decision) else None


def read_log(path: str | os.PathLike[str], *, backup_pending: bool = False) -> GameLog:
    """Read and verify a whole log; raises the named error of the first problem found.

    ``backup_pending``: a log a judge has backed up and nobody has resumed yet (no closing record, the game at the
    backup's cut) is read too, as the game at the cut: its ``close`` stands in (no winner, end reason
    ``BACKUP_PENDING``, the counts of the cut) and ``GameLog.backup_pending`` holds the backup. ``annals show``,
    ``verify`` and ``position`` read logs so, for the judge showing the players the restored position."""
    with LogReader(path, keep_abandoned=True) as reader:
        events: list[Any] = []
        decisions: list[Any] = []
        by_frame: dict[int, tuple[list[Any], list[Any]]] = {}
        frames: list[FrameSpan] = []
        pending: Intervention | None = None
        try:
            for batch in reader.batches():
                frames.append(FrameSpan(batch.index, batch.offset, len(events), len(decisions)))
                events.extend(batch.events)
                decisions.extend(batch.decisions)
                by_frame[batch.index] = (batch.events, batch.decisions)
        except TruncatedLogError as exc:
            if not (backup_pending and exc.reason.startswith("log is truncated: no closing record")):
                raise
            pending = _pending_backup(reader, events, decisions)
            if pending is None:
                raise
            turns = events[-1].turn if events else 0
            closing = LogClose(-1, BACKUP_PENDING, len(events), len(decisions), turns)
        else:
            reader.check_counts()
            assert reader.close_record is not None
            closing = reader.close_record
        decoder = _batch_decoder(reader.schema)
        for index, (at, payload) in reader.abandoned.items():
            by_frame[index] = reader._decode(decoder, payload, index, at)
        judged = {j.frame: j.record for j in reader.judged}
        branches = []
        for branch_frames, close, judge in reader.branches:
            b_events = [e for f in branch_frames for e in by_frame[f][0]]
            b_decisions = [d for f in branch_frames for d in by_frame[f][1]]
            b_close = None if close is None else reader.abandoned_closes.get(close)
            branches.append(AbandonedBranch(judged[judge], judge, b_events, b_decisions, b_close))
        return GameLog(
            reader.header, events, decisions, closing, reader.digest, reader.judged, reader.signatures,
            branches, reader.format_version, frames, reader.header_at, reader.close_at, pending,
        )  # fmt: skip
