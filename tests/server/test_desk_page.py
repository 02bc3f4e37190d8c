"""The organiser's desk in a real browser (Debian's chromium, Playwright) at a real ``annals serve --event``: pair
round 1, move a table to paper, start the clock, watch the online tables finish (scripted players over the
tables' WebSockets), type the paper result, see the standings; and the public page shows the same by name, with
no token in it [R-EVT-12]. Screenshots are kept under the test's tmp path."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from annals.engine.tournament import event as lib
from annals.engine.tournament.store import EventStore
from annals.engine.tournament.verify import verify_event
from annals.schemas.event import INTENTIONAL_DRAW
from tests.eventkit import ORGANISER, Player, call, desk
from tests.queries.pictures.browser import CHROMIUM
from tests.server.test_event_serve import new_event
from tests.serverkit import Running, server

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium (.ci/run installs it)")


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Running, EventStore]]:
    store = new_event(tmp_path / "spring", pair=False)
    monkeypatch.setenv("ANNALS_ORGANISER_TOKEN", ORGANISER)
    with server(tmp_path / "data", "--event", str(store.folder)) as s:
        yield s, store


def test_the_desk_pairs_a_round_watches_it_and_takes_a_paper_result_R_EVT_12(
    served: tuple[Running, EventStore], page: Any, tmp_path: Path
) -> None:
    running, store = served
    tab = page.page
    tab.goto(f"{running.base}/desk?token={ORGANISER}")
    tab.get_by_text("no round paired yet").wait_for()
    tab.get_by_test_id("pair").click()
    tab.get_by_test_id("state-4").wait_for()
    names = {p.id: p.name for p in store.players()}
    pairings = store.rounds()[0].pairings
    rows = tab.locator("#tables tr")
    assert rows.count() == 4
    assert rows.nth(0).locator("td").nth(1).inner_text() == names[pairings[0].a]  # players by name
    tab.get_by_test_id("paper-4").click()
    tab.locator("[data-testid=state-4]", has_text="paper").wait_for()
    tab.locator("#minutes").fill("40")
    tab.get_by_test_id("start").click()
    tab.get_by_test_id("left").filter(has_text="left").wait_for()
    assert tab.get_by_test_id("left").inner_text().startswith(("40:00", "39:5"))
    tab.screenshot(path=str(tmp_path / "desk-round-started.png"), full_page=True)

    tokens = {p["id"]: p["link"].split("token=")[1] for p in desk(running)["players"]}
    online = [pid for pid in tokens if pid not in (pairings[3].a, pairings[3].b)]
    mine = tab.context.new_page()  # a player's own link: their name, their game, a link to its table
    mine.goto(f"{running.base}/me?token={tokens[pairings[0].a]}")
    mine.get_by_test_id("next").filter(has_text=f"game 1 against {names[pairings[0].b]}").wait_for()
    assert mine.get_by_test_id("who").inner_text() == names[pairings[0].a]
    assert mine.get_by_role("link", name="play it").get_attribute("href").endswith(f"token={tokens[pairings[0].a]}")
    mine.screenshot(path=str(tmp_path / "me.png"))
    mine.close()
    people = [Player(running, tokens[pid], 7 + i, concede=(1, 2, 3)) for i, pid in enumerate(online)]
    for person in people:
        person.start()
    for table in (1, 2, 3):
        tab.locator(f"[data-testid=state-{table}]", has_text="finished").wait_for(timeout=120_000)
    for person in people:
        person.stop.set()
        person.join(10)
        assert not person.error, person.error

    tab.get_by_test_id("result-4").fill("3-0")  # not a best-of-3 result: refused by name on the page
    tab.get_by_test_id("enter-4").click()
    tab.get_by_test_id("error").filter(has_text="is not a result of a best of 3").wait_for()
    refused = [e for e in page.errors if "status of 400" in e]  # the refusal is a 400, as it should be
    assert len(refused) == 1
    page.errors.remove(refused[0])
    tab.get_by_test_id("result-4").fill("2–1")  # as a phone types it, an en dash: read as 2-1 (R-EVT-16)
    tab.get_by_test_id("enter-4").click()
    tab.locator("[data-testid=state-4]", has_text="finished (paper)").wait_for()
    assert (store.match(1, 4).wins_a, store.match(1, 4).wins_b) == (2, 1)  # type: ignore[union-attr]
    tab.get_by_text("event over").wait_for()  # its only round complete
    assert tab.get_by_test_id("error").is_hidden()
    standings = tab.locator("#standings tr")
    standings.nth(7).wait_for()
    want = [names[s.player] for s in lib.current_standings(store)]
    assert [standings.nth(i).locator("td").nth(1).inner_text() for i in range(8)] == want
    shot = tmp_path / "desk-round-complete.png"
    tab.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    assert verify_event(store.folder).ok

    public = tab.context.new_page()
    public.goto(f"{running.base}/event")
    public.locator("#standings tr").nth(7).wait_for()
    html = public.content()
    assert ORGANISER not in html and not any(t in html for t in tokens.values())
    assert [public.locator("#standings tr").nth(i).locator("td").nth(1).inner_text() for i in range(8)] == want
    public.screenshot(path=str(tmp_path / "public.png"), full_page=True)
    assert not any(t in json.dumps(call(running, "/api/event", token="")[1]) for t in tokens.values())


def test_the_desks_box_takes_id_as_an_intentional_draw_R_EVT_16(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, page: Any
) -> None:
    """A slip's ``ID`` typed in the box of a paper table is recorded 0-0-3 as an intentional draw (R-EVT-10) and the
    desk says so; the box refused it, as the API did, though ``annals event result`` took it."""
    store = new_event(tmp_path / "spring")
    monkeypatch.setenv("ANNALS_ORGANISER_TOKEN", ORGANISER)
    with server(tmp_path / "data", "--event", str(store.folder), "--paper", "2") as running:
        tab = page.page
        tab.goto(f"{running.base}/desk?token={ORGANISER}")
        box = tab.get_by_test_id("result-2")
        assert box.get_attribute("placeholder") == "2-1 or ID"
        box.fill("ID")
        tab.get_by_test_id("enter-2").click()
        tab.locator("[data-testid=state-2]", has_text="finished (paper)").wait_for()
        row = tab.locator("#tables tr").nth(1)
        assert row.locator("td").nth(4).inner_text() == "0-0-3 · intentional draw"
        assert tab.get_by_test_id("error").is_hidden()
        tab.screenshot(path=str(tmp_path / "desk-id.png"), full_page=True)
    m = store.match(1, 2)
    assert m is not None and (m.wins_a, m.wins_b, m.draws, m.ended) == (0, 0, 3, INTENTIONAL_DRAW), m
