"""The log file codec: round trips, torn tails, corruption located, versions refused clearly; every test twice,
on the C frame layer (where it is built) and on the Python reference (``ANNALS_PURE_PYTHON``)."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annals.schemas.errors import CorruptLogError, LogError, NotALogError, TruncatedLogError, UnsupportedFormatError
from annals.schemas.header import LogClose, LogHeader, game_id_of
from annals.schemas.logfile import DIGEST_SIZE, FORMAT_VERSION, FRAME_HEAD_SIZE, MAGIC, LogReader, LogWriter, read_log
from annals.schemas.records import Decision
from annals.schemas.validate import PURE_PYTHON_VARIABLE
from tests.helpers import toy_header, toy_log
from tests.strategies import headers, toy_events
from tests.toyrules.toy_schema import FirstPlayerChosen, GameOver, PileShuffled, Take, Took, TurnBegan

_PREAMBLE = len(MAGIC) + 2


@pytest.fixture(autouse=True, params=["c", "python"])
def frame_layer(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test on both frame layers: the C one (its reader and writer; where it is not built, the reference
    runs twice) and the Python reference."""
    if request.param == "python":
        monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    else:
        monkeypatch.delenv(PURE_PYTHON_VARIABLE, raising=False)
    return str(request.param)


def frame_offsets(path: Path) -> list[tuple[int, int]]:
    """(start, end) byte range of every frame, parsed independently of the reader."""
    data = path.read_bytes()
    spans, at = [], _PREAMBLE
    while at < len(data):
        (length,) = struct.unpack_from("<I", data, at + 6)
        end = at + FRAME_HEAD_SIZE + length + DIGEST_SIZE
        spans.append((at, end))
        at = end
    return spans


def read_all(path: Path) -> list[object]:
    with LogReader(path) as reader:
        return [batch.events for batch in reader.batches()]


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(header=headers(), batches=st.lists(st.lists(toy_events(), max_size=30), max_size=6))
def test_codec_round_trip(tmp_path: Path, header: LogHeader, batches: list[list[Any]]) -> None:
    """Any header and events (renumbered, each by a seat or -1, the last one a GameOver) read back as written."""
    path = tmp_path / "round.log"
    header = msgspec.structs.replace(header, format_version=FORMAT_VERSION)  # the header says what the preamble does
    header = msgspec.structs.replace(header, game_id=game_id_of(header))
    writer = LogWriter(path, header, overwrite=True)  # hypothesis reuses the folder
    seats = len(header.players)
    n = 0
    renumbered: list[tuple[list[Any], list[Any]]] = []
    batches = [*batches, [GameOver(0, 0, "end", -1, seats - 1, "test")]]
    for batch in batches:
        kept = [e for e in batch if batch is batches[-1] or not isinstance(e, GameOver)]
        events = [msgspec.structs.replace(e, n=n + i, player=min(e.player, seats - 1)) for i, e in enumerate(kept)]
        k = sum(len(d) for _, d in renumbered)
        n += len(events)
        decisions = [Decision(k, n, seats - 1, "take", [Take(1), Take(2)], 1)] if events else []
        writer.write_batch(events, decisions)
        renumbered.append((events, decisions))
    last = renumbered[-1][0][-1]
    writer.close(LogClose(seats - 1, "test", n, sum(len(d) for _, d in renumbered), last.turn))
    game = read_log(path)
    assert game.header == header
    assert game.events == [e for events, _ in renumbered for e in events]
    assert game.decisions == [d for _, decisions in renumbered for d in decisions]
    assert game.digest == writer.digest


def test_every_truncation_returns_the_complete_frames_then_the_error(tmp_path: Path) -> None:
    path, _ = toy_log(tmp_path)
    data = path.read_bytes()
    spans = frame_offsets(path)
    ends = [end for _, end in spans]
    full = read_all(path)
    cut = tmp_path / "cut.log"
    for size in range(len(data)):
        cut.write_bytes(data[:size])
        got: list[object] = []
        with pytest.raises(TruncatedLogError) as info, LogReader(cut) as reader:
            got.extend(batch.events for batch in reader.batches())
        complete = sum(1 for end in ends if end <= size)
        assert info.value.complete_frames == complete, size
        assert info.value.offset == (spans[complete][0] if size >= _PREAMBLE else 0)
        # batches exclude the header frame (index 0)
        assert got == full[: max(0, complete - 1)], size


def test_bit_flips_are_detected_and_located(tmp_path: Path) -> None:
    path, _ = toy_log(tmp_path)
    data = path.read_bytes()
    spans = frame_offsets(path)
    bad = tmp_path / "flipped.log"
    for pos in range(len(data)):
        for bit in (0, 5):
            damaged = bytearray(data)
            damaged[pos] ^= 1 << bit
            bad.write_bytes(bytes(damaged))
            with pytest.raises(LogError) as info:
                read_log(bad)
            err = info.value
            assert not isinstance(err, TruncatedLogError), (pos, bit, err)
            if pos >= _PREAMBLE:
                frame = next(i for i, (start, end) in enumerate(spans) if start <= pos < end)
                assert err.frame == frame, (pos, err)
                assert err.offset == spans[frame][0], (pos, err)
                assert str(bad) in str(err) and f"frame {frame}" in str(err)


