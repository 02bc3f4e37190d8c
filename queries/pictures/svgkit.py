"""The drawing pieces the SVG boards share: escaping, the style sheet, card tiles, pile chips and panels.

Every board is one ``<svg>`` whose top-level elements each sit on one line of their own (no newline inside an
element): the replay viewer keeps each distinct line once and lists, per event, which lines make the board. So a
helper here returns one line (a string without ``\\n``), and its result depends only on its arguments: the same
card drawn the same way is the same text, in any game and at any event.

Cards carry data attributes for tools and tests: ``data-card`` (the instance), ``data-zone`` (the ``dst`` zone
name of ``schemas.records``), ``data-name``; a pile chip carries ``data-zone``, ``data-side`` and ``data-count``.
A card the viewer may not identify is drawn as a back with no ``data-card`` and no name.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from functools import lru_cache
from html import escape

FONT = "DejaVu Sans, Liberation Sans, Arial, sans-serif"
SIDE_FILL = ("#dbe7f7", "#f8dcdc")  # player 0 blue, player 1 red
SIDE_INK = ("#1f4e8c", "#9b2226")

STYLE = (
    "<style>"
    f"svg{{font-family:{FONT};}}"
    # a click on a word goes to the shape beneath it: a lane's heading is drawn over the lane, not inside its group
    "text{fill:#222;font-size:11px;pointer-events:none;}"
    ".title{font-size:15px;font-weight:bold;}"
    ".h{font-size:12px;font-weight:bold;}"
    ".small{font-size:9px;fill:#444;}"
    ".big{font-size:16px;font-weight:bold;}"
    ".num{font-size:13px;font-weight:bold;text-anchor:middle;}"
    ".lab{font-size:8px;fill:#555;text-anchor:middle;}"
    ".mid{text-anchor:middle;}"
    ".end{text-anchor:end;}"
    ".frame{fill:#fffdf8;stroke:#b9b2a3;stroke-width:1;}"
    ".lane{fill:#efeadf;stroke:#cfc6b4;stroke-width:1;}"
    ".site{fill:#e7f0e2;stroke:#7a9a6a;stroke-width:1.2;}"
    ".site.covered{fill:#dfe6f2;}.site.contested{stroke:#b04a3a;stroke-dasharray:4 2;}"
    ".back{fill:#5b4b8a;stroke:#2e2352;stroke-width:1;}"
    ".p0{fill:#dbe7f7;stroke:#1f4e8c;stroke-width:1.4;}"
    ".p1{fill:#f8dcdc;stroke:#9b2226;stroke-width:1.4;}"
    ".tap{fill:#e4e2dc;}"
    ".attack,.block,.target{fill:none;stroke-width:3;}"
    ".attack{stroke:#d97706;}"
    ".block{stroke:#0f766e;}"
    ".target{stroke:#7c3aed;stroke-dasharray:5 3;}"
    ".waving{stroke:#d97706;stroke-width:2.5;}"
    ".sealed{stroke-dasharray:4 3;}"
    ".wound{fill:#b91c1c;}"
    ".badge{fill:#fde68a;stroke:#a16207;stroke-width:0.8;}"
    ".chip{fill:#f3efe6;stroke:#a89f8c;stroke-width:0.8;}"
    ".panel{fill:#fbf8f1;stroke:#b9b2a3;stroke-width:1;}"
    ".track{fill:#f3efe6;stroke:#a89f8c;stroke-width:0.8;}"
    ".win{fill:#166534;font-size:15px;font-weight:bold;}.win.fit{font-size:12px;}"
    "</style>"
)


@lru_cache(maxsize=8192)
def esc(text: str) -> str:
    return escape(text, quote=True)


def seats(players: tuple[str, ...]) -> tuple[str, str]:
    """The two sides as the board says them: each player's name, ``p0``/``p1`` where the log names nobody."""
    return (players[0] if players[:1] and players[0] else "p0", players[1] if players[1:2] and players[1] else "p1")


_SITE_STEP = re.compile(r"\bsite(\d+)\b")


def said(identifier: str) -> str:
    """A step, phase, window or end reason in words (``attack.wave_step`` -> ``attack: wave step``)."""
    return _SITE_STEP.sub(r"Site \1", identifier.replace(".", ": ").replace("_", " "))


def ended(reason: str) -> str:
    """How a game ended, as every reader says it (``engine.words.END_REASONS``): ``slava_13`` is ``13 Slava``."""
    from annals.engine.words import END_REASONS

    return END_REASONS.get(reason, said(reason))


def clip(text: str, chars: int) -> str:
    """``text`` cut to ``chars`` characters with an ellipsis, for names on small tiles."""
    return text if len(text) <= chars else text[: chars - 1] + "…"


# The widths of a character, on average, in the board's sans-serif (measured in Chromium): panel text (11px) and the
# big line of the end (.win, 15px bold). They turn a panel's width into the characters a line of it holds.
CHAR_W, WIN_CHAR_W = 6.3, 9.0
FIT_CHAR_W = WIN_CHAR_W * 12 / 15  # the end's big line in its smaller type (.win.fit, 12px bold)


def wrapped(text: str, chars: int, most: int) -> list[str]:
    """``text`` in lines of at most ``chars`` characters, broken between words (a word longer than a line is cut),
    at most ``most`` lines: the last ends with an ellipsis when there was more. For the end of a game in a side
    panel, which a long name cut off at the panel's edge."""
    lines = textwrap.wrap(text, chars, break_on_hyphens=False) or [""]
    if len(lines) <= most:
        return lines
    return [*lines[: most - 1], clip(" ".join(lines[most - 1 :]), chars)]


