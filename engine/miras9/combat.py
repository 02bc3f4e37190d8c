"""Attack waves: the seven steps [M9-073]-[M9-080], attackers, blockers and damage [M9-066]-[M9-071], [M9-081],
[M9-082], [M9-116], [M9-122].

Geometry (ruling R-M9-01): a wave is made at the defender's Site position in one lane column; every legal
attacker of the active player standing in that column may join, and the defender's Units in the column may block.
Targets are enemy Units in the column or the Site position itself (0); a basic lane token is a standard Site
(ruling R-M9-10). Ruling R-M9-02: the players choose which eligible Units attack or block (none are forced), one
at a time, and confirm them together; nothing else happens in between [M9-074], [M9-076]. Until the confirm each
pick can be taken back, last first, and with no pick left the Site itself (ruling R-M9-44).

Ship-Sites (``shipsites``, rulings R-M9-54, R-M9-55): an enemy Ship-Site in the column is a target; the defender's
Site position is not while the defender's own Ship-Site covers it; an unblocked attack on a Ship-Site deals no
Battle Damage but wounds it and takes its retaliation at once [M9-072].

Card-granted extra attacks [M9-073], [M9-083] (ruling R-M9-42, settles A-16): Raithe's Killing Machine readies him
and grants one extra attack in the consequences step when Units his attack wounded (its target or its blockers)
are defeated and he is still on the board. After the wave ends its controller makes it at once, alone, at the same
Site (a single-Unit wave with the normal windows), or lets it go; the Site does not reopen for anyone else.
"""

from __future__ import annotations

from typing import Any, Final

from annals.engine.core import Emit
from annals.engine.miras9 import shipsites
from annals.engine.miras9.board import atk, can_act, counter, defn, is_unit
from annals.engine.miras9.choices import AddAttacker, AssignBlocker, Confirm, DeclareAt, TakeBack, UseExtraAttack
from annals.engine.miras9.damage import deal, settle
from annals.engine.miras9.effects import check_defeats, fire
from annals.engine.miras9.events import (
    BattleDamageAssigned,
    BlockersDeclared,
    CardMoved,
    ExtraAttackGranted,
    ExtraAttackTaken,
    SelectionChanged,
    SelectionUndone,
    ShipSiteAttacked,
    WaveDeclared,
    WaveEnded,
    WaveStep,
)
from annals.engine.miras9.stack import open_window
from annals.engine.miras9.state import SITE_NAMES, CardState, M9State, Wave, lane_of
from annals.schemas import miras9 as sm

CONFIRM: Final = Confirm()
TAKE_BACK: Final = TakeBack()
KILLING_MACHINE: Final = "killing_machine"
STEP_NAMES: Final = ("", "declare", "reactions_before_blocks", "blockers", "reactions_before_damage", "damage",
              "consequences", "after_wave")  # fmt: skip


def defended_site(w: Wave) -> str:
    """The zone name of the defender's Site in the wave's lane (the ``site`` field of the wave's events)."""
    return SITE_NAMES[1 - w.attacker][w.lane]


def _able_in(s: M9State, player: int, lane: int, barred_by: str) -> list[CardState]:
    """``player``'s ready, Attuned, manned Units in the lane column (every column: ``lane`` -1) whose card does not
    say ``barred_by`` ("cannot attack" / "cannot block": a prohibition beats any permission [M9-004])."""
    cards = s.cards
    out = []
    for c in s.board:
        cs = cards[c]
        if (
            cs.ctrl == player
            and (lane < 0 or lane_of(cs.loc) == lane)
            and can_act(s, cs)
            and barred_by not in defn(s, cs).keywords
        ):
            out.append(cs)
    return out


def attackers_in(s: M9State, player: int, lane: int) -> list[CardState]:
    """[M9-066] ready, Attuned, active, able to attack, in the lane column."""
    return _able_in(s, player, lane, "cannot_attack")


def blockers_in(s: M9State, player: int, lane: int) -> list[CardState]:
    """[M9-068] the defender's ready, Attuned, active Units in the column that can block."""
    return _able_in(s, player, lane, "cannot_block")


def target_ok(s: M9State, w: Wave, t: int) -> bool:
    """An opposing Unit still on the board in the wave's column and still in the wave [M9-066], [M9-081], [M9-082],
    or an enemy Ship-Site in the column (ruling R-M9-54)."""
    cs = s.cards.get(t)
    if cs is None or cs.ctrl == w.attacker or lane_of(cs.loc) != w.lane or t in w.left:
        return False
    return is_unit(s, cs) or shipsites.is_ship_site(s, cs)


