"""Miras 9 positions built by hand: the developers' ``Table`` (a position in a line or two, then acted on through
the real rules) and ``from_spec`` (a position written the way a judge writes it: scenario files).

    t = Table(phase="attack")
    a = t.unit(0, "char-raider", lane=0)
    t.attack(0, [(a, 0)])             # declare, add, confirm
    t.pass_window()                   # both players pass: the window closes

Cards are constructed directly in the state (the builder is the only place that does so); every later change
goes through ``RULESET.advance`` and the reducer, and the emitted events are kept in ``t.events``.
"""

from __future__ import annotations

from typing import Any

from annals.engine.miras9 import wavespec
from annals.engine.miras9.cards import SPIRIT_SUFFIX
from annals.engine.miras9.pool import SHIPPED, Pool
from annals.engine.miras9.ruleset import RULESET
from annals.engine.miras9.state import (
    LOC_NAMES,
    PILES,
    REPLACEMENT,
    ROUTE_NAMES,
    SITE_NAMES,
    ZONE_ROUTE,
    CardState,
    M9State,
    PlayerState,
    Spent,
    lane_of,
    loc_of,
    side_of,
)
from annals.engine.miras9.turn import at_boundary
from annals.engine.rng import Rng
from annals.engine.spec import (
    PLAYERS,
    Built,
    Numbering,
    SpecError,
    card_id,
    cards_list,
    entry,
    flag,
    integer,
    seat,
    unknown_field,
)
from annals.engine.spec import table as spec_table
from annals.schemas import miras9 as ev
from annals.schemas.errors import did_you_mean
from annals.schemas.header import DeckList
from annals.schemas.miras9 import LANES
from annals.schemas.records import LEADER_INDEX, TOKEN_BASE, instance_id

FILLER = "char-recruit"


class Table:
    def __init__(
        self,
        *,
        phase: str = "action",
        active: int = 0,
        deck: int = 10,
        resource: int = 5,
        echo: tuple[int, int] = (0, 0),
        leaders: tuple[str, str] = ("planet-kessra", "planet-vael"),
        seed: int = 1,
    ):
        s = M9State(cards={}, players=[PlayerState(), PlayerState()])
        s.turn, s.active, s.first = 1, active, 0
        s.phase = s.step = phase
        self.s = s
        self.events: list[Any] = []
        self.rng = Rng(seed)
        self._next = [0, 0]
        for p in range(2):
            leader = instance_id(p, LEADER_INDEX)
            s.cards[leader] = CardState(iid=leader, cid=leaders[p], owner=p, ctrl=p, zone="planet")
            s.players[p].leader = leader
            s.players[p].echo = echo[p]
            s.players[p].mulligan_done = True
            for _ in range(deck):
                self.add(p, FILLER, "deck")
            for _ in range(resource):
                self.add(p, FILLER, "resource")

    # ---------------------------------------------------------------- building
    def add(self, p: int, cid: str, zone: str, *, lane: int = 0, side: int | None = None, **status: int) -> int:
        s = self.s
        iid = instance_id(p, self._next[p])
        self._next[p] += 1
        cs = CardState(iid=iid, cid=cid, owner=p, ctrl=p, zone=zone)
        side = p if side is None else side
        if zone == "board":
            cs.loc = loc_of(side, lane)
            cs.zone = LOC_NAMES[cs.loc]
            s.board.append(iid)
        elif zone == "site":
            cs.loc = loc_of(side, lane)
            cs.zone = SITE_NAMES[side][lane]
            s.players[side].sites[lane] = iid
        else:
            getattr(s.players[p], zone).append(iid)
        for k, v in status.items():
            setattr(cs, k, v)
        s.cards[iid] = cs
        return iid

    def unit(self, p: int, cid: str, lane: int = 0, *, side: int | None = None, **status: int) -> int:
        """A Unit on the board, ready and Attuned unless told otherwise."""
        status.setdefault("attuned", 1)
        return self.add(p, cid, "board", lane=lane, side=side, **status)

    def hand(self, p: int, cid: str) -> int:
        return self.add(p, cid, "hand")

    def site(self, p: int, cid: str, lane: int) -> int:
        return self.add(p, cid, "site", lane=lane)

    def equip(self, p: int, cid: str, host: int) -> int:
        h = self.s.cards[host]
        return self.add(p, cid, "board", lane=lane_of(h.loc), side=side_of(h.loc), host=host)

    # ---------------------------------------------------------------- acting
    def emit(self, event: Any) -> None:
        RULESET.apply(self.s, event)
        self.events.append(event)

    def point(self) -> Any:
        return RULESET.pending(self.s)

    def options(self) -> list[Any]:
        pt = self.point()
        return [] if pt is None else list(pt.options)

    def act(self, choice: Any) -> None:
        pt = self.point()
        assert pt is not None, f"no decision pending at {self.s.step!r}"
        assert choice in pt.options, f"{choice!r} is not among {pt.point!r} options {pt.options!r}"
        RULESET.advance(self.s, choice, self.emit, self.rng)
        self.settle()

    def settle(self) -> None:
        while not self.s.over and RULESET.pending(self.s) is None:
            RULESET.advance(self.s, None, self.emit, self.rng)

    def attack(self, lane: int, picks: list[tuple[int, int]]) -> None:
        self.act(ev.DeclareAt(lane))
        for card, target in picks:
            self.act(ev.AddAttacker(card, target))
        self.act(ev.Confirm())

    def block(self, pairs: list[tuple[int, int]]) -> None:
        for b, a in pairs:
            self.act(ev.AssignBlocker(b, a))
        if self.s.wave is not None and self.s.wave.step == 3:
            self.act(ev.Confirm())

    def pass_window(self) -> None:
        """Pass until the current window closes (resolving anything on the stack)."""
        name = self.s.window
        while self.s.window == name and name and not self.s.over:
            self.act(ev.Pass())

    def to_damage(self, blocks: list[tuple[int, int]] | None = None) -> None:
        """From a declared wave: both windows passed, blockers assigned, damage dealt."""
        self.pass_window()
        if self.s.wave is not None and self.s.wave.step == 3:
            self.block(blocks or [])
        self.pass_window()

    def of(self, kind: type[Any]) -> list[Any]:
        return [e for e in self.events if type(e) is kind]

    def c(self, iid: int) -> CardState:
        return self.s.cards[iid]


