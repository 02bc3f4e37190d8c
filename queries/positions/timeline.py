"""Positions at any coordinate of a game: from a log (the reducer folded from the nearest snapshot) or from the
database (the ``position()`` SQL macro), as the omniscient board or as a player's or spectator's view.

Coordinates (``resolve``), each naming the position *after* an event:

* ``event:N``            after event number N (``start`` is before any event, ``end`` after the last);
* ``turn:T``             after the first event of turn T; ``turn:T/STEP`` after the first event of turn T whose
  step is STEP or starts with ``STEP.`` (``turn:5/attack.declare``, ``turn:3/dusk``);
* ``step:STEP``          the first event at that step in the whole game;
* ``KIND:K``             after the K-th event (from 1) of a kind: an event class name (``CardPlayed:2``) or a
  ruleset alias (Miras 9: ``wave``, ``wavestep``, ``window``, ``stack`` (an item pushed), ``resolve``, ``damage``
  (a Battle Damage point paid); MORANA: ``commit``, ``flip``, ``site`` (a Site's resolution), ``rite`` (a Site
  scored), ``reborn``, ``clash``; each ruleset's ``RulesetSchema.aliases``); ``turn:T/KIND:K`` counts within turn T, so
  ``turn:7/damage:2`` is the second Battle Damage point of turn 7 and ``turn:3/site:2`` the second Site resolved.

Views: ``omniscient`` is ``Ruleset.position`` of the folded state. ``player0``, ``player1`` and ``spectator`` fold
the reducer over the events as ``Ruleset.redact`` shows them to that viewer (``engine.views.view_state``): a card
whose identity the viewer never saw is absent (reported as hidden). (The field-name conventions alone are not
enough for a view: a MORANA card the opponent sealed reaches its Site only by the ``Flipped`` event, which names
Sites, not a ``dst``.)
"""

from __future__ import annotations

import operator
import os
import typing
import weakref
from bisect import bisect_right
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import duckdb
import msgspec

from annals.engine.core import Position, Ruleset, State
from annals.engine.registry import get_ruleset
from annals.engine.views import VIEWERS, view_state, viewer_of, visible_position
from annals.queries.positions import sqlfiles
from annals.schemas.errors import AnnalsError, BadArgumentError, UnknownNameError, did_you_mean
from annals.schemas.logfile import GameLog, read_log
from annals.schemas.rulesets import UnknownRulesetError, schema_for

SNAPSHOT_EVERY = 64
VIEWS = VIEWERS


def aliases(ruleset: str) -> Mapping[str, str]:
    """A ruleset's coordinate names → event class names (``RulesetSchema.aliases``; none for an unknown ruleset)."""
    try:
        return schema_for(ruleset).aliases
    except UnknownRulesetError:
        return {}


class CoordinateError(AnnalsError, ValueError):
    """A coordinate that does not parse, or names nothing in this game."""


class CoordinateSyntaxError(CoordinateError, BadArgumentError):
    """A coordinate that does not parse (``turn:x``, ``a/b/c``)."""


class UnknownKindError(CoordinateError, UnknownNameError):
    """A coordinate ``KIND:K`` whose kind is neither an event class of the ruleset nor one of its aliases."""


def coordinate_kinds(ruleset: str) -> list[str]:
    """The kinds ``KIND:K`` may name in a game of ``ruleset``: its aliases and its event class names."""
    try:
        union = schema_for(ruleset).event_type
    except UnknownRulesetError:
        return []
    return [*sorted(aliases(ruleset)), *sorted(t.__name__ for t in typing.get_args(union))]


class LogNotFoundError(AnnalsError, FileNotFoundError):
    """A game's log is not where it was ingested from, and what was asked needs the log."""


def convention_fold(events: typing.Iterable[Any]) -> Position:
    """Latest ``dst`` per card and latest non-zero ``value`` per holder:counter: what the SQL macro computes.

    Absent-value sentinels are skipped as ingest skips them: a ``dst``/``counter`` of ``""``, a card ``<= 0``
    (instances start at 1000; redacted cards are negative). A counter at 0 is left out, as no counter.
    """
    cards: dict[int, str] = {}
    counters: dict[str, int] = {}
    for e in events:
        dst = getattr(e, "dst", None)
        if type(dst) is str and dst:
            card = getattr(e, "card", None)
            if type(card) is int:
                if card > 0:
                    cards[card] = dst
            else:
                for c in getattr(e, "cards", None) or ():
                    if c > 0:
                        cards[c] = dst
        counter = getattr(e, "counter", None)
        if type(counter) is str and counter:
            value = getattr(e, "value", None)
            holder = getattr(e, "holder", None)
            if type(value) is int and type(holder) is int:
                key = f"{holder}:{counter}"
                if value:
                    counters[key] = value
                else:
                    counters.pop(key, None)
    return Position(cards, counters)


