"""Edits a forger can make without the key: rewrite any frame and re-chain the whole log (fresh CRCs and XXH3
digests), so that everything but a signature checks out."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from pathlib import Path

import msgspec
from xxhash import xxh3_128, xxh3_128_digest

from annals.schemas.header import LogHeader, game_id_of

Frame = tuple[int, bytes]  # (kind, payload)
_HEAD = struct.Struct("<cBII")


def frames_of(path: Path) -> tuple[bytes, list[Frame]]:
    """The preamble and every frame's (kind, payload) of a log, unverified."""
    data = path.read_bytes()
    preamble, at, frames = data[:10], 10, []
    while at < len(data):
        _, kind, _, length = _HEAD.unpack_from(data, at)
        start = at + _HEAD.size + 4
        frames.append((kind, data[start : start + length]))
        at = start + length + 16
    return preamble, frames


def write_frames(path: Path, preamble: bytes, frames: list[Frame]) -> None:
    """A log of these frames, indexed, CRC-checked and chained as the writer does."""
    out = bytearray(preamble)
    link = xxh3_128_digest(preamble)
    for index, (kind, payload) in enumerate(frames):
        head = _HEAD.pack(b"F", kind, index, len(payload))
        head += struct.pack("<I", zlib.crc32(head))
        h = xxh3_128(link)
        h.update(head)
        h.update(payload)
        link = h.digest()
        out += head + payload + link
    path.write_bytes(bytes(out))


def edit_frame(
    path: Path, kind: int, change: Callable[[dict[str, object]], None], *, which: int = -1, rederive: bool = False
) -> None:
    """Decode the ``which``-th frame of ``kind`` (a map payload), let ``change`` edit it, re-chain the log.

    ``rederive`` (a header edit): the forger also stamps the edited header's own game id, so that the content
    check holds and only a signature can tell."""
    preamble, frames = frames_of(path)
    positions = [i for i, (k, _) in enumerate(frames) if k == kind]
    i = positions[which]
    payload = msgspec.msgpack.decode(frames[i][1])
    change(payload)
    if rederive:
        payload["game_id"] = game_id_of(msgspec.convert(payload, LogHeader))
    frames[i] = (kind, msgspec.msgpack.encode(payload))
    write_frames(path, preamble, frames)
