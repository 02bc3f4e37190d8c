"""An event's standings and placings as frames, for printing and export (from the event folder itself)."""

from __future__ import annotations

import polars as pl

from annals.engine.tournament.event import current_standings, placings
from annals.engine.tournament.store import EventStore


def standings_frame(store: EventStore) -> pl.DataFrame:
    """The Swiss standings: rank, player, match points, record and the three tiebreakers (percent, 2 places)."""
    names = {p.id: p for p in store.players()}
    rows = current_standings(store)
    return pl.DataFrame(
        {
            "rank": [s.rank for s in rows],
            "player": [s.player for s in rows],
            "name": [names[s.player].name for s in rows],
            "deck": [names[s.player].deck.name for s in rows],
            "points": [s.points for s in rows],
            "record": [f"{s.wins}-{s.losses}-{s.draws}" for s in rows],
            "omw_pct": [round(100 * s.omw, 2) for s in rows],
            "gw_pct": [round(100 * s.gw, 2) for s in rows],
            "ogw_pct": [round(100 * s.ogw, 2) for s in rows],
            "dropped": [names[s.player].dropped_after >= 0 for s in rows],
        },
        schema_overrides={"rank": pl.Int32, "points": pl.Int32},
    )


def placings_frame(store: EventStore) -> pl.DataFrame:
    names = {p.id: p for p in store.players()}
    rows = placings(store)
    return pl.DataFrame(
        {
            "place": [place for place, _ in rows],
            "player": [p for _, p in rows],
            "name": [names[p].name for _, p in rows],
            "deck": [names[p].deck.name for _, p in rows],
        },
        schema_overrides={"place": pl.Int32},
    )
