"""One way of saying things: every event and every decision option of both rulesets as a sentence a person reads.

``Words(ruleset, name, players)`` is the renderer every reader of a game shares: the web and terminal clients (the
protocol's texts, made by ``engine.seats.SeatStream``), ``annals play``, ``annals show`` and the replay viewer.
``name`` turns a card instance into what the reader may call it (its card's name, ``a hidden card`` when the
reader cannot identify it); ``players`` are the seats' names. Board places are said as the rules name them: a
Miras 9 lane is Exterior, Interior or Space [M9-025] (the board draws them in capitals, as headings), a MORANA Site
is Site 1, 2 or 3; no field name, Python value, sentinel or positional index reaches the reader.

* ``event(e)``   the event in words, or None for an event that changes nothing a person follows (a Power change
  of 0, a counter set to what it was): readers leave those out;
* ``option(o)``  a decision option in words;
* ``refs(o)``    which board element an option names (``Refs``: the card it acts with, the card it aims at, the
  place it goes), so a client can map a click on the board to the option;
* ``point(name, state)``  the question a decision point asks (with the seat's view: what the answer needs).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from annals.engine.core import CardInfo
from annals.engine.names import SET_UP as SET_UP
from annals.engine.names import plural as plural  # the one count in words (light, for the command line too)
from annals.engine.names import turn_said as turn_said  # "turn 5", "setup" for turn 0
from annals.schemas.records import CARDS_PER_PLAYER, ClockCharged, Forfeited

Namer = Callable[[int], str]
Printed = Callable[[int], Mapping[str, int]]  # a card instance's printed numbers by name ({} when not known)

_ZONES = {
    "hand": "hand", "deck": "deck", "resource": "resources", "used": "used pile", "discard": "discard pile",
    "exile": "exile", "planet": "Planet slot", "stack": "stack", "gone": "nowhere (a token left play)",
    "nav": "Nav", "warden": "Warden slot", "screen": "screen",
}  # fmt: skip
END_REASONS = {"battle_damage": "Battle Damage", "survival_clock": "the survival clock", "slava_13": "13 Slava",
               "time": "the opponent ran out of time", "concession": "the opponent conceded",
               "timeout": "the opponent's program did not answer", "turn_cap": "the turn cap was reached",
               "most_slava": "the most Slava", "most_sites": "the most Sites won",
               "most_power": "the most Power on the board", "draw": "level on Slava, Sites and Power",
               "judge_game_loss": "a judge gave the opponent a game loss",
               "judge_override": "a judge set the result",
               "scenario_end": "the scenario's decisions are all played"}  # fmt: skip
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


class Refs(msgspec.Struct, frozen=True):
    """The board elements an option names: ``card`` the instance it acts with (a card in hand, an attacker, a
    blocker; 0: none), ``target`` the instance it aims at (0: none), ``where`` the place it goes, as the board's
    zone names (``lane:0:exterior``, ``site:1:space``, ``site:2``; "": none)."""

    card: int = 0
    target: int = 0
    where: str = ""


def words_of(identifier: str) -> str:
    """``"awaken.flow"`` or ``"end_of_turn"`` as plain words: ``"awaken: flow"``, ``"end of turn"``."""
    return identifier.replace(".", ": ").replace("_", " ")


def ordinal(index: int) -> str:
    return ORDINALS[index] if 0 <= index < len(ORDINALS) else f"number {index + 1}"


def _nothing_printed(_instance: int) -> Mapping[str, int]:
    return {}


def printed_for(ruleset: Any, card_id: Callable[[int], str]) -> Printed | None:
    """The printed numbers of each card instance a reader can identify (``card_id``: its card id, "" when it
    cannot), for the words that say where an amount comes from (a MORANA Clash raised by a Vigil); None for a
    ruleset whose words need none. ``ruleset``: the game's, with its pool (``registry.ruleset_for``)."""
    pool = getattr(ruleset, "pool", None)
    if pool is None or ruleset.schema.name != "morana":
        return None
    from annals.engine.morana.cards import printed_numbers

    return lambda instance: printed_numbers(pool, card_id(instance))


