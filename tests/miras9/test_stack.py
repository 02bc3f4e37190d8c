"""Reaction windows, priority and the stack [M9-114], [M9-115], and activated-ability timing [M9-107]."""

from __future__ import annotations

from annals.schemas import miras9 as ev
from tests.miras9.table import Table


def _wave_with_blocker() -> tuple[Table, int, int]:
    t = Table(phase="attack")
    a = t.unit(0, "char-raider", 0)
    b = t.unit(1, "char-veteran", 0)
    t.attack(0, [(a, 0)])
    t.pass_window()
    t.block([(b, a)])
    return t, a, b


def test_announce_pays_costs_and_hands_priority_over_M9_114_M9_005() -> None:
    """[M9-114] [M9-005] the priority player announces with its target and pays before the opponent gets priority."""
    t, a, _b = _wave_with_blocker()
    card = t.hand(0, "rx-adrenaline")
    res_before = len(t.s.players[0].resource)
    t.act(ev.PlayCard(card, -1, a))
    (push,) = t.of(ev.StackPushed)
    assert (push.card, push.target, push.depth) == (card, a, 1)
    assert len(t.s.players[0].resource) == res_before - 1 and t.c(card).zone == "stack"
    assert t.s.priority == 1 and t.s.passes == 0


def test_later_responses_resolve_first_and_only_the_top_M9_114_M9_115() -> None:
    """[M9-114] [M9-115] LIFO: two passes resolve only the top item, then the attacker has priority again."""
    t, a, b = _wave_with_blocker()
    pump = t.hand(0, "rx-adrenaline")
    shield = t.hand(1, "rx-shield")
    t.act(ev.PlayCard(pump, -1, a))
    t.act(ev.PlayCard(shield, -1, b))
    assert [i.card for i in t.s.stack] == [pump, shield]
    t.act(ev.Pass())  # attacker passes
    t.act(ev.Pass())  # defender passes: the top (shield) resolves, alone
    (res,) = t.of(ev.StackResolved)
    assert res.card == shield and [i.card for i in t.s.stack] == [pump]
    assert t.s.priority == 0  # the attacking player


def test_new_announcement_resets_pass_count_M9_115() -> None:
    """[M9-115] a pass then an announcement: the count restarts, one more pass does not resolve."""
    t, a, b = _wave_with_blocker()
    pump = t.hand(0, "rx-adrenaline")
    shield = t.hand(1, "rx-shield")
    t.act(ev.Pass())  # attacker passes (count 1)
    t.act(ev.PlayCard(shield, -1, b))  # defender announces: count 0
    assert t.s.passes == 0
    t.act(ev.PlayCard(pump, -1, a))
    t.act(ev.Pass())
    assert not t.of(ev.StackResolved) and t.s.passes == 1


def test_resolution_resets_pass_count_and_two_passes_close_window_M9_115() -> None:
    """[M9-115] ruling R-M9-03: after a resolution two fresh passes are needed; two passes on empty close."""
    t, a, _b = _wave_with_blocker()
    pump = t.hand(0, "rx-adrenaline")
    t.act(ev.PlayCard(pump, -1, a))
    t.act(ev.Pass())
    t.act(ev.Pass())
    assert t.of(ev.StackResolved) and t.s.passes == 0 and t.s.window == "before_damage"
    assert t.s.priority == 0  # the attacker's own item resolved: the attacker (not its opponent) has priority
    t.act(ev.Pass())
    assert t.s.window == "before_damage"  # one pass after the resolution is not enough
    t.act(ev.Pass())
    assert t.of(ev.WindowClosed)


def test_pass_hands_priority_and_does_not_waive_M9_115() -> None:
    """[M9-115] a pass hands priority over; the passer may still respond to a later play."""
    t, _a, b = _wave_with_blocker()
    t.hand(0, "rx-adrenaline")
    shield = t.hand(1, "rx-shield")
    t.act(ev.Pass())
    assert t.s.priority == 1
    t.act(ev.PlayCard(shield, -1, b))
    assert t.s.priority == 0
    assert any(type(o) is ev.PlayCard for o in t.options())


