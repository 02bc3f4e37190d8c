"""Each ruleset's state fields against their domains (``queries.positions.domains``): one function per ruleset.

The string domains come from the engines: Miras 9 phases and steps from its turn structure and ``STEP_NAMES``
of an attack wave, zones from ``state.PILES``, ``LOC_NAMES`` and ``SITE_NAMES``; MORANA steps from its turn
[MOR-13]; counter bounds from each state module's constants.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from annals.queries.positions.domains import COUNTER_MAX, Fields, bad, is_leader, seat_of
from annals.schemas.records import TOKEN_BASE

Check = Callable[[Any, Fields], None]


def _other_card(cards: dict[int, Any], key: int) -> Callable[[int], bool]:
    return lambda c: c in cards and c != key


def _miras9(s: Any, f: Fields) -> None:
    from annals.engine.miras9.combat import STEP_NAMES
    from annals.engine.miras9.state import LOC_NAMES, PILES, ROUTE_NAMES, SITE_NAMES

    phases = ["setup", "setup.site", "setup.deal", "setup.mulligan", "awaken", "awaken.generate", "awaken.flow",
              "action", "attack", "move", "attune"]  # fmt: skip
    steps = phases + [f"attack.{name}" for name in STEP_NAMES if name]
    zones = ["", "planet", "stack", "gone", *PILES, *LOC_NAMES, *ROUTE_NAMES, *(n for side in SITE_NAMES for n in side)]
    f.game_end(s)
    f.one_of("phase", s.phase, phases)
    f.one_of("step", s.step, steps)
    f.player("active", s.active)
    f.player("first", s.first, nobody=True)
    f.player("priority", s.priority, nobody=not s.window)
    f.one_of("window", s.window, ["", "before_blocks", "before_damage", "after_wave"])
    f.range("passes", s.passes, 0, 2, "the passes in a row")
    f.length("players", s.players, 2)
    for key, card in s.cards.items():
        path = f"cards[{key}]"
        if card.iid != key:
            raise bad(f"{path}.iid", card.iid, f"the card's own key {key}")
        if key >= TOKEN_BASE:
            if not card.token:
                raise bad(f"{path}.token", card.token, "true for an instance numbered from 10000 (a token)")
        elif key not in f.cards or card.token:
            raise bad(path, key, "an instance of the decks (or a token numbered from 10000)")
        elif card.cid != f.cards[key]:
            raise bad(f"{path}.cid", card.cid, f"{f.cards[key]!r}, the deck list's card at this instance")
        f.card_id(f"{path}.cid", card.cid)
        if key < TOKEN_BASE and card.owner != seat_of(key):
            raise bad(f"{path}.owner", card.owner, f"{seat_of(key)}, the seat whose deck it is in")
        f.player(f"{path}.owner", card.owner)
        f.player(f"{path}.ctrl", card.ctrl)
        f.one_of(f"{path}.zone", card.zone, zones)
        if card.zone in LOC_NAMES and card.loc != LOC_NAMES.index(card.zone):
            expected = LOC_NAMES.index(card.zone)
            raise bad(f"{path}.loc", card.loc, f"{expected}, the board position of its zone {card.zone!r}")
        if card.zone in ROUTE_NAMES and card.loc != ROUTE_NAMES.index(card.zone):  # En Route: to its destination
            expected = ROUTE_NAMES.index(card.zone)
            raise bad(f"{path}.loc", card.loc, f"{expected}, the destination of its route zone {card.zone!r}")
        f.range(f"{path}.origin", card.origin, -1, 5, "the board position an En Route card left, or -1")
        if card.aboard:
            f.card(f"{path}.aboard", card.aboard, _other_card(s.cards, key))
        f.range(f"{path}.crew", card.crew, 0, COUNTER_MAX, "the Units aboard that man it")
        f.range(f"{path}.loc", card.loc, -1, 5, "a board position (side * 3 + lane) or -1")
        if card.host:
            f.card(f"{path}.host", card.host, _other_card(s.cards, key))
        for counter in ("tapped", "attuned", "face", "spotted"):
            f.range(f"{path}.{counter}", getattr(card, counter), 0, 1)
        if card.face and card.cid not in s.pool.spirit:
            raise bad(f"{path}.face", card.face, f"0: {card.cid!r} has no awakened Spirit side to turn up")
        for counter in ("wounds", "shield"):
            f.range(f"{path}.{counter}", getattr(card, counter), 0, COUNTER_MAX)
        for counter in ("atk_mod", "grit_mod"):
            f.range(f"{path}.{counter}", getattr(card, counter), -COUNTER_MAX, COUNTER_MAX)
    known = s.cards.__contains__
    for p, pl in enumerate(s.players):

        def owned(c: int, p: int = p) -> bool:  # a player's piles hold the cards they own
            return c in s.cards and s.cards[c].owner == p

        for pile in PILES:
            f.cards_in(f"players[{p}].{pile}", getattr(pl, pile), owned)
        f.range(f"players[{p}].echo", pl.echo, 0, COUNTER_MAX)

        def own_leader(c: int, p: int = p) -> bool:
            return c in s.cards and is_leader(c) and seat_of(c) == p

        f.card(f"players[{p}].leader", pl.leader, own_leader)
        f.length(f"players[{p}].sites", pl.sites, 3)
        for lane, site in enumerate(pl.sites):
            if site:
                f.card(f"players[{p}].sites[{lane}]", site, known)
    f.cards_in("board", s.board, known)
    f.cards_in("stack_cards", s.stack_cards, known)
    for i, item in enumerate(s.stack):
        f.card(f"stack[{i}].card", item.card, known)
        f.range(f"stack[{i}].ability", item.ability, -1, 15)
        if item.target:
            f.card(f"stack[{i}].target", item.target, known)
        f.player(f"stack[{i}].controller", item.controller)
    w = s.wave
    if w is not None:
        f.range("wave.number", w.number, 1, COUNTER_MAX)
        f.range("wave.lane", w.lane, 0, 2, "a lane (0 exterior, 1 interior, 2 space)")
        f.player("wave.attacker", w.attacker)
        f.range("wave.step", w.step, 1, 7, "a wave step [M9-074]")
        for name in ("attackers", "blockers", "blocked", "was_blocked", "left"):
            f.cards_in(f"wave.{name}", getattr(w, name), known)
        for i, t in enumerate(w.targets):
            if t:
                f.card(f"wave.targets[{i}]", t, known)
        if len(w.targets) != len(w.attackers):
            raise bad("wave.targets", w.targets, "one target per attacker (0: the Site position)")
        if len(w.blocked) != len(w.blockers):
            raise bad("wave.blocked", w.blocked, "one blocked attacker per blocker")
    f.range("waves", s.waves, 0, COUNTER_MAX)
    for i, lane in enumerate(s.attacked):
        f.range(f"attacked[{i}]", lane, 0, 2, "a lane")
    f.player("bd_player", s.bd_player, nobody=True)
    f.cards_in("bd_sources", s.bd_sources, known)
    f.range("bd_paid", s.bd_paid, 0, len(s.bd_sources), "the points paid of those owed (bd_sources)")
    for i, spent in enumerate(s.once):
        f.card(f"once[{i}].card", spent.card, known)
        f.range(f"once[{i}].ability", spent.ability, -1, 15)
    for name in ("manifested", "pressured"):
        for i, loc in enumerate(getattr(s, name)):
            f.range(f"{name}[{i}]", loc, 0, 5, "a board position (side * 3 + lane)")
    f.range("next_token", s.next_token, 0, COUNTER_MAX)
    _ship_sites(s)


def _ship_sites(s: Any) -> None:
    """A Ship-Site in play stands at a board position, never En Route, aboard or attached, and two never share a
    position [M9-064] (rulings R-M9-53)."""
    from annals.engine.miras9.state import LOC_NAMES

    held: dict[int, int] = {}
    for c in s.board:
        card = s.cards[c]
        if s.pool[card.cid].type != "ship_site":
            continue
        path = f"cards[{c}]"
        if card.zone not in LOC_NAMES:
            raise bad(f"{path}.zone", card.zone, "a board position lane:<side>:<lane>: a Ship-Site is never En Route")
        if card.aboard or card.host:
            raise bad(f"{path}.aboard", card.aboard or card.host, "0: a Ship-Site boards and attaches to nothing")
        if card.loc in held:
            raise bad(f"{path}.loc", card.loc, f"a position without Ship-Site {held[card.loc]} [M9-064]")
        if card.loc % 3 == 1 and card.loc // 3 != card.ctrl and "contest_interior" not in s.pool[card.cid].keywords:
            raise bad(f"{path}.loc", card.loc, "not the enemy Interior: this Ship-Site's text does not permit it to "
                      "contest one [M9-064] (ruling R-M9-58)")  # fmt: skip
        held[card.loc] = c


def _morana(s: Any, f: Fields) -> None:
    from annals.engine.morana.state import COMMIT_DONE, HAND_LIMIT, LAST_TURN, OFFBOARD_CAP, REBORN_LIMIT, SITES

    f.game_end(s)
    f.range("turn", s.turn, 0, LAST_TURN, "the turn [MOR-05]")
    steps = ["setup", "dawn", "commit", "dusk", "dusk.invocation", *(f"dusk.site{i}" for i in range(1, SITES + 1)),
             "rite", "end"]  # fmt: skip
    f.one_of("step", s.step, steps)
    for name in ("ids", "wardens", "wardens_seated", "deck", "hand", "nav", "sites", "invoked", "slava", "embers",
                 "offboard", "reborns", "initiative_next"):  # fmt: skip
        f.length(name, getattr(s, name), 2)
    for p in range(2):
        if s.ids[p] != f.cards_of(p):
            raise bad(f"ids[{p}]", s.ids[p], f"the card ids of decks[{p}].cards, in order")
        if s.wardens[p] != f.leader_of(p):
            raise bad(f"wardens[{p}]", s.wardens[p], f"{f.leader_of(p)!r}, the Warden of decks[{p}]")

    for p in range(2):

        def own(c: int, p: int = p) -> bool:  # a card of seat p's deck (Wardens are in no zone)
            return c in f.cards and seat_of(c) == p and not is_leader(c)

        for zone in ("deck", "hand", "nav"):
            f.cards_in(f"{zone}[{p}]", getattr(s, zone)[p], own)
        if len(s.hand[p]) > HAND_LIMIT:
            raise bad(f"hand[{p}]", s.hand[p], f"at most {HAND_LIMIT} cards [MOR-03]")
        f.length(f"sites[{p}]", s.sites[p], SITES)
        for i, site in enumerate(s.sites[p]):
            f.cards_in(f"sites[{p}][{i}]", site, own)
        f.range(f"slava[{p}]", s.slava[p], 0, COUNTER_MAX)
        f.range(f"embers[{p}]", s.embers[p], 0, COUNTER_MAX)
        f.range(f"offboard[{p}]", s.offboard[p], 0, OFFBOARD_CAP, "off-board Slava this turn [MOR-31]")
        f.range(f"reborns[{p}]", s.reborns[p], 0, REBORN_LIMIT, "Reborns this turn [MOR-23]")

    def deck_card(c: int) -> bool:  # a Warden is in no zone: it has no Power and is never sealed
        return c in f.cards and not is_leader(c)

    def on_a_site(path: str, c: int) -> None:
        f.card(path, c, deck_card)
        if not any(c in site for site in s.sites[seat_of(c)]):
            raise bad(path, c, "a card on one of its owner's Sites")

    for card, power in s.power.items():
        on_a_site("power key", card)
        f.range(f"power[{card}]", power, -COUNTER_MAX, COUNTER_MAX)
    for name in ("sealed", "reborning", "revealed"):
        for i, card in enumerate(getattr(s, name)):
            on_a_site(f"{name}[{i}]", card)
    if len(s.sealed_sites) != len(s.sealed):
        raise bad("sealed_sites", s.sealed_sites, "one Site (1..3) per sealed card")
    for i, site in enumerate(s.sealed_sites):
        f.range(f"sealed_sites[{i}]", site, 1, SITES, "a Site number")
        if s.sealed[i] not in s.sites[seat_of(s.sealed[i])][site - 1]:
            raise bad(f"sealed_sites[{i}]", site, f"the Site card {s.sealed[i]} lies on, sealed there [MOR-15]")
    for i, p in enumerate(s.invoking):
        f.player(f"invoking[{i}]", p)
    f.player("initiative", s.initiative, nobody=True)
    f.range("committing", s.committing, 0, COMMIT_DONE, "the player taking Commit (0, 1) or 2 once both sealed")
    if s.boundary and s.step not in ("dusk", "rite", "dawn", "setup"):
        raise bad("boundary", s.boundary, f"false at {s.step!r}: only the start of Dusk, the Rite or a Dawn, or "
                  "set-up's end, is one")  # fmt: skip


CHECKS: dict[str, Check] = {"miras9": _miras9, "morana": _morana}


def check_for(name: str, ruleset: object) -> Check | None:
    """The check of ruleset ``name``: one of ``CHECKS``, else its engine's own ``check_position(state, fields)``
    (a plugin ruleset's, such as the test suite's toys), else None (it has no position files)."""
    own = getattr(ruleset, "check_position", None)
    return CHECKS.get(name) or (own if callable(own) else None)
