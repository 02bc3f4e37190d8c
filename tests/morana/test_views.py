"""Open and hidden information [MOR-07]–[MOR-10], [MOR-15], [MOR-23]: a player's view of the omniscient log."""

from __future__ import annotations

from pathlib import Path

import msgspec

from annals.engine.morana.ruleset import RULESET
from annals.engine.morana.state import MoranaState, warden_instance
from annals.engine.simulate import make_header, play_one
from annals.queries.positions.timeline import Timeline
from annals.schemas import morana as ev
from annals.schemas.morana import Done, Invoke, Place, Rebirth
from tests.morana.build import Table, build


def test_mor07_hands_are_hidden_from_the_opponent_and_spectators() -> None:
    """[MOR-07] Only hands are hidden: a draw shows its card to its owner alone."""
    drew = ev.Drew(5, 1, "dawn", 0, 1003)
    assert RULESET.redact(drew, 0) == drew
    assert RULESET.redact(drew, 1).card == ev.UNKNOWN and RULESET.redact(drew, -1).card == ev.UNKNOWN


def test_r_mor_14_deck_order_is_hidden_from_everyone() -> None:
    """[MOR-07] R-MOR-14: the shuffled order is unknown even to the deck's owner; the deck size is not."""
    shuffle = ev.DeckShuffled(0, 0, "setup", 0, [1002, 1000, 1001])
    for viewer in (0, 1, -1):
        assert RULESET.redact(shuffle, viewer).cards == [ev.UNKNOWN] * 3


def test_mor15_sealed_commit_hides_cards_sites_embers_and_invocation_until_dusk() -> None:
    """[MOR-15] [MOR-16] [MOR-33] R-MOR-14: the opponent and spectators see only that something was sealed: not
    which card, nor where, nor the Embers paid, nor whether the Invocation was fired; Flipped reveals all of it."""
    t = Table(build("hand: bannik", "", turn=5, wardens=("lada", "lada")))
    bannik = t.card(0, "bannik")
    t.commit(Place(bannik, 2), Invoke(), Done(), Done())
    sealed = [e for e in t.events if e.step == "commit" and e.player == 0]
    for viewer in (1, -1):
        seen = [RULESET.redact(e, viewer) for e in sealed]
        assert [type(e) for e in seen] == [ev.Sealed] * 4 + [ev.CommitDone]
        assert seen[-1].placed == ev.HIDDEN
    assert [RULESET.redact(e, 0) for e in sealed] == sealed  # the committing player sees their own
    t.run()
    (flip,) = t.of(ev.Flipped)
    assert RULESET.redact(flip, 1) == flip and flip.cards == [bannik] and flip.invocations == [0]


def test_mor08_mor10_mor23_mor33_board_nav_slava_and_wardens_are_open() -> None:
    """[MOR-08] [MOR-09] [MOR-10] [MOR-23] [MOR-33] Sites after Dusk, Nav, Slava and Wardens: nothing redacted."""
    t = Table(build("site1: ~storm-of-perun ~bannik", "site1: vodyanoy", turn=4))
    t.dusk()
    after_flip = t.events[[type(e) for e in t.events].index(ev.Flipped) :]
    for viewer in (0, 1, -1):
        assert [RULESET.redact(e, viewer) for e in after_flip if type(e) is not ev.Drew] == [
            e for e in after_flip if type(e) is not ev.Drew
        ]
    warden = ev.WardenChosen(1, 0, "setup", 1, warden_instance(1), "lada")
    assert RULESET.redact(warden, 0) == warden


def test_position_reads_like_the_log() -> None:
    """[MOR-09] [MOR-19] position(): every card's zone and every counter as the last event naming it says, so a
    defeated Spirit in Nav reads Power 0 (its last PowerChanged), and a Charm never has Power."""
    t = Table(build("site2: ~storm-of-perun", "site2: bannik", turn=4))
    t.dusk()
    pos = RULESET.position(t.s)
    bannik, storm = t.card(1, "bannik"), t.card(0, "storm-of-perun")
    assert pos.cards[bannik] == "nav" and pos.cards[storm] == "nav"
    assert pos.counters[f"{bannik}:power"] == 0 and f"{storm}:power" not in pos.counters
    assert pos.counters["0:embers"] == 5 and pos.counters["1:slava"] == 0


