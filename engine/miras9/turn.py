"""Set-up, the turn and its phases, and the main decisions of each phase.

* Set-up [M9-019]-[M9-022]: Planet-side up, deck prepared, starting Site chosen from the deck and placed in a legal
  lane, shuffle, five cards, one optional mulligan each (seat 0 decides first, ruling R-M9-25), first player drawn
  by the seeded generator.
* Losing at the start of a turn [M9-023], [M9-051].
* The turn [M9-031]-[M9-038]: Awaken (ready [M9-052]; the card-flow choice; generation up to the maximum, ruling
  R-M9-05), Action (play cards [M9-039]-[M9-042], Action abilities [M9-045]), Attack (waves, ``combat``), Move
  (normal movement, embarking and disembarking: ``movement``, ``crews``; Ship-Site moves: ``shipsites``; Awaken
  too, ruling R-M9-52), Attune
  (Manifest, Pressure [M9-093]-[M9-097], Restore [M9-101], Resource-to-Hand draws [M9-049]), then passing the turn
  ends Unattuned [M9-038] and temporary modifiers.
* Planet and Spirit [M9-102]-[M9-105]: Awaken at any main decision of one's own turn, paying the threshold
  (ruling R-M9-08); the Spirit enters ready and Attuned.
"""

from __future__ import annotations

from typing import Any, Final

from annals.engine.core import Emit
from annals.engine.miras9 import blackwake, combat, crews, movement, shipsites, stack
from annals.engine.miras9.board import (
    can_act,
    counter,
    draw,
    echo_of,
    entries,
    is_unit,
    legal_targets,
    move,
    presence,
    set_echo,
    spend,
)
from annals.engine.miras9.choices import (
    Activate,
    Awaken,
    CardFlow,
    Disembark,
    DoManifest,
    DoPressure,
    DoRestore,
    Embark,
    Generate,
    MoveShipSite,
    MoveUnit,
    Mulligan,
    Pass,
    PickSite,
    PlayCard,
    ResourceToHand,
)
from annals.engine.miras9.damage import settle
from annals.engine.miras9.effects import check_defeats, fire, resolve
from annals.engine.miras9.events import (
    Awakened,
    CardMoved,
    CardPlayed,
    DeckPrepared,
    GameOver,
    Manifested,
    MulliganTaken,
    PhaseBegan,
    PileShuffled,
    PlanetPlaced,
    Pressured,
    Restored,
    TurnBegan,
)
from annals.engine.miras9.state import LOC_NAMES, SITE_NAMES, M9State, lane_of, loc_of, side_of
from annals.engine.rng import Rng
from annals.schemas import miras9 as sm

HAND_SIZE: Final = 5  # [M9-021]
RESTORE_COST: Final = 2  # [M9-101]
PASS: Final = Pass()
FLOW: Final = [CardFlow(False), CardFlow(True)]
MULLIGAN: Final = [Mulligan(False), Mulligan(True)]


def phase(s: M9State, emit: Emit, name: str, step: str | None = None) -> None:
    emit(PhaseBegan(s.n, s.turn, s.step if step is None else step, s.active, name))


# ---------------------------------------------------------------- set-up


def begin(s: M9State, emit: Emit, decks: list[list[int]]) -> None:
    for p, pl in enumerate(s.players):
        emit(PlanetPlaced(s.n, 0, "setup", p, pl.leader, s.cards[pl.leader].cid))
        emit(DeckPrepared(s.n, 0, "setup", p, decks[p]))
    phase(s, emit, "setup.site")


SHIP_SITE_EDITION: Final = 3  # the first edition with Ship-Sites in play; before it one was placed as a Site (R-M9-45)


def ships_in_play(s: M9State) -> bool:
    return s.edition >= SHIP_SITE_EDITION


def site_options(s: M9State, p: int) -> list[sm.PickSite]:
    seen: set[str] = set()
    opts: list[sm.PickSite] = []
    for c in s.players[p].deck:
        cid = s.cards[c].cid
        d = s.pool[cid]
        if d.type in ("site", "ship_site") and cid not in seen:
            seen.add(cid)
            opts.extend(PickSite(c, lane) for lane in d.lanes)
    return opts


def shuffle(s: M9State, emit: Emit, rng: Rng, p: int) -> None:
    cards = list(s.players[p].deck)
    rng.shuffle(cards)
    emit(PileShuffled(s.n, s.turn, s.step, p, cards, "deck"))


def deal_hands(s: M9State, emit: Emit, rng: Rng) -> None:
    """[M9-021] shuffle each Main Deck and draw five; the mulligan decisions follow."""
    for p in range(2):
        shuffle(s, emit, rng, p)
        draw(s, emit, p, HAND_SIZE)
    phase(s, emit, "setup.mulligan")


