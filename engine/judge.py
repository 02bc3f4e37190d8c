"""Judge interventions on a recorded game: records appended to its log, and the game resumed after a backup.

A log is append-only, so a judge never edits one: ``intervene`` and ``backup`` append a judge frame (and, for a
backup, the kept part of the frame it cuts), and ``resume`` plays on from where a log stops, appending the new
frames and a closing record (``resume_table`` gives the live table of it, for ``annals resume``'s seats). When a
key is given the log is re-signed after the judge's frames (a new signature frame); without one a signed log's last
signature no longer covers the whole log, and ``verify`` says so.

A game loss or override on a finished log changes its result as it stands (``GameLog.result``), not its closing
record, which stays what the engine decided; on an unfinished log the judge's record ends the game: a closing
record with the end reason ``judge_<kind>`` follows it.

"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from annals.engine.agents import ScriptedAgent
from annals.engine.core import Agent, DecisionPoint
from annals.engine.names import MAX_CLOCK_S
from annals.engine.registry import get_ruleset
from annals.engine.runner import Game, GameResult, drive
from annals.engine.table import LiveTable, charge_open, clock_trail, open_path, recorded_clocks
from annals.schemas.commandline import quoted
from annals.schemas.errors import AnnalsError, ReplayMismatchError, TruncatedLogError
from annals.schemas.header import LogClose, LogHeader
from annals.schemas.judge import DRAW, KINDS, RESULT_KINDS, Intervention
from annals.schemas.keys import SigningKey
from annals.schemas.logfile import GROUP_BYTES, Batch, LogReader, LogWriter
from annals.schemas.records import TABLE_EVENTS, Decision
from annals.schemas.signing import sign_log

# As much as a seat's whole bank may be: beyond 64 bits the log could not hold it (a traceback writing the record).
MAX_EXTRA_MINUTES = MAX_CLOCK_S // 60


class JudgeError(AnnalsError, ValueError):
    """A judge's record that cannot be applied to this log (unknown kind, no such player or decision, ...)."""


def seat_named(header: LogHeader, who: str) -> int:
    """The seat of the player a judge names: their id in the event or their name as the header records them
    (names without regard to case), the player as people number them (``p0``, ``p1``), or the seat number."""
    text = who.strip()
    seats = len(header.players)
    ids = list(header.tournament.player_ids) if header.tournament is not None else []
    if text in ids:
        return ids.index(text)
    named = [seat for seat, info in enumerate(header.players) if info.name.casefold() == text.casefold()]
    if len(named) == 1:
        return named[0]
    number = text[1:] if text[:1] in ("p", "P") else text
    if number.isdigit() and int(number) < seats:
        return int(number)
    if len(named) > 1:
        raise JudgeError(f"{who!r} names {len(named)} players of this game; give the seat (p0 or p1) or the id")
    known = ", ".join(f"{info.name!r}" + (f" (id {ids[seat]})" if seat < len(ids) else "")
                      for seat, info in enumerate(header.players))  # fmt: skip
    raise JudgeError(f"no player {who!r} in this game; name one of {known}, or give the seat p0 to p{seats - 1}")


def people(header: LogHeader) -> list[str]:
    """Each seat's player as a judge's output names them: the name, and the seat (``Ann (p1)``)."""
    return [f"{info.name} (p{seat})" for seat, info in enumerate(header.players)]


class Amended(msgspec.Struct, frozen=True):
    """What a judge's command did to a log."""

    record: Intervention
    closed: bool  # a closing record was appended (a game loss or override on an unfinished game)
    was_signed: bool  # the log carried a signature before
    signed: bool  # the log was re-signed after the judge's frames


class SoFar(msgspec.Struct):
    """A log's game as it stands, read to its end whether or not it is finished."""

    header: LogHeader
    batches: list[Batch]
    close: LogClose | None
    signed: bool
    judged: list[tuple[int, Intervention]] = []  # each judge frame's index and record

    @property
    def events(self) -> list[Any]:
        return [e for b in self.batches for e in b.events]

    @property
    def decisions(self) -> list[Decision[Any]]:
        return [d for b in self.batches for d in b.decisions]


