"""What the opponent's plays so far say of its hand: the MORANA search bot's belief, read through its opponent model.

A world sampled only from the view deals the opponent a hand at random from its unseen cards. But the opponent has
been choosing from its hand all game, in the open: at each turn's Dusk its Commit is flipped [MOR-16], and what it
placed, and what it held back, says what it held. This module keeps, for one game and one seat, the hands that
explain the opponent's plays best, and the worlds are dealt from them (Buro, Long, Furtak and Sturtevant 2009 did
this for Skat: inference by the players' own policy).

A hypothesis is the opponent's draw order (a list of its 20 card ids): its cards drawn by a turn are that order's
first ones (the view shows how many: its deck's size), less the cards it has shown. At the start of each turn's
Commit the bot keeps a copy of its view (``observe``: the open board as the opponent saw it, which
hides every sealed card [MOR-15]); once the next turn's view shows what the opponent flipped, the opponent model
(the heuristic bot) is asked what it would have committed from that hand on that board, and a hypothesis is scored
by the cards it gets wrong, and the Sites of those still standing (``_mismatch``), summed over the turns. The
hypotheses kept are the best-scored of those kept before, fresh ones dealt so that each card shown was drawn before
it was played, and neighbours of the best (a drawn card swapped). Against the heuristic bot the opponent model is
exact and the true order scores 0; against anyone else the scores still rank the hands by how well they explain the
plays (against the random bot, whose plays explain nothing, the bot won 87 of 100 games with the belief and 86
without).

It reads only the seat's own views: each world is still dealt from what the seat has seen.

How much it knows (``python -m bench.morana_belief``, 40 clash games): the hands kept hold 43% of the true hand's
cards, orders dealt by the rules' logic alone 37%, and those of them that explain every play 42%: the kept ones are
about as good a sample as the plays allow, which say little of the cards the heuristic holds back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from annals.engine.core import DecisionPoint
from annals.engine.morana.state import MoranaState
from annals.engine.rng import Rng
from annals.engine.search.morana_worlds import guess_deck, take_commit
from annals.engine.statecopy import clone
from annals.schemas.header import DeckList
from annals.schemas.morana import Place
from annals.schemas.records import CARDS_PER_PLAYER

FRESH = 128  # hypotheses dealt afresh at each turn with something new to explain
KEEP = 48  # hypotheses kept (the best-scored); the worlds are dealt from them in turn
NEIGHBOURS = 192  # hypotheses tried next to the best (two cards of a draw order swapped) at each such turn
WORST = 1 << 20  # the mismatch of an impossible hypothesis (a card shown before it was drawn)

Choose = Callable[[MoranaState, DecisionPoint[Any]], Any]


def shown(view: MoranaState, player: int) -> Counter[str]:
    """The card ids of ``player``'s cards the view has seen (each left the hand face-up, or was flipped)."""
    return Counter(cid for cid in view.ids[player] if cid)


def drawn(view: MoranaState, player: int) -> int:
    """How many of ``player``'s cards have been drawn (its deck's size is open)."""
    return len(view.ids[player]) - len(view.deck[player])


class Turn:
    """One turn's Commit as the seat saw it begin: the board, the opponent's cards drawn and shown by then, and,
    once the next turn's view is in, the card ids it placed from its hand (those shown since)."""

    __slots__ = ("board", "drawn", "placed", "shown", "sited", "world")

    def __init__(self, board: MoranaState, foe: int):
        self.board = board
        self.world: MoranaState | None = None  # a world dealt from the board, once: each hypothesis refills a copy
        self.drawn = drawn(board, foe)
        self.shown = shown(board, foe)
        self.placed: Counter[str] | None = None
        self.sited: Counter[tuple[str, int]] = Counter()  # of ``placed``, those still at a Site a turn on: (id, Site)


