"""Real bot games of both rulesets for the board, viewer and browser tests (simulated once per session)."""

from __future__ import annotations

from pathlib import Path

import pytest

from annals.engine.simulate import simulate
from annals.schemas.logfile import GameLog, read_log

GAMES = {"miras9": (3, ["bastion", "tempest"]), "morana": (4, ["clash", "glory"])}


@pytest.fixture(scope="session")
def picture_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    root = tmp_path_factory.mktemp("pictures")
    out: dict[str, list[Path]] = {}
    for ruleset, (games, decks) in GAMES.items():
        list(simulate(ruleset, games, 21, decks, ["heuristic", "random"], root / ruleset))
        out[ruleset] = sorted((root / ruleset).glob("*.log"))
    return out


@pytest.fixture(scope="session")
def picture_db(picture_logs: dict[str, list[Path]], tmp_path_factory: pytest.TempPathFactory) -> Path:
    from annals.ingest.loader import ingest

    path = tmp_path_factory.mktemp("picturedb") / "annals.duckdb"
    ingest([p for paths in picture_logs.values() for p in paths], path, workers=1)
    return path


@pytest.fixture(scope="session")
def games(picture_logs: dict[str, list[Path]]) -> dict[str, list[GameLog]]:
    return {ruleset: [read_log(p) for p in paths] for ruleset, paths in picture_logs.items()}


REVIEWED = (21, 10)  # a MORANA bot game (seed) with marked decisions of both seats, reviewed at this budget


@pytest.fixture(scope="session")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, GameLog]:
    """A MORANA game and its decision review saved beside it (``LOG.review.json``): a second or so."""
    from annals.queries.review import Thresholds, review_game, save_review

    seed, iterations = REVIEWED
    root = tmp_path_factory.mktemp("reviewed")
    list(simulate("morana", 1, seed, ["clash", "glory"], ["heuristic", "random"], root))
    path = sorted(root.glob("*.log"))[0]
    log = read_log(path)
    reviews = review_game(log, iterations=iterations)
    save_review(path, log, reviews, seats=(0, 1), iterations=iterations, thresholds=Thresholds())
    return path, log
