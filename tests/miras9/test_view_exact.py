"""A seat's view is exact: at every event of seeded bot games with Blackwake replacements [M9-089], each seat's
view (``engine.views.SeatView``: the redacted stream folded) equals the true state projected to what that seat may
know [M9-011]: the card identities of its own Hand; the size of every hidden pile [M9-012]; everything public (the
board, Discard and Exile, Sites, Echo, the wave, the stack and every control field) exactly. Any identity a view
holds in a hidden pile is the true one (a view is never wrong, only ignorant), and a card Battle Damage revealed
[M9-088] is where its Blackwake put it in both seats' views (ruling R-M9-57), with no other hidden card shown.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annals.engine.miras9.ruleset import DEFAULT_MAX_TURNS, HIDDEN, RULESET
from annals.engine.miras9.state import M9State, PlayerState, StructM9State, StructPlayer
from annals.engine.runner import Game
from annals.engine.simulate import bots_for, make_header
from annals.engine.views import SeatView, instances_in
from annals.schemas import miras9 as ev
from annals.schemas.records import LEADER_INDEX, instance_owner

DECKS = sorted(d for d in RULESET.decks() if d != "wreckers")
ORDERED = ("deck", "resource", "used")  # hidden and ordered: a known card has a place in it [M9-012]
# The events that show a hidden card to both players: playing it, and a Blackwake check's three (the card the
# point revealed [M9-088], what its instruction did with it [M9-089])
REVEALING = (ev.CardPlayed, ev.BlackwakeChecked, ev.BlackwakeResolved, ev.BattleDamagePaid)


def _player(pl: PlayerState, own: bool) -> dict[str, Any]:
    out: dict[str, Any] = {f: getattr(pl, f) for f in StructPlayer.__struct_fields__ if f not in HIDDEN}
    for pile in ORDERED:
        out[pile] = len(getattr(pl, pile))
    out["hand"] = sorted(pl.hand) if own else len(pl.hand)
    return out


def projected(s: M9State, viewer: int) -> dict[str, Any]:
    """What ``viewer`` may know of ``s``: its own Hand's cards, every hidden pile's size, and every public field
    and public card whole (a card in a hidden pile is left out: whether the viewer knows its id is checked apart)."""
    cards = {
        c: msgspec.to_builtins(cs)
        for c, cs in s.cards.items()
        if cs.zone and (cs.zone not in HIDDEN or (cs.zone == "hand" and cs.owner == viewer))
    }
    fields = StructM9State.__struct_fields__  # the native state's too (tests/miras9/test_gamestate.py)
    rest = {f: msgspec.to_builtins(getattr(s, f)) for f in fields if f not in ("players", "cards")}
    return {"players": [_player(pl, p == viewer) for p, pl in enumerate(s.players)], "cards": cards, **rest}


def wrong_beliefs(view: M9State, true: M9State, viewer: int) -> list[str]:
    """Each card identity the view holds in a hidden pile that is not the truth (in an ordered pile, at its place);
    and each card of the opponent's hidden piles the view names without an event having shown it."""
    out = []
    for p, (mine, real) in enumerate(zip(view.players, true.players, strict=True)):
        for pile in ORDERED:
            for i, (a, b) in enumerate(zip(getattr(mine, pile), getattr(real, pile), strict=True)):
                if a != -1 and a != b:
                    out.append(f"player {p} {pile}[{i}]: the view holds {a}, the card there is {b}")
        extra = Counter(c for c in mine.hand if c != -1) - Counter(real.hand)
        if extra:
            out.append(f"player {p} hand: the view holds {sorted(extra)}, not in that hand")
    return out


def play(seed: int) -> Counter[str]:
    """One seeded game of the wreckers deck (Wreck Salvager: to Hand, Reef Drifter: to Resource) against another
    shipped deck, heuristic bots (they use a Blackwake whenever they may); both seats' views checked at every event."""
    decks = ["wreckers", DECKS[seed % len(DECKS)]][:: 1 if seed % 2 else -1]
    h = make_header(RULESET, seed, decks, ["heuristic", "heuristic"], max_turns=DEFAULT_MAX_TURNS)
    views: list[SeatView] = []
    fired: Counter[str] = Counter()
    revealed: dict[int, str] = {}  # instance -> card id shown by a BlackwakeChecked
    seen_by: list[set[int]] = [set(), set()]  # per seat: the opponent's cards it has seen and not lost sight of

    def check(event: Any) -> None:
        true = game.state
        assert isinstance(true, M9State)
        kind = type(event)
        if kind is ev.BlackwakeChecked:
            revealed[event.card] = event.card_id
        for v in (0, 1):  # no hidden card of the opponent's is shown unless the rules show it to both [M9-011]
            named = set(instances_in(RULESET.redact(event, v)))
            for c in named:
                if instance_owner(c) == v or c % 1000 == LEADER_INDEX:
                    continue
                public = true.cards[c].zone not in HIDDEN
                shown = kind in REVEALING and c == event.card
                assert public or shown or c in seen_by[v], (seed, event.n, v, kind.__name__, c)
            seen_by[v] |= named
            seen_by[v] -= {c for c in instances_in(event) if c not in named and true.cards[c].zone in HIDDEN}
        for view in views:
            seen = view.state
            assert isinstance(seen, M9State)
            v = view.viewer
            assert projected(seen, v) == projected(true, v), (seed, event.n, v, type(event).__name__)
            assert not wrong_beliefs(seen, true, v), (seed, event.n, v, wrong_beliefs(seen, true, v))
        if type(event) is ev.BattleDamagePaid and event.dst in HIDDEN:  # a Blackwake replacement [M9-089]
            fired[f"replaced to {event.dst}"] += 1
            for view in views:
                seen = view.state
                assert isinstance(seen, M9State)
                pile = getattr(seen.players[event.player], event.dst)
                assert event.card in pile and seen.cards[event.card].zone == event.dst, (seed, event.n, view.viewer)
                assert seen.cards[event.card].cid == revealed[event.card]
                if event.dst == "resource":  # on top [M9-012]: the next resource spent is this card
                    assert pile[-1] == event.card
                fired["opponent saw it" if view.viewer != event.player else "owner saw it"] += 1

    game = Game(RULESET, h, bots_for(RULESET, h), on_event=check)
    views.extend(game.views)
    assert [v.viewer for v in views] == [0, 1]
    while not game.state.over and game.state.turn <= DEFAULT_MAX_TURNS:
        game.step()
        game.events.clear()
    return fired


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32))
def test_each_seats_view_is_the_truth_projected_M9_011_M9_012_M9_089(seed: int) -> None:
    """[M9-011] [M9-012] [M9-089] at every event, each seat's view is the true state projected to what it may
    know, and a Blackwake replacement's card is where it went in both views (ruling R-M9-57)."""
    play(seed)


def test_the_games_hold_replacements_to_hand_and_to_resource_M9_089() -> None:
    """The property is not empty: these seeds make both replacements happen, seen by both seats."""
    fired: Counter[str] = Counter()
    for seed in range(12):
        fired += play(seed)
        if all(fired[k] for k in ("replaced to hand", "replaced to resource")):
            break
    assert fired["replaced to hand"] and fired["replaced to resource"], fired
    assert fired["opponent saw it"] == fired["owner saw it"] > 0


@pytest.mark.soak
def test_soak_views_are_exact() -> None:
    fired: Counter[str] = Counter()
    for seed in range(200):
        fired += play(seed)
    assert fired["replaced to hand"] and fired["replaced to resource"], fired
