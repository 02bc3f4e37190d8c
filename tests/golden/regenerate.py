"""Rewrite every golden game file (``make golden``); review ``git diff tests/golden`` before committing."""

from __future__ import annotations

from tests.golden.games import golden_games, golden_path, render_game


def main() -> None:
    for name, seed in golden_games():
        path = golden_path(name, seed)
        path.write_text(render_game(name, seed))
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
