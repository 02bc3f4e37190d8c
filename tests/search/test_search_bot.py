"""The search bot (issue 32): it plays from its seat's view only, deterministically, and it plays whole games."""

from __future__ import annotations

from typing import Any

import msgspec

from annals.engine.botgames import seat_rngs
from annals.engine.morana.bots import HeuristicAgent
from annals.engine.morana.state import MoranaState
from annals.engine.registry import get_ruleset
from annals.engine.rng import Rng
from annals.engine.runner import Game, play
from annals.engine.search.morana import MoranaSearchAgent
from annals.engine.search.morana_worlds import sample_world, seal_opponent_commit
from annals.engine.simulate import make_header
from annals.engine.views import SeatView, _instance_fields
from annals.schemas.records import instance_owner

RULESET = get_ruleset("morana")


def _game_at_a_decision_of_seat0(seed: int, decisions: int) -> Game:
    """A heuristic game stepped until seat 0 has a decision with several options, after ``decisions`` decisions."""
    header = make_header(RULESET, seed, ["clash", "glory"], ["heuristic", "heuristic"])
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


def _morana(state: Any) -> MoranaState:
    assert isinstance(state, MoranaState)
    return state


def _view(header: Any, events: list[Any]) -> SeatView:
    view = SeatView(RULESET, header, 0)
    for event in events:
        view.feed(event)
    return view


def test_its_choice_depends_only_on_the_view_not_on_the_hidden_cards() -> None:
    game = _game_at_a_decision_of_seat0(11, 12)
    view = _view(game.header, game.events)
    true_state = _morana(game.state)
    ids = true_state.ids[1]
    # Two of the opponent's cards seat 0 has never seen, of different card ids, one in its hand: exchanging them
    # makes another true game (another card in the opponent's hand) that seat 0 sees exactly as before.
    unseen = [c for c in true_state.hand[1] + true_state.deck[1] if c not in view.known and instance_owner(c) == 1]
    in_hand = next(c for c in unseen if c in true_state.hand[1])
    other = next(c for c in unseen if c in true_state.deck[1] and ids[c % 1000] != ids[in_hand % 1000])
    forged_events = [_relabelled(e, {in_hand: other, other: in_hand}) for e in game.events]
    forged_truth: MoranaState = RULESET.new_state(game.header)
    for event in forged_events:
        RULESET.apply(forged_truth, event)
    assert msgspec.msgpack.encode(forged_truth) != msgspec.msgpack.encode(true_state)  # the true games differ
    forged_view = _view(game.header, forged_events)
    assert msgspec.msgpack.encode(forged_view.state) == msgspec.msgpack.encode(view.state)  # the views do not

    point = RULESET.pending(true_state)
    assert point is not None
    choices = [MoranaSearchAgent(0, Rng(5), iterations=60).choose(seen.state, point) for seen in (view, forged_view)]
    assert choices[0] == choices[1]
    assert choices[0] in point.options


def test_with_a_game_behind_it_its_belief_reads_only_the_views_too() -> None:
    # The bot learns of the opponent's hand from its flipped Commits [MOR-16] (``morana_belief``): fed the views of
    # a whole game so far, from the true game and from a forged one that differs only in cards it never saw, it
    # believes the same and chooses the same.
    game = _game_at_a_decision_of_seat0(11, 16)
    true_state = _morana(game.state)
    ids = true_state.ids[1]
    view = _view(game.header, game.events)
    unseen = [c for c in true_state.hand[1] + true_state.deck[1] if c not in view.known and instance_owner(c) == 1]
    in_hand = next(c for c in unseen if c in true_state.hand[1])
    other = next(c for c in unseen if c in true_state.deck[1] and ids[c % 1000] != ids[in_hand % 1000])
    point = RULESET.pending(true_state)
    assert point is not None
    choices, beliefs = [], []
    for events in (game.events, [_relabelled(e, {in_hand: other, other: in_hand}) for e in game.events]):
        agent = MoranaSearchAgent(0, Rng(5), iterations=60)
        seen = SeatView(RULESET, game.header, 0)
        for event in events:
            seen.feed(event)
            agent.observe(_morana(seen.state))  # each turn's Commit, as it begins
        assert agent.belief is not None and agent.belief.explained >= 1  # it has learnt from past turns
        beliefs.append(agent.belief.kept)
        choices.append(agent.choose(seen.state, point))
    assert beliefs[0] == beliefs[1]
    assert choices[0] == choices[1]