# ---------------------------------------------------------------- a position from a judge's spec

PLAYER_FIELDS = frozenset({"planet", "echo", "deck", "hand", "resource", "used", "discard", "exile", "sites", "board"})
POSITION_FIELDS = frozenset({"turn", "phase", "active", "first", "attacked", "waves", "manifested", "pressured",
                             "once", "arrival"})  # fmt: skip
PHASES = ("action", "attack", "move", "attune", "awaken.flow", "awaken.generate")
# where a position stops without a decision: the turn just begun (TurnBegan: the survival check and Awaken follow),
# the Awaken phase just begun (arrivals and readying follow) [M9-023], [M9-031], [M9-032]
BEGUN = ("turn", "awaken", "setup.done")  # setup.done: hands dealt, mulligans taken, first player chosen [M9-022]
TURN_TRACKERS = ("attacked", "manifested", "pressured", "once")  # cleared as a turn begins
STATUS = ("tapped", "attuned", "spotted")
COUNTS = ("wounds", "shield")
MODS = ("atk_mod", "grit_mod")
PLACING = ("card", "lane", "side", "controller", "host", "aboard", "awakened", "origin")
BOARD_FIELDS = frozenset({*PLACING, *STATUS, *COUNTS, *MODS})


def place(value: Any, field: str) -> int:
    """A board position written ``"p1:interior"`` (that player's half of the lane) as its ``loc``."""
    side, _, lane = str(value).partition(":")
    if side not in PLAYERS or lane not in LANES:
        raise SpecError(field, f'{value!r} is not a board position; write e.g. "p1:interior"', value)
    return loc_of(PLAYERS.index(side), LANES.index(lane))


def place_name(loc: int) -> str:
    return f"{PLAYERS[side_of(loc)]}:{LANES[lane_of(loc)]}"


def _arrival(pos: dict[str, Any], s: M9State, labels: dict[str, int]) -> None:
    """``arrival``: every card on the board, by label, in the order it arrived (which orders simultaneous
    defeats and leaving a wave); default: p0's board entries as written, then p1's."""
    if "arrival" not in pos:
        return
    order = []
    for i, value in enumerate(cards_list(pos["arrival"], "position.arrival")):
        card = labels.get(value) if isinstance(value, str) else None
        if card not in s.board or card in order:
            raise SpecError(f"position.arrival[{i}]", f"{value!r} is not the label of a card on the board (once "
                            "each)", value)  # fmt: skip
        order.append(card)
    if len(order) != len(s.board):
        by_card = {v: k for k, v in labels.items()}
        missing = [by_card.get(c, f"the unlabelled {s.cards[c].cid}") for c in s.board if c not in order]
        raise SpecError("position.arrival", f"lists {len(order)} of the {len(s.board)} cards on the board; add "
                        f"{', '.join(missing)} (label every card on the board)", "arrival")  # fmt: skip
    s.board[:] = order