def normalised(position: Position) -> Position:
    """A ruleset's position with counters at 0 left out: no counter and a counter at 0 are the same position
    (Miras 9 omits them, MORANA lists Slava and Embers from the start)."""
    if all(position.counters.values()):
        return position
    return Position(position.cards, {k: v for k, v in position.counters.items() if v})


class Timeline:
    """One game's log with state snapshots every ``every`` events, so any position costs one decode and fewer
    than ``every`` reducer steps."""

    def __init__(self, log: GameLog, *, every: int = SNAPSHOT_EVERY):
        self.log = log
        self.header = log.header
        self.events = log.events
        self.ruleset: Ruleset[Any] = get_ruleset(log.header.ruleset)
        self.every = every
        self._encode = msgspec.msgpack.Encoder().encode
        self._decoder = msgspec.msgpack.Decoder(self.ruleset.state_type)
        state = self.ruleset.new_state(self.header)
        self._snapshots: list[bytes] = [self._encode(state)]
        apply = self.ruleset.apply
        for i, event in enumerate(self.events, start=1):
            apply(state, event)
            if i % every == 0:
                self._snapshots.append(self._encode(state))
        self.final = state

    @classmethod
    def from_file(cls, path: str | os.PathLike[str], *, every: int = SNAPSHOT_EVERY) -> Timeline:
        return cls(read_log(path), every=every)

    def state_after(self, count: int) -> State:
        """The state once ``count`` events have been applied (0 ≤ count ≤ number of events)."""
        if not 0 <= count <= len(self.events):
            raise CoordinateError(f"event count {count} is outside this game's 0..{len(self.events)}")
        k = count // self.every
        state: State = self._decoder.decode(self._snapshots[k])
        apply = self.ruleset.apply
        for event in self.events[k * self.every : count]:
            apply(state, event)
        return state

    def position(self, count: int, view: str = "omniscient") -> Position:
        viewer = viewer_of(view)
        if viewer is None:
            return normalised(self.ruleset.position(self.state_after(count)))
        if not 0 <= count <= len(self.events):
            raise CoordinateError(f"event count {count} is outside this game's 0..{len(self.events)}")
        state = view_state(self.ruleset, self.header, self.events[:count], viewer)
        return visible_position(self.ruleset, state)

    def resolve(self, coordinate: str) -> int:
        """The number of events applied at ``coordinate`` (see the module docstring)."""
        events = self.events
        kinds = [type(e).__name__ for e in events]
        return resolve(coordinate, [e.turn for e in events], [e.step for e in events], kinds, self.header.ruleset)


def _after(index: int) -> int:
    return index + 1


def resolve(coordinate: str, turns: list[int], steps: list[str], kinds: list[str], ruleset: str) -> int:
    """The number of events applied at ``coordinate`` in a game whose events have these turns, steps and kinds
    (event class names), in event-number order."""
    text = coordinate.strip()
    if text == "start":
        return 0
    if text == "end":
        return len(kinds)
    if text.isdigit():  # --at 120 is event:120
        text = f"event:{text}"
    lo, hi = 0, len(kinds)
    parts = text.split("/")
    if len(parts) > 2:
        raise CoordinateSyntaxError(
            f"coordinate {coordinate!r} has more than one '/'; write e.g. turn:5/attack.declare"
        )
    head, _, arg = parts[0].partition(":")
    if not arg:
        hint = did_you_mean(head, ["start", "end"]) if head.isalpha() else ""
        raise CoordinateSyntaxError(
            f"coordinate {coordinate!r} needs NAME:VALUE, e.g. 120, event:120, turn:5, CardPlayed:2, start or end;"
            f"{hint}".rstrip(";")
        )
    if head == "event":
        n = _int(arg, coordinate)
        if not 0 <= n < len(kinds):
            raise CoordinateError(f"event {n} does not exist; this game has events 0..{len(kinds) - 1}")
        if len(parts) > 1:
            raise CoordinateSyntaxError(f"event:{n} takes no '/...' part")
        return _after(n)
    if head == "turn":
        t = _int(arg, coordinate)
        lo = next((i for i, turn in enumerate(turns) if turn == t), -1)
        if lo < 0:
            raise CoordinateError(f"turn {t} does not occur; this game has turns 0..{max(turns, default=0)}")
        hi = bisect_right(turns, t, lo)
        if len(parts) == 1:
            return _after(lo)
        head, _, arg = parts[1].partition(":")
        if not arg:  # turn:T/STEP
            return _after(_first_step(steps, lo, hi, parts[1], coordinate))
    elif len(parts) > 1:
        raise CoordinateSyntaxError(f"only turn:T may be followed by '/...' (got {coordinate!r})")
    if head == "step":
        return _after(_first_step(steps, lo, hi, arg, coordinate))
    named = aliases(ruleset)
    known = coordinate_kinds(ruleset)
    if head not in known:
        names = ["event", "turn", "step", *known] if len(parts) == 1 else known
        raise UnknownKindError(
            "coordinate kind", head, names, choices=f"use event, turn, step or one of: {', '.join(known)}"
        )
    kind = named.get(head, head)
    k = _int(arg, coordinate)
    seen = 0
    for i in range(lo, hi):
        if kinds[i] == kind:
            seen += 1
            if seen == k:
                return _after(i)
    known = sorted(set(kinds) | set(named))
    raise CoordinateError(
        f"{coordinate!r}: found {seen} event(s) of kind {kind!r} there, not {k}; kinds in this game: {', '.join(known)}"
    )


