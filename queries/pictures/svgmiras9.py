"""The Miras 9 board as SVG lines: three lane columns with both players' Site positions, Units as cards with their
effective ATK/GRIT/ECHO, wounds, tapped and Attuned status and attached Equipment; each player's Planet/Spirit,
Echo and pile sizes, the hand (faces for its owner, backs for everyone else); and panels for the turn, the attack
wave in progress, the reaction stack and Battle Damage owed.

The viewer's side is drawn at the bottom (player 0 for the omniscient and spectator views). Hidden piles of any
player but the viewer are drawn as backs or counts whatever the state holds, so even an omniscient state drawn for a
player shows no card of the opponent's hand; pass the viewer's own fold (``queries.positions.viewstate``) all the same.
"""

from __future__ import annotations

from functools import lru_cache

from annals.engine.miras9.board import atk, defn, echo_of, grit, ship_at
from annals.engine.miras9.state import CardState, M9State
from annals.engine.words import ordinal, turn_said
from annals.queries.pictures.svgkit import (
    CHAR_W,
    CLOSE_SVG,
    SIDE_INK,
    STYLE,
    WIN_CHAR_W,
    back_line,
    card_attrs,
    chip_line,
    clip,
    end_line,
    ending,
    group,
    open_svg,
    panel,
    rect,
    said,
    seats,
    stat_cells,
    text,
    win_line,
    wrapped,
)
from annals.schemas.miras9 import LANES

WIDTH, HEIGHT = 1200, 700
COL_X, COL_W = 10, 256  # lane columns: x = COL_X + lane * (COL_W + 6)
TILE_W = 122
TOP_HAND_Y, TOP_STRIP_Y = 36, 96
SITE_TOP_Y, UNITS_TOP_Y, MID_Y, UNITS_BOTTOM_Y, SITE_BOTTOM_Y = 128, 172, 352, 372, 552
UNITS_H = 176
BOTTOM_STRIP_Y, BOTTOM_HAND_Y = 598, 630
PANEL_X, PANEL_W = 806, 384
TURN_CHARS = int((PANEL_W - 18) / CHAR_W)  # a line of panel text
WIN_CHARS = int((PANEL_W - 8) / WIN_CHAR_W)  # the end's big line
PILE_LABELS = (("deck", "Deck"), ("hand", "Hand"), ("resource", "Resource"), ("used", "Used"))
OPEN_PILES = (("discard", "Discard"), ("exile", "Exile"))
CHIP_W = {"resource": 66, "discard": 62}


def render_lines(s: M9State, viewer: int | None, title: str, players: tuple[str, ...]) -> list[str]:
    bottom = viewer if viewer in (0, 1) else 0
    top = 1 - bottom
    view = {None: "omniscient", -1: "spectator"}.get(viewer, f"player{viewer}")
    lines = [open_svg(WIDTH, HEIGHT, "miras9", view), STYLE, rect(0, 0, WIDTH, HEIGHT, "frame", 0)]
    lines.append(text(12, 22, title or f"Miras 9 · {turn_said(s.turn)} · {said(s.step)}", "title"))
    roles = _roles(s)
    who = seats(players)
    for lane in range(3):
        lines.extend(_lane(s, lane, top, bottom, roles, who))
    for side, hand_y, strip_y in ((top, TOP_HAND_Y, TOP_STRIP_Y), (bottom, BOTTOM_HAND_Y, BOTTOM_STRIP_Y)):
        lines.extend(_player(s, side, viewer, hand_y, strip_y, players))
    lines.extend(_panels(s, who))
    lines.append(CLOSE_SVG)
    return lines


# ---------------------------------------------------------------- the lanes


def _roles(s: M9State) -> dict[int, str]:
    """Each card's part in the wave in progress: attacking, blocking, or attacked."""
    w = s.wave
    if w is None:
        return {}
    roles = {c: "target" for c in w.targets if c}
    roles.update({c: "block" for c in w.blockers})
    roles.update({c: "attack" for c in w.attackers})
    return roles


