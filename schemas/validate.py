"""One validation of a log's content, shared by the reader, ``verify`` and ingest.

The frame layer (``schemas.logfile``) proves that the bytes are the ones written; this module checks that what they
say hangs together, record by record, without the engine:

* **header** (``check_header``): the format version is the preamble's; one deck per player; seed, turn cap,
  tournament round, table and game number, and a branch's event number within their domains (the ranges their
  database columns hold); and ``game_id`` is the id derived from the header's other fields as decoded
  (``schemas.header.game_id_of``: the key order or omitted defaults of the bytes do not change it), so a log
  cannot carry another game's id, nor one game two ids;
* **each batch frame** (``FrameCheck.frame``): events numbered on from the frame before, one by one; each event's
  player a seat or -1; decisions numbered on one by one, each by a seat, at an event number inside its frame and
  not before the decision before it, with at least one option, every option led by an option tag the ruleset
  knows, and ``chosen`` an index into the options (0 up: ``-1`` is not "the last one");
* **the closing record** (``FrameCheck.close``): its counts are the frames', its turn count is the last event's
  turn, and its result is the last event's: the ruleset's end event (``RulesetSchema.end_event``) with the same
  winner and reason, appearing once; or, for a game stopped at the header's turn cap, no end event, no winner,
  reason ``turn_cap`` and a last event past the cap.

The reader applies the first two as it reads and the third in ``read_log``/``check_counts``; it makes the frame
checks in C over the decoded records' slots where the extension is built (``schemas/_framecheck.c``, through
``FrameCheck.typed``: the same checks, written once more, and a property test holds the two to the same
verdicts; anything it does not accept goes to ``FrameCheck.frame``, the reference, which names what is wrong).
Ingest applies all three (its C fast path makes the same frame checks and hands anything it refuses to the
reference, which names it); ``verify`` applies them, then re-runs the game (``engine.replay``). Every error is an
``InconsistentLogError`` naming the frame, its byte offset and the record and field at fault.

What only the engine can check (that the events are what the rules make of the decisions, that the pool hash and
engine version are the ones this engine has) is ``verify``'s re-run; what no check can prove (who wrote the log)
needs a signature.
"""

from __future__ import annotations

import os
import typing
from collections.abc import Iterable, Sequence
from typing import Any, Final, NamedTuple

import msgspec

from annals.schemas.carddefs import digest_problems
from annals.schemas.errors import InconsistentLogError
from annals.schemas.header import (
    JUDGE_REASON_PREFIX,
    SCENARIO_REASON,
    TURN_CAP_REASON,
    LogClose,
    LogHeader,
    game_id_of,
)
from annals.schemas.records import Decision, Event, Forfeited
from annals.schemas.rulesets import RulesetSchema

try:
    from annals.schemas import _framecheck
except ImportError:  # no compiler where annals was installed: the reference makes every check
    _framecheck = None  # type: ignore[assignment]

BUILT = _framecheck is not None
PURE_PYTHON_VARIABLE = "ANNALS_PURE_PYTHON"  # set (to anything but "") to check with the reference alone


def fast_checks() -> bool:
    """Whether the reader checks its frames in C: the extension is built and not switched off."""
    return BUILT and not os.environ.get(PURE_PYTHON_VARIABLE)


INT32_MAX: Final = 2**31 - 1
UINT64_MAX: Final = 2**64 - 1
NO_PLAYER: Final = -1


class Where(NamedTuple):
    """A frame of a log: where an error is."""

    path: str
    frame: int
    offset: int | None

    def error(self, field: str, reason: str) -> InconsistentLogError:
        return InconsistentLogError(self.path, reason, frame=self.frame, offset=self.offset, field=field)


