"""The SVG board against the game: at every event of real games, for every view, the board is well-formed XML and
draws exactly the cards the viewer may see where they are, every pile's size, and the public counters; another
player's hidden cards are absent (drawn as backs, no id, no name). The board is drawn from the viewer's own fold
of the redacted stream (``ViewState``) and checked against the omniscient state, an independent fold."""

from __future__ import annotations

import html
from typing import Any

import pytest

from annals.engine.miras9.state import M9State
from annals.engine.morana.state import MoranaState
from annals.queries.pictures.svgboard import render_svg
from annals.queries.positions.viewstate import ViewState
from annals.schemas.logfile import GameLog
from tests.queries.pictures.boards import Drawn, drawn

VIEWERS = {"omniscient": None, "player0": 0, "player1": 1, "spectator": -1}
M9_PILES = ("deck", "hand", "resource", "used", "discard", "exile")
M9_PUBLIC = ("lane:", "route:", "site:", "planet", "stack")  # En Route cards are public [M9-054]


def sees(viewer: int | None, side: int) -> bool:
    return viewer is None or viewer == side


def check_miras9(d: Drawn, s: M9State, viewer: int | None, embers_seen: dict[int, int]) -> None:
    """[M9-011] the board, Discard and Exile are public, a Hand only to its owner; [M9-012], [M9-046] the deck,
    Resource and Used show only their sizes."""
    want = {c: cs.zone for c, cs in s.cards.items() if cs.zone.startswith(M9_PUBLIC)}
    for p, pl in enumerate(s.players):
        if sees(viewer, p):
            want.update({c: "hand" for c in pl.hand})
        else:
            assert d.backs.get(("hand", p), 0) == len(pl.hand)
        for pile in M9_PILES:
            assert d.counts[(pile, p)] == len(getattr(pl, pile)), (pile, p)
        assert d.counters[("echo", p)] == pl.echo
    assert d.cards == want


