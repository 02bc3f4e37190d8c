"""The one ``apply(state, event)`` of the Miras 9 TCG: the only code that changes an ``M9State``.

Each handler does the bookkeeping its event names and nothing else; the rules decided everything before emitting.
Pile order [M9-012] and ruling R-M9-04: a card moved onto a pile goes on top (the end of the list).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from annals.engine.core import Reducer
from annals.engine.miras9.events import (
    CardMoved,
    CounterChanged,
    PhaseBegan,
    PriorityPassed,
    SelectionChanged,
    TurnBegan,
    WaveStep,
    WindowClosed,
    WindowOpened,
)
from annals.engine.miras9.state import (
    PILES,
    REPLACEMENT,
    ZONE_BOARD,
    ZONE_LOC,
    ZONE_ROUTE,
    ZONE_SITE,
    CardState,
    M9State,
    Spent,
    StackItem,
    Wave,
    loc_of,
)
from annals.schemas import miras9 as ev

_PILE_SET: Final = frozenset(PILES)
# the wave steps a position is held at the start of: those that begin with a reaction window [M9-075], [M9-077],
# [M9-080], and the automatic ones, combat damage [M9-078] and its consequences [M9-079]
OPENING: Final = frozenset({2, 4, 5, 6, 7})


def _planet(s: M9State, e: ev.PlanetPlaced) -> None:
    cs = s.cards[e.card]
    cs.zone, cs.face = "planet", 0
    s.players[e.player].leader = e.card


def _deck(s: M9State, e: ev.DeckPrepared) -> None:
    s.players[e.player].deck = list(e.cards)
    cards = s.cards
    for c in e.cards:
        if c >= 0:
            cards[c].zone = "deck"


def _shuffled(s: M9State, e: ev.PileShuffled) -> None:
    setattr(s.players[e.player], e.dst, list(e.cards))


def _first(s: M9State, e: ev.FirstPlayerChosen) -> None:
    s.first = e.first
    s.boundary = e.n + 1  # set-up done [M9-022]: the first player's first turn next


def _mulligan(s: M9State, e: ev.MulliganTaken) -> None:
    s.players[e.player].mulligan_done = True


def _turn(s: M9State, e: ev.TurnBegan) -> None:
    # the step is the event's (``awaken``), as every reader of the position says it; the phase stays the last
    # turn's until Awaken begins (``turn.resume`` reads it to know the survival check comes next)
    s.turn, s.active, s.step = e.turn, e.active, e.step
    s.boundary = e.n + 1  # the turn begun, nothing else yet (``M9State.boundary``)
    s.attacked = []
    s.once = []
    s.manifested = []
    s.pressured = []


def _phase(s: M9State, e: ev.PhaseBegan) -> None:
    s.phase = s.step = e.phase
    if e.phase == "awaken":  # the one phase that runs without a decision: its arrivals and readying follow
        s.boundary = e.n + 1


def _over(s: M9State, e: ev.GameOver) -> None:
    s.over, s.winner, s.end_reason = True, e.winner, e.reason


def _remove_from_zone(s: M9State, card: int, zone: str, owner: int) -> int:
    """Take ``card`` out of the pile, board position or Site slot named ``zone`` (the ``src`` of a move); return
    the card taken, which differs from ``card`` only in a redacted stream (below)."""
    if zone in _PILE_SET:
        pile: list[int] = getattr(s.players[owner], zone)
        if pile and pile[-1] == card:
            pile.pop()
        elif card == -1 and pile and pile[-1] != -1:
            # a redacted stream: an unknown card leaving a hidden pile is its top card (a draw, a generation, a
            # spend), here one the viewer saw put there (a Blackwake card revealed, then replaced onto the pile)
            return pile.pop()
        elif card in pile:
            pile.remove(card)
        elif -1 in pile:  # a redacted stream: the card sat in this pile as an unknown (-1), the topmost one (a
            del pile[len(pile) - 1 - pile[::-1].index(-1)]  # draw takes the top), so the known ones keep their place
        else:  # a view that lost track of the card (none in tests/miras9/test_view_exact.py does): the top
            pile.pop()
    elif zone in ZONE_BOARD:
        s.board.remove(card)
    elif zone in ZONE_SITE:
        side, lane = ZONE_SITE[zone]
        s.players[side].sites[lane] = 0
    elif zone == "stack":
        s.stack_cards.remove(card)
    return card


def _moved(s: M9State, e: ev.CardMoved) -> None:
    card = e.card
    cs = s.cards.get(card)
    owner = cs.owner if cs is not None else e.player
    card = _remove_from_zone(s, card, e.src, owner)
    if card != e.card:  # the viewer knew the card a redacted move took: it still knows where it went
        cs = s.cards.get(card)
    dst = e.dst
    if dst in _PILE_SET:
        getattr(s.players[owner], dst).append(card)
        loc = -1
    elif dst in ZONE_LOC:
        s.board.append(card)
        loc = ZONE_LOC[dst]
    elif dst in ZONE_SITE:
        side, lane = ZONE_SITE[dst]
        s.players[side].sites[lane] = card
        loc = loc_of(side, lane)
    else:
        if dst == "stack":
            s.stack_cards.append(card)
        loc = -1
    if cs is not None:
        if cs.origin >= 0:  # an En Route card leaving the board
            cs.origin = -1
        cs.zone, cs.loc, cs.host = dst, loc, e.host
        if dst == "planet":
            cs.face = 0
        elif e.src == "planet":
            cs.face = 1


def _token(s: M9State, e: ev.TokenCreated) -> None:
    loc = ZONE_LOC[e.dst]
    s.cards[e.card] = CardState(
        iid=e.card, cid=e.card_id, owner=e.player, ctrl=e.player, zone=e.dst, loc=loc, token=True
    )
    s.board.append(e.card)
    s.next_token += 1


def _counter(s: M9State, e: ev.CounterChanged) -> None:
    if e.counter == "echo":
        s.players[e.holder].echo = e.value
    else:
        setattr(s.cards[e.holder], e.counter, e.value)


def _record_only(s: M9State, e: object) -> None:
    """An event kept for the record that changes no state (what it causes arrives as its own events)."""
    return None


def _activated(s: M9State, e: ev.AbilityActivated) -> None:
    s.once.append(Spent(e.card, e.ability))


def _replaced(s: M9State, e: ev.ReplacementApplied) -> None:
    s.once.append(Spent(e.card, REPLACEMENT))


def _manifested(s: M9State, e: ev.Manifested) -> None:
    s.manifested.append(s.cards[e.card].loc)


def _pressured(s: M9State, e: ev.Pressured) -> None:
    s.pressured.append(s.cards[e.card].loc)


def _window(s: M9State, e: ev.WindowOpened) -> None:
    s.window, s.priority, s.passes = e.window, e.priority, 0


def _pushed(s: M9State, e: ev.StackPushed) -> None:
    s.stack.append(StackItem(e.card, e.ability, e.target, e.controller))
    s.passes = 0
    s.priority = 1 - e.controller


def _passed(s: M9State, e: ev.PriorityPassed) -> None:
    s.passes, s.priority = e.passes, e.to


def _resolved(s: M9State, e: ev.StackResolved) -> None:
    s.stack.pop()
    s.passes = 0  # ruling R-M9-03: a resolution consumes the two passes
    s.priority = s.wave.attacker if s.wave is not None else s.active


def _closed(s: M9State, e: ev.WindowClosed) -> None:
    s.window, s.priority, s.passes = "", -1, 0


_ATTACK_STEPS: Final[dict[str, str]] = {}  # a wave step's name -> the state's step while it runs (made once per name)


def _wave_step(s: M9State, e: ev.WaveStep) -> None:
    assert s.wave is not None
    s.wave.step = e.step_no
    name = e.name
    step = _ATTACK_STEPS.get(name)
    if step is None:
        step = _ATTACK_STEPS[name] = f"attack.{name}"
    s.step = step
    if e.step_no in OPENING:  # its reaction window opens next, or its automatic work follows
        s.boundary = e.n + 1


def _combat_damage(s: M9State, e: ev.CombatDamage) -> None:
    if e.amount and s.wave is not None:  # wounds placed: the consequences step looks who wounded whom [M9-083]
        s.wave.wounded.append((e.source, e.target))


def _selection(s: M9State, e: ev.SelectionChanged) -> None:
    if e.stage == "site":
        s.wave = Wave(number=s.waves + 1, lane=e.lane, attacker=e.player)
        return
    w = s.wave
    assert w is not None
    if e.stage == "attack":
        w.attackers.append(e.card)
        w.targets.append(e.target)
    else:
        w.blockers.append(e.card)
        w.blocked.append(e.target)


def _declared(s: M9State, e: ev.WaveDeclared) -> None:
    assert s.wave is not None
    s.waves += 1
    s.attacked.append(s.wave.lane)


def _blockers(s: M9State, e: ev.BlockersDeclared) -> None:
    w = s.wave
    assert w is not None
    w.was_blocked = sorted(set(e.attackers))


def _left(s: M9State, e: ev.LeftWave) -> None:
    w = s.wave
    assert w is not None
    w.left.append(e.card)
    if e.card in w.attackers:
        i = w.attackers.index(e.card)
        del w.attackers[i]
        del w.targets[i]
    while e.card in w.blockers:
        i = w.blockers.index(e.card)
        del w.blockers[i]
        del w.blocked[i]


def _wave_end(s: M9State, e: ev.WaveEnded) -> None:
    s.wave = None
    s.step = "attack"


def _bd_assigned(s: M9State, e: ev.BattleDamageAssigned) -> None:
    s.bd_player = e.holder
    s.bd_sources.extend([e.source] * e.amount)


def _bd_paid(s: M9State, e: ev.BattleDamagePaid) -> None:
    if e.source == "echo":
        s.players[e.holder].echo = e.value
    else:
        if e.src == "hand":
            _remove_from_zone(s, e.card, e.src, e.player)
        else:  # [M9-087] the top card of that pile, whatever a seat's view held there (a -1, or the card itself)
            getattr(s.players[e.player], e.src).pop()
        getattr(s.players[e.player], e.dst).append(e.card)  # Discard, or where a Blackwake put it instead
        cs = s.cards.get(e.card)
        if cs is not None:
            cs.zone, cs.loc = e.dst, -1
    s.bd_paid += 1
    if e.remaining == 0:
        s.bd_sources = []
        s.bd_paid = 0
        s.bd_player = -1


def _unit_moved(s: M9State, e: ev.UnitMoved) -> None:
    """[M9-058] the mover, its crew and Equipment leave their position: En Route (they stay in ``board``, at their
    destination's route zone), or there at once."""
    route = e.dst in ZONE_ROUTE
    loc = ZONE_ROUTE[e.dst] if route else ZONE_LOC[e.dst]
    origin = ZONE_LOC[e.src] if route else -1
    for c in e.cards:
        cs = s.cards[c]
        cs.zone, cs.loc, cs.origin = e.dst, loc, origin


def _arrived(s: M9State, e: ev.Arrived) -> None:
    loc = ZONE_LOC[e.dst]
    for c in e.cards:
        cs = s.cards[c]
        cs.zone, cs.loc, cs.origin = e.dst, loc, -1


def _embarked(s: M9State, e: ev.Embarked) -> None:
    cs, host = s.cards[e.card], s.cards[e.host]
    cs.aboard = e.host
    if cs.owner == host.ctrl:  # [M9-061] only the host controller's Units man it
        host.crew += 1


def _disembarked(s: M9State, e: ev.Disembarked) -> None:
    cs, host = s.cards[e.card], s.cards[e.host]
    cs.aboard = 0
    if cs.owner == host.ctrl:
        host.crew -= 1


def _bw_checked(s: M9State, e: ev.BlackwakeChecked) -> None:
    if e.instruction:
        s.bw_card = e.card


def _bw_resolved(s: M9State, e: ev.BlackwakeResolved) -> None:
    s.bw_card = 0


def _extra_granted(s: M9State, e: ev.ExtraAttackGranted) -> None:
    s.extra.append(e.card)
    s.extra_lane = ZONE_SITE[e.site][1]


def _extra_taken(s: M9State, e: ev.ExtraAttackTaken) -> None:
    s.extra.remove(e.card)
    if e.taken:
        s.wave = Wave(number=s.waves + 1, lane=ZONE_SITE[e.site][1], attacker=e.player, extra=e.card)
    if not s.extra:
        s.extra_lane = -1


def _undone(s: M9State, e: ev.SelectionUndone) -> None:
    w = s.wave
    assert w is not None
    if e.stage == "attack":
        w.attackers.pop()
        w.targets.pop()
    elif e.stage == "block":
        w.blockers.pop()
        w.blocked.pop()
    else:
        s.wave = None
        s.step = "attack"


def _ship_moved(s: M9State, e: ev.ShipSiteMoved) -> None:
    """[M9-063] a Ship-Site, its crew and Equipment reach their new position at once (ruling R-M9-53)."""
    loc = ZONE_LOC[e.dst]
    for c in e.cards:
        cs = s.cards[c]
        cs.zone, cs.loc = e.dst, loc


def _destination(s: M9State, e: ev.DestinationChosen) -> None:
    s.stack[-1].dest = ZONE_LOC[e.to]


def _handle(s: M9State, e: Any) -> bool:
    """Apply one of the commonest events (83% of a random game's) by its handler, tested by type; False for any
    other (left to the table). Compiled, each handler is then a direct call, not a call through the table's function
    object."""
    kind = type(e)
    if kind is PhaseBegan:
        _phase(s, e)
    elif kind is CardMoved:
        _moved(s, e)
    elif kind is CounterChanged:
        _counter(s, e)
    elif kind is WaveStep:
        _wave_step(s, e)
    elif kind is PriorityPassed:
        _passed(s, e)
    elif kind is WindowOpened:
        _window(s, e)
    elif kind is WindowClosed:
        _closed(s, e)
    elif kind is TurnBegan:
        _turn(s, e)
    elif kind is SelectionChanged:
        _selection(s, e)
    else:
        return False
    return True


class M9Reducer(Reducer[M9State]):
    """``Reducer`` whose ``recorder`` applies the commonest events by ``_handle``; the rest, and every error (an
    unknown event, one out of order), exactly as the table does (as ``morana.reducer.MoranaReducer``)."""

    def recorder(self, state: M9State, events: list[Any]) -> Callable[[Any], None]:
        other = super().recorder(state, events)

        def record(event: Any) -> None:
            n = state.n
            if event.n != n or not _handle(state, event):
                other(event)
                return
            state.n = n + 1
            events.append(event)

        return record


apply = M9Reducer(
    {
        ev.PlanetPlaced: _planet,
        ev.DeckPrepared: _deck,
        ev.PileShuffled: _shuffled,
        ev.FirstPlayerChosen: _first,
        ev.MulliganTaken: _mulligan,
        ev.TurnBegan: _turn,
        ev.PhaseBegan: _phase,
        ev.GameOver: _over,
        ev.CardMoved: _moved,
        ev.TokenCreated: _token,
        ev.CounterChanged: _counter,
        ev.CardPlayed: _record_only,
        ev.AbilityActivated: _activated,
        ev.Awakened: _record_only,
        ev.Manifested: _manifested,
        ev.Pressured: _pressured,
        ev.Restored: _record_only,
        ev.TriggerFired: _record_only,
        ev.ReplacementApplied: _replaced,
        ev.DamagePrevented: _record_only,
        ev.WindowOpened: _window,
        ev.StackPushed: _pushed,
        ev.PriorityPassed: _passed,
        ev.StackResolved: _resolved,
        ev.WindowClosed: _closed,
        ev.WaveStep: _wave_step,
        ev.WaveDeclared: _declared,
        ev.BlockersDeclared: _blockers,
        ev.CombatDamage: _combat_damage,
        ev.LeftWave: _left,
        ev.WaveEnded: _wave_end,
        ev.BattleDamageAssigned: _bd_assigned,
        ev.BattleDamagePaid: _bd_paid,
        ev.SelectionChanged: _selection,
        ev.UnitMoved: _unit_moved,
        ev.Arrived: _arrived,
        ev.Embarked: _embarked,
        ev.Disembarked: _disembarked,
        ev.Spotted: _record_only,
        ev.BlackwakeChecked: _bw_checked,
        ev.BlackwakeResolved: _bw_resolved,
        ev.ExtraAttackGranted: _extra_granted,
        ev.ExtraAttackTaken: _extra_taken,
        ev.SelectionUndone: _undone,
        ev.DestinationChosen: _destination,
        ev.ShipSiteMoved: _ship_moved,
        ev.ShipSiteAttacked: _record_only,
    }
).apply