def _lane(s: M9State, lane: int, top: int, bottom: int, roles: dict[int, str], who: tuple[str, str]) -> list[str]:
    x = COL_X + lane * (COL_W + 6)
    w = s.wave
    waving = w is not None and w.lane == lane
    out = [
        f'<rect x="{x}" y="{SITE_TOP_Y - 4}" width="{COL_W}" height="{SITE_BOTTOM_Y + 48 - SITE_TOP_Y}" rx="6" '
        f'class="lane{" waving" if waving else ""}" data-lane="{LANES[lane]}"/>',
        text(x + COL_W / 2, MID_Y + 14, LANES[lane].upper() + ("  ⚔ wave" if waving else ""), "h mid"),
    ]
    for side, site_y, units_y in ((top, SITE_TOP_Y, UNITS_TOP_Y), (bottom, SITE_BOTTOM_Y, UNITS_BOTTOM_Y)):
        out.append(_site(s, side, lane, x + 4, site_y, who[side]))
        here = [c for c in s.board if s.cards[c].loc == side * 3 + lane and not s.cards[c].host]
        out.extend(_units(s, here, x + 4, units_y, roles))
    return out


def _site(s: M9State, side: int, lane: int, x: float, y: float, owner: str) -> str:
    card = s.players[side].sites[lane] if side < len(s.players) else 0
    ship = ship_at(s, side * 3 + lane) if s.pool.ship_cids else 0
    # a Ship-Site there takes the Site's abilities: its own covers the Site, an enemy one contests it [M9-065]
    over = "" if not ship else ("covered" if s.cards[ship].ctrl == side else "contested")
    if not card:
        return _site_line(side, lane, x, y, 0, "", 0, over, owner)
    d = defn(s, s.cards[card])
    return _site_line(side, lane, x, y, card, d.name, d.gen, over, owner)


@lru_cache(maxsize=1024)
def _site_line(side: int, lane: int, x: float, y: float, card: int, name: str, gen: int, over: str, owner: str) -> str:
    zone = f"site:{side}:{LANES[lane]}"
    cls = "site" + (f" {over}" if over else "")
    note = f" · {over.upper()}" if over else ""
    if not card:
        body = rect(0, 0, COL_W - 8, 38, cls) + text(8, 16, f"basic {LANES[lane]} position", "small")
        body += text(8, 31, clip(owner, 30) + note, "h", SIDE_INK[side])
        return group(x, y, f' data-zone="{zone}" data-side="{side}" data-basic="1"', body)
    body = rect(0, 0, COL_W - 8, 38, cls) + text(8, 16, clip(name, 34), "h")
    body += text(
        8,
        31,
        clip(owner, 24) + "'s Site" + (f" · generates {gen}" if gen and over != "covered" else "") + note,
        "small",
    )
    return group(x, y, card_attrs(card, zone, name), body)


