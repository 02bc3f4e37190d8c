"""Log write and read rates against raw msgspec batch encode/decode of the same frames (goal: at most 1.2x).

Run: ``python -m bench.logs [--events N] [--frame K] [--ruleset NAME]``. The events and decisions are taken from
real simulated games of the ruleset (repeated and renumbered to reach N events), framed K events per batch with
the decisions taken among them, as the runner frames a turn. Times are the CPU time of this process (best of
``--runs``, each timing run in turn with the others), which other work on a shared machine stretches far less
than the wall clock. The read is the reader's whole work: the file read, the frame and chain checks, the typed
decode and the content checks (``schemas.validate``, in C where it is built; ``ANNALS_PURE_PYTHON=1`` times the
reference).

Two more ceilings are printed beside the goal's, so that its gap can be read (the goal stays the ratio to the bare
decode): the decode keeping each frame's records until the next is decoded, as any caller of ``batches()`` keeps
its batch (freeing a frame after the next one is decoded costs the allocator more than freeing it at once), and
the decode after reading the file's bytes (the reader reads its log, the bare decode has its frames in memory).
Last, ``--games`` real game logs, one a game as ``simulate`` writes them, read one by one against the bare decode
of all their frames (header, batches and close): what a log's own opening costs (its header's checks, its game id
derived again) where logs are a game long, as ingest reads them.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from annals.engine.registry import get_ruleset
from annals.engine.runner import Game
from annals.engine.simulate import bots_for, make_header, simulate
from annals.schemas.header import LogClose, LogHeader
from annals.schemas.logfile import FRAME_HEAD_SIZE, LogReader, LogWriter
from annals.schemas.rulesets import schema_for
from annals.schemas.validate import fast_checks
from bench.timing import best_of_each
from tests import toyrules

QUICK = ["--events", "2000", "--runs", "1", "--games", "2"]  # every stage at tiny sizes, for tests

toyrules.register()  # the toy rulesets are benchmarked beside the real ones


def sample_events(ruleset_name: str, count: int) -> tuple[Any, list[Any], list[Any]]:
    """The header of the last game played, and ``count`` events of real games with the decisions taken among them,
    renumbered as if one game."""
    ruleset = get_ruleset(ruleset_name)
    decks = sorted(ruleset.decks())
    events: list[Any] = []
    decisions: list[Any] = []
    seed = 0
    header = None
    while len(events) < count:
        header = make_header(ruleset, seed, [decks[0], decks[-1]], ["random", "random"], max_turns=60)
        game = Game(ruleset, header, bots_for(ruleset, header))
        while not game.state.over and game.state.turn <= 60:
            game.step()
        game_events, game_decisions = game.take_batch()
        shift = len(events)
        decisions.extend(msgspec.structs.replace(d, at=d.at + shift) for d in game_decisions)
        events.extend(game_events)
        seed += 1
    events = [msgspec.structs.replace(e, n=i) for i, e in enumerate(events[:count])]
    kept = [d for d in decisions if d.at <= count]
    return header, events, [msgspec.structs.replace(d, n=i) for i, d in enumerate(kept)]


def framed(events: list[Any], decisions: list[Any], size: int) -> list[tuple[list[Any], list[Any]]]:
    """``size`` events a frame, each with the decisions taken among them (the last frame's also those after)."""
    frames = []
    k = 0
    for first in range(0, len(events), size):
        end = first + size if first + size < len(events) else len(events) + 1
        taken = k
        while k < len(decisions) and decisions[k].at < end:
            k += 1
        frames.append((events[first : first + size], decisions[taken:k]))
    return frames


def payload_at(data: bytes, at: int) -> bytes:
    """The payload of the frame at byte ``at`` of a log's bytes (its length: the frame header's u32 at 6)."""
    start = at + FRAME_HEAD_SIZE
    return data[start : start + int.from_bytes(data[at + 6 : at + 10], "little")]


def game_logs(ruleset: str, games: int, folder: Path, runs: int) -> tuple[int, int, float, float]:
    """``games`` simulated logs of ``ruleset`` in ``folder``, read whole one by one against the bare decode of all
    their frames: (logs, events, bare decode, read) in CPU seconds, best of ``runs`` each, in turn."""
    list(simulate(ruleset, games, 1, None, ["random", "random"], folder))
    paths = sorted(folder.glob("*.log"))
    batch = msgspec.msgpack.Decoder(schema_for(ruleset).batch_type)
    header = msgspec.msgpack.Decoder(LogHeader)
    close = msgspec.msgpack.Decoder(LogClose)
    frames: list[tuple[Any, bytes]] = []
    events = 0
    for path in paths:
        data = path.read_bytes()
        with LogReader(path) as reader:
            frames.append((header.decode, payload_at(data, reader.header_at)))
            frames.extend((batch.decode, payload) for _, _, payload in reader.raw_frames())
            assert reader.close_record is not None
            frames.append((close.decode, payload_at(data, reader.close_at[1])))
            events += reader.close_record.events

    def raw_decode_all() -> None:
        for decode, blob in frames:
            decode(blob)

    def read_all() -> None:
        for path in paths:
            with LogReader(path) as reader:
                for _ in reader.batches():
                    pass
                reader.check_counts()

    raw, read = best_of_each(runs, [raw_decode_all, read_all], time.process_time)
    return len(paths), events, raw, read


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--frame", type=int, default=256)
    parser.add_argument("--ruleset", default="toy")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--games", type=int, default=200, help="real game logs read one by one (0: none)")
    args = parser.parse_args(argv)

    header, events, decisions = sample_events(args.ruleset, args.events)
    frames = framed(events, decisions, args.frame)
    schema = schema_for(args.ruleset)
    encoder = msgspec.msgpack.Encoder()
    decoder = msgspec.msgpack.Decoder(schema.batch_type)
    encoded = [encoder.encode(f) for f in frames]

    def raw_encode_all() -> None:
        for frame in frames:
            encoder.encode(frame)

    def raw_decode_all() -> None:
        for blob in encoded:
            decoder.decode(blob)

    def raw_decode_kept() -> None:
        batch = None
        for blob in encoded:
            batch = decoder.decode(blob)  # the frame before freed only now, as a reader's caller frees its batch
        del batch

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.log"

        def write() -> None:
            writer = LogWriter(path, header, overwrite=True)  # the same file, once per timed run
            for frame_events, frame_decisions in frames:
                writer.write_batch(frame_events, frame_decisions)
            writer.close(LogClose(-1, "bench", len(events), len(decisions), 0))

        def read() -> None:
            with LogReader(path) as reader:
                for _ in reader.batches():
                    pass

        def file_then_decode() -> None:
            path.read_bytes()
            raw_decode_all()

        raw_encode, write_time, raw_decode, read_time, kept, from_file = best_of_each(
            args.runs,
            [raw_encode_all, write, raw_decode_all, read, raw_decode_kept, file_then_decode],
            time.process_time,
        )
        size = path.stat().st_size
        logs = game_logs(args.ruleset, args.games, Path(tmp) / "games", args.runs) if args.games else None

    n = len(events)
    print(f"log codec benchmark: {n:,} {args.ruleset} events and {len(decisions):,} decisions, {args.frame} events "
          f"per frame, {size / n:.1f} bytes/event, CPU time, {'C' if fast_checks() else 'pure-Python'} content checks; "
          f"load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    rows = [
        ("raw msgspec encode", raw_encode, ""),
        ("log write", write_time, f"cost ratio {write_time / raw_encode:.2f}x (goal <= 1.2x)"),
        ("raw msgspec decode", raw_decode, ""),
        ("log read", read_time, f"cost ratio {read_time / raw_decode:.2f}x (goal <= 1.2x)"),
    ]
    for label, seconds, note in rows:
        print(f"  {label:<20}{n / seconds:>14,.0f} events/s   {note}")
    print(f"  the read's gap: {read_time / kept:.2f}x the decode keeping each frame until the next (a caller's "
          f"batch), {read_time / from_file:.2f}x the file read and decode")  # fmt: skip
    if logs is not None:
        count, game_events, bare, whole = logs
        more = (whole - bare) / count * 1e6
        print(f"  {count} game logs of {game_events / count:,.0f} events each: log read {whole / bare:.2f}x the bare "
              f"decode of their frames (header, batches, close), {more:,.0f} us a log more")  # fmt: skip


if __name__ == "__main__":
    main()
