"""A judge's act on an event's game: the event it belongs to, its key, and its match restated from the logs.

A game of an event lives under the event's folder (``logs/round-NN/table-NNN-game-G.log``, ``annals event new``
made the folder and its key). ``event_of`` finds that folder from the log itself, so a judge's command signs with
the event's key without being told where it is; ``restate_match`` reads the match's games again, each with its
result as it stands (``GameLog.result``: a judge's game loss or override counts), and writes the match file anew,
so the match, the standings and the placings follow (R-EVT-07).
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from annals.engine.tournament.event import current_standings
from annals.engine.tournament.store import EVENT_FILE, EventStore
from annals.schemas.event import TOP, MatchRecord
from annals.schemas.header import LogHeader
from annals.schemas.keys import EVENT_KEY_NAME
from annals.schemas.logfile import read_log


def event_of(log: Path, header: LogHeader) -> EventStore | None:
    """The event folder holding ``log`` (its nearest parent with an event's configuration and key) when the log's
    header names that event; None for a game of no event, or a log outside its event's folder."""
    if header.tournament is None or not header.tournament.event:
        return None
    for folder in Path(log).resolve().parents:
        if (folder / EVENT_FILE).is_file() and (folder / EVENT_KEY_NAME).is_file():
            store = EventStore(folder)
            return store if store.config().event_id == header.tournament.event else None
    return None


def _match_of(store: EventStore, log: Path) -> MatchRecord | None:
    rel = str(Path(log).resolve().relative_to(store.folder.resolve()))
    return next((m for m in store.matches() if any(g.log == rel for g in m.games)), None)


def restate_match(store: EventStore, log: Path) -> MatchRecord | None:
    """Read again every game of the match ``log`` belongs to, with its result as it stands, and write the match
    file anew (R-EVT-07): game wins, the winner and how it ended follow a judge's game loss or override. None when
    the match is not recorded yet (``event run`` reads the results as they stand when it records it)."""
    record = _match_of(store, log)
    if record is None:
        return None
    games, wins, draws = [], {record.a: 0, record.b: 0}, 0
    for game in record.games:
        played = read_log(store.folder / game.log)
        seat, reason = played.result
        winner = game.seats[seat] if seat >= 0 else ""
        if winner:
            wins[winner] += 1
        else:
            draws += 1
        games.append(msgspec.structs.replace(game, winner=winner, end_reason=reason, digest=played.digest))
    need = store.config().best_of // 2 + 1
    a, b = record.a, record.b
    if wins[a] != wins[b]:
        winner = a if wins[a] > wins[b] else b
        ended = "games" if max(wins.values()) >= need else "time"
    elif record.stage == TOP:  # level: the higher Swiss seed advances (R-EVT-04)
        seeds = {s.player: s.rank for s in current_standings(store)}
        winner, ended = (a if seeds.get(a, 0) <= seeds.get(b, 0) else b), "seed"
    else:
        winner, ended = "", "time"
    restated = msgspec.structs.replace(
        record, games=games, wins_a=wins[a], wins_b=wins[b], draws=draws, winner=winner, ended=ended
    )
    if restated != record:
        store.save_match(restated, replace=True)
    return restated