def _within(where: Where, field: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise where.error(field, f"{value} is outside {low}..{high}")


def check_header(where: Where, header: LogHeader, format_version: int) -> None:
    """The header's own consistency (see the module docstring)."""
    if header.format_version != format_version:
        raise where.error(
            "header: format_version",
            f"{header.format_version} differs from the preamble's format version {format_version}",
        )
    if not header.players:
        raise where.error("header: players", "no players")
    if len(header.decks) != len(header.players):
        raise where.error(
            "header: decks", f"{len(header.decks)} deck(s) for {len(header.players)} player(s): one deck per player"
        )
    for i, player in enumerate(header.players):
        if not player.name or not player.agent:
            raise where.error(f"header: players[{i}]", f"{player!r} needs a name and an agent")
    _within(where, "header: seed", header.seed, 0, UINT64_MAX)
    _within(where, "header: max_turns", header.max_turns, 0, INT32_MAX)
    t = header.tournament
    if t is not None:
        _within(where, "header: tournament.round", t.round, 0, INT32_MAX)
        _within(where, "header: tournament.table", t.table, 0, INT32_MAX)
        _within(where, "header: tournament.game", t.game, 1, INT32_MAX)
    b = header.branched_from
    if b is not None:
        _within(where, "header: branched_from.at_event", b.at_event, 0, INT32_MAX)
        if not b.game_id:
            raise where.error("header: branched_from.game_id", "a continued game names the game it came from")
    edited = digest_problems(header.cards)
    if edited:
        raise where.error("header: cards", f"{edited[0]}; the log's embedded card definitions cannot be trusted")
    derived = game_id_of(header)
    if header.game_id != derived:
        raise where.error(
            "header: game_id",
            f"{header.game_id!r} is not the id derived from this header ({derived!r}): the header was edited, or "
            "the log claims another game's id",
        )


class OptionSpec(NamedTuple):
    """An option kind as an untyped row ``[tag, fields...]`` must look: its class name, how many fields it needs
    (those without a default) and each field's type (``object``: any)."""

    name: str
    required: int
    types: tuple[type, ...]


def option_specs(schema: RulesetSchema) -> dict[Any, OptionSpec]:
    """Per option tag, its ``OptionSpec`` (what the typed decoder checks of every option offered)."""
    specs: dict[Any, OptionSpec] = {}
    members = typing.get_args(schema.option_type) or (schema.option_type,)
    for cls in members:
        fields = msgspec.structs.fields(cls)
        required = sum(f.required for f in fields)
        types = tuple(f.type if f.type in (int, str, bool) else object for f in fields)
        specs[cls.__struct_config__.tag] = OptionSpec(cls.__name__, required, types)
    return specs


def _option_error(option: Any, specs: dict[Any, OptionSpec]) -> str | None:
    """Why an untyped option row is not one of ``specs``, or None."""
    if type(option) is not list or not option:
        return "an option is a list led by its tag"
    spec = specs.get(option[0]) if isinstance(option[0], int | str) else None
    if spec is None:
        return f"tag {option[0]!r} is no option of this ruleset (tags {sorted(specs, key=repr)!r})"
    values = option[1:]
    if not spec.required <= len(values) <= len(spec.types):
        return f"a {spec.name} has {spec.required}..{len(spec.types)} fields, not {len(values)}"
    for i, (value, kind) in enumerate(zip(values, spec.types, strict=False)):
        if kind is not object and type(value) is not kind:
            return f"field {i + 1} of a {spec.name} is {value!r}, not a {kind.__name__}"
    return None


class LastEvent(NamedTuple):
    """What the closing record is checked against: the last event's kind (class name) and turn, and its winner
    and reason when it is the ruleset's end event."""

    kind: str
    turn: int
    winner: Any = None
    reason: Any = None


def _is_int(value: Any) -> bool:
    return type(value) is int


def _ordinal(i: int) -> str:
    return f"#{i + 1} of the frame"


class FrameCheck:
    """The frame-to-frame state of one log's validation: events and decisions so far, the last decision's event.

    ``frame`` takes a batch frame's event numbers and players, and its decisions as
    ``(n, at, player, point, offered, chosen)`` rows (from typed ``Decision`` structs or plain tuples); with
    ``options``, every offered option must be a row of one of those kinds (the typed decoder has checked that
    already, the untyped one has not).
    """

    def __init__(self, path: str, header: LogHeader, options: dict[Any, OptionSpec] | None = None):
        self.path = path
        self.header = header
        self.seats = len(header.players)
        self.options = options
        self.events = 0
        self.decisions = 0
        self.at = 0  # the last decision's event number
        self.fast = options is None and fast_checks()

    def typed(self, frame: int, offset: int, events: list[Any], decisions: list[Any], end: Any) -> int:
        """``frame`` for batch frame number ``frame`` (at byte ``offset``) the typed decoder has read into
        ``events`` and ``decisions``; returns how many of the events are ``end`` (the ruleset's end event, or
        None). The C fast path reads the fields it checks from the decoded records' slots where it is built (a
        walk over the frame's bytes cost a tenth of the decode; this, a few hundredths); whatever it does not
        accept, ``frame`` checks (and names)."""
        if self.fast:
            verdict = _framecheck.typed(
                events, decisions, self.events, self.decisions, self.at, self.seats, end, Event, Decision
            )
            if verdict is not None:
                count, ends, decided, self.at = verdict
                self.events += count
                self.decisions += decided
                return ends
        astuple = msgspec.structs.astuple
        where = Where(self.path, frame, offset)
        self.frame(where, [e.n for e in events], [e.player for e in events], map(astuple, decisions))
        return sum(type(e) is end for e in events)

    def frame(
        self,
        where: Where,
        numbers: Sequence[Any],
        players: Sequence[Any],
        decisions: Iterable[Sequence[Any]],
    ) -> None:
        first, count = self.events, len(numbers)
        if list(numbers) != list(range(first, first + count)):
            i = next(i for i, n in enumerate(numbers) if n != first + i)
            raise where.error(
                f"event {_ordinal(i)}: n", f"event number {numbers[i]!r} found where {first + i} was expected"
            )
        seats = self.seats
        for i, p in enumerate(players):
            if not (_is_int(p) and NO_PLAYER <= p < seats):
                raise where.error(f"event {first + i}: player", f"{p!r} is neither a seat (0..{seats - 1}) nor -1")
        self.events = first + count
        for row in decisions:
            self._decision(where, row, first, first + count)

    def _decision(self, where: Where, row: Sequence[Any], low: int, high: int) -> None:
        n, at, player, point, offered, chosen = row[:6]  # a seventh value: answered automatically (engine.forced)
        expected = self.decisions
        if n != expected or not _is_int(n):
            raise where.error(f"decision #{expected}: n", f"decision number {n!r} found where {expected} was expected")
        name = f"decision {n}"
        if not _is_int(at) or not (max(low, self.at) <= at <= high):
            raise where.error(
                f"{name}: at",
                f"{at!r} is not an event number of this frame ({low}..{high}) at or after the decision before "
                f"({self.at})",
            )
        if not (_is_int(player) and 0 <= player < self.seats):
            raise where.error(f"{name}: player", f"{player!r} is not a seat (0..{self.seats - 1})")
        if type(point) is not str or not point:
            raise where.error(f"{name}: point", f"{point!r} is not a decision point's name")
        if type(offered) is not list or not offered:
            raise where.error(f"{name}: offered", "no options were offered")
        specs = self.options
        if specs is not None:
            for i, option in enumerate(offered):
                wrong = _option_error(option, specs)
                if wrong is not None:
                    raise where.error(f"{name}: offered[{i}]", f"{option!r} is not an option of this ruleset: {wrong}")
        if not (_is_int(chosen) and 0 <= chosen < len(offered)):
            raise where.error(
                f"{name}: chosen", f"{chosen!r} is not the index of one of the {len(offered)} options offered"
            )
        self.decisions = expected + 1
        self.at = at

    def close(
        self, where: Where, record: LogClose, last: LastEvent | None, end_kind: str | None, end_events: int
    ) -> None:
        """The closing record against everything read (``end_events``: how many of the ruleset's end events)."""
        self.counts(where, record)
        check_result(where, self.header, record, last, end_kind, end_events)

    def counts(self, where: Where, record: LogClose) -> None:
        if (record.events, record.decisions) != (self.events, self.decisions):
            raise where.error(
                "close: events/decisions",
                f"closing record counts {record.events} events and {record.decisions} decisions, "
                f"but the frames hold {self.events} and {self.decisions}",
            )


FORFEIT_KIND = Forfeited.__name__  # ends a game like the ruleset's own end event (schemas.records)


def check_result(
    where: Where, header: LogHeader, record: LogClose, last: LastEvent | None, end_kind: str | None, end_events: int
) -> None:
    """The closing record's turns, winner and reason against the last event (its counts already checked)."""
    seats = len(header.players)
    final = record.events - 1
    if last is None:
        if not header.start_position:
            raise where.error("close", "the log holds no events, so it records no game to have ended")
        return  # a game continued from a position that was over already: only the re-run can tell
    if record.turns != last.turn:
        raise where.error("close: turns", f"{record.turns} turns, but the last event is of turn {last.turn}")
    if not NO_PLAYER <= record.winner < seats:
        raise where.error("close: winner", f"{record.winner} is neither a seat (0..{seats - 1}) nor -1")
    if end_kind is None:
        return
    if last.kind == FORFEIT_KIND:  # a seat lost outside the rules (a live table's clock or a concession)
        if (record.winner, record.end_reason) != (last.winner, last.reason):
            raise where.error(
                "close: winner" if record.winner != last.winner else "close: end_reason",
                f"winner {record.winner} by {record.end_reason!r}, but the game's last event, {FORFEIT_KIND} "
                f"(event {final}), gives winner {last.winner!r} by {last.reason!r}",
            )
        return
    if last.kind == end_kind:
        if (record.winner, record.end_reason) != (last.winner, last.reason):
            field = "close: winner" if record.winner != last.winner else "close: end_reason"
            raise where.error(
                field,
                f"winner {record.winner} by {record.end_reason!r}, but the game's last event, {end_kind} "
                f"(event {final}), gives winner {last.winner!r} by {last.reason!r}",
            )
        if end_events != 1:
            raise where.error("close", f"the log holds {end_events} {end_kind} events: a game ends once")
        return
    if end_events:
        raise where.error(
            "close", f"{end_kind} is not the last event (event {final} is a {last.kind}): a game ends with it"
        )
    if record.end_reason.startswith(JUDGE_REASON_PREFIX):
        return  # a judge ended the game outside the rules (schemas.judge); verify re-runs up to that point
    if record.end_reason == SCENARIO_REASON:
        if not header.sandbox or record.winner != NO_PLAYER:
            raise where.error(
                "close: end_reason" if not header.sandbox else "close: winner",
                f"{SCENARIO_REASON!r} ends only a scenario's game (a sandbox header), with winner -1; this log has "
                f"sandbox {header.sandbox} and winner {record.winner}",
            )
        return  # stopped after its scripted decisions; verify re-runs up to that point
    cap = header.max_turns
    if record.end_reason != TURN_CAP_REASON or record.winner != NO_PLAYER or not cap or last.turn <= cap:
        raise where.error(
            "close: end_reason" if record.end_reason != TURN_CAP_REASON else "close: winner",
            f"winner {record.winner} by {record.end_reason!r}, but the log has no {end_kind} event: only a game "
            f"stopped by its turn cap (max_turns {cap}, last event in turn {last.turn}) ends without one, with "
            f"winner -1 and reason {TURN_CAP_REASON!r}",
        )
