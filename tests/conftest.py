"""Shared test options: ``--soak`` turns on the long property runs marked ``soak``."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from tests import toyrules
from tests.databases import db, logs_copy, logs_dir, real_db, real_logs  # noqa: F401 - real logs and DuckDB files
from tests.fuzzing import SOAK_VARIABLE
from tests.queries.pictures.browser import browser, page  # noqa: F401 - one Playwright and chromium for the session

# The toy rulesets are test fixtures, not part of annals: registered here as a plugin ruleset would be.
toyrules.register()

# No per-example deadline: a loaded 2-core CI machine must not turn a slow example into a failure. On CI the
# examples are derandomized, so a red run can be reproduced exactly; locally each run explores new ones.
settings.register_profile("annals", deadline=None, derandomize=bool(os.environ.get("CI")))
settings.load_profile("annals")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--soak", action="store_true", default=False, help="run the long soak tests too")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--soak", default=False):
        os.environ[SOAK_VARIABLE] = "1"  # read by ``fuzz_examples`` as the fuzz tests' modules load


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--soak"):
        return
    skip = pytest.mark.skip(reason="soak test: run with --soak (make soak)")
    for item in items:
        if "soak" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def annals_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> os.PathLike[str]:
    """Every test's default output folder (``ANNALS_HOME``) is a fresh temporary one, never the user's."""
    home = tmp_path_factory.mktemp("annals-home")
    monkeypatch.setenv("ANNALS_HOME", str(home))
    return home
