"""The turn, taken together: Dawn, Commit, Dusk, Rite [MOR-13]–[MOR-17], Embers [MOR-12], set-up numbers (R-MOR-16)."""

from __future__ import annotations

from pathlib import Path

from annals.engine.agents import RandomAgent
from annals.engine.morana import data as morana_data
from annals.engine.morana.ruleset import RULESET
from annals.engine.morana.state import HAND_LIMIT, OPENING_HAND, MoranaState
from annals.engine.morana.turn import dawn
from annals.engine.registry import load_cards
from annals.engine.rng import Rng
from annals.engine.runner import Game
from annals.engine.simulate import make_header
from annals.schemas import morana as ev
from annals.schemas.morana import Done, Invoke, Place
from tests.morana.build import Table, build


def _game(seed: int = 3) -> Game:
    header = make_header(RULESET, seed, ["starter-winter", "starter-sun"], ["random", "random"])
    return Game(RULESET, header, [RandomAgent(0, Rng(seed + 1)), RandomAgent(1, Rng(seed + 2))])


def test_mor13_mor14_to_mor17_steps_in_order_every_turn() -> None:
    """[MOR-13] [MOR-14] [MOR-15] [MOR-16] [MOR-17] Dawn, Commit, Dusk, Rite, in that order, every turn."""
    g = _game()
    while not g.state.over:
        g.step()
    marks = [(e.turn, e.step) for e in g.events if type(e) in (ev.TurnBegan, ev.StepBegan)]
    for turn in range(1, g.state.turn + 1):
        assert [m for m in marks if m[0] == turn] == [(turn, "dawn"), (turn, "commit"), (turn, "dusk"), (turn, "rite")]


def test_mor14_dawn_both_draw_one_and_gain_embers_equal_to_the_turn() -> None:
    """[MOR-14] [MOR-12] Both draw one; both gain Embers equal to the turn number, the same for both."""
    t = Table(build("deck: bannik upyr", "deck: kikimora", turn=4, step="rite", embers=(0, 0)))
    dawn(t.s, t.emit, 5)
    assert [(e.player, e.card) for e in t.of(ev.Drew)] == [(0, t.card(0, "upyr")), (1, t.card(1, "kikimora"))]
    assert [(e.holder, e.value, e.amount, e.source) for e in t.of(ev.EmbersChanged)] == [
        (0, 5, 5, "dawn"),
        (1, 5, 5, "dawn"),
    ]


def test_mor12_unspent_embers_do_not_save_up() -> None:
    """[MOR-12] R-MOR-11: unspent Embers vanish at Dusk (after the flip); the next Dawn gives the turn number."""
    t = Table(build("hand: kikimora; deck: bannik", "deck: upyr", turn=3))
    t.commit(Place(t.card(0, "kikimora"), 1), Done(), Done())
    t.run()
    lapses = [(e.holder, e.value, e.amount) for e in t.of(ev.EmbersChanged) if e.source == "lapse"]
    assert lapses == [(0, 0, -2), (1, 0, -3)]
    assert t.s.embers == [4, 4]  # turn 4: four, not 4 + what was left


def test_mor15_commit_pays_costs_and_offers_only_affordable_cards() -> None:
    """[MOR-15] R-MOR-11: cards costing more than the Embers left are not offered; a Commit pays the cost."""
    t = Table(build("hand: bannik volkolak", "", turn=3))
    bannik, volkolak = t.card(0, "bannik"), t.card(0, "volkolak")
    assert Place(volkolak, 1) not in t.options()  # cost 4 > 3 Embers
    t.commit(Place(bannik, 2))
    assert t.s.embers[0] == 1 and t.s.sites[0][1] == [bannik]
    assert [(e.amount, e.source) for e in t.of(ev.EmbersChanged)] == [(-2, "commit")]
    assert all(type(o) is not Place for o in t.options())  # nothing else affordable


def test_r_mor_11_embers_are_spent_only_during_commit() -> None:
    """[MOR-12] [MOR-15] R-MOR-11: outside Commit there is no decision, so nothing can spend Embers; over a whole
    game every payment is a Commit event, and the only other loss is the lapse at Dusk, to 0."""
    assert RULESET.pending(build("hand: kikimora", "", turn=2, step="rite")) is None
    g = _game(11)
    while not g.state.over:
        g.step()
    losses = [(e.step, e.source, e.value) for e in g.events if type(e) is ev.EmbersChanged and e.amount < 0]
    payments = [x for x in losses if x[1] in ("commit", "reborn", "invocation")]
    lapses = [x for x in losses if x[1] == "lapse"]
    assert payments and lapses and len(payments) + len(lapses) == len(losses)
    assert {step for step, _, _ in payments} == {"commit"}
    assert {(step, value) for step, _, value in lapses} == {("dusk", 0)}


