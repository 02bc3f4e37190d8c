"""The Miras 9 ruleset object: set-up from a header, the decision/advance loop, hidden-information views, positions.

Which decision comes next, in order: Battle Damage still owed [M9-086]; an open reaction window (the priority
player) [M9-114]; the wave being selected or blocked [M9-074], [M9-076]; otherwise the phase's main decision.
Bot games need a turn cap: ``DEFAULT_MAX_TURNS`` is the one the shipped docs and tests use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import msgspec

from annals.engine.core import AgentFactory, CardInfo, Emit, Position
from annals.engine.miras9 import blackwake, combat, editions, shipsites, stack, turn
from annals.engine.miras9.board import draw
from annals.engine.miras9.bots import HeuristicAgent, RandomAgent
from annals.engine.miras9.cards import validate_deck
from annals.engine.miras9.cardtext import catalog
from annals.engine.miras9.choices import Awaken, DecisionPoint, DeclareAt, Pass
from annals.engine.miras9.damage import pay_options, settle
from annals.engine.miras9.events import BattleDamagePaid, CardMoved, DeckPrepared, FirstPlayerChosen, PileShuffled
from annals.engine.miras9.pool import (
    DECKS,
    DEFAULT_DECKS,
    EARLIER_POOLS,
    SECTIONS,
    SHIPPED,
    Pool,
    pool_base,
    with_cards,
)
from annals.engine.miras9.reducer import apply
from annals.engine.miras9.savedstate import decode_state
from annals.engine.miras9.state import CARD_COUNTERS, EDITION, CardState, M9State, PlayerState
from annals.engine.rng import Rng
from annals.engine.search.miras9 import Miras9SearchAgent
from annals.engine.structs import DecisionPoint as Point
from annals.schemas.carddefs import CardDefinition
from annals.schemas.header import DeckList, LogHeader
from annals.schemas.logfile import GameLog
from annals.schemas.miras9 import SCHEMA
from annals.schemas.records import LEADER_INDEX, instance_id, instance_owner

DEFAULT_MAX_TURNS = 200  # random games end by the rules well before this (longest seen: 169)
HIDDEN: Final = frozenset({"deck", "hand", "resource", "used"})  # [M9-011], [M9-046]
UNKNOWN: Final = -1


# Passing a main decision: the phase that begins (``turn.main_act`` and ``turn.move_act`` written out for the pass)
_AFTER_PASS: Final = {"action": "attack", "attack": "move", "move": "attune"}


class M9Ruleset:
    schema = SCHEMA
    state_type = M9State
    default_max_turns = DEFAULT_MAX_TURNS
    # a client asks "Sure?" before these: a mulligan taken shuffles the hand away for good [M9-021], the Planet
    # turns for good [M9-103]. Keeping the hand discards nothing and is the commonest answer: not asked
    confirm_options = frozenset({"Mulligan", "Awaken"})
    # where a card from the hand could be played: a lone pass there is forced by hidden cards (engine.forced)
    hand_points = frozenset({"priority", "action"})

    def confirms(self, option: Any) -> bool:
        """Whether a client asks before sending ``option`` (the protocol's ``Option.confirm``)."""
        kind = type(option).__name__
        return kind in self.confirm_options and not (kind == "Mulligan" and not option.take)

    def stops(self, s: M9State, point: Point[Any]) -> frozenset[str]:
        """The stops (``engine.forced.STOPS``) this question falls under, from public facts only."""
        if point.point != "priority":
            return frozenset()
        held = set()
        if s.stack and s.stack[-1].controller != point.player:
            held.add("opponent_reaction")
        if s.wave is not None and s.wave.attacker == point.player:
            held.add("my_attack")
        return frozenset(held)

    apply = apply
    card_sections = SECTIONS  # the tables of a card file (``schemas.carddefs.load_card_file``)

    def __init__(self, pool: Pool = SHIPPED):
        self.pool = pool  # the pool this instance's games are played with (a game's state carries its own)

    def with_cards(self, cards: Sequence[CardDefinition]) -> M9Ruleset:
        """The ruleset played with the shipped pool plus ``cards`` (new cards, or shipped ones changed), on this
        ruleset's base pool (today's, or an earlier edition's: ruling R-M9-61)."""
        return M9Ruleset(with_cards(tuple(cards), self.pool.base))

    def for_header(self, header: LogHeader) -> M9Ruleset:
        """The ruleset a log's game was played with: its embedded cards on the shipped pool its header's hash is
        built on, today's or an earlier edition's (``pool.pool_base``, rulings R-M9-45, R-M9-61)."""
        base = pool_base(header.card_pool_hash, header.cards)
        if base == self.pool.base and not header.cards:
            return self
        return M9Ruleset(with_cards(tuple(header.cards), base))

    def edition(self, header: LogHeader) -> int:
        """The rules edition a header's game is played by: its pool's base's (R-M9-45, R-M9-61)."""
        return EARLIER_POOLS.get(pool_base(header.card_pool_hash, header.cards), EDITION)

    def edition_note(self, header: LogHeader) -> str:
        """The rules edition of a header's game when it is not today's ("" for today's), in words: what
        ``annals replay`` says of such a log (ruling R-M9-61)."""
        edition = self.edition(header)
        if edition == EDITION:
            return ""
        base = pool_base(header.card_pool_hash, header.cards)
        return f"rules edition {edition} (card pool {base!r}), not today's edition {EDITION}"

    @property
    def extra_cards(self) -> list[CardDefinition]:
        """The definitions this ruleset's pool adds to the shipped pool: embedded in each of its games' header."""
        return list(self.pool.extra)

    def card_pool_hash(self) -> str:
        return self.pool.digest

    def card_pool_hashes(self) -> tuple[str, ...]:
        """Every pool whose games this engine re-runs as played: this one and the earlier ones (R-M9-45)."""
        return (self.pool.digest, *EARLIER_POOLS)

    def check_log(self, log: GameLog, path: str) -> None:
        """Refuse a log whose header names a card pool its decks, events or decisions do not fit: a named
        ``CardPoolError`` (``editions.check_log``, ruling R-M9-45)."""
        editions.check_log(log, path)

    def decode_state(self, data: bytes, *, json: bool = False) -> M9State:
        """A saved state (a position file's, a header's ``start_position``), alike in both builds; refused with
        ``SavedStateError`` naming the field (``miras9.savedstate``)."""
        return decode_state(data, json=json)

    def new_state(self, header: LogHeader) -> M9State:
        """The state of a new game, whose pool is the header's: the shipped one plus ``header.cards``, and whose
        rules edition is its pool's (R-M9-45)."""
        edition = self.edition(header)
        if header.start_position:
            state = decode_state(header.start_position)
            state.edition = edition
            if state.card_defs != list(header.cards):
                state.card_defs = list(header.cards)
                state.__post_init__()
            return state
        cards: dict[int, CardState] = {}
        players: list[PlayerState] = []
        pool = with_cards(tuple(header.cards))
        for p, deck in enumerate(header.decks):
            if not header.sandbox:  # a judge's sandbox position: no deck-building rules
                validate_deck(deck, pool.cards)
            leader = instance_id(p, LEADER_INDEX)
            cards[leader] = CardState(iid=leader, cid=deck.leader, owner=p, ctrl=p, zone="")
            for i, cid in enumerate(deck.cards):
                iid = instance_id(p, i)
                cards[iid] = CardState(iid=iid, cid=cid, owner=p, ctrl=p, zone="")
            players.append(PlayerState(leader=leader))
        first = header.tournament.first_player if header.tournament is not None else -1
        return M9State(cards=cards, players=players, first=first, edition=edition, card_defs=list(header.cards))

    # ------------------------------------------------------------ the loop

    def pending(self, s: M9State) -> Point[Any] | None:
        if s.over:
            return None
        w = s.wave
        if s.boundary == s.n and not (w is not None and w.step == 6 and combat.consequences_idle(s)):
            return None  # just after a turn, phase or step began: its automatic work is next
        if w is not None and w.step == 5:  # damage being dealt: no one decides in it [M9-078]
            return None
        if s.bw_card:  # the card a point revealed has a Blackwake instruction [M9-089]
            return DecisionPoint(s.bd_player, "blackwake", blackwake.options(s))
        if s.bd_player >= 0:
            opts = pay_options(s)
            return DecisionPoint(s.bd_player, "battle_damage", opts) if opts else None
        if s.window:
            return DecisionPoint(s.priority, "priority", stack.window_options(s))
        if w is not None:
            if w.step == 1:
                return DecisionPoint(w.attacker, "attackers", combat.selection_options(s))
            if w.step == 3:
                opts = combat.block_options(s)
                return DecisionPoint(1 - w.attacker, "blockers", opts) if len(opts) > 1 else None
            return None
        if s.extra:  # a card-granted extra attack, after the wave [M9-073]
            return DecisionPoint(s.active, "extra_attack", combat.extra_options(s))
        ph = s.phase
        # the phase's main decision: an if per phase, not a table of generators (compiled, a direct call each)
        if ph == "action":
            return DecisionPoint(s.active, ph, turn.action_options(s))
        if ph == "attack":
            return DecisionPoint(s.active, ph, turn.attack_options(s))
        if ph == "attune":
            return DecisionPoint(s.active, ph, turn.attune_options(s))
        if ph == "move" and s.edition >= 2:  # edition 1: no movement existed (R-M9-45)
            return DecisionPoint(s.active, ph, turn.move_options(s))
        if ph == "awaken.flow":
            return DecisionPoint(s.active, "card_flow", turn.FLOW)
        if ph == "awaken.generate":
            opts = turn.generate_options(s)
            return DecisionPoint(s.active, "generate", opts) if len(opts) > 1 else None
        if ph == "setup.site":
            for p, pl in enumerate(s.players):
                if not any(pl.sites) and not any(cs.owner == p for cs in shipsites.ship_sites(s)):
                    return DecisionPoint(p, "starting_site", turn.site_options(s, p))
            return None
        if ph == "setup.mulligan":
            for p, pl in enumerate(s.players):
                if not pl.mulligan_done:
                    return DecisionPoint(p, "mulligan", turn.MULLIGAN)
            return None
        return None

    def advance(self, s: M9State, choice: Any, emit: Emit, rng: Rng) -> None:
        if choice is None:
            self._auto(s, emit, rng)
            return
        if s.bd_player >= 0:
            turn.pay_act(s, emit, choice)
            return
        if s.window:
            stack.window_act(s, emit, choice)
            return
        if s.wave is not None:
            combat.select(s, emit, choice)
            return
        if s.extra:
            combat.take_extra(s, emit, choice)
            return
        ph = s.phase
        kind = type(choice)
        if kind is Pass:  # the commonest main decision: on to the next phase, or the turn ends [M9-031]
            after = _AFTER_PASS.get(ph)
            if after is not None:
                turn.phase(s, emit, after)
                return
            if ph == "attune":
                turn.end_turn(s, emit)
                return
        if ph == "action":
            if not turn.main_act(s, emit, choice):
                turn.phase(s, emit, "attack")
        elif ph == "attack":
            if kind is DeclareAt:
                combat.start_wave(s, emit, choice.lane)
            elif not turn.main_act(s, emit, choice):
                turn.phase(s, emit, "move")
        elif ph == "attune":
            turn.attune_act(s, emit, choice)
        elif ph == "move":
            turn.move_act(s, emit, choice)
        elif ph == "awaken.flow":
            draw(s, emit, s.active, 1, "resource" if choice.to_resource else "hand", "flow")
            turn.phase(s, emit, "awaken.generate")
        elif ph == "awaken.generate":
            if kind is Awaken:
                turn.awaken(s, emit, s.active, choice)
            else:
                draw(s, emit, s.active, choice.amount, "resource", "generate")
                turn.phase(s, emit, "action")
        elif ph == "setup.site":
            turn.place_site(s, emit, s.cards[choice.card].owner, choice.card, choice.lane, "setup")
        elif ph == "setup.mulligan":
            p = 0 if not s.players[0].mulligan_done else 1
            turn.mulligan(s, emit, rng, p, choice.take)

    def _auto(self, s: M9State, emit: Emit, rng: Rng) -> None:
        if s.boundary == s.n:  # a position held just after a turn, the Awaken phase or a wave step began
            before = s.n
            turn.resume(s, emit)
            if s.n != before:
                return
            # the consequences step had nothing to do [M9-079]: on as from its end
        if s.phase == "setup":  # a new game (a position may start anywhere else, at any event number)
            decks = [sorted(c for c, cs in s.cards.items() if cs.owner == p and cs.iid != pl.leader)
                     for p, pl in enumerate(s.players)]  # fmt: skip
            turn.begin(s, emit, decks)
        elif s.bd_player >= 0:
            settle(s, emit)
        elif s.wave is not None:
            combat.wave_auto(s, emit)
        elif s.phase == "setup.site":
            turn.phase(s, emit, "setup.deal")
        elif s.phase == "setup.deal":  # its own step, so a position saved on entering it continues with the deal
            turn.deal_hands(s, emit, rng)
        elif s.phase == "setup.mulligan":
            # [M9-022]: drawn by the engine, unless the header names the seat agreed on (R-EVT-02)
            first = s.first if s.first in (0, 1) else rng.below(2)
            emit(FirstPlayerChosen(s.n, 0, s.step, -1, first))
            turn.start_turn(s, emit, first)
        elif s.phase == "awaken.generate":
            turn.phase(s, emit, "action")
        elif s.phase == "move":
            turn.phase(s, emit, "attune")
        # else nothing to do: only a position saved inside one action (just after PhaseBegan "awaken", say); the
        # runner names that a StalledGameError

    # ------------------------------------------------------------ views

    def redact(self, event: Any, viewer: int) -> Any:
        """Hidden cards become ``-1`` for anyone but their owner; pile orders are hidden from everyone [M9-012]. A
        card Battle Damage revealed [M9-088] stays shown wherever its Blackwake puts it (ruling R-M9-57)."""
        kind = type(event)
        if kind is PileShuffled or kind is DeckPrepared:
            return msgspec.structs.replace(event, cards=[UNKNOWN] * len(event.cards))
        if kind is CardMoved and event.src in HIDDEN and event.dst in HIDDEN:
            owner = instance_owner(event.card)
            if viewer != owner:  # the owner saw the card leave their hand, even into the deck
                return msgspec.structs.replace(event, card=UNKNOWN)
        if kind is BattleDamagePaid and event.src == "hand" and event.dst in HIDDEN and viewer != event.player:
            return msgspec.structs.replace(event, card=UNKNOWN)  # no rule does this: a card from Hand stays hidden
        # A point paid from Main Deck, Resource or Used showed its card to both players (``BlackwakeChecked``), so
        # where a Blackwake replacement puts it (Hand, or on top of Resource) is public too (ruling R-M9-57)
        return event

    def set_card_id(self, s: M9State, card: int, card_id: str) -> None:
        if card in s.cards and card % 1000 != LEADER_INDEX:  # the Planet is face-up from the start
            s.cards[card].cid = card_id

    def pile_sizes(self, s: M9State) -> dict[str, int]:
        """Each player's piles by size (``"p0:deck"``), hidden cards counted: what the board shows of them."""
        zones = ("deck", "hand", "resource", "used", "discard", "exile")
        return {f"p{side}:{zone}": len(getattr(pl, zone)) for side, pl in enumerate(s.players) for zone in zones}

    def attachments(self, s: M9State) -> dict[int, list[int]]:
        """Each card that carries others: Equipment on its host [M9-041], Units aboard a Vehicle [M9-061] (what
        tells two copies of a Unit apart beside its counters, ruling R-CORE-10)."""
        out: dict[int, list[int]] = {}
        for c, cs in s.cards.items():
            for holder in (cs.host, cs.aboard):
                if holder and cs.zone:
                    out.setdefault(holder, []).append(c)
        return out

    def position(self, s: M9State) -> Position:
        cards = {c: cs.zone for c, cs in s.cards.items() if cs.zone}
        counters: dict[str, int] = {}
        for p, pl in enumerate(s.players):
            if pl.echo:
                counters[f"{p}:echo"] = pl.echo
        for c, cs in s.cards.items():
            for name in CARD_COUNTERS:
                v = getattr(cs, name)
                if v:
                    counters[f"{c}:{name}"] = v
        return Position(cards, counters)

    def agents(self) -> Mapping[str, AgentFactory]:
        return {"random": RandomAgent, "heuristic": HeuristicAgent, "search": Miras9SearchAgent}

    def decks(self) -> Mapping[str, DeckList]:
        return DECKS

    def default_decks(self) -> tuple[str, str]:
        return DEFAULT_DECKS

    def cards(self) -> Mapping[str, CardInfo]:
        return catalog(self.pool.cards)


RULESET = M9Ruleset()
