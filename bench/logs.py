"""Log write and read rates against raw msgspec batch encode/decode of the same events (goal: at most 1.5x).

Run: ``python -m bench.logs [--events N] [--frame K] [--ruleset NAME]``. The events are taken from real simulated
games of the ruleset (repeated and renumbered to reach N), framed K per batch as the runner frames them.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from annals.engine.registry import get_ruleset
from annals.engine.runner import Game
from annals.engine.simulate import bots_for, make_header
from annals.schemas.header import LogClose
from annals.schemas.logfile import LogReader, LogWriter
from annals.schemas.rulesets import schema_for
from bench.timing import best_of
from tests import toyrules

QUICK = ["--events", "2000", "--runs", "1"]  # every stage at tiny sizes, for tests

toyrules.register()  # the toy rulesets are benchmarked beside the real ones


def sample_events(ruleset_name: str, count: int) -> tuple[Any, list[Any]]:
    ruleset = get_ruleset(ruleset_name)
    decks = sorted(ruleset.decks())
    events: list[Any] = []
    seed = 0
    header = None
    while len(events) < count:
        header = make_header(ruleset, seed, [decks[0], decks[-1]], ["random", "random"], max_turns=60)
        game = Game(ruleset, header, bots_for(ruleset, header))
        while not game.state.over and game.state.turn <= 60:
            game.step()
        events.extend(game.events)
        seed += 1
    renumbered = [msgspec.structs.replace(e, n=i) for i, e in enumerate(events[:count])]
    return header, renumbered


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--frame", type=int, default=256)
    parser.add_argument("--ruleset", default="toy")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)

    header, events = sample_events(args.ruleset, args.events)
    frames = [events[i : i + args.frame] for i in range(0, len(events), args.frame)]
    schema = schema_for(args.ruleset)
    encoder = msgspec.msgpack.Encoder()
    decoder = msgspec.msgpack.Decoder(list[schema.event_type])  # type: ignore[name-defined]
    encoded = [encoder.encode(f) for f in frames]

    def raw_encode_all() -> None:
        for frame in frames:
            encoder.encode(frame)

    def raw_decode_all() -> None:
        for blob in encoded:
            decoder.decode(blob)

    raw_encode = best_of(args.runs, raw_encode_all)
    raw_decode = best_of(args.runs, raw_decode_all)

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.log"

        def write() -> None:
            writer = LogWriter(path, header, overwrite=True)  # the same file, once per timed run
            for frame in frames:
                writer.write_batch(frame, [])
            writer.close(LogClose(-1, "bench", len(events), 0, 0))

        def read() -> None:
            with LogReader(path) as reader:
                for _ in reader.batches():
                    pass

        write_time = best_of(args.runs, write)
        read_time = best_of(args.runs, read)
        size = path.stat().st_size

    n = len(events)
    print(f"log codec benchmark: {n:,} {args.ruleset} events, {args.frame} per frame, {size / n:.1f} bytes/event")
    rows = [
        ("raw msgspec encode", raw_encode, ""),
        ("log write", write_time, f"cost ratio {write_time / raw_encode:.2f}x (goal <= 1.5x)"),
        ("raw msgspec decode", raw_decode, ""),
        ("log read", read_time, f"cost ratio {read_time / raw_decode:.2f}x (goal <= 1.5x)"),
    ]
    for label, seconds, note in rows:
        print(f"  {label:<20}{n / seconds:>14,.0f} events/s   {note}")


if __name__ == "__main__":
    main()
