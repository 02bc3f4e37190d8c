"""The toys' state fields against their domains (``annals.queries.positions.domains``), as a plugin ruleset offers
them: its engine's ``check_position(state, fields)`` (``annals.queries.positions.checks.check_for``)."""

from __future__ import annotations

from typing import Any

from annals.queries.positions.domains import COUNTER_MAX, Fields, bad


def cardtoy(s: Any, f: Fields) -> None:
    f.game_end(s)
    f.player("active", s.active)
    f.one_of("step", s.step, ["setup", "draw", "main", "score", "scored", "end"])
    known = f.cards.__contains__
    for name in ("decks", "hands", "boards", "score"):
        f.length(name, getattr(s, name), 2)
    for p in range(2):
        for name in ("decks", "hands", "boards"):
            f.cards_in(f"{name}[{p}]", getattr(s, name)[p], known)
        f.range(f"score[{p}]", s.score[p], 0, COUNTER_MAX)
    f.as_dealt(s, "power")
    if s.step == "score" and not s.over and not s.boards[s.active]:
        raise bad(f"boards[{s.active}]", [], "the card just played, at step 'score' (or set step to 'draw')")


def toy(s: Any, f: Fields) -> None:
    f.game_end(s)
    f.player("active", s.active)
    f.one_of("step", s.step, ["setup", "take", "end"])
    f.range("pile", s.pile, 1 if s.step == "take" and not s.over else 0, COUNTER_MAX, "the pile")
    if s.taken:
        f.length("taken", s.taken, 2)
    for p, taken in enumerate(s.taken):
        f.range(f"taken[{p}]", taken, 0, COUNTER_MAX)
