"""What the replay viewer explains beside the board: the legend of every mark and colour the boards
(``svgmiras9``, ``svgmorana``) and the timeline (``web/viewer.css``) draw, and the full text of each card the
board shows, for the hover and focus card.

A legend entry is ``(swatch, meaning)``: ``swatch`` a small SVG drawn with the board's own classes (the board's
style sheet, ``svgkit.STYLE``, is in the legend's SVG too), or ``mark:NAME`` for a timeline mark of class NAME.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import unescape

from annals.queries.pictures.svgkit import STYLE, back, esc, rect

_NAME = re.compile(r'\bdata-name="([^"]*)"')


def _swatch(body: str) -> str:
    return f'<svg class="swatch" width="34" height="22" viewBox="0 0 34 22" aria-hidden="true">{body}</svg>'


def _tile(cls: str) -> str:
    return _swatch(rect(1, 1, 32, 20, cls, 3))


def _both(base: str, over: str) -> str:
    return _swatch(rect(1, 1, 32, 20, base, 3) + rect(2, 2, 30, 18, over, 3))


def _circle(cls: str, label: str) -> str:
    return _swatch(
        f'<circle cx="17" cy="11" r="9" class="{cls}"/>'
        f'<text x="17" y="15" class="mid" style="fill:#fff;font-weight:bold">{esc(label)}</text>'
    )


def _badge(label: str) -> str:
    return _swatch(rect(1, 3, 32, 16, "badge", 3) + f'<text x="17" y="15" class="small mid">{esc(label)}</text>')


def _back() -> str:
    return _swatch(f'<g transform="scale(0.32,0.2)">{back(100, 100)}</g>')


def _sealed(viewer: int | None) -> list[tuple[str, str]]:
    """The MORANA face-down card as the person looking sees it (``svgmorana``: drawn face up, dashed, for its owner
    and the omniscient view; a back for everyone else): a spectator has none of its own, and is shown only backs."""
    if viewer is not None and viewer < 0:
        return []
    if viewer is None:
        return [(_tile("p0 sealed"), "a face-down (committed) card, dashed until the flip (its owner's opponent and "
                 "spectators see a back)")]  # fmt: skip
    return [
        (_tile("p0 sealed"), "your own face-down (committed) card, dashed until the flip (your opponent sees a back)")
    ]


def legend(ruleset: str, players: Sequence[str], viewer: int | None = None) -> list[tuple[str, str]]:
    """The marks of ``ruleset``'s board and timeline, each with what it means; ``players`` name the colours,
    ``viewer`` is who looks (``engine.views.viewer_of``: None all-seeing, -1 a spectator, else a seat)."""
    blue = players[0] if players else "the first player"
    red = players[1] if len(players) > 1 else "the second player"
    common = [
        (_tile("p0"), f"{blue}'s card (blue)"),
        (_tile("p1"), f"{red}'s card (red)"),
        (_back(), "a card this view may not see (face-down, or in a hidden hand)"),
    ]
    if ruleset == "miras9":
        board = [
            (_tile("p0 tap"), "a tapped card (greyed)"),
            (_both("p0", "attack"), "attacking in the wave in progress (orange frame)"),
            (_both("p0", "block"), "blocking (green frame)"),
            (_both("p1", "target"), "attacked by the wave (violet dashes)"),
            (_swatch(rect(1, 1, 32, 20, "lane waving", 3)), "the lane the wave is in (⚔ wave)"),
            (_circle("wound", "2"), "wounds on a Unit"),
            (_badge("⚙"), "Equipment attached to the Unit (+N: more of it)"),
            (_badge("Echo"), "a player's Echo"),
            (_tile("site"), "a Site (it generates resources)"),
            (_tile("site covered"), "a Site covered by its owner's Ship-Site"),
            (_tile("site contested"), "a Site contested by an enemy Ship-Site (red dashes)"),
            (_swatch('<text x="2" y="15" class="small">3/2/1</text>'), "a small tile's ATK / GRIT / ECHO; "
             "T tapped, A Attuned, 2w two wounds"),
        ]  # fmt: skip
        marks = [
            ("mark:turn", "a turn begins"),
            ("mark:wave", "an attack wave is declared"),
            ("mark:resolve", "a card or ability resolves from the stack"),
            ("mark:damage", "a point of Battle Damage is paid"),
        ]
    elif ruleset == "morana":
        board = [
            *_sealed(viewer),
            (_tile("lane"), "a Site, with each side's total Power"),
            (_badge("Embers"), "a player's Embers"),
            (_badge("Slava"), "a player's Slava (13 wins; the track shows it too)"),
            (_swatch(rect(1, 1, 32, 20, "track", 2) + '<text x="17" y="15" class="mid h">4</text>'),
             "a Spirit's POWER (top right of its tile)"),
        ]  # fmt: skip
        marks = [
            ("mark:turn", "a turn begins (Dawn)"),
            ("mark:dusk", "Dusk: the committed cards flip"),
            ("mark:rite", "the Rite: the Sites score"),
        ]
    else:
        board, marks = [], [("mark:turn", "a turn begins")]
    marks += [("mark:end", "the game ends"), ("mark:note", "a note (hover it to read)")]
    return common + board + marks


def legend_style() -> str:
    """The board's style sheet, for the legend's swatches."""
    return f'<svg width="0" height="0" aria-hidden="true" style="position:absolute">{STYLE}</svg>'


def card_texts(ruleset: str, lines: Sequence[str]) -> dict[str, str]:
    """Each card name the boards show (their ``data-name``) -> its type, cost, numbers and rules text, from the
    ruleset's card pool: only cards the view saw, so a player's file holds no text of a card it never showed."""
    from annals.engine.registry import get_ruleset
    from annals.engine.words import described

    try:
        pool = get_ruleset(ruleset).cards()
    except LookupError:  # a ruleset this install does not have: names without text
        return {}
    by_name = {c.name: c for c in pool.values()}
    names = sorted({unescape(m) for line in lines for m in _NAME.findall(line)})
    return {n: described(by_name[n]) for n in names if n in by_name}