def declare_options(s: M9State) -> list[sm.DeclareAt]:
    p = s.active
    # a covered Site position leaves its covering Ship-Site to attack, so every lane has a target (R-M9-54)
    able = set()  # the columns with an attacker
    for cs in _able_in(s, p, -1, "cannot_attack"):
        able.add(cs.loc % 3)  # ``lane_of``
    opts = []
    for lane in range(3):
        if lane not in s.attacked and lane in able:
            opts.append(DeclareAt(lane))
    return opts


def selection_options(s: M9State) -> list[Any]:
    w = s.wave
    assert w is not None
    site = [] if shipsites.covers_site(s, 1 - w.attacker, w.lane) else [0]  # ruling R-M9-54
    targets = site
    for c in s.board:
        if target_ok(s, w, c):
            targets.append(c)
    opts: list[Any] = [CONFIRM] if w.attackers else []
    for cs in attackers_in(s, w.attacker, w.lane):
        if cs.iid not in w.attackers and (not w.extra or cs.iid == w.extra):  # an extra attack is his alone
            for t in targets:
                opts.append(AddAttacker(cs.iid, t))
    if s.edition > 1 and (w.attackers or not w.extra):  # an extra attack has no Site choice to take back
        opts.append(TAKE_BACK)
    return opts


def block_options(s: M9State) -> list[Any]:
    w = s.wave
    assert w is not None
    opts: list[Any] = [CONFIRM]
    for cs in blockers_in(s, 1 - w.attacker, w.lane):
        if cs.iid not in w.blockers:
            for a in w.attackers:
                opts.append(AssignBlocker(cs.iid, a))
    if w.blockers and s.edition > 1:
        opts.append(TAKE_BACK)
    return opts


def start_wave(s: M9State, emit: Emit, lane: int) -> None:
    emit(SelectionChanged(s.n, s.turn, s.step, s.active, 0, 0, "site", lane))
    w = s.wave
    assert w is not None
    emit(WaveStep(s.n, s.turn, s.step, s.active, w.number, 1, "declare", defended_site(w)))


def select(s: M9State, emit: Emit, choice: Any) -> None:
    """A choice while selecting attackers (step 1) or blockers (step 3)."""
    w = s.wave
    assert w is not None
    if type(choice) is AddAttacker:
        emit(SelectionChanged(s.n, s.turn, s.step, w.attacker, choice.card, choice.target, "attack"))
    elif type(choice) is AssignBlocker:
        emit(SelectionChanged(s.n, s.turn, s.step, 1 - w.attacker, choice.card, choice.attacker, "block"))
    elif type(choice) is TakeBack:
        take_back(s, emit)
    elif w.step == 1:
        confirm_attack(s, emit)
    else:
        confirm_blocks(s, emit)


def take_back(s: M9State, emit: Emit) -> None:
    """Undo the last pick of the declaration being built [M9-074], [M9-076]; with none, give up the Site."""
    w = s.wave
    assert w is not None
    if w.step == 1 and w.attackers:
        emit(SelectionUndone(s.n, s.turn, s.step, w.attacker, w.attackers[-1], w.targets[-1], "attack"))
    elif w.step == 1:
        emit(SelectionUndone(s.n, s.turn, s.step, w.attacker, 0, 0, "site"))
    else:
        emit(SelectionUndone(s.n, s.turn, s.step, 1 - w.attacker, w.blockers[-1], w.blocked[-1], "block"))


def confirm_attack(s: M9State, emit: Emit) -> None:
    """[M9-067], [M9-074] confirm together, tap the attackers; then the defender's window [M9-075]."""
    w = s.wave
    assert w is not None
    site = defended_site(w)
    emit(WaveDeclared(s.n, s.turn, s.step, w.attacker, w.number, site, list(w.attackers), list(w.targets)))
    cards = s.cards
    for a in list(w.attackers):
        counter(s, emit, cards[a], "tapped", 1, "attack")
    for a in list(w.attackers):
        fire(s, emit, cards[a], "attack")
    check_defeats(s, emit)
    emit(WaveStep(s.n, s.turn, s.step, w.attacker, w.number, 2, STEP_NAMES[2], site))
    open_window(s, emit, "before_blocks", 1 - w.attacker)


