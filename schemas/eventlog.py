"""An event's record, ``event.log``: the game log's framing (``schemas.logfile``) holding an event's acts.

Layout: the game log's, byte for byte, with its own magic so that neither is mistaken for the other::

    preamble   EVENT_MAGIC (8 bytes) + format version (u16, little-endian)
    frame*     'F' | kind (1 byte) | index (u32) | length (u32) | header CRC-32 (u32)
               payload (length bytes, msgpack)
               chain digest (16 bytes) = XXH3-128(previous digest | frame header | payload)

Kinds: ``A`` one act (``schemas.event.AnyAct``) and ``S`` a signature (``schemas.keys.SignatureRecord``, its
``game_id`` the event id) over every byte before it, exactly as a game log's signature frame. Each command appends
its acts and then a signature in one write: the last frame of a whole record is a signature, and every act is
signed. The chain finds damage, swaps and removals; the signature, made with the event's private key over a SHA-256
of the bytes, finds an edit that was re-chained, and says who recorded it.
"""

from __future__ import annotations

import hashlib
import zlib
from pathlib import Path
from typing import Any, Final

import msgspec
from xxhash import xxh3_128

from annals.schemas.errors import CorruptLogError, NotALogError, TruncatedLogError, UnsupportedFormatError
from annals.schemas.event import AnyAct
from annals.schemas.keys import PublicKey, SignatureRecord, SigningKey

# The frame layout is the game log's (schemas.logfile), shared on purpose: one codec, two kinds of record.
from annals.schemas.logfile import _FRAME, _FRAME_CRC, _PREAMBLE, DIGEST_SIZE, FRAME_HEAD_SIZE, MAX_FRAME_BYTES

EVENT_MAGIC: Final = b"\x89ANNEVT\n"
EVENT_LOG_FORMAT: Final = 1
KIND_ACT: Final = ord("A")
KIND_SIGNATURE: Final = ord("S")

_encoder = msgspec.msgpack.Encoder()
_act_decoder = msgspec.msgpack.Decoder(AnyAct)
_signature_decoder = msgspec.msgpack.Decoder(SignatureRecord)


class SignedSpan(msgspec.Struct, frozen=True):
    """A signature frame as read: its record, its frame index, its byte offset (it signs ``[0, offset)``) and the
    chain digest of the frame before it."""

    record: SignatureRecord
    frame: int
    offset: int
    digest: str


class EventRecord(msgspec.Struct):
    """An event log read and chain-checked to its end: its acts (with each one's frame index), its signatures, the
    final chain digest and the number of frames."""

    acts: list[AnyAct]
    act_frames: list[int]
    signatures: list[SignedSpan]
    digest: str
    frames: int
    size: int


def _first_link() -> bytes:
    return xxh3_128(_PREAMBLE.pack(EVENT_MAGIC, EVENT_LOG_FORMAT)).digest()


def _frame(kind: int, index: int, payload: bytes, link: bytes) -> tuple[bytes, bytes]:
    head = bytearray(_FRAME.pack(b"F", kind, index, len(payload)))
    head += _FRAME_CRC.pack(zlib.crc32(head))
    chained = xxh3_128(link)
    chained.update(head)
    chained.update(payload)
    digest = chained.digest()
    return bytes(head) + payload + digest, digest


def read_event_log(path: Path, data: bytes | None = None, *, after: EventRecord | None = None) -> EventRecord:
    """Read and check every frame of the record at ``path`` (its CRCs, indices and chain); a named error locates
    the first problem (``TruncatedLogError`` for a torn tail, ``CorruptLogError`` for damage). ``after``: the record
    as read from the first ``after.size`` bytes of ``data``, which the caller knows unchanged (it wrote them): only
    the frames after them are read."""
    name = str(path)
    raw = path.read_bytes() if data is None else data
    if after is not None:
        return _frames(name, raw, bytes.fromhex(after.digest), after.size, after.frames,
                       EventRecord(list(after.acts), list(after.act_frames), list(after.signatures), after.digest,
                                   after.frames, len(raw)))  # fmt: skip
    if len(raw) < _PREAMBLE.size:
        if EVENT_MAGIC.startswith(raw[: len(EVENT_MAGIC)]):
            raise TruncatedLogError(name, "file ends inside the preamble", frame=0, offset=0, complete_frames=0)
        raise NotALogError(name, "not an annals event record (bad magic bytes)", offset=0)
    magic, version = _PREAMBLE.unpack_from(raw)
    if magic != EVENT_MAGIC:
        raise NotALogError(name, "not an annals event record (bad magic bytes)", offset=0)
    if version != EVENT_LOG_FORMAT:
        raise UnsupportedFormatError(name, f"event record format {version} is not supported (this annals reads "
                                     f"{EVENT_LOG_FORMAT}): upgrade annals to read it", offset=8)  # fmt: skip
    link = _first_link()
    return _frames(name, raw, link, _PREAMBLE.size, 0, EventRecord([], [], [], link.hex(), 0, len(raw)))


