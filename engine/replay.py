"""Re-running a log: its header and recorded decisions must reproduce its events, and its closing record, exactly.

``verify`` (``verify_log``) reads a log (checksums, chain and ``schemas.validate``: integrity and consistency),
then ``rerun`` plays the game again with this engine from the header, answering each question the rules ask
with the next recorded decision. It proves:

* the header is one this engine re-runs: its engine version, ruleset version and card-pool hash are this
  engine's (the format version and game id were checked by the reader), or the pool is an earlier shipped one the
  ruleset re-runs by its own rules; and the log fits that pool (``check_pool``: a named ``CardPoolError``);
* every decision is the answer to the question the game asked at that point: same player, decision point and
  options, ``at`` the event count when it was asked, taken in order (``n``), none left over;
* every event is the one the rules emit, field by field, and the game ends (or reaches the header's turn cap)
  exactly at the log's last event;
* the closing record's winner, end reason and turn count are the re-run's.

It cannot prove who recorded the game, or that a player's choices were their own: that takes a signature.
``fold`` rebuilds the state at any event by applying the reducer alone, without the rules.
"""

from __future__ import annotations

import os
from typing import Any

import msgspec

from annals.engine import ENGINE_VERSION
from annals.engine.core import DecisionPoint, Ruleset, State
from annals.engine.errors import SavedStateError
from annals.engine.registry import get_ruleset, ruleset_for
from annals.engine.runner import Game
from annals.engine.words import Words
from annals.schemas.errors import AnnalsError, CardDataError, CardPoolError, InconsistentLogError, UnknownCardPoolError
from annals.schemas.header import JUDGE_REASON_PREFIX, SCENARIO_REASON, TURN_CAP_REASON
from annals.schemas.judge import Intervention
from annals.schemas.logfile import AbandonedBranch, GameLog, read_log
from annals.schemas.records import TABLE_EVENTS, Decision


class ReplayReport(msgspec.Struct, frozen=True):
    ok: bool
    events_checked: int
    first_difference: int = -1  # event number of the first difference, or -1
    expected: str = ""  # what the log holds there
    actual: str = ""  # what the re-run made of it
    reason: str = ""
    frame: int = -1  # the frame holding the record at fault, and its byte offset
    offset: int = -1
    field: str = ""  # the record and field at fault: "event 12: amount", "decision 3: at", "close: winner"
    decisions_checked: int = 0
    pool: bool = False  # the header's card pool does not fit the log: ``check_pool`` raises its named error


class _Differs(Exception):
    def __init__(self, field: str, reason: str, expected: Any = "", actual: Any = "", *, pool: bool = False):
        self.field, self.reason, self.expected, self.actual = field, reason, expected, actual
        self.pool = pool  # the header's card pool does not fit the log (``check_pool`` names it)


def check_pool(log: GameLog, ruleset: Ruleset[Any], path: str | os.PathLike[str] = "") -> None:
    """The header's card pool is one this engine re-runs (its own, or an earlier shipped one the ruleset lists in
    ``card_pool_hashes``), and fits the log (the ruleset's optional ``check_log``, e.g. Miras 9's editions: ruling
    R-M9-45); else a named ``CardPoolError``."""
    header = log.header
    logged, ours = header.card_pool_hash, ruleset.card_pool_hash()
    known = (ours, *getattr(ruleset, "card_pool_hashes", tuple)())
    if not header.cards and logged not in known:
        earlier = [h for h in known[1:] if h != ours]
        raise UnknownCardPoolError(
            str(path),
            f"card pool {logged!r} is not one this engine re-runs: its own is {ours!r}"
            + (f", earlier ones {', '.join(map(repr, earlier))}" if earlier else "")
            + f"; the log was written with another card pool (by engine {header.engine_version}) or its header was "
            "edited: verify it with the annals that wrote it, or restore the header's card_pool_hash",
            frame=0,
            offset=log.header_at,
            field="header: card_pool_hash",
        )
    check = getattr(ruleset, "check_log", None)
    if check is not None:
        check(log, str(path))


def _first_field(logged: Any, rerun: Any) -> str:
    """The first field in which two events differ (``kind`` when they are of different kinds)."""
    if type(logged) is not type(rerun):
        return "kind"
    names: tuple[str, ...] = logged.__struct_fields__
    for name in names:
        if getattr(logged, name) != getattr(rerun, name):
            return name
    return "kind"


