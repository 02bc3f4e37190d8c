"""Dusk: Invocations, then each Site left to right, and the effect primitives they run.

Rules implemented: Sites resolve left to right [MOR-16], [MOR-19]; at each Site the player with less Slava resolves
their effects first [MOR-28], measured as the Site begins (R-MOR-05); at equal Slava the Initiative holder goes
first, and with no holder both resolve simultaneously (targets chosen before either applies, defeats after both)
[MOR-29] (R-MOR-05, R-MOR-06). Within a Site, Swift effects resolve before all others (R-MOR-07); each player's
effects resolve card by card in arrival order, each card's band (Omen, Reborn, or a Charm's effect) before its
Clash (R-MOR-18). Power is durability: damage lowers it and a Spirit at 0 is defeated to its owner's Nav
[MOR-19], [MOR-21], [MOR-37] (R-MOR-12). Off-board Slava is capped at +4 a turn [MOR-31] (R-MOR-08). A card
defeated before its effects resolve loses them: this is how Clash 2 in [MOR-39] takes the left Site.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from annals.engine.morana.cards import Pool
from annals.engine.morana.keywords import ward_after
from annals.engine.morana.scripts import HOOKS, ScriptContext
from annals.engine.morana.state import HAND_LIMIT, NOBODY, OFFBOARD_CAP, SLAVA_TO_WIN, MoranaState, warden_instance
from annals.schemas import morana as _ev
from annals.schemas.morana import (
    Card,
    Effect,
)
from annals.schemas.records import CARDS_PER_PLAYER, Event

# The event classes as Final names: compiled, a Final module name is a C static, while an imported one is
# looked up in the module's dict wherever it is used (once an event emitted).
CharmFired: Final = _ev.CharmFired
CharmSpent: Final = _ev.CharmSpent
ClashFired: Final = _ev.ClashFired
Defeated: Final = _ev.Defeated
DrawSkipped: Final = _ev.DrawSkipped
Drew: Final = _ev.Drew
InitiativeGranted: Final = _ev.InitiativeGranted
InvocationFired: Final = _ev.InvocationFired
InvocationResolutionBegan: Final = _ev.InvocationResolutionBegan
OmenFired: Final = _ev.OmenFired
PowerChanged: Final = _ev.PowerChanged
RebornFired: Final = _ev.RebornFired
SiteResolutionBegan: Final = _ev.SiteResolutionBegan
SlavaGained: Final = _ev.SlavaGained

Emit = Callable[[Event], None]
Item = tuple[int, int, int, str]  # (player, card, site, kind): kind "omen", "reborn", "charm", "clash", "invocation"
Plan = list[tuple[Effect, list[int]]]

SWIFT: Final = "swift"
_SITE_STEPS: Final = ("", "dusk.site1", "dusk.site2", "dusk.site3")  # a Site's step name, by its number
_SITE_ZONES: Final = ("", "site:1", "site:2", "site:3")  # a Site's zone name, by its number
_CLASH: Final[dict[int, Effect]] = {}  # a Clash X's damage effect, by X: made once, not per Clash fired


def _clash_effect(amount: int) -> Effect:
    got = _CLASH.get(amount)
    if got is None:
        got = _CLASH[amount] = Effect("damage", amount)
    return got


def definition(s: MoranaState, card: int) -> Card:
    # ``instance_owner`` and ``deck_index`` written out: every card the rules look at comes here (two operators
    # cost less than ``divmod``'s call and tuple, compiled or not)
    return s.pool.cards[s.ids[card // CARDS_PER_PLAYER - 1][card % CARDS_PER_PLAYER]]


class Facts:
    """What the rules read of one card per decision or per effect, as plain values: a field of a definition (a
    msgspec Struct) is a generic attribute lookup even compiled, and a keyword a lookup in its dict by name, while
    this class is native there. ``clash``, ``ward`` and ``bloom`` are the keyword's number (0 without it);
    ``has_clash`` and ``swift`` whether the card has the keyword at all."""

    __slots__ = (
        "bloom",
        "charm",
        "clash",
        "cost",
        "has_clash",
        "omen",
        "power",
        "reborn",
        "reborn_cost",
        "spirit",
        "swift",
        "ward",
    )

    def __init__(self, card: Card):
        keywords = card.keywords
        self.spirit: bool = card.kind == "spirit"
        self.charm: bool = card.kind == "charm"
        self.cost: int = card.cost
        self.power: int = card.power
        self.reborn_cost: int = card.reborn_cost
        self.clash: int = keywords.get("clash", 0)
        self.has_clash: bool = "clash" in keywords
        self.swift: bool = SWIFT in keywords
        self.ward: int = keywords.get("ward", 0)
        self.bloom: int = keywords.get("bloom", 0)
        self.omen: list[Effect] = card.omen  # shared with the definition: read, never changed
        self.reborn: list[Effect] = card.reborn


class PoolTables:
    """A pool's numbers that the rules read per decision or per effect, as plain values: a field of a definition
    (a msgspec Struct) is a generic attribute lookup even compiled, while this class is native there."""

    __slots__ = ("costs", "facts", "invocation_costs", "vigils")

    def __init__(self, pool: Pool):
        self.costs: dict[str, int] = {cid: card.cost for cid, card in pool.cards.items()}
        self.invocation_costs: dict[str, int] = {wid: w.invocation_cost for wid, w in pool.wardens.items()}
        self.vigils: dict[str, tuple[str, int]] = {wid: (w.vigil.op, w.vigil.amount) for wid, w in pool.wardens.items()}
        self.facts: dict[str, Facts] = {cid: Facts(card) for cid, card in pool.cards.items()}


class _Last:
    """The last pool asked about and its tables: a game asks of its own pool every time, so an identity test
    answers, where the table by digest reads the Struct's ``digest`` and looks it up."""

    def __init__(self) -> None:
        self.pool: Pool | None = None
        self.tables: PoolTables | None = None


