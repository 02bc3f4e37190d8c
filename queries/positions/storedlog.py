"""A game's log rebuilt from the database, for when the log file is gone: its header from the stored game, its
events by re-running its stored decisions (issue 13: a position saved by game id is checked for stops as one saved
from the log is).

The database keeps each decision's point, the number of options offered and the index chosen, and each event's
kind, turn, step, player and the columns of the record conventions (card, src, dst, holder, value, amount,
target). Re-running the game from its seed and decks with those indexes gives the game's events again (the rules
are deterministic); each one is checked against its stored row, so a game the database cannot give back exactly
is refused by name (``StoredReplayError``), never replaced by another game. The judge's records come back from
``interventions`` (their frames as the log had them), and the closing record as the log had it: the engine's, or
the judge's game loss or override that ended an open game, or the turn cap's. Not kept, so refused: a game continued
from a position (its start position is not stored), one played with cards the engine does not ship (their
definitions are the log header's), and a clock or a forfeit from the table.
"""

from __future__ import annotations

from typing import Any

import duckdb
import msgspec

from annals.engine.core import DecisionPoint, State
from annals.engine.registry import ruleset_for
from annals.engine.runner import Game
from annals.queries.positions import sqlfiles
from annals.schemas.errors import AnnalsError
from annals.schemas.header import (
    JUDGE_REASON_PREFIX,
    TURN_CAP_REASON,
    DeckList,
    LogClose,
    LogHeader,
    PlayerInfo,
    TournamentInfo,
)
from annals.schemas.judge import Intervention
from annals.schemas.logfile import GameLog, JudgeSeen
from annals.schemas.records import Decision

COLUMNS = (
    "turn",
    "step",
    "player",
    "kind",
    "card",
    "src",
    "dst",
    "holder",
    "value",
    "amount",
    "target",
)  # stored_events


class StoredReplayError(AnnalsError, ValueError):
    """A stored game the database cannot give back event for event: its log is needed."""


def _need_log(game_id: str, why: str) -> StoredReplayError:
    return StoredReplayError(f"game {game_id!r}: {why}, which the database does not keep; pass the log's path "
                             "instead of the game id")  # fmt: skip


class _Stored:
    """Every seat's agent: the stored decisions' indexes, each checked against the question asked."""

    def __init__(self, game_id: str, rows: list[tuple[Any, ...]]):
        self.game_id, self.rows, self.i = game_id, rows, 0

    def choose(self, view: object, point: DecisionPoint[Any]) -> Any:
        if self.i >= len(self.rows):
            raise _need_log(self.game_id, f"the re-run asks {point.point!r} after the last stored decision")
        n, _, player, name, offered, chosen = self.rows[self.i]
        self.i += 1
        if (player, name, offered) != (point.player, point.point, len(point.options)):
            raise StoredReplayError(
                f"game {self.game_id!r}: decision {n} is p{player} {name!r} of {offered} options in the database, "
                f"but the re-run asks p{point.player} {point.point!r} of {len(point.options)}; pass the log's path"
            )
        return point.options[chosen]