def ending(ruleset: str, winner: int, reason: str, players: Sequence[str]) -> str:
    """The end as every reader says it (``Words.ending``): ``Bob reaches 13 Slava and wins``."""
    from annals.engine.words import Words

    return Words(ruleset, lambda _card: "", list(players)).ending(winner, reason)


def end_line(ruleset: str, winner: int, reason: str, players: Sequence[str]) -> str:
    """The end in the Turn panel, as every reader says it (``Words.ending``): ``Game over: Bob reaches 13 Slava and
    wins``; the turn cap too (it read ``Bob wins (13 Slava)`` beside the log's ``Bob reaches 13 Slava and wins``)."""
    return "Game over: " + ending(ruleset, winner, reason, players)


def win_line(sentence: str, verdict: str, name: str, chars: int) -> tuple[str, str]:
    """The end's big line in ``chars`` characters, and its class: the end as every reader says it (``ending``:
    ``Ann reaches 13 Slava and wins``; it read ``Ann wins · 13 Slava`` beside that), in a smaller bold type
    (``win fit``) when only that fits, else ``verdict`` alone (``Ann wins``: the Turn panel says it in full), the
    name clipped only when ``NAME wins`` alone does not fit."""
    if len(sentence) <= chars:
        return sentence, "win mid"
    if len(sentence) <= int(chars * WIN_CHAR_W / FIT_CHAR_W):
        return sentence, "win fit mid"
    if len(verdict) <= chars or not name:
        return clip(verdict, chars), "win mid"
    rest = verdict[len(name) :]
    return clip(name, max(chars - len(rest), 4)) + rest, "win mid"


def open_svg(width: int, height: int, ruleset: str, view: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'class="annals-board" data-ruleset="{esc(ruleset)}" data-view="{esc(view)}">'
    )


CLOSE_SVG = "</svg>"


@lru_cache(maxsize=4096)
def text(x: float, y: float, body: str, cls: str = "", fill: str = "") -> str:
    c = f' class="{cls}"' if cls else ""
    f = f' style="fill:{fill}"' if fill else ""
    return f'<text x="{x:g}" y="{y:g}"{c}{f}>{esc(body)}</text>'


@lru_cache(maxsize=4096)
def rect(x: float, y: float, w: float, h: float, cls: str, rx: float = 4) -> str:
    return f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{rx:g}" class="{cls}"/>'


def group(x: float, y: float, attrs: str, body: str) -> str:
    """One line: ``body`` (elements drawn at the origin) moved to ``(x, y)``, with data attributes ``attrs``."""
    return f'<g transform="translate({x:g},{y:g})"{attrs}>{body}</g>'


@lru_cache(maxsize=8192)
def card_attrs(card: int, zone: str, name: str) -> str:
    return f' data-card="{card}" data-zone="{esc(zone)}" data-name="{esc(name)}"'


@lru_cache(maxsize=256)
def back(w: float, h: float, label: str = "") -> str:
    """A card back: the viewer knows a card is there, not which."""
    diamond = f"M{w / 2:g} 6 L{w - 6:g} {h / 2:g} L{w / 2:g} {h - 6:g} L6 {h / 2:g} Z"
    body = rect(0, 0, w, h, "back") + f'<path d="{diamond}" style="fill:none;stroke:#cbbef0;stroke-width:1"/>'
    if label:
        body += f'<text x="{w / 2:g}" y="{h / 2 + 4:g}" class="mid" style="fill:#fff">{esc(label)}</text>'
    return body


@lru_cache(maxsize=4096)
def back_line(x: float, y: float, w: float, h: float, zone: str, side: int, label: str = "") -> str:
    return group(x, y, f' data-back="1" data-zone="{esc(zone)}" data-side="{side}"', back(w, h, label))


@lru_cache(maxsize=1024)
def chip(label: str, count: int, w: float = 74) -> str:
    return rect(0, 0, w, 22, "chip", 3) + text(5, 15, label, "small") + text(w - 5, 16, str(count), "h end")


@lru_cache(maxsize=4096)
def chip_line(x: float, y: float, zone: str, side: int, label: str, count: int, w: float = 74) -> str:
    """A pile shown as its size: Deck 20, Hand 5 (a count is public even when the cards are not)."""
    return group(x, y, f' data-zone="{esc(zone)}" data-side="{side}" data-count="{count}"', chip(label, count, w))


def stat_cells(values: tuple[tuple[str, int], ...], y: float, width: float) -> str:
    """Labelled numbers in equal cells across ``width``: ATK / GRIT / ECHO, Power."""
    cell = width / len(values)
    out = []
    for i, (label, value) in enumerate(values):
        cx = cell * i + cell / 2
        out.append(text(cx, y, str(value), "num") + text(cx, y + 9, label, "lab"))
    return "".join(out)


def panel(x: float, y: float, w: float, h: float, heading: str, lines: list[str], attrs: str = "") -> str:
    """A boxed list of text lines with a heading (the stack, the wave, Battle Damage, the turn)."""
    body = rect(0, 0, w, h, "panel") + text(8, 16, heading, "h")
    for i, line in enumerate(lines):
        body += text(10, 32 + 14 * i, line)
    return group(x, y, attrs, body)
