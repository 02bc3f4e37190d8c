"""Rewriting a log's records with their checksums and chain recomputed, so that only the content checks stand.

Parses the frame format of ``schemas.logfile`` on its own (preamble, then ``'F' | kind | index | length | CRC``,
payload, chain digest) and writes it back with every CRC and chain digest made anew: what a forger who knows the
format writes. ``rederive`` also puts the header's derived game id back (``schemas.validate.game_id_of``).
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from typing import Any, NamedTuple

import msgspec
from xxhash import xxh3_128

from annals.schemas.header import LogHeader, game_id_of

_PREAMBLE = struct.Struct("<8sH")
_FRAME = struct.Struct("<cBII")
_CRC = struct.Struct("<I")
_DIGEST = 16


class Frame(NamedTuple):
    kind: str  # "H", "B" or "C"
    payload: bytes


def read_frames(path: Path) -> tuple[bytes, list[Frame]]:
    """The preamble and every frame's kind and payload, checked for nothing."""
    data = path.read_bytes()
    preamble = data[: _PREAMBLE.size]
    frames, at = [], _PREAMBLE.size
    while at < len(data):
        _, kind, _, length = _FRAME.unpack_from(data, at)
        start = at + _FRAME.size + _CRC.size
        frames.append(Frame(chr(kind), data[start : start + length]))
        at = start + length + _DIGEST
    return preamble, frames


def write_frames(path: Path, preamble: bytes, frames: list[Frame]) -> None:
    """The frames written with fresh indexes, header CRCs and chain digests (the first link hashes the
    preamble)."""
    out = bytearray(preamble)
    link = xxh3_128(preamble).digest()
    for index, frame in enumerate(frames):
        head = _FRAME.pack(b"F", ord(frame.kind), index, len(frame.payload))
        head += _CRC.pack(zlib.crc32(head))
        chain = xxh3_128(link)
        chain.update(head)
        chain.update(frame.payload)
        link = chain.digest()
        out += head + frame.payload + link
    path.write_bytes(bytes(out))


def rederive(header_payload: bytes) -> bytes:
    """The header payload with its ``game_id`` set to the id derived from the rest."""
    fields = msgspec.msgpack.decode(header_payload)
    try:
        header = msgspec.msgpack.decode(header_payload, type=LogHeader)
    except msgspec.DecodeError:
        return header_payload  # not a header the reader decodes: nothing to derive from
    if isinstance(fields, dict):
        fields["game_id"] = game_id_of(header)
    return msgspec.msgpack.encode(fields)


def edit_payload(path: Path, frame: int, value: Any, *, target: Path | None = None, rederive_id: bool = False) -> Path:
    """``path`` with frame ``frame``'s payload replaced by ``value`` (plain msgpack data), rechained."""
    preamble, frames = read_frames(path)
    payload = msgspec.msgpack.encode(value)
    if rederive_id and frames[frame].kind == "H":
        payload = rederive(payload)
    frames[frame] = Frame(frames[frame].kind, payload)
    out = target or path
    write_frames(out, preamble, frames)
    return out
