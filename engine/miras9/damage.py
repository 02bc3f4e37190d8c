"""Wounds, leaving the board, and Battle Damage paid point by point. (Defeat, which fires triggers, is in
``effects``: it and effect resolution call each other.)

* [M9-084], [M9-109] prevention (static Ward, then Shield counters) applies before wounds are placed.
  [M9-085] no spill-over to the player.
* [M9-090] a defeated card goes to its owner's Discard; Equipment on it drops at that Site. [M9-092], [M9-106] an
  awakened Spirit returns Planet-side up without wounds or modifiers. [M9-013] a token leaving play is gone.
* [M9-081] a Unit leaving play leaves the wave.
* [M9-086], [M9-087], [M9-122] Battle Damage: per point, 1 Echo or a card from Hand (the player's choice, ruling
  R-M9-23) or the top of Main Deck, Resource or Used; sources may change between points. [M9-024] no source left:
  the damaged player loses.
"""

from __future__ import annotations

from annals.engine.core import Emit
from annals.engine.miras9 import crews
from annals.engine.miras9.board import counter, defn, leave_wave, move, ward
from annals.engine.miras9.choices import PayPoint
from annals.engine.miras9.events import BattleDamagePaid, CardMoved, CombatDamage, DamagePrevented, GameOver
from annals.engine.miras9.state import CARD_COUNTERS, LOC_NAMES, CardState, M9State
from annals.schemas import miras9 as sm


def deal(
    s: M9State, emit: Emit, source: int, cs: CardState, amount: int, kind: str, sources: list[int] | None = None
) -> int:
    """Deal ``amount`` wounds to ``cs`` after prevention; return the wounds placed.

    Prevention applies once to each amount dealt, so a combined retaliation is prevented once (R-M9-34)."""
    prevented = 0
    w = ward(s, cs)
    if w and amount:
        prevented = min(w, amount)
        amount -= prevented
        emit(DamagePrevented(s.n, s.turn, s.step, cs.ctrl, cs.iid, prevented, "ward"))
    if cs.shield and amount:
        p = min(cs.shield, amount)
        amount -= p
        emit(DamagePrevented(s.n, s.turn, s.step, cs.ctrl, cs.iid, p, "shield"))
        counter(s, emit, cs, "shield", cs.shield - p)
    if kind == "combat":
        emit(
            CombatDamage(
                s.n,
                s.turn,
                s.step,
                s.cards[source].ctrl if source in s.cards else -1,
                source,
                cs.iid,
                amount,
                sources or [],
            )
        )
    if amount:
        counter(s, emit, cs, "wounds", cs.wounds + amount, kind)
    return amount


def leave_board(s: M9State, emit: Emit, cs: CardState, dest: str, reason: str) -> None:
    """Take a card off the board: out of the wave, statuses cleared, Equipment on it dropped, then moved."""
    iid = cs.iid
    leave_wave(s, emit, cs)
    if cs.aboard or defn(s, cs).crew > 0:  # crew disembark first; a host's crew meet their fate [M9-091]
        crews.unload(s, emit, cs, reason, leave_board)
    for name in CARD_COUNTERS:
        counter(s, emit, cs, name, 0, reason)
    cards = s.cards
    for other in list(s.board):
        o = cards[other]
        if o.host == iid:
            emit(CardMoved(s.n, s.turn, s.step, o.ctrl, other, o.zone, LOC_NAMES[cs.loc], "drop", 0))
    if cs.token:
        dst = "gone"
    elif cs.iid == s.players[cs.owner].leader:
        dst = "planet"
    else:
        dst = dest
    move(s, emit, iid, dst, reason)


# ---------------------------------------------------------------- Battle Damage


def pay_options(s: M9State) -> list[sm.PayPoint]:
    pl = s.players[s.bd_player]
    opts: list[sm.PayPoint] = []
    if pl.echo > 0:
        opts.append(PayPoint("echo"))
    if pl.deck:
        opts.append(PayPoint("deck"))
    if pl.resource:
        opts.append(PayPoint("resource"))
    if pl.used:
        opts.append(PayPoint("used"))
    for c in pl.hand:
        opts.append(PayPoint("hand", c))
    return opts


def pay(s: M9State, emit: Emit, opt: sm.PayPoint, dst: str = "discard") -> None:
    """Pay one point from ``opt.source``; a card goes to ``dst`` (Discard, unless a Blackwake replaced that)."""
    p = s.bd_player
    pl = s.players[p]
    point = s.bd_paid + 1
    remaining = len(s.bd_sources) - point
    attacker = s.bd_sources[s.bd_paid]
    src = opt.source
    if src == "echo":
        emit(
            BattleDamagePaid(
                s.n, s.turn, s.step, p, point, remaining, "echo", attacker, 0, "", "", "echo", p, pl.echo - 1, -1
            )
        )
        return
    card = opt.card if src == "hand" else getattr(pl, src)[-1]
    emit(BattleDamagePaid(s.n, s.turn, s.step, p, point, remaining, src, attacker, card, src, dst))


def unpayable(s: M9State) -> bool:
    """[M9-024] neither Echo nor a card in Hand, Main Deck, Resource or Used."""
    pl = s.players[s.bd_player]
    return not (pl.echo or pl.hand or pl.deck or pl.resource or pl.used)


def settle(s: M9State, emit: Emit) -> None:
    """End the game if Battle Damage remains that cannot be paid [M9-024]."""
    if s.bd_player >= 0 and s.bd_paid < len(s.bd_sources) and unpayable(s):
        emit(GameOver(s.n, s.turn, s.step, -1, 1 - s.bd_player, "battle_damage"))


__all__ = ["deal", "leave_board", "pay", "pay_options", "settle", "unpayable"]
