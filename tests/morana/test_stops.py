"""Where a MORANA game stops inside its automatic stages: each Site's resolution at Dusk, and the end of set-up."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from annals.engine.morana import builder as mor
from annals.engine.replay import fold
from annals.engine.simulate import simulate
from annals.schemas.logfile import read_log
from tests.resumecheck import resume_matches, stops


def test_r_mor_23_each_site_resolution_is_held_at_its_start_not_the_rites_scores(tmp_path: Path) -> None:
    """R-MOR-23: just after each ``SiteResolutionBegan`` (the Sites left of it resolved, its own effects not yet
    [MOR-16], [MOR-19]) the game stops, and the position goes on event for event as the game did; between the
    Rite's Site scores [MOR-17], or inside a Site's resolution, it does not stop."""
    (result,) = simulate("morana", 1, 3, None, ["heuristic", "heuristic"], tmp_path)
    log = read_log(result.path)
    at = set(stops(log))
    begun = [i + 1 for i, e in enumerate(log.events) if type(e).__name__ == "SiteResolutionBegan"]
    scored = [i + 1 for i, e in enumerate(log.events) if type(e).__name__ == "SiteScored"]
    fired = [i + 1 for i, e in enumerate(log.events) if type(e).__name__ in ("OmenFired", "ClashFired")]
    assert begun and scored and fired
    assert set(begun) <= at
    assert not (set(scored) | set(fired)) & at
    for count in begun[:6]:
        state: Any = fold(log, count)
        assert state.site_begun == count and state.step.startswith("dusk.site")
        assert resume_matches(log, count, mor) == len(log.events) - count


def test_r_mor_24_set_up_ends_at_a_stop_and_holds_none_before(tmp_path: Path) -> None:
    """R-MOR-24: once both opening hands are drawn the game stops before the first Dawn [MOR-13], [MOR-14], and
    goes on from there as it did; between set-up's shuffles and draws [MOR-33] it does not stop."""
    (result,) = simulate("morana", 1, 5, None, ["heuristic", "heuristic"], tmp_path)
    log = read_log(result.path)
    first_turn = next(i for i, e in enumerate(log.events) if type(e).__name__ == "TurnBegan")
    at = stops(log)
    assert [n for n in at if n <= first_turn] == [0, first_turn]  # the start, and set-up done
    state: Any = fold(log, first_turn)
    assert state.step == "setup" and state.boundary and all(len(h) == 4 for h in state.hand)
    assert resume_matches(log, first_turn, mor) == len(log.events) - first_turn
