"""The Miras 9 test table lives in the library: ``annals.engine.miras9.builder``."""

from annals.engine.miras9.builder import FILLER, Table

__all__ = ["FILLER", "Table"]
