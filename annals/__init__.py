"""annals: record, replay and analyse games of The Miras 9 TCG and MORANA.

The public API is the few names below; each wraps a library function of the layers underneath (``annals.engine``,
``annals.schemas``, ``annals.ingest``, ``annals.queries``), which stay importable for everything else. Imports are
lazy: ``import annals`` loads no rules, DuckDB or polars until a name needs them.

* play: ``simulate`` (bot games to log files), ``rulesets``;
* one log: ``read_log``, ``verify``, ``timeline`` (its coordinates and positions), ``position`` (a board with card
  names);
* many logs: ``ingest_logs`` (into DuckDB; ``annals.ingest`` is the subpackage), ``report`` (named reports),
  ``sql`` (read-only queries);
* cards: ``card``, ``cards``.

>>> import tempfile, pathlib, annals
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> logs = annals.simulate("morana", 2, decks=["clash", "glory"], out=folder / "logs")
>>> annals.verify(logs[0]).ok
True
>>> annals.ingest_logs([folder / "logs"], folder / "annals.duckdb").games_added
2
>>> annals.report("game_length", folder / "annals.duckdb", min_games=0).frame["games"].sum()
2
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from annals.schemas.errors import AnnalsError

if TYPE_CHECKING:
    import polars as pl

    from annals.engine.core import CardInfo
    from annals.engine.replay import ReplayReport
    from annals.ingest.loader import IngestReport
    from annals.queries.pictures.board import Board
    from annals.queries.positions.timeline import Timeline
    from annals.queries.reports.run import ReportResult
    from annals.schemas.logfile import GameLog

__all__ = [
    "AnnalsError",
    "Board",
    "CardInfo",
    "GameLog",
    "Timeline",
    "card",
    "cards",
    "ingest_logs",
    "position",
    "read_log",
    "report",
    "rulesets",
    "simulate",
    "sql",
    "timeline",
    "verify",
]

DEFAULT_DB = "annals.duckdb"
_LAZY = {
    "Board": "annals.queries.pictures.board",
    "CardInfo": "annals.engine.core",
    "GameLog": "annals.schemas.logfile",
    "Timeline": "annals.queries.positions.timeline",
}


def __getattr__(name: str) -> Any:
    """The classes of the API, imported when first named."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'annals' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


Pathish = str | Path


def rulesets() -> list[str]:
    """The names of the rulesets annals can play and read.

    >>> import annals
    >>> {"miras9", "morana"} <= set(annals.rulesets())
    True
    """
    from annals.engine.registry import ruleset_names

    return ruleset_names()


def simulate(
    ruleset: str,
    games: int,
    *,
    decks: Sequence[str],
    out: Pathish,
    bots: Sequence[str] = ("heuristic", "heuristic"),
    seed: int = 1,
) -> list[Path]:
    """Play ``games`` bot games of ``ruleset`` between two shipped decks; return the log files written in ``out``.

    Game i uses seed ``seed + i``; seats alternate, so each deck and bot plays first as often as second. The same
    arguments write byte-identical logs.

    >>> import tempfile, pathlib, annals
    >>> logs = annals.simulate("miras9", 2, decks=["vanguard", "bastion"], out=tempfile.mkdtemp(), seed=7)
    >>> [log.name.split("-")[:2] for log in logs]
    [['miras9', '00000007'], ['miras9', '00000008']]
    """
    from annals.engine.simulate import simulate as run

    folder = Path(out)
    results = list(run(ruleset, games, seed, list(decks), list(bots), folder))
    return [next(folder.glob(f"{ruleset}-{seed + i:08d}-{r.game_id}.log")) for i, r in enumerate(results)]


def read_log(path: Pathish) -> GameLog:
    """Read and check a whole log file (checksums and chain): its header, events, decisions and result.

    A damaged file raises the named error of the first problem, with the frame and byte offset.

    >>> import tempfile, annals
    >>> [path] = annals.simulate("morana", 1, decks=["clash", "glory"], out=tempfile.mkdtemp())
    >>> log = annals.read_log(path)
    >>> log.header.ruleset, [d.name for d in log.header.decks], type(log.events[0]).__name__
    ('morana', ['clash', 'glory'], 'DeckShuffled')
    """
    from annals.schemas.logfile import read_log as read

    return read(path)


def verify(path: Pathish) -> ReplayReport:
    """Read a log, then re-run its game from the header and decisions and compare every event.

    ``ok`` is False with ``first_difference`` (an event number) and the reason when the log was edited.

    >>> import tempfile, annals
    >>> [path] = annals.simulate("morana", 1, decks=["clash", "glory"], out=tempfile.mkdtemp())
    >>> report = annals.verify(path)
    >>> report.ok, report.events_checked == len(annals.read_log(path).events)
    (True, True)
    """
    from annals.engine.replay import rerun
    from annals.schemas.logfile import read_log as read

    return rerun(read(path))


def timeline(log: Pathish) -> Timeline:
    """A game's timeline: ``resolve(coordinate)`` turns a coordinate (``event:N``, ``turn:T``, ``turn:T/STEP``,
    ``KIND:K`` such as ``damage:3`` or ``site:2``, ``start``, ``end``) into a count of events applied, and
    ``state_after(n)`` and ``position(n, view)`` rebuild the game there.

    >>> import tempfile, annals
    >>> [path] = annals.simulate("morana", 1, decks=["clash", "glory"], out=tempfile.mkdtemp())
    >>> t = annals.timeline(path)
    >>> n = t.resolve("turn:2/dusk")
    >>> t.state_after(n).turn, t.state_after(n).step, t.resolve("start"), t.resolve("end") == len(t.events)
    (2, 'dusk', 0, True)
    >>> mine, theirs = t.position(n, "player0"), t.position(n)
    >>> set(mine.cards) <= set(theirs.cards)  # player 0 sees no more than everything
    True
    """
    from annals.queries.positions.timeline import Timeline

    return Timeline.from_file(log)


