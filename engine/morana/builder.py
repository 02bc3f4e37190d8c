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
from annals.engine.morana.state import COMMIT_DONE, LAST_TURN, OFFBOARD_CAP, REBORN_LIMIT, MoranaState
from annals.engine.morana.turn import SITE_STEPS, STAGES
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

PLAYER_FIELDS = frozenset({"warden", "slava", "embers", "deck", "hand", "nav", "site1", "site2", "site3", "invoked",
                           "invoking", "reborns", "offboard", "initiative_granted"})  # fmt: skip
POSITION_FIELDS = frozenset({"turn", "step", "committing", "initiative", "commit_order"})
SITE_FIELDS = frozenset({"card", "power", "sealed", "reborn", "revealed"})
# where a position stops: a Commit, or the start of Dusk, a Site's resolution in it, the Rite or a Dawn
STEPS = ("commit", "setup", *STAGES, *SITE_STEPS)  # setup: set-up done, the first Dawn next


def from_spec(spec: dict[str, Any], pool: Pool | None = None) -> Built:
    """A MORANA position from a judge's spec (see ``engine.spec``): ``[position]`` turn, step (``commit``, the
    default, or the start of an automatic stage: ``dusk``, both Commits sealed and nothing flipped yet; ``rite``,
    Dusk resolved and nothing scored; ``dawn``, the turn begun and nothing drawn [MOR-13]; ``dusk.site1`` ..
    ``dusk.site3``, that Site's resolution begun in Dusk, the Sites left of it resolved [MOR-16]; ``setup``, set-up
    done: decks shuffled, Wardens placed, opening hands drawn (R-MOR-16), the first Dawn next; no ``turn``), committing
    (at Commit, who takes it now: ``p0``, or ``p1`` once p0 has sealed; ``done``: both have sealed, and Dusk is next),
    initiative (``p0``, ``p1`` or ``none``: the holder this turn); per player ``warden``, ``slava``, ``embers``,
    ``invoked`` (the Invocation used this game), ``invoking`` (sealed this Commit, resolving at Dusk), this turn's
    trackers ``reborns`` (Reborns committed [MOR-23]; default: the cards sealed with ``reborn``), ``offboard``
    (off-board Slava gained [MOR-31]) and ``initiative_granted`` (Initiative granted for the next turn [MOR-29]),
    the piles ``deck`` (top card first), ``hand``, ``nav`` and ``site1``..``site3``: a card there is a string
    (face-up at its printed Power) or a table with ``card``, ``power``, ``sealed`` (face-down, committed this
    turn), ``revealed`` (at a Site's resolution: flipped this Dusk, its Omen, Reborn or Charm yet to fire) and
    ``reborn`` (sealed, or revealed, from Nav: a Reborn)."""
    p = pool if pool is not None else shipped_pool()
    names = {c.name.lower(): cid for cid, c in p.cards.items()}
    wnames = {w.name.lower(): wid for wid, w in p.wardens.items()}
    pos = spec_table(spec, "position", "", POSITION_FIELDS)
    s = MoranaState(ids=[[], []], wardens=["", ""], wardens_seated=[True, True])
    s.turn = integer(pos.get("turn", 1), "position.turn", 1)
    if pos.get("step") == "setup":  # before turn 1
        if "turn" in pos:
            raise SpecError("position.turn", "set-up comes before turn 1: leave turn out at step setup", pos["turn"])
        s.turn = 0
    if s.turn > LAST_TURN:
        raise SpecError("position.turn", f"{s.turn} is past the last turn, {LAST_TURN} [MOR-05]", s.turn)
    step = pos.get("step", "commit")
    if step not in STEPS:
        raise SpecError("position.step", f"{step!r} is not where a position stops; use one of {', '.join(STEPS)}",
                        step)  # fmt: skip
    s.step = step
    s.boundary = step in STAGES or step == "setup"
    if step in SITE_STEPS:
        s.site_begun = s.n  # held as the Site's resolution begins
    committing = pos.get("committing", "p0" if step == "commit" else "done")  # "done": Dusk is next [MOR-16]
    s.committing = COMMIT_DONE if committing == "done" else seat(committing, "position.committing")
    if step not in ("commit", "dawn") and s.committing != COMMIT_DONE:  # (Dawn's Commit is yet to come)
        raise SpecError("position.committing", f"at {step} both Commits are sealed: leave committing out or write "
                        '"done"', committing)  # fmt: skip
    initiative = pos.get("initiative", "none")
    s.initiative = -1 if initiative == "none" else seat(initiative, "position.initiative")
    number = Numbering(instance_id)
    for player, key in enumerate(PLAYERS):
        side = spec_table(spec, key, "", PLAYER_FIELDS)
        label, written = entry(side.get("warden", "marzanna"), f"{key}.warden")
        s.wardens[player] = card_id(p.wardens, wnames, written, f"{key}.warden")
        number.label(label, instance_id(player, LEADER_INDEX), f"{key}.warden")
        s.slava[player] = integer(side.get("slava", 0), f"{key}.slava")
        s.embers[player] = integer(side.get("embers", s.turn if step == "commit" else 0), f"{key}.embers")
        s.invoked[player] = bool(flag(side.get("invoked", False), f"{key}.invoked"))
        if flag(side.get("invoking", False), f"{key}.invoking"):
            if step not in ("commit", "dusk"):
                raise SpecError(f"{key}.invoking", f"a sealed Invocation resolves at Dusk [MOR-33]: none waits at "
                                f"{step}", "invoking")  # fmt: skip
            s.invoking.append(player)
            s.invoked[player] = True
        reborned = 0
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
                        raise SpecError(f"{field}.{unknown[0]}", unknown_field(unknown[0], SITE_FIELDS), unknown[0])
                    extra, value = value, value.get("card")
                label, written = entry(value, field)
                cid = card_id(p.cards, names, written, field)
                iid = number.add(player, cid, label, field)
                s.ids[player].append(cid)
                ids.append(iid)
                if zone.startswith("site"):
                    k = int(zone[4:])
                    card = p.cards[cid]
                    if flag(extra.get("revealed", False), f"{field}.revealed"):  # flipped, its band to fire
                        if step not in SITE_STEPS or k < SITE_STEPS.index(step) + 1:
                            raise SpecError(f"{field}.revealed", "a card flipped this Dusk waits to fire only at a "
                                            "Site's resolution, at its own Site or one not yet resolved [MOR-16]",
                                            "revealed")  # fmt: skip
                        if "sealed" in extra:
                            raise SpecError(f"{field}.sealed", "a revealed card is flipped: leave sealed out",
                                            "sealed")  # fmt: skip
                        s.revealed.append(iid)
                        if _reborn(extra, card.kind, cid, field):
                            s.reborning.append(iid)
                        if card.kind == "spirit":
                            s.power[iid] = integer(extra.get("power", card.power), f"{field}.power")
                    elif flag(extra.get("sealed", False), f"{field}.sealed"):
                        if step not in ("commit", "dusk"):
                            raise SpecError(f"{field}.sealed", f"everything sealed is flipped at Dusk [MOR-16]: no "
                                            f"card is face-down at {step}", "sealed")  # fmt: skip
                        s.sealed.append(iid)
                        s.sealed_sites.append(k)
                        if _reborn(extra, card.kind, cid, field):
                            s.reborning.append(iid)
                            reborned += 1
                    elif "reborn" in extra:
                        raise SpecError(f"{field}.reborn", "a Reborn is sealed from Nav this turn: add sealed = true",
                                        "reborn")  # fmt: skip
                    elif card.kind == "spirit":
                        s.power[iid] = integer(extra.get("power", card.power), f"{field}.power")
                    elif "power" in extra:
                        raise SpecError(f"{field}.power", f"{cid!r} is a Charm: it has no Power", "power")
            if zone.startswith("site"):
                s.sites[player][int(zone[4:]) - 1].extend(ids)
            else:
                getattr(s, zone)[player].extend(reversed(ids) if zone == "deck" else ids)  # deck: top first
        s.reborns[player] = integer(side.get("reborns", reborned), f"{key}.reborns")
        if not reborned <= s.reborns[player] <= REBORN_LIMIT:
            raise SpecError(f"{key}.reborns", f"{s.reborns[player]} Reborns this turn: at most {REBORN_LIMIT} "
                            f"[MOR-23], and at least the {reborned} sealed with reborn = true",
                            "reborns")  # fmt: skip
        s.offboard[player] = integer(side.get("offboard", 0), f"{key}.offboard")
        if s.offboard[player] > OFFBOARD_CAP:
            raise SpecError(f"{key}.offboard", f"{s.offboard[player]}: off-board Slava is capped at {OFFBOARD_CAP} "
                            "a turn [MOR-31]", "offboard")  # fmt: skip
        s.initiative_next[player] = bool(flag(side.get("initiative_granted", False), f"{key}.initiative_granted"))
    _commit_order(pos, s, number.labels)
    decks = [DeckList(f"scenario-{key}", list(s.ids[i]), s.wardens[i]) for i, key in enumerate(PLAYERS)]
    s.card_defs = list(p.extra)
    s.__post_init__()
    return Built(s, number.labels, decks)