def test_mor16_dusk_flips_everything_at_once() -> None:
    """[MOR-16] One Flipped event reveals both players' face-down cards; no Power is known before it."""
    t = Table(build("hand: bannik; deck: upyr", "hand: kikimora; deck: upyr", turn=2))
    bannik, kiki = t.card(0, "bannik"), t.card(1, "kikimora")
    t.commit(Place(bannik, 1), Done(), Place(kiki, 3), Done())
    assert bannik not in t.s.power and kiki not in t.s.power
    t.run()
    (flip,) = [e for e in t.of(ev.Flipped) if e.turn == 2]
    assert (flip.cards, flip.sites) == ([bannik, kiki], [1, 3])
    first_power = next(i for i, e in enumerate(t.events) if type(e) is ev.PowerChanged)
    assert t.events.index(flip) < first_power


def test_r_mor_16_opening_hand_of_four() -> None:
    """R-MOR-16: each player draws 4 at set-up, then 1 at the first Dawn."""
    g = _game()
    g.step()
    opening = [e for e in g.events if type(e) is ev.Drew and e.source == "opening"]
    assert [e.player for e in opening] == [0] * OPENING_HAND + [1] * OPENING_HAND
    assert isinstance(g.state, MoranaState)
    assert [len(h) for h in g.state.hand] == [OPENING_HAND + 1] * 2


def test_r_mor_16_hand_limit_and_empty_deck_skip_the_draw() -> None:
    """R-MOR-16: a draw with 10 cards in hand, or from an empty deck, is skipped; nobody loses for it."""
    hand = "hand: " + " ".join(["kikimora"] * HAND_LIMIT) + "; deck: bannik"
    t = Table(build(hand, "", turn=1, step="rite"))
    dawn(t.s, t.emit, 2)
    assert [(e.player, e.reason) for e in t.of(ev.DrawSkipped)] == [(0, "hand_full"), (1, "empty_deck")]
    assert len(t.s.hand[0]) == HAND_LIMIT and t.s.deck[0] == [t.card(0, "bannik")] and not t.s.over


def test_r_mor_20_player_one_is_offered_the_same_whatever_player_zero_sealed() -> None:
    """[MOR-15] R-MOR-20: the engine asks player 0 first, but player 1's options never depend on what was sealed."""
    spec = "hand: bannik kikimora; nav: upyr"
    quiet = Table(build(spec, spec, turn=6))
    quiet.commit(Done())
    busy = Table(build(spec, spec, turn=6))
    busy.commit(Place(busy.card(0, "bannik"), 1), Place(busy.card(0, "kikimora"), 3), Invoke(), Done())
    assert quiet.options() == busy.options() and quiet.s.committing == busy.s.committing == 1


def test_r_mor_21_any_card_to_any_site_without_a_limit() -> None:
    """[MOR-08] [MOR-15] R-MOR-21: every affordable card is offered at each of the three Sites; no Site fills up."""
    t = Table(build("hand: kikimora kikimora kikimora kikimora kikimora", "", turn=5))
    kikis = [t.card(0, "kikimora", i) for i in range(5)]
    assert [o for o in t.options() if type(o) is Place] == [Place(c, k) for c in kikis for k in (1, 2, 3)]
    t.commit(*(Place(c, 1) for c in kikis))
    assert t.s.sites[0][0] == kikis


def test_mor15_a_changed_card_is_offered_by_its_own_cost(tmp_path: Path) -> None:
    """[MOR-15] A game whose pool changes a shipped card's cost offers the card by the changed cost, while a game
    of the shipped pool in the same process still offers it by the printed one (``options`` reads costs per pool)."""
    shipped = Table(build("hand: bannik", "", turn=3))
    bannik = shipped.card(0, "bannik")
    assert Place(bannik, 1) in shipped.options()  # cost 2 <= 3 Embers
    card_file = tmp_path / "dear-bannik.toml"
    printed = (Path(morana_data.__path__[0]) / "cards.toml").read_text().split("[[cards]]")
    entry = next(e for e in printed if 'id = "bannik"' in e)
    card_file.write_text("[[cards]]" + entry.replace("cost = 2\n", "cost = 5\n", 1))
    dear = build("hand: bannik", "", turn=3)
    dear.card_defs = list(load_cards("morana", card_file))
    dear.__post_init__()  # the state's pool: the shipped one with the changed Bannik, as a game's header gives it
    assert dear.pool.cards["bannik"].cost == 5 and dear.pool.digest != shipped.s.pool.digest
    assert [o for o in Table(dear).options() if type(o) is Place] == []  # cost 5 > 3 Embers
    assert Place(bannik, 1) in shipped.options()
