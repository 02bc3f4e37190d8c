"""Small builders the foundation tests share: a real toy game log on disk."""

from __future__ import annotations

from pathlib import Path

from annals.engine.registry import get_ruleset
from annals.engine.runner import GameResult, play
from annals.engine.simulate import bots_for, make_header
from annals.schemas.header import LogHeader


def toy_header(seed: int = 1) -> LogHeader:
    """A valid toy header (two seats, its derived game id), for logs written by hand."""
    return make_header(get_ruleset("toy"), seed, ["pile", "pile"], ["random", "random"])


def toy_log(directory: Path, seed: int = 1, name: str = "game.log") -> tuple[Path, GameResult]:
    """A toy game recorded live, so that every decision closes a frame: a small log with many frames."""
    ruleset = get_ruleset("toy")
    header = make_header(ruleset, seed, ["pile", "pile"], ["random", "random"])
    path = directory / name
    return path, play(ruleset, header, bots_for(ruleset, header), path, live=True)
