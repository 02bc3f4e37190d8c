"""The MORANA board as SVG lines: the three Sites with each side's cards and Power totals [MOR-17], face-down
(sealed) cards, each player's Warden [MOR-33], Embers [MOR-12], Slava on a track to 13 [MOR-10], Nav, deck and
hand sizes, and a panel for the turn, step and Initiative [MOR-29].

The viewer's side is drawn at the bottom (player 0 for the omniscient and spectator views). Another player's hand
and sealed cards are drawn as backs whatever the state holds; but the opponent's Embers during Commit are only as
hidden as the state passed in makes them, so draw a player's board from that player's own fold
(``queries.positions.viewstate``), in which a sealed Commit has changed nothing yet. The Embers another player paid
behind the screen are not in any later event either (``Flipped`` reveals cards, not payments), so during Commit and Dusk
another player's Embers are labelled "last seen": the value of the last Embers change the viewer saw.
"""

from __future__ import annotations

from functools import lru_cache

from annals.engine.morana.state import LAST_TURN, SITES, SLAVA_TO_WIN, MoranaState, deck_index
from annals.engine.names import turn_said
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
    text,
    win_line,
    wrapped,
)
from annals.schemas.records import instance_owner

WIDTH, HEIGHT = 1200, 676
COL_X, COL_W = 10, 306
TILE_W, TILE_H = 148, 50
TOP_HAND_Y, TOP_STRIP_Y, BOTTOM_STRIP_Y, BOTTOM_HAND_Y = 36, 92, 584, 616
SIDE_TOP_Y, MID_Y, SIDE_BOTTOM_Y, SIDE_H = 126, 334, 364, 206
PANEL_X, PANEL_W = 952, 238
TURN_CHARS = int((PANEL_W - 18) / CHAR_W)  # a line of panel text
HEADING_CHARS = int((PANEL_W - 16) / (CHAR_W * 1.15))  # a panel's heading (12px bold)
WIN_CHARS = int((PANEL_W - 8) / WIN_CHAR_W)  # the end's big line


def render_lines(s: MoranaState, viewer: int | None, title: str, players: tuple[str, ...]) -> list[str]:
    bottom = viewer if viewer in (0, 1) else 0
    top = 1 - bottom
    view = {None: "omniscient", -1: "spectator"}.get(viewer, f"player{viewer}")
    lines = [open_svg(WIDTH, HEIGHT, "morana", view), STYLE, rect(0, 0, WIDTH, HEIGHT, "frame", 0)]
    lines.append(text(12, 22, title or f"MORANA · {turn_said(s.turn)} · {said(s.step)}", "title"))
    who = seats(players)
    for site in range(SITES):
        lines.extend(_site(s, site, top, bottom, viewer, who))
    for side, hand_y, strip_y in ((top, TOP_HAND_Y, TOP_STRIP_Y), (bottom, BOTTOM_HAND_Y, BOTTOM_STRIP_Y)):
        lines.extend(_player(s, side, viewer, hand_y, strip_y, players))
    lines.extend(_panels(s, top, bottom, who))
    lines.append(CLOSE_SVG)
    return lines


def card_name(s: MoranaState, card: int) -> str:
    return s.pool.cards[s.ids[instance_owner(card)][deck_index(card)]].name


def _facts(s: MoranaState, card: int, sealed: bool) -> tuple[str, str, int, int, str, bool]:
    c = s.pool.cards[s.ids[instance_owner(card)][deck_index(card)]]
    words = " · ".join(f"{k} {x}" if x else k for k, x in c.keywords.items())
    power = s.power.get(card, c.power if sealed else 0) if c.kind == "spirit" else -1
    return c.name, f"{c.kind} · cost {c.cost}", instance_owner(card), power, words, sealed


@lru_cache(maxsize=8192)
def _tile(name: str, kind: str, owner: int, power: int, words: str, sealed: bool) -> str:
    body = rect(0, 0, TILE_W, TILE_H, f"p{owner}" + (" sealed" if sealed else ""))
    body += text(5, 14, clip(name, 17), "h") + text(5, 27, kind + (" · face-down" if sealed else ""), "small")
    if words:
        body += text(5, 42, clip(words, 22), "small")
    if power >= 0:
        body += text(TILE_W - 16, 24, str(power), "big mid") + text(TILE_W - 16, 36, "POWER", "lab")
    return body


