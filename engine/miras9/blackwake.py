"""Blackwake [M9-088], [M9-089], [M9-123], in the consequences step of a wave [M9-079].

* Checked only for Battle Damage, which comes only from unblocked attacks on a standard Site [M9-071], [M9-122]
  (``combat`` assigns no other): each point paid from Main Deck, Resource or Used takes that pile's top card and
  reveals it, and every such check is a ``BlackwakeChecked`` event, whether the card has an instruction or not. A
  point paid from Hand or with Echo is no check [M9-088].
* Ruling R-M9-40 (settles OPEN-QUESTIONS A-22): the instruction resolves at once, before the next point, so Echo it
  gives can pay a later point; a card is "revealed" by being paid from one of the three hidden piles.
* [M9-089] the instruction may replace the card's discard (``instead``: it goes to Hand or Resource, the point
  still paid) or create its printed effect; it is optional (its owner may decline), and its Echo cost and target
  must be legal and paid, or only declining is offered.
* A replacement into the very pile the point was paid from is not offered (ruling R-M9-40): the card would be on
  top again, and pay every later point for nothing.
* [M9-116] the point stays paid whatever the instruction does: it cannot undo combat damage or erase Battle
  Damage (ruling R-M9-41: the card pool may give no Blackwake a heal, checked at load by ``cards.build_pool``).
"""

from __future__ import annotations

from typing import Any

from annals.engine.core import Emit
from annals.engine.miras9 import damage
from annals.engine.miras9.board import legal_targets, set_echo
from annals.engine.miras9.effects import check_defeats, resolve
from annals.engine.miras9.events import BlackwakeChecked, BlackwakeResolved
from annals.engine.miras9.state import M9State
from annals.schemas.miras9 import CardDef, PayPoint, UseBlackwake

CHECKED = frozenset({"deck", "resource", "used"})  # [M9-088]
DECLINE = UseBlackwake(False)


def instruction(d: CardDef) -> str:
    """ "replace" (the discard goes elsewhere), "effect" (a printed effect), or "" for no Blackwake."""
    bw = d.blackwake
    if bw is None:
        return ""
    return "replace" if bw.instead else "effect"


def options(s: M9State) -> list[UseBlackwake]:
    """Decline, or use the instruction: on each legal target, and only when its Echo cost can be paid [M9-089]."""
    bw = s.pool[s.cards[s.bw_card].cid].blackwake
    assert bw is not None
    p = s.bd_player
    opts = [DECLINE]
    if bw.instead:
        if bw.instead != s.cards[s.bw_card].zone:  # back onto the pile it paid from would pay for nothing
            opts.append(UseBlackwake(True))
    elif bw.echo <= s.players[p].echo:
        opts.extend(UseBlackwake(True, t) for t in legal_targets(s, bw.target, p))
    return opts


def pay(s: M9State, emit: Emit, choice: Any) -> None:
    """A Battle Damage choice: a point's source, or the Blackwake choice for the card that point revealed."""
    if type(choice) is UseBlackwake:
        _resolve(s, emit, choice)
        return
    assert type(choice) is PayPoint
    if choice.source in CHECKED and s.edition > 1:
        p = s.bd_player
        card = getattr(s.players[p], choice.source)[-1]
        cid = s.cards[card].cid
        kind = instruction(s.pool[cid])
        emit(BlackwakeChecked(s.n, s.turn, s.step, p, card, cid, choice.source, kind))
        if kind:
            return  # the point waits on its owner's Blackwake choice
    damage.pay(s, emit, choice)


def _resolve(s: M9State, emit: Emit, choice: UseBlackwake) -> None:
    p = s.bd_player
    card = s.bw_card
    cs = s.cards[card]
    bw = s.pool[cs.cid].blackwake
    assert bw is not None
    point = PayPoint(cs.zone)
    if not choice.use:
        emit(BlackwakeResolved(s.n, s.turn, s.step, p, card, "declined"))
        damage.pay(s, emit, point)
    elif bw.instead:
        emit(BlackwakeResolved(s.n, s.turn, s.step, p, card, "replaced", 0, bw.instead))
        damage.pay(s, emit, point, bw.instead)
    else:
        emit(BlackwakeResolved(s.n, s.turn, s.step, p, card, "effect", choice.target))
        damage.pay(s, emit, point)
        if bw.echo:
            set_echo(s, emit, p, s.players[p].echo - bw.echo, "blackwake")
        resolve(s, emit, list(bw.effects), card, p, choice.target)
        check_defeats(s, emit)


__all__ = ["CHECKED", "instruction", "options", "pay"]
