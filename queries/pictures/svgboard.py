"""The board as SVG: a position and a view in, SVG text out, no I/O. Used by ``annals position --format svg``,
by the replay viewer (``queries.pictures.viewer``) and by the live-play browser client.

``render_svg(ruleset, state, viewer)`` draws ``state`` (a ruleset's state, ``core.State``) as ``viewer`` sees it:
``None`` omniscient, ``0``/``1`` a player (drawn at the bottom), ``-1`` a spectator. Another player's hidden piles
(hand, deck order; Miras 9 Resource and Used; MORANA sealed cards) are drawn as backs and counts whatever the state
holds; to show exactly what a player knew (a MORANA Commit stays behind its screen, Embers included), pass the
viewer's own fold of the redacted stream, ``queries.positions.viewstate.ViewState``. ``title`` heads the board;
``players`` names the seats.

The text is one ``<svg>`` element whose top-level children each sit on a line of their own (see
``queries.pictures.svgkit``). Cards carry ``data-card`` (instance), ``data-zone`` and ``data-name``; piles
``data-zone``, ``data-side``, ``data-count``; counters ``data-counter``, ``data-side``, ``data-value``. Rulesets without
a board of their own (plugin rulesets) get their position listed zone by zone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from annals.engine.core import State
from annals.engine.names import turn_said
from annals.engine.registry import get_ruleset
from annals.engine.statecopy import clone
from annals.queries.pictures import svgmiras9, svgmorana
from annals.queries.pictures.svgkit import CLOSE_SVG, STYLE, clip, open_svg, rect, text

VIEW_NAMES = {None: "omniscient", 0: "player0", 1: "player1", -1: "spectator"}


def render_svg(
    ruleset: str,
    state: State,
    viewer: int | None = None,
    *,
    title: str = "",
    players: Sequence[str] = (),
    ended: tuple[int, str] | None = None,
) -> str:
    """The board of ``state`` (a ``ruleset`` game state) for ``viewer`` as SVG text. ``ended``: the table's
    (winner, end reason) when the table ended a game its rules had not (a turn cap): the board says it is over."""
    return "\n".join(board_lines(ruleset, state, viewer, title=title, players=players, ended=ended))


def board_lines(
    ruleset: str,
    state: State,
    viewer: int | None = None,
    *,
    title: str = "",
    players: Sequence[str] = (),
    ended: tuple[int, str] | None = None,
) -> list[str]:
    """``render_svg``'s text as its list of lines (each a top-level element, or the root's opening and closing)."""
    seats = tuple(players)
    if ended is not None and not state.over:  # drawn from a copy: the state itself stays as the rules left it
        state = clone(state)
        state.over, (state.winner, state.end_reason) = True, ended
    if ruleset == "miras9":
        return svgmiras9.render_lines(state, viewer, title, seats)  # type: ignore[arg-type]
    if ruleset == "morana":
        return svgmorana.render_lines(state, viewer, title, seats)  # type: ignore[arg-type]
    return _listing(ruleset, state, viewer, title)


def _listing(ruleset: str, state: State, viewer: int | None, title: str) -> list[str]:
    rules: Any = get_ruleset(ruleset)
    pos = rules.position(state)
    zones: dict[str, list[int]] = {}
    for card, zone in sorted(pos.cards.items()):
        zones.setdefault(zone, []).append(card)
    height = 60 + 18 * (len(zones) + len(pos.counters))
    lines = [open_svg(900, height, ruleset, VIEW_NAMES.get(viewer, "omniscient")), STYLE]
    lines += [
        rect(0, 0, 900, height, "frame", 0),
        text(12, 22, title or f"{ruleset} · {turn_said(state.turn)}", "title"),
    ]
    y = 46
    for zone, cards in zones.items():
        lines.append(text(12, y, clip(f"{zone}: " + " ".join(map(str, cards)), 140)))
        y += 18
    for key, value in sorted(pos.counters.items()):
        lines.append(text(12, y, f"{key} = {value}", "small"))
        y += 18
    lines.append(CLOSE_SVG)
    return lines
