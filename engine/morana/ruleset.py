"""The MORANA ruleset object: what the shared runner, replay, views and tools call [MOR-01]–[MOR-41].

``pending`` offers the one decision point, Commit [MOR-15]; everything else proceeds on its own. ``redact`` is the
hidden-information view [MOR-07], [MOR-15], [MOR-23] (R-MOR-14): deck order is hidden from everyone and a hand from
everyone but its owner; the opponent's Commit is behind a screen: each of its events becomes a bare ``Sealed`` (and
``CommitDone.placed`` is hidden), so neither the cards, their Sites, the Embers paid nor the Invocation show until
the ``Flipped`` event at Dusk reveals them all (with each player's Embers left); only the number of actions shows,
two ``Sealed`` each. Nav, Sites after Dusk, Slava, Power and the Wardens are open.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import msgspec

from annals.engine import compiled, savedstate
from annals.engine.agents import RandomAgent
from annals.engine.core import AgentFactory, CardInfo, DecisionPoint, Emit, Position
from annals.engine.morana import reducer
from annals.engine.morana.bots import HeuristicAgent
from annals.engine.morana.cards import (
    SECTIONS,
    Pool,
    catalog,
    decks,
    default_decks,
    shipped_pool,
    validate_deck,
    with_cards,
)
from annals.engine.morana.resolution import definition
from annals.engine.morana.state import (
    COMMIT_DONE,
    NOBODY,
    MoranaState,
    StructMoranaState,
    deck_index,
    warden_instance,
)
from annals.engine.morana.turn import commit, dusk_and_rite, options, resume, setup
from annals.engine.rng import Rng
from annals.engine.search.morana import MoranaSearchAgent
from annals.schemas import morana as ev
from annals.schemas.carddefs import CardDefinition
from annals.schemas.errors import InvalidDeckError
from annals.schemas.header import DeckList, LogHeader
from annals.schemas.morana import SCHEMA, MoranaOption
from annals.schemas.records import LEADER_INDEX, ClockCharged, Forfeited, instance_owner

_POINT: Final = DecisionPoint  # compiled, a C static: the imported name is a lookup in the module's dict per call


class MoranaRuleset:
    schema = SCHEMA
    state_type = MoranaState
    default_max_turns = 0  # a game ends after Turn 8 at the latest [MOR-05]
    confirm_options = frozenset({"Done", "Invoke"})  # seals the Commit; the Invocation is once a game [MOR-33]
    hand_points = frozenset({"commit"})  # a lone Seal is forced by the hand's costs, which are hidden (engine.forced)
    apply = reducer.apply
    card_sections = SECTIONS  # the tables of a card file (``schemas.carddefs.load_card_file``)

    def __init__(self, pool: Pool | None = None):
        self.pool = pool if pool is not None else shipped_pool()  # this instance's pool (a state carries its own)

    def with_cards(self, cards: Sequence[CardDefinition]) -> MoranaRuleset:
        """The ruleset played with the shipped pool plus ``cards`` (new cards or Wardens, or shipped ones changed)."""
        return MoranaRuleset(with_cards(tuple(cards)))

    @property
    def extra_cards(self) -> list[CardDefinition]:
        """The definitions this ruleset's pool adds to the shipped pool: embedded in each of its games' header."""
        return list(self.pool.extra)

    def card_pool_hash(self) -> str:
        return self.pool.digest

    def decode_state(self, data: bytes, *, json: bool = False) -> MoranaState:
        """A saved state (a position file's, a header's ``start_position``); refused with ``SavedStateError``
        naming the field. Compiled, the state is a native class (``gamestate``), into which msgspec decodes a
        missing int as 0: the data is checked against its Struct twin first, which carries the true defaults."""
        checked = StructMoranaState if compiled.is_compiled() else None  # interpreted, MoranaState is the Struct
        return savedstate.decode(MoranaState, data, json=json, checked=checked)

    def new_state(self, header: LogHeader) -> MoranaState:
        """The state of a new game, whose pool is the header's: the shipped one plus ``header.cards``."""
        if header.start_position:
            state = self.decode_state(header.start_position)
            if state.card_defs != list(header.cards):
                state.card_defs = list(header.cards)
                state.__post_init__()
            return state
        if len(header.decks) != 2:
            n = len(header.decks)
            raise InvalidDeckError(
                f"MORANA is played by 2 players; the header lists {n} deck{'s' if n != 1 else ''}; give exactly 2"
            )
        p = with_cards(tuple(header.cards))
        for deck in header.decks:
            if not header.sandbox:  # a judge's sandbox position: no deck-building rules
                validate_deck(deck, p)
        return MoranaState(
            ids=[list(d.cards) for d in header.decks],
            wardens=[d.leader for d in header.decks],
            card_defs=list(header.cards),
        )

    def pending(self, s: MoranaState) -> DecisionPoint[MoranaOption] | None:
        committing = s.committing
        if committing >= COMMIT_DONE or s.step != "commit" or s.over:
            return None
        return _POINT(committing, "commit", options(s))

    def advance(self, s: MoranaState, choice: Any, emit: Emit, rng: Rng) -> None:
        if choice is not None:
            commit(s, emit, choice)
        elif s.step == "setup" and not s.boundary:  # (set-up done, a position held there: the first Dawn next)
            setup(s, emit, rng)
        elif s.step == "commit":
            dusk_and_rite(s, emit)
        else:  # a position saved at the start of Dusk, the Rite or a Dawn
            resume(s, emit)

    def redact(self, event: Any, viewer: int) -> Any:
        t = type(event)
        if t is ev.DeckShuffled:
            return msgspec.structs.replace(event, cards=[ev.UNKNOWN] * len(event.cards))
        if event.player == viewer or event.player == NOBODY:
            return event
        if t is ev.Drew:
            return msgspec.structs.replace(event, card=ev.UNKNOWN)
        if event.step == "commit" and t is not ClockCharged and t is not Forfeited:
            # behind the screen: that something was sealed, never what, where or its cost
            if t is ev.CommitDone:
                return msgspec.structs.replace(event, placed=ev.HIDDEN)
            return ev.Sealed(event.n, event.turn, event.step, event.player)
        return event

    def set_card_id(self, s: MoranaState, card: int, card_id: str) -> None:
        if card % 1000 != LEADER_INDEX:  # the Wardens are face-up from the start [MOR-07]
            s.ids[instance_owner(card)][deck_index(card)] = card_id

    def pile_sizes(self, s: MoranaState) -> dict[str, int]:
        """Each player's piles by size (``"p0:deck"``), hidden cards counted: what the board shows of them."""
        return {f"p{side}:{zone}": len(getattr(s, zone)[side]) for side in (0, 1) for zone in ("deck", "hand", "nav")}

    def position(self, s: MoranaState) -> Position:
        cards: dict[int, str] = {}
        counters: dict[str, int] = {}
        for p in (0, 1):
            for zone, pile in (("deck", s.deck[p]), ("hand", s.hand[p]), ("nav", s.nav[p])):
                for c in pile:
                    cards[c] = zone
            for k, pile in enumerate(s.sites[p]):
                for c in pile:
                    cards[c] = f"site:{k + 1}"
            if s.wardens_seated[p]:
                cards[warden_instance(p)] = "warden"
            counters[f"{p}:slava"] = s.slava[p]
            counters[f"{p}:embers"] = s.embers[p]
        for c, v in s.power.items():
            counters[f"{c}:power"] = v
        for c in [*s.nav[0], *s.nav[1], *s.reborning]:  # defeated at 0, and not yet revealed again
            if c not in s.power and definition(s, c).kind == "spirit":
                counters[f"{c}:power"] = 0
        return Position(cards, counters)

    def agents(self) -> Mapping[str, AgentFactory]:
        return {"random": RandomAgent, "heuristic": HeuristicAgent, "search": MoranaSearchAgent}

    def decks(self) -> Mapping[str, DeckList]:
        return decks()

    def default_decks(self) -> tuple[str, str]:
        return default_decks()

    def cards(self) -> Mapping[str, CardInfo]:
        return catalog(self.pool)


RULESET = MoranaRuleset()
