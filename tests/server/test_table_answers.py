"""Three things a person meets at the table, in a real browser (Debian's chromium, Playwright): a question whose
options are all copies of one choice is answered for them (ruling R-CORE-11), Miras 9's starting Sites are named
where the lane is chosen, and keeping the opening hand asks no "Sure?" (taking a mulligan still does); a real
mouse click on a lane's heading picks the lane."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from annals.schemas import protocol as p
from tests.queries.pictures.browser import ARTIFACTS, CHROMIUM
from tests.serverkit import Running, server

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium (.ci/run installs it)")
KIKIMORA = "Commit Kikimora at Site 1"


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with server(tmp_path_factory.mktemp("answers")) as s:
        yield s


def _frames(page: Any) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.extend(
        json.loads(line) for line in str(f).splitlines() if line)))  # fmt: skip
    return frames


def _copies_table(page: Any, sent: list[dict[str, Any]]) -> None:
    """The table's socket played by the test: a MORANA hello, then one decide whose two options are copies of
    Kikimora (the second ``same_as`` the first), as the table sends them [MOR-35]; what the page sends is kept."""
    hello = p.Hello(p.PROTOCOL_VERSION, "g-copies", "morana", "1", 0,
                    [p.Player(0, "Ann", "human", "clash", "", 30), p.Player(1, "Bo", "heuristic", "glory", "", 30)],
                    [], [p.Card(1000, "kikimora", "Kikimora", ""), p.Card(1001, "kikimora", "Kikimora", "")],
                    [0, 0], 0)  # fmt: skip
    options = [
        p.Option(0, "Place", {"card": 1000, "site": 1}, KIKIMORA, card=1000, where="site:1"),
        p.Option(1, "Place", {"card": 1001, "site": 1}, KIKIMORA, card=1001, where="site:1", same_as=0),
    ]
    decide = p.Decide(7, 0, "commit", options, [0, 0], "Commit a card")

    def table(ws: Any) -> None:
        ws.on_message(lambda m: sent.append(json.loads(m)))
        ws.send("\n".join(p.encode(m).decode() for m in (hello, decide)))

    page.route_web_socket("**/ws/**", table)


@pytest.mark.parametrize("automatic", [True, False])
def test_a_question_of_copies_alone_is_answered_for_the_person(running: Running, browser: Any, automatic: bool) -> None:
    """[MOR-15] [MOR-35] Two copies of Kikimora, nothing else: one answer. With lone answers on, the page sends the
    first copy without a click and says so in the log; with them off it asks, as it asks a lone question."""
    table = running.table("morana", ["clash", "glory"], ["human", "heuristic"], cover_ms=40)
    page = browser.new_page()
    stored = json.dumps({"automatic": automatic, "auto_pass": True, "stops": []})
    page.add_init_script(f"localStorage.setItem('annals-settings', {json.dumps(stored)})")
    sent: list[dict[str, Any]] = []
    _copies_table(page, sent)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{running.base}/play/{table['table']}?token={table['tokens'][0]}")
    if automatic:
        # answered after a cover delay, the question line saying so (not "sent…": the person sent nothing)
        page.wait_for_function("document.querySelector('#question').textContent.endsWith('answered for you (copies "
                               "of one card)')", timeout=5000)  # fmt: skip
        for _ in range(50):
            if sent:
                break
            page.wait_for_timeout(100)
        assert sent[-1] == {"type": "answer", "choose": 0, "decision": 7}, sent
        assert page.locator(f"#log li.auto:has-text('Answered for you: {KIKIMORA}')").count() == 1
        assert page.evaluate("document.body.dataset.asked") is None  # never put to the person
    else:
        page.wait_for_selector("body[data-asked='1']", timeout=5000)
        assert [t.strip() for t in page.locator("#options button").all_text_contents()] == [KIKIMORA]
        page.wait_for_timeout(1800)  # past the longest cover delay: nothing is sent for the person
        assert not [m for m in sent if m.get("type") == "answer"], sent
    assert errors == []
    page.close()


def test_the_starting_sites_are_named_where_the_lane_is_chosen_and_keeping_asks_nothing(
    running: Running, browser: Any
) -> None:
    """[M9-020] The first question names the Sites on offer above the board, each with its text on hover, before
    any lane is clicked. [M9-021] Keeping the opening hand is sent at the first click, no "Sure?"; taking a
    mulligan (the hand shuffled away for good) is still flagged to confirm."""
    table = running.table("miras9", ["vanguard", "tempest"], ["human", "heuristic"], cover_ms=40, seed=23)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    frames = _frames(page)
    dialogs: list[str] = []

    def dialog(d: Any) -> None:
        dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", dialog)
    page.goto(f"{running.base}/play/{table['table']}?token={table['tokens'][0]}")
    page.wait_for_selector("body[data-asked='1']", timeout=20000)
    first = next(m for m in frames if m["type"] == "decide")
    assert first["point"] == "starting_site"
    names = {o["text"].removeprefix("Start with ").split(" in the ")[0] for o in first["options"]}
    offered = page.locator("#offer:not([hidden]) button.offered")
    assert sorted(offered.all_text_contents()) == sorted(names), (offered.all_text_contents(), names)
    offered.first.hover()
    tip = page.locator("#tip:not([hidden])")
    assert tip.locator("strong").inner_text() == offered.first.inner_text()
    assert tip.locator("div").inner_text().strip()  # the card's text, as a card in hand shows it
    # the text shows below the name, not over the next name in the row
    shown, following = tip.bounding_box(), offered.nth(1).bounding_box()
    assert shown is not None and following is not None
    across = shown["x"] < following["x"] + following["width"] and following["x"] < shown["x"] + shown["width"]
    down = shown["y"] < following["y"] + following["height"] and following["y"] < shown["y"] + shown["height"]
    assert not (across and down), (shown, following)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "board-miras9-starting-sites.png"), full_page=True)
    page.locator("#board [data-pick]").first.dispatch_event("click")
    chooser = page.locator("#chooser:not([hidden]) button")
    if chooser.count():
        chooser.first.click()
    page.wait_for_selector("#actions button:has-text('Keep this hand')", timeout=20000)
    mulligan = next(m for m in reversed(frames) if m["type"] == "decide" and m["point"] == "mulligan")
    flags = {o["text"]: o["confirm"] for o in mulligan["options"]}
    assert flags == {"Keep this hand": False, "Take a mulligan": True}, flags
    page.screenshot(path=str(ARTIFACTS / "board-miras9-mulligan.png"), full_page=True)
    page.locator("#actions button:has-text('Keep this hand')").click()
    page.wait_for_selector("#log li:has-text('keeps the opening hand')", timeout=10000)
    assert dialogs == []
    page.close()


def test_a_mouse_click_on_a_lanes_heading_picks_the_lane(running: Running, browser: Any) -> None:
    """[M9-020] [M9-025] The heading drawn over a lane ("EXTERIOR") took the click for itself: a person clicking
    the word saw nothing happen (the other tests dispatch their clicks to the lane's shape)."""
    table = running.table("miras9", ["vanguard", "tempest"], ["human", "heuristic"], cover_ms=40, seed=23)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{running.base}/play/{table['table']}?token={table['tokens'][0]}")
    page.wait_for_selector("body[data-asked='1']", timeout=20000)
    lanes = page.locator("#board [data-pick][data-lane]")
    assert lanes.count(), "the starting Site's question offers lanes on the board"
    lane = lanes.first.get_attribute("data-lane") or ""
    heading = page.locator("#board svg text", has_text=lane.upper()).first
    box = heading.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # a person's click, on the word
    chooser = page.locator("#chooser:not([hidden]) button")
    page.wait_for_function(
        "document.querySelector('#chooser:not([hidden]) button') !== null"
        " || document.querySelector('#question').innerText.startsWith('sent')",
        timeout=5000,
    )
    if chooser.count():  # the lane picked: its Sites to choose from, each in that lane
        said = chooser.all_text_contents()
        assert all(lane.capitalize() in t for t in said), said
    page.close()