def so_far(path: Path) -> SoFar:
    """Read and verify ``path`` to its end; a log without a closing record (in progress, or backed up) is fine,
    a torn one is not."""
    with LogReader(path) as reader:
        batches: list[Batch] = []
        try:
            batches.extend(reader.batches())
        except TruncatedLogError as exc:
            if not exc.reason.startswith("log is truncated: no closing record"):
                # A crash mid-write tears the last frame: what came before is whole, and play goes on from it
                # once the unreadable tail is cut, which nothing here does without being asked.
                hint = f"to go on from the last whole frame, cut the torn tail first: truncate -s {exc.offset} {path}"
                at, frame = exc.offset or 0, exc.frame or 0
                reason = f"{exc.reason}; {hint}"
                raise TruncatedLogError(
                    exc.path, reason, frame=frame, offset=at, complete_frames=exc.complete_frames
                ) from None
        judged = [(j.frame, j.record) for j in reader.judged]
        return SoFar(reader.header, batches, reader.close_record, bool(reader.signatures), judged)


def _check(record: Intervention, game: SoFar) -> None:
    players = len(game.header.players)
    if record.kind not in KINDS:
        raise JudgeError(f"unknown intervention {record.kind!r}; choose one of: {', '.join(KINDS)}")
    if not record.judge.strip():
        raise JudgeError("a judge's record names the judge: give --judge NAME")
    if record.kind in ("warning", "game_loss") and not 0 <= record.player < players:
        raise JudgeError(f"a {record.kind} is given to a player: --player 0 to {players - 1}")
    if record.kind in ("warning", "game_loss", "override") and not record.reason.strip():
        raise JudgeError(f"a {record.kind} states its reason: give --reason TEXT")
    if record.kind == "note" and not record.note.strip():
        raise JudgeError("a note has text: give --note TEXT")
    if record.kind == "extra_time" and not 0 < record.minutes <= MAX_EXTRA_MINUTES:
        raise JudgeError(
            f"extra time is a positive number of minutes up to {MAX_EXTRA_MINUTES} (a day), not {record.minutes}"
        )
    if record.kind == "override" and not DRAW <= record.winner < players:
        raise JudgeError(f"an override sets the winner to a player 0 to {players - 1}, or -1 for a draw")


def _sign_after(path: Path, key: SigningKey | None) -> bool:
    sign_log(path, key)
    return key is not None


def intervene(path: Path, record: Intervention, *, key: SigningKey | None = None) -> Amended:
    """Append a warning, game loss, note, extra-time award or result override to the log at ``path``.

    ``record.at_event`` is set to the number of events the game has. A game loss or override on an unfinished
    game also closes it. With ``key``, the log is re-signed afterwards."""
    if record.kind == "backup":
        raise JudgeError("a backup names a decision: use backup(path, to_decision, ...)")
    game = so_far(path)
    _check(record, game)
    events, decisions = game.events, game.decisions
    record = msgspec.structs.replace(record, at_event=len(events))
    writer = LogWriter.reopen(path)
    writer.write_judge(record)
    closed = False
    if record.kind in RESULT_KINDS and game.close is None:
        winner = record.result()
        assert winner is not None
        turns = events[-1].turn if events else 0
        writer.close(LogClose(winner, f"judge_{record.kind}", len(events), len(decisions), turns))
        closed = True
    else:
        writer.finish()
    return Amended(record, closed, game.signed, _sign_after(path, key))


def backup(
    path: Path,
    to_decision: int,
    judge: str,
    *,
    reason: str = "",
    note: str = "",
    time: str = "",
    key: SigningKey | None = None,
) -> Amended:
    """Roll the game back to where decision ``to_decision`` was asked; every later event and decision stays in
    the log as the abandoned branch. The game then goes on with ``resume``."""
    game = so_far(path)
    decisions = game.decisions
    if not 0 <= to_decision < len(decisions):
        raise JudgeError(
            f"decision {to_decision} is not in this game, which has decisions 0 to {len(decisions) - 1}; "
            "list them with: annals show LOG --numbered"
        )
    at = decisions[to_decision].at
    cut = next(
        b for b in game.batches if any(d.n >= to_decision for d in b.decisions) or any(e.n >= at for e in b.events)
    )
    record = Intervention(
        "backup", judge, reason=reason, note=note, to_decision=to_decision, events=at, from_frame=cut.index,
        at_event=len(game.events), time=time,
    )  # fmt: skip
    _check(record, game)
    writer = LogWriter.reopen(path)
    writer.write_judge(record)
    kept_events = [e for e in cut.events if e.n < at]
    kept_decisions = [d for d in cut.decisions if d.n < to_decision]
    if kept_events or kept_decisions:
        writer.write_batch(kept_events, kept_decisions)
    writer.finish()
    return Amended(record, False, game.signed, _sign_after(path, key))


