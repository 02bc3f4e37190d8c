"""MORANA worlds consistent with one seat's view: the hidden cards of a view's state filled in at random.

A seat's view (``SeatView.state``) holds placeholders (``UNKNOWN``) where it cannot see an instance: the opponent's
hand and both decks' order. A world puts the instances the seat has not seen into those places, shuffled, and gives
each unseen instance a card id. The view does not carry the opponent's deck list, so the seat guesses it from the
Warden it faces (face-up from the start [MOR-07]): the first of ``known_decks`` (the shipped decks) with that Warden
that holds every card seen of the opponent so far; the ids not yet seen of that list are dealt, shuffled, to the
unseen instances. With no such deck an unseen id is drawn from the opponent's cards seen so far (else from the
seat's own deck). None of this reads the true state.

The Commit is simultaneous in the rules [MOR-15] and taken in turn by the engine (player 0 seals, then player 1):
when seat 1 decides, player 0 has already sealed, behind a screen (its ``Sealed`` events change nothing the seat
can see), so the view still has those cards in player 0's hand and its Embers unspent. ``seal_opponent_commit``
fills that in: in the sampled world it lets a policy (the search's opponent model) take player 0's Commit from what
it could have committed (its sampled hand, Nav and Embers), as player 0 saw the board then (seat 1's own sealed
cards, if any, hidden from it by the policy itself). Without it the search played every turn as seat 1 against an
opponent that commits nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from annals.engine.core import DecisionPoint
from annals.engine.morana.reducer import apply
from annals.engine.morana.state import REBORN_LIMIT, MoranaState
from annals.engine.morana.turn import commit, options
from annals.engine.rng import Rng
from annals.engine.statecopy import clone
from annals.schemas.header import DeckList
from annals.schemas.morana import UNKNOWN, Done
from annals.schemas.records import LEADER_INDEX, instance_id, instance_owner


def _placed(s: MoranaState) -> set[int]:
    seen: set[int] = set()
    for p in (0, 1):
        seen.update(s.deck[p], s.hand[p], s.nav[p])
        for site in s.sites[p]:
            seen.update(site)
    seen.update(s.sealed, s.reborning, s.revealed)
    return seen


def guess_deck(view: MoranaState, owner: int, known_decks: Sequence[DeckList]) -> DeckList | None:
    """``owner``'s deck list as the view can tell it: the first of ``known_decks`` with its Warden, of its size,
    that holds every card of ``owner``'s the view has identified (None: none does)."""
    seen = Counter(cid for cid in view.ids[owner] if cid)
    for deck in known_decks:
        cards = Counter(deck.cards)
        if deck.leader == view.wardens[owner] and not seen - cards and cards.total() == len(view.ids[owner]):
            return deck
    return None


def unseen_ids(
    view: MoranaState, owner: int, seat: int, known_decks: Sequence[DeckList], rng: Rng, count: int
) -> list[str]:
    """``count`` card ids for ``owner``'s instances the seat has not identified, in a random order."""
    seen = Counter(cid for cid in view.ids[owner] if cid)
    deck = guess_deck(view, owner, known_decks)
    if deck is not None:
        ids = sorted((Counter(deck.cards) - seen).elements())
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


def take_commit(world: MoranaState, player: int, choose: Callable[[MoranaState, DecisionPoint[Any]], Any]) -> list[Any]:
    """``player``'s Commit taken in ``world`` by the policy ``choose``, action by action until it seals; the actions
    taken (``world``'s player committing is ``player`` meanwhile, then as it was)."""
    emit = partial(apply, world)
    before, world.committing = world.committing, player
    taken: list[Any] = []
    for _ in range(2 * len(world.hand[player]) + REBORN_LIMIT + 1):  # each action spends a card or the Invocation
        choice = choose(world, DecisionPoint(player, "commit", options(world)))
        if type(choice) is Done:
            break
        commit(world, emit, choice)
        taken.append(choice)
    world.committing = before
    return taken


def seal_opponent_commit(
    world: MoranaState, seat: int, choose: Callable[[MoranaState, DecisionPoint[Any]], Any]
) -> None:
    """Player 0's Commit, sealed before seat 1's and unseen by it, taken in ``world`` by ``choose`` (a policy for
    player 0 that reads no more than player 0 could see); nothing when the seat is not waiting on a sealed Commit."""
    first = 0
    if seat != 1 or world.step != "commit" or world.committing != seat or world.over:
        return
    if any(instance_owner(c) == first for c in world.sealed) or first in world.invoking:
        return  # already sealed in the world (a view that shows it): nothing to guess
    take_commit(world, first, choose)