class _Stopped(Exception):
    """A partial re-run (an abandoned branch, a game a judge ended) reached the last recorded decision."""


class _Script:
    """Every seat's agent: answers each question with the next recorded decision, checking that it answers that
    very question (player, point, options, at) and names one of the options offered."""

    def __init__(self, decisions: list[Decision[Any]], *, partial: bool = False):
        self.decisions = decisions
        self.next = 0
        self.partial = partial  # a game stopped before its end: running out of decisions is where it stops
        self.state: State | None = None  # the re-run's state (agents are handed a view, or none: not the state)

    def choose(self, view: object, point: DecisionPoint[Any]) -> Any:
        assert self.state is not None, "the script reads the re-run's own state"
        state = self.state
        k = self.next
        if k >= len(self.decisions) and self.partial:
            raise _Stopped
        if k >= len(self.decisions):
            raise _Differs(
                f"decision {k}", f"the game asks {point.point!r} of player {point.player}, but the log records no more "
                "decisions (the log ends before the game does)",
            )  # fmt: skip
        d = self.decisions[k]
        options = list(point.options)
        for field, logged, asked in (
            ("n", d.n, k),
            ("player", d.player, point.player),
            ("point", d.point, point.point),
            ("at", d.at, state.n),
            ("offered", d.offered, options),
        ):
            if logged != asked:
                raise _Differs(
                    f"decision {k}: {field}",
                    f"the log records {field} {logged!r}; the game asks player {point.player} at {point.point!r} "
                    f"after event {state.n - 1} with {len(options)} options",
                    logged,
                    asked,
                )
        if not (type(d.chosen) is int and 0 <= d.chosen < len(options)):
            raise _Differs(f"decision {k}: chosen", f"{d.chosen!r} is not one of the {len(options)} options offered")
        self.next = k + 1
        return d.offered[d.chosen]


