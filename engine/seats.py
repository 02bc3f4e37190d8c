"""One seat's side of the protocol (``schemas.protocol``): its view of a game turned into messages.

A ``SeatStream`` holds the seat's ``SeatView`` and writes every message the seat is sent: the hello with the
header as the seat may see it, each event of its view in words, each decision point with its options' texts
naming the cards, the result. Nothing it sends names a card the seat cannot identify: the view redacts events
(``Ruleset.redact``), names only the instances it has been shown (``SeatView.known``), and the hello lists the
seat's own deck, never the opponent's, nor the seed (which would give away every shuffle).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from msgspec.structs import asdict

from annals.engine.core import CardInfo, DecisionPoint, Ruleset
from annals.engine.views import SeatView, instances_in, visible_position
from annals.schemas import protocol as p
from annals.schemas.header import LogHeader
from annals.schemas.records import CARDS_PER_PLAYER, TOKEN_BASE, ClockCharged, Forfeited, instance_owner

_WORDS = re.compile(r"(?<=[a-z])(?=[A-Z])")


def as_fields(record: Any) -> dict[str, Any]:
    """A Struct's fields by name (array-like Structs would otherwise encode as bare arrays)."""
    return asdict(record)


def as_json(record: Any) -> dict[str, Any]:
    return {"kind": type(record).__name__, **as_fields(record)}


_POOLS: dict[int, tuple[Ruleset[Any], Mapping[str, CardInfo]]] = {}


def _pool(ruleset: Ruleset[Any]) -> Mapping[str, CardInfo]:
    """The ruleset's cards, built once per ruleset (a table makes a stream per seat; a catalog takes ~1 ms)."""
    held = _POOLS.get(id(ruleset))
    if held is None or held[0] is not ruleset:
        held = _POOLS[id(ruleset)] = (ruleset, ruleset.cards())
    return held[1]


@cache
def words(kind: str) -> str:
    return _WORDS.sub(" ", kind)


_FIELDS: dict[tuple[type, int], tuple[tuple[str, str], ...]] = {}
_AMOUNTS = frozenset(("value", "amount"))  # fields whose numbers are never card instances
_CARDS = frozenset(("card", "target"))  # fields where a negative number is a card the seat cannot see


def _named_fields(kind: type, skip: int) -> tuple[tuple[str, str], ...]:
    """A record type's fields to put in words (after the first ``skip``; not where a card moved from or to),
    each with its name in words; worked out once per type."""
    got = _FIELDS.get((kind, skip))
    if got is None:
        names = kind.__struct_fields__[skip:]  # type: ignore[attr-defined]
        got = _FIELDS[kind, skip] = tuple((n, n.replace("_", " ")) for n in names if n not in ("src", "dst"))
    return got


def _described(card: CardInfo) -> str:
    """A card's type, cost and printed numbers, then its rules text: ``unit, cost 2, ATK 3, GRIT 2. ...``."""
    cost = [f"cost {card.cost}"] if card.cost is not None else []
    head = ", ".join([card.type, *cost, *(f"{k} {v}" for k, v in card.stats.items())])
    return f"{head}. {card.text}" if card.text else head