def _site(s: MoranaState, site: int, top: int, bottom: int, viewer: int | None, who: tuple[str, str]) -> list[str]:
    x = COL_X + site * (COL_W + 6)
    zone = f"site:{site + 1}"
    sealed = set(s.sealed)
    totals = [sum(s.power.get(c, 0) for c in s.sites[p][site] if c not in sealed) for p in (0, 1)]
    out = [
        f'<rect x="{x}" y="{SIDE_TOP_Y - 6}" width="{COL_W}" height="{SIDE_BOTTOM_Y + SIDE_H + 8 - SIDE_TOP_Y}" '
        f'rx="6" class="lane" data-site="{site + 1}"/>',
        text(x + COL_W / 2, MID_Y + 12, f"SITE {site + 1}", "h mid"),
        text(x + 8, MID_Y - 2, f"{clip(who[top], 14)} Power {totals[top]}", "small", SIDE_INK[top]),
        text(
            x + COL_W - 8, MID_Y + 26, f"{clip(who[bottom], 14)} Power {totals[bottom]}", "small end", SIDE_INK[bottom]
        ),
        f'<g data-power-site="{site + 1}" data-p0="{totals[0]}" data-p1="{totals[1]}"/>',
    ]
    for side, y in ((top, SIDE_TOP_Y), (bottom, SIDE_BOTTOM_Y)):
        cards = s.sites[side][site]
        rows = max((len(cards) + 1) // 2, 1)
        row_h = min(TILE_H + 4, SIDE_H // rows)
        for i, c in enumerate(cards):
            cx, cy = x + 4 + (i % 2) * (TILE_W + 2), y + (i // 2) * row_h
            face_down = c in sealed
            if face_down and viewer is not None and viewer != side:
                out.append(back_line(cx, cy, TILE_W, min(TILE_H, row_h - 2), zone, side, "sealed"))
                continue
            tile = _tile(*_facts(s, c, face_down))
            if row_h < TILE_H + 4:
                tile = f'<g transform="scale(1,{(row_h - 2) / TILE_H:.3f})">{tile}</g>'
            out.append(group(cx, cy, card_attrs(c, zone, card_name(s, c)), tile))
    return out


def _player(
    s: MoranaState, side: int, viewer: int | None, hand_y: float, strip_y: float, players: tuple[str, ...]
) -> list[str]:
    who = seats(players)[side]
    initiative = " · Initiative" if s.initiative == side else ""
    out = [text(12, strip_y + 16, clip(who, 22) + initiative, "h", SIDE_INK[side])]
    if side < len(s.wardens) and s.wardens_seated[side]:
        w = s.pool.wardens[s.wardens[side]]
        used = "used" if s.invoked[side] else "ready"
        label = f"{w.name} · Invocation {w.invocation_cost} · {used}"
        body = rect(0, 0, 260, 24, "site", 4) + text(6, 16, clip(label, 47), "small")
        out.append(group(220, strip_y, card_attrs(warden(side), "warden", w.name), body))
    stale = viewer is not None and viewer != side and s.step.startswith(("commit", "dusk"))
    embers = rect(0, 0, 124, 24, "badge", 4)
    if stale:  # what this player paid behind the screen shows in no event until Embers next change openly
        embers += text(6, 17, f"Embers {s.embers[side]}", "h") + text(118, 16, "last seen", "small end")
    else:
        embers += text(62, 17, f"Embers {s.embers[side]}", "h mid")
    out.append(group(486, strip_y, f' data-counter="embers" data-side="{side}" data-value="{s.embers[side]}"', embers))
    out.append(group(616, strip_y, f' data-counter="slava" data-side="{side}" data-value="{s.slava[side]}"',
                     rect(0, 0, 76, 24, "badge", 4) + text(38, 17, f"Slava {s.slava[side]}", "h mid")))  # fmt: skip
    x = 698
    for zone, label, pile in (("deck", "Deck", s.deck[side]), ("hand", "Hand", s.hand[side]),
                              ("nav", "Nav", s.nav[side])):  # fmt: skip
        out.append(chip_line(x, strip_y, zone, side, label, len(pile), 78))
        x += 82
    see = viewer is None or viewer == side
    hx = 12
    step = min(104, (COL_W * 3) // max(len(s.hand[side]), 1))
    for c in s.hand[side]:
        if see and c > 0:
            out.append(group(hx, hand_y, card_attrs(c, "hand", card_name(s, c)), _hand(*_facts(s, c, False)[:2])))
        else:
            out.append(back_line(hx, hand_y, 100, 46, "hand", side))
        hx += step
    return out


@lru_cache(maxsize=2048)
def _hand(name: str, kind: str) -> str:
    return rect(0, 0, 100, 46, "chip") + text(5, 15, clip(name, 13), "h") + text(5, 31, kind, "small")


def warden(side: int) -> int:
    return (side + 1) * 1000 + 999


def _panels(s: MoranaState, top: int, bottom: int, who: tuple[str, str]) -> list[str]:
    # "of 8": the rules' own length [MOR-05], which tells nothing of this game's (Miras 9's board says no length)
    turn = [f"Turn {s.turn} of {LAST_TURN} · step {said(s.step)}" if s.turn else "Setup"]
    verdict = f"{who[s.winner]} wins" if s.winner in (0, 1) else "a draw"
    if s.over:  # the end in full, wrapped in the panel's width (a long name cut it off at the edge)
        turn += wrapped(end_line("morana", s.winner, s.end_reason, who), TURN_CHARS, 3)
    else:
        turn.append(
            clip(f"Initiative: {who[s.initiative]}" if s.initiative in (0, 1) else "Initiative: nobody", TURN_CHARS)
        )
        if s.step == "commit" and s.committing in (0, 1):
            turn.append(clip(f"{who[s.committing]} is committing", TURN_CHARS))
    out = [panel(PANEL_X, 36, PANEL_W, 84, "Turn", turn, ' data-panel="turn"')]
    track = rect(0, 0, PANEL_W, 96, "panel") + text(8, 16, f"Slava (first to {SLAVA_TO_WIN})", "h")
    for row, side in enumerate((top, bottom)):
        y = 31 + row * 34
        track += text(30, y - 2, clip(who[side], 34), "small", SIDE_INK[side])  # the name above its row
        for k in range(1, SLAVA_TO_WIN + 1):
            fill = ' style="fill:#f59e0b"' if k <= s.slava[side] else ""
            track += f'<rect x="{16 + k * 14.5:g}" y="{y}" width="13" height="18" rx="2" class="track"{fill}/>'
        track += text(16 + 14 * 14.5, y + 13, str(s.slava[side]), "h")
    out.append(group(PANEL_X, 126, f' data-panel="slava" data-p0="{s.slava[0]}" data-p1="{s.slava[1]}"', track))
    for i, side in enumerate((top, bottom)):
        nav = s.nav[side]
        heading = f"{clip(who[side], HEADING_CHARS - 12)}'s Nav ({len(nav)})"
        body = rect(0, 0, PANEL_W, 206, "panel") + text(8, 16, heading, "h")
        for k, c in enumerate(nav[:12]):
            line = clip(card_name(s, c) + (f" · Power {s.power[c]}" if c in s.power else ""), 34)
            body += f"<g{card_attrs(c, 'nav', card_name(s, c))}>{text(10, 32 + 14 * k, line)}</g>"
        if len(nav) > 12:
            body += text(10, 32 + 14 * 12, f"… {len(nav) - 12} more", "small")
            body += "".join(f"<g{card_attrs(c, 'nav', card_name(s, c))}/>" for c in nav[12:])
        out.append(group(PANEL_X, 228 + i * 212, f' data-panel="nav" data-side="{side}"', body))
    if s.over:
        name = who[s.winner] if s.winner in (0, 1) else ""
        line, cls = win_line(ending("morana", s.winner, s.end_reason, who), verdict, name, WIN_CHARS)
        out.append(text(PANEL_X + PANEL_W / 2, 668, line, cls))
    return out