def rerun(log: GameLog, *, partial: bool | None = None) -> ReplayReport:
    """Play the log's game again from its header and decisions; compare every event as it is emitted, then where
    the game ends and the closing record.

    ``partial`` (by default: a game a judge ended, whose closing record is the judge's, or a scenario's game
    stopped after its scripted decisions) re-runs only as far as the
    recorded decisions go: every logged event must come, and nothing is said of an end the log does not reach."""
    header = log.header
    expected = log.events
    checked = 0
    if partial is None:
        ended_by = log.close.end_reason
        partial = ended_by.startswith(JUDGE_REASON_PREFIX) or (ended_by == SCENARIO_REASON and header.sandbox)
    script = _Script(log.decisions, partial=partial)
    try:
        try:
            ruleset = ruleset_for(header)
        except CardDataError as exc:
            raise _Differs("header: cards", f"an embedded card definition is refused: {exc}") from None
        # a log of an earlier ruleset version this one still re-runs: each event compared as that version wrote it
        recorded_as = ruleset.schema.earlier.get(header.ruleset_version)
        version = header.ruleset_version if recorded_as is not None else ruleset.schema.version
        for field, logged, ours in (
            ("engine_version", header.engine_version, ENGINE_VERSION),
            ("ruleset_version", header.ruleset_version, version),
            ("card_pool_hash", header.card_pool_hash, ruleset.card_pool_hash()),
        ):
            if field == "card_pool_hash" and not header.cards:
                try:  # this pool or an earlier shipped one the ruleset re-runs, and one that fits the log
                    check_pool(log, ruleset)
                except CardPoolError as exc:
                    message = exc.reason.removeprefix(f"{exc.field}: ")
                    raise _Differs(exc.field or "header: card_pool_hash", message, pool=True) from None
                continue
            if logged != ours and field == "card_pool_hash" and header.cards:
                ids = ", ".join(d.id for d in header.cards)
                raise _Differs(
                    "header: cards",
                    f"the embedded card definitions ({ids}) make pool {ours!r}, not the {logged!r} the header names: "
                    "a definition was changed after the game",
                    logged,
                    ours,
                )

            if logged == ours and field == "card_pool_hash":
                try:  # the embedded definitions make the pool named: does the log fit its edition?
                    check_pool(log, ruleset)
                except CardPoolError as exc:
                    message = exc.reason.removeprefix(f"{exc.field}: ")
                    raise _Differs(exc.field or "header: card_pool_hash", message, pool=True) from None
            if logged != ours:
                raise _Differs(
                    f"header: {field}",
                    f"the log was written with {field} {logged!r}; this engine has {ours!r} and can only re-run its "
                    "own games",
                    logged,
                    ours,
                )

        def compare(event: Any) -> None:
            nonlocal checked
            n = checked
            if recorded_as is not None:
                event = recorded_as(event)
            if n >= len(expected):
                raise _Differs(
                    f"event {n}", f"the log ends after event {n - 1}, but the game goes on", None, event
                )  # fmt: skip
            if event != expected[n]:
                field = _first_field(expected[n], event)
                raise _Differs(f"event {n}: {field}", "event differs", expected[n], event)
            checked += 1

        try:
            game = Game(ruleset, header, [script] * len(header.players), on_event=compare, views=False)
        except (msgspec.DecodeError, SavedStateError) as exc:
            raise _Differs("header: start_position", f"not a position of this ruleset: {exc}") from exc
        s = script.state = game.state
        cap = header.max_turns
        try:
            while not s.over:  # as the runner plays: to the end, or to the turn cap
                if cap and s.turn > cap:
                    break
                if checked < len(expected) and type(expected[checked]) in TABLE_EVENTS:
                    game.emit(expected[checked])  # the clock and forfeits come from the table, not the rules
                else:
                    game.step()
                game.take_batch()
        except _Stopped:
            if checked < len(expected):
                raise _Differs(
                    f"event {checked}", "the log goes on after its last decision is answered", expected[checked]
                ) from None
            return ReplayReport(True, checked, decisions_checked=len(log.decisions))
        if checked < len(expected):
            ended = "ends" if s.over else f"reaches its turn cap ({cap})"
            raise _Differs(
                f"event {checked}",
                f"the game {ended} after event {checked - 1}, but the log goes on",
                expected[checked],
            )
        if script.next < len(log.decisions):
            extra = len(log.decisions) - script.next
            raise _Differs(
                f"decision {script.next}", f"{extra} decision(s) recorded after the game's last question"
            )  # fmt: skip
        winner, reason = (s.winner, s.end_reason) if s.over else (-1, TURN_CAP_REASON)
        results: tuple[tuple[str, object, object], ...] = (
            ("winner", log.close.winner, winner),
            ("end_reason", log.close.end_reason, reason),
            ("turns", log.close.turns, s.turn),
        )
        for name, recorded, made in results:
            if recorded != made:
                raise _Differs(
                    f"close: {name}", f"the log records {recorded!r}; the re-run gives {made!r}", recorded, made
                )
    except _Differs as d:
        frame, offset = _where(log, d.field)
        n = checked if d.field.startswith("event") else -1
        return ReplayReport(
            False, checked, n, _shown(d.expected), _shown(d.actual), d.reason, frame, offset, d.field, script.next,
            d.pool,
        )  # fmt: skip
    except Exception as exc:  # a hostile log must end in a report, whatever the engine makes of it
        frame, offset = log.frame_of_event(checked)
        reason = str(exc) if isinstance(exc, AnnalsError) else f"the re-run failed: {type(exc).__name__}: {exc}"
        return ReplayReport(False, checked, checked, "", "", reason, frame, offset, f"event {checked}", script.next)
    return ReplayReport(True, checked, decisions_checked=len(log.decisions))


def _shown(value: Any) -> str:
    return "" if value == "" else repr(value)


def _where(log: GameLog, field: str) -> tuple[int, int]:
    """The frame (and its byte offset) holding the record a field name points at."""
    record, _, _ = field.partition(":")
    kind, _, number = record.partition(" ")
    if kind == "header":
        return 0, log.header_at
    if kind == "close":
        return log.close_at
    if kind == "decision":
        return log.frame_of_decision(int(number))
    return log.frame_of_event(int(number))


