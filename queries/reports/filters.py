"""Which games and seats a report reads: the filters every report takes, checked against what the database holds,
and the two temporary tables (``sel_games``, ``sel_seats``) the report SQL reads instead of ``games``/``players``.

A *game filter* (``ruleset``, ``event``, ``since``/``until``, ``min_turns``) keeps whole games. A *seat filter*
(``agent``, ``deck``, ``seat``) keeps the seats that match: a report about seats (a card's owner, a deck, who paid)
reads only those seats; a report about whole games reads the games with such a seat. ``by`` splits a per-seat
report by the seat's agent, deck or seat number (the ``grp`` column of ``sel_seats``; ``opp_grp`` is the other
seat's value).

Building the selection costs tens of milliseconds over a large database (the joins of ``games`` and ``players``
carrying every seat's agent and deck strings into a temporary table; ``bench/reports.py`` times it), so on a
read-only connection, whose data cannot change while it is open, each selection is built once and kept: up to
``KEPT`` of them per connection, the one in use under the names ``sel_games``/``sel_seats`` and the others renamed
aside (``sel_games_N``/``sel_seats_N``), renamed back when the same filters and rulesets come again. A connection
that can write rebuilds the selection every time.

A report may read more of a selection than the two tables: ``sel_NAME``, made from them by ``select_NAME.sql`` for
the reports whose SQL names it (``EXTRAS``; ``sel_cards``: card_metrics' split numbers, game-length fifths and
pairs, a window over the selected seats, which only its full query reads; ``sel_splits``, its splits by number;
``sel_cellctx``, ``sel_cellmap``, ``sel_celledges``: what its run over ``card_metrics_cells`` maps the cells by,
each context to a split, each length and block of games to a fifth, counted rather than ranked, so that run ranks no
seat), built when first asked, with those they are made from (``NEEDS``), and kept (and renamed) with its selection.
"""

from __future__ import annotations

import re
import typing
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, TypeVar

import duckdb
import msgspec

from annals.ingest import summary
from annals.ingest.sqlfiles import run_script
from annals.queries.reports import sqlfiles
from annals.schemas.errors import BadArgumentError, did_you_mean
from annals.schemas.rulesets import ruleset_names

T = TypeVar("T")

BY = ("agent", "deck", "seat", "play", "matchup")  # play: on the play or the draw; matchup: deck vs deck


class UnknownValueError(BadArgumentError, ValueError):
    """A filter names a value (ruleset, agent, deck, event, seat) the database does not hold."""


class NotApplicableError(BadArgumentError, ValueError):
    """An option was given to a report it does not apply to."""


class Filters(msgspec.Struct, frozen=True, kw_only=True):
    ruleset: str | None = None
    agent: str | None = None
    deck: str | None = None
    seat: int | None = None
    event: str | None = None
    since: date | None = None  # games recorded on or after this day (game_dates.recorded_at)
    until: date | None = None  # games recorded on or before this day
    min_turns: int | None = None  # games that lasted at least this many turns (a control for length bias)
    by: str | None = None  # split per-seat rows by agent, deck or seat
    pool: bool | None = None  # True: pool the bot pairings (the default keeps each pairing's rows apart)

    def given(self) -> dict[str, Any]:
        """The filters set, by name, as JSON-ready values."""
        out: dict[str, Any] = {}
        for name in self.__struct_fields__:
            value = getattr(self, name)
            if value is not None:
                out[name] = value.isoformat() if isinstance(value, date) else value
        return out

    @property
    def seat_filtered(self) -> bool:
        return self.agent is not None or self.deck is not None or self.seat is not None


def _known(con: duckdb.DuckDBPyConnection, query: str) -> list[str]:
    return [str(r[0]) for r in con.execute(query).fetchall() if r[0] is not None]


def _check(kind: str, value: str, known: list[str]) -> None:
    if value in known:
        return
    listing = ", ".join(known) if known else "none in this database"
    raise UnknownValueError(f"no {kind} {value!r};{did_you_mean(value, known)} known {kind}s: {listing}")


