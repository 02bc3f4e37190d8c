"""How many examples a fuzz test runs: a few dozen by default (the suite stays within its time budget), thousands
with ``--soak`` (``tests/conftest.py`` sets ``ANNALS_SOAK``); and a bound on the memory one parse may take."""

from __future__ import annotations

import os
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from hypothesis import HealthCheck, settings

SOAK_VARIABLE = "ANNALS_SOAK"
T = TypeVar("T")


def soaking() -> bool:
    return os.environ.get(SOAK_VARIABLE) == "1"


def fuzz_settings(default: int = 40, soak: int = 3000) -> settings:
    """Hypothesis settings for a fuzz test: ``default`` examples, ``soak`` under ``--soak``."""
    return settings(
        max_examples=soak if soaking() else default,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large],
    )


@contextmanager
def memory_bound(limit: int) -> Iterator[None]:
    """Fail when the block allocated more than ``limit`` bytes at its peak (``tracemalloc``: Python's own heap)."""
    tracemalloc.start()
    try:
        yield
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak <= limit, f"peak {peak:,} bytes, more than {limit:,}"


def named_or_value(read: Callable[[], T], named: tuple[type[BaseException], ...]) -> T | BaseException:
    """What ``read`` gives, or the named error it raised; any other exception fails the test with it."""
    try:
        return read()
    except named as exc:
        assert str(exc) and "\n" not in str(exc).strip(), f"not one line: {exc!r}"
        return exc
