"""Reaction windows, priority and the reaction stack [M9-114], [M9-115]; activated abilities [M9-043]-[M9-045],
[M9-107]; Reactions [M9-042].

* Only the priority player may announce; targets are chosen and costs paid at announcement [M9-005], [M9-114].
  After an announcement the opponent receives priority.
* A pass hands priority over. Two consecutive passes resolve only the top item; then the attacking player gets
  priority and (ruling R-M9-03) the pass count starts again from 0. Two consecutive passes on an empty stack close
  the window.
* Ruling R-M9-29: Reactions and reaction-timing abilities are used in attack-wave windows only; abilities naming a
  phase (``action``, ``attune``) are used at their phase's main decision and resolve at once.
* Ruling R-M9-59: a Ship-Site in play has activated abilities as a Unit has, used by its controller wherever it
  stands (covering its own Site or contesting an enemy one [M9-065]); it has no entry delay, so a tap cost needs it
  ready only [M9-043], [M9-053].
"""

from __future__ import annotations

from typing import Any, Final

from annals.engine.core import Emit
from annals.engine.miras9.board import counter, defn, is_unit, legal_targets, set_echo, spend
from annals.engine.miras9.choices import Activate, Escape, Pass, PlayCard
from annals.engine.miras9.effects import check_defeats, resolve
from annals.engine.miras9.escape import destinations
from annals.engine.miras9.events import (
    AbilityActivated,
    CardMoved,
    CardPlayed,
    DestinationChosen,
    PriorityPassed,
    StackPushed,
    StackResolved,
    WindowClosed,
    WindowOpened,
)
from annals.engine.miras9.shipsites import is_ship_site
from annals.engine.miras9.state import LOC_NAMES, M9State, Spent
from annals.schemas import miras9 as sm
from annals.schemas.miras9 import Ability, CardDef

PASS: Final = Pass()
NONE: Final[frozenset[str]] = frozenset()


def ability_ok(s: M9State, player: int, card: int, i: int, a: Ability) -> bool:
    """Costs payable [M9-005], tap needs a ready, Attuned source [M9-043], once per turn [M9-044]."""
    cs = s.cards[card]
    pl = s.players[player]
    if a.cost > len(pl.resource) or a.echo > pl.echo:
        return False
    if a.tap and (cs.tapped or not (cs.attuned or is_ship_site(s, cs))):  # a Ship-Site: ready (ruling R-M9-59)
        return False
    return not (a.once_per_turn and Spent(card, i) in s.once)


def ability_options(s: M9State, player: int, timing: str) -> list[sm.Activate]:
    opts: list[sm.Activate] = []
    cards = s.cards
    pool = s.pool
    cids = pool.timed.get(timing, NONE)  # the cards with an ability of this timing, and the Spirit faces
    spirit_cids = pool.spirit_timed.get(timing, NONE)
    for c in s.board:
        cs = cards[c]
        cid = cs.cid  # in neither set (most cards): no need to read the face
        if (cid not in cids and cid not in spirit_cids) or cid not in (spirit_cids if cs.face else cids):
            continue
        if cs.ctrl != player:
            continue
        if not (is_unit(s, cs) or is_ship_site(s, cs)):  # ruling R-M9-59: a Ship-Site's abilities too
            continue
        for i, a in enumerate(defn(s, cs).abilities):
            if a.timing == timing and ability_ok(s, player, c, i, a):
                opts.extend(Activate(c, i, t) for t in legal_targets(s, a.target, player))
    return opts


def reaction_cards(s: M9State, player: int) -> list[sm.PlayCard]:
    pl = s.players[player]
    opts: list[sm.PlayCard] = []
    seen: set[str] = set()
    budget = len(pl.resource)
    reactions = s.pool.reaction_cids  # the Reaction Events [M9-042]
    for c in pl.hand:
        cid = s.cards[c].cid
        if cid not in reactions or cid in seen:
            continue
        d = s.pool[cid]
        if d.cost > budget:
            continue
        seen.add(cid)
        escape = _escape_of(d) if s.edition > 1 else None  # edition 1: leave the wave, no destination
        for t in legal_targets(s, d.target, player):
            if escape is None:
                opts.append(PlayCard(c, -1, t))
            else:  # the destination is chosen with the target [M9-114], [M9-117]
                opts.extend(PlayCard(c, dest, t) for dest in destinations(s, s.cards[t], list(escape.traits), player))
    return opts