class _Resumed:
    """A seat that first answers with the decisions the log holds, then hands over to its agent."""

    def __init__(self, script: list[Decision[Any]], agent: Agent):
        self._script = ScriptedAgent(script)
        self.left = len(script)
        self.agent = agent
        if hasattr(agent, "observe"):
            self.observe = agent.observe

    def choose(self, view: Any, point: DecisionPoint[Any]) -> Any:
        if self.left:
            self.left -= 1
            return self._script.choose(view, point)
        return self.agent.choose(view, point)  # its seat's view (``SeatView``), never the state


def _rerun(path: Path, agents: Sequence[Agent] | None) -> tuple[Game, SoFar]:
    """The game of a log that stops before its end, re-run from its header and the decisions it holds (each
    event compared; the table's own events, the clock and forfeits, taken as written). ``agents`` play on after
    the script (None: a table's seats will, ``resume_table``)."""
    game = so_far(path)
    if game.close is not None:
        raise JudgeError(f"{path} holds a finished game; back it up first: annals judge backup {quoted(path)} --to N")
    header, events, decisions = game.header, game.events, game.decisions
    ruleset = get_ruleset(header.ruleset)
    if agents is not None and len(agents) != len(header.players):
        raise JudgeError(f"the game has {len(header.players)} seats; give an agent for each")
    scripts = [[d for d in decisions if d.player == p] for p in range(len(header.players))]
    if agents is None:
        running = Game(ruleset, header, [ScriptedAgent(script) for script in scripts], views=False)
    else:
        seats = [_Resumed(script, agent) for script, agent in zip(scripts, agents, strict=True)]
        running = Game(ruleset, header, seats)
    while not running.state.over and (running.decision_count < len(decisions) or running.state.n < len(events)):
        n = running.state.n
        if n < len(events) and type(events[n]) in TABLE_EVENTS:
            running.emit(events[n])
            continue
        point = ruleset.pending(running.state)
        if point is not None and running.decision_count >= len(decisions):
            raise ReplayMismatchError(
                f"re-running {path} asks decision {running.decision_count} at event {running.state.n}, before the "
                f"{len(events)} events the log holds: the log does not replay"
            )
        running.step()
    replayed, _ = running.take_batch()
    if replayed != events:
        first = next((i for i, (a, b) in enumerate(zip(replayed, events, strict=False)) if a != b), len(replayed))
        raise ReplayMismatchError(f"re-running {path} differs from its log at event {first}: the log does not replay")
    return running, game


def resume(path: Path, agents: Sequence[Agent], *, live: bool = True, key: SigningKey | None = None) -> GameResult:
    """Play on a game whose log stops before its end (backed up by a judge, or cut by a crash), with ``agents``
    in the seats; the new frames and the closing record are appended to the log, which is signed with ``key``.

    The game is first re-run from its header and the decisions the log holds (each event compared), which also
    brings the engine's generator to where it was."""
    running, game = _rerun(path, agents)
    writer = LogWriter.reopen(path, group_bytes=0 if live else GROUP_BYTES)
    result = drive(running, writer, live=live, events=len(game.events), decisions=len(game.decisions))
    sign_log(path, key)
    return result


def resume_table(path: Path) -> LiveTable:
    """The live table of a game whose log stops before its end, re-run as ``resume`` does, appending to the same
    log (its judge's frames and abandoned branches stay): ``annals resume`` seats people, programs or bots at it
    (``players.run_table``). Each seat is told the game so far (``LiveTable.replayed``)."""
    running, game = _rerun(path, None)
    writer = LogWriter.reopen(path, group_bytes=0)
    trail = clock_trail([(b.index, b.events) for b in game.batches], game.judged)
    bank_ms, clock = recorded_clocks(trail, len(game.header.players))  # as last recorded, with any extra time
    ruleset = get_ruleset(game.header.ruleset)
    charged: list[Any] = []
    if charge_open(ruleset, running, path, bank_ms, clock):  # the time a question was open before a crash
        charged, _ = running.take_batch()
        writer.write_batch(charged, [])
    open_path(path).unlink(missing_ok=True)  # charged (and on disk), or of no question here: not charged again
    return LiveTable(ruleset, game.header, path, bank_ms=bank_ms, _game=running, _clock=clock, _writer=writer,
                     _replayed=game.events + charged, _replayed_decisions=game.decisions)  # fmt: skip