def _commit_order(pos: dict[str, Any], s: MoranaState, labels: dict[str, int]) -> None:
    """``commit_order``: the sealed cards' labels in the order they were committed, which is the order they are
    revealed in at Dusk (default: as written, p0's Sites left to right, then p1's)."""
    if "commit_order" not in pos:
        return
    order = cards_list(pos["commit_order"], "position.commit_order")
    site_of = dict(zip(s.sealed, s.sealed_sites, strict=True))
    cards = []
    for i, label in enumerate(order):
        card = labels.get(label) if isinstance(label, str) else None
        if card not in site_of or card in cards:
            raise SpecError(f"position.commit_order[{i}]", f"{label!r} is not the label of a sealed card (once "
                            "each); list the labels of the cards written with sealed = true", label)  # fmt: skip
        cards.append(card)
    if len(cards) != len(site_of):
        missing = sorted(k for k, v in labels.items() if v in site_of and v not in cards)
        raise SpecError("position.commit_order", f"lists {len(cards)} of the {len(site_of)} sealed cards; add "
                        f"{', '.join(missing)}", "commit_order")  # fmt: skip
    s.sealed = cards
    s.sealed_sites = [site_of[c] for c in cards]


def to_spec(s: MoranaState) -> dict[str, Any]:
    """The spec ``from_spec`` reads for a position at a Commit or at the start of Dusk, the Rite or a Dawn (a
    judge's scenario from a real game); ``SpecError`` for a position inside a stage (``turn:T/site:2``), which
    the rules could not go on from."""
    if s.paying:
        raise SpecError("position", "the game is inside a Commit action: its Embers are paid and its card not sealed "
                        f"yet [MOR-15]; choose the Commit before the payment or after the sealing, e.g. "
                        f"turn:{s.turn}/commit", "paying")  # fmt: skip
    at_site = s.step in SITE_STEPS and s.site_begun == s.n
    if (
        s.step not in STEPS
        or (s.step != "commit" and not s.boundary and not at_site)
        or s.over
        or (s.revealed and not at_site)
    ):
        raise SpecError("position", f"the game is at {s.step!r}, inside a stage; choose a coordinate at a Commit or "
                        "at the start of a stage or of a Site's resolution, e.g. turn:3/commit, turn:3/dusk, "
                        "turn:3/site:2, turn:3/rite or turn:4/dawn",
                        s.step)  # fmt: skip
    position: dict[str, Any] = {"turn": s.turn} if s.step != "setup" else {}
    if s.step != "commit":
        position["step"] = s.step
    else:
        position["committing"] = PLAYERS[s.committing] if s.committing < COMMIT_DONE else "done"
    position["initiative"] = PLAYERS[s.initiative] if s.initiative >= 0 else "none"
    spec: dict[str, Any] = {"position": position}
    written = [c for p in (0, 1) for site in s.sites[p] for c in site if c in s.sealed]
    if written != s.sealed:
        position["commit_order"] = [f"{'ab'[c // 1000 - 1]}{c % 1000 + 1}" for c in s.sealed]
    for p in (0, 1):

        def named(iid: int, p: int = p) -> str:
            return f"{'ab'[p]}{iid % 1000 + 1}={s.ids[p][iid % 1000]}"

        side: dict[str, Any] = {"warden": s.wardens[p], "slava": s.slava[p], "embers": s.embers[p]}
        if s.invoked[p]:
            side["invoked"] = True
        if p in s.invoking:
            side["invoking"] = True
        reborned = sum(1 for c in s.reborning if c // 1000 == p + 1)
        if s.reborns[p] != reborned:
            side["reborns"] = s.reborns[p]
        if s.offboard[p]:
            side["offboard"] = s.offboard[p]
        if s.initiative_next[p]:
            side["initiative_granted"] = True
        side["deck"] = [s.ids[p][c % 1000] for c in reversed(s.deck[p])]
        side["hand"] = [named(c) for c in s.hand[p]]
        side["nav"] = [named(c) for c in s.nav[p]]
        for k in range(3):
            cards: list[Any] = []
            for c in s.sites[p][k]:
                if c in s.revealed:  # flipped this Dusk, its band yet to fire at its Site
                    item = {"card": named(c), "revealed": True}
                    if c in s.reborning:
                        item["reborn"] = True
                    if c in s.power and s.power[c] != s.pool.cards[s.ids[p][c % 1000]].power:
                        item["power"] = s.power[c]
                    cards.append(item)
                elif c in s.sealed:
                    cards.append({"card": named(c), "sealed": True, **({"reborn": True} if c in s.reborning else {})})
                elif c in s.power and s.power[c] != s.pool.cards[s.ids[p][c % 1000]].power:
                    cards.append({"card": named(c), "power": s.power[c]})
                else:
                    cards.append(named(c))
            side[f"site{k + 1}"] = cards
        spec[PLAYERS[p]] = side
    return spec


def _reborn(extra: dict[str, Any], kind: str, cid: str, field: str) -> bool:
    """Is this Site card written ``reborn = true``? Only a Spirit can be [MOR-21]."""
    if not flag(extra.get("reborn", False), f"{field}.reborn"):
        return False
    if kind != "spirit":
        raise SpecError(f"{field}.reborn", f"{cid!r} is a Charm: only Spirits are Reborn [MOR-21]", "reborn")
    return True
