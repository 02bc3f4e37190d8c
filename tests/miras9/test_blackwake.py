"""Blackwake [M9-088], [M9-089], [M9-123], settled in the consequences step [M9-079]; it cannot undo combat damage
or erase Battle Damage [M9-116]. Rulings R-M9-40 (when it resolves, what reveals) and R-M9-41 (no heal)."""

from __future__ import annotations

import pytest

from annals.engine.miras9.cards import build_pool
from annals.engine.miras9.pool import SHIPPED
from annals.schemas import miras9 as ev
from annals.schemas.errors import CardDataError
from tests.miras9.table import Table


def _owed(battle: int = 3, *, echo: tuple[int, int] = (0, 0)) -> tuple[Table, int]:
    """Player 0's unblocked attack on player 1's Site position: ``battle`` points of Battle Damage owed."""
    t = Table(phase="attack", echo=echo)
    a = t.unit(0, "char-veteran" if battle == 3 else "char-recruit", 0)  # 3/3/1 or 1/2/1, no triggers
    return t, a


def _to_payment(t: Table, a: int) -> None:
    t.attack(0, [(a, 0)])
    t.to_damage()
    assert t.point().point == "battle_damage" and t.s.bd_player == 1


def test_each_pile_point_is_checked_hand_and_echo_are_not_M9_088_M9_123() -> None:
    """[M9-088] [M9-123] a point paid from Main Deck, Resource or Used reveals that pile's top card and is a
    ``BlackwakeChecked`` event even when the card has no instruction; Hand and Echo points are not checked."""
    t, a = _owed(echo=(0, 1))
    t.add(1, "char-recruit", "used")
    hand = t.hand(1, "char-salvager")  # a Blackwake card, but paid from Hand: no check
    _to_payment(t, a)
    t.act(ev.PayPoint("hand", hand))
    t.act(ev.PayPoint("echo"))
    assert not t.of(ev.BlackwakeChecked)
    top = t.s.players[1].used[-1]
    t.act(ev.PayPoint("used"))
    (check,) = t.of(ev.BlackwakeChecked)
    assert (check.card, check.card_id, check.src, check.instruction) == (top, "char-recruit", "used", "")
    assert t.c(top).zone == "discard" and t.c(hand).zone == "discard"  # no instruction: discarded as ever
    assert t.s.bd_player == -1 and not t.of(ev.BlackwakeResolved)


def test_no_check_without_battle_damage_M9_088_M9_122() -> None:
    """[M9-088] [M9-122] only Battle Damage (an unblocked attack on a standard Site) is checked: an attack on a
    Unit and a blocked attack discard nothing and check nothing, though Blackwake cards top every pile."""
    t = Table(phase="attack")
    a, b = t.unit(0, "char-veteran", 0), t.unit(0, "char-veteran", 1)
    d = t.unit(1, "char-recruit", 0, tapped=1)
    blocker = t.unit(1, "char-warden", 1)
    for pile in ("deck", "resource", "used"):
        t.add(1, "char-salvager", pile)
    t.attack(0, [(a, d)])
    t.to_damage()
    t.pass_window()
    t.attack(1, [(b, 0)])
    t.to_damage([(blocker, b)])
    assert t.of(ev.CombatDamage) and not t.of(ev.BattleDamageAssigned) and not t.of(ev.BlackwakeChecked)


def test_replacement_sends_the_card_elsewhere_and_the_point_stays_paid_M9_089_M9_116() -> None:
    """[M9-089] Wreck Salvager's instruction replaces its discard: revealed from Main Deck it goes to Resource
    instead; [M9-116] the point is paid all the same (the Battle Damage owed goes down by one)."""
    t, a = _owed()
    top = t.add(1, "char-salvager", "deck")
    _to_payment(t, a)
    t.act(ev.PayPoint("deck"))
    assert t.point().point == "blackwake" and t.point().player == 1
    assert t.options() == [ev.UseBlackwake(False), ev.UseBlackwake(True)]
    assert t.s.bd_paid == 0 and t.c(top).zone == "deck"  # revealed, not yet moved: the choice comes first
    t.act(ev.UseBlackwake(True))
    (res,) = t.of(ev.BlackwakeResolved)
    assert (res.card, res.outcome, res.to) == (top, "replaced", "resource")
    paid = t.of(ev.BattleDamagePaid)[-1]
    assert (paid.card, paid.src, paid.dst, paid.remaining) == (top, "deck", "resource", 2)
    assert t.c(top).zone == "resource" and t.s.players[1].resource[-1] == top and t.s.bd_paid == 1


