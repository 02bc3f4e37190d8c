"""[MOR-39] The worked example of the rules reference, reproduced event by event.

Turn 3, both players have three Embers [MOR-12]. Player 0 ("you") is one Slava behind, so resolves first [MOR-28].
You Commit Vila Archer (cost 2, Power 1, Clash 2) to the left Site and hold Ember Sprite (cost 1) face-down in the
centre; the opponent Commits Leshy Sapling (Power 2) to the left. At Dusk the left Site resolves first: Clash 2
sends the Power 2 Spirit to its owner's Nav before Power is compared (and before its own Omen could fire), so you
take the Site uncontested and score. Next turn the opponent can Reborn it for its stronger second life [MOR-21].
"""

from __future__ import annotations

from typing import Any

from annals.engine.morana.turn import dawn
from annals.schemas import morana as ev
from annals.schemas.morana import Done, Place, Rebirth
from tests.morana.build import Table, build


def test_mor39_worked_example_event_by_event() -> None:
    """[MOR-39] [MOR-12] [MOR-28] [MOR-16] [MOR-19] [MOR-21] [MOR-17]"""
    you, them = "hand: vila-archer ember-sprite; deck: bannik bannik", "hand: leshy-sapling; deck: bannik"
    t = Table(build(you, them, turn=2, step="rite", slava=(1, 2), embers=(0, 0)))
    s = t.s
    dawn(s, t.emit, 3)
    assert [(e.holder, e.value) for e in t.of(ev.EmbersChanged)] == [(0, 3), (1, 3)]  # turn 3: three Embers each
    archer, sprite, leshy = t.card(0, "vila-archer"), t.card(0, "ember-sprite"), t.card(1, "leshy-sapling")
    t.commit(Place(archer, 1), Place(sprite, 2), Done())
    t.commit(Place(leshy, 1), Done())
    mark = len(t.events)
    t.run()
    got = [_brief(e) for e in t.events[mark:]]
    dusk_and_rite = got[: got.index(("TurnBegan", 4))]
    assert dusk_and_rite == [
        ("StepBegan", "dusk"),
        ("Flipped", [archer, sprite, leshy], [1, 2, 1]),
        ("EmbersChanged", 1, 0),  # the opponent's unspent Ember lapses
        ("PowerChanged", archer, 1, "revealed"),
        ("PowerChanged", sprite, 2, "revealed"),
        ("PowerChanged", leshy, 2, "revealed"),
        ("SiteResolutionBegan", 1, 0, "less_slava"),  # one Slava behind: you resolve first
        ("OmenFired", archer),
        ("Drew", t.card(0, "bannik", 0), "effect"),  # Vila Archer's Omen: draw 1
        ("ClashFired", archer, 2, leshy),
        ("PowerChanged", leshy, 0, "damage"),
        ("Defeated", leshy, "site:1", "nav"),  # to Nav before Power is compared; its Omen never fires
        ("SiteResolutionBegan", 2, 0, "less_slava"),
        ("OmenFired", sprite),
        ("PowerChanged", sprite, 3, "boost"),
        ("SiteResolutionBegan", 3, 0, "less_slava"),
        ("StepBegan", "rite"),
        ("SiteScored", 1, 0, [1, 0]),  # uncontested
        ("SlavaGained", 0, 2, "site:1"),
        ("SiteScored", 2, 0, [3, 0]),
        ("SlavaGained", 0, 3, "site:2"),
        ("SiteScored", 3, -1, [0, 0]),
    ]
    assert s.nav[1] == [leshy]
    # Next turn they can Reborn it (cost 1 with Marzanna, at least 1 [MOR-23]) for its stronger second life.
    t.commit(Done())
    assert Rebirth(leshy, 1) in t.options()
    t.commit(Rebirth(leshy, 1), Done())
    mark = len(t.events)
    t.run()
    turn4 = [_brief(e) for e in t.events[mark:]]
    turn4 = turn4[: turn4.index(("TurnBegan", 5))]
    assert turn4[turn4.index(("SiteResolutionBegan", 1, 1, "less_slava")) :][:6] == [
        ("SiteResolutionBegan", 1, 1, "less_slava"),  # now they trail, so they resolve first
        ("RebornFired",),
        ("PowerChanged", leshy, 4, "boost"),  # Power 2, Reborn: +2 Power
        ("ClashFired", archer, 2, leshy),  # your Clash answers, but no longer defeats it
        ("PowerChanged", leshy, 2, "damage"),
        ("SiteResolutionBegan", 2, 1, "less_slava"),
    ]
    assert ("SiteScored", 1, 1, [1, 2]) in turn4  # and they take the left Site back


def _brief(e: Any) -> tuple[object, ...]:
    t = type(e)
    if t is ev.StepBegan:
        return ("StepBegan", e.step)
    if t is ev.TurnBegan:
        return ("TurnBegan", e.turn)
    if t is ev.Flipped:
        return ("Flipped", e.cards, e.sites)
    if t is ev.EmbersChanged:
        return ("EmbersChanged", e.holder, e.value)
    if t is ev.PowerChanged:
        return ("PowerChanged", e.holder, e.value, e.source)
    if t is ev.SiteResolutionBegan:
        return ("SiteResolutionBegan", e.site, e.first, e.reason)
    if t is ev.OmenFired:
        return ("OmenFired", e.card)
    if t is ev.Drew:
        return ("Drew", e.card, e.source)
    if t is ev.ClashFired:
        return ("ClashFired", e.card, e.amount, e.target)
    if t is ev.Defeated:
        return ("Defeated", e.card, e.src, e.dst)
    if t is ev.SiteScored:
        return ("SiteScored", e.site, e.winner, e.power)
    if t is ev.SlavaGained:
        return ("SlavaGained", e.holder, e.value, e.source)
    return (t.__name__,)