def check_morana(d: Drawn, s: MoranaState, viewer: int | None, embers_seen: dict[int, int]) -> None:
    """[MOR-07] everything but a hand is open, [MOR-15] a Commit (its cards, Sites and Embers paid) is secret until
    Dusk flips it [MOR-16]: another player's Embers are the last value the viewer saw change or the flip showed."""
    sealed = set(s.sealed)
    want: dict[int, str] = {}
    for p in (0, 1):
        behind_screen = not sees(viewer, p) and (s.step == "commit" or bool(s.sealed))  # until the flip
        for k, pile in enumerate(s.sites[p]):
            want.update({c: f"site:{k + 1}" for c in pile if sees(viewer, p) or c not in sealed})
        want.update({c: "nav" for c in s.nav[p]})
        if behind_screen:  # a Reborn sealed from Nav is still in Nav for whoever is outside the screen [MOR-23]
            want.update({c: "nav" for c in s.reborning if c in sealed and c // 1000 - 1 == p})
        if s.wardens_seated[p]:
            want[(p + 1) * 1000 + 999] = "warden"
        if sees(viewer, p):
            want.update({c: "hand" for c in s.hand[p]})
        elif not behind_screen:
            assert d.backs.get(("hand", p), 0) == len(s.hand[p]) == d.counts[("hand", p)]
        assert d.counts[("deck", p)] == len(s.deck[p])
        assert d.counters[("slava", p)] == s.slava[p]
        assert d.counters[("embers", p)] == (s.embers[p] if sees(viewer, p) else embers_seen.get(p, 0))
        if not behind_screen:
            assert d.counts[("nav", p)] == len(s.nav[p])
    assert d.cards == want


CHECKS: dict[str, Any] = {"miras9": check_miras9, "morana": check_morana}


@pytest.mark.parametrize("ruleset", ["miras9", "morana"])
@pytest.mark.parametrize("view", list(VIEWERS))
def test_board_draws_what_the_viewer_may_see_at_every_event(
    games: dict[str, list[GameLog]], ruleset: str, view: str
) -> None:
    viewer = VIEWERS[view]
    for log in games[ruleset][:2]:
        truth, seen = ViewState(log.header, None), ViewState(log.header, viewer)
        embers_seen: dict[int, int] = {}
        for event in log.events:
            truth.apply(event)
            shown = seen.apply(event)
            if getattr(shown, "counter", "") == "embers":
                embers_seen[shown.holder] = shown.value
            if type(shown).__name__ == "Flipped" and shown.embers:  # the Embers paid behind the screen [MOR-16]
                embers_seen.update(enumerate(shown.embers))
            d = drawn(render_svg(ruleset, seen.state, viewer, title=f"event {event.n}"))
            assert d.view == view
            CHECKS[ruleset](d, truth.state, viewer, embers_seen)


@pytest.mark.parametrize("ruleset", ["miras9", "morana"])
def test_an_omniscient_state_drawn_for_a_player_still_hides_the_opponents_hand(
    games: dict[str, list[GameLog]], ruleset: str
) -> None:
    """[M9-011], [MOR-07]: the renderer itself draws another player's hand as backs, whatever state it is given."""
    log = games[ruleset][0]
    truth = ViewState(log.header, None)
    for event in log.events[: len(log.events) // 2]:
        truth.apply(event)
    hand = truth.state.players[1].hand if ruleset == "miras9" else truth.state.hand[1]  # type: ignore[attr-defined]
    assert hand, "pick a game whose player 1 holds cards at mid-game"
    svg = render_svg(ruleset, truth.state, 0)
    d = drawn(svg)
    assert not set(hand) & set(d.cards)
    assert d.backs[("hand", 1)] == len(hand)
    assert all(f'data-card="{c}"' not in svg for c in hand)


def test_names_are_escaped_and_titles_kept() -> None:
    from annals.engine.registry import get_ruleset
    from annals.engine.simulate import make_header

    rules = get_ruleset("morana")
    header = make_header(rules, 1, ["clash", "glory"], ["random", "random"])
    svg = render_svg("morana", rules.new_state(header), None, title="<Round 1> & 'final'", players=["A&B", "C"])
    d = drawn(svg)  # parses: the title and names were escaped
    assert d.view == "omniscient" and "&lt;Round 1&gt; &amp;" in svg and ">A&amp;B<" in svg
    assert ">p0<" not in svg and "p0 " not in svg.replace('class="p0', "")  # the name, not the seat, where known


def test_toy_rulesets_get_a_listing(games: dict[str, list[GameLog]]) -> None:
    from annals.engine.registry import get_ruleset
    from annals.engine.simulate import make_header

    rules = get_ruleset("toy")
    header = make_header(rules, 1, ["pile", "pile"], ["random", "random"])
    drawn(render_svg("toy", rules.new_state(header), None))


def test_ship_sites_are_drawn_covering_or_contesting_the_site_under_them_M9_065_M9_030() -> None:
    """[M9-030] a Ship-Site in play is drawn at its board position as a location (not with a Unit's traits);
    [M9-065] the Site under it says whether its own Ship-Site covers it (the Ship-Site's generation replaces the
    Site's, so the Site's is not shown) or an enemy's contests it (the Site keeps its generation)."""
    from annals.engine.miras9.builder import Table

    t = Table(phase="move")
    foundry = t.site(1, "site-foundry", 0)
    own = t.site(0, "site-outpost", 2)
    corsair = t.add(0, "ss-corsair", "board", lane=0, side=1)  # p0's, contesting p1's Exterior
    bastion = t.add(0, "ss-bastion", "board", lane=2, side=0)  # p0's own, covering its Space
    svg = render_svg("miras9", t.s, None, title="Ship-Sites")
    d = drawn(svg)
    assert d.cards[corsair] == t.s.cards[corsair].zone and d.cards[bastion] == t.s.cards[bastion].zone
    gen = t.s.pool[t.s.cards[foundry].cid].gen
    said = html.unescape(svg)
    assert gen and f"p1's Site · generates {gen} · CONTESTED" in said  # no names in this log: the seats
    assert "p0's Site · COVERED" in said and t.s.cards[own].zone == "site:0:space"
    assert svg.count(">Ship-Site contests<") == 1 and svg.count(">Ship-Site covers<") == 1
    assert 'class="site contested"' in svg and 'class="site covered"' in svg