def _trackers(pos: dict[str, Any], s: M9State, labels: dict[str, int]) -> None:
    """This turn's trackers [M9-044], [M9-097]: ``manifested`` and ``pressured`` (board positions with a Manifest
    or a Pressure this turn), ``once`` (once-per-turn abilities used: ``{ card = "u1", ability = 0 }``, ability -1
    for the card's replacement effect)."""
    for name in ("manifested", "pressured"):
        for i, value in enumerate(cards_list(pos.get(name, []), f"position.{name}")):
            loc = place(value, f"position.{name}[{i}]")
            if loc in getattr(s, name):
                raise SpecError(f"position.{name}[{i}]", f"{value!r} is listed twice", value)
            getattr(s, name).append(loc)
    for i, value in enumerate(cards_list(pos.get("once", []), "position.once")):
        field = f"position.once[{i}]"
        if not isinstance(value, dict) or set(value) - {"card", "ability"} or "card" not in value:
            raise SpecError(field, 'a use is { card = "u1", ability = 0 } (ability -1: its replacement effect)', i)
        card = labels.get(value["card"]) if isinstance(value["card"], str) else None
        if card is None:
            raise SpecError(f"{field}.card", f"{value['card']!r} is no card label of the position", value["card"])
        ability = integer(value.get("ability", 0), f"{field}.ability", REPLACEMENT)
        if ability >= len(s.pool[s.cards[card].cid].abilities):
            raise SpecError(f"{field}.ability", f"{value['card']!r} has no ability {ability}", ability)
        s.once.append(Spent(card, ability))


