"""The event the lake tests share: a small MORANA Swiss event with a top cut, played by bots."""

from __future__ import annotations

from pathlib import Path

import pytest

from annals.engine.tournament import event as lib
from annals.engine.tournament import play, rounds
from annals.engine.tournament.store import EventStore
from annals.schemas.event import Outcome


@pytest.fixture(scope="session")
def event_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Five bots (odd: a bye each round), two Swiss rounds of best-of-one, a top 2, the final's result then
    corrected by a judge (a match override among the judge's records): every tournament table filled."""
    folder = tmp_path_factory.mktemp("lake-event") / "event"
    lib.new_event(folder, "lake", "morana", rounds=2, best_of=1, top=2, seed=5)
    store = EventStore.open(folder)
    lib.fill_with_bots(store, 5)
    play.run_event(store)
    last = len(store.rounds())
    final = next(m for m in store.matches() if m.round == last and m.b)
    a_won = final.wins_a > final.wins_b
    corrected = Outcome(int(not a_won), int(a_won), 0)
    rounds.correct(store, last, final.table, corrected, judge="R. Vance", reason="slow play")
    return folder