def begin_blocks(s: M9State, emit: Emit) -> None:
    w = s.wave
    assert w is not None
    emit(WaveStep(s.n, s.turn, s.step, 1 - w.attacker, w.number, 3, STEP_NAMES[3], defended_site(w)))


def confirm_blocks(s: M9State, emit: Emit) -> None:
    """[M9-068], [M9-076] blockers tap and are committed; then the attacker's window [M9-077]."""
    w = s.wave
    assert w is not None
    d = 1 - w.attacker
    emit(BlockersDeclared(s.n, s.turn, s.step, d, w.number, list(w.blockers), list(w.blocked)))
    cards = s.cards
    for b in list(w.blockers):
        counter(s, emit, cards[b], "tapped", 1, "block")
    for b in list(w.blockers):
        fire(s, emit, cards[b], "block")
    check_defeats(s, emit)
    emit(WaveStep(s.n, s.turn, s.step, w.attacker, w.number, 4, STEP_NAMES[4], defended_site(w)))
    open_window(s, emit, "before_damage", w.attacker)


Hit = tuple[int, int, int, list[int]]  # (source, target, amount, the blockers combined in a retaliation)


def _wave_hits(s: M9State, w: Wave) -> tuple[list[Hit], list[tuple[int, int]], list[Hit]]:
    """Who wounds whom in the wave, with current ATK [M9-078], the unblocked attackers' Battle Damage
    (attacker, amount) against the defender's Site position, and the unblocked attacks on Ship-Sites (attacker,
    Ship-Site, ATK, [retaliation]) [M9-072]."""
    cards = s.cards
    hits: list[Hit] = []
    battle: list[tuple[int, int]] = []
    ships: list[Hit] = []
    for a, t in zip(w.attackers, w.targets, strict=True):
        acs = cards[a]
        power = atk(s, acs)
        if a in w.was_blocked:  # [M9-069]; stays blocked even with no blocker left [M9-082]
            blockers = [b for b, x in zip(w.blockers, w.blocked, strict=True) if x == a]
            hits.extend((a, b, power, []) for b in blockers)
            if blockers:  # one retaliation: the blockers' combined ATK (R-M9-34)
                hits.append((blockers[0], a, sum(atk(s, cards[b]) for b in blockers), blockers))
        elif t == 0:  # [M9-071]
            if power:
                battle.append((a, power))
        elif target_ok(s, w, t) and shipsites.is_ship_site(s, cards[t]):  # [M9-072] no Battle Damage
            back = shipsites.retaliation(s, cards[t])
            ships.append((a, t, power, [back]))
            hits.append((a, t, power, []))
            hits.append((t, a, back, []))
        elif target_ok(s, w, t):  # [M9-070]
            hits.append((a, t, power, []))
            hits.append((t, a, atk(s, cards[t]), []))
    return hits, battle, ships


def combat_damage(s: M9State, emit: Emit) -> None:
    """Steps 5 and 6: all combat wounds at once with current stats [M9-078], [M9-081]; Battle Damage established;
    then defeats and the Battle Damage to pay [M9-079]. A position is held at the start of each (``deal_damage``,
    ``consequences``: ``M9State.boundary``)."""
    w = s.wave
    assert w is not None
    emit(WaveStep(s.n, s.turn, s.step, w.attacker, w.number, 5, STEP_NAMES[5], defended_site(w)))
    deal_damage(s, emit)


def deal_damage(s: M9State, emit: Emit) -> None:
    """The damage step after its ``WaveStep``: every combat wound at once, Battle Damage established [M9-078];
    then the consequences step."""
    w = s.wave
    assert w is not None
    site = defended_site(w)
    cards = s.cards
    hits, battle, ships = _wave_hits(s, w)
    for a, ship, amount, (back,) in ships:
        emit(ShipSiteAttacked(s.n, s.turn, s.step, w.attacker, a, ship, amount, back))
    for src, tgt, amount, combined in hits:
        if amount:
            deal(s, emit, src, cards[tgt], amount, "combat", combined)  # the wounds placed: ``Wave.wounded``
    for a, amount in battle:
        emit(BattleDamageAssigned(s.n, s.turn, s.step, w.attacker, a, 1 - w.attacker, amount))
    emit(WaveStep(s.n, s.turn, s.step, w.attacker, w.number, 6, STEP_NAMES[6], site))
    consequences(s, emit)


