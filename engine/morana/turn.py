"""Set-up and the turn: Dawn, Commit, Dusk, Rite, and the end [MOR-05], [MOR-12]–[MOR-17], [MOR-21]–[MOR-23],
[MOR-31], [MOR-33].

* Set-up: each deck is shuffled (an event), each Warden is placed face-up [MOR-33], each player draws 4 (R-MOR-16).
* Dawn: ``TurnBegan`` (Initiative granted last turn takes hold [MOR-29]), both draw one, both gain Embers equal to
  the turn number [MOR-12], [MOR-14]; Bloom grows Spirits already on the board (R-MOR-07).
* Commit: player 0 then player 1 place cards face-down, paying costs; Reborn up to two Spirits from Nav paying
  the Reborn cost (at least 1) [MOR-15], [MOR-21], [MOR-23]; fire the Invocation once per game [MOR-33]. Every
  commit event is sealed (see ``schemas.morana``); the order of the two players' decisions is invisible to both.
* Dusk: everything flips at once; unspent Embers vanish (R-MOR-11); Invocations, then the Sites resolve
  (``resolution``) [MOR-16].
* Rite: +1 Slava per Site with strictly more Power [MOR-17], [MOR-19]; then the 13 check, and after Turn 8 the
  tiebreaks [MOR-05] (R-MOR-01 .. R-MOR-04).

Dusk, the Rite and the next Dawn run in one ``advance`` (no one decides between them), but each stage's opening
event (``StepBegan`` dusk or rite, ``TurnBegan``) leaves ``MoranaState.boundary`` set until the stage's first
action, and each Site's ``SiteResolutionBegan`` in Dusk sets ``MoranaState.site_begun`` (the Sites resolve in
order, left to right [MOR-16], [MOR-19]), so a position saved there (``turn:T/dusk``, ``turn:T/site:2``,
``turn:T/rite``, ``turn:T/dawn``) goes on with ``resume``: the same events, in the same order, as the game that ran
through it [MOR-13].
"""

from __future__ import annotations

from typing import Final

from annals.engine.morana.resolution import (
    Emit,
    draw,
    facts,
    resolve_invocations,
    resolve_site,
    site_actions,
    tables,
    vigil_amount,
)
from annals.engine.morana.state import (
    LAST_TURN,
    NOBODY,
    OPENING_HAND,
    REBORN_LIMIT,
    SITES,
    SLAVA_TO_WIN,
    MoranaState,
    warden_instance,
)
from annals.engine.rng import Rng
from annals.schemas import morana as _ev
from annals.schemas.morana import (
    Done,
    Invoke,
    MoranaOption,
    Place,
    Rebirth,
)
from annals.schemas.records import CARDS_PER_PLAYER, instance_id

# The event classes as Final names: compiled, a Final module name is a C static, while an imported one is
# looked up in the module's dict wherever it is used (once an event emitted).
CommitDone: Final = _ev.CommitDone
Committed: Final = _ev.Committed
DeckShuffled: Final = _ev.DeckShuffled
EmbersChanged: Final = _ev.EmbersChanged
Flipped: Final = _ev.Flipped
GameEnded: Final = _ev.GameEnded
InvocationCommitted: Final = _ev.InvocationCommitted
PowerChanged: Final = _ev.PowerChanged
RebornCommitted: Final = _ev.RebornCommitted
SiteScored: Final = _ev.SiteScored
SlavaGained: Final = _ev.SlavaGained
StepBegan: Final = _ev.StepBegan
TurnBegan: Final = _ev.TurnBegan
WardenChosen: Final = _ev.WardenChosen


_DONE: Final = Done()
_INVOKE: Final = Invoke()
_SITE_RANGE: Final = range(1, SITES + 1)
SITE_ZONES: Final = ("", "site:1", "site:2", "site:3")  # a Site's zone name by its number (``f"site:{k}"``, made once)
_PLACES: Final[dict[int, tuple[Place, Place, Place]]] = {}
_REBIRTHS: Final[dict[int, tuple[Rebirth, Rebirth, Rebirth]]] = {}


def _places(card: int) -> tuple[Place, Place, Place]:
    got = _PLACES.get(card)
    if got is None:
        got = _PLACES[card] = (Place(card, 1), Place(card, 2), Place(card, 3))
    return got


def _rebirths(card: int) -> tuple[Rebirth, Rebirth, Rebirth]:
    got = _REBIRTHS.get(card)
    if got is None:
        got = _REBIRTHS[card] = (Rebirth(card, 1), Rebirth(card, 2), Rebirth(card, 3))
    return got


def setup(s: MoranaState, emit: Emit, rng: Rng) -> None:
    for p in (0, 1):
        order = list(range(instance_id(p, 0), instance_id(p, len(s.ids[p]))))  # each deck index's instance
        rng.shuffle(order)
        emit(DeckShuffled(s.n, 0, "setup", p, order))
        emit(WardenChosen(s.n, 0, "setup", p, warden_instance(p), s.wardens[p]))
    for p in (0, 1):
        for _ in range(OPENING_HAND):
            draw(s, emit, "setup", p, "opening")
    dawn(s, emit, 1)


