"""The replay page's position line says the step of the position shown, as the board's own title does: after an
event that begins a turn (Miras 9's Awaken [M9-031], MORANA's Dawn) and after each event that begins a phase,
whose recorded step is the phase before (logs keep it so, and coordinates such as ``turn:5/attack`` resolve by
it). It said ``attune`` after the event that begins Awaken while the board said ``awaken``; the event list's row
said it too (``#64 · turn 3, attune · Awaken phase``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from annals.queries.pictures.viewer import viewer_data, write_viewer
from annals.queries.positions.viewstate import ViewState
from annals.schemas.logfile import GameLog
from tests.queries.pictures.browser import Page
from tests.queries.pictures.test_viewer_browser import opened


@pytest.mark.parametrize("ruleset", ["miras9", "morana"])
def test_each_position_carries_the_step_it_is_in(games: dict[str, list[GameLog]], ruleset: str) -> None:
    for log in games[ruleset]:
        d = viewer_data(log, "spectator")
        seen = ViewState(log.header, -1)
        assert len(d.step_at) == len(log.events) + 1 and d.steps[d.step_at[0]] == seen.state.step
        for count, event in enumerate(log.events, start=1):
            seen.apply(event)
            assert d.steps[d.step_at[count]] == seen.state.step, (count, event)


@pytest.mark.parametrize("ruleset", ["miras9", "morana"])
def test_the_position_line_and_the_board_title_agree(
    games: dict[str, list[GameLog]], page: Page, tmp_path: Path, ruleset: str
) -> None:
    log = games[ruleset][0]
    path = tmp_path / "game.html"
    write_viewer(log, path, "spectator")
    kinds = [type(e).__name__ for e in log.events]
    begun = [i + 1 for i, k in enumerate(kinds) if k == "TurnBegan"][1:4]
    phases = [i + 1 for i, k in enumerate(kinds) if k in ("PhaseBegan", "StepBegan")][5:9]
    p = opened(page, path)
    for count in [*begun, *(c + 1 for c in begun), *phases]:
        p.evaluate(f"() => window.annalsViewer.go({count})")
        where = p.inner_text("#where")
        title = p.evaluate("() => document.querySelector('#board text').textContent")
        step = title.rsplit(" · ", 1)[1]  # "Miras 9 · turn 5 · awaken"
        assert where.endswith(f" · {step}"), (count, kinds[count - 1], where, title)
        # the event's row in the list says the same step (#64 · turn 3, awaken · Awaken phase)
        row = p.inner_text(f"#events li[data-n='{count - 1}'] .t")
        assert row.endswith(f", {step} · "), (count, row, title)