class Belief:
    """One seat's belief about its opponent's hand over one game. ``observe`` each view the seat decides from;
    ``deal`` a sampled world's opponent hand and deck from the next hypothesis kept."""

    def __init__(self, seat: int, decks: Sequence[DeckList], model: Choose, rng: Rng):
        self.seat, self.foe = seat, 1 - seat
        self.decks, self.model, self.rng = decks, model, rng
        self.turns: dict[int, Turn] = {}
        self.kept: list[tuple[int, list[str]]] = []  # (mismatch, draw order), best first
        self.explained = 0  # turns with their placed cards known (the hypotheses are scored on them)
        self.dealt = 0

    def observe(self, view: MoranaState, sample: Callable[[MoranaState, Rng], MoranaState]) -> None:
        """Take in the view of a decision. ``sample`` deals a full world from a view (the scoring replays the
        opponent model on the board of a past turn, which needs one)."""
        if view.step != "commit" or view.over or view.turn in self.turns:
            return
        turn = Turn(clone(view), self.foe)
        past = self.turns.get(view.turn - 1)
        if past is not None:
            past.placed = turn.shown - past.shown
            before, ids = past.board.ids[self.foe], view.ids[self.foe]
            past.sited = Counter(
                (ids[c % CARDS_PER_PLAYER], k + 1)
                for k, cards in enumerate(view.sites[self.foe])
                for c in cards
                if not before[c % CARDS_PER_PLAYER]  # flipped since: placed there last turn
            )
        self.turns[view.turn] = turn
        deck = self._deck(view)
        if deck is None or past is None:
            return
        self.explained += 1
        scored = [(self._mismatch(order, sample), order) for _, order in self.kept]
        for _ in range(FRESH):
            order = self._deal_order(deck)
            if order is not None:
                scored.append((self._mismatch(order, sample), order))
        scored.sort(key=lambda mo: mo[0])
        # Next to the best: a hypothesis off by a card or two is often a swap away from one that explains all
        best = scored[: max(1, KEEP // 4)]
        now = drawn(view, self.foe)
        for k in range(NEIGHBOURS if best and best[0][0] < WORST and now else 0):
            order = list(best[k % len(best)][1])
            i, j = self.rng.below(now), self.rng.below(len(order))  # one drawn: a swap within the deck changes nothing
            order[i], order[j] = order[j], order[i]
            scored.append((self._mismatch(order, sample, scored[min(KEEP, len(scored)) - 1][0]), order))
        scored.sort(key=lambda mo: mo[0])
        self.kept = scored[:KEEP]

    def _deck(self, view: MoranaState) -> list[str] | None:
        """The opponent's 20 card ids, from the deck list the view tells (``guess_deck``); None if none fits."""
        deck = guess_deck(view, self.foe, self.decks)
        return None if deck is None else sorted(deck.cards)

    def _deal_order(self, deck: list[str]) -> list[str] | None:
        """A draw order at random in which every card shown was drawn before it was played (None: no such
        order, the cards shown do not fit the deck). A card placed at a turn explained was drawn by that turn's
        Commit; any other card shown, by the Commit of the first turn that shows it."""
        slots: list[str | None] = [None] * len(deck)
        left = Counter(deck)
        placed: Counter[str] = Counter()
        for turn in sorted(self.turns.values(), key=lambda t: t.drawn):
            for must in (turn.shown - placed, turn.placed or Counter()):
                for cid in sorted(must.elements()):
                    free = [i for i in range(turn.drawn) if slots[i] is None]
                    if not free or left[cid] <= 0:
                        return None
                    slots[free[self.rng.below(len(free))]] = cid
                    left[cid] -= 1
                    placed[cid] += 1
        rest = sorted(left.elements())
        self.rng.shuffle(rest)
        fill = iter(rest)
        return [cid if cid is not None else next(fill) for cid in slots]

    def _mismatch(
        self, order: list[str], sample: Callable[[MoranaState, Rng], MoranaState], cutoff: int = WORST
    ) -> int:
        """The cards the opponent model gets wrong, over the turns explained, if the opponent drew in ``order``
        (counted no further than past ``cutoff``: a hypothesis worse than that is not kept anyway)."""
        wrong = 0
        for turn in self.turns.values():
            if wrong > cutoff:
                break
            prefix = Counter(order[: turn.drawn])
            if turn.shown - prefix:
                return WORST  # a card shown before it was drawn: impossible
            if turn.placed is None:
                continue
            hand = prefix - turn.shown
            if hand.total() != len(turn.board.hand[self.foe]):
                continue  # a hand that left in other ways than shown: this turn cannot be replayed
            if turn.world is None:
                turn.world = sample(turn.board, self.rng)
            world = clone(turn.world)
            if not self._fill(world, order, turn.drawn, turn.shown):
                continue
            ids = world.ids[self.foe]
            taken = take_commit(world, self.foe, self.model)
            sited = Counter((ids[c.card % CARDS_PER_PLAYER], c.site) for c in taken if type(c) is Place)
            placed = Counter(cid for cid, _ in sited.elements())
            wrong += (placed - turn.placed).total() + (turn.placed - placed).total() + (turn.sited - sited).total()
        return wrong

    def _fill(self, world: MoranaState, order: list[str], drawn_now: int, shown_now: Counter[str]) -> bool:
        """The opponent's hand in ``world`` made of ``order``'s cards drawn and not shown (in draw order), its deck
        of the rest (at random: the order to come is not inferred). False (``world`` untouched) if its hand or deck
        is not of that size: cards left them in ways not shown."""
        left = shown_now.copy()
        hand: list[str] = []
        for cid in order[:drawn_now]:
            if left[cid] > 0:
                left[cid] -= 1
            else:
                hand.append(cid)
        rest = order[drawn_now:]
        if len(hand) != len(world.hand[self.foe]) or len(rest) != len(world.deck[self.foe]):
            return False
        self.rng.shuffle(rest)
        ids = world.ids[self.foe]
        for cards, names in ((world.hand[self.foe], hand), (world.deck[self.foe], rest)):
            for c, cid in zip(cards, names, strict=True):
                ids[c % CARDS_PER_PLAYER] = cid
        return True

    def deal(self, world: MoranaState, view: MoranaState) -> None:
        """Deal ``world``'s opponent hand and deck (a world sampled from ``view``) from the next hypothesis kept;
        nothing while nothing has been explained."""
        if not self.kept or not self.explained:
            return
        _, order = self.kept[self.dealt % len(self.kept)]
        self.dealt += 1
        self._fill(world, list(order), drawn(view, self.foe), shown(view, self.foe))