def from_spec(spec: dict[str, Any], pool: Pool = SHIPPED) -> Built:
    """A Miras 9 position from a judge's spec (see ``engine.spec``): ``[position]`` turn, phase (one of
    ``PHASES``, or of ``BEGUN``: ``turn``, the turn just begun, its survival check [M9-023] and Awaken phase next;
    ``awaken``, the Awaken phase just begun, its arrivals and readying next [M9-032]; ``setup.done``, set-up over:
    hands dealt, mulligans taken, the first player chosen, whose first turn is next [M9-022]; no ``turn``), active
    and first player;
    per player ``planet`` (the paired card: its Planet zone unless a board
    entry names it, awakened), ``echo``, the piles ``deck`` (top card first), ``hand``, ``resource`` (top first),
    ``used``, ``discard``, ``exile``, ``sites`` (``{exterior = "site-outpost"}``) and ``board``: tables with
    ``card``, ``lane``, ``side`` (whose half: the owner's unless told), ``tapped``, ``attuned`` (default true),
    ``wounds``, ``shield``, ``atk_mod``, ``grit_mod``, ``spotted``, ``host`` (an Equipment's Unit, by label) and
    ``origin`` (En Route from that board position to its lane and side [M9-054]); this turn's trackers and the
    wave count in ``[position]`` (``waves``, ``manifested``, ``pressured``, ``once``) and the board's ``arrival``
    order; a wave in progress, its window and stack, Battle Damage owed, a Blackwake choice waiting and extra
    attacks waiting as ``wavespec`` reads them."""
    names = {d.name.lower(): cid for cid, d in pool.items() if not cid.endswith(SPIRIT_SUFFIX)}
    known = {cid: d for cid, d in pool.items() if not cid.endswith(SPIRIT_SUFFIX)}
    pos = spec_table(spec, "position", "", POSITION_FIELDS)
    phase = pos.get("phase", "action")
    if phase not in PHASES + BEGUN:
        raise SpecError("position.phase", f"{phase!r} is not a phase a position starts in; use one of "
                        f"{PHASES + BEGUN}", phase)  # fmt: skip
    s = M9State(cards={}, players=[PlayerState(mulligan_done=True), PlayerState(mulligan_done=True)])
    s.turn = integer(pos.get("turn", 1), "position.turn", 1)
    if phase == "setup.done":  # before the first turn: turn 0
        if "turn" in pos:
            raise SpecError("position.turn", "set-up comes before turn 1: leave turn out at phase setup.done",
                            pos["turn"])  # fmt: skip
        s.turn = 0
    s.phase = s.step = phase
    if phase in BEGUN:
        s.boundary = s.n  # held there: the rules go on with the turn's (the phase's) automatic work
        for name in TURN_TRACKERS:
            if name in pos:
                raise SpecError(f"position.{name}", f"this turn's trackers are empty as it begins [M9-031]: leave "
                                f"{name} out at phase {phase!r}", name)  # fmt: skip
    if phase in ("turn", "setup.done"):  # still the phase the last turn ended in (set-up's mulligans before turn 1)
        s.phase = s.step = "attune" if s.turn > 1 else "setup.mulligan"
        if phase == "turn":
            s.step = "awaken"  # as TurnBegan leaves it (the reducer's ``_turn``)
    s.active = seat(pos.get("active", "p0"), "position.active")
    s.first = seat(pos.get("first", "p0"), "position.first")
    for i, lane_name in enumerate(cards_list(pos.get("attacked", []), "position.attacked")):
        if lane_name not in LANES:
            raise SpecError(
                f"position.attacked[{i}]", f"{lane_name!r} is not a lane; use {', '.join(LANES)}", lane_name
            )
        s.attacked.append(LANES.index(lane_name))  # lanes with a wave this turn already [M9-073]
    number = Numbering(instance_id)
    leaders: list[str] = []
    hosts: list[tuple[int, str, str]] = []
    crews: list[tuple[int, str, str]] = []
    boards: list[tuple[int, list[Any]]] = []
    for p, key in enumerate(PLAYERS):
        side = spec_table(spec, key, "", PLAYER_FIELDS)
        pl = s.players[p]
        pl.echo = integer(side.get("echo", 0), f"{key}.echo")
        label, written = entry(side.get("planet", "planet-kessra"), f"{key}.planet")
        leader = card_id(known, names, written, f"{key}.planet")
        if known[leader].type != "planet":
            raise SpecError(f"{key}.planet", f"{leader!r} is a {known[leader].type}, not a Planet/Spirit card", written)
        iid = instance_id(p, LEADER_INDEX)
        s.cards[iid] = CardState(iid=iid, cid=leader, owner=p, ctrl=p, zone="planet")
        number.label(label, iid, f"{key}.planet")
        pl.leader = iid
        leaders.append(leader)
        for pile in PILES:
            if pile == "hand" or pile in side:
                written_pile = cards_list(side.get(pile, []), f"{key}.{pile}")
                ids = []
                for i, value in enumerate(written_pile):
                    field = f"{key}.{pile}[{i}]"
                    label, written = entry(value, field)
                    cid = card_id(known, names, written, field)
                    if known[cid].type in ("planet", "token"):
                        raise SpecError(field, f"{cid!r} is a {known[cid].type}: it is never in a pile", written)
                    iid = number.add(p, cid, label, field)
                    s.cards[iid] = CardState(iid=iid, cid=cid, owner=p, ctrl=p, zone=pile)
                    ids.append(iid)
                getattr(pl, pile).extend(reversed(ids) if pile in ("deck", "resource") else ids)  # top first
        sites = side.get("sites", {})
        if not isinstance(sites, dict):
            raise SpecError(f"{key}.sites", 'must be a table, e.g. { exterior = "site-outpost" }', "sites")
        for lane_name, value in sites.items():
            field = f"{key}.sites.{lane_name}"
            if lane_name not in LANES:
                raise SpecError(field, f"{lane_name!r} is not a lane; use {', '.join(LANES)}", lane_name)
            lane = LANES.index(lane_name)
            label, written = entry(value, field)
            cid = card_id(known, names, written, field)
            if known[cid].type == "ship_site":  # in play it stands on the board (ruling R-M9-53)
                raise SpecError(field, f"{cid!r} is a Ship-Site: list it under board with its lane", written)
            if known[cid].type != "site":
                raise SpecError(field, f"{cid!r} is a {known[cid].type}, not a Site", written)
            iid = number.add(p, cid, label, field)
            s.cards[iid] = CardState(iid=iid, cid=cid, owner=p, ctrl=p, zone=SITE_NAMES[p][lane], loc=loc_of(p, lane))
            pl.sites[lane] = iid
        boards.append((p, cards_list(side.get("board", []), f"{key}.board")))
    for p, entries in boards:
        key = PLAYERS[p]
        for i, value in enumerate(entries):
            field = f"{key}.board[{i}]"
            if isinstance(value, str):
                value = {"card": value}
            if not isinstance(value, dict):
                raise SpecError(field, 'a board entry is a table: { card = "a1=char-raider", lane = "exterior" }', i)
            unknown = sorted(set(value) - BOARD_FIELDS)
            if unknown:
                raise SpecError(f"{field}.{unknown[0]}", unknown_field(unknown[0], BOARD_FIELDS), unknown[0])
            label, written = entry(value.get("card"), f"{field}.card")
            cid = card_id(known, names, written, f"{field}.card")
            lane_name = value.get("lane", "exterior")
            if lane_name not in LANES:
                raise SpecError(f"{field}.lane", f"{lane_name!r} is not a lane; use {', '.join(LANES)}", lane_name)
            where = loc_of(seat(value.get("side", key), f"{field}.side"), LANES.index(lane_name))
            origin = place(value["origin"], f"{field}.origin") if "origin" in value else -1
            if cid == leaders[p]:  # the paired card, awakened: its Spirit face on the board [M9-104]
                iid = instance_id(p, LEADER_INDEX)
                cs = s.cards[iid]
                cs.face = 1
                number.labels.pop(label, None)
                number.label(label, iid, f"{field}.card")
            else:
                if known[cid].type not in ("unit", "equipment", "token", "ship_site"):
                    raise SpecError(
                        f"{field}.card", f"{cid!r} is a {known[cid].type}: not a card on the board", written
                    )
                if known[cid].type == "token":
                    iid = TOKEN_BASE + s.next_token
                    s.next_token += 1
                    number.label(label, iid, f"{field}.card")
                    cs = CardState(iid=iid, cid=cid, owner=p, ctrl=p, zone="", token=True)
                else:
                    iid = number.add(p, cid, label, f"{field}.card")
                    cs = CardState(iid=iid, cid=cid, owner=p, ctrl=p, zone="")
                s.cards[iid] = cs
            cs.loc, cs.zone = where, LOC_NAMES[where]
            if "controller" in value:  # a card another player directs; it stays its owner's [M9-010]
                cs.ctrl = seat(value["controller"], f"{field}.controller")
            if origin >= 0:  # En Route from ``origin`` to its lane and side [M9-054]
                if origin == where or known[cid].type == "ship_site":
                    why = "a card En Route (a Unit, or Equipment with it) left another board position [M9-054]"
                    raise SpecError(f"{field}.origin", f"{why}: give the position it left, or leave origin out",
                                    value["origin"])  # fmt: skip
                cs.zone, cs.origin = ROUTE_NAMES[where], origin
            cs.attuned = int(known[cid].type != "ship_site")  # a Ship-Site is no Unit: never Attuned
            for name in STATUS:
                if name in value:
                    setattr(cs, name, flag(value[name], f"{field}.{name}"))
            for name in COUNTS:
                if name in value:
                    setattr(cs, name, integer(value[name], f"{field}.{name}"))
            for name in MODS:
                if name in value:
                    setattr(cs, name, integer(value[name], f"{field}.{name}", -99))
            if "host" in value:
                hosts.append((iid, str(value["host"]), f"{field}.host"))
            if "aboard" in value:  # crew: the label of the host it is embarked on [M9-060]
                crews.append((iid, str(value["aboard"]), f"{field}.aboard"))
            s.board.append(iid)
    for iid, host, field in hosts:
        if host not in number.labels or number.labels[host] not in s.board:
            raise SpecError(field, f"{host!r} is no label of a Unit on the board;{did_you_mean(host, number.labels)} "
                            "name the equipped Unit's label", host)  # fmt: skip
        s.cards[iid].host = number.labels[host]
    for iid, host, field in crews:
        h = number.labels.get(host)
        if h is None or h not in s.board or s.cards[h].loc != s.cards[iid].loc:
            raise SpecError(field, f"{host!r} is no label of a host at this card's position;"
                            f"{did_you_mean(host, number.labels)} name its host", host)  # fmt: skip
        s.cards[iid].aboard = h
        if s.cards[iid].owner == s.cards[h].ctrl:  # [M9-061] only the host controller's Units man it
            s.cards[h].crew += 1
    _arrival(pos, s, number.labels)
    _trackers(pos, s, number.labels)
    wavespec.read(spec, s, number.labels, number.add, known, names)  # a wave in progress, its window and stack
    wavespec.read_extra(spec, s, number.labels)  # extra attacks granted, waiting
    if "waves" in pos:  # the waves made so far this game (a wave in progress says it by its number)
        waves = integer(pos["waves"], "position.waves")
        if s.wave is not None and waves != s.waves:
            raise SpecError("position.waves", f"{waves} does not agree with the wave in progress (number "
                            f"{s.wave.number}): write {s.waves} or leave waves out", waves)  # fmt: skip
        s.waves = waves
    decks = [DeckList(f"scenario-{key}", number.cards[p], leaders[p]) for p, key in enumerate(PLAYERS)]
    s.card_defs = list(pool.extra)
    s.__post_init__()
    return Built(s, number.labels, decks)


