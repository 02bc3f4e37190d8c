"""A judge's act on an event's game: the event it belongs to, its key, and its match restated from the logs.

A game of an event lives under the event's folder (``logs/round-NN/table-NNN-game-G.log``, ``annals event new``
made the folder and its key). ``event_of`` finds that folder from the log itself, so a judge's command signs with
the event's key without being told where it is; ``restate_match`` reads the match's games again, each with its
result as it stands (``GameLog.result``: a judge's game loss or override counts), and records them in the event's
record as a ``Restated`` act, so the match, the standings and the placings, all folded from the record, follow
(R-EVT-07).
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from annals.engine.tournament.event import effective, state_standings
from annals.engine.tournament.record import EventError
from annals.engine.tournament.store import EVENT_FILE, EventStore, now
from annals.schemas.event import TOP, MatchRecord, Outcome, Restated
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


def restate_match(store: EventStore, log: Path) -> MatchRecord | None:
    """Read again every game of the match ``log`` belongs to, with its result as it stands, and record the match's
    games and result anew (a ``Restated`` act, R-EVT-07) when a game changed: game wins, the winner and how it
    ended follow a judge's game loss or override, or a game played on after a backup. The judge and the reason are
    those of ``log``'s last judge's record that changes a result. None when the match has no result yet (``event run``
    reads the results as they stand when it reports it). A cut match whose winner the next cut round was paired
    from keeps its result: refused, as a correction would be."""
    rel = str(Path(log).resolve().relative_to(store.folder.resolve()))
    with store.acting() as act:
        state = act.state
        found = next((key for key, m in state.results.items() if any(g.log == rel for g in m.current.games)), None)
        if found is None:
            return None
        number, table = found
        before = state.match(number, table)
        current = state.results[found].current
        pairing = state.pairing(number, table)
        games, wins, draws, judged = [], {pairing.a: 0, pairing.b: 0}, 0, []
        for game in current.games:
            played = read_log(store.folder / game.log)
            seat, reason = played.result
            winner = game.seats[seat] if seat >= 0 else ""
            if winner:
                wins[winner] += 1
            else:
                draws += 1
            games.append(msgspec.structs.replace(game, winner=winner, end_reason=reason, digest=played.digest))
            if game.log == rel:  # the game the judge acted on: their record names the judge and the reason
                judged = [(game.number, j.record) for j in played.judged if j.record.result() is not None]
        if games == current.games:
            return before
        a, b = pairing.a, pairing.b
        stage = state.rounds[number - 1].round.stage
        advanced = ""
        if wins[a] != wins[b]:
            ended = "games" if max(wins.values()) >= state.config.best_of // 2 + 1 else "time"
        elif stage == TOP:  # level: the higher Swiss seed advances (R-EVT-04)
            seeds = {s.player: s.rank for s in state_standings(state)}
            advanced, ended = (a if seeds.get(a, 0) <= seeds.get(b, 0) else b), "seed"
        else:
            ended = "time"
        judge, why = "", "a game played on from its log"
        if judged:
            n, record = judged[-1]
            judge = record.judge
            why = f"{record.kind.replace('_', ' ')} in game {n}" + (f": {record.reason}" if record.reason else "")
        restated = Restated(at=now(), round=number, table=table, outcome=Outcome(wins[a], wins[b], draws),
                            games=games, ended=ended, advanced=advanced, judge=judge, reason=why)  # fmt: skip
        act.record(restated)
        after = act.state.match(number, table)
        assert before is not None and after is not None
        if stage == TOP and len(state.rounds) > number and effective(after).winner != effective(before).winner:
            raise EventError(f"round {number + 1} is paired from round {number} table {table}'s winner: its result "
                             "stands (the judge's record stays in the game's log)")  # fmt: skip
    return after