def _reads_now(kind: int, payload: bytes) -> str:
    """What an edited act's frame reads now, when it still decodes (a name or a score typed over by hand): the
    organiser sees which act was touched, not just a byte offset. The value before the edit is gone."""
    if kind != KIND_ACT:
        return ""
    try:
        fields = msgspec.to_builtins(_act_decoder.decode(payload))
    except (msgspec.DecodeError, msgspec.ValidationError):
        return ""
    tag, at = fields.pop("act", "?"), fields.pop("at", "?")
    text = ", ".join(_field(k, v) for k, v in fields.items())
    text = text if len(text) <= 300 else text[:300] + "..."
    return f"; the act edited is a '{tag}' recorded at {at}, which reads now: {text}"


def _field(key: str, value: Any) -> str:
    """``key value`` with a struct's plain fields only (a deck's card list is no help in finding an edit)."""
    if isinstance(value, dict):
        plain = {k: v for k, v in value.items() if isinstance(v, (str, int, float, bool))}
        return f"{key} {msgspec.json.encode(plain).decode()}"
    if isinstance(value, list):
        return f"{key} [{len(value)} entries]"
    return f"{key} {msgspec.json.encode(value).decode()}"


def _frames(name: str, raw: bytes, link: bytes, at: int, index: int, record: EventRecord) -> EventRecord:
    """Read the frames of ``raw`` from byte ``at`` (frame ``index``, chained from ``link``) into ``record``."""
    while at < len(raw):
        if len(raw) - at < FRAME_HEAD_SIZE:
            raise TruncatedLogError(name, f"record is truncated: file ends inside a frame header; the {index} "
                                    f"frame(s) before byte {at} are intact", frame=index, offset=at,
                                    complete_frames=index)  # fmt: skip
        tag, kind, found, length = _FRAME.unpack_from(raw, at)
        (crc,) = _FRAME_CRC.unpack_from(raw, at + _FRAME.size)
        if tag != b"F" or crc != zlib.crc32(raw[at : at + _FRAME.size]):
            raise CorruptLogError(name, "frame header is damaged (bad marker or CRC)", frame=index, offset=at)
        if found != index:
            raise CorruptLogError(name, f"frame index {found} found where {index} was expected (frames reordered "
                                  "or removed)", frame=index, offset=at)  # fmt: skip
        if length > MAX_FRAME_BYTES:
            raise CorruptLogError(name, f"frame length {length} exceeds the maximum", frame=index, offset=at)
        end = at + FRAME_HEAD_SIZE + length
        if end + DIGEST_SIZE > len(raw):
            raise TruncatedLogError(name, f"record is truncated: file ends inside a frame; the {index} frame(s) "
                                    f"before byte {at} are intact", frame=index, offset=at,
                                    complete_frames=index)  # fmt: skip
        chained = xxh3_128(link)
        chained.update(raw[at:end])
        digest = chained.digest()
        if digest != raw[end : end + DIGEST_SIZE]:
            now = _reads_now(kind, raw[at + FRAME_HEAD_SIZE : end])
            raise CorruptLogError(name, f"chain digest mismatch (an act edited, swapped or damaged){now}",
                                  frame=index, offset=at)  # fmt: skip
        payload = raw[at + FRAME_HEAD_SIZE : end]
        try:
            if kind == KIND_ACT:
                record.acts.append(_act_decoder.decode(payload))
                record.act_frames.append(index)
            elif kind == KIND_SIGNATURE:
                record.signatures.append(SignedSpan(_signature_decoder.decode(payload), index, at, link.hex()))
            else:
                raise CorruptLogError(name, f"unexpected frame kind {chr(kind)!r}", frame=index, offset=at)
        except msgspec.DecodeError as exc:
            # the chain digest held: the frame is as written, by an annals that knows acts this one does not
            raise CorruptLogError(name, f"payload does not match the schema: {exc}; the frame is intact (its chain "
                                  "digest holds), so a newer annals most likely wrote it: upgrade this one (annals "
                                  "--version says which it is) and read the record again; nothing was changed",
                                  frame=index, offset=at) from None  # fmt: skip
        link = digest
        at = end + DIGEST_SIZE
        index += 1
    record.digest, record.frames = link.hex(), index
    return record