def check(con: duckdb.DuckDBPyConnection, f: Filters) -> None:
    """Refuse any value the database (or, for rulesets, this annals) does not know, listing the known ones."""
    if f.ruleset is not None:
        stored = _known(con, "SELECT DISTINCT ruleset FROM games ORDER BY 1")
        _check("ruleset", f.ruleset, sorted(set(stored) | set(ruleset_names())))
    if f.agent is not None:
        _check("agent", f.agent, _known(con, "SELECT DISTINCT agent FROM players ORDER BY 1"))
    if f.deck is not None:
        _check("deck", f.deck, _known(con, "SELECT DISTINCT deck FROM players ORDER BY 1"))
    if f.event is not None:
        _check("event", f.event, _event_ids(con))
    if f.seat is not None and f.seat not in (0, 1):
        raise UnknownValueError(f"no seat {f.seat}; seats are 0 and 1")
    if f.by is not None and f.by not in BY:
        raise UnknownValueError(f"cannot split by {f.by!r}; choose one of: {', '.join(BY)}")
    if f.since is not None and f.until is not None and f.since > f.until:
        raise UnknownValueError(f"--since {f.since} is after --until {f.until}; nothing can match")
    if f.min_turns is not None and f.min_turns < 0:
        raise UnknownValueError(f"--min-turns {f.min_turns} is negative; give 0 or more")


def _event_ids(con: duckdb.DuckDBPyConnection) -> list[str]:
    return _known(con, "SELECT event FROM games WHERE event <> '' UNION SELECT event_id FROM tournaments ORDER BY 1")


def resolve_event(con: duckdb.DuckDBPyConnection, value: str) -> str:
    """The event id ``--event`` means: an event id, or an ingested event's name or folder (its path, or the folder's
    own name, as the organiser typed it in every ``annals event`` command). Unknown or ambiguous: named, with the
    events the database holds."""
    ids = _event_ids(con)
    if value in ids:
        return value
    path = Path(value).expanduser()
    here = path.resolve() if path.is_dir() else None
    rows = con.execute("SELECT event_id, name, folder FROM tournaments ORDER BY event_id").fetchall()

    def means(name: str, folder: str) -> bool:
        by_folder = value.rstrip("/") == Path(folder).name or (here is not None and here == Path(folder).resolve())
        return value.casefold() == name.casefold() or by_folder

    found = sorted({str(eid) for eid, name, folder in rows if means(name, folder)})
    if len(found) == 1:
        return found[0]
    if found:
        raise UnknownValueError(f"--event {value!r} names {len(found)} events ({', '.join(found)}); give its id")
    known = sorted({*ids, *(name for _, name, _ in rows), *(Path(folder).name for _, _, folder in rows)})
    listing = ", ".join(ids) if ids else "none in this database"
    raise UnknownValueError(f"no event {value!r};{did_you_mean(value, known)} known events: {listing}")


KEPT = 8  # selections kept per read-only connection (each a few hundred KB per ten thousand games)
# sel_NAME tables some reports read, made from a selection by select_NAME.sql: card_metrics' split numbers and fifths
# (sel_cards, sel_splits), and what its run over card_metrics_cells reads (queries/reports/run.py: cells_sql): no
# sel_cards, as a fresh command paid most for it; each with the ones it is made from (NEEDS)
EXTRAS = ("cards", "splits", "cellctx", "cellmap", "celledges")
NEEDS = {"cellctx": ("splits",), "cellmap": ("splits",), "celledges": ("splits", "cellmap")}


@dataclass
class _Kept:
    """The selections kept on one connection: the key of the one named ``sel_games``/``sel_seats`` now, the slot
    number of each one renamed aside (oldest first), and the sample row (``sample.sql``) of each, once asked."""

    read_only: bool
    current: str | None = None
    aside: dict[str, int] = field(default_factory=dict)
    slots: int = 0
    samples: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    extras: dict[str, set[str]] = field(default_factory=dict)  # the EXTRAS built for each selection, by key
    facts: dict[str, Any] = field(default_factory=dict)  # ``kept_fact``'s, by name


