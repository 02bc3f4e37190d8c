"""The MORANA search bot's belief about the opponent's hand (engine/search/morana_belief.py): what the opponent's
flipped Commits [MOR-15], [MOR-16] say of its hand, read through the opponent model, from the seat's views only."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from annals.engine.botgames import seat_rngs
from annals.engine.core import DecisionPoint
from annals.engine.morana.bots import HeuristicAgent
from annals.engine.morana.state import MoranaState
from annals.engine.registry import get_ruleset
from annals.engine.rng import Rng
from annals.engine.runner import Game, drive
from annals.engine.search.morana_belief import WORST, Belief, drawn, shown
from annals.engine.search.morana_worlds import sample_world
from annals.engine.simulate import make_header

RULESET = get_ruleset("morana")
DECKS = [deck for _, deck in sorted(RULESET.decks().items())]


def _morana(state: Any) -> MoranaState:
    assert isinstance(state, MoranaState)
    return state


class Watcher:
    """Seat 0: plays as the heuristic bot and keeps a belief about seat 1 (the heuristic bot too) from its views;
    at each turn's first decision, the hands its belief would deal and the true hand (read from the game, by the
    test only)."""

    def __init__(self, rng: Rng, game: list[Game]):
        self.bot = HeuristicAgent(0, rng)
        self.belief = Belief(0, DECKS, HeuristicAgent(1, Rng(7)).choose, Rng(9))
        self.game = game
        self.seen: list[tuple[Counter[str], list[Counter[str]], Counter[str]]] = []  # (true hand, dealt, pool)
        self.true_order: list[str] = []  # seat 1's cards in the order it draws them (read from the game by the test)

    def sample(self, board: MoranaState, rng: Rng) -> MoranaState:
        return sample_world(board, 0, rng, DECKS)

    def choose(self, view: Any, point: DecisionPoint[Any]) -> Any:
        truth = _morana(self.game[0].state)
        if not self.true_order:  # before any card is played: the hand in the order drawn, then the deck top first
            self.true_order = [truth.ids[1][c % 1000] for c in truth.hand[1] + truth.deck[1][::-1]]
        fresh = view.step == "commit" and view.turn not in self.belief.turns
        self.belief.observe(view, self.sample)
        if fresh and self.belief.explained:
            true_hand = Counter(truth.ids[1][c % 1000] for c in truth.hand[1])
            dealt: list[Counter[str]] = []
            for _ in range(len(self.belief.kept)):
                world = self.sample(view, Rng(len(dealt)))
                self.belief.deal(world, view)
                dealt.append(Counter(world.ids[1][c % 1000] for c in world.hand[1]))
            pool = Counter(truth.ids[1]) - shown(view, 1)  # what a world dealt at random draws the hand from
            self.seen.append((true_hand, dealt, pool))
        return self.bot.choose(view, point)


def _watched(seed: int) -> tuple[Watcher, Game]:
    header = make_header(RULESET, seed, ["clash", "glory"], ["heuristic", "heuristic"])
    rngs = seat_rngs(header)
    holder: list[Game] = []
    watcher = Watcher(rngs[0], holder)
    game = Game(RULESET, header, [watcher, HeuristicAgent(1, rngs[1])])
    holder.append(game)
    drive(game, None)
    return watcher, game


def test_the_opponents_true_draw_order_explains_every_flipped_commit() -> None:
    # The opponent is the heuristic bot, so the opponent model replays its Commits [MOR-15] exactly from the true
    # hand on the board as it was: the truth must score no card wrong over every turn explained. (A board copied at
    # the wrong moment, a hand rebuilt wrong or a wrong count of cards drawn would make it miss.)
    for seed in (3, 4, 5):
        watcher, _ = _watched(seed)
        belief = watcher.belief
        assert belief.explained >= 3
        assert belief._mismatch(watcher.true_order, watcher.sample) == 0
        assert belief.kept[0][0] == 0  # the best kept explain every play too


def test_a_card_flipped_before_the_order_could_have_drawn_it_is_impossible() -> None:
    # [MOR-14]: a card is drawn (Dawn) before it can be committed; an order that draws a flipped card later than
    # the turn it was placed cannot be the opponent's.
    watcher, _ = _watched(3)
    order = watcher.true_order
    first_played = next(t for t in sorted(watcher.belief.turns) if watcher.belief.turns[t].placed)
    turn = watcher.belief.turns[first_played]
    assert turn.placed is not None
    card = next(iter(turn.placed))
    late = [c for c in order if c != card] + [card] * order.count(card)  # every copy drawn last
    assert watcher.belief._mismatch(late, watcher.sample) == WORST
    assert watcher.belief._mismatch(order, watcher.sample) == 0


def test_the_hands_dealt_hold_more_of_the_true_hand_than_hands_dealt_at_random() -> None:
    # What the flipped Commits [MOR-16] say is worth something: over three games, the hands the belief deals share
    # more cards with the opponent's true hand than a hand drawn at random from the cards it has not shown.
    from_belief = at_random = 0.0
    for seed in (3, 4, 5):
        watcher, _ = _watched(seed)
        for true_hand, dealt, pool in watcher.seen:
            size = true_hand.total()
            from_belief += sum((hand & true_hand).total() for hand in dealt) / len(dealt)
            # a random hand of ``size`` from ``pool``: each true card is in it with chance size / pool's size
            at_random += size * size / pool.total()
    assert from_belief > 1.3 * at_random, (from_belief, at_random)


def test_the_counts_it_reads_are_open_in_the_view() -> None:
    # The belief reads the opponent's deck size and its cards shown: both open information [MOR-07].
    watcher, _ = _watched(4)
    for turn in watcher.belief.turns.values():
        assert drawn(turn.board, 1) == len(turn.board.ids[1]) - len(turn.board.deck[1])
        assert all(c < 0 for c in turn.board.hand[1])  # the opponent's hand is placeholders in the seat's view


def test_the_hidden_cards_diagnostic_plays_every_mode(capsys: Any) -> None:
    # bench.morana_hidden: the upper bounds a change to the belief is aimed at, one game each at a tiny budget.
    from bench import morana_hidden

    morana_hidden.main([*morana_hidden.QUICK, "--modes", *morana_hidden.MODES])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(",")[1].split(":")[0].strip() for line in lines] == list(morana_hidden.MODES)
    assert all("won 0/1" in line or "won 1/1" in line for line in lines)


def test_the_belief_accuracy_diagnostic_reads_shares_of_the_true_hand(capsys: Any) -> None:
    # bench.morana_belief: how much of the opponent's true hand the kept hypotheses hold, against orders dealt by the
    # rules' logic alone; one game at a tiny budget (the figures mean nothing, their being shares does).
    from bench import morana_belief

    morana_belief.main(morana_belief.QUICK)
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith("morana belief, ") and "turns of 1 games" in line
    shares = [float(x) for x in re.findall(r"(?:kept|them|orders|play) (\d\.\d{3})", line)]
    assert len(shares) == 5 and all(0.0 <= x <= 1.0 for x in shares), line