def to_spec(s: M9State) -> dict[str, Any]:
    """The spec ``from_spec`` reads for a position at a phase's main decision or inside a wave (its window, stack
    and Battle Damage owed, a Blackwake choice or extra attacks waiting: ``wavespec``), a judge's scenario from a
    real game; ``SpecError`` for what a spec cannot hold (set-up, a card resolving, combat damage being dealt)."""
    resolving = set(s.stack_cards) - {item.card for item in s.stack}
    begun = at_boundary(s) and s.wave is None
    if (s.phase not in PHASES and not begun) or resolving:
        raise SpecError("position", f"the game is at {s.step!r} (set-up, or a card resolving); choose a coordinate "
                        "at a decision, e.g. turn:5/action, or where a turn or phase begins, e.g. turn:5",
                        s.step)  # fmt: skip
    labels = {iid: f"{'ab'[cs.owner]}{iid % 1000 + 1}" for iid, cs in s.cards.items() if iid < TOKEN_BASE}
    labels.update({iid: f"t{iid - TOKEN_BASE + 1}" for iid in s.cards if iid >= TOKEN_BASE})

    def named(iid: int) -> str:
        return f"{labels[iid]}={s.cards[iid].cid}"

    phase = ("awaken" if s.phase == "awaken" else "setup.done" if s.turn == 0 else "turn") if begun else s.phase
    spec: dict[str, Any] = {
        "position": {"turn": s.turn, "phase": phase, "active": PLAYERS[s.active], "first": PLAYERS[max(s.first, 0)]}
    }
    if phase == "setup.done":
        del spec["position"]["turn"]
    if s.attacked:
        spec["position"]["attacked"] = [LANES[lane] for lane in s.attacked]
    if s.waves and s.wave is None:
        spec["position"]["waves"] = s.waves
    for name in ("manifested", "pressured"):
        if getattr(s, name):
            spec["position"][name] = [place_name(loc) for loc in getattr(s, name)]
    written = [c for p in range(2) for c in s.board if s.cards[c].owner == p]
    if written != s.board:
        spec["position"]["arrival"] = [labels[c] for c in s.board]
    if s.once:
        spec["position"]["once"] = [
            {"card": labels[u.card], "ability": u.ability} for u in s.once if s.cards[u.card].zone != "gone"
        ]  # a token gone from play uses nothing more
    for p, pl in enumerate(s.players):
        side: dict[str, Any] = {"planet": named(pl.leader), "echo": pl.echo}
        for pile in PILES:
            ids = getattr(pl, pile)
            side[pile] = [s.cards[c].cid for c in reversed(ids)] if pile == "deck" else [named(c) for c in
                          (reversed(ids) if pile == "resource" else ids)]  # fmt: skip
        side["sites"] = {LANES[lane]: named(c) for lane, c in enumerate(pl.sites) if c}
        board = []
        for c in s.board:
            cs = s.cards[c]
            if cs.owner != p:
                continue
            item: dict[str, Any] = {"card": named(c), "lane": LANES[lane_of(cs.loc)]}
            if side_of(cs.loc) != p:
                item["side"] = PLAYERS[side_of(cs.loc)]
            if cs.ctrl != p:
                item["controller"] = PLAYERS[cs.ctrl]
            if cs.zone in ZONE_ROUTE:  # En Route: to its lane and side, from the position it left [M9-054]
                item["origin"] = place_name(cs.origin)
            for name in (*STATUS, *COUNTS, *MODS):
                value = getattr(cs, name)
                if name in STATUS:
                    if value != (1 if name == "attuned" else 0):
                        item[name] = bool(value)
                elif value:
                    item[name] = value
            if cs.host:
                item["host"] = labels[cs.host]
            if cs.aboard:
                item["aboard"] = labels[cs.aboard]
            board.append(item)
        side["board"] = board
        spec[PLAYERS[p]] = side
    wavespec.write(s, labels, spec)
    return spec