class SeatStream:
    """The messages for seat ``seat`` (-1: a spectator) of one game, in order."""

    def __init__(self, ruleset: Ruleset[Any], header: LogHeader, seat: int):
        self.ruleset = ruleset
        self.header = header
        self.seat = seat
        self.view = SeatView(ruleset, header, seat)
        self._names: dict[str, tuple[str, str]] = {}
        self._labels: dict[int, str] = {}  # each known instance's ``label``
        self._pool = _pool(ruleset)
        self._total = sum(len(d.cards) + bool(d.leader) for d in header.decks)
        self.confirm = frozenset(getattr(ruleset, "confirm_options", ()))

    def _info(self, card_id: str) -> tuple[str, str]:
        info = self._names.get(card_id)
        if info is None:
            card = self._pool.get(card_id)
            info = (card.name, _described(card)) if card else (card_id, "")
            self._names[card_id] = info
        return info

    def name_of(self, card_id: str) -> str:
        return self._info(card_id)[0]

    def card(self, instance: int) -> p.Card:
        cid = self.view.known.get(instance, "")
        name, text = self._info(cid) if cid else (f"token #{instance}", "")
        return p.Card(instance, cid, name, text)

    def board(self, svg: str = "") -> p.Board:
        """The seat's view of the position now: what ``annals position --view`` shows, with card names."""
        s = self.view.state
        pos = visible_position(self.ruleset, s)
        zones: dict[tuple[str, str], list[p.Card]] = {}
        for c in sorted(pos.cards):
            side = f"p{instance_owner(c)}" if c < TOKEN_BASE else "token"
            zones.setdefault((pos.cards[c], side), []).append(self.card(c))
        listed = [p.Zone(zone, side, cards) for (zone, side), cards in sorted(zones.items())]
        counters = {}
        for key in sorted(pos.counters):
            holder, _, counter = key.partition(":")
            h = int(holder)
            who = f"p{h}" if 0 <= h < CARDS_PER_PLAYER else (self.label(h) if h >= 0 else "game")
            counters[f"{who}:{counter}"] = pos.counters[key]
        hidden = max(self._total - sum(1 for c in pos.cards if c < TOKEN_BASE), 0)
        return p.Board(s.turn, s.step, listed, counters, hidden, svg)

    def label(self, value: int) -> str:
        """A card instance in words: its name when the seat knows it, else ``a hidden card``. A known instance's
        label is kept (an instance never changes its card, and the seat never forgets it: ``SeatView.known``
        only grows), so at most one per instance of the game."""
        got = self._labels.get(value)
        if got is not None:
            return got
        cid = self.view.known.get(value)
        if cid is not None:
            got = self._labels[value] = f"{self.name_of(cid)} (#{value})"
            return got
        return f"token #{value}" if value >= TOKEN_BASE else "a hidden card"

    def hello(self, clock_ms: list[int], *, delay: int = 0, resumed_at: int = 0) -> p.Hello:
        h = self.header
        players = [
            p.Player(i, info.name, info.agent, deck.name, deck.leader, len(deck.cards))
            for i, (info, deck) in enumerate(zip(h.players, h.decks, strict=True))
        ]
        own = list(h.decks[self.seat].cards) if 0 <= self.seat < len(h.decks) else []
        cards = [self.card(c) for c in sorted(self.view.known)]
        return p.Hello(
            p.PROTOCOL_VERSION,
            h.game_id,
            h.ruleset,
            h.ruleset_version,
            self.seat,
            players,
            own,
            cards,
            list(clock_ms),
            h.max_turns,
            delay,
            resumed_at,
        )

    def event(self, event: Any) -> p.EventMessage:
        """Fold one omniscient event into the seat's view; the message of what the seat sees of it."""
        seen, new = self.view.feed(event)
        return self.message(seen, new)

    def message(
        self, seen: Any, new: dict[int, str], worded: tuple[dict[str, Any], str] | None = None
    ) -> p.EventMessage:
        """The message of an event as the seat saw it (``SeatView.feed``: ``seen``, and the instances it showed
        for the first time). ``worded``: the event's fields and text as ``worded`` gave them for another seat
        that saw the same ``seen`` and knows the same of it (``names_in``), to be shared rather than made again."""
        fields, text = worded if worded is not None else self.worded(seen)
        return p.EventMessage(fields, text, [self.card(c) for c in sorted(new)] if new else [])

    def worded(self, seen: Any) -> tuple[dict[str, Any], str]:
        """An event's fields (with its ``kind``) and its text in words, as this seat knows the cards it names."""
        fields = as_json(seen)
        return fields, self.event_text(seen, fields)

    def names_in(self, seen: Any) -> tuple[str | None, ...]:
        """What the seat knows of each card instance ``seen`` names (its card id, or None): all that the message
        of an event the seat saw before depends on besides the event itself. Two seats that saw the same event,
        are shown nothing new by it and know the same of the instances it names are sent the same message
        (tokens are never known by id: they read the same to everyone)."""
        known = self.view.known
        return tuple([known.get(c) for c in instances_in(seen)])

    def event_text(self, seen: Any, fields: dict[str, Any] | None = None) -> str:
        """An event in words (``fields``: its fields by name, when the caller has them already)."""
        kind = type(seen)
        who = f"p{seen.player}" if seen.player >= 0 else "game"
        if kind is ClockCharged:
            return f"{who} took {seen.spent_ms / 1000:.1f} s ({seen.left_ms / 1000:.0f} s left)"
        if kind is Forfeited:
            if seen.player < 0:  # neither seat sat down (no-show): nobody wins
                return f"game ends ({seen.reason}): no winner"
            return f"{who} forfeits ({seen.reason}): p{seen.winner} wins"
        values = fields if fields is not None else as_fields(seen)
        return f"t{seen.turn} {seen.step} {who}: {words(kind.__name__)}{self._fields_text(kind, values, skip=4)}"

    def _fields_text(self, kind: type, values: dict[str, Any], *, skip: int = 0) -> str:
        parts = []
        for name, said in _named_fields(kind, skip):
            v = values[name]
            of = type(v)
            if of is str:  # the common cases first: text as it is, a number (a small one, or an instance's)
                if v:
                    parts.append(f"{said} {v}")
            elif of is int:
                if 0 <= v < CARDS_PER_PLAYER or (v >= 0 and name in _AMOUNTS):
                    parts.append(f"{said} {v}")
                elif v >= CARDS_PER_PLAYER:
                    parts.append(f"{said} {self.label(v)}")
                else:
                    parts.append(f"{said} {'a hidden card' if name in _CARDS else v}")
            elif of is not list or v:
                parts.append(f"{said} {self._value_text(name, v)}")
        moved = values.get("dst", "")
        if moved:
            parts.append(f"to {moved}")
        return (": " + ", ".join(parts)) if parts else ""

    def _value_text(self, name: str, v: Any) -> str:
        if type(v) is str:
            return v
        if type(v) is int and v >= CARDS_PER_PLAYER and name not in _AMOUNTS:
            return self.label(v)
        if type(v) is int and v < 0 and name in _CARDS:
            return "a hidden card"
        if type(v) is list and v and all(x == -1 for x in v) and name == "cards":
            return f"{len(v)} face down"
        if type(v) is list and v and all(type(x) is int for x in v) and max(v) >= CARDS_PER_PLAYER:
            return "[" + ", ".join(self.label(x) if x >= 0 else "a hidden card" for x in v) + "]"
        return str(v)

    def option(self, index: int, option: Any) -> p.Option:
        kind = type(option).__name__
        fields = as_fields(option)
        text = words(kind) + self._fields_text(type(option), fields)
        return p.Option(index, kind, fields, text, kind in self.confirm)

    def decide(self, decision: int, point: DecisionPoint[Any], clock_ms: list[int]) -> p.Decide:
        options = [self.option(i, o) for i, o in enumerate(point.options)]
        return p.Decide(decision, point.player, point.point, options, list(clock_ms))

    def game_over(self, winner: int, reason: str, events: int, decisions: int) -> p.GameOver:
        if winner < 0:
            text = f"no winner ({reason})"
        else:
            you = " (you)" if winner == self.seat else ""
            text = f"player {winner}{you} wins: {reason.replace('_', ' ')}"
        return p.GameOver(winner, reason, text, events, decisions)
