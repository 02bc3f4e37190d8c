"""Where a finished game log of an event gets signed: the one call site is ``engine.tournament.match``.

The event's key pair and the signature itself belong to the signing work (Ed25519, ``annals verify``); this module
is the interface the tournament code calls. Until a key is loaded both functions do nothing, so an event without
a key records unsigned logs, which ``verify`` reports as unsigned.
"""

from __future__ import annotations

from pathlib import Path


def event_key(folder: Path) -> object | None:
    """The event's private signing key, or None when the event has none (the signing work loads it here)."""
    return None


def sign_log(path: Path, key: object | None) -> None:
    """Sign the finished log at ``path`` with ``key``; a no-op without a key. Must be idempotent: a resumed
    event calls it again for a log finished before a crash."""
    if key is None:
        return
    raise NotImplementedError("signing game logs is not in this build; run the event without a key")