def mulligan(s: M9State, emit: Emit, rng: Rng, p: int, take: bool) -> None:
    emit(MulliganTaken(s.n, s.turn, s.step, p, take))
    if take:
        for c in list(s.players[p].hand):
            emit(CardMoved(s.n, s.turn, s.step, p, c, "hand", "deck", "mulligan", 0))
        shuffle(s, emit, rng, p)
        draw(s, emit, p, HAND_SIZE)


# ---------------------------------------------------------------- turns


def start_turn(s: M9State, emit: Emit, p: int) -> None:
    emit(TurnBegan(s.n, s.turn + 1, "awaken", p, p))
    _turn_begun(s, emit, p)


def _turn_begun(s: M9State, emit: Emit, p: int) -> None:
    """The turn after ``TurnBegan``: the survival check [M9-023], then the Awaken phase. Its two events are
    recorded in the phase the last turn ended in, as logs have always said them (the state's step is already the
    new turn's ``awaken``, as TurnBegan says): the event stream, and so every log's bytes, stay as they were."""
    pl = s.players[p]
    if not (pl.deck or pl.resource or pl.used):  # [M9-023]
        emit(GameOver(s.n, s.turn, s.phase, -1, 1 - p, "survival_clock"))
        return
    phase(s, emit, "awaken", s.phase)
    _awaken_begun(s, emit, p)


def _awaken_begun(s: M9State, emit: Emit, p: int) -> None:
    """The Awaken phase after its ``PhaseBegan``: arrivals, readying, then the card-flow choice [M9-032]."""
    pl = s.players[p]
    movement.arrive_all(s, emit, p)  # [M9-032] En Route cards arrive, then are readied with the rest
    cards = s.cards
    for c in list(s.board):
        cs = cards[c]
        if cs.ctrl == p and cs.tapped:
            counter(s, emit, cs, "tapped", 0, "awaken")
    if pl.deck:
        phase(s, emit, "awaken.flow")
    else:  # ruling R-M9-13: with no Main Deck the card-flow action is skipped
        phase(s, emit, "awaken.generate")


WINDOW_FIRST: Final = {2: ("before_blocks", 1), 4: ("before_damage", 0), 7: ("after_wave", 0)}  # 1: the defender


def at_boundary(s: M9State) -> bool:
    """Held just after set-up ended (the first player chosen), a turn, the Awaken phase or a wave step that runs
    automatically or opens a window began (``M9State.boundary``)."""
    return s.boundary == s.n and not s.over


def resume(s: M9State, emit: Emit) -> None:
    """Go on from a boundary (``at_boundary``) as the action that reached it would have: open the wave step's
    window [M9-075], [M9-077], [M9-080], deal the combat damage [M9-078] or run the consequences [M9-079] (which
    may have nothing to do), run the Awaken phase [M9-032], begin the first turn after set-up [M9-022], or the turn
    begun [M9-023], [M9-031]."""
    w = s.wave
    if w is not None and w.step in WINDOW_FIRST and not s.window:
        name, defender = WINDOW_FIRST[w.step]
        stack.open_window(s, emit, name, 1 - w.attacker if defender else w.attacker)
    elif w is not None and w.step == 5:
        combat.deal_damage(s, emit)
    elif w is not None and w.step == 6:
        combat.consequences(s, emit)
    elif s.phase == "awaken":
        _awaken_begun(s, emit, s.active)
    elif s.turn == 0:  # set-up done, the first player chosen: their first turn [M9-022]
        start_turn(s, emit, s.first)
    else:
        _turn_begun(s, emit, s.active)


def generation_max(s: M9State, p: int) -> int:
    """Ruling R-M9-05: the sum of the resource values of the player's real Sites (a basic lane token gives 0);
    a friendly Ship-Site replaces the value of the Site it covers (ruling R-M9-54)."""
    return shipsites.generation(s, p)


def place_site(s: M9State, emit: Emit, p: int, card: int, lane: int, reason: str) -> None:
    """A Site to its slot; a Ship-Site to its board position on ``p``'s half (ruling R-M9-53)."""
    if s.pool[s.cards[card].cid].type == "ship_site" and ships_in_play(s):
        move(s, emit, card, LOC_NAMES[loc_of(p, lane)], reason)
    else:
        move(s, emit, card, SITE_NAMES[p][lane], reason)


def end_turn(s: M9State, emit: Emit) -> None:
    """[M9-038] the active player's Unattuned Units attune; temporary modifiers expire [M9-110]."""
    p = s.active
    cards = s.cards
    for c in list(s.board):
        cs = cards[c]
        if cs.ctrl == p and not cs.attuned and is_unit(s, cs):
            counter(s, emit, cs, "attuned", 1, "turn_end")
        if cs.atk_mod or cs.grit_mod or cs.shield or cs.spotted:
            for name in ("atk_mod", "grit_mod", "shield", "spotted"):  # Spotted lasts the turn (ruling R-M9-48)
                if getattr(cs, name):
                    counter(s, emit, cs, name, 0, "turn_end")
    start_turn(s, emit, 1 - p)


