"""SVG boards of sample positions, valid XML, rendered to PNG by the browser and saved as test artefacts: Miras 9
with the deepest reaction stack of the sample games, a stack filled past what the panel lists, a Battle Damage
point being paid and an attack wave; MORANA with a sealed Commit and at the Rite."""

from __future__ import annotations

import re
import struct
from pathlib import Path
from typing import Any

from annals.engine.miras9.state import StackItem
from annals.queries.pictures.board import board_svg
from annals.queries.pictures.svgboard import render_svg
from annals.queries.pictures.svgmiras9 import STACK_H
from annals.queries.positions.timeline import Timeline
from annals.schemas.logfile import GameLog
from tests.queries.pictures.boards import drawn
from tests.queries.pictures.browser import ARTIFACTS, Page


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def shoot(page: Page, svg: str, name: str) -> Path:
    d = drawn(svg)  # well-formed XML with the board's data attributes
    assert d.cards
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    source = ARTIFACTS / f"{name}.svg"
    source.write_text(svg)
    page.page.set_viewport_size({"width": 1200, "height": 700})
    page.page.goto(source.as_uri())
    png = ARTIFACTS / f"{name}.png"
    page.page.locator("svg").screenshot(path=str(png))
    w, h = png_size(png)
    assert w == 1200 and 640 <= h <= 700 and png.stat().st_size > 20_000  # drawn, not blank
    return png


def deepest(log: GameLog, attr: str) -> tuple[int, int]:
    timeline = Timeline(log)
    best = (0, 0)
    for count in range(len(log.events) + 1):
        value = len(getattr(timeline.state_after(count), attr))
        if value > best[0]:
            best = (value, count)
    return best


def test_miras9_boards_render(games: dict[str, list[GameLog]], page: Page) -> None:
    """[M9-114] the reaction stack, [M9-086] Battle Damage one point at a time, [M9-073] an attack wave."""
    (depth, count), log = max(((deepest(g, "stack"), g) for g in games["miras9"]), key=lambda x: x[0])
    assert depth >= 1
    timeline = Timeline(log)
    shoot(page, board_svg(timeline, count, "omniscient", f"event:{count - 1}"), "board-miras9-stack")
    paid = [e for e in log.events if type(e).__name__ == "BattleDamagePaid"]
    k = next(i for i, e in enumerate(paid, start=1) if e.remaining > 0)  # a point paid, more still owed
    at = timeline.resolve(f"damage:{k}")
    svg = board_svg(timeline, at, "player1", f"damage:{k}")
    assert 'data-panel="damage"' in svg and 'data-owed="0"' not in svg
    shoot(page, svg, "board-miras9-battle-damage")
    shoot(page, board_svg(timeline, timeline.resolve("wavestep:4"), "player0", "wavestep:4"), "board-miras9-wave")
    state: Any = timeline.state_after(count)
    card = state.stack[0].card
    state.stack = [StackItem(card, i % 3, 0, i % 2) for i in range(15)]  # abilities, more than the panel lists
    state.stack_cards = []  # no Event resolving
    svg = render_svg("miras9", state, None, title="a full stack")
    assert "… 3 more below" in svg
    # an ability on the stack in words, as the log says it, never by its index
    assert "&#x27;s first ability" in svg or "'s first ability" in svg
    assert "(ability " not in svg
    shoot(page, svg, "board-miras9-full-stack")
    # an Event resolving below a full stack: a line of its own, inside the panel, the stack's count said
    state.stack_cards = [card]
    svg = render_svg("miras9", state, None, title="a full stack and an Event resolving")
    assert "… 4 more below" in svg and "resolving: " in svg
    panel = svg[svg.index('data-panel="stack"') :]
    panel = panel[: panel.index('data-panel="', 20) if 'data-panel="' in panel[20:] else len(panel)]
    lines = [int(y) + 11 for y in re.findall(r"translate\(0,(\d+)\)", panel)]
    lines += [int(y) for y in re.findall(r'<text x="10" y="(\d+)" class="small"', panel)]
    assert len(lines) == 13 and max(lines) + 4 <= STACK_H, lines  # baselines, a descender below the last
    shoot(page, svg, "board-miras9-full-stack-resolving")


