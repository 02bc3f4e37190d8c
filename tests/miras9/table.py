"""A test table: build an explicit Miras 9 position in a line or two, then act on it through the real rules.

    t = Table(phase="attack")
    a = t.unit(0, "char-raider", lane=0)
    t.attack(0, [(a, 0)])             # declare, add, confirm
    t.pass_window()                   # both players pass: the window closes

Cards are constructed directly in the state (the builder is the only place that does so); every later change
goes through ``RULESET.advance`` and the reducer, and the emitted events are kept in ``t.events``.
"""

from __future__ import annotations

from typing import Any

from annals.engine.miras9.ruleset import RULESET
from annals.engine.miras9.state import LOC_NAMES, SITE_NAMES, CardState, M9State, PlayerState, lane_of, loc_of, side_of
from annals.engine.rng import Rng
from annals.schemas import miras9 as ev
from annals.schemas.records import LEADER_INDEX, instance_id

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
