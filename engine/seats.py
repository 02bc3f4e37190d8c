"""One seat's side of the protocol (``schemas.protocol``): its view of a game turned into messages.

A ``SeatStream`` holds the seat's ``SeatView`` and writes every message the seat is sent: the hello with the
header as the seat may see it, each event of its view in words, each decision point with its options' texts
naming the cards, the result. Nothing it sends names a card the seat cannot identify: the view redacts events
(``Ruleset.redact``), names only the instances it has been shown (``SeatView.known``), and the hello lists the
seat's own deck, never the opponent's, nor the seed (which would give away every shuffle).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import msgspec
from msgspec.structs import asdict

from annals.engine.core import CardInfo, DecisionPoint, Ruleset
from annals.engine.views import SeatView, instances_in, visible_position
from annals.engine.words import Words, described, printed_for
from annals.engine.words.alike import tell_apart
from annals.schemas import protocol as p
from annals.schemas.header import LogHeader
from annals.schemas.records import CARDS_PER_PLAYER, TOKEN_BASE, instance_owner


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
        kinds = frozenset(getattr(ruleset, "confirm_options", ()))
        # a ruleset may confirm some options of a kind only (Miras 9: a mulligan taken, not the hand kept)
        self.confirms: Callable[[Any], bool] = getattr(ruleset, "confirms", lambda o: type(o).__name__ in kinds)
        printed = printed_for(ruleset, lambda instance: self.view.known.get(instance, ""))  # what the seat has seen
        self.words = Words(header.ruleset, self.called, [info.name for info in header.players], printed=printed)

    def _info(self, card_id: str) -> tuple[str, str]:
        info = self._names.get(card_id)
        if info is None:
            card = self._pool.get(card_id)
            info = (card.name, described(card)) if card else (card_id, "")
            self._names[card_id] = info
        return info

    def name_of(self, card_id: str) -> str:
        return self._info(card_id)[0]

    def card(self, instance: int) -> p.Card:
        cid = self.view.known.get(instance, "")
        name, text = self._info(cid) if cid else (f"token #{instance}", "")
        return p.Card(instance, cid, name, text)

    def board(self, svg: str = "", deciding: int = -1, clock_ms: list[int] | None = None) -> p.Board:
        """The seat's view of the position now: what ``annals position --view`` shows, with card names;
        ``deciding``: the seat being asked now, ``clock_ms`` the time banks now (``p.Board``)."""
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
        sizes = getattr(self.ruleset, "pile_sizes", None)
        piles = sizes(s) if sizes is not None else {}
        return p.Board(s.turn, s.step, listed, counters, hidden, svg, piles, deciding, clock_ms or [])

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

    def called(self, instance: int) -> str:
        """What the seat calls a card instance in a sentence: its card's name, or what it can say of it."""
        cid = self.view.known.get(instance)
        if cid is not None:
            return self.name_of(cid)
        return "a token" if instance >= TOKEN_BASE else "a hidden card"

    def event_text(self, seen: Any, fields: dict[str, Any] | None = None) -> str:
        """An event in words ("": nothing a person follows, such as a change by 0; clients show no line)."""
        return self.words.event(seen) or ""

    def option(self, index: int, option: Any, point: str = "", text: str = "", same_as: int = -1) -> p.Option:
        kind = type(option).__name__
        refs = self.words.refs(option)
        return p.Option(index, kind, as_fields(option), text or self.words.option(option, point), self.confirms(option),
                        refs.card, refs.target, refs.where, same_as)  # fmt: skip

    def look(self) -> Callable[[int], tuple[str, ...]]:
        """What the seat sees of a card instance (``engine.words.alike``): its card id ("" if it cannot identify
        it), its name, its place and its marks, from the seat's own view; made only when two options read alike."""
        pos = visible_position(self.ruleset, self.view.state)
        marks: dict[int, list[str]] = {}
        for key in sorted(pos.counters):
            holder, _, counter = key.partition(":")
            if holder.isdigit() and int(holder) >= CARDS_PER_PLAYER:
                marks.setdefault(int(holder), []).append(self.words.state(counter, pos.counters[key]))

        attachments = getattr(self.ruleset, "attachments", None)  # Equipment, crews: a difference one can see
        carried: dict[int, list[int]] = attachments(self.view.state) if attachments is not None else {}
        for host, cards in carried.items():
            marks.setdefault(host, []).extend(f"carrying {self.called(c)}" for c in sorted(cards))
            for c in cards:
                marks.setdefault(c, []).append(f"on {self.called(host)}")

        def seen(instance: int) -> tuple[str, ...]:
            zone = pos.cards.get(instance, "")
            where = f"in {self.words.place(zone)}" if zone else ""
            return (self.view.known.get(instance, ""), self.called(instance), where, *marks.get(instance, []))

        return seen

    def decide(self, decision: int, point: DecisionPoint[Any], clock_ms: list[int], stop: str = "") -> p.Decide:
        """The question of ``point``; a lone answer is never flagged to confirm (there was nothing else to do).
        Options that read alike are told apart, or marked ``same_as`` the first (``engine.words.alike``)."""
        made: list[Callable[[int], tuple[str, ...]]] = []

        def look(instance: int) -> tuple[str, ...]:  # the view's position is read once, and only if needed
            if not made:
                made.append(self.look())
            return made[0](instance)

        told = tell_apart(self.words, point.options, point.point, look)
        options = [self.option(i, o, point.point, told.texts[i], told.same_as[i]) for i, o in enumerate(point.options)]
        if len(options) == 1 and options[0].confirm:
            options[0] = msgspec.structs.replace(options[0], confirm=False)
        question = self.words.point(point.point, self.view.state, point.player)
        return p.Decide(decision, point.player, point.point, options, list(clock_ms), question, stop)

    def game_over(self, winner: int, reason: str, events: int, decisions: int) -> p.GameOver:
        text = self.words.ending(winner, reason)
        if winner >= 0 and winner == self.seat:  # "Bob (you) reaches 13 Slava and wins": it read "Bob (you) win"
            name = self.words.who(winner)
            text = text.replace(name, f"{name} (you)", 1)
        return p.GameOver(winner, reason, text, events, decisions)