def test_morana_boards_render(games: dict[str, list[GameLog]], page: Page) -> None:
    """[MOR-15] a sealed Commit (face-down for its owner, a back for the other), [MOR-17] the Rite, [MOR-10]."""
    log = games["morana"][0]
    timeline = Timeline(log)
    sealed = next(c for c in range(len(log.events)) if timeline.state_after(c).sealed)  # type: ignore[attr-defined]
    for view in ("omniscient", "player0", "player1"):
        shoot(page, board_svg(timeline, sealed + 1, view), f"board-morana-sealed-{view}")
    shoot(page, board_svg(timeline, timeline.resolve("rite:3"), "spectator", "rite:3"), "board-morana-rite")
    shoot(page, board_svg(timeline, len(log.events), "omniscient", "end"), "board-morana-end")


def test_miras9_hand_cards_keep_their_words_inside_the_tile(games: dict[str, list[GameLog]], page: Page) -> None:
    """A hand card's name, kind, cost and ATK / GRIT / ECHO [M9-025] stay inside its tile as the browser lays the
    text out (one "ATK/GRIT/ECHO 5/4/0" line ran past the tile's right edge)."""
    log = games["miras9"][0]
    shoot(page, board_svg(Timeline(log), 12, "omniscient", "event:11"), "board-miras9-hand")
    overflow = page.page.evaluate(
        """() => [...document.querySelectorAll('g[data-zone="hand"]')].flatMap(g => {
            const tile = g.querySelector('rect').getBBox();
            return [...g.querySelectorAll('text')].filter(t => {
                const box = t.getBBox();
                return box.x < tile.x || box.x + box.width > tile.x + tile.width;
            }).map(t => t.textContent);
        })"""
    )
    cells = page.page.locator('g[data-zone="hand"] text', has_text="GRIT").count()
    assert cells > 0  # units in hand, their stats drawn
    assert overflow == []


# Two names as long as people's can be: the end of the game named them and ran past the side panel's edge, or was cut
# to "Game over: Bartholomew Konstantinos Abernathy wins (13 …" and "Bartholomew Konstantinos Abernathy wins · 13 Sl…".
LONG_NAMES = ["Wilhelmina Ekaterina Vasquez-Oyelaran", "Bartholomew Konstantinos Abernathy"]
OUTSIDE = """() => {
    const frame = document.querySelector('svg').getBoundingClientRect();
    return [...document.querySelectorAll('svg text')].filter(t => {
        const box = t.getBoundingClientRect(), panel = t.closest('[data-panel]');
        const edge = panel ? panel.querySelector('rect').getBoundingClientRect() : frame;
        return box.left < edge.left - 0.5 || box.right > edge.right + 0.5;
    }).map(t => t.textContent);
}"""


def test_the_end_of_a_game_wraps_inside_the_side_panel(games: dict[str, list[GameLog]], page: Page) -> None:
    """The last board of a game of each ruleset, players with long names: every line of the side panels and the
    end's big line stay inside their panel and the board, and the Turn panel says the whole end, over lines."""
    from annals.engine.words import END_REASONS, Words

    for ruleset in ("miras9", "morana"):
        log = next(g for g in games[ruleset] if g.close is not None and g.close.winner >= 0)
        state = Timeline(log).state_after(len(log.events))
        svg = render_svg(ruleset, state, None, players=LONG_NAMES)
        shoot(page, svg, f"board-{ruleset}-end-long-names")
        assert page.page.evaluate(OUTSIDE) == [], ruleset
        turn = page.page.locator('[data-panel="turn"] text').all_text_contents()[2:]  # after the heading and turn
        winner_seat, end = log.close.winner, log.close.end_reason
        winner, reason = LONG_NAMES[winner_seat], END_REASONS[end]
        assert " ".join(turn) == f"Game over: {Words(ruleset, str, LONG_NAMES).ending(winner_seat, end)}", turn
        assert winner in " ".join(turn) and reason.split()[-1] in " ".join(turn), (ruleset, turn)
        assert len(turn) > 1  # it took more than a line
        big = page.page.locator("svg text.win").text_content() or ""
        assert big.endswith(" wins") and big.startswith(winner.split()[0]), big
