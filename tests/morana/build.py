"""A one-or-two-line MORANA position builder and a table to drive the rules from it.

``build("hand: vila-archer kikimora; site1: bannik@2", "site1: leshy-sapling", turn=3, slava=(1, 2))`` gives the
state with player 0's and player 1's zones as written: zones ``deck`` (top card last), ``hand``, ``nav``,
``site1``..``site3``; a card on a Site is face-up with its printed Power, ``@N`` sets its Power, and a ``~`` prefix
leaves it face-down (sealed this turn). Instances are numbered per player in the order the cards are written.
"""

from __future__ import annotations

from typing import Any

from annals.engine.morana.cards import shipped_pool
from annals.engine.morana.ruleset import RULESET
from annals.engine.morana.state import COMMIT_DONE, MoranaState
from annals.engine.rng import Rng
from annals.schemas.records import instance_id

ZONES = ("deck", "hand", "nav", "site1", "site2", "site3")


def build(
    p0: str = "",
    p1: str = "",
    *,
    turn: int = 1,
    step: str = "commit",
    slava: tuple[int, int] = (0, 0),
    embers: tuple[int, int] | None = None,
    wardens: tuple[str, str] = ("marzanna", "marzanna"),
    initiative: int = -1,
    committing: int = 0,
) -> MoranaState:
    s = MoranaState(ids=[[], []], wardens=list(wardens))
    s.turn, s.step, s.n = turn, step, 1
    s.slava = list(slava)
    s.embers = list(embers if embers is not None else (turn, turn))
    s.initiative = initiative
    s.committing = committing
    for p, spec in ((0, p0), (1, p1)):
        for part in filter(None, (x.strip() for x in spec.split(";"))):
            zone, _, names = part.partition(":")
            zone = zone.strip()
            assert zone in ZONES, f"unknown zone {zone!r} in {spec!r}"
            for token in names.split():
                sealed = token.startswith("~")
                name, _, power = token.lstrip("~").partition("@")
                card = shipped_pool().cards[name]
                inst = instance_id(p, len(s.ids[p]))
                s.ids[p].append(name)
                if zone.startswith("site"):
                    k = int(zone[4:])
                    s.sites[p][k - 1].append(inst)
                    if sealed:
                        s.sealed.append(inst)
                        s.sealed_sites.append(k)
                    elif card.kind == "spirit":
                        s.power[inst] = int(power) if power else card.power
                else:
                    getattr(s, zone)[p].append(inst)
    return s


class Table:
    """Drives the rules on a built state, applying and keeping every event."""

    def __init__(self, state: MoranaState, seed: int = 0):
        self.s = state
        self.events: list[Any] = []
        self.rng = Rng(seed)

    def emit(self, event: Any) -> None:
        RULESET.apply(self.s, event)
        self.events.append(event)

    def card(self, player: int, name: str, nth: int = 0) -> int:
        """The instance of the ``nth`` copy of ``name`` written for ``player``."""
        hits = [i for i, cid in enumerate(self.s.ids[player]) if cid == name]
        return instance_id(player, hits[nth])

    def options(self) -> list[Any]:
        point = RULESET.pending(self.s)
        assert point is not None, "no decision pending"
        return list(point.options)

    def commit(self, *choices: Any) -> None:
        """Each choice must be on offer; ``Done`` is not added for you."""
        for choice in choices:
            assert choice in self.options(), f"{choice!r} is not offered"
            RULESET.advance(self.s, choice, self.emit, self.rng)

    def run(self) -> None:
        """Advance with no decision pending until one is, or the game ends."""
        while not self.s.over and RULESET.pending(self.s) is None:
            RULESET.advance(self.s, None, self.emit, self.rng)

    def dusk(self) -> list[Any]:
        """Both players' Commits are treated as sealed; run Dusk, the Rite and the next Dawn. Returns new events."""
        start = len(self.events)
        self.s.committing = COMMIT_DONE
        self.s.step = "commit"
        self.run()
        return self.events[start:]

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if type(e) is kind]
