"""Printable pages of an event (placeholder, filled below)."""

from __future__ import annotations

from annals.engine.tournament.store import EventStore

PAGES = ("wall", "tables", "slips", "standings")


def page_html(store: EventStore, page: str, number: int | None = None) -> str:
    raise NotImplementedError(page)