# ---------------------------------------------------------------- main decisions


def awaken_options(s: M9State, p: int) -> list[sm.Awaken]:
    pl = s.players[p]
    leader = s.cards[pl.leader]
    if leader.zone != "planet" or pl.echo < s.pool[leader.cid].threshold:
        return []
    return [Awaken(loc_of(p, lane)) for lane in range(3)]


def play_options(s: M9State, p: int) -> list[sm.PlayCard]:
    pl = s.players[p]
    budget = len(pl.resource)
    seen: set[str] = set()
    opts: list[sm.PlayCard] = []
    cards = s.cards
    for c in pl.hand:
        cid = cards[c].cid
        if cid in seen:
            continue
        seen.add(cid)
        d = s.pool[cid]
        if d.cost > budget:
            continue
        t = d.type
        # plain loops, not generators: on Python 3.11 each generator is a function call of its own
        if t == "unit":
            for loc in entries(s, d, p):
                opts.append(PlayCard(c, loc))
        elif t == "site":
            for lane in d.lanes:
                if not pl.sites[lane]:
                    opts.append(PlayCard(c, loc_of(p, lane)))
        elif t == "ship_site" and ships_in_play(s):  # ruling R-M9-53: at one of its lanes, where none is
            for loc in shipsites.place_options(s, p, d.lanes):
                opts.append(PlayCard(c, loc))
        elif t == "equipment":
            for h in s.board:
                if cards[h].ctrl == p and is_unit(s, cards[h]):
                    opts.append(PlayCard(c, -1, h))
        elif t == "event" and "reaction" not in d.keywords:
            for tg in legal_targets(s, d.target, p):
                opts.append(PlayCard(c, -1, tg))
    return opts


def action_options(s: M9State) -> list[Any]:
    p = s.active
    opts: list[Any] = [PASS]
    opts.extend(play_options(s, p))
    opts.extend(stack.ability_options(s, p, "action"))
    opts.extend(crews.crew_options(s, p))  # [M9-035], [M9-060]
    opts.extend(awaken_options(s, p))
    return opts


def move_options(s: M9State) -> list[Any]:
    """The Move phase [M9-037]: normal movement, embarking and disembarking, Awaken (ruling R-M9-52)."""
    p = s.active
    opts: list[Any] = [PASS]
    opts.extend(movement.move_options(s, p))
    opts.extend(shipsites.ship_options(s, p))  # [M9-063]
    opts.extend(crews.crew_options(s, p))
    opts.extend(awaken_options(s, p))
    return opts


def attack_options(s: M9State) -> list[Any]:
    opts: list[Any] = [PASS]
    opts.extend(combat.declare_options(s))
    opts.extend(awaken_options(s, s.active))
    return opts


def attune_options(s: M9State) -> list[Any]:
    p = s.active
    pl = s.players[p]
    opts: list[Any] = [PASS]
    cards = s.cards
    held: dict[int, bool] = {}  # per column: does the enemy establish Battle Presence there
    for c in s.board:
        cs = cards[c]
        if cs.ctrl != p:
            continue
        crew = cs.aboard != 0 and crews.crew_may_manifest(s, cs)  # [M9-099] granted by its host (ruling R-M9-60)
        if not crew and not can_act(s, cs):  # ruling R-M9-07: the tap is a cost
            continue
        lane = lane_of(cs.loc)
        if lane not in held:
            held[lane] = presence(s, lane, 1 - p)
        if held[lane]:  # [M9-094], [M9-095]
            continue
        if side_of(cs.loc) == p:
            if cs.loc not in s.manifested:
                opts.append(DoManifest(c))
        elif not crew and cs.loc not in s.pressured and not shipsites.pressure_barred(s, p, lane):  # [M9-100]
            opts.append(DoPressure(c))
    if pl.echo >= RESTORE_COST and pl.discard:  # ruling R-M9-14: Restore needs a card to move
        opts.append(DoRestore())
    if pl.resource:
        opts.append(ResourceToHand())
    opts.extend(stack.ability_options(s, p, "attune"))
    opts.extend(awaken_options(s, p))
    return opts


def generate_options(s: M9State) -> list[Any]:
    p = s.active
    top = min(generation_max(s, p), len(s.players[p].deck))
    opts: list[Any] = []
    for k in range(top + 1):
        opts.append(Generate(k))
    opts.extend(awaken_options(s, p))
    return opts


# ---------------------------------------------------------------- acting