def stored_log(con: duckdb.DuckDBPyConnection, game_id: str) -> GameLog:
    """The log of stored game ``game_id`` rebuilt (see the module docstring); ``StoredReplayError`` when it cannot
    be, naming why."""
    rows = con.execute(sqlfiles.load("stored_game"), [game_id]).fetchall()
    if not rows:
        raise StoredReplayError(f"no game {game_id!r} in the database; list them with: annals sql 'FROM games'")
    (game, ruleset_name, version, engine, pool, fmt, seed, max_turns, event, rnd, table, match, game_no, branched,
     first, n_events, _) = rows[0]  # fmt: skip
    if branched:
        raise _need_log(game_id, f"it was continued from a position of game {branched!r}")
    players = con.execute(sqlfiles.load("stored_players"), [game]).fetchall()
    cards: list[list[str]] = [[] for _ in players]
    for seat, card in con.execute(sqlfiles.load("stored_deck_cards"), [game]).fetchall():
        cards[seat].append(card)
    tournament = None
    if event is not None:  # the seat agreed to play first is the one that did (R-EVT-02); checked below
        seat = -1 if first is None else first  # MORANA: NULL, no first player (R-EVT-03); the header says -1
        tournament = TournamentInfo(event, rnd or 0, table or 0, match or "", game_no or 1, first_player=seat)
    header = LogHeader(
        format_version=fmt, engine_version=engine, ruleset=ruleset_name, ruleset_version=version,
        card_pool_hash=pool, seed=seed, players=[PlayerInfo(name, agent) for _, name, agent, _, _ in players],
        decks=[DeckList(deck, cards[seat], leader) for seat, _, _, deck, leader in players], tournament=tournament,
        max_turns=max_turns, game_id=game_id,
    )  # fmt: skip
    ruleset = ruleset_for(header)
    if pool not in getattr(ruleset, "card_pool_hashes", lambda: (ruleset.card_pool_hash(),))():
        raise _need_log(game_id, f"it was played with cards not shipped (card pool {pool[:12]}...): their definitions "
                        "are in its log's header")  # fmt: skip
    stored = con.execute(sqlfiles.load("stored_events"), [game]).fetchall()
    agent = _Stored(game_id, con.execute(sqlfiles.load("stored_decisions"), [game]).fetchall())
    events: list[Any] = []
    decisions: list[Decision[Any]] = []
    run = Game(ruleset, header, [agent] * len(players), views=False)
    s = run.state
    while not s.over and s.n < n_events:
        kind = stored[s.n][COLUMNS.index("kind")]
        if kind in ("ClockCharged", "Forfeited"):
            raise _need_log(game_id, f"event {s.n} is a {kind} from the table")
        run.step()
        batch, asked = run.take_batch()
        for e in batch:
            row = dict(zip(COLUMNS, stored[e.n], strict=True)) if e.n < n_events else {}
            if row.get("kind") != type(e).__name__ or any(
                getattr(e, c) != row[c] for c in COLUMNS if c != "kind" and hasattr(e, c) and row[c] is not None
            ):
                want = f"{row['kind']} {row}" if row else "nothing (the game had ended)"
                raise StoredReplayError(f"game {game_id!r}: event {e.n} is {want} in the database, but the re-run "
                                        f"gives {e!r:.200}; pass the log's path")  # fmt: skip
        events.extend(batch)
        decisions.extend(asked)
    if s.n != n_events:
        raise _need_log(game_id, f"the re-run ends after {s.n} of its {n_events} events (a game ended by the table)")
    judged = [JudgeSeen(msgspec.json.decode(data, type=Intervention), frame)
              for frame, data in con.execute(sqlfiles.load("stored_judged"), [game_id]).fetchall()]  # fmt: skip
    return GameLog(header, events, decisions, _close(game_id, header, s, events, decisions, judged), "",
                   judged=judged, format_version=fmt)  # fmt: skip


def _close(
    game_id: str, header: LogHeader, s: State, events: list[Any], decisions: list[Any], judged: list[JudgeSeen]
) -> LogClose:
    """The closing record the log had: the engine's where the game reached its end; else the judge's who ended it
    (the first game loss or override after the last backup: ``engine.judge.intervene`` closes an open game with
    it), or the turn cap's."""
    if s.over:
        return LogClose(s.winner, s.end_reason, len(events), len(decisions), s.turn)
    backups = [i for i, j in enumerate(judged) if j.record.kind == "backup"]
    for seen in judged[backups[-1] + 1 if backups else 0 :]:
        winner = seen.record.result()
        if winner is not None:
            turns = events[-1].turn if events else 0
            return LogClose(winner, f"{JUDGE_REASON_PREFIX}{seen.record.kind}", len(events), len(decisions), turns)
    if header.max_turns and s.turn > header.max_turns:
        return LogClose(-1, TURN_CAP_REASON, len(events), len(decisions), s.turn)
    raise _need_log(game_id, "its re-run stops before the game's end, with no judge's record or turn cap to end it")
