"""The golden games: a few whole games per ruleset, kept as text in this folder and diffed by the tests.

A change that alters any event stream shows up as a diff that must be accepted on purpose: regenerate with
``make golden`` (``python -m tests.golden.regenerate``) and review the diff before committing it.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from annals.engine.registry import get_ruleset, ruleset_names
from annals.engine.simulate import make_header, play_one
from annals.schemas.logfile import read_log
from annals.schemas.text import render_log
from tests import toyrules

toyrules.register()  # ``python -m tests.golden.regenerate`` runs outside pytest's conftest

GOLDEN_DIR = Path(__file__).parent
SEEDS = (1, 2)
TURN_CAP = 40
# Golden games of a chosen pairing besides the first and last deck, by ruleset: (decks, seeds). Miras 9's Ship-Site
# text cards (shipwrights against corsairs); the seeds were picked to show them: 12 a Workship ability, crew
# Manifest, Ship-Site and Unit moves, embarking and Blackwake; 15 a Boarding Hulk contesting the enemy Interior.
SHOWCASE: dict[str, tuple[list[str], tuple[int, ...]]] = {"miras9": (["shipwrights", "corsairs"], (12, 15))}


def golden_games() -> list[tuple[str, int]]:
    return [(name, seed) for name in ruleset_names() for seed in (*SEEDS, *SHOWCASE.get(name, ([], ()))[1])]


def golden_path(name: str, seed: int) -> Path:
    return GOLDEN_DIR / f"{name}-seed{seed}.txt"


def play_golden(name: str, seed: int, path: Path) -> None:
    """Play the golden game (heuristic against random where the ruleset has one), its log written to ``path``."""
    ruleset = get_ruleset(name)
    decks = sorted(ruleset.decks())
    bots = ["heuristic", "random"] if "heuristic" in ruleset.agents() else ["random", "random"]
    shown, seeds = SHOWCASE.get(name, ([], ()))
    pair = shown if seed in seeds else [decks[0], decks[-1]]
    play_one(ruleset, make_header(ruleset, seed, pair, bots, max_turns=TURN_CAP), path)


def render_game(name: str, seed: int) -> str:
    """Play the golden game and render its log."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "golden.log"
        play_golden(name, seed, path)
        return "\n".join(render_log(read_log(path))) + "\n"
