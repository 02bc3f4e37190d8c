"""An event's player in a real browser (Debian's chromium, Playwright) at ``annals serve --event``: a game of their
match ends, and the page leads back to their own page, where the next game waits, instead of offering a rematch
that an event game cannot have (the pairings say who plays next) [R-EVT-12]."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from annals.engine.tournament.store import EventStore
from tests.eventkit import ORGANISER, Player, desk
from tests.queries.pictures.browser import CHROMIUM
from tests.server.test_event_serve import new_event
from tests.serverkit import Running, server

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium (.ci/run installs it)")


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Running, EventStore]]:
    store = new_event(tmp_path / "spring", players=2)  # one match, best of 3
    monkeypatch.setenv("ANNALS_ORGANISER_TOKEN", ORGANISER)
    with server(tmp_path / "data", "--event", str(store.folder)) as s:
        yield s, store


def test_a_game_over_leads_the_player_back_to_their_match_not_to_a_rematch_R_EVT_12(
    served: tuple[Running, EventStore], page: Any, tmp_path: Path
) -> None:
    running, store = served
    (pairing,) = store.rounds()[0].pairings
    names = {p.id: p.name for p in store.players()}
    tokens = {p["id"]: p["link"].split("token=")[1] for p in desk(running)["players"]}
    other = Player(running, tokens[pairing.b], 3)  # sits down at each game of theirs, over the table's socket
    other.start()
    tab = page.page
    tab.on("dialog", lambda d: d.accept())  # "Leave the game? It counts as a concession."
    tab.goto(f"{running.base}/me?token={tokens[pairing.a]}")
    tab.get_by_test_id("next").filter(has_text=f"game 1 against {names[pairing.b]}").wait_for(timeout=60_000)
    tab.get_by_role("link", name="play it").click()
    tab.get_by_test_id("question").filter(has_text="Choose").wait_for(timeout=60_000)  # both seated: it began
    tab.get_by_test_id("leave").click()
    over = tab.get_by_test_id("over")
    over.filter(has_text="the opponent conceded").wait_for(timeout=30_000)
    assert tab.locator("#rematch").count() == 0  # an event game has no rematch
    back = tab.locator("#match")
    assert back.inner_text() == "Back to your match: its next game, or its result"
    assert back.get_attribute("href") == f"/me?token={tokens[pairing.a]}"
    tab.screenshot(path=str(tmp_path / "game-over.png"))
    back.click()
    tab.get_by_test_id("next").filter(has_text=f"game 2 against {names[pairing.b]}").wait_for(timeout=60_000)
    other.stop.set()
    assert not other.error, other.error