def test_r_mor_14_a_sealed_commit_shows_only_how_many_actions_were_taken() -> None:
    """[MOR-15] R-MOR-14: the opponent's view of a Commit depends only on the number of actions: a card placed at
    the left Site, a Reborn at the right and the Invocation all look alike (two ``Sealed`` each: payment and
    placement), so the kind, card, Site and cost stay hidden. The count itself shows, as face-down cards would."""
    spec = "hand: bannik kikimora; nav: upyr"
    views = []
    for first, second in (
        (("place", "bannik", 1), ("place", "kikimora", 2)),
        (("reborn", "upyr", 3), ("invoke", "", 0)),
        (("invoke", "", 0), ("place", "kikimora", 3)),
    ):
        t = Table(build(spec, "", turn=6))
        for kind, name, site in (first, second):
            if kind == "invoke":
                t.commit(Invoke())
            else:
                option = Place if kind == "place" else Rebirth
                t.commit(option(t.card(0, name), site))
        t.commit(Done())
        views.append([RULESET.redact(e, 1) for e in t.events])
    assert views[0] == views[1] == views[2]
    assert [type(e) for e in views[0]] == [ev.Sealed] * 4 + [ev.CommitDone]


def test_mor16_the_opponents_view_learns_the_embers_spent_behind_the_screen_at_the_flip() -> None:
    """[MOR-12] [MOR-15] [MOR-16] The Embers paid during a sealed Commit are hidden until Dusk; at the flip they
    are public: the opponent's fold holds them, even when every Ember was spent (so no lapse event follows)."""
    t = Table(build("hand: bannik", "", turn=2, embers=(2, 2)))
    before = msgspec.msgpack.encode(t.s)
    t.commit(Place(t.card(0, "bannik"), 2), Done(), Done())
    t.dusk()
    this_turn = [e for e in t.events if e.turn == 2]
    assert not [e for e in this_turn if type(e) is ev.EmbersChanged and e.source == "lapse" and e.player == 0]
    for viewer in (1, -1):
        view = msgspec.msgpack.decode(before, type=MoranaState)
        flipped = False
        for e in this_turn:
            RULESET.apply(view, RULESET.redact(e, viewer))
            flipped = flipped or type(e) is ev.Flipped
            assert view.embers[0] == (0 if flipped else 2)  # 2 while behind the screen, 0 from the flip on
        assert flipped


def test_mor07_a_players_view_position_holds_the_opponents_flipped_cards_and_embers(tmp_path: Path) -> None:
    """[MOR-07] [MOR-08] [MOR-16] After every event of whole games outside a Commit, a player's view position (what
    ``annals position --view`` and a player's client show) has every card on the Sites where the omniscient one
    has it, and the same counters; the viewer's own hand in full and none of the opponent's."""
    checked_flips = 0
    for seed in (3, 8):
        header = make_header(RULESET, seed, ["clash", "glory"], ["heuristic", "random"])
        path = tmp_path / f"{seed}.log"
        play_one(RULESET, header, path)
        timeline = Timeline.from_file(path)
        for count in range(1, len(timeline.events) + 1):
            state = timeline.state_after(count)
            assert isinstance(state, MoranaState)
            if state.sealed or state.step == "commit":
                continue
            omni = timeline.position(count)
            for viewer in (0, 1):
                view = timeline.position(count, f"player{viewer}")
                on_sites = {c: z for c, z in omni.cards.items() if z.startswith("site:")}
                assert {c: z for c, z in view.cards.items() if z.startswith("site:")} == on_sites, (seed, count)
                assert view.counters == omni.counters, (seed, count)
                assert {c for c, z in view.cards.items() if z == "hand"} == set(state.hand[viewer])
            checked_flips += type(timeline.events[count - 1]) is ev.Flipped
    assert checked_flips >= 8