def _first_step(steps: list[str], lo: int, hi: int, step: str, coordinate: str) -> int:
    for i in range(lo, hi):
        s = steps[i]
        if s == step or s.startswith(step + "."):
            return i
    there = list(dict.fromkeys(steps[lo:hi]))
    tops = list(dict.fromkeys(s.partition(".")[0] for s in there))
    raise CoordinateError(
        f"{coordinate!r}: no event at step {step!r} there;{did_you_mean(step, [*tops, *there])} "
        f"steps there: {', '.join(there)}"
    )


def _int(text: str, coordinate: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise CoordinateSyntaxError(f"{coordinate!r}: {text!r} is not a whole number") from None


# Optimizer passes that EXPLAIN ANALYZE shows costing ~0.4 ms on every call of the position macro while finding
# nothing to improve in it (one CTE over one pruned row group feeding two small aggregates): without them the plan
# still pushes `n <= N` and the game's dynamic filter into the scan and reads one row group. Optimizers never change
# a result, only the plan; a name this DuckDB does not know is left out.
POINT_QUERY_SKIPPED_OPTIMIZERS = (
    "common_subexpressions",
    "common_subplan",
    "cte_filter_pusher",
    "expression_rewriter",
    "projection_pullup",
    "statistics_propagation",
)


@contextmanager
def point_queries(con: duckdb.DuckDBPyConnection) -> Iterator[duckdb.DuckDBPyConnection]:
    """``con`` set for a run of point queries such as ``position_from_db``, and as before afterwards: one DuckDB
    thread, and the ``POINT_QUERY_SKIPPED_OPTIMIZERS`` passes off.

    A point query reads one row group, which one thread scans, so more threads only add hand-offs between them
    (on 2 cores: a larger median and, on a busy machine, a much larger 99th percentile); and binding and planning,
    not reading, are most of its time. Both settings belong to the database instance, shared by every connection to
    the same file in a process, so keep analytical queries outside the block.
    """
    threads, disabled = con.execute(
        "SELECT current_setting('threads'), current_setting('disabled_optimizers')"
    ).fetchall()[0]
    known = {name for (name,) in con.execute("SELECT name FROM duckdb_optimizers()").fetchall()}
    skipped = {name for name in disabled.split(",") if name} | known.intersection(POINT_QUERY_SKIPPED_OPTIMIZERS)
    con.execute("SET threads = 1")
    con.execute(f"SET disabled_optimizers = '{','.join(sorted(skipped))}'")
    try:
        yield con
    finally:
        con.execute(f"SET threads = {int(threads)}")
        con.execute(f"SET disabled_optimizers = '{disabled}'")


def position_from_db(con: duckdb.DuckDBPyConnection, game_id: str, event_no: int) -> Position:
    """The ``position()`` macro's answer after event ``event_no`` (``-1``: before any event).

    Read as a point query of its rows up to the event (``sql/position_rows.sql``, by the game's number:
    ``game_number``), sorted by event number here and folded by ``_fold_rows``, the macro's definition in Python
    (``convention_fold`` over the rows as tuples; tests hold the two equal on every event of real games): the
    macro's aggregates cost about ten times the point query of the same rows.
    """
    game = game_number(con, game_id)
    if game is None:
        return Position({}, {})
    rows = con.execute(sqlfiles.load("position_rows"), [game, event_no]).fetchall()
    rows.sort(key=_by_number)
    return _fold_rows(rows)


# The game numbers of each read-only connection, every game's read in one scan at its first lookup (None: a writable
# connection, whose numbers are not kept). A re-ingested or removed game changes its number, but not while a read-only
# connection is open: DuckDB then holds the file shared, so no process, this one included, can open it for writing.
# The lookup was a second point query, a third of position_from_db's time; the scan costs about as much as a few
# dozen lookups (benchmarks ask positions of random games, a viewer many of one game).
_NUMBERS: weakref.WeakKeyDictionary[duckdb.DuckDBPyConnection, dict[str, int] | None] = weakref.WeakKeyDictionary()


def game_number(con: duckdb.DuckDBPyConnection, game_id: str) -> int | None:
    """``games.game`` of ``game_id`` (None: not stored), from ``_NUMBERS`` on a read-only connection."""
    try:
        known = _NUMBERS[con]
    except KeyError:
        mode = con.execute("SELECT current_setting('access_mode')").fetchall()[0][0]
        known = _NUMBERS[con] = (
            dict(con.execute(sqlfiles.load("game_numbers")).fetchall()) if mode == "read_only" else None
        )
    if known is not None:
        return known.get(game_id)
    found = con.execute(sqlfiles.load("position_game"), [game_id]).fetchall()
    return int(found[0][0]) if found else None


_by_number = operator.itemgetter(0)


def _fold_rows(rows: list[tuple[Any, ...]]) -> Position:
    """``convention_fold`` over ``position_rows.sql``'s rows (n, card, cards, dst, counter, holder, value), in event
    order: the same sentinels skipped, read by position instead of by name (a third of the time)."""
    cards: dict[int, str] = {}
    counters: dict[str, int] = {}
    for _, card, many, dst, counter, holder, value in rows:
        if type(dst) is str and dst:
            if type(card) is int:
                if card > 0:
                    cards[card] = dst
            else:
                for c in many or ():
                    if c > 0:
                        cards[c] = dst
        if type(counter) is str and counter and type(value) is int and type(holder) is int:
            key = f"{holder}:{counter}"
            if value:
                counters[key] = value
            else:
                counters.pop(key, None)
    return Position(cards, counters)


def position_from_macro(con: duckdb.DuckDBPyConnection, game_id: str, event_no: int) -> Position:
    """The ``position()`` macro's own answer (SQL users call it; ``position_from_db`` computes the same faster).

    It calls the macro by its unquoted name ``position_at`` (``"position"`` wraps it: one macro fewer to bind).
    """
    rows = con.execute(
        "SELECT what, card, zone, holder, counter, value FROM position_at(?, ?)", [game_id, event_no]
    ).fetchall()
    cards = {card: zone for what, card, zone, _, _, _ in rows if what == "card"}
    counters = {f"{holder}:{counter}": value for what, _, _, holder, counter, value in rows if what == "counter"}
    return Position(cards, counters)


class StoredGame:
    """A game as the database holds it, for when its log is not at hand: its coordinates resolve from the stored
    events' turns, steps and kinds, and its positions are the ``position()`` macro's (omniscient only: the
    database keeps no view of what each player saw)."""

    def __init__(self, con: duckdb.DuckDBPyConnection, game_id: str):
        rows = con.execute(
            "SELECT game, ruleset, file, winner, end_reason, card_pool_hash FROM games WHERE game_id = ?", [game_id]
        ).fetchall()
        if not rows:
            raise CoordinateError(f"no game {game_id!r} in the database; list them with: annals sql 'FROM games'")
        game, ruleset, file, winner, end_reason, pool_hash = rows[0]
        self.con = con
        self.game_id = game_id
        self.ruleset: str = ruleset
        self.file: str = file  # where the log was ingested from
        self.winner: int = winner
        self.end_reason: str = end_reason
        self.card_pool_hash: str = pool_hash
        events = con.execute("SELECT turn, step, kind FROM events WHERE game = ? ORDER BY n", [game]).fetchall()
        self.turns: list[int] = [turn for turn, _, _ in events]
        self.steps: list[str] = [step for _, step, _ in events]
        self.kinds: list[str] = [kind for _, _, kind in events]
        self.players: list[str] = [
            name for (name,) in con.execute("SELECT name FROM players WHERE game = ? ORDER BY seat", [game]).fetchall()
        ]
        self.card_ids: dict[int, str] = dict(
            con.execute("SELECT instance, card_id FROM deck_cards WHERE game = ?", [game]).fetchall()
        )

    def resolve(self, coordinate: str) -> int:
        """The number of events applied at ``coordinate`` (see the module docstring)."""
        return resolve(coordinate, self.turns, self.steps, self.kinds, self.ruleset)

    def position(self, count: int) -> Position:
        return position_from_db(self.con, self.game_id, count - 1)
