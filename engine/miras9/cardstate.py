"""One Miras 9 card instance's state (``M9State.cards``): a dataclass, so that the compiled engine
(``engine.compiled``) makes it a native class whose fields the rules read as C struct members, where a msgspec
Struct's field is a generic attribute read even compiled (the rules read a card's ``cid``, ``face`` and ``ctrl``
some ten times an event). msgspec encodes and decodes a dataclass as it does a Struct: the same fields in the same
order, the same bytes in a position file or a saved state, the same validation and its messages."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(init=False)  # the __init__ below: mypyc compiles it, where the generated one costs 4x a Struct's
class CardState:
    """One card instance. ``zone`` is the ``dst`` of its last move; ``loc`` its board position or -1."""

    iid: int
    cid: str
    owner: int
    ctrl: int
    zone: str
    loc: int = -1
    host: int = 0  # Equipment: the Unit it is attached to (0: dropped or not on the board)
    tapped: int = 0
    attuned: int = 0
    wounds: int = 0
    atk_mod: int = 0
    grit_mod: int = 0
    shield: int = 0
    token: bool = False
    face: int = 0  # the paired card: 0 Planet-side up, 1 awakened Spirit
    spotted: int = 0  # an En Route Unit Spotted this turn [M9-055]
    origin: int = -1  # En Route: the board position it left
    aboard: int = 0  # an embarked Unit: its host
    crew: int = 0  # a host: the eligible Units aboard that man it [M9-061]

    def __init__(
        self,
        iid: int,
        cid: str,
        owner: int,
        ctrl: int,
        zone: str,
        loc: int = -1,
        host: int = 0,
        tapped: int = 0,
        attuned: int = 0,
        wounds: int = 0,
        atk_mod: int = 0,
        grit_mod: int = 0,
        shield: int = 0,
        token: bool = False,
        face: int = 0,
        spotted: int = 0,
        origin: int = -1,
        aboard: int = 0,
        crew: int = 0,
    ) -> None:
        self.iid, self.cid, self.owner, self.ctrl, self.zone, self.loc = iid, cid, owner, ctrl, zone, loc
        self.host, self.tapped, self.attuned, self.wounds, self.atk_mod = host, tapped, attuned, wounds, atk_mod
        self.grit_mod, self.shield, self.token, self.face, self.spotted = grit_mod, shield, token, face, spotted
        self.origin, self.aboard, self.crew = origin, aboard, crew

    def __copy__(self) -> CardState:
        """A copy (every field is a value, so it shares nothing): what ``statecopy.clone`` makes of a card."""
        return CardState(
            self.iid, self.cid, self.owner, self.ctrl, self.zone, self.loc, self.host, self.tapped, self.attuned,
            self.wounds, self.atk_mod, self.grit_mod, self.shield, self.token, self.face, self.spotted, self.origin,
            self.aboard, self.crew,
        )  # fmt: skip
