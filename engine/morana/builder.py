"""MORANA positions built by hand: the developers' one-or-two-line ``build`` and the ``Table`` that drives the
rules from it, and ``from_spec`` (a position written the way a judge writes it: scenario files).

``build("hand: vila-archer kikimora; site1: bannik@2", "site1: leshy-sapling", turn=3, slava=(1, 2))`` gives the
state with player 0's and player 1's zones as written: zones ``deck`` (top card last), ``hand``, ``nav``,
``site1``..``site3``; a card on a Site is face-up with its printed Power, ``@N`` sets its Power, and a ``~`` prefix
leaves it face-down (sealed this turn). Instances are numbered per player in the order the cards are written.
"""

from __future__ import annotations

from typing import Any

from annals.engine.morana.cards import Pool, shipped_pool
from annals.engine.morana.ruleset import RULESET
from annals.engine.morana.state import COMMIT_DONE, MoranaState
from annals.engine.rng import Rng
from annals.engine.spec import PLAYERS, Built, Numbering, SpecError, card_id, cards_list, entry, flag, integer, seat
from annals.engine.spec import table as spec_table
from annals.schemas.header import DeckList
from annals.schemas.records import LEADER_INDEX, instance_id

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


# ---------------------------------------------------------------- a position from a judge's spec

PLAYER_FIELDS = frozenset({"warden", "slava", "embers", "deck", "hand", "nav", "site1", "site2", "site3", "invoked"})
POSITION_FIELDS = frozenset({"turn", "committing", "initiative"})
SITE_FIELDS = frozenset({"card", "power", "sealed"})


def from_spec(spec: dict[str, Any], pool: Pool | None = None) -> Built:
    """A MORANA position at Commit from a judge's spec (see ``engine.spec``): ``[position]`` turn, committing
    (who takes Commit now: ``p1``, or ``p2`` once p1 has sealed; ``done``: both have sealed, and Dusk is next),
    initiative (``p1``, ``p2`` or ``none``); per
    player ``warden``, ``slava``, ``embers``, ``invoked``, the piles ``deck`` (top card first), ``hand``, ``nav``
    and ``site1``..``site3``: a card there is a string (face-up at its printed Power) or a table with ``card``,
    ``power`` and ``sealed`` (face-down, committed this turn)."""
    p = pool if pool is not None else shipped_pool()
    names = {c.name.lower(): cid for cid, c in p.cards.items()}
    wnames = {w.name.lower(): wid for wid, w in p.wardens.items()}
    pos = spec_table(spec, "position", "", POSITION_FIELDS)
    s = MoranaState(ids=[[], []], wardens=["", ""], wardens_seated=[True, True])
    s.turn = integer(pos.get("turn", 1), "position.turn", 1)
    s.step = "commit"
    committing = pos.get("committing", "p1")  # "done": both Commits sealed, Dusk is next [MOR-16]
    s.committing = COMMIT_DONE if committing == "done" else seat(committing, "position.committing")
    initiative = pos.get("initiative", "none")
    s.initiative = -1 if initiative == "none" else seat(initiative, "position.initiative")
    number = Numbering(instance_id)
    for player, key in enumerate(PLAYERS):
        side = spec_table(spec, key, "", PLAYER_FIELDS)
        label, written = entry(side.get("warden", "marzanna"), f"{key}.warden")
        s.wardens[player] = card_id(p.wardens, wnames, written, f"{key}.warden")
        number.label(label, instance_id(player, LEADER_INDEX), f"{key}.warden")
        s.slava[player] = integer(side.get("slava", 0), f"{key}.slava")
        s.embers[player] = integer(side.get("embers", s.turn), f"{key}.embers")
        s.invoked[player] = bool(flag(side.get("invoked", False), f"{key}.invoked"))
        for zone in ("deck", "hand", "nav", "site1", "site2", "site3"):
            ids = []
            for i, value in enumerate(cards_list(side.get(zone, []), f"{key}.{zone}")):
                field = f"{key}.{zone}[{i}]"
                extra: dict[str, Any] = {}
                if isinstance(value, dict):
                    if not zone.startswith("site"):
                        raise SpecError(field, f"a card in {zone} is written as a string", i)
                    unknown = sorted(set(value) - SITE_FIELDS)
                    if unknown:
                        raise SpecError(f"{field}.{unknown[0]}", "unknown field; use card, power, sealed", unknown[0])
                    extra, value = value, value.get("card")
                label, written = entry(value, field)
                cid = card_id(p.cards, names, written, field)
                iid = number.add(player, cid, label, field)
                s.ids[player].append(cid)
                ids.append(iid)
                if zone.startswith("site"):
                    k = int(zone[4:])
                    card = p.cards[cid]
                    if extra.get("sealed", False):
                        s.sealed.append(iid)
                        s.sealed_sites.append(k)
                    elif card.kind == "spirit":
                        s.power[iid] = integer(extra.get("power", card.power), f"{field}.power")
                    elif "power" in extra:
                        raise SpecError(f"{field}.power", f"{cid!r} is a Charm: it has no Power", "power")
            if zone.startswith("site"):
                s.sites[player][int(zone[4:]) - 1].extend(ids)
            else:
                getattr(s, zone)[player].extend(reversed(ids) if zone == "deck" else ids)  # deck: top first
    decks = [DeckList(f"scenario-{key}", list(s.ids[i]), s.wardens[i]) for i, key in enumerate(PLAYERS)]
    s.card_defs = list(p.extra)
    s.__post_init__()
    return Built(s, number.labels, decks)


def to_spec(s: MoranaState) -> dict[str, Any]:
    """The spec ``from_spec`` reads for a position at Commit (a judge's scenario from a real game); ``SpecError``
    for a position in Dusk or the Rite, which a spec cannot hold yet."""
    if s.step != "commit" or s.committing > COMMIT_DONE or s.revealed or s.reborning or s.invoking:
        raise SpecError("position", f"the game is at {s.step!r}; choose a coordinate at a Commit, e.g. turn:3/commit",
                        s.step)  # fmt: skip
    spec: dict[str, Any] = {
        "position": {
            "turn": s.turn,
            "committing": PLAYERS[s.committing] if s.committing < COMMIT_DONE else "done",
            "initiative": PLAYERS[s.initiative] if s.initiative >= 0 else "none",
        }
    }
    for p in (0, 1):

        def named(iid: int, p: int = p) -> str:
            return f"{'ab'[p]}{iid % 1000 + 1}={s.ids[p][iid % 1000]}"

        side: dict[str, Any] = {"warden": s.wardens[p], "slava": s.slava[p], "embers": s.embers[p]}
        if s.invoked[p]:
            side["invoked"] = True
        side["deck"] = [s.ids[p][c % 1000] for c in reversed(s.deck[p])]
        side["hand"] = [named(c) for c in s.hand[p]]
        side["nav"] = [named(c) for c in s.nav[p]]
        for k in range(3):
            cards: list[Any] = []
            for c in s.sites[p][k]:
                if c in s.sealed:
                    cards.append({"card": named(c), "sealed": True})
                elif c in s.power and s.power[c] != s.pool.cards[s.ids[p][c % 1000]].power:
                    cards.append({"card": named(c), "power": s.power[c]})
                else:
                    cards.append(named(c))
            side[f"site{k + 1}"] = cards
        spec[PLAYERS[p]] = side
    return spec
