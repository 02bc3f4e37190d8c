"""The names of ``queries`` that the command line lists in its help: output formats, export views and the default
minimum sample. Here, importing nothing, so that building ``annals --help`` (typer evaluates every option's help
text) loads no DuckDB or polars; the modules that use them import them from here. The reports themselves are
described, as light, in ``queries.reports.specs``."""

from __future__ import annotations

from typing import Final

FORMATS: Final = ("table", "csv", "json", "parquet")
MIN_GAMES: Final = 30  # a report hides rows with fewer games unless told otherwise
EXPORT_VIEWS: Final = ("omniscient", "spectator")