def _escape_of(d: CardDef) -> sm.Escape | None:
    for e in d.effects:
        if type(e) is Escape:
            return e
    return None


def window_options(s: M9State) -> list[Any]:
    p = s.priority
    opts: list[Any] = [PASS]
    opts.extend(reaction_cards(s, p))
    opts.extend(ability_options(s, p, "reaction"))
    return opts


def open_window(s: M9State, emit: Emit, name: str, first: int) -> None:
    emit(WindowOpened(s.n, s.turn, s.step, first, name, first))


def pay_ability(s: M9State, emit: Emit, player: int, opt: sm.Activate) -> Ability:
    cs = s.cards[opt.card]
    a = defn(s, cs).abilities[opt.ability]
    emit(AbilityActivated(s.n, s.turn, s.step, player, opt.card, opt.ability, opt.target))
    spend(s, emit, player, a.cost)
    if a.echo:
        set_echo(s, emit, player, s.players[player].echo - a.echo, "ability")
    if a.tap:
        counter(s, emit, cs, "tapped", 1, "cost")
    return a


def announce(s: M9State, emit: Emit, choice: Any) -> None:
    p = s.priority
    if type(choice) is PlayCard:
        cs = s.cards[choice.card]
        d = s.pool[cs.cid]
        emit(CardPlayed(s.n, s.turn, s.step, p, choice.card, cs.cid, choice.target))
        spend(s, emit, p, d.cost)
        emit(CardMoved(s.n, s.turn, s.step, p, choice.card, "hand", "stack", "announce", 0))
        emit(StackPushed(s.n, s.turn, s.step, p, choice.card, -1, choice.target, p, len(s.stack) + 1))
        if choice.loc >= 0:
            emit(DestinationChosen(s.n, s.turn, s.step, p, choice.card, LOC_NAMES[choice.loc]))
    else:
        pay_ability(s, emit, p, choice)
        emit(StackPushed(s.n, s.turn, s.step, p, choice.card, choice.ability, choice.target, p, len(s.stack) + 1))


def resolve_top(s: M9State, emit: Emit) -> None:
    item = s.stack[-1]
    cs = s.cards[item.card]
    if item.ability < 0:
        d = s.pool[cs.cid]
        kind, effects = d.target, list(d.effects)
    else:
        a = defn(s, cs).abilities[item.ability]
        kind, effects = a.target, list(a.effects)
    target = item.target
    fizzled = bool(kind) and target not in legal_targets(s, kind, item.controller)
    if not fizzled and item.dest >= 0 and item.ability < 0:  # an announced destination must still be legal
        escape = _escape_of(s.pool[cs.cid])
        fizzled = escape is not None and item.dest not in destinations(
            s, s.cards[target], list(escape.traits), item.controller
        )
    resolve(s, emit, effects, item.card, item.controller, 0 if fizzled else target)
    check_defeats(s, emit)
    if item.ability < 0 and s.cards[item.card].zone == "stack":
        emit(CardMoved(s.n, s.turn, s.step, item.controller, item.card, "stack", "discard", "resolved", 0))
    emit(StackResolved(s.n, s.turn, s.step, item.controller, item.card, item.ability, target, fizzled))


def window_act(s: M9State, emit: Emit, choice: Any) -> None:
    if type(choice) is not Pass:
        announce(s, emit, choice)
        return
    p = s.priority
    passes = s.passes + 1
    emit(PriorityPassed(s.n, s.turn, s.step, p, passes, 1 - p))
    if passes < 2:
        return
    if s.stack:
        resolve_top(s, emit)
    else:
        emit(WindowClosed(s.n, s.turn, s.step, -1, s.window))