def test_swapped_and_dropped_frames_are_named(tmp_path: Path) -> None:
    path, _ = toy_log(tmp_path)
    data = path.read_bytes()
    spans = frame_offsets(path)
    assert len(spans) >= 5
    chunks = [data[s:e] for s, e in spans]
    bad = tmp_path / "bad.log"

    swapped = [*chunks[:2], chunks[3], chunks[2], *chunks[4:]]
    bad.write_bytes(data[:_PREAMBLE] + b"".join(swapped))
    with pytest.raises(CorruptLogError, match=r"frame 2 at byte \d+: frame index 3 found where 2 was expected"):
        read_log(bad)

    dropped = [*chunks[:2], *chunks[3:]]
    bad.write_bytes(data[:_PREAMBLE] + b"".join(dropped))
    with pytest.raises(CorruptLogError, match="frame index 3 found where 2 was expected") as info:
        read_log(bad)
    assert info.value.offset == spans[2][0]


def test_renumbered_swap_is_caught_by_the_chain(tmp_path: Path) -> None:
    """Swapping two frames and fixing their indexes and CRCs still breaks the digest chain."""
    import zlib

    path, _ = toy_log(tmp_path)
    data = path.read_bytes()
    spans = frame_offsets(path)
    chunks = [bytearray(data[s:e]) for s, e in spans]
    chunks[2], chunks[3] = chunks[3], chunks[2]
    for index in (2, 3):
        struct.pack_into("<I", chunks[index], 2, index)
        struct.pack_into("<I", chunks[index], 10, zlib.crc32(bytes(chunks[index][:10])))
    bad = tmp_path / "bad.log"
    bad.write_bytes(data[:_PREAMBLE] + b"".join(bytes(c) for c in chunks))
    with pytest.raises(CorruptLogError, match=r"frame 2 .*chain digest mismatch"):
        read_log(bad)


def test_newer_format_is_refused_with_the_supported_version(tmp_path: Path) -> None:
    path, _ = toy_log(tmp_path)
    data = bytearray(path.read_bytes())
    struct.pack_into("<H", data, len(MAGIC), 7)
    path.write_bytes(bytes(data))
    with pytest.raises(UnsupportedFormatError, match="format version 7 is not supported; this annals reads version"):
        read_log(path)


def test_not_a_log(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("hello, this is not a log\n")
    with pytest.raises(NotALogError, match="not an annals log"):
        read_log(path)


def test_absurd_frame_length_is_refused_before_reading(tmp_path: Path) -> None:
    """A valid frame header CRC over an absurd length (crafted) is refused without allocating it."""
    import zlib

    path, _ = toy_log(tmp_path)
    data = bytearray(path.read_bytes())
    start, _ = frame_offsets(path)[1]
    struct.pack_into("<I", data, start + 6, 2**31)
    struct.pack_into("<I", data, start + 10, zlib.crc32(bytes(data[start : start + 10])))
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptLogError, match=r"frame 1 at byte .*exceeds the maximum"):
        read_log(path)


def test_trailing_bytes_after_close_are_corruption(tmp_path: Path) -> None:
    path, _ = toy_log(tmp_path)
    path.write_bytes(path.read_bytes() + b"\x00")
    with pytest.raises(CorruptLogError, match="unexpected bytes after the closing record"):
        read_log(path)


def test_close_counts_must_match(tmp_path: Path) -> None:
    header = toy_header()
    path = tmp_path / "counts.log"
    writer = LogWriter(path, header)
    writer.write_batch([PileShuffled(0, 0, "setup", -1, 12), FirstPlayerChosen(1, 0, "setup", -1, 0)], [])
    writer.close(LogClose(0, "test", 3, 0, 0))
    with pytest.raises(CorruptLogError, match=r"closing record counts 3 events .* frames hold 2"):
        read_log(path)


def test_event_numbers_must_continue_across_frames(tmp_path: Path) -> None:
    header = toy_header()
    path = tmp_path / "gap.log"
    writer = LogWriter(path, header)
    writer.write_batch([TurnBegan(0, 1, "take", 0)], [])
    writer.write_batch([Took(2, 1, "take", 0, 1, 5), GameOver(3, 1, "end", -1, 0, "x")], [])
    writer.close(LogClose(0, "test", 3, 0, 1))
    with pytest.raises(CorruptLogError, match=r"frame 2 .*event number 2 found where 1 was expected"):
        read_log(path)


def test_reader_streams_frame_by_frame(tmp_path: Path) -> None:
    """The reader yields a batch before reading the rest of the file (damage later does not hide it)."""
    path, _ = toy_log(tmp_path)
    data = bytearray(path.read_bytes())
    data[-3] ^= 0xFF  # damage the closing frame
    path.write_bytes(bytes(data))
    with LogReader(path) as reader:
        batches = reader.batches()
        first = next(batches)
        assert first.events[0].n == 0
        with pytest.raises(CorruptLogError):
            list(batches)


def test_a_format_1_log_written_earlier_still_reads_and_replays() -> None:
    """Schema evolution: a log committed when format 1 was new must decode and re-run forever."""
    from annals.engine.replay import rerun

    game = read_log(Path(__file__).parent / "fixtures" / "toy-format1.log")
    assert game.header.format_version == 1
    assert (len(game.events), game.close.end_reason) == (21, "took_last")
    assert game.digest == "94b63999134e6205d09cccc10adf1940"
    assert rerun(game).ok
