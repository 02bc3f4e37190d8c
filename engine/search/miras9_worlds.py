"""Miras 9 worlds consistent with one seat's view: the hidden cards of a view's state filled in at random.

What a seat cannot see [M9-011], [M9-012]: the order of both Main Decks (every shuffle is redacted, the seat's own
included), and the cards of the opponent's Hand, Resource and Used piles (``M9Ruleset.redact``: a move between
hidden piles names no card to the other player). A seat's view (``SeatView.state``) holds ``UNKNOWN`` (-1) in those
pile slots, and a blank card id (``cid == ""``) for every instance it has never seen. Nothing else is hidden: the
board, Sites, Discard, Exile, the stack and Echo are public [M9-011].

A world puts the instances the view has not placed anywhere (no pile, board position, Site slot, stack or Planet
slot of the view holds them) into the unknown slots of their owner's piles, shuffled, and gives each instance the
seat never saw a card id. The view does not carry the opponent's deck list, so the seat guesses it from the paired
Planet/Spirit it faces (face-up from the start [M9-019]): the first of ``known_decks`` (the shipped decks) with that
Planet that holds every card seen of the opponent so far and has as many cards as the opponent's deck; its ids not
yet seen are dealt, shuffled, to the unseen instances. With no such deck an unseen id is drawn from the opponent's
cards seen so far (else from the seat's own). None of this reads the true state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from annals.engine.miras9.state import CARD_COUNTERS, M9State
from annals.engine.rng import Rng
from annals.engine.statecopy import clone
from annals.schemas.header import DeckList

UNKNOWN = -1  # ``M9Ruleset.redact``'s placeholder
HIDDEN_PILES = ("deck", "hand", "resource", "used")  # [M9-011], [M9-046]
PUBLIC_PILES = ("discard", "exile")


def _placed(s: M9State) -> set[int]:
    """Every instance the view holds somewhere: in a pile slot it can name, on the board, at a Site, on the stack
    or in a Planet slot."""
    seen: set[int] = set(s.board) | set(s.stack_cards)
    for pl in s.players:
        for name in HIDDEN_PILES + PUBLIC_PILES:
            seen.update(getattr(pl, name))
        seen.update(pl.sites)
        seen.add(pl.leader)
    seen.discard(UNKNOWN)
    return seen


def _deck_instances(s: M9State, owner: int) -> list[int]:
    """``owner``'s deck instances (not tokens, not the paired card), in instance order."""
    leader = s.players[owner].leader
    return sorted(c for c, cs in s.cards.items() if cs.owner == owner and not cs.token and c != leader)


def unseen_ids(
    view: M9State, owner: int, seat: int, known_decks: Sequence[DeckList], rng: Rng, count: int
) -> list[str]:
    """``count`` card ids for ``owner``'s instances the seat has not identified, in a random order."""
    mine = _deck_instances(view, owner)
    seen = Counter(view.cards[c].cid for c in mine if view.cards[c].cid)
    planet = view.cards[view.players[owner].leader].cid
    for deck in known_decks:
        rest = Counter(deck.cards) - seen
        if deck.leader == planet and not seen - Counter(deck.cards) and rest.total() == count:
            ids = sorted(rest.elements())
            rng.shuffle(ids)
            return ids
    pool = sorted(seen.elements()) or sorted(view.cards[c].cid for c in _deck_instances(view, seat))
    return [pool[rng.below(len(pool))] for _ in range(count)]


def sample_world(view: M9State, seat: int, rng: Rng, known_decks: Sequence[DeckList] = ()) -> M9State:
    """A full state agreeing with ``view`` (as ``seat`` sees it) on everything the seat can see."""
    world = clone(view)
    placed = _placed(view)
    for p in (0, 1):
        mine = _deck_instances(view, p)
        blank = [c for c in mine if not view.cards[c].cid]
        for c, cid in zip(blank, unseen_ids(view, p, seat, known_decks, rng, len(blank)), strict=True):
            world.cards[c].cid = cid
        unplaced = [c for c in mine if c not in placed]
        rng.shuffle(unplaced)
        fill = iter(unplaced)
        pl = world.players[p]
        for name in HIDDEN_PILES:
            pile: list[int] = getattr(pl, name)
            for k, c in enumerate(pile):
                if c != UNKNOWN:
                    continue
                card = next(fill, UNKNOWN)
                if card == UNKNOWN:  # a view that lost track of a card: the slot is dropped from this world
                    continue
                pile[k] = card
                cs = world.cards[card]
                cs.zone, cs.loc, cs.host, cs.origin, cs.aboard, cs.crew, cs.face = name, -1, 0, -1, 0, 0, 0
                for counter in CARD_COUNTERS:
                    setattr(cs, counter, 0)
            if UNKNOWN in pile:
                pile[:] = [c for c in pile if c != UNKNOWN]
    return world
