"""The MORANA position builder lives in the library: ``annals.engine.morana.builder``."""

from annals.engine.morana.builder import ZONES, Table, build

__all__ = ["ZONES", "Table", "build"]