def play(s: M9State, emit: Emit, p: int, opt: sm.PlayCard) -> None:
    """[M9-039] announce, choose, pay in full [M9-047], then place or resolve."""
    cs = s.cards[opt.card]
    d = s.pool[cs.cid]
    emit(CardPlayed(s.n, s.turn, s.step, p, opt.card, cs.cid, opt.target, opt.target if d.type == "equipment" else 0))
    spend(s, emit, p, d.cost)
    t = d.type
    if t == "unit":
        move(s, emit, opt.card, LOC_NAMES[opt.loc], "play")  # enters Unattuned [M9-053]
        fire(s, emit, s.cards[opt.card], "enter")
    elif t == "site" or t == "ship_site":
        place_site(s, emit, p, opt.card, lane_of(opt.loc), "play")
    elif t == "equipment":  # [M9-041]
        move(s, emit, opt.card, LOC_NAMES[s.cards[opt.target].loc], "attach", opt.target)
    else:  # [M9-042] resolve, then Discard
        move(s, emit, opt.card, "stack", "announce")
        resolve(s, emit, list(d.effects), opt.card, p, opt.target)
        if s.cards[opt.card].zone == "stack":
            move(s, emit, opt.card, "discard", "resolved")
    check_defeats(s, emit)


def awaken(s: M9State, emit: Emit, p: int, opt: sm.Awaken) -> None:
    pl = s.players[p]
    leader = s.cards[pl.leader]
    threshold = s.pool[leader.cid].threshold
    emit(Awakened(s.n, s.turn, s.step, p, pl.leader, threshold))
    set_echo(s, emit, p, pl.echo - threshold, "awaken")
    move(s, emit, pl.leader, LOC_NAMES[opt.loc], "awaken")
    counter(s, emit, leader, "attuned", 1, "awaken")  # [M9-105]
    fire(s, emit, leader, "awaken")


def activate_now(s: M9State, emit: Emit, p: int, opt: sm.Activate) -> None:
    a = stack.pay_ability(s, emit, p, opt)
    resolve(s, emit, list(a.effects), opt.card, p, opt.target)
    check_defeats(s, emit)


def main_act(s: M9State, emit: Emit, choice: Any) -> bool:
    """Choices common to the main decisions; False when the choice is not one of them."""
    p = s.active
    kind = type(choice)
    if kind is PlayCard:
        play(s, emit, p, choice)
    elif kind is Activate:
        activate_now(s, emit, p, choice)
    elif kind is Awaken:
        awaken(s, emit, p, choice)
    elif kind is Embark or kind is Disembark:
        crews.crew_act(s, emit, p, choice)
    else:
        return False
    return True


def move_act(s: M9State, emit: Emit, choice: Any) -> None:
    if type(choice) is MoveUnit:
        movement.move_unit(s, emit, s.active, choice)
    elif type(choice) is MoveShipSite:
        shipsites.move_ship(s, emit, s.active, choice)
    elif not main_act(s, emit, choice):
        phase(s, emit, "attune")


def attune_act(s: M9State, emit: Emit, choice: Any) -> None:
    p = s.active
    pl = s.players[p]
    kind = type(choice)
    if kind is DoManifest:  # [M9-094]
        cs = s.cards[choice.card]
        emit(Manifested(s.n, s.turn, s.step, p, cs.iid, LOC_NAMES[cs.loc]))
        counter(s, emit, cs, "tapped", 1, "manifest")
        set_echo(s, emit, p, pl.echo + echo_of(s, cs), "manifest")
        fire(s, emit, cs, "manifest")
    elif kind is DoPressure:  # [M9-095], [M9-096]
        cs = s.cards[choice.card]
        emit(Pressured(s.n, s.turn, s.step, p, cs.iid, LOC_NAMES[cs.loc]))
        counter(s, emit, cs, "tapped", 1, "pressure")
        set_echo(s, emit, 1 - p, s.players[1 - p].echo - echo_of(s, cs), "pressure")
    elif kind is DoRestore:  # [M9-101]
        top = pl.discard[-1]
        emit(Restored(s.n, s.turn, s.step, p, top))
        set_echo(s, emit, p, pl.echo - RESTORE_COST, "restore")
        emit(CardMoved(s.n, s.turn, s.step, p, top, "discard", "used", "restore", 0))
    elif kind is ResourceToHand:  # [M9-049], ruling R-M9-06: from the top
        emit(CardMoved(s.n, s.turn, s.step, p, pl.resource[-1], "resource", "hand", "resource_draw", 0))
    elif not main_act(s, emit, choice):
        end_turn(s, emit)


def pay_act(s: M9State, emit: Emit, choice: Any) -> None:
    blackwake.pay(s, emit, choice)  # a point, or the Blackwake choice of the card it revealed [M9-088]
    settle(s, emit)