def test_activated_abilities_default_to_reaction_timing_M9_107_M9_043() -> None:
    """[M9-107] [M9-043] a tap ability without a phase is used in a window and taps its ready, Attuned source."""
    t, _a, b = _wave_with_blocker()
    sniper = t.unit(0, "char-sniper", 1)
    t.unit(0, "char-sniper", 1, attuned=0)  # Unattuned: cannot pay a tap cost
    opts = [o for o in t.options() if type(o) is ev.Activate]
    assert {o.card for o in opts} == {sniper} and {o.target for o in opts} == {b}
    t.act(opts[0])
    assert t.c(sniper).tapped == 1
    t.act(ev.Pass())
    t.act(ev.Pass())
    assert t.c(b).wounds == 1


def test_echo_cost_ability_does_not_tap_M9_043() -> None:
    """[M9-043] activating an ability whose cost has no tap leaves the source untapped."""
    t, a, _b = _wave_with_blocker()
    spirit = t.unit(0, "spirit-echo", 1)
    t.s.players[0].echo = 3
    t.act(ev.Activate(spirit, 0, a))
    assert t.c(spirit).tapped == 0 and t.s.players[0].echo == 1


def test_reaction_fizzles_on_illegal_target_costs_not_refunded_M9_111() -> None:
    """[M9-111] the target left before resolution: no effect on it, the cost stays paid, the card is discarded."""
    t, a, _b = _wave_with_blocker()
    counter = t.hand(1, "rx-counter")
    escape = t.hand(0, "rx-escape")
    t.act(ev.Pass())
    t.act(ev.PlayCard(counter, -1, a))  # defender targets the attacker
    t.act(ev.PlayCard(escape, 1, a))  # attacker escapes in response, to its Interior
    t.act(ev.Pass())
    t.act(ev.Pass())  # escape resolves
    t.act(ev.Pass())
    t.act(ev.Pass())  # counter resolves with no legal target
    res = t.of(ev.StackResolved)
    assert res[-1].card == counter and res[-1].fizzled
    assert t.c(a).wounds == 0 and t.c(counter).zone == "discard"


def test_reactions_only_in_windows_M9_042() -> None:
    """[M9-042] ruling R-M9-29: a Reaction is not offered at the Action phase's main decision."""
    t = Table(phase="action")
    t.unit(0, "char-raider", 0)
    rx = t.hand(0, "rx-adrenaline")
    ev_card = t.hand(0, "ev-rally")
    cards = {o.card for o in t.options() if type(o) is ev.PlayCard}
    assert rx not in cards and ev_card in cards


def test_fizzled_player_effect_is_not_redirected_to_the_controller_M9_111() -> None:
    """[M9-111] an effect on the target's controller whose target became illegal affects no one: it is not
    substituted onto the effect's own controller."""
    from annals.engine.miras9.effects import resolve

    t = Table(phase="action", echo=(3, 3))
    resolve(t.s, t.emit, [ev.GainEcho(amount=-2, to="target"), ev.Draw(amount=1, to="target")], 0, 0, 0)
    assert [p.echo for p in t.s.players] == [3, 3] and not t.events


def test_priority_returns_to_the_attacker_even_in_the_defenders_window_M9_115_M9_075() -> None:
    """[M9-075] the defender has the first opportunity before blocks; [M9-115] after the top item resolves priority
    goes to the attacking player, not back to the player who opened the window or who announced."""
    t = Table(phase="attack")
    a = t.unit(0, "char-raider", 0)
    d = t.unit(1, "char-veteran", 0)
    shield = t.hand(1, "rx-shield")
    t.attack(0, [(a, d)])  # the attacked Unit is a combatant (R-M9-32)
    assert (t.s.window, t.s.priority) == ("before_blocks", 1)
    t.act(ev.PlayCard(shield, -1, d))
    assert t.s.priority == 0
    t.act(ev.Pass())
    assert t.s.priority == 1
    t.act(ev.Pass())  # two passes: the shield resolves
    assert t.c(d).shield == 3 and t.s.priority == 0 and t.s.passes == 0 and t.s.window == "before_blocks"