def dawn(s: MoranaState, emit: Emit, turn: int) -> None:
    a, b = s.initiative_next
    holder = 0 if a and not b else 1 if b and not a else NOBODY  # both granted: they cancel (R-MOR-06)
    emit(TurnBegan(s.n, turn, "dawn", NOBODY, holder))
    _dawn_actions(s, emit, turn)


def _dawn_actions(s: MoranaState, emit: Emit, turn: int) -> None:
    """Dawn after ``TurnBegan``: the draws, the Embers, Bloom, then Commit [MOR-12], [MOR-14]."""
    for p in (0, 1):
        draw(s, emit, "dawn", p, "dawn")
    for p in (0, 1):
        emit(EmbersChanged(s.n, turn, "dawn", p, "embers", p, turn, turn - s.embers[p], "dawn"))
    _bloom(s, emit, turn)
    emit(StepBegan(s.n, turn, "commit", NOBODY))


def _bloom(s: MoranaState, emit: Emit, turn: int) -> None:
    """Bloom X: every Spirit already on a Site grows by X at Dawn (R-MOR-07)."""
    known, power = tables(s.pool).facts, s.power
    for p in (0, 1):
        ids = s.ids[p]
        for cards in s.sites[p]:
            for card in cards:
                x = known[ids[card % CARDS_PER_PLAYER]].bloom  # ``facts``, per card per Dawn
                if x and card in power:
                    current = power[card]
                    emit(PowerChanged(s.n, turn, "dawn", p, "power", card, current + x, x, "bloom", card))


def reborn_cost(s: MoranaState, player: int, card: int) -> int:
    """The printed Reborn cost less the Vigil's discount, never below 1 [MOR-23]."""
    return _discounted(facts(s, card).reborn_cost, vigil_amount(s, player, "reborn_discount"))


def _discounted(printed: int, discount: int) -> int:
    return max(1, printed - discount)


def options(s: MoranaState) -> list[MoranaOption]:
    """The legal Commit actions of the player committing now, ``Done`` last."""
    p = s.committing
    embers = s.embers[p]
    out: list[MoranaOption] = []
    known = tables(s.pool)
    costs = known.costs
    ids = s.ids[p]
    for card in s.hand[p]:
        if costs[ids[card % CARDS_PER_PLAYER]] <= embers:  # ``deck_index``, written out: per card, per decision
            out.extend(_places(card))
    nav = s.nav[p]
    if nav and s.reborns[p] < REBORN_LIMIT:
        discount = vigil_amount(s, p, "reborn_discount")  # ``reborn_cost``, its Vigil read once per decision
        known_facts = known.facts
        for card in nav:
            f = known_facts[ids[card % CARDS_PER_PLAYER]]
            if f.spirit and _discounted(f.reborn_cost, discount) <= embers:
                out.extend(_rebirths(card))
    if not s.invoked[p] and known.invocation_costs[s.wardens[p]] <= embers:
        out.append(_INVOKE)
    out.append(_DONE)
    return out


def _pay(s: MoranaState, emit: Emit, p: int, turn: int, cost: int, source: str) -> None:
    emit(EmbersChanged(s.n, turn, "commit", p, "embers", p, s.embers[p] - cost, -cost, source))


def commit(s: MoranaState, emit: Emit, choice: MoranaOption) -> None:
    """One sealed Commit action [MOR-15]."""
    p, turn = s.committing, s.turn  # (each field of the state or the choice read once: a generic lookup compiled)
    if type(choice) is Place:
        card, site = choice.card, choice.site
        _pay(s, emit, p, turn, facts(s, card).cost, "commit")
        emit(Committed(s.n, turn, "commit", p, card, site, "hand", SITE_ZONES[site]))
    elif type(choice) is Rebirth:
        card, site = choice.card, choice.site
        _pay(s, emit, p, turn, reborn_cost(s, p, card), "reborn")
        emit(RebornCommitted(s.n, turn, "commit", p, card, site, "nav", SITE_ZONES[site]))
    elif type(choice) is Invoke:
        _pay(s, emit, p, turn, tables(s.pool).invocation_costs[s.wardens[p]], "invocation")
        emit(InvocationCommitted(s.n, turn, "commit", p, warden_instance(p)))
    else:
        placed = 0
        for c in s.sealed:  # a plain loop over ``instance_owner``, written out: a generator is a call per card
            if c // CARDS_PER_PLAYER - 1 == p:
                placed += 1
        emit(CommitDone(s.n, turn, "commit", p, placed))


def dusk_and_rite(s: MoranaState, emit: Emit) -> None:
    """Everything after both Commits: the flip, resolution, the Rite, then the next Dawn or the end."""
    dusk(s, emit)
    rite(s, emit)


def dusk(s: MoranaState, emit: Emit) -> None:
    """[MOR-16]: the flip, the lapse of unspent Embers (R-MOR-11), Invocations, then the Sites left to right."""
    emit(StepBegan(s.n, s.turn, "dusk", NOBODY))
    _dusk_actions(s, emit)


