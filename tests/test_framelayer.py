"""The C frame layer (``schemas/_framelayer.h``: the reader's frame verification and header walk, the writer's
framing and chain) against the Python reference (``ANNALS_PURE_PYTHON``): on real logs (one with a judge's backup
and its abandoned branch) damaged at random (bytes flipped, cut, inserted, removed, frames swapped), the reader
hands out the same frames and stops at the same named error, at the same frame and byte offset, both ways; and
the writer writes the same bytes both ways."""

from __future__ import annotations

import os
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import pytest
import xxhash
from hypothesis import given
from hypothesis import strategies as st

from annals.engine.judge import backup, resume
from annals.engine.registry import get_ruleset
from annals.engine.simulate import bots_for
from annals.schemas import logfile
from annals.schemas.errors import LogError
from annals.schemas.logfile import KIND_BATCH, LogReader, LogWriter, read_log
from annals.schemas.validate import PURE_PYTHON_VARIABLE
from tests.fuzzing import fuzz_settings
from tests.helpers import toy_log

T = TypeVar("T")
needs_c = pytest.mark.skipif(not logfile.fast_frames(), reason="the C extension is not built here")


def test_the_c_frame_layer_runs_where_ci_requires_it() -> None:
    """CI sets ANNALS_REQUIRE_C: there a frame layer that quietly fell back to Python is a failure."""
    if not logfile.fast_frames() and not os.environ.get("ANNALS_REQUIRE_C"):
        pytest.skip("the C extension is not built here (no compiler at install time); the reference frames")
    assert logfile.fast_frames()


def both_ways(run: Callable[[], T]) -> tuple[T, T]:
    """``run`` on the C frame layer, then on the reference."""
    with pytest.MonkeyPatch.context() as env:
        env.delenv(PURE_PYTHON_VARIABLE, raising=False)
        fast = run()
    with pytest.MonkeyPatch.context() as env:
        env.setenv(PURE_PYTHON_VARIABLE, "1")
        reference = run()
    return fast, reference


def frames_then_end(path: Path) -> tuple[list[Any], Any]:
    """Every frame the reader hands out (index, offset, payload), then how it ended: the named error (its type,
    text, frame and offset), or the digest, frames read, chain links gathered, abandoned frames and branches."""
    frames: list[Any] = []
    try:
        with LogReader(path, keep_abandoned=True) as reader:
            reader.links = set()
            frames.extend(reader.raw_frames())
            end: Any = (reader.digest, reader.frames_read, sorted(reader.links), reader.abandoned, reader.branches)
    except LogError as exc:
        end = (type(exc).__name__, str(exc), exc.frame, exc.offset)
    return frames, end


def read_whole(path: Path) -> Any:
    """``read_log``'s game (decoded and checked), or its named error."""
    try:
        return read_log(path)
    except LogError as exc:
        return (type(exc).__name__, str(exc), exc.frame, exc.offset)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    """A toy game recorded live (a frame per decision), and one a judge backed up and the game then resumed."""
    folder = tmp_path_factory.mktemp("logs")
    plain, _ = toy_log(folder, seed=3, name="plain.log")
    judged, _ = toy_log(folder, seed=4, name="judged.log")
    header = read_log(judged).header
    backup(judged, 3, "R. Vance", reason="took from the wrong pile")
    resume(judged, bots_for(get_ruleset("toy"), header))
    assert read_log(judged).branches
    return [plain.read_bytes(), judged.read_bytes()]


def frame_spans(data: bytes) -> Iterator[tuple[int, int]]:
    at = 10
    while at + 10 <= len(data):
        end = at + logfile.FRAME_HEAD_SIZE + int.from_bytes(data[at + 6 : at + 10], "little") + logfile.DIGEST_SIZE
        yield at, end
        at = end


@st.composite
def damaged(draw: st.DrawFn, data: bytes) -> bytes:
    """``data`` with one to three kinds of damage."""
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["flip", "cut", "insert", "remove", "swap", "trail"]))
        at = draw(st.integers(0, max(0, len(out) - 1)))
        if how == "flip" and out:
            out[at] ^= draw(st.integers(1, 255))
        elif how == "cut":
            del out[at:]
        elif how == "insert":
            out[at:at] = draw(st.binary(min_size=1, max_size=20))
        elif how == "remove":
            del out[at : at + draw(st.integers(1, 40))]
        elif how == "trail":
            out += draw(st.binary(min_size=1, max_size=40))
        else:  # two whole frames trade places
            spans = [s for s in frame_spans(bytes(out)) if s[1] <= len(out)]
            if len(spans) >= 2:
                i = draw(st.integers(0, len(spans) - 2))
                (a, b), (_, c) = spans[i], spans[i + 1]
                out[a:c] = out[b:c] + out[a:b]
    return bytes(out)