def signed_acts(
    raw: bytes, record: EventRecord, event_id: str, key: SigningKey, acts: list[AnyAct], *, sha: Any = None
) -> bytes:
    """The bytes that append ``acts`` and a signature by ``key`` to the record ``raw`` (already read as ``record``):
    written by the caller in one write. ``sha``: a SHA-256 (``hashlib``) of ``raw`` already made, to spare hashing
    it again (it is not changed)."""
    link = bytes.fromhex(record.digest)
    index = record.frames
    out = bytearray()
    for act in acts:
        frame, link = _frame(KIND_ACT, index, _encoder.encode(act), link)
        out += frame
        index += 1
    sha = hashlib.sha256(raw) if sha is None else sha.copy()
    sha.update(out)
    unsigned = SignatureRecord(event_id, link.hex(), index, sha.hexdigest(), key.fingerprint, key.public.raw, b"",
                               key.name)  # fmt: skip
    signed = msgspec.structs.replace(unsigned, signature=key.sign(unsigned.message()))
    frame, _ = _frame(KIND_SIGNATURE, index, _encoder.encode(signed), link)
    return bytes(out) + frame


def new_event_log() -> bytes:
    """The preamble of an empty record."""
    return _PREAMBLE.pack(EVENT_MAGIC, EVENT_LOG_FORMAT)


def signature_problems(raw: bytes, record: EventRecord, event_id: str, trusted: PublicKey) -> list[str]:
    """What is wrong with the record's signatures (nothing: an empty list): each must hold, be made by ``trusted``
    for this event, and the last frame must be a signature (every act signed)."""
    problems: list[str] = []
    if not record.signatures:
        return ["the record is unsigned: no signature frame"]
    sha = hashlib.sha256()
    done = 0
    for seen in record.signatures:
        sha.update(raw[done : seen.offset])
        done = seen.offset
        r = seen.record
        where = f"signature (frame {seen.frame})"
        if r.game_id != event_id:
            problems.append(f"{where} was made for event {r.game_id!r}, not {event_id!r} (copied from another record)")
        elif (r.digest, r.frames) != (seen.digest, seen.frame):
            problems.append(
                f"{where} signs {r.frames} frame(s) ending in {r.digest}, but {seen.frame} frame(s) ending in "
                f"{seen.digest} precede it: the record was edited after it was signed"
            )
        elif r.key != trusted.fingerprint or r.public_key != trusted.raw:
            problems.append(f"{where} is by key {r.key}, not the event's key {trusted.fingerprint}")
        elif not trusted.verifies(r.signature, r.message()):
            problems.append(f"{where}: the Ed25519 signature does not verify (forged or damaged)")
        elif sha.hexdigest() != r.sha256:
            problems.append(f"{where}: the bytes before it are not the bytes signed (edited and re-chained)")
    last = record.signatures[-1].frame
    if last != record.frames - 1:
        problems.append(f"{record.frames - 1 - last} frame(s) after the last signature (frame {last}) are unsigned: "
                        "appended without the event's key")  # fmt: skip
    return problems


def frame_links(raw: bytes) -> list[tuple[int, str]]:
    """Each frame's (kind, chain digest after it) of a file in the annals framing (a game log or an event record),
    walked without decoding: for finding where a log stood when its digest was recorded (a judge may append to a
    log later; what came before stays byte for byte). Stops at the first frame that does not hold."""
    out: list[tuple[int, str]] = []
    if len(raw) < _PREAMBLE.size:
        return out
    link = xxh3_128(raw[: _PREAMBLE.size]).digest()
    at = _PREAMBLE.size
    while at + FRAME_HEAD_SIZE <= len(raw):
        tag, kind, _, length = _FRAME.unpack_from(raw, at)
        end = at + FRAME_HEAD_SIZE + length
        if tag != b"F" or end + DIGEST_SIZE > len(raw):
            break
        chained = xxh3_128(link)
        chained.update(raw[at:end])
        link = chained.digest()
        if link != raw[end : end + DIGEST_SIZE]:
            break
        out.append((kind, link.hex()))
        at = end + DIGEST_SIZE
    return out
