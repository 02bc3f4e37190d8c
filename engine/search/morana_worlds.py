"""MORANA worlds consistent with one seat's view: the hidden cards of a view's state filled in at random.

A seat's view (``SeatView.state``) holds placeholders (``UNKNOWN``) where it cannot see an instance: the opponent's
hand and both decks' order. A world puts the instances the seat has not seen into those places, shuffled, and gives
each unseen instance a card id. The view does not carry the opponent's deck list, so the seat guesses it from the
Warden it faces (face-up from the start [MOR-07]): the first of ``known_decks`` (the shipped decks) with that Warden
that holds every card seen of the opponent so far; the ids not yet seen of that list are dealt, shuffled, to the
unseen instances. With no such deck an unseen id is drawn from the opponent's cards seen so far (else from the
seat's own deck). None of this reads the true state.

An opponent's commit sealed before the seat's own is not in the view (its ``Sealed`` event changes nothing the seat
can see), so a world has that card still in the opponent's hand: the search treats the opponent as not having
committed yet (a simplification: sampling what it could have sealed is left to do, see issue 32).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from annals.engine.morana.state import MoranaState
from annals.engine.rng import Rng
from annals.engine.statecopy import clone
from annals.schemas.header import DeckList
from annals.schemas.morana import UNKNOWN
from annals.schemas.records import LEADER_INDEX, instance_id


def _placed(s: MoranaState) -> set[int]:
    seen: set[int] = set()
    for p in (0, 1):
        seen.update(s.deck[p], s.hand[p], s.nav[p])
        for site in s.sites[p]:
            seen.update(site)
    seen.update(s.sealed, s.reborning, s.revealed)
    return seen


def unseen_ids(
    view: MoranaState, owner: int, seat: int, known_decks: Sequence[DeckList], rng: Rng, count: int
) -> list[str]:
    """``count`` card ids for ``owner``'s instances the seat has not identified, in a random order."""
    seen = Counter(cid for cid in view.ids[owner] if cid)
    for deck in known_decks:
        rest = Counter(deck.cards) - seen
        if deck.leader == view.wardens[owner] and not seen - Counter(deck.cards) and rest.total() == count:
            ids = sorted(rest.elements())
            rng.shuffle(ids)
            return ids
    pool = sorted(seen.elements()) or sorted(cid for cid in view.ids[seat] if cid)
    return [pool[rng.below(len(pool))] for _ in range(count)]


def sample_world(view: MoranaState, seat: int, rng: Rng, known_decks: Sequence[DeckList] = ()) -> MoranaState:
    """A full state agreeing with ``view`` (as ``seat`` sees it) on everything the seat can see."""
    world = clone(view)
    placed = _placed(view)
    for p in (0, 1):
        deck_size = len(view.ids[p])
        unidentified = [i for i in range(deck_size) if i != LEADER_INDEX and not view.ids[p][i]]
        for i, cid in zip(unidentified, unseen_ids(view, p, seat, known_decks, rng, len(unidentified)), strict=True):
            world.ids[p][i] = cid
        unseen = [instance_id(p, i) for i in range(deck_size) if i != LEADER_INDEX and instance_id(p, i) not in placed]
        rng.shuffle(unseen)
        fill = iter(unseen)
        for zone in (world.hand[p], world.deck[p]):
            for k, c in enumerate(zone):
                if c == UNKNOWN:
                    zone[k] = next(fill)
    return world
