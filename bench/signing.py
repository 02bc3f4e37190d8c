"""Signing and checking finished logs, against the cryptography alone (the ceiling, measured in the same run).

Run: ``python -m bench.signing [--games N]``. Real Miras 9 bot games; each is signed once (``sign_log``: the log
read and chain-verified, hashed, signed, a frame appended), then checked (``verify_signature``). The ceiling of
each is the SHA-256 of the log's bytes plus one Ed25519 sign (or verify), which no implementation avoids; the
chain-verified read is shown beside it. Also the walk over frame headers a format 2 reader makes before reading
(to learn which frames a backup abandoned), against that read. Goal: each within 3x of its ceiling.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from annals.engine.simulate import simulate
from annals.schemas.keys import SigningKey
from annals.schemas.logfile import LogReader
from annals.schemas.signing import sign_log, verify_signature
from bench.timing import best_of

QUICK = ["--games", "2", "--runs", "1"]  # every stage at tiny sizes, for tests


def read_all(paths: list[Path]) -> None:
    for path in paths:
        with LogReader(path) as reader:
            reader.read_to_end()


def walk_all(readers: list[LogReader]) -> None:
    for reader in readers:
        reader._file.seek(reader._offset)
        reader._walk()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each (the best counts)")
    args = parser.parse_args(argv)
    key = SigningKey.generate("bench")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "logs"
        list(simulate("miras9", args.games, 1, ["vanguard", "tempest"], ["heuristic", "random"], folder))
        paths = sorted(folder.glob("*.log"))
        size = sum(p.stat().st_size for p in paths) / len(paths)
        read = best_of(args.runs, lambda: read_all(paths))
        sign = float("inf")
        for run in range(min(3, args.runs)):  # a fresh copy of the unsigned logs per run, copied outside the timing
            target = Path(tmp) / f"copy{run}"
            shutil.copytree(folder, target)
            fresh = sorted(target.glob("*.log"))
            start = time.perf_counter()
            for path in fresh:
                sign_log(path, key)
            sign = min(sign, time.perf_counter() - start)
        signed = fresh
        check = best_of(args.runs, lambda: [verify_signature(p, key.public) for p in signed])
        blobs = [p.read_bytes() for p in paths]
        signatures = [key.sign(hashlib.sha256(b).digest()) for b in blobs]
        crypto_sign = best_of(args.runs, lambda: [key.sign(hashlib.sha256(b).digest()) for b in blobs])
        crypto_verify = best_of(
            args.runs,
            lambda: [
                key.public.verifies(s, hashlib.sha256(b).digest()) for s, b in zip(signatures, blobs, strict=True)
            ],
        )
        readers = [LogReader(p) for p in paths]
        walk = best_of(args.runs, lambda: walk_all(readers))
        for reader in readers:
            reader.close()
    n = len(paths)
    print(f"{n} Miras 9 logs of {size / 1024:.1f} KiB on average")
    print(f"read with the chain verified:           {read / n * 1e6:8.1f} us per log")
    print(f"SHA-256 + Ed25519 sign (ceiling):       {crypto_sign / n * 1e6:8.1f} us per log")
    print(
        f"sign_log:                               {sign / n * 1e6:8.1f} us per log  ({sign / crypto_sign:.2f}x ceiling)"
    )
    print(f"SHA-256 + Ed25519 verify (ceiling):     {crypto_verify / n * 1e6:8.1f} us per log")
    print(f"verify_signature:                       {check / n * 1e6:8.1f} us per log  ({check / crypto_verify:.2f}x)")
    print(f"walk over frame headers (format 2):     {walk / n * 1e6:8.1f} us per log  ({walk / read:.1%})")


if __name__ == "__main__":
    main()
