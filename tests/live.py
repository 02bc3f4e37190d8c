"""Helpers the live-play tests share: protocol-only seats and the hidden-information scan of their messages."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import msgspec

from annals.engine.core import Ruleset
from annals.engine.rng import Rng
from annals.engine.table import LiveTable
from annals.schemas import protocol as p
from annals.schemas.header import LogHeader
from annals.schemas.records import CARDS_PER_PLAYER, LEADER_INDEX, instance_owner
from annals.schemas.text import card_names

_LABEL = re.compile(r"\(#(\d+)\)")
SCHEMA_FILE = Path(__file__).parent.parent / "schemas" / "protocol.schema.json"


@cache
def validator() -> Any:
    import jsonschema

    schema = json.loads(SCHEMA_FILE.read_text())
    return jsonschema.Draft202012Validator(schema)


class RandomClient:
    """A seat that knows only the protocol: it records every message as the JSON it would get over the wire,
    with the number of omniscient events played when it was sent, and answers a random option index."""

    def __init__(self, table: LiveTable, seed: int):
        self.table = table
        self.rng = Rng(seed)
        self.received: list[tuple[int, bytes]] = []
        self.decide: p.Decide | None = None

    def send(self, message: p.ServerMessage) -> None:
        self.received.append((self.table.game.state.n, p.encode(message)))
        if type(message) is p.Decide:
            self.decide = message

    def receive(self) -> p.ClientMessage:
        assert self.decide is not None
        return p.Answer(self.rng.below(len(self.decide.options)), self.decide.decision)


def _public_zone(ruleset: str, zone: str) -> bool:
    if ruleset == "miras9":
        return zone not in ("deck", "hand", "resource", "used")
    return zone not in ("deck", "hand")


def ever_public(ruleset: Ruleset[Any], states: list[bytes], decoder: Any) -> list[set[int]]:
    """For each count of events played, the instances that had been in a public zone (face-up) by then."""
    seen: set[int] = set()
    out = []
    for blob in states:
        state = decoder.decode(blob)
        pos = ruleset.position(state)
        sealed = set(getattr(state, "sealed", ()))
        for c, zone in pos.cards.items():
            if c > 0 and c not in sealed and _public_zone(state_ruleset(ruleset), zone):
                seen.add(c)
        out.append(set(seen))
    return out


def state_ruleset(ruleset: Ruleset[Any]) -> str:
    return ruleset.schema.name


def leaks(
    header: LogHeader,
    seat: int,
    received: list[tuple[int, bytes]],
    public: list[set[int]],
    names: dict[str, str],
    decided_at: list[int] | None = None,
) -> list[str]:
    """Every message to ``seat`` naming an opponent's card instance, card id or card name that was not face-up
    by the next decision after the message was sent (``public[n]``: face-up by event count n; ``decided_at``:
    each decision's event count). Playing a card names it a few events before it lands face-up, all before
    anyone decides again; a card still hidden at the next decision must not have been named."""
    horizons = sorted(decided_at or [])
    ids = card_names(header)
    foe = [c for c in ids if instance_owner(c) != seat and c % CARDS_PER_PLAYER != LEADER_INDEX]
    mine = {cid for c, cid in ids.items() if instance_owner(c) == seat or c % CARDS_PER_PLAYER == LEADER_INDEX}
    found = []
    for count, raw in received:
        message = msgspec.json.decode(raw)
        ints: set[int] = set()
        strings: set[str] = set()
        _walk(message, ints, strings)
        text = raw.decode()
        ints.update(int(c) for c in _LABEL.findall(text))  # "Name (#2005)" in the texts
        later = [at for at in horizons if at >= count]
        shown = public[min(later[0] if later else len(public) - 1, len(public) - 1)]
        shown_ids = {ids[c] for c in shown if c in ids} | mine
        for c in foe:
            if c in ints and c not in shown:
                found.append(f"instance {c} ({ids[c]}) in {text[:200]}")
            cid = ids[c]
            if cid not in shown_ids and (cid in strings or names.get(cid) in strings):
                found.append(f"card {cid} in {text[:200]}")
    return found


# numbers that are not card instances (an event's number can pass 1000)
_COUNTS = frozenset({"n", "turn", "decision", "events", "decisions", "value", "amount", "index", "clock_ms",
                     "spent_ms", "left_ms", "resumed_at", "max_turns", "size", "hidden", "protocol"})  # fmt: skip


def _walk(value: Any, ints: set[int], strings: set[str]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            strings.add(k)
            if k not in _COUNTS:
                _walk(v, ints, strings)
    elif isinstance(value, list):
        for v in value:
            _walk(v, ints, strings)
    elif type(value) is int:
        ints.add(value)
    elif isinstance(value, str):
        strings.add(value)