class Verification(msgspec.Struct, frozen=True):
    """What ``verify_log`` proved of one log, for ``annals verify`` to say."""

    path: str
    game_id: str
    digest: str
    frames: int
    events: int
    decisions: int
    winner: int
    end_reason: str
    turns: int
    signature: str = ""  # what ``schemas.signing.verify_signature`` said of a signed log ("": unsigned)
    ending: str = ""  # the end as every reader says it (``Words.ending``): ``Ann wins by Battle Damage``

    def lines(self, refused: bool = False) -> list[str]:
        """What was proved, and what was not, one line each; ``refused``: the log is whole and its game legal, but
        it fails a check of the caller's (a signature, the match it should be), named after these lines."""
        result = self.ending or (f"winner {self.winner}" if self.winner >= 0 else "no winner")
        verdict = "refused, see the error below (the game itself is whole and legal: " if refused else "ok ("
        return [
            f"{self.path}: {verdict}{self.events} events re-run identically, digest {self.digest})",
            f"  integrity: game {self.game_id}, {self.frames} frames, every checksum and the chain intact; header, "
            "events, decisions and closing record consistent",
            f"  replay: {self.events} events and {self.decisions} decisions re-run identically by engine "
            f"{ENGINE_VERSION}; the game ends where the log does: {result}, after {self.turns} turns",
            "  authorship: "
            + (
                self.signature
                if self.signature
                else "not proven: the log is not signed, and only a signature proves who recorded it (the checks "
                "above prove the log is whole and its game legal, which anyone can make of a game they invent)"
            ),
        ]


def verify_log(path: str | os.PathLike[str]) -> Verification:
    """Read ``path`` (integrity and consistency) and re-run its game; raise the first problem as a named error
    (``InconsistentLogError`` for a re-run that differs, naming its frame, byte offset and field)."""
    return verify_game(read_log(path), path)


def verify_game(log: GameLog, path: str | os.PathLike[str]) -> Verification:
    """``verify_log`` of a log already read (the judges' records and signature are checked beside it)."""
    report = rerun(log)
    if not report.ok:
        if report.pool:
            check_pool(log, ruleset_for(log.header), path)  # raises the CardPoolError the re-run reported
        detail = report.reason
        if report.expected or report.actual:
            detail += f" (logged: {report.expected or '-'}; re-run: {report.actual or '-'})"
        raise InconsistentLogError(
            str(path),
            f"re-run differs: {detail}",
            frame=report.frame if report.frame >= 0 else None,
            offset=report.offset if report.offset >= 0 else None,
            field=report.field or None,
        )
    return Verification(
        str(path),
        log.header.game_id,
        log.digest,
        len(log.frames) + 2,
        len(log.events),
        len(log.decisions),
        log.close.winner,
        log.close.end_reason,
        log.close.turns,
        ending=Words(log.header.ruleset, lambda _card: "", [p.name for p in log.header.players]).ending(
            log.close.winner, log.close.end_reason
        ),
    )


def fold(log: GameLog, upto: int | None = None) -> State:
    """The state after applying events ``[0, upto)`` (all of them by default) with the reducer alone."""
    ruleset = get_ruleset(log.header.ruleset)
    state: State = ruleset.new_state(log.header)
    for event in log.events[: upto if upto is not None else len(log.events)]:
        ruleset.apply(state, event)
    return state


class BranchReport(msgspec.Struct, frozen=True):
    """A branch a judge's backup abandoned, re-run from the header to its end."""

    backup: Intervention
    report: ReplayReport
    events: int
    decisions: int
    finished: bool  # the branch reached a closing record before the backup
    shared: str = ""  # "" when the game after the backup starts with this branch's kept part; else what differs


def _shared_problem(branch: AbandonedBranch, after_events: list[Any], after_decisions: list[Any]) -> str:
    k, d = branch.backup.events, branch.backup.to_decision
    if branch.events[:k] != after_events[:k]:
        n = next(i for i, (a, b) in enumerate(zip(branch.events[:k], after_events[:k], strict=False)) if a != b)
        return f"event {n} before the backup differs between the abandoned branch and the game after it"
    if branch.decisions[:d] != after_decisions[:d]:
        return f"the {d} decisions before the backup differ between the abandoned branch and the game after it"
    return ""


def rerun_branches(log: GameLog) -> list[BranchReport]:
    """Re-run every abandoned branch up to its end, and check that the game after each backup starts with the
    part of the branch the backup kept (no earlier event was changed on the way)."""
    reports = []
    for i, branch in enumerate(log.branches):
        nxt = log.branches[i + 1] if i + 1 < len(log.branches) else None
        after_events, after_decisions = (nxt.events, nxt.decisions) if nxt is not None else (log.events, log.decisions)
        finished = branch.close is not None
        close = branch.close if branch.close is not None else log.close
        replay = GameLog(log.header, branch.events, branch.decisions, close, log.digest)
        reports.append(
            BranchReport(
                branch.backup,
                rerun(replay, partial=not finished),
                len(branch.events),
                len(branch.decisions),
                branch.close is not None,
                _shared_problem(branch, after_events, after_decisions),
            )
        )
    return reports