_TABLES: Final[dict[str, PoolTables]] = {}
_LAST: Final = _Last()


def tables(pool: Pool) -> PoolTables:
    """``pool``'s tables, made once per pool content (its digest names it: a changed card is another pool)."""
    last = _LAST.tables
    if pool is _LAST.pool and last is not None:
        return last
    got = _TABLES.get(pool.digest)
    if got is None:
        got = _TABLES[pool.digest] = PoolTables(pool)
    _LAST.pool, _LAST.tables = pool, got
    return got


def facts(s: MoranaState, card: int) -> Facts:
    """``definition``'s card as ``Facts``."""
    return tables(s.pool).facts[s.ids[card // CARDS_PER_PLAYER - 1][card % CARDS_PER_PLAYER]]


def vigil_amount(s: MoranaState, player: int, op: str) -> int:
    vop, amount = tables(s.pool).vigils[s.wardens[player]]
    return amount if vop == op else 0


def order(s: MoranaState) -> tuple[int, str]:
    """Who resolves first now: less Slava [MOR-28], else the Initiative holder [MOR-29], else nobody."""
    a, b = s.slava
    if a != b:
        return (0 if a < b else 1), "less_slava"
    if s.initiative != NOBODY:
        return s.initiative, "initiative"
    return NOBODY, "simultaneous"


# --- targets -----------------------------------------------------------------------------------------------------


def _spirits(s: MoranaState, player: int, site: int) -> list[int]:
    power = s.power
    if site:
        return [c for c in s.sites[player][site - 1] if c in power]
    return [c for cards in s.sites[player] for c in cards if c in power]


def _strongest(s: MoranaState, cards: list[int]) -> list[int]:
    """The first of the most powerful (a later card must be strictly stronger: leftmost, then earliest arrival).
    A plain loop: compiled, ``max`` with a key calls the key through Python once per card."""
    if not cards:
        return []
    power = s.power
    best = cards[0]
    top = power[best]
    for card in cards:
        if power[card] > top:
            best, top = card, power[card]
    return [best]


def _weakest(s: MoranaState, cards: list[int]) -> list[int]:
    """The first of the least powerful, by the same tie rule."""
    if not cards:
        return []
    power = s.power
    best = cards[0]
    low = power[best]
    for card in cards:
        if power[card] < low:
            best, low = card, power[card]
    return [best]


def targets(s: MoranaState, player: int, card: int, site: int, target: str) -> list[int]:
    """The cards ``target`` names for ``card`` of ``player`` resolving at ``site`` (0: no Site, an Invocation).

    Ties between equally strong or weak Spirits go to the leftmost Site, then the earliest to arrive (R-MOR-07).
    """
    foe = 1 - player
    if target == "self":
        return [card] if card in s.power else []
    if target == "allies_here":
        return _spirits(s, player, site)
    if target == "allies":
        return _spirits(s, player, 0)
    if target == "enemy_strongest_here":
        return _strongest(s, _spirits(s, foe, site))
    if target == "enemy_weakest_here":
        return _weakest(s, _spirits(s, foe, site))
    if target == "enemies_here":
        return _spirits(s, foe, site)
    if target == "enemy_strongest":
        return _strongest(s, _spirits(s, foe, 0))
    if target == "enemies":
        return _spirits(s, foe, 0)
    return []


# --- effect primitives -------------------------------------------------------------------------------------------


def draw(s: MoranaState, emit: Emit, step: str, player: int, source: str) -> None:
    """Draw one: skipped with 10 cards in hand or an empty deck (R-MOR-16)."""
    deck = s.deck[player]
    if len(s.hand[player]) >= HAND_LIMIT:
        emit(DrawSkipped(s.n, s.turn, step, player, "hand_full"))
    elif not deck:
        emit(DrawSkipped(s.n, s.turn, step, player, "empty_deck"))
    else:
        emit(Drew(s.n, s.turn, step, player, deck[-1], "deck", "hand", source))


def ward_of(s: MoranaState, spirit: int) -> int:
    """The Spirit's Ward X plus its owner's Ward Vigil (R-MOR-07)."""
    return facts(s, spirit).ward + vigil_amount(s, spirit // CARDS_PER_PLAYER - 1, "ward_bonus")


def damage(s: MoranaState, emit: Emit, step: str, player: int, by: int, target: int, amount: int) -> None:
    """``amount`` damage to ``target``, less its Ward (R-MOR-07, R-MOR-12); Power never goes below 0."""
    dealt, prevented = ward_after(amount, ward_of(s, target))
    current = s.power[target]
    new = max(0, current - dealt)
    emit(PowerChanged(s.n, s.turn, step, player, "power", target, new, new - current, "damage", by, prevented))


def boost(s: MoranaState, emit: Emit, step: str, player: int, by: int, target: int, amount: int, source: str) -> None:
    current = s.power[target]
    emit(PowerChanged(s.n, s.turn, step, player, "power", target, current + amount, amount, source, by))


def gain_offboard(s: MoranaState, emit: Emit, step: str, player: int, by: int, amount: int) -> None:
    """Off-board Slava, at most +4 a turn from all non-Site sources together [MOR-31], and never past the top of the
    track, 13 [MOR-10] (R-MOR-17); the excess is lost and recorded as ``capped``."""
    got = min(amount, max(0, OFFBOARD_CAP - s.offboard[player]), max(0, SLAVA_TO_WIN - s.slava[player]))
    value = s.slava[player] + got
    emit(SlavaGained(s.n, s.turn, step, player, "slava", player, value, got, "offboard", by, amount - got))


def _condition_holds(s: MoranaState, player: int, condition: str) -> bool:
    mine, theirs = s.slava[player], s.slava[1 - player]
    return mine > theirs if condition == "more_slava" else mine < theirs


def run_effect(
    s: MoranaState, emit: Emit, step: str, player: int, by: int, site: int, e: Effect, tg: list[int]
) -> None:

    op = e.op
    if op == "none" or (e.condition and not _condition_holds(s, player, e.condition)):
        return  # no effect; or its condition is not met as it resolves (R-MOR-24)
    if op == "damage":
        for t in tg:
            if t in s.power:
                damage(s, emit, step, player, by, t, e.amount)
    elif op == "boost":
        for t in tg:
            if t in s.power:
                boost(s, emit, step, player, by, t, e.amount, "boost")
    elif op == "slava":
        gain_offboard(s, emit, step, player, by, e.amount)
    elif op == "initiative":
        emit(InitiativeGranted(s.n, s.turn, step, player, by, s.turn + 1))
    elif op == "draw":
        for _ in range(e.amount):
            draw(s, emit, step, player, "effect")
    else:
        HOOKS[e.hook](ScriptContext(s, emit, step, player, by, site, definition))


# --- items: what a card does at its Site -------------------------------------------------------------------------


def _band(s: MoranaState, card: int, kind: str) -> list[Effect]:
    if kind == "invocation":
        return s.pool.wardens[s.wardens[card // CARDS_PER_PLAYER - 1]].invocation  # its owner's
    f = facts(s, card)
    return f.reborn if kind == "reborn" else f.omen


def clash_amount(s: MoranaState, player: int, card: int) -> int:
    x = facts(s, card).clash
    return x + vigil_amount(s, player, "clash_bonus") if x else 0


def plan(s: MoranaState, item: Item) -> Plan:
    """Targets for every effect of ``item``, chosen from the board as it is now."""
    player, card, site, kind = item
    if kind == "clash":
        return [(_clash_effect(clash_amount(s, player, card)), targets(s, player, card, site, "enemy_strongest_here"))]
    return [(e, targets(s, player, card, site, e.target) if e.target else []) for e in _band(s, card, kind)]


def run(s: MoranaState, emit: Emit, step: str, item: Item, p: Plan) -> None:
    """One item in printed order: its event, its effects, and a Charm's departure."""
    _announce(s, emit, step, item, p)
    player, card, site, kind = item
    for effect, tg in p:
        run_effect(s, emit, step, player, card, site, effect, tg)
    if kind == "charm":
        emit(CharmSpent(s.n, s.turn, step, player, card, _SITE_ZONES[site]))


def run_together(s: MoranaState, emit: Emit, step: str, planned: list[tuple[Item, Plan]]) -> None:
    """A simultaneous batch (R-MOR-05): every item's event and non-damage effects, then all damage, so that no
    seat order can matter (Power is only clamped at 0 after every boost has landed)."""
    for item, p in planned:
        _announce(s, emit, step, item, p)
        player, card, site, _ = item
        for effect, tg in p:
            if effect.op != "damage":
                run_effect(s, emit, step, player, card, site, effect, tg)
    for item, p in planned:
        player, card, site, kind = item
        for effect, tg in p:
            if effect.op == "damage":
                run_effect(s, emit, step, player, card, site, effect, tg)
        if kind == "charm":
            emit(CharmSpent(s.n, s.turn, step, player, card, _SITE_ZONES[site]))


def _announce(s: MoranaState, emit: Emit, step: str, item: Item, p: Plan) -> None:
    player, card, site, kind = item
    if kind == "clash":
        effect, tg = p[0]
        emit(ClashFired(s.n, s.turn, step, player, card, site, effect.amount, tg[0]))
    elif kind == "omen":
        emit(OmenFired(s.n, s.turn, step, player, card, site))
    elif kind == "reborn":
        emit(RebornFired(s.n, s.turn, step, player, card, site))
    elif kind == "charm":
        emit(CharmFired(s.n, s.turn, step, player, card, site))
    else:
        emit(InvocationFired(s.n, s.turn, step, player, card))


def _items(s: MoranaState, player: int, site: int) -> tuple[list[Item], list[Item]]:
    """``player``'s Swift items at ``site``, then the rest, each in arrival order. Taken once as the Site begins:
    nothing in Dusk puts a card on a Site, reveals one or makes one Reborn, so an item that has since lost its card,
    its reveal or its Power is what ``_live`` drops, exactly as if it were taken just before it could act."""
    swift: list[Item] = []
    rest: list[Item] = []
    revealed, reborning = s.revealed, s.reborning
    known, ids = tables(s.pool).facts, s.ids[player]
    for card in s.sites[player][site - 1]:
        f = known[ids[card % CARDS_PER_PLAYER]]  # ``facts``, the player's cards read once
        out = swift if f.swift else rest
        if card in revealed:
            kind = "charm" if f.charm else "reborn" if card in reborning else "omen"
            out.append((player, card, site, kind))
        if f.has_clash:
            out.append((player, card, site, "clash"))
    return swift, rest


def _live(s: MoranaState, item: Item) -> bool:
    """Still able to act: on its Site (not defeated), and a Clash needs a Spirit with Power and an enemy there."""
    player, card, site, kind = item
    if kind == "invocation":
        return True
    if card not in s.sites[player][site - 1]:
        return False
    if kind == "clash":
        return s.power.get(card, 0) > 0 and bool(_spirits(s, 1 - player, site))
    return card in s.revealed


def defeats(s: MoranaState, emit: Emit, step: str) -> None:
    """Every Spirit at 0 Power crosses to its owner's Nav face-up [MOR-21]."""
    if 0 not in s.power.values():
        return
    for player in (0, 1):
        for k, cards in enumerate(s.sites[player]):
            for card in [c for c in cards if s.power.get(c, 1) <= 0]:
                emit(Defeated(s.n, s.turn, step, player, card, _SITE_ZONES[k + 1]))


def _resolve(s: MoranaState, emit: Emit, step: str, first: int, items: tuple[list[Item], list[Item]]) -> None:
    """Each player's ``items`` (by seat) in order, the player resolving first (``order``) before the other."""
    if first == NOBODY:  # simultaneous: all targets first, then all effects, then defeats [MOR-29]
        run_together(s, emit, step, [(item, plan(s, item)) for p in (0, 1) for item in items[p] if _live(s, item)])
        defeats(s, emit, step)
        return
    for player in (first, 1 - first):
        for item in items[player]:
            if _live(s, item):
                run(s, emit, step, item, plan(s, item))
                defeats(s, emit, step)


def resolve_invocations(s: MoranaState, emit: Emit) -> None:
    """Sealed Invocations resolve after the flip, before the Sites (R-MOR-15)."""
    step = "dusk.invocation"
    first, reason = order(s)
    emit(InvocationResolutionBegan(s.n, s.turn, step, NOBODY, first, reason, list(s.slava)))
    items: list[list[Item]] = [[(p, warden_instance(p), 0, "invocation")] if p in s.invoking else [] for p in (0, 1)]
    _resolve(s, emit, step, first, (items[0], items[1]))


def resolve_site(s: MoranaState, emit: Emit, site: int) -> None:
    """One Site: order measured now, Swift effects first, then the rest [MOR-16], [MOR-28], [MOR-29]."""
    step = _SITE_STEPS[site]
    first, reason = order(s)
    emit(SiteResolutionBegan(s.n, s.turn, step, NOBODY, site, first, reason, list(s.slava)))
    _site_actions(s, emit, site, first)


def site_actions(s: MoranaState, emit: Emit, site: int) -> None:
    """One Site after its ``SiteResolutionBegan``: Swift effects first, then the rest, in the order it named (which
    nothing between the two changes)."""
    _site_actions(s, emit, site, order(s)[0])


def _site_actions(s: MoranaState, emit: Emit, site: int, first: int) -> None:
    if not s.sites[0][site - 1] and not s.sites[1][site - 1]:
        return
    step = _SITE_STEPS[site]
    swift0, rest0 = _items(s, 0, site)
    swift1, rest1 = _items(s, 1, site)
    _resolve(s, emit, step, first, (swift0, swift1))  # even with none: simultaneous, it still checks defeats
    _resolve(s, emit, step, first, (rest0, rest1))