def test_declining_discards_the_card_M9_089() -> None:
    """[M9-089] the instruction is optional: declined, the revealed card is discarded like any other."""
    t, a = _owed()
    top = t.add(1, "char-drifter", "resource")
    _to_payment(t, a)
    t.act(ev.PayPoint("resource"))
    t.act(ev.UseBlackwake(False))
    assert t.of(ev.BlackwakeResolved)[-1].outcome == "declined" and t.c(top).zone == "discard"


def test_optional_cost_and_target_must_be_legal_and_paid_M9_089_M9_079() -> None:
    """[M9-089] Backlash's Blackwake costs 1 Echo and targets an enemy combatant: without the Echo only declining
    is offered; with it, each legal target, and using it pays the Echo and wounds the attacker in the consequences
    step [M9-079]."""
    t, a = _owed(echo=(0, 0))
    t.add(1, "ev-backlash", "deck")
    _to_payment(t, a)
    t.act(ev.PayPoint("deck"))
    assert t.options() == [ev.UseBlackwake(False)]  # the cost cannot be paid
    t.act(ev.UseBlackwake(False))

    t, a = _owed(echo=(0, 1))
    top = t.add(1, "ev-backlash", "deck")
    _to_payment(t, a)
    t.act(ev.PayPoint("deck"))
    assert t.options() == [ev.UseBlackwake(False), ev.UseBlackwake(True, a)]  # the attacker: an enemy combatant
    t.act(ev.UseBlackwake(True, a))
    assert t.of(ev.BlackwakeResolved)[-1].target == a and t.c(top).zone == "discard"
    assert t.s.players[1].echo == 0 and t.c(a).wounds == 2 and t.s.wave is not None and t.s.wave.step == 6


def test_blackwake_resolves_before_the_next_point_R_M9_40() -> None:
    """Ruling R-M9-40 (OPEN-QUESTIONS A-22, [M9-086] one point at a time): Wake Call's 2 Echo arrive before the
    next point, so the damaged player may pay the remaining points with them."""
    t, a = _owed(echo=(0, 0))
    t.add(1, "ev-wakecall", "used")
    _to_payment(t, a)
    assert ev.PayPoint("echo") not in t.options()
    t.act(ev.PayPoint("used"))
    t.act(ev.UseBlackwake(True))
    assert t.s.players[1].echo == 2 and ev.PayPoint("echo") in t.options()
    t.act(ev.PayPoint("echo"))
    t.act(ev.PayPoint("echo"))
    assert t.s.bd_player == -1 and t.s.players[1].echo == 0


def test_blackwake_cannot_undo_combat_damage_R_M9_41_M9_116() -> None:
    """[M9-116] Blackwake cannot undo combat damage or erase Battle Damage: a Unit the wave defeated stays
    defeated, the points owed stay owed after any Blackwake, and (ruling R-M9-41) a Blackwake that heals is
    refused when the pool loads."""
    t = Table(phase="attack")
    a, b = t.unit(0, "char-veteran", 0), t.unit(0, "char-veteran", 0)
    d = t.unit(1, "char-recruit", 0, tapped=1)
    t.add(1, "char-salvager", "deck")
    t.attack(0, [(a, 0), (b, d)])
    t.to_damage()
    assert t.c(d).zone == "discard" and t.c(b).wounds == 1  # combat damage dealt, the recruit defeated
    t.act(ev.PayPoint("deck"))
    t.act(ev.UseBlackwake(True))
    assert t.c(d).zone == "discard" and t.c(b).wounds == 1
    assert len(t.s.bd_sources) - t.s.bd_paid == 2  # three established, one paid by the replaced card
    assert SHIPPED["char-salvager"].blackwake is not None
    healer = ev.CardDef(
        id="char-mender", name="Mender", type="unit", traits=["character"], grit=1,
        blackwake=ev.Blackwake(target="friendly_unit", effects=[ev.Heal(2)]),
    )  # fmt: skip
    with pytest.raises(CardDataError, match=r"heals.*\[M9-116\]"):
        build_pool([healer])


def test_no_replacement_back_onto_the_pile_paid_from_R_M9_40() -> None:
    """Ruling R-M9-40: Wreck Salvager revealed from Resource may not go back on top of Resource (it would pay every
    later point): only declining is offered; from Main Deck the same card may."""
    t, a = _owed()
    top = t.add(1, "char-salvager", "resource")
    _to_payment(t, a)
    t.act(ev.PayPoint("resource"))
    assert t.options() == [ev.UseBlackwake(False)]
    t.act(ev.UseBlackwake(False))
    assert t.c(top).zone == "discard"
