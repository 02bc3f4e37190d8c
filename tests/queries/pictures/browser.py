"""Headless Chromium for the page tests: Debian's /usr/bin/chromium driven by Playwright (nothing downloads a
browser), one browser per session, a fresh page per test that records console errors and uncaught exceptions.

Screenshots go to ``test-artifacts/pictures/`` at the top of the checkout (gitignored), or to
``$ANNALS_ARTIFACTS`` when set.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TOP = Path(__file__).resolve().parents[3]
ARTIFACTS = Path(os.environ.get("ANNALS_ARTIFACTS", TOP / "test-artifacts")) / "pictures"


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium; .ci/run does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


class Page:
    """A page and the errors it reported."""

    def __init__(self, page: Any):
        self.page = page
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))

    def shot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / name
        self.page.screenshot(path=str(path), full_page=False)
        return path


@pytest.fixture
def page(browser: Any) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1600, "height": 1000})
    p = Page(context.new_page())
    yield p
    context.close()
    assert not p.errors, p.errors