def _units(s: M9State, cards: list[int], x: float, y: float, roles: dict[int, str]) -> list[str]:
    if not cards:
        return []
    rows = (len(cards) + 1) // 2
    row_h = min(88, UNITS_H // rows)
    out = []
    for i, c in enumerate(cards):
        cs = s.cards[c]
        ux, uy = x + (i % 2) * (TILE_W + 4), y + (i // 2) * row_h
        attached = tuple((e, s.cards[e].zone, defn(s, s.cards[e]).name) for e in s.board if s.cards[e].host == c)
        if row_h >= 84:
            body = _unit_tile(*_unit_facts(s, cs), roles.get(c, ""), attached)
        else:
            body = _unit_compact(*_unit_facts(s, cs), roles.get(c, ""), attached, row_h - 4)
        out.append(group(ux, uy, card_attrs(c, cs.zone, defn(s, cs).name), body))
    return out


def _unit_facts(s: M9State, cs: CardState) -> tuple[str, str, int, int, int, int, int, int, int, int]:
    d = defn(s, cs)
    kind = " · ".join(d.traits) if d.traits else d.type
    if d.type == "equipment":
        kind = "equipment (dropped)"
    elif d.type == "ship_site":  # a location in play, not a Unit [M9-030]: whose Site it stands on says what it does
        kind = "Ship-Site covers" if cs.ctrl == cs.loc // 3 else "Ship-Site contests"
        kind += f" · crew {cs.crew}" if cs.crew else ""
    if cs.zone.startswith("route:"):  # at its destination's column, not there yet [M9-054]
        kind += " · EN ROUTE" + (" · spotted" if cs.spotted else "")
    if cs.aboard:
        kind += " · aboard " + defn(s, s.cards[cs.aboard]).name
    return (d.name, kind, cs.ctrl, atk(s, cs), grit(s, cs), echo_of(s, cs), cs.wounds, cs.tapped, cs.attuned, cs.shield)


_ROLE_LABEL = {"attack": "ATTACKING", "block": "BLOCKING", "target": "ATTACKED"}


@lru_cache(maxsize=8192)
def _unit_tile(
    name: str,
    kind: str,
    ctrl: int,
    a: int,
    g: int,
    e: int,
    wounds: int,
    tapped: int,
    attuned: int,
    shield: int,
    role: str,
    attached: tuple[tuple[int, str, str], ...],
) -> str:
    h = 84
    body = rect(0, 0, TILE_W, h, f"p{ctrl}" + (" tap" if tapped else ""))
    if role:
        body += rect(1, 1, TILE_W - 2, h - 2, role) + text(TILE_W - 4, 24, _ROLE_LABEL[role], "small end")
    body += text(5, 13, clip(name, 19), "h") + text(5, 24, clip(kind, 20), "small")
    body += stat_cells((("ATK", a), ("GRIT", g), ("ECHO", e)), 44, TILE_W)
    tags = ["TAPPED" if tapped else "ready", "Attuned" if attuned else "not Attuned"]
    if shield:
        tags.append(f"shield {shield}")
    body += text(5, 66, clip(" · ".join(tags), 27), "small")
    if wounds:
        body += f'<circle cx="{TILE_W - 11}" cy="11" r="9" class="wound"/>'
        body += f'<text x="{TILE_W - 11}" y="15" class="mid" style="fill:#fff;font-weight:bold">{wounds}</text>'
    for card, zone, ename in attached[:1]:
        more = f" +{len(attached) - 1}" if len(attached) > 1 else ""
        eq = rect(2, 0, TILE_W - 4, 13, "badge", 2) + text(6, 10, clip(f"⚙ {ename}{more}", 24), "small")
        body += f'<g transform="translate(0,{h - 15})"{card_attrs(card, zone, ename)}>{eq}</g>'
    for card, zone, ename in attached[1:]:  # further attachments: counted by the badge's "+N", kept for tools
        body += f"<g{card_attrs(card, zone, ename)}/>"
    return body


@lru_cache(maxsize=8192)
def _unit_compact(
    name: str,
    kind: str,
    ctrl: int,
    a: int,
    g: int,
    e: int,
    wounds: int,
    tapped: int,
    attuned: int,
    shield: int,
    role: str,
    attached: tuple[tuple[int, str, str], ...],
    h: int,
) -> str:
    body = rect(0, 0, TILE_W, h, f"p{ctrl}" + (" tap" if tapped else "") + (f" {role}" if role else ""))
    marks = ("T" if tapped else "") + ("A" if attuned else "") + (f" {wounds}w" if wounds else "")
    body += text(4, 12, clip(name, 14), "small") + text(TILE_W - 4, 12, f"{a}/{g}/{e} {marks}", "small end")
    for card, zone, ename in attached:
        body += f"<g{card_attrs(card, zone, ename)}/>"
    return body


# ---------------------------------------------------------------- a player's strip and hand


def _player(
    s: M9State, side: int, viewer: int | None, hand_y: float, strip_y: float, players: tuple[str, ...]
) -> list[str]:
    if side >= len(s.players):
        return []
    pl = s.players[side]
    who = seats(players)[side]
    active = s.active == side and s.turn > 0
    leader = s.cards.get(pl.leader)
    lead: tuple[int, str, int, int] | None = None
    if leader is not None and (leader.zone == "planet" or leader.face):
        lead = (pl.leader, defn(s, leader).name, defn(s, leader).threshold, leader.face)
    piles = tuple(len(getattr(pl, zone)) for zone, _ in PILE_LABELS + OPEN_PILES)
    out = list(_strip(side, who, active, pl.echo, lead, piles, strip_y))
    see = viewer is None or viewer == side
    hx = 12
    step = min(104, (PANEL_X - 30) // max(len(pl.hand), 1))
    for c in pl.hand:
        cs = s.cards.get(c)
        if see and cs is not None:
            out.append(_hand_line(hx, hand_y, c, *_hand_facts(s, cs)))
        else:
            out.append(back_line(hx, hand_y, 100, 54, "hand", side))
        hx += step
    return out


@lru_cache(maxsize=2048)
def _strip(
    side: int, who: str, active: bool, echo: int, lead: tuple[int, str, int, int] | None, piles: tuple[int, ...], y: int
) -> tuple[str, ...]:
    """A player's line of numbers: name, Echo, the Planet (or the awakened Spirit), each pile's size."""
    out = [text(12, y + 16, clip(who, 22) + (" · active" if active else ""), "h", SIDE_INK[side])]
    out.append(group(190, y, f' data-counter="echo" data-side="{side}" data-value="{echo}"',
                     rect(0, 0, 70, 24, "badge", 4) + text(35, 17, f"Echo {echo}", "h mid")))  # fmt: skip
    if lead is not None and not lead[3]:
        card, name, threshold, _ = lead
        label = clip(f"Planet {name} · awakens at {threshold}", 31)
        body = rect(0, 0, 172, 24, "site", 4) + text(6, 16, label, "small")
        out.append(group(266, y, card_attrs(card, "planet", name), body))
    elif lead is not None:
        out.append(text(272, y + 16, clip(f"Spirit {lead[1]} awakened", 30), "small"))
    x = 444
    for (zone, label), count in zip(PILE_LABELS + OPEN_PILES, piles, strict=True):
        w = CHIP_W.get(zone, 50)
        out.append(chip_line(x, y, zone, side, label, count, w))
        x += w + 3
    return tuple(out)


@lru_cache(maxsize=4096)
def _hand_line(x: int, y: int, card: int, name: str, kind: str, cost: int, stats: tuple[int, ...]) -> str:
    return group(x, y, card_attrs(card, "hand", name), _hand_tile(name, kind, cost, stats))


def _hand_facts(s: M9State, cs: CardState) -> tuple[str, str, int, tuple[int, ...]]:
    d = defn(s, cs)
    stats = (d.atk, d.grit, d.echo) if d.type in ("unit", "token") else ()
    return d.name, d.type, d.cost, stats


@lru_cache(maxsize=2048)
def _hand_tile(name: str, kind: str, cost: int, stats: tuple[int, ...]) -> str:
    body = rect(0, 0, 100, 54, "chip") + text(5, 14, clip(name, 13), "h")
    body += text(5, 26, f"{kind} · cost {cost}", "small")
    if stats:  # labelled cells as on the board's cards: one "ATK/GRIT/ECHO 5/4/0" line ran past the tile
        body += stat_cells(tuple(zip(("ATK", "GRIT", "ECHO"), stats, strict=True)), 40, 100)
    return body


# ---------------------------------------------------------------- panels: turn, wave, stack, Battle Damage


def _name(s: M9State, card: int) -> str:
    cs = s.cards.get(card)
    return defn(s, cs).name if cs is not None else "?"


def _phase_line(step: str) -> str:
    """The phase and step as the position says them, both from its step (``attack.declare``: Phase attack · step
    declare). Not from ``M9State.phase``, which stays the last turn's from TurnBegan until the Awaken phase
    begins (``turn.resume`` reads it): at the event that begins a turn the board said the last turn's phase
    while the step, the title and the viewer's position line said ``awaken``."""
    phase, _, sub = step.partition(".")
    return f"Phase {said(phase)} · step {said(sub)}" if sub else f"Phase {said(phase)}"


def _panels(s: M9State, who: tuple[str, str]) -> list[str]:
    def p(side: int) -> str:
        return who[side] if side in (0, 1) else "nobody"

    turn = [
        f"Turn {s.turn} · {p(s.active)}'s turn" if s.turn else "Setup",
        _phase_line(s.step),
    ]
    if s.window:
        passes = f"{s.passes} pass{'es' if s.passes != 1 else ''}"
        turn.append(clip(f"Reactions {said(s.window)} · {p(s.priority)} may respond ({passes})", 56))
    verdict = f"{p(s.winner)} wins" if s.winner >= 0 else "no winner"
    if s.over:  # the end in full, wrapped in the panel's width (a long name ran it past the edge)
        turn = [turn[0], *wrapped(end_line("miras9", s.winner, s.end_reason, who), TURN_CHARS, 3)]
    out = [panel(PANEL_X, 36, PANEL_W, 84, "Turn", turn, ' data-panel="turn"')]
    w = s.wave
    if w is None:
        wave = ["no wave in progress", f"waves this game: {s.waves}"]
    else:
        lane = LANES[w.lane].capitalize()
        wave = [clip(f"Wave {w.number} · {lane} · {p(w.attacker)} attacks · step {w.step} of 7", 56)]
        for c, t in zip(w.attackers, w.targets, strict=False):
            aim = f"{_name(s, t)}" if t else f"{p(1 - w.attacker)}'s {lane} Site"
            wave.append(clip(f"⚔ {_name(s, c)} → {aim}", 56))
        for c, t in zip(w.blockers, w.blocked, strict=False):
            wave.append(clip(f"⛨ {_name(s, c)} blocks {_name(s, t)}", 56))
    out.append(panel(PANEL_X, 126, PANEL_W, 170, "Attack wave", wave[:10], ' data-panel="wave"'))
    out.append(_stack(s, who))
    owed = len(s.bd_sources)
    if s.bd_player >= 0:
        points = f"{owed} point{'s' if owed != 1 else ''}: {s.bd_paid} paid, {owed - s.bd_paid} to go"
        bd = [f"{clip(p(s.bd_player), TURN_CHARS - len(points) - 6)} pays {points}"]
        bd += [clip(f"from {name} × {s.bd_sources.count(c)}", 56) for c, name in _sources(s)]
    else:
        bd = ["none owed"]
    out.append(panel(PANEL_X, 540, PANEL_W, 84, "Battle Damage", bd[:4], f' data-panel="damage" data-owed="{owed}"'))
    if s.over:
        sentence = ending("miras9", s.winner, s.end_reason, who)
        line, cls = win_line(sentence, verdict, p(s.winner) if s.winner >= 0 else "", WIN_CHARS)
        out.append(text(PANEL_X + PANEL_W / 2, 660, line, cls))
    return out


def _sources(s: M9State) -> list[tuple[int, str]]:
    return [(c, _name(s, c)) for c in dict.fromkeys(s.bd_sources)]


STACK_H = 236  # the reaction stack panel's height
STACK_LINES = 13  # lines of 16 px below its heading that fit in it: a full stack says how many more it holds


def _stack(s: M9State, who: tuple[str, str]) -> str:
    body = rect(0, 0, PANEL_W, STACK_H, "panel") + text(8, 16, f"Reaction stack ({len(s.stack)})", "h")
    y = 32
    items = {item.card for item in s.stack if item.ability < 0}
    resolving = [c for c in s.stack_cards if c not in items][: STACK_LINES - 2]  # Events resolving, each a line
    room = STACK_LINES - len(resolving)  # what is left for the stack, a line saying how many more included
    shown = list(reversed(s.stack))[: room if len(s.stack) <= room else room - 1]
    on_stack = set(s.stack_cards)
    for i, item in enumerate(shown):
        # an ability in words, as the log says it ("Echo Spirit's first ability"), never its index
        what = _name(s, item.card) + (f"'s {ordinal(item.ability)} ability" if item.ability >= 0 else "")
        aim = f" → {_name(s, item.target)}" if item.target else ""
        line = text(10, 11, clip(f"{'top ' if i == 0 else f'{i + 1}.  '}{who[item.controller]}: {what}{aim}", 58))
        zone = "stack" if item.ability < 0 and item.card in on_stack else ""
        attrs = card_attrs(item.card, zone, _name(s, item.card)) if zone else f' data-item="{item.card}"'
        body += f'<g transform="translate(0,{y - 11})"{attrs}>{line}</g>'
        y += 16
    if len(s.stack) > len(shown):
        body += text(10, y, f"… {len(s.stack) - len(shown)} more below", "small")
        y += 16
    for c in resolving:
        line = text(10, 11, clip(f"resolving: {_name(s, c)}", 58))
        body += f'<g transform="translate(0,{y - 11})"{card_attrs(c, "stack", _name(s, c))}>{line}</g>'
        y += 16
    if not s.stack and not s.stack_cards:
        body += text(10, 32, "empty", "small")
    return group(PANEL_X, 302, ' data-panel="stack"', body)
