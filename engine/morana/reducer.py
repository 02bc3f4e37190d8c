"""The MORANA reducer: the one place state changes, one handler per event kind (a table; ``_handle`` for the
frequent ones).

Folding ``apply`` over a log rebuilds any position [MOR-07]: the handlers only move cards and set counters as the
event says; every rule decision was made before the event was emitted. A player's redacted stream folds too: hidden
cards are ``UNKNOWN`` placeholders in the deck and hand; a sealed Commit changes nothing until ``Flipped`` moves
the revealed cards from hand (a placeholder) or Nav to their Sites.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from annals.engine.compiled import is_compiled
from annals.engine.core import Reducer
from annals.engine.morana.state import COMMIT_DONE, OPENING_HAND, MoranaState
from annals.schemas import morana as ev
from annals.schemas.records import CARDS_PER_PLAYER, Event

# A Site zone's name to its index in ``MoranaState.sites``: a lookup, not parsing the name, per card that leaves one
_SITE_INDEX: Final = {"site:1": 0, "site:2": 1, "site:3": 2}


def _shuffled(s: MoranaState, e: ev.DeckShuffled) -> None:
    s.deck[e.player] = list(e.cards)


def _warden(s: MoranaState, e: ev.WardenChosen) -> None:
    s.wardens_seated[e.player] = True  # the Warden's id comes from the header; from now on it is on the table


def _drew(s: MoranaState, e: ev.Drew) -> None:
    s.boundary = False  # Dawn's first action (or an effect's draw)
    card, player = e.card, e.player
    deck = s.deck[player]
    if deck[-1] == card or card not in deck:  # the top card, or a redacted deck of placeholders
        deck.pop()
    else:
        deck.remove(card)
    hand = s.hand[player]
    hand.append(card)
    if player == 1 and len(hand) == OPENING_HAND and e.source == "opening":
        s.boundary = True  # set-up done (the second player's opening hand drawn): the first Dawn next


def _nothing(s: MoranaState, e: Event) -> None:
    pass


def _acted(s: MoranaState, e: Event) -> None:
    s.boundary = False  # the first action of a stage (a skipped draw at Dawn, a Site scored in the Rite)


def _turn(s: MoranaState, e: ev.TurnBegan) -> None:
    s.turn, s.step = e.turn, e.step
    s.boundary = True
    s.initiative = e.initiative
    s.initiative_next = [False, False]
    s.reborns = [0, 0]
    s.offboard = [0, 0]


def _step(s: MoranaState, e: ev.StepBegan) -> None:
    step = e.step
    s.step = step
    s.boundary = step in ("dusk", "rite")
    if step == "commit":
        s.committing = 0


PAYMENTS: Final = frozenset({"commit", "reborn", "invocation"})  # a Commit action's cost, paid before it is sealed


def _embers(s: MoranaState, e: ev.EmbersChanged) -> None:
    s.embers[e.holder] = e.value
    s.paying = e.source in PAYMENTS  # until the card (or Invocation) it pays for is sealed


def _committed(s: MoranaState, e: ev.Committed) -> None:
    s.paying = False
    card, player, site = e.card, e.player, e.site
    s.hand[player].remove(card)
    s.sites[player][site - 1].append(card)
    s.sealed.append(card)
    s.sealed_sites.append(site)


def _reborn_committed(s: MoranaState, e: ev.RebornCommitted) -> None:
    s.paying = False
    card, player, site = e.card, e.player, e.site
    s.nav[player].remove(card)
    s.sites[player][site - 1].append(card)
    s.sealed.append(card)
    s.sealed_sites.append(site)
    s.reborning.append(card)
    s.reborns[player] += 1


def _invocation_committed(s: MoranaState, e: ev.InvocationCommitted) -> None:
    s.paying = False
    s.invoking.append(e.player)
    s.invoked[e.player] = True


def _commit_done(s: MoranaState, e: ev.CommitDone) -> None:
    s.committing = e.player + 1 if e.player + 1 < COMMIT_DONE else COMMIT_DONE


def _flipped(s: MoranaState, e: ev.Flipped) -> None:
    sites = s.sites
    for card, site in zip(e.cards, e.sites, strict=True):
        owner = card // CARDS_PER_PLAYER - 1  # ``instance_owner``, written out: per card flipped
        here = sites[owner][site - 1]
        if card not in here:  # folding a redacted stream: the sealed card comes from Nav or a hidden hand card
            nav, hand = s.nav[owner], s.hand[owner]
            if card in nav:
                nav.remove(card)
            elif card in hand:
                hand.remove(card)
            else:
                hand.remove(ev.UNKNOWN)
            here.append(card)
    s.reborning = list(e.reborn)
    s.invoking = list(e.invocations)
    for p in e.invocations:
        s.invoked[p] = True
    if e.embers:  # the Embers paid behind the screen are now known (an old log's Flipped has none)
        s.embers = list(e.embers)
    s.revealed = list(e.cards)
    s.sealed = []
    s.sealed_sites = []
    s.boundary = False


def _resolution(s: MoranaState, e: Event) -> None:
    s.step = e.step


def _site_resolution(s: MoranaState, e: ev.SiteResolutionBegan) -> None:
    s.step = e.step
    s.site_begun = e.n + 1  # the Site's resolution begun, none of its effects yet


def _band(s: MoranaState, e: ev.OmenFired | ev.CharmFired) -> None:
    s.revealed.remove(e.card)


def _reborn_fired(s: MoranaState, e: ev.RebornFired) -> None:
    s.revealed.remove(e.card)
    s.reborning.remove(e.card)


def _invocation_fired(s: MoranaState, e: ev.InvocationFired) -> None:
    s.invoking.remove(e.player)


def _power(s: MoranaState, e: ev.PowerChanged) -> None:
    s.power[e.holder] = e.value


def _leave_site(s: MoranaState, card: int, src: str) -> None:
    player = card // CARDS_PER_PLAYER - 1  # ``instance_owner``
    k = _SITE_INDEX.get(src)
    s.sites[player][int(src[5:]) - 1 if k is None else k].remove(card)
    s.nav[player].append(card)
    revealed, reborning = s.revealed, s.reborning
    if card in revealed:
        revealed.remove(card)
    if card in reborning:
        reborning.remove(card)


def _defeated(s: MoranaState, e: ev.Defeated) -> None:
    _leave_site(s, e.card, e.src)
    del s.power[e.card]


def _charm_spent(s: MoranaState, e: ev.CharmSpent) -> None:
    _leave_site(s, e.card, e.src)


def _initiative(s: MoranaState, e: ev.InitiativeGranted) -> None:
    s.initiative_next[e.player] = True


def _slava(s: MoranaState, e: ev.SlavaGained) -> None:
    s.slava[e.holder] = e.value
    if e.source == "offboard":
        s.offboard[e.holder] += e.amount


def _ended(s: MoranaState, e: ev.GameEnded) -> None:
    s.over, s.winner, s.end_reason, s.step = True, e.winner, e.reason, e.step
    s.boundary = False


# The most frequent events (about 96% of a game's), as Final names: compiled, each a C static (``_handle``)
_EMBERS: Final = ev.EmbersChanged
_POWER: Final = ev.PowerChanged
_DREW: Final = ev.Drew
_STEP: Final = ev.StepBegan
_SITE: Final = ev.SiteResolutionBegan
_SCORED: Final = ev.SiteScored
_SLAVA: Final = ev.SlavaGained
_COMMITTED: Final = ev.Committed
_COMMIT_DONE: Final = ev.CommitDone
_OMEN: Final = ev.OmenFired
_CLASH: Final = ev.ClashFired
_TURN: Final = ev.TurnBegan
_FLIPPED: Final = ev.Flipped


def _handle(s: MoranaState, e: Any) -> bool:
    """Apply a frequent event by its table's handler, tested by type most frequent first; False for any other
    event (left to the table). Compiled, each handler is then a direct C call, where the table's is a dict lookup
    and a call through Python with its arguments parsed."""
    t = type(e)
    if t is _EMBERS:
        _embers(s, e)
    elif t is _POWER:
        _power(s, e)
    elif t is _DREW:
        _drew(s, e)
    elif t is _STEP:
        _step(s, e)
    elif t is _SITE:
        _site_resolution(s, e)
    elif t is _SCORED:
        _acted(s, e)
    elif t is _SLAVA:
        _slava(s, e)
    elif t is _COMMITTED:
        _committed(s, e)
    elif t is _COMMIT_DONE:
        _commit_done(s, e)
    elif t is _OMEN:
        _band(s, e)
    elif t is _CLASH:
        pass  # ``_nothing``
    elif t is _TURN:
        _turn(s, e)
    elif t is _FLIPPED:
        _flipped(s, e)
    else:
        return False
    return True


class MoranaReducer(Reducer[MoranaState]):
    """``Reducer`` with the frequent events dispatched by ``_handle``; the rest, and every error (an unknown event,
    one out of order), exactly as the table does."""

    def apply(self, state: MoranaState, event: Event) -> None:
        n = state.n
        if event.n != n or not _handle(state, event):
            super().apply(state, event)
            return
        state.n = n + 1

    def recorder(self, state: MoranaState, events: list[Any]) -> Callable[[Event], None]:
        other = super().recorder(state, events)

        def record(event: Event) -> None:
            n = state.n
            if event.n != n or not _handle(state, event):
                other(event)
                return
            state.n = n + 1
            events.append(event)

        return record


# Compiled, the chain of ``MoranaReducer`` dispatches faster than the table; in Python the table's dict is faster (a
# call less an event: bench.engine folded 1.9 M events/s through the chain, 2.6 M through the table).
apply = (MoranaReducer if is_compiled() else Reducer[MoranaState])(
    {
        ev.DeckShuffled: _shuffled,
        ev.WardenChosen: _warden,
        ev.Drew: _drew,
        ev.DrawSkipped: _acted,
        ev.TurnBegan: _turn,
        ev.StepBegan: _step,
        ev.EmbersChanged: _embers,
        ev.Committed: _committed,
        ev.RebornCommitted: _reborn_committed,
        ev.InvocationCommitted: _invocation_committed,
        ev.CommitDone: _commit_done,
        ev.Sealed: _nothing,
        ev.Flipped: _flipped,
        ev.SiteResolutionBegan: _site_resolution,
        ev.InvocationResolutionBegan: _resolution,
        ev.OmenFired: _band,
        ev.RebornFired: _reborn_fired,
        ev.CharmFired: _band,
        ev.ClashFired: _nothing,
        ev.InvocationFired: _invocation_fired,
        ev.PowerChanged: _power,
        ev.Defeated: _defeated,
        ev.CharmSpent: _charm_spent,
        ev.InitiativeGranted: _initiative,
        ev.SiteScored: _acted,
        ev.SlavaGained: _slava,
        ev.GameEnded: _ended,
    }
).apply
