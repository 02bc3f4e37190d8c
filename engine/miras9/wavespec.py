"""A Miras 9 position inside an attack wave, as a judge writes it: the ``[wave]`` and ``[battle_damage]`` tables of
a scenario (``builder.from_spec`` reads them with ``read``; ``builder.to_spec`` writes them with ``write``).

    [wave]                                  # a wave in progress [M9-073]-[M9-080]
    lane = "exterior"
    step = "reactions_before_damage"        # declare, reactions_before_blocks, blockers, reactions_before_damage,
                                            # damage (just begun: no wound dealt yet; it is dealt at once [M9-078]),
                                            # consequences, after_wave
    begun = true                            # consequences only: the step just begun, its defeats next [M9-079]
    wounded = [{ card = "b1", by = "a1" }]  # consequences begun: the combat wounds placed [M9-078] (by whom),
                                            # which Killing Machine reads [M9-083]
    attackers = ["a1", { card = "a2", target = "b2" }]   # a label attacks the Site; a table names the Unit attacked
    blockers = [{ card = "b1", blocks = "a1" }]          # picked (step blockers) or committed (after it)
    window = "open"                         # the steps reactions_*, after_wave: "open" (default), "opening" (the
                                            # step just began, its window opens next) or "closed" (both passed)
    priority = "p1"                         # in a window (the steps reactions_*, after_wave): who may act now
    passes = 1                              # consecutive passes so far (default 0)
    stack = [{ card = "s1=rx-counter", target = "a1" }]  # bottom first: a Reaction announced (it is on the stack),
                                            # or { card = "u1", ability = 0, target = "a1" }: a Unit's ability
    number = 1                              # the wave's number in the game (default 1)
    left = ["b2"]                           # Units that left the wave [M9-081] (no longer attackers or blockers)
    was_blocked = ["a1"]                    # attackers blocked when blockers were committed (default: those the
                                            # blockers block); they stay blocked with no blocker left [M9-082]
    extra = "a1"                            # the wave is this Unit's card-granted extra attack [M9-073]

    [battle_damage]                         # owed by the defender, in the consequences step [M9-079], [M9-086]
    sources = ["a1", "a1", "a1"]            # one attacker a point, in order
    paid = 1                                # points paid already (default 0)
    revealed = "deck"                       # the next point, paid from the top of that pile (deck, resource, used),
                                            # revealed a Blackwake card whose owner chooses now [M9-088], [M9-089]

    [extra_attack]                          # extra attacks granted, waiting [M9-073], [M9-083] (Killing Machine)
    units = ["a1"]                          # the Units granted one, in order
    lane = "exterior"                       # the lane of the Site they attack

What the rules would have done on the way is the judge's to write: declared attackers are tapped [M9-074] and
committed blockers too [M9-076] (``tapped = true`` in their board entries; checked up to the window before damage,
after which Killing Machine may ready one), a Reaction's cost paid. Everything
else the builder checks and refuses naming the field: each attacker on the board, the attacking player's, in the
wave's lane column [M9-066]; each target an enemy Unit in that column; each blocker the defender's, in the column,
blocking an attacker of the wave [M9-068]; blockers only from the blockers step on; a stack only in a window; a
card on the stack a Reaction [M9-042]; Battle Damage only in the consequences step, from attackers of the wave.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from annals.engine.miras9.combat import STEP_NAMES
from annals.engine.miras9.state import CardState, M9State, StackItem, Wave, lane_of, side_of
from annals.engine.spec import PLAYERS, SpecError, card_id, entry, flag, integer, seat
from annals.engine.spec import table as spec_table
from annals.schemas.miras9 import LANES
from annals.schemas.records import TOKEN_BASE

WAVE_FIELDS = frozenset({"lane", "step", "attackers", "blockers", "priority", "passes", "stack", "number", "left",
                         "was_blocked", "extra", "window", "begun", "wounded"})  # fmt: skip
WINDOW_STATES = ("open", "opening", "closed")
BD_FIELDS = frozenset({"sources", "paid", "revealed"})
EXTRA_FIELDS = frozenset({"units", "lane"})
STEPS = {name: i for i, name in enumerate(STEP_NAMES) if name}
DAMAGE, CONSEQUENCES = 5, 6  # the automatic steps: held at their start only (``M9State.boundary``)
WINDOWS = {2: "before_blocks", 4: "before_damage", 7: "after_wave"}  # the wave steps that are reaction windows
STACK_FIELDS = frozenset({"card", "target", "ability", "controller", "dest"})


def _label(value: Any, labels: dict[str, int], field: str) -> int:
    if not isinstance(value, str) or value not in labels:
        raise SpecError(field, f"{value!r} is no card label of the position; name a card by its label", value)
    return labels[value]


def _list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise SpecError(field, "must be a list", field)
    return value


def _left(
    value: Any,
    s: M9State,
    labels: dict[str, int],
    new_card: Callable[[int, str, str, str], int],
    known: dict[str, Any],
    names: dict[str, str],
    field: str,
) -> int:
    """A Unit that left the wave: a label, or ``"t1=token-drone"`` for a token that left play with it and no longer
    exists [M9-013] (a target or blocker the wave still remembers)."""
    label, written = entry(value, field)
    if not written or written == label or "=" not in str(value):
        return _label(value, labels, field)
    cid = card_id(known, names, written, field)
    if known[cid].type != "token":
        raise SpecError(field, f"{cid!r} is no token: a card that left the wave is written by its label", value)
    iid = TOKEN_BASE + s.next_token  # numbered as the board's tokens are
    s.next_token += 1
    foe = 1 - s.active  # remembered only as an attacker's target: the defender's
    s.cards[iid] = CardState(iid=iid, cid=cid, owner=foe, ctrl=foe, zone="gone", token=True)
    if label:
        if label in labels:
            raise SpecError(field, f"label {label!r} is used twice; rename one", value)
        labels[label] = iid
    return iid


def read(
    spec: dict[str, Any],
    s: M9State,
    labels: dict[str, int],
    new_card: Callable[[int, str, str, str], int],
    known: dict[str, Any],
    names: dict[str, str],
) -> None:
    """Put the spec's wave, window, stack and Battle Damage owed into ``s`` (the board already placed).
    ``new_card(owner, cid, label, field)`` numbers a card written on the stack."""
    if "wave" not in spec:
        if "battle_damage" in spec:
            raise SpecError("battle_damage", "Battle Damage is owed in a wave's consequences step [M9-079]; add a "
                            '[wave] with step = "consequences"', "battle_damage")  # fmt: skip
        return
    if s.phase != "attack":
        raise SpecError("wave", f'a wave is made in the attack phase [M9-073]; set phase = "attack", not {s.phase!r}')
    t = spec_table(spec, "wave", "", WAVE_FIELDS)
    lane_name = t.get("lane")
    if lane_name not in LANES:
        raise SpecError("wave.lane", f"{lane_name!r} is not a lane; use {', '.join(LANES)}", lane_name)
    lane = LANES.index(lane_name)
    step_name = t.get("step", "declare")
    if step_name not in STEPS:
        raise SpecError("wave.step", f"{step_name!r} is not a step of a wave; use one of {', '.join(STEPS)}", step_name)
    step = STEPS[step_name]
    attacker = s.active
    number = integer(t.get("number", 1), "wave.number", 1)
    w = Wave(number=number, lane=lane, attacker=attacker, step=step)
    cards = s.cards
    for i, value in enumerate(_list(t.get("left", []), "wave.left")):  # they never rejoin it [M9-081]
        w.left.append(_left(value, s, labels, new_card, known, names, f"wave.left[{i}]"))
    if "extra" in t:  # a card-granted extra attack: its Unit alone attacks in it [M9-073]
        w.extra = _label(t["extra"], labels, "wave.extra")
        ecs = cards[w.extra]
        if w.extra not in s.board or ecs.ctrl != attacker or lane_of(ecs.loc) != lane:
            raise SpecError("wave.extra", f"{t['extra']!r} is not a Unit of the attacking player on the board in the "
                            f"{lane_name} column [M9-073]", t["extra"])  # fmt: skip
    for i, value in enumerate(_list(t.get("attackers", []), "wave.attackers")):
        field = f"wave.attackers[{i}]"
        item = value if isinstance(value, dict) else {"card": value}
        unknown = sorted(set(item) - {"card", "target"})
        if unknown:
            raise SpecError(f"{field}.{unknown[0]}", "unknown field; an attacker has card and target", unknown[0])
        a = _label(item.get("card"), labels, f"{field}.card")
        cs = cards[a]
        if a not in s.board or cs.ctrl != attacker or lane_of(cs.loc) != lane:
            raise SpecError(f"{field}.card", f"{item['card']!r} is not a Unit of the attacking player "
                            f"({PLAYERS[attacker]}) on the board in the {lane_name} column [M9-066]",
                            item["card"])  # fmt: skip
        target = 0
        if "target" in item:
            target = _label(item["target"], labels, f"{field}.target")
            tcs = cards[target]
            if target not in w.left and (target not in s.board or tcs.ctrl == attacker or lane_of(tcs.loc) != lane):
                raise SpecError(f"{field}.target", f"{item['target']!r} is not an enemy Unit in the {lane_name} "
                                "column; leave target out to attack the Site [M9-066]", item["target"])  # fmt: skip
        if a in w.left:
            raise SpecError(f"{field}.card", f"{item['card']!r} left the wave: it is no attacker any more [M9-081]",
                            item["card"])  # fmt: skip
        if w.extra and a != w.extra:
            raise SpecError(f"{field}.card", f"the extra attack is {t['extra']!r}'s alone [M9-073]", item["card"])
        if 2 <= step <= DAMAGE and not cs.tapped:  # (Killing Machine readies one in the consequences step)
            raise SpecError(f"{field}.card", f"{item['card']!r} is declared (step {step_name}) but ready: declaring "
                            "taps the attackers [M9-074]; add tapped = true to its board entry",
                            item["card"])  # fmt: skip
        w.attackers.append(a)
        w.targets.append(target)
    if step >= 2 and not w.attackers and not w.left:
        raise SpecError("wave.attackers", f"a wave declared (step {step_name}) has attackers; list them", "attackers")
    blockers = _list(t.get("blockers", []), "wave.blockers")
    if blockers and step < 3:
        raise SpecError("wave.blockers", f"blockers are picked from the blockers step on [M9-076], not at "
                        f"{step_name}", "blockers")  # fmt: skip
    for i, value in enumerate(blockers):
        field = f"wave.blockers[{i}]"
        if not isinstance(value, dict) or set(value) - {"card", "blocks"}:
            raise SpecError(field, 'a blocker is { card = "b1", blocks = "a1" }', i)
        b = _label(value.get("card"), labels, f"{field}.card")
        bcs = cards[b]
        if b not in s.board or bcs.ctrl != 1 - attacker or lane_of(bcs.loc) != lane:
            raise SpecError(f"{field}.card", f"{value['card']!r} is not a Unit of the defender on the board in the "
                            f"{lane_name} column [M9-068]", value["card"])  # fmt: skip
        if b in w.left:
            raise SpecError(f"{field}.card", f"{value['card']!r} left the wave: it blocks no more [M9-081]",
                            value["card"])  # fmt: skip
        blocked = _label(value.get("blocks"), labels, f"{field}.blocks")
        if blocked not in w.attackers and blocked not in w.left:
            raise SpecError(
                f"{field}.blocks", f"{value.get('blocks')!r} is not an attacker of the wave", value["blocks"]
            )
        if 4 <= step <= DAMAGE and not bcs.tapped:
            raise SpecError(f"{field}.card", f"{value['card']!r} is a committed blocker (step {step_name}) but ready: "
                            "blockers tap when committed [M9-076]; add tapped = true", value["card"])  # fmt: skip
        w.blockers.append(b)
        w.blocked.append(blocked)
    if step >= 4:
        w.was_blocked = sorted(set(w.blocked))
        if "was_blocked" in t:
            w.was_blocked = sorted({_label(v, labels, f"wave.was_blocked[{i}]")
                                    for i, v in enumerate(_list(t["was_blocked"], "wave.was_blocked"))})  # fmt: skip
            stray = [a for a in w.was_blocked if a not in w.attackers and a not in w.left]
            if stray or not set(w.blocked) <= set(w.was_blocked):
                raise SpecError("wave.was_blocked", "list the attackers of the wave blocked when blockers were "
                                "committed (every attacker a blocker blocks among them) [M9-082]",
                                "was_blocked")  # fmt: skip
    elif "was_blocked" in t:
        raise SpecError("wave.was_blocked", f"blockers are committed after the blockers step [M9-076], not at "
                        f"{step_name}", "was_blocked")  # fmt: skip
    s.wave = w
    s.step = f"attack.{step_name}"
    s.waves = number if step >= 2 else number - 1
    if step >= 2 and lane not in s.attacked:
        s.attacked.append(lane)
    _window(t, s, step, step_name, labels, new_card, known, names)
    _begun(t, s, step, step_name, labels)
    _battle_damage(spec, s, step, labels)


def _begun(t: dict[str, Any], s: M9State, step: int, step_name: str, labels: dict[str, int]) -> None:
    """The automatic steps' starts: ``damage`` is held only just begun, before any wound [M9-078]; ``consequences``
    with ``begun = true`` just begun, its defeats next, with the combat wounds placed (``wounded``) [M9-079]."""
    begun = flag(t.get("begun", step == DAMAGE), "wave.begun")
    if "begun" in t and step not in (DAMAGE, CONSEQUENCES):
        why = 'window = "opening"' if step in WINDOWS else "its decision"
        raise SpecError("wave.begun", f"begun is for the damage and consequences steps; {step_name} starts at {why}",
                        "begun")  # fmt: skip
    if step == DAMAGE and not begun:
        raise SpecError("wave.begun", "combat damage is dealt at once, no one stops in it [M9-078]: start at its "
                        "beginning (leave begun out) or at consequences", "begun")  # fmt: skip
    if "wounded" in t and not (step == CONSEQUENCES and begun):
        raise SpecError(
            "wave.wounded",
            "the wounds placed are read at the start of the consequences step "
            '[M9-083]: set step = "consequences" and begun = true, or leave wounded out',
            "wounded",
        )
    w = s.wave
    assert w is not None
    for i, value in enumerate(_list(t.get("wounded", []), "wave.wounded")):
        field = f"wave.wounded[{i}]"
        if not isinstance(value, dict) or set(value) != {"card", "by"}:
            raise SpecError(field, 'a wound placed is { card = "b1", by = "a1" }', i)
        w.wounded.append((_label(value["by"], labels, f"{field}.by"), _label(value["card"], labels, f"{field}.card")))
    if begun:
        s.boundary = s.n


def _window(
    t: dict[str, Any],
    s: M9State,
    step: int,
    step_name: str,
    labels: dict[str, int],
    new_card: Callable[[int, str, str, str], int],
    known: dict[str, Any],
    names: dict[str, str],
) -> None:
    window = WINDOWS.get(step)
    stack = _list(t.get("stack", []), "wave.stack")
    state = t.get("window", "open")
    if state not in WINDOW_STATES:
        raise SpecError("wave.window", f"{state!r}: a window is {', '.join(WINDOW_STATES)}", state)
    if window is None or state != "open":
        for key in ("priority", "passes", "stack", *(("window",) if window is None else ())):
            if key in t:
                why = "is no reaction window" if window is None else f"has its window {state}"
                raise SpecError(f"wave.{key}", f"{step_name} {why}: no priority, passes or stack there [M9-114]", key)
        if state == "opening":  # the step just began: its window opens next (``M9State.boundary``)
            s.boundary = s.n
        return
    for i, value in enumerate(stack):
        field = f"wave.stack[{i}]"
        if not isinstance(value, dict) or set(value) - STACK_FIELDS:
            raise SpecError(field, 'a stack entry is { card = "s1=rx-counter", target = "a1" } or { card = "u1", '
                            "ability = 0, target = ... }", i)  # fmt: skip
        target = _label(value["target"], labels, f"{field}.target") if "target" in value else 0
        dest = -1
        if "dest" in value:
            m = str(value["dest"]).split(":")
            if len(m) != 2 or m[0] not in PLAYERS or m[1] not in LANES:
                raise SpecError(f"{field}.dest", "a destination is a board position, e.g. p1:interior", value["dest"])
            dest = PLAYERS.index(m[0]) * 3 + LANES.index(m[1])
        if "ability" in value:
            card = _label(value.get("card"), labels, f"{field}.card")
            cs = s.cards[card]
            ability = integer(value["ability"], f"{field}.ability")
            abilities = s.pool[cs.cid].abilities
            if card not in s.board or ability >= len(abilities):
                raise SpecError(f"{field}.ability", f"{value['card']!r} on the board has no ability {ability}", ability)
            controller = cs.ctrl
        else:
            if "controller" not in value:
                raise SpecError(f"{field}.controller", 'say whose Reaction it is: controller = "p0" or "p1"', "card")
            controller = seat(value["controller"], f"{field}.controller")
            label, written = entry(value.get("card"), f"{field}.card")
            cid = card_id(known, names, written, f"{field}.card")
            d = known[cid]
            if d.type != "event" or "reaction" not in d.keywords:
                raise SpecError(f"{field}.card", f"{cid!r} is no Reaction: only Reactions and abilities wait on the "
                                "stack [M9-042], [M9-114]", written)  # fmt: skip
            card = new_card(controller, cid, label, f"{field}.card")
            s.cards[card] = CardState(iid=card, cid=cid, owner=controller, ctrl=controller, zone="stack")
            s.stack_cards.append(card)
            ability = -1
        s.stack.append(StackItem(card, ability, target, controller, dest))
    first = 1 - s.wave.attacker if window == "before_blocks" else s.wave.attacker  # type: ignore[union-attr]
    default = 1 - s.stack[-1].controller if s.stack else first  # after an announcement the opponent acts
    s.window = window
    s.priority = seat(t.get("priority", PLAYERS[default]), "wave.priority")
    s.passes = integer(t.get("passes", 0), "wave.passes")
    if s.passes > 1:
        raise SpecError("wave.passes", "two passes in a row resolve the top item or close the window [M9-115]: "
                        "write 0 or 1", s.passes)  # fmt: skip


def _battle_damage(spec: dict[str, Any], s: M9State, step: int, labels: dict[str, int]) -> None:
    if "battle_damage" not in spec:
        return
    w = s.wave
    assert w is not None
    if step != 6:
        raise SpecError("battle_damage", "Battle Damage is owed in the consequences step [M9-079]; set the wave's "
                        'step = "consequences"', "battle_damage")  # fmt: skip
    t = spec_table(spec, "battle_damage", "", BD_FIELDS)
    sources = _list(t.get("sources", []), "battle_damage.sources")
    if not sources:
        raise SpecError("battle_damage.sources", 'name the attacker of each point, e.g. sources = ["a1", "a1"]')
    for i, value in enumerate(sources):
        a = _label(value, labels, f"battle_damage.sources[{i}]")
        if a not in w.attackers and a not in w.left:  # a point stays owed when its attacker has left [M9-081]
            raise SpecError(f"battle_damage.sources[{i}]", f"{value!r} is not an attacker of the wave", value)
        s.bd_sources.append(a)
    s.bd_paid = integer(t.get("paid", 0), "battle_damage.paid")
    if s.bd_paid >= len(s.bd_sources):
        raise SpecError("battle_damage.paid", f"{s.bd_paid} of {len(s.bd_sources)} points paid: nothing is owed; "
                        "paid counts the points paid already", s.bd_paid)  # fmt: skip
    s.bd_player = 1 - w.attacker
    if "revealed" in t:  # the point being paid revealed a Blackwake card: its owner's choice waits [M9-089]
        from annals.engine.miras9.blackwake import CHECKED, instruction

        pile = t["revealed"]
        if pile not in CHECKED:
            raise SpecError("battle_damage.revealed", f"{pile!r}: a point reveals the top card of deck, resource or "
                            "used [M9-088]", pile)  # fmt: skip
        cards = getattr(s.players[s.bd_player], pile)
        if not cards or not instruction(s.pool[s.cards[cards[-1]].cid]):
            why = f"the top card of the defender's {pile} has no Blackwake instruction, so no choice waits [M9-089]"
            raise SpecError("battle_damage.revealed", f"{why}: put one there or leave revealed out", pile)
        s.bw_card = cards[-1]


def read_extra(spec: dict[str, Any], s: M9State, labels: dict[str, int]) -> None:
    """The ``[extra_attack]`` table: extra attacks granted and waiting, their Units and the lane of their Site."""
    if "extra_attack" not in spec:
        return
    if s.phase != "attack":
        raise SpecError("extra_attack", 'extra attacks are granted in a wave [M9-073]: set phase = "attack"')
    t = spec_table(spec, "extra_attack", "", EXTRA_FIELDS)
    lane_name = t.get("lane")
    if lane_name not in LANES:
        raise SpecError("extra_attack.lane", f"{lane_name!r} is not a lane; use {', '.join(LANES)}", lane_name)
    units = _list(t.get("units", []), "extra_attack.units")
    if not units:
        raise SpecError("extra_attack.units", 'name the Units granted an extra attack, e.g. units = ["a1"]', "units")
    for i, value in enumerate(units):
        card = _label(value, labels, f"extra_attack.units[{i}]")
        if card not in s.board or s.cards[card].ctrl != s.active:
            raise SpecError(f"extra_attack.units[{i}]", f"{value!r} is not a Unit of the active player on the board",
                            value)  # fmt: skip
        s.extra.append(card)
    s.extra_lane = LANES.index(lane_name)


def write(s: M9State, labels: dict[int, str], spec: dict[str, Any]) -> None:
    """The wave, window, stack, Battle Damage (and a Blackwake choice) and extra attacks waiting of ``s`` into
    ``spec`` (labels as ``to_spec`` wrote them); ``SpecError`` for what a spec cannot hold (combat damage being
    dealt, which no one stops in)."""
    if s.extra:
        spec["extra_attack"] = {"units": [labels[c] for c in s.extra], "lane": LANES[s.extra_lane]}
    w = s.wave
    if w is None:
        if s.window or s.stack or s.bd_player >= 0:
            raise SpecError("position", f"the game is at {s.step!r}: a window outside a wave", s.step)
        return
    begun = s.boundary == s.n
    if w.step == DAMAGE and not begun:
        raise SpecError("position", f"the game is at {s.step!r}: combat damage is dealt at once [M9-078]; choose "
                        "the coordinate before or after it", s.step)  # fmt: skip
    wave: dict[str, Any] = {"lane": LANES[w.lane], "step": STEP_NAMES[w.step], "number": w.number}
    if w.left:  # a token gone from play with its card id, to be made again as it was [M9-013]
        wave["left"] = [labels[c] if s.cards[c].zone != "gone" else f"{labels[c]}={s.cards[c].cid}" for c in w.left]
    if w.extra:
        wave["extra"] = labels[w.extra]
    if w.step >= 4 and w.was_blocked != sorted(set(w.blocked)):
        wave["was_blocked"] = [labels[a] for a in w.was_blocked]
    wave["attackers"] = [labels[a] if not t else {"card": labels[a], "target": labels[t]}
                         for a, t in zip(w.attackers, w.targets, strict=True)]  # fmt: skip
    if w.step == CONSEQUENCES and begun:  # its defeats next, with the wounds the damage step placed [M9-079]
        wave["begun"] = True
        if w.wounded:
            wave["wounded"] = [{"card": labels[c], "by": labels[b]} for b, c in w.wounded]
    if w.blockers:
        wave["blockers"] = [
            {"card": labels[b], "blocks": labels[a]} for b, a in zip(w.blockers, w.blocked, strict=True)
        ]
    if w.step in WINDOWS and not s.window:  # the window not open yet, or closed already (both passed)
        wave["window"] = "opening" if s.boundary == s.n else "closed"
    if s.window:
        wave["priority"] = PLAYERS[s.priority]
        wave["passes"] = s.passes
        stack = []
        for item in s.stack:
            entry_: dict[str, Any] = {}
            if item.ability >= 0:
                entry_ = {"card": labels[item.card], "ability": item.ability}
            else:
                entry_ = {
                    "card": f"{labels[item.card]}={s.cards[item.card].cid}",
                    "controller": PLAYERS[item.controller],
                }
            if item.target:
                entry_["target"] = labels[item.target]
            if item.dest >= 0:
                entry_["dest"] = f"{PLAYERS[side_of(item.dest)]}:{LANES[lane_of(item.dest)]}"
            stack.append(entry_)
        if stack:
            wave["stack"] = stack
    spec["wave"] = wave
    if s.bd_player >= 0:
        spec["battle_damage"] = {"sources": [labels[a] for a in s.bd_sources], "paid": s.bd_paid}
        if s.bw_card:
            spec["battle_damage"]["revealed"] = s.cards[s.bw_card].zone
