"""One Miras 9 player's piles and counters (``M9State.players``) and the attack wave in progress (``M9State.wave``):
dataclasses, like a card's state (``miras9.cardstate``), so that the compiled engine (``engine.compiled``) makes
them native classes whose fields the rules read as C struct members, where a msgspec Struct's field is a generic
attribute read even compiled. msgspec encodes and decodes a dataclass as it does a Struct: the same fields in the
same order, the same bytes in a position file or a saved state, the same validation and its messages
(tests/miras9/test_playerstate.py holds them to the Structs they replace, ``state.StructPlayer`` and
``state.StructWave``, which the interpreted engine keeps)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(init=False)  # the __init__ below: mypyc compiles it (see ``cardstate``)
class PlayerState:
    """A player: the piles (top card last), Echo, the paired card (``leader``) and the Sites (0: the lane token)."""

    deck: list[int] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)
    resource: list[int] = field(default_factory=list)
    used: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    exile: list[int] = field(default_factory=list)
    echo: int = 0
    leader: int = 0
    sites: list[int] = field(default_factory=lambda: [0, 0, 0])
    mulligan_done: bool = False

    def __init__(
        self,
        *,
        deck: list[int] | None = None,
        hand: list[int] | None = None,
        resource: list[int] | None = None,
        used: list[int] | None = None,
        discard: list[int] | None = None,
        exile: list[int] | None = None,
        echo: int = 0,
        leader: int = 0,
        sites: list[int] | None = None,
        mulligan_done: bool = False,
    ) -> None:
        self.deck = [] if deck is None else deck
        self.hand = [] if hand is None else hand
        self.resource = [] if resource is None else resource
        self.used = [] if used is None else used
        self.discard = [] if discard is None else discard
        self.exile = [] if exile is None else exile
        self.echo, self.leader, self.mulligan_done = echo, leader, mulligan_done
        self.sites = [0, 0, 0] if sites is None else sites

    def __copy__(self) -> PlayerState:
        """A copy with its own piles (``statecopy.clone`` copies a player by this)."""
        return PlayerState(
            deck=self.deck.copy(), hand=self.hand.copy(), resource=self.resource.copy(), used=self.used.copy(),
            discard=self.discard.copy(), exile=self.exile.copy(), echo=self.echo, leader=self.leader,
            sites=self.sites.copy(), mulligan_done=self.mulligan_done,
        )  # fmt: skip


@dataclass(init=False)
class Wave:
    """The attack wave in progress [M9-073]-[M9-082] (the fields: ``state.StructWave``)."""

    number: int
    lane: int
    attacker: int
    attackers: list[int] = field(default_factory=list)
    targets: list[int] = field(default_factory=list)
    blockers: list[int] = field(default_factory=list)
    blocked: list[int] = field(default_factory=list)
    step: int = 1
    was_blocked: list[int] = field(default_factory=list)
    left: list[int] = field(default_factory=list)
    extra: int = 0
    wounded: list[tuple[int, int]] = field(default_factory=list)

    def __init__(
        self,
        *,
        number: int,
        lane: int,
        attacker: int,
        attackers: list[int] | None = None,
        targets: list[int] | None = None,
        blockers: list[int] | None = None,
        blocked: list[int] | None = None,
        step: int = 1,
        was_blocked: list[int] | None = None,
        left: list[int] | None = None,
        extra: int = 0,
        wounded: list[tuple[int, int]] | None = None,
    ) -> None:
        self.number, self.lane, self.attacker, self.step, self.extra = number, lane, attacker, step, extra
        self.attackers = [] if attackers is None else attackers
        self.targets = [] if targets is None else targets
        self.blockers = [] if blockers is None else blockers
        self.blocked = [] if blocked is None else blocked
        self.was_blocked = [] if was_blocked is None else was_blocked
        self.left = [] if left is None else left
        self.wounded = [] if wounded is None else wounded

    def __copy__(self) -> Wave:
        """A copy with its own lists (``statecopy.clone`` copies a wave by this)."""
        return Wave(
            number=self.number, lane=self.lane, attacker=self.attacker, attackers=self.attackers.copy(),
            targets=self.targets.copy(), blockers=self.blockers.copy(), blocked=self.blocked.copy(), step=self.step,
            was_blocked=self.was_blocked.copy(), left=self.left.copy(), extra=self.extra,
            wounded=self.wounded.copy(),
        )  # fmt: skip
