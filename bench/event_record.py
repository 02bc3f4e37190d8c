"""``event verify`` of a whole event: 256 bot players, 9 Swiss rounds, best of 3 (MORANA, every game played and
logged), checked against its signed record.

Run: ``python -m bench.event_record [--players N] [--rounds R] [--best-of B]``. The event is played once (its time is
printed too: playing, logging, signing and recording every act); then ``verify_event`` is timed (best of 3), beside
a ceiling measured in the same run on the same files: reading every game log whole (``read_log``: frames, chain,
closing record) and checking its signature (``verify_signature``), which verify cannot do without. The ratio says
what the record's own checks (its chain and signatures, the deck lists, each log against its match, the folder's
files) add to that.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from annals.engine.tournament import event as lib
from annals.engine.tournament import play
from annals.engine.tournament.store import EventStore
from annals.engine.tournament.verify import verify_event
from annals.schemas.logfile import read_log
from annals.schemas.signing import verify_signature
from bench.timing import best_of

QUICK = ["--players", "6", "--rounds", "2", "--best-of", "1"]  # every stage at tiny sizes, for tests


def build(folder: Path, players: int, rounds: int, best: int) -> EventStore:
    lib.new_event(folder, "bench", "morana", rounds=rounds, best_of=best, seed=256)
    store = EventStore.open(folder)
    lib.fill_with_bots(store, players)
    play.run_event(store)
    return store


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--best-of", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "event"
        start = time.perf_counter()
        store = build(folder, args.players, args.rounds, args.best_of)
        played = time.perf_counter() - start
        logs = [folder / g.log for m in store.matches() for g in m.games]
        record = (folder / "event.log").stat().st_size
        print(
            f"{args.players} players, {args.rounds} rounds, best of {args.best_of}: {len(store.matches())} matches, "
            f"{len(logs)} game logs, record {record / 1024:.0f} KiB; played and recorded in {played:.1f} s"
        )
        verdict = verify_event(folder)
        assert verdict.ok, verdict.problems[:3]
        public = store.public_key()

        def ceiling() -> None:
            for path in logs:
                read_log(path)
                verify_signature(path, public)

        floor = best_of(3, ceiling)
        seconds = best_of(3, lambda: verify_event(folder))
        print(f"event verify:                 {seconds * 1000:8.1f} ms ({seconds / len(logs) * 1e6:.0f} us a game)")
        print(f"ceiling, read + check each log's signature: {floor * 1000:8.1f} ms; ratio {seconds / floor:.2f}")


if __name__ == "__main__":
    main()