def position(log: Pathish | Timeline, at: str = "end", view: str = "omniscient") -> Board:
    """The board at a coordinate, as ``view`` (``omniscient``, ``player0``, ``player1``, ``spectator``) saw it:
    cards by zone and side, each labelled ``CARD-ID#INSTANCE`` (``names`` and ``name_of`` give the card names),
    counters by holder, and how many cards are hidden.

    >>> import tempfile, annals
    >>> [path] = annals.simulate("morana", 1, decks=["clash", "glory"], out=tempfile.mkdtemp())
    >>> board = annals.position(path, at="turn:3", view="player1")
    >>> board.turn, board.view, board.hidden > 0
    (3, 'player1', True)
    >>> label = board.zones["hand"]["p1"][0]
    >>> board.name_of(label) == annals.card(label.split("#")[0], "morana").name
    True
    """
    from annals.queries.pictures.board import board
    from annals.queries.positions.timeline import Timeline

    t = log if isinstance(log, Timeline) else Timeline.from_file(log)
    return board(t, t.resolve(at), view, at)


def ingest_logs(paths: Sequence[Pathish], db: Pathish = DEFAULT_DB, *, strict: bool = False) -> IngestReport:
    """Load log files and folders into the DuckDB file ``db`` (created when missing). Idempotent: a game already
    stored is skipped; a bad file is quarantined with the reason (``strict=True`` raises instead).

    >>> import tempfile, pathlib, annals
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> logs = annals.simulate("morana", 2, decks=["clash", "glory"], out=folder / "logs")
    >>> first = annals.ingest_logs([folder / "logs"], folder / "annals.duckdb")
    >>> again = annals.ingest_logs([folder / "logs"], folder / "annals.duckdb")
    >>> first.games_added, again.games_added, again.games_skipped, again.reconciled
    (2, 0, 2, True)
    """
    from annals.ingest.loader import ingest as load

    return load(list(paths), db, strict=strict)


def report(
    name: str, db: Pathish = DEFAULT_DB, *, ruleset: str | None = None, min_games: int | None = None, **filters: Any
) -> ReportResult:
    """Run a named report (``card_metrics``, ``first_player``, ``deck_matrix``, ``game_length``, ...) on the
    database: its title, description, the sample it read, and a polars frame (win rates with a Wilson 95%
    interval). ``filters`` are those of ``annals.queries.reports.filters.Filters`` (``agent``, ``deck``, ``seat``,
    ``event``, ``since``, ``until``, ``min_turns``, ``by``); rows under ``min_games`` (default 30) are hidden.

    >>> import tempfile, pathlib, annals
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> logs = annals.simulate("morana", 4, decks=["clash", "glory"], out=folder / "logs")
    >>> _ = annals.ingest_logs([folder / "logs"], folder / "annals.duckdb")
    >>> result = annals.report("deck_matrix", folder / "annals.duckdb", ruleset="morana", min_games=0, by="agent")
    >>> result.title, result.sample.startswith("sample: 4 games"), int(result.frame["games"].sum())
    ('Deck against deck', True, 8)
    """
    from annals.ingest.schema import open_database
    from annals.queries.reports.filters import Filters
    from annals.queries.reports.run import run_report

    con = open_database(db, read_only=True)
    try:
        chosen = Filters(ruleset=ruleset, **filters)
        return run_report(con, name, min_games=min_games, database=str(db), filters=chosen)
    finally:
        con.close()


def sql(query: str, db: Pathish = DEFAULT_DB) -> pl.DataFrame:
    """Run SQL on a read-only connection to the database; the result as a polars frame.

    >>> import tempfile, pathlib, annals
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> logs = annals.simulate("morana", 2, decks=["clash", "glory"], out=folder / "logs")
    >>> _ = annals.ingest_logs([folder / "logs"], folder / "annals.duckdb")
    >>> annals.sql("SELECT ruleset, count(*) AS games FROM games GROUP BY ALL", folder / "annals.duckdb").rows()
    [('morana', 2)]
    """
    from annals.queries.reports.output import run_sql

    return run_sql(db, query)


def card(name: str, ruleset: str | None = None) -> CardInfo:
    """A card by id or name (any case, or enough of it to name one card): type, cost, stats and rules text.

    >>> import annals
    >>> sprite = annals.card("ember sprite")
    >>> sprite.id, sprite.cost, sprite.stats
    ('ember-sprite', 1, {'Power': 2, 'Reborn': 1})
    >>> annals.card("Ember Sprit3")
    Traceback (most recent call last):
    ...
    annals.queries.cards.UnknownCardError: no card 'Ember Sprit3'; did you mean Ember Sprite (morana ember-sprite), ...
    """
    from annals.queries.cards import find_card

    return find_card(name, ruleset).card


def cards(ruleset: str) -> list[CardInfo]:
    """A ruleset's card pool in the order of its card data.

    >>> import annals
    >>> pool = annals.cards("miras9")
    >>> len(pool) > 60, sorted({c.type.split(" ")[0] for c in pool})
    (True, ['equipment', 'event', 'planet', 'ship-site', 'site', 'token', 'unit'])
    """
    from annals.queries.cards import pool

    return pool(ruleset)