def described(card: CardInfo) -> str:
    """A card's type, cost and printed numbers, then its rules text: ``unit, cost 2, ATK 3, GRIT 2. ...``."""
    cost = [f"cost {card.cost}"] if card.cost is not None else []
    head = ", ".join([card.type, *cost, *(f"{k} {v}" for k, v in card.stats.items())])
    return f"{head}. {card.text}" if card.text else head


class Words:
    """Sentences for one reader of one game (see the module's description)."""

    def __init__(self, ruleset: str, name: Namer, players: Sequence[str] = (), *, printed: Printed | None = None):
        self.ruleset = ruleset
        self._name = name
        self.players = list(players)
        self.printed: Printed = printed if printed is not None else _nothing_printed  # ``printed_for``
        from annals.engine.words import miras9, morana  # the rulesets' sentences, chosen once

        self._said = {"miras9": miras9, "morana": morana}.get(ruleset)

    # ------------------------------------------------------------ the pieces every sentence uses

    def who(self, player: int) -> str:
        if 0 <= player < len(self.players) and self.players[player]:
            return self.players[player]
        return f"p{player}" if player >= 0 else "the game"

    def card(self, instance: int) -> str:
        return self._name(instance) if instance > 0 else "a hidden card"

    def cards(self, instances: Sequence[int]) -> str:
        if not instances:
            return "nothing"
        hidden = sum(1 for c in instances if c <= 0 or c < CARDS_PER_PLAYER)
        named = [self.card(c) for c in instances if c >= CARDS_PER_PLAYER]
        if hidden:
            named.append("a hidden card" if hidden == 1 else f"{hidden} hidden cards")
        return ", ".join(named[:-1]) + (" and " if len(named) > 1 else "") + named[-1]

    def holder(self, holder: int) -> str:
        """A counter's holder: a player below 1000, else a card."""
        return self.who(holder) if 0 <= holder < CARDS_PER_PLAYER else self.card(holder)

    def zone(self, zone: str) -> str:
        """A zone name as a sentence says it, lanes as the rules name them [M9-025]: ``lane:0:exterior`` is
        Ann's Exterior lane, ``site:2`` is Site 2 (the board draws its column headings in capitals: a label)."""
        parts = zone.split(":")
        if len(parts) == 3 and parts[1].isdigit():
            side, lane = self.who(int(parts[1])), parts[2].capitalize()
            return {"lane": f"{side}'s {lane} lane", "site": f"{side}'s {lane} Site",
                    "route": f"the way to {side}'s {lane} lane"}.get(parts[0], f"{side}'s {lane}")  # fmt: skip
        if len(parts) == 2 and parts[0] == "site":
            return f"Site {parts[1]}"
        if zone.lower() in ("exterior", "interior", "space"):
            return zone.capitalize()
        return _ZONES.get(zone, words_of(zone))

    def place(self, zone: str, *, kind: bool = True) -> str:
        """A board place as a sentence reads it, in the rules' words [M9-025]: ``lane:1:interior`` is ``Bo's
        Interior lane``, ``site:1:interior`` ``Bo's Interior Site`` (``Bo's Interior`` without ``kind``, the
        Site and the lane being one board column), ``site:2`` Site 2; any other zone as ``zone`` says it."""
        parts = zone.split(":")
        if len(parts) == 3 and parts[1].isdigit() and parts[0] in ("lane", "site", "route"):
            side, lane = self.who(int(parts[1])), parts[2].capitalize()
            if parts[0] == "route":
                return f"the way to {side}'s {lane} lane"
            return f"{side}'s {lane} {'Site' if parts[0] == 'site' else 'lane'}" if kind else f"{side}'s {lane}"
        if zone.lower() in ("exterior", "interior", "space"):
            return f"the {zone.capitalize()}"
        return self.zone(zone)

    @staticmethod
    def state(counter: str, value: int) -> str:
        """A counter's value as a card or player carries it: ``tapped``, ``Attuned``, ``2 wounds``, ``Echo 1``,
        ``ATK +1``, ``Slava 4``; a counter these words do not know, its name in words and its value."""
        match counter:
            case "tapped" | "spotted":
                return counter if value else f"not {counter}"
            case "attuned":
                return "Attuned" if value else "not Attuned"
            case "wounds":
                return plural(value, "wound")
            case "shield":
                return f"shield {value}"
            case "atk_mod" | "grit_mod":
                return f"{counter[:-4].upper()} {value:+d}"
            case "echo" | "slava" | "embers" | "power":
                return f"{counter.capitalize()} {value}"
        return f"{words_of(counter)} {value}"

    # ------------------------------------------------------------ what readers call

    def event(self, event: Any) -> str | None:
        kind = type(event)
        if kind is ClockCharged:  # a quick answer's charge is no news (the clocks show the time left)
            if event.spent_ms < 1000:
                return None
            return f"{self.who(event.player)} took {event.spent_ms / 1000:.1f} s ({event.left_ms // 1000} s left)"
        if kind is Forfeited:
            why = {"time": "out of time", "concession": "concedes", "timeout": "its program did not answer"}
            return f"{self.who(event.player)} forfeits ({why.get(event.reason, words_of(event.reason))}): " \
                   f"{self.who(event.winner)} wins"  # fmt: skip
        said = self._said.event(self, kind.__name__, event) if self._said is not None else None
        if said is None and self._said is not None and kind.__name__ in self._said.SILENT:
            return None
        return said if said is not None else self._fallback(kind.__name__, event, 4)

    def option(self, option: Any, point: str = "") -> str:
        """An option in words; ``point`` (the decision point's name) says what a pass ends."""
        said = self._said.option(self, type(option).__name__, option, point) if self._said is not None else None
        return said if said is not None else self._fallback(type(option).__name__, option, 0)

    def refs(self, option: Any) -> Refs:
        return self._said.refs(type(option).__name__, option) if self._said is not None else Refs()

    def point(self, point: str, state: Any = None, player: int = -1) -> str:
        """The question a point asks; given the asked ``player``'s view (``state``), with what of it the answer
        needs (the Battle Damage still to pay, the Embers there are to spend)."""
        said = self._said.POINTS.get(point) if self._said is not None else None
        asked = said if said is not None else words_of(point).capitalize()
        detail = getattr(self._said, "detail", None)
        return asked + (detail(point, state, player) if detail is not None and state is not None else "")

    def ending(self, winner: int, reason: str) -> str:
        """How a game ended, as its end line says it: ``Ann wins by Battle Damage``, ``Bob reaches 13 Slava and
        wins``; the table's ends ``Ann wins: the opponent conceded``, ``no winner: the turn cap was reached``."""
        said: str | None = self._said.ending(self, winner, reason) if self._said is not None else None
        if said is not None:
            return said
        why = END_REASONS.get(reason, words_of(reason))
        if winner >= 0:
            return f"{self.who(winner)} wins: {why}"
        return f"{'a draw' if reason == 'judge_override' else 'no winner'}: {why}"  # a judge's draw is a draw

    def _fallback(self, kind: str, record: Any, skip: int) -> str:
        """A record without a sentence of its own (a ruleset without words of its own): its kind
        in words and its fields after the first ``skip``, card instances named."""
        spaced = "".join(" " + ch if ch.isupper() else ch for ch in kind).strip()
        parts = []
        for field in record.__struct_fields__[skip:]:
            value = getattr(record, field)
            said = self.card(value) if type(value) is int and value >= CARDS_PER_PLAYER else str(value)
            parts.append(f"{field.replace('_', ' ')} {said}")
        return spaced + (": " + ", ".join(parts) if parts else "")