def test_a_world_keeps_what_the_seat_sees_and_fills_only_what_it_does_not() -> None:
    game = _game_at_a_decision_of_seat0(3, 8)
    view = _view(game.header, game.events)
    state = _morana(view.state)
    decks = [deck for _, deck in sorted(RULESET.decks().items())]
    world = sample_world(state, 0, Rng(1), decks)
    assert world.hand[0] == state.hand[0]  # its own hand, as it is
    assert all(c >= 1000 for p in (0, 1) for c in world.hand[p] + world.deck[p])  # no placeholder left
    assert sorted(world.ids[1]) == sorted(_morana(game.state).ids[1])  # the opponent's list guessed from its Warden
    for p in (0, 1):
        for i, cid in enumerate(state.ids[p]):
            if cid:
                assert world.ids[p][i] == cid  # what it has seen, kept


def test_it_is_deterministic_and_plays_whole_games_in_both_seats() -> None:
    results = []
    for _ in range(2):
        header = make_header(RULESET, 21, ["glory", "clash"], ["heuristic", "search"], max_turns=30)
        results.append(
            play(RULESET, header, [HeuristicAgent(0, Rng(1)), MoranaSearchAgent(1, Rng(2), iterations=20)], None)
        )
    assert results[0] == results[1]
    assert results[0].decisions > 10


def _game_at_a_decision_of_seat1(seed: int, turn: int) -> Game:
    """A heuristic game stepped to seat 1's first Commit decision of ``turn``, seat 0 having sealed something."""
    header = make_header(RULESET, seed, ["clash", "glory"], ["heuristic", "heuristic"])
    game = Game(RULESET, header, [HeuristicAgent(p, rng) for p, rng in enumerate(seat_rngs(header))])
    while True:
        point = RULESET.pending(game.state)
        s = _morana(game.state)
        if point is not None and point.player == 1 and s.turn >= turn and any(instance_owner(c) == 0 for c in s.sealed):
            return game
        game.step()


def test_a_world_of_seat_1_has_player_0s_commit_sealed_from_what_it_could_have_committed() -> None:
    # [MOR-15]: the Commit is secret and simultaneous; the engine takes player 0's first, so seat 1 decides with
    # player 0's cards already face-down behind the screen: its view has none of them, a world must have some.
    game = _game_at_a_decision_of_seat1(5, 3)
    view = _morana(_view1(game).state)
    assert not any(instance_owner(c) == 0 for c in view.sealed)  # the view: nothing sealed by player 0
    decks = [deck for _, deck in sorted(RULESET.decks().items())]
    world = sample_world(view, 1, Rng(3), decks)
    before_hand, before_embers = list(world.hand[0]), world.embers[0]
    seal_opponent_commit(world, 1, HeuristicAgent(0, Rng(0)).choose)
    mine = [c for c in world.sealed if instance_owner(c) == 0]
    assert mine  # the heuristic seals at least one card here, as it did in the true game
    assert all(c in before_hand and c not in world.hand[0] for c in mine)  # from its (sampled) hand
    spent = sum(world.pool.cards[world.ids[0][c % 1000]].cost for c in mine)
    assert world.embers[0] == before_embers - spent <= before_embers  # paid for [MOR-12]
    assert world.committing == 1 and world.hand[1] == view.hand[1]  # seat 1's own decision, as it was
    assert RULESET.pending(world) is not None and RULESET.pending(world).player == 1  # type: ignore[union-attr]


def test_a_world_of_seat_0_or_an_opponent_that_seals_nothing_is_left_alone() -> None:
    game = _game_at_a_decision_of_seat0(3, 8)
    view = _morana(_view(game.header, game.events).state)
    world = sample_world(view, 0, Rng(1), [deck for _, deck in sorted(RULESET.decks().items())])
    sealed = list(world.sealed)
    seal_opponent_commit(world, 0, HeuristicAgent(1, Rng(0)).choose)  # seat 0 commits first: nothing to guess
    assert world.sealed == sealed and world.committing == 0
    game1 = _game_at_a_decision_of_seat1(5, 3)
    world1 = sample_world(_morana(_view1(game1).state), 1, Rng(3), [])
    seal_opponent_commit(world1, 1, lambda s, point: point.options[-1])  # Done at once
    assert not any(instance_owner(c) == 0 for c in world1.sealed) and world1.committing == 1


def _view1(game: Game) -> SeatView:
    view = SeatView(RULESET, game.header, 1)
    for event in game.events:
        view.feed(event)
    return view