_KEPT: weakref.WeakKeyDictionary[duckdb.DuckDBPyConnection, _Kept] = weakref.WeakKeyDictionary()


def filter_params(f: Filters, rulesets: tuple[str, ...] | None) -> dict[str, Any]:
    """The ``$name`` parameters of ``select.sql`` (and of a report over a summary) for ``f`` and ``rulesets``."""
    return {
        "ruleset": f.ruleset,
        "rulesets": list(rulesets) if rulesets is not None else None,
        "event": f.event,
        "since": f.since,
        "until": f.until,
        "min_turns": f.min_turns,
        "agent": f.agent,
        "deck": f.deck,
        "seat": f.seat,
        "by": f.by,
        "pool": bool(f.pool),
    }


def build(con: duckdb.DuckDBPyConnection, f: Filters, rulesets: tuple[str, ...] | None) -> None:
    """(Re)create ``sel_games`` and ``sel_seats`` for ``f`` and ``rulesets`` by running ``select.sql``."""
    run_script(con, sqlfiles.load("select"), filter_params(f, rulesets))


def extras_read(sql: str) -> tuple[str, ...]:
    """The ``EXTRAS`` a report's SQL reads (it names ``sel_NAME`` outside its comments), with those they are made
    from, in order."""
    code = re.sub(r"--[^\n]*", "", sql)  # a comment naming one (card_metrics' over the cells) builds nothing
    named = {name for name in EXTRAS if f"sel_{name}" in code}
    needed = named.union(*(NEEDS.get(name, ()) for name in named))
    return tuple(name for name in EXTRAS if name in needed)


def build_extras(
    con: duckdb.DuckDBPyConnection,
    names: tuple[str, ...] | set[str],
    f: Filters | None = None,
    rulesets: tuple[str, ...] | None = None,
) -> None:
    """(Re)create ``sel_NAME`` from the selection in use for each name, by running ``select_NAME.sql`` (given the
    filters ``f`` and ``rulesets`` the selection was made with, where it reads them: ``sel_cellctx`` does)."""
    given = filter_params(f if f is not None else Filters(), rulesets) | {"block": summary.CELL_BLOCK}
    for name in EXTRAS:  # in a fixed order: a later one may read an earlier one
        if name in names:
            sql = sqlfiles.load(f"select_{name}")
            params = {k: v for k, v in given.items() if f"${k}" in sql}
            con.execute(sql, params or None)


def _tables(extras: set[str]) -> list[str]:
    return ["sel_games", "sel_seats", *(f"sel_{name}" for name in EXTRAS if name in extras)]


def _rename(con: duckdb.DuckDBPyConnection, old: str, new: str, extras: set[str]) -> None:
    for table in _tables(extras):  # names made here from fixed words and slot numbers only
        con.execute(f"ALTER TABLE temp.main.{table}{old} RENAME TO {table}{new}")


def _kept(con: duckdb.DuckDBPyConnection) -> _Kept:
    kept = _KEPT.get(con)
    if kept is None:
        kept = _KEPT[con] = _Kept(read_only=bool(con.execute(sqlfiles.load("read_only")).fetchall()[0][0]))
    return kept


def kept_fact(con: duckdb.DuckDBPyConnection, name: str, compute: Callable[[], T]) -> T:
    """``compute()``, kept under ``name`` on a read-only connection, whose tables cannot change while it is open
    (as the selections and sample rows are kept); on a writable one computed at every call."""
    kept = _kept(con)
    if not kept.read_only:
        return compute()
    if name not in kept.facts:
        kept.facts[name] = compute()
    return typing.cast(T, kept.facts[name])