@needs_c
@fuzz_settings(default=150)
@given(st.data())
def test_the_c_frame_layer_reads_what_the_reference_reads(
    logs: list[bytes], tmp_path: Path, data: st.DataObject
) -> None:
    path = tmp_path / "damaged.log"
    original = data.draw(st.sampled_from(logs))
    path.write_bytes(data.draw(damaged(original) | st.just(original)))
    fast, reference = both_ways(lambda: frames_then_end(path))
    assert fast == reference
    fast_game, reference_game = both_ways(lambda: read_whole(path))
    assert fast_game == reference_game


@needs_c
def test_every_cut_and_every_flipped_byte_reads_the_same_both_ways(logs: list[bytes], tmp_path: Path) -> None:
    path = tmp_path / "damaged.log"
    data = logs[1]
    for size in range(0, len(data), 7):
        path.write_bytes(data[:size])
        fast, reference = both_ways(lambda: frames_then_end(path))
        assert fast == reference, size
    for at in range(0, len(data), 5):
        path.write_bytes(data[:at] + bytes([data[at] ^ 0x21]) + data[at + 1 :])
        fast, reference = both_ways(lambda: frames_then_end(path))
        assert fast == reference, at


@needs_c
@fuzz_settings(default=60)
@given(payloads=st.lists(st.recursive(st.integers(-(2**63), 2**64 - 1) | st.text(max_size=8), st.lists), max_size=8))
def test_the_c_writer_writes_the_references_bytes(logs: list[bytes], tmp_path: Path, payloads: list[Any]) -> None:
    source = tmp_path / "source.log"
    source.write_bytes(logs[0])
    header = read_log(source).header

    def write() -> tuple[bytes, str]:
        path = tmp_path / "written.log"
        writer = LogWriter(path, header, overwrite=True, group_bytes=200)
        for payload in payloads:
            writer._frame(KIND_BATCH, payload)
        writer.finish()
        return path.read_bytes(), writer.digest

    fast, reference = both_ways(write)
    assert fast == reference


@needs_c
def test_the_seal_is_zlibs_crc_and_the_xxhash_packages_digest() -> None:
    from annals.schemas import _framecheck

    link = bytes(range(16))
    for size in (0, 1, 15, 16, 17, 128, 240, 241, 4096, 100_000):
        payload = bytes((i * 7) % 251 for i in range(size))
        buffer = bytearray(b"ab") + bytearray(logfile.FRAME_HEAD_SIZE) + payload
        digest = _framecheck.seal(buffer, 2, ord("B"), 41, link)
        head = bytes(buffer[2:16])
        assert head[:10] == b"FB" + (41).to_bytes(4, "little") + size.to_bytes(4, "little")
        assert int.from_bytes(head[10:], "little") == zlib.crc32(head[:10])
        assert digest == xxhash.xxh3_128_digest(link + head + payload) == bytes(buffer[-16:])
    frames, offset, index, last, problem = _framecheck.scan(bytes(buffer), 2, 41, link, 5, 1 << 26)
    assert (frames, offset, index, last, problem) == ([(ord("B"), 2, size, digest)], len(buffer), 42, digest, None)


def test_a_frame_that_cannot_be_encoded_leaves_only_whole_frames_waiting(tmp_path: Path) -> None:
    """Both writers: an unencodable payload raises and nothing of its frame is written."""
    source = tmp_path / "source.log"
    toy_log(tmp_path, name="source.log")
    header = read_log(source).header

    def write() -> bytes:
        path = tmp_path / "written.log"
        writer = LogWriter(path, header, overwrite=True)
        writer._frame(KIND_BATCH, [1, 2])
        with pytest.raises(TypeError):
            writer._frame(KIND_BATCH, [1, object()])
        writer._frame(KIND_BATCH, [3])
        writer.finish()
        return path.read_bytes()

    fast, reference = both_ways(write)
    assert fast == reference
    assert [msgspec.msgpack.decode(fast[a + 14 : b - 16]) for a, b in frame_spans(fast)][1:] == [[1, 2], [3]]


@given(st.lists(st.sampled_from(b"BCSJ"), max_size=40), st.integers(1, 5))
def test_a_log_without_a_backup_keeps_every_batch_frame(kinds: list[int], first: int) -> None:
    """The walk's plan of a log without a backup (no judge backed it up): every batch frame kept, the one close the
    kept close, no branch; a second close is a problem, as ever. (Its shortcut, a range, holds other kinds too: only
    batch frames are looked up in it.)"""
    plan = logfile.plan_of(bytes(kinds), {}, first)
    batches = [first + i for i, kind in enumerate(kinds) if kind == ord("B")]
    closes = [first + i for i, kind in enumerate(kinds) if kind == ord("C")]
    assert [i for i in range(first, first + len(kinds)) if i in plan.kept and kinds[i - first] == ord("B")] == batches
    assert plan.branches == []
    assert plan.kept_close == (closes[-1] if closes else None)
    assert list(plan.problems) == closes[1:]
    assert logfile.plan_of(kinds, {}, first) == plan  # the Python walk's list of kinds: the same plan
