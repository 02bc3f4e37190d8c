"""Properties over seeded random games [MOR-07], [MOR-15], [MOR-21], [MOR-23]: no exceptions, every card in exactly
one place after every event, no negative counters, the fold equals the engine, and a player's redacted view never
shows the opponent's hand or unrevealed commits, and folds to the same board once Dusk has flipped everything.
A hundred games by default, thousands with ``--soak``."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from annals.engine.morana.ruleset import RULESET
from annals.engine.morana.state import MoranaState, StructMoranaState
from annals.engine.rng import Rng
from annals.engine.runner import Game
from annals.engine.simulate import make_header
from annals.schemas import morana as ev
from annals.schemas.header import LogHeader
from annals.schemas.morana import Done
from annals.schemas.records import instance_id

DECKS = ["starter-winter", "starter-sun", "clash", "glory"]
BOTS = ["random", "heuristic"]


def _play(seed: int) -> Game:
    r = Rng(seed)
    decks = [DECKS[r.below(4)], DECKS[r.below(4)]]
    bots = [BOTS[r.below(2)], BOTS[r.below(2)]]  # the heuristic in either seat: seat 1 decides after 0 sealed
    header = make_header(RULESET, seed, decks, bots)
    factories = RULESET.agents()
    agents = [factories[b](i, Rng(seed).fork(i)) for i, b in enumerate(bots)]
    game = Game(RULESET, header, agents, on_event=lambda e: _check_state(game.state))  # type: ignore[arg-type]
    while not game.state.over:
        game.step()
    return game


SENTINEL_FIELDS = frozenset({"winner", "initiative", "site_begun"})  # -1 means "nobody" / "no Site begun", by design


def _ints(value: Any) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, dict):
        return [*value.keys(), *(i for v in value.values() for i in _ints(v))]
    if isinstance(value, list):
        return [i for v in value for i in _ints(v)]
    return []


def _check_state(s: MoranaState) -> None:
    """[MOR-21] every card in exactly one place; no negative number anywhere in the state."""
    if s.n < 4:  # both decks shuffled and both Wardens placed after event 3
        return
    for p in (0, 1):
        where = s.deck[p] + s.hand[p] + s.nav[p] + [c for cards in s.sites[p] for c in cards]
        assert sorted(where) == [instance_id(p, i) for i in range(len(s.ids[p]))], "a card is lost or doubled"
    for name in StructMoranaState.__struct_fields__:  # the native state (compiled) has the same fields
        if name not in SENTINEL_FIELDS:
            assert min(_ints(getattr(s, name)), default=0) >= 0, f"negative value in {name}: {getattr(s, name)!r}"
    assert s.initiative in (-1, 0, 1) and s.winner in (-1, 0, 1)
    on_board = {c for p in (0, 1) for cards in s.sites[p] for c in cards}
    assert all(c in on_board for c in s.power), "Power for a card not on a Site"
    assert max(s.reborns) <= 2 and max(s.offboard) <= 4


def _cards_in(e: Any) -> list[int]:
    out: list[int] = []
    for field in ("card", "target", "by", "holder"):
        v = getattr(e, field, None)
        if isinstance(v, int) and v >= 1000:
            out.append(v)
    for field in ("cards", "reborn"):
        out.extend(c for c in getattr(e, field, []) if c >= 1000)
    return out


def _check_views(header: LogHeader, events: list[Any], final: MoranaState) -> None:
    """[MOR-07] [MOR-15] After every event, a viewer's fold holds no card of the opponent's hand, of any deck, or
    of the opponent's unrevealed commits; no event it sees names such a card; the views fold to the final board."""
    for viewer in (0, 1, -1):
        public: set[int] = set()
        view = RULESET.new_state(header)
        for e in events:
            seen = RULESET.redact(e, viewer)
            RULESET.apply(view, seen)  # a redacted stream folds
            if type(seen) is ev.Flipped or type(seen) is ev.WardenChosen:
                public.update(_cards_in(seen))
            for card in _cards_in(seen):
                owner = card // 1000 - 1
                assert owner == viewer or card in public, f"viewer {viewer} sees hidden card {card} in {seen!r}"
            if e.step == "commit" and e.player not in (viewer, -1):
                assert type(seen) is ev.Sealed or (type(seen) is ev.CommitDone and seen.placed == ev.HIDDEN)
            assert type(seen) is not ev.InvocationCommitted or seen.player == viewer
            for p in (0, 1):
                assert set(view.deck[p]) <= {ev.UNKNOWN}, f"viewer {viewer} knows deck order after {seen!r}"
                if p != viewer:
                    assert set(view.hand[p]) <= {ev.UNKNOWN}, f"viewer {viewer} sees {p}'s hand after {seen!r}"
                    on_sites = {c for cards in view.sites[p] for c in cards}
                    assert on_sites <= public, f"viewer {viewer} sees an unrevealed commit after {seen!r}"
        board = (view.sites, view.power, view.nav, view.slava, view.over, view.winner)
        assert board == (final.sites, final.power, final.nav, final.slava, final.over, final.winner)


def _check_position(events: list[Any], final: MoranaState) -> None:
    """The field conventions (last ``dst`` per card, last ``value`` per holder and counter) give position()."""
    cards: dict[int, str] = {}
    counters: dict[str, int] = {}
    for e in events:
        dst = getattr(e, "dst", None)
        if dst is not None:
            for c in getattr(e, "cards", None) or [e.card]:
                cards[c] = dst
        counter = getattr(e, "counter", None)
        if counter is not None:
            counters[f"{e.holder}:{counter}"] = e.value
    pos = RULESET.position(final)
    assert cards == pos.cards
    assert all(pos.counters[k] == v for k, v in counters.items())
    assert all(v == 0 for k, v in pos.counters.items() if k not in counters)


def _check(seed: int) -> None:
    game = _play(seed)
    events = game.events
    folded = RULESET.new_state(game.header)
    for e in events:
        RULESET.apply(folded, e)
    assert msgspec.msgpack.encode(folded) == msgspec.msgpack.encode(game.state)
    assert type(events[-1]) is ev.GameEnded and game.state.turn <= 8
    assert all(d.offered and type(d.offered[-1]) is Done for d in game.decisions)
    assert isinstance(game.state, MoranaState)
    _check_views(game.header, events, game.state)
    _check_position(events, game.state)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**63 - 1))
def test_random_games_keep_every_invariant(seed: int) -> None:
    """[MOR-07] [MOR-15] [MOR-21] [MOR-23] [MOR-31] Invariants over a hundred seeded games."""
    _check(seed)


@pytest.mark.soak
def test_soak_thousands_of_games() -> None:
    """[MOR-07] [MOR-15] [MOR-21] [MOR-23] [MOR-31] The same invariants over 3,000 consecutive seeds."""
    for seed in range(3000):
        _check(seed)