def select(
    con: duckdb.DuckDBPyConnection, f: Filters, rulesets: tuple[str, ...] | None, extras: tuple[str, ...] = ()
) -> None:
    """Make ``sel_games`` and ``sel_seats`` the selection for ``f`` and the report's ``rulesets`` (None: every
    ruleset), with the ``extras`` (``EXTRAS``) made from it: built by ``select.sql`` (``select_NAME.sql``), or on a
    read-only connection the ones kept from an earlier call with the same filters and rulesets. Works on a
    read-only connection: temporary tables live in memory."""
    kept = _kept(con)
    if not kept.read_only:
        build(con, f, rulesets)
        build_extras(con, extras, f, rulesets)
        return
    key = msgspec.json.encode([f, rulesets]).decode()
    try:
        if key != kept.current:
            _make_current(con, kept, key, f, rulesets)
        built = kept.extras.setdefault(key, set())
        missing = set(extras) - built
        if missing:
            build_extras(con, missing, f, rulesets)
            built |= missing
    except duckdb.CatalogException:  # a kept table was dropped by someone else: start again from nothing
        _KEPT[con] = _Kept(read_only=True, current=key, extras={key: set(extras)})
        build(con, f, rulesets)
        build_extras(con, extras, f, rulesets)


def _make_current(
    con: duckdb.DuckDBPyConnection, kept: _Kept, key: str, f: Filters, rulesets: tuple[str, ...] | None
) -> None:
    """The selection for ``key`` named ``sel_games``/``sel_seats`` (and its extras ``sel_NAME``): the one in use
    set aside, ``key``'s renamed back or built, the oldest set aside forgotten beyond ``KEPT``."""
    if kept.current is not None:  # set the selection in use aside
        kept.slots += 1
        _rename(con, "", f"_{kept.slots}", kept.extras.get(kept.current, set()))
        kept.aside[kept.current] = kept.slots
        kept.current = None
    slot = kept.aside.pop(key, None)
    if slot is not None:
        _rename(con, f"_{slot}", "", kept.extras.get(key, set()))
    else:
        kept.extras.pop(key, None)
        build(con, f, rulesets)
    kept.current = key
    while len(kept.aside) >= KEPT:  # forget the oldest set aside
        oldest_key = next(iter(kept.aside))
        oldest = kept.aside.pop(oldest_key)
        kept.samples.pop(oldest_key, None)
        for table in _tables(kept.extras.pop(oldest_key, set())):
            con.execute(f"DROP TABLE IF EXISTS temp.main.{table}_{oldest}")


def unfiltered(f: Filters) -> bool:
    """No filter but the ruleset: every game of the rulesets read and all its seats (a split or pooling the bot
    pairings names the rows, and keeps or drops none)."""
    return all(v is None for v in (f.agent, f.deck, f.seat, f.event, f.since, f.until, f.min_turns))


def whole_sample(con: duckdb.DuckDBPyConnection, f: Filters, rulesets: tuple[str, ...] | None) -> tuple[Any, ...]:
    """``sample``'s row for the selection of ``f`` and ``rulesets`` when ``unfiltered(f)``, counted without making
    the selection (``sample_whole.sql``; kept on a read-only connection): a report read from a summary built the
    selection for its sample line alone, 40 ms of a fresh command at 10 M events."""
    params = {"ruleset": f.ruleset, "rulesets": list(rulesets) if rulesets is not None else None}
    key = "sample " + msgspec.json.encode([f.ruleset, rulesets]).decode()
    return kept_fact(con, key, lambda: tuple(con.execute(sqlfiles.load("sample_whole"), params).fetchall()[0]))


def sample(con: duckdb.DuckDBPyConnection) -> tuple[Any, ...]:
    """The sample row (``sample.sql``: games, decided, events, rulesets, seat-games) of the selection in use; on a
    read-only connection kept with the selection, whose rows cannot change (each report states it: at 10 M events
    the query took as long as a small report's own)."""
    kept = _KEPT.get(con)
    if kept is None or not kept.read_only or kept.current is None:
        return tuple(con.execute(sqlfiles.load("sample")).fetchall()[0])
    row = kept.samples.get(kept.current)
    if row is None:
        row = kept.samples[kept.current] = tuple(con.execute(sqlfiles.load("sample")).fetchall()[0])
    return row
