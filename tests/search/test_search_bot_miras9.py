"""Miras 9's search bot (issue 32): it plays from its seat's view only [M9-011], deterministically, whole games."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from annals.engine.botgames import seat_rngs
from annals.engine.miras9.bots import HeuristicAgent
from annals.engine.miras9.state import M9State, card_zone_ok
from annals.engine.registry import get_ruleset
from annals.engine.rng import Rng
from annals.engine.runner import Game, play
from annals.engine.search.miras9 import Miras9SearchAgent
from annals.engine.search.miras9_worlds import UNKNOWN, sample_world
from annals.engine.simulate import make_header
from annals.engine.views import SeatView, _instance_fields

RULESET = get_ruleset("miras9")
DECKS = [deck for _, deck in sorted(RULESET.decks().items())]


def _game_at_a_decision_of_seat0(seed: int, decisions: int) -> Game:
    """A heuristic game stepped until seat 0 has a decision with several options, after ``decisions`` decisions."""
    header = make_header(RULESET, seed, ["vanguard", "bastion"], ["heuristic", "heuristic"], max_turns=200)
    game = Game(RULESET, header, [HeuristicAgent(p, rng) for p, rng in enumerate(seat_rngs(header))])
    while True:
        point = RULESET.pending(game.state)
        if point is not None and point.player == 0 and len(point.options) > 2 and game.decision_count >= decisions:
            return game
        game.step()


def _relabelled(event: Any, swap: dict[int, int]) -> Any:
    """``event`` with the instances of ``swap`` exchanged (cards trade places, so their ids trade too)."""
    changes: dict[str, Any] = {}
    for name in _instance_fields(type(event)):
        value = getattr(event, name)
        if type(value) is int and value in swap:
            changes[name] = swap[value]
        elif type(value) is list:
            changes[name] = [swap.get(c, c) if type(c) is int else c for c in value]
    return msgspec.structs.replace(event, **changes) if changes else event


def _m9(state: Any) -> M9State:
    assert isinstance(state, M9State)
    return state


def _view(header: Any, events: list[Any]) -> SeatView:
    view = SeatView(RULESET, header, 0)
    for event in events:
        view.feed(event)
    return view


def test_its_choice_depends_only_on_the_view_not_on_the_hidden_cards() -> None:
    # [M9-011]: the opponent's Hand is hidden; [M9-012]: so is the order of the Main Deck
    game = _game_at_a_decision_of_seat0(11, 40)
    view = _view(game.header, game.events)
    truth = _m9(game.state)
    opponent = truth.players[1]
    # Two of the opponent's cards seat 0 has never seen, of different card ids, one in its Hand and one in its Main
    # Deck: exchanging them makes another true game (another card in the opponent's Hand) seat 0 sees as before.
    unseen = [c for c in opponent.hand + opponent.deck if c not in view.known]
    in_hand = next(c for c in unseen if c in opponent.hand)
    other = next(c for c in unseen if c in opponent.deck and truth.cards[c].cid != truth.cards[in_hand].cid)
    forged_events = [_relabelled(e, {in_hand: other, other: in_hand}) for e in game.events]
    forged_truth = _m9(RULESET.new_state(game.header))
    for event in forged_events:
        RULESET.apply(forged_truth, event)
    assert msgspec.msgpack.encode(forged_truth) != msgspec.msgpack.encode(truth)  # the true games differ
    forged_view = _view(game.header, forged_events)
    assert msgspec.msgpack.encode(forged_view.state) == msgspec.msgpack.encode(view.state)  # the views do not

    point = RULESET.pending(truth)
    assert point is not None
    choices = [Miras9SearchAgent(0, Rng(5), iterations=60).choose(seen.state, point) for seen in (view, forged_view)]
    assert choices[0] == choices[1]
    assert choices[0] in point.options


def test_a_world_keeps_what_the_seat_sees_and_fills_only_what_it_does_not() -> None:
    game = _game_at_a_decision_of_seat0(3, 60)
    view = _view(game.header, game.events)
    state, truth = _m9(view.state), _m9(game.state)
    assert UNKNOWN in state.players[1].hand + state.players[0].deck  # there is something hidden to fill
    world = sample_world(state, 0, Rng(1), DECKS)
    assert card_zone_ok(world) == []  # every card in exactly one place
    assert world.players[0].hand == state.players[0].hand  # its own Hand, as it is
    for p in (0, 1):
        for pile in ("deck", "hand", "resource", "used"):
            mine, seen, real = (getattr(s.players[p], pile) for s in (world, state, truth))
            assert UNKNOWN not in mine and len(mine) == len(real)  # no placeholder left, the sizes it sees
            assert all(c == w for c, w in zip(seen, mine, strict=True) if c != UNKNOWN)  # what it placed, kept
        assert world.board == state.board and world.players[p].discard == state.players[p].discard
        # the opponent's list guessed from its Planet: the same cards as the true game's
        ids = Counter(cs.cid for cs in world.cards.values() if cs.owner == p)
        assert ids == Counter(cs.cid for cs in truth.cards.values() if cs.owner == p)
    for c, cs in state.cards.items():
        if cs.cid:
            assert world.cards[c].cid == cs.cid  # what it has seen, kept


def test_it_is_deterministic_and_plays_whole_games_in_both_seats() -> None:
    results = []
    for _ in range(2):
        header = make_header(RULESET, 21, ["bastion", "vanguard"], ["heuristic", "search"], max_turns=30)
        results.append(
            play(RULESET, header, [HeuristicAgent(0, Rng(1)), Miras9SearchAgent(1, Rng(2), iterations=10)], None)
        )
    assert results[0] == results[1]
    assert results[0].decisions > 10
    assert "search" in RULESET.agents()