def _dusk_actions(s: MoranaState, emit: Emit) -> None:
    """Dusk after its ``StepBegan``: the flip, the lapse, Invocations, the Sites."""
    turn = s.turn  # (a field read is a generic attribute lookup, compiled or not: read once where it holds)
    sealed = list(s.sealed)
    reborn, invoking = list(s.reborning), sorted(s.invoking)
    emit(Flipped(s.n, turn, "dusk", NOBODY, sealed, list(s.sealed_sites), reborn, invoking, list(s.embers)))
    for p in (0, 1):
        if s.embers[p]:
            emit(EmbersChanged(s.n, turn, "dusk", p, "embers", p, 0, -s.embers[p], "lapse"))
    _reveal_power(s, emit, sealed, turn)
    if s.invoking:
        resolve_invocations(s, emit)
    for k in _SITE_RANGE:
        resolve_site(s, emit, k)


def _reveal_power(s: MoranaState, emit: Emit, revealed: list[int], turn: int) -> None:
    """Each revealed Spirit, first-time or Reborn, starts at its printed Power (plus a Vigil) (R-MOR-10)."""
    for card in revealed:
        f = facts(s, card)
        if f.spirit:
            p = card // CARDS_PER_PLAYER - 1  # ``instance_owner``
            value = f.power + vigil_amount(s, p, "reveal_boost")
            emit(PowerChanged(s.n, turn, "dusk", p, "power", card, value, value, "revealed"))


def site_power(s: MoranaState, p: int, k: int) -> int:
    """Player ``p``'s total face-up Power at Site index ``k`` (0..2) [MOR-19]."""
    power = s.power
    total = 0
    for c in s.sites[p][k]:  # a plain loop: on Python 3.11 a generator is a call per card
        if c in power:
            total += power[c]
    return total


def rite(s: MoranaState, emit: Emit) -> None:
    """[MOR-17]: score every Site left to right, then one check for 13 (R-MOR-01)."""
    emit(StepBegan(s.n, s.turn, "rite", NOBODY))
    _rite_actions(s, emit)


def _rite_actions(s: MoranaState, emit: Emit) -> None:
    """The Rite after its ``StepBegan``: the scoring, the 13 check, then the end or the next Dawn."""
    controlled = [0, 0]
    turn = s.turn
    for k in range(SITES):
        pw = [site_power(s, 0, k), site_power(s, 1, k)]
        winner = 0 if pw[0] > pw[1] else 1 if pw[1] > pw[0] else NOBODY
        emit(SiteScored(s.n, turn, "rite", NOBODY, k + 1, winner, pw))
        if winner != NOBODY:
            controlled[winner] += 1
            value = s.slava[winner] + 1
            emit(SlavaGained(s.n, turn, "rite", winner, "slava", winner, value, 1, SITE_ZONES[k + 1]))
    if max(s.slava) >= SLAVA_TO_WIN:
        end(s, emit, controlled, "slava_13")
    elif turn >= LAST_TURN:
        end(s, emit, controlled, "")
    else:
        dawn(s, emit, turn + 1)


STAGES = ("dusk", "rite", "dawn")  # the automatic stages a position may stop at the start of (and set-up's end)
SITE_STEPS = tuple(f"dusk.site{k}" for k in _SITE_RANGE)  # and each Site's resolution in Dusk [MOR-16], [MOR-19]


def resume(s: MoranaState, emit: Emit) -> None:
    """Go on from the start of an automatic stage (``s.boundary``): the rest of it and what follows, up to the next
    Commit or the end, as ``dusk_and_rite`` would have run it. Anywhere else inside a stage, nothing: such a position
    cannot go on (the runner names it a stalled game)."""
    if s.over:
        return
    if s.site_begun == s.n and s.step in SITE_STEPS:  # a Site's resolution begun: it, the Sites after it, the Rite
        k = SITE_STEPS.index(s.step) + 1
        site_actions(s, emit, k)
        for later in range(k + 1, SITES + 1):
            resolve_site(s, emit, later)
        rite(s, emit)
    elif not s.boundary:
        return
    elif s.step == "setup":  # set-up done: the first turn
        dawn(s, emit, 1)
    elif s.step == "dusk":
        _dusk_actions(s, emit)
        rite(s, emit)
    elif s.step == "rite":
        _rite_actions(s, emit)
    elif s.step == "dawn":
        _dawn_actions(s, emit, s.turn)


def end(s: MoranaState, emit: Emit, controlled: list[int], reached: str) -> None:
    """[MOR-05]: most Slava, then most Sites controlled, then most total Power; level on all three is a draw.

    ``controlled`` counts the Sites each player holds with strictly more Power at this Rite (R-MOR-03).
    """
    totals = [sum(site_power(s, p, k) for k in range(SITES)) for p in (0, 1)]
    winner, reason = NOBODY, "draw"
    for values, why in ((s.slava, reached or "most_slava"), (controlled, "most_sites"), (totals, "most_power")):
        if values[0] != values[1]:
            winner, reason = (0 if values[0] > values[1] else 1), why
            break
    emit(GameEnded(s.n, s.turn, "end", NOBODY, winner, reason, list(s.slava), list(controlled), totals))
