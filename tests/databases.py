"""Shared fixtures: real logs simulated by the engine, and real DuckDB files ingested from them (no mocks)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from annals.engine.simulate import simulate
from annals.ingest.loader import ingest

GAMES = {"cardtoy": (40, ["low", "high"]), "toy": (10, ["pile", "pile"])}


def make_logs(root: Path, *, seed: int = 1, scale: int = 1) -> Path:
    for ruleset, (games, decks) in GAMES.items():
        list(simulate(ruleset, games * scale, seed, decks, ["random", "random"], root / ruleset))
    return root


@pytest.fixture(scope="session")
def logs_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_logs(tmp_path_factory.mktemp("logs"))


@pytest.fixture(scope="session")
def db(logs_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("db") / "annals.duckdb"
    report = ingest([logs_dir], path, workers=1)
    assert report.reconciled and report.games_added == sum(g for g, _ in GAMES.values())
    return path


@pytest.fixture
def logs_copy(logs_dir: Path, tmp_path: Path) -> Path:
    target = tmp_path / "logs"
    shutil.copytree(logs_dir, target)
    return target


REAL_GAMES = {
    "miras9": (4, ["windrunner", "wreckers"]),
    "morana": (4, ["clash", "glory"]),
}  # movement, crews; Blackwake


@pytest.fixture(scope="session")
def real_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A few bot games of each real ruleset (heuristic against random)."""
    root = tmp_path_factory.mktemp("real")
    for ruleset, (games, decks) in REAL_GAMES.items():
        list(simulate(ruleset, games, 11, decks, ["heuristic", "random"], root / ruleset))
    return root


@pytest.fixture(scope="session")
def real_db(real_logs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("realdb") / "annals.duckdb"
    report = ingest([real_logs], path, workers=2, chunk_files=2)
    assert report.reconciled and report.games_added == sum(g for g, _ in REAL_GAMES.values())
    return path