def consequences(s: M9State, emit: Emit) -> None:
    """The consequences step after its ``WaveStep`` [M9-079]: defeats; Killing Machine's extra attack for each of
    its Units whose attack wounded a Unit (not a Ship-Site) now defeated, if it survived [M9-083]; the Battle
    Damage triggers of the unblocked attackers that assigned it; then the Battle Damage owed is settled."""
    w = s.wave
    assert w is not None
    site = defended_site(w)
    cards = s.cards
    machines = {a for a in w.attackers if KILLING_MACHINE in defn(s, cards[a]).keywords}
    struck: dict[int, set[int]] = {}  # Killing Machine attacker -> the Units his attack wounded
    for src, tgt in w.wounded:
        if src in machines and not shipsites.is_ship_site(s, cards[tgt]):  # a Ship-Site struck is no Unit
            struck.setdefault(src, set()).add(tgt)
    battle = list(dict.fromkeys(s.bd_sources[s.bd_paid :]))  # the attackers that assigned Battle Damage, in order
    defeated: set[int] = set()

    def watch(e: Any) -> None:
        if type(e) is CardMoved and e.reason == "defeated":
            defeated.add(e.card)
        emit(e)

    check_defeats(s, watch if struck else emit)
    for a, hit in struck.items():  # [M9-083] his attack defeated a Unit and he survived the damage
        if hit & defeated and a in cards and is_unit(s, cards[a]) and a not in defeated:
            emit(ExtraAttackGranted(s.n, s.turn, s.step, w.attacker, a, w.number, site, KILLING_MACHINE))
            counter(s, emit, cards[a], "tapped", 0, KILLING_MACHINE)
    for a in battle:
        if is_unit(s, cards[a]):
            fire(s, emit, cards[a], "battle_damage")
    settle(s, emit)


class _Work(Exception):
    """Raised by a probe ``emit``: the rules had something to do."""


def consequences_idle(s: M9State) -> bool:
    """True when the consequences step has nothing to do (no defeat, trigger or loss): run with an ``emit`` that
    stops at the first event, which no rule lets change the state before it is applied."""

    def probe(e: Any) -> None:
        raise _Work

    try:
        consequences(s, probe)
    except _Work:
        return False
    return True


def after_wave(s: M9State, emit: Emit) -> None:
    w = s.wave
    assert w is not None
    emit(WaveStep(s.n, s.turn, s.step, w.attacker, w.number, 7, STEP_NAMES[7], defended_site(w)))
    open_window(s, emit, "after_wave", w.attacker)


def end_wave(s: M9State, emit: Emit) -> None:
    w = s.wave
    assert w is not None
    emit(WaveEnded(s.n, s.turn, s.step, w.attacker, w.number, defended_site(w)))


def extra_options(s: M9State) -> list[sm.UseExtraAttack]:
    """The first granted extra attack: made by its Unit if it can still attack at that Site, or let go."""
    card = s.extra[0]
    cs = s.cards.get(card)
    able = cs is not None and any(u.iid == card for u in attackers_in(s, s.active, s.extra_lane))
    return ([UseExtraAttack(card, True)] if able else []) + [UseExtraAttack(card, False)]


def take_extra(s: M9State, emit: Emit, choice: sm.UseExtraAttack) -> None:
    """Begin the single-Unit wave at the same Site [M9-073], or let the grant go."""
    p = s.active
    emit(ExtraAttackTaken(s.n, s.turn, s.step, p, choice.card, SITE_NAMES[1 - p][s.extra_lane], choice.take))
    w = s.wave
    if w is not None:
        emit(WaveStep(s.n, s.turn, s.step, p, w.number, 1, "declare", defended_site(w)))


def wave_auto(s: M9State, emit: Emit) -> None:
    """Advance the wave when no one has a decision: the window just closed, or a step needs no choice."""
    w = s.wave
    assert w is not None
    step = w.step
    if step == 2:
        begin_blocks(s, emit)
    elif step == 3:
        confirm_blocks(s, emit)  # no legal blocker: an empty block is confirmed
    elif step == 4:
        combat_damage(s, emit)
    elif step == 6:
        after_wave(s, emit)
    elif step == 7:
        end_wave(s, emit)
