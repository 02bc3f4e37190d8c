"""The names of ``queries`` that the command line lists in its help: output formats, reports, export views and the
default minimum sample. Here, importing nothing, so that building ``annals --help`` (typer evaluates every option's
help text) loads no DuckDB or polars; the modules that use them import them from here.

``REPORT_NAMES`` is the order of ``queries.reports.run.REPORTS`` (a test holds them equal)."""

from __future__ import annotations

from typing import Final

FORMATS: Final = ("table", "csv", "json", "parquet")
MIN_GAMES: Final = 30  # a report hides rows with fewer games unless told otherwise
EXPORT_VIEWS: Final = ("omniscient", "spectator")
REPORT_NAMES: Final = (
    "card_winrate", "card_metrics", "card_turns", "first_player", "deck_matrix", "game_length", "decision_choices",
    "damage_payments", "stack_depth", "manifest_pressure", "slava_curves", "site_control", "site_order",
    "reborn_timing", "offboard_cap", "initiative", "mulligan", "metagame", "event_decks", "event_standings",
)  # fmt: skip
