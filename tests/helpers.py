"""Small builders the foundation tests share: a real toy game log on disk."""

from __future__ import annotations

from pathlib import Path

from engine.registry import get_ruleset
from engine.runner import GameResult
from engine.simulate import make_header, play_one


def toy_log(directory: Path, seed: int = 1, name: str = "game.log") -> tuple[Path, GameResult]:
    ruleset = get_ruleset("toy")
    header = make_header(ruleset, seed, ["pile", "pile"], ["random", "random"])
    path = directory / name
    return path, play_one(ruleset, header, path)
