"""Log files → the DuckDB database: batched, one transaction per batch, idempotent, forgiving per file.

Three stages run at once. Workers read, verify and flatten chunks of files into Arrow tables
(``ingest.flatten``): threads when the C fast path is built (``ingest.columnar``: it parses without the GIL),
else processes that send their tables back as Arrow IPC streams. The calling thread assigns game numbers and
gathers chunks until a batch holds ``batch_rows`` events (the first batches hold less, so the database starts
sooner) and makes the batch's tables, its card tables too (``ingest.cardrows``: the SQL that derived them from
the stored events, run on the batch's Arrow tables on this thread's DuckDB in memory); a writer thread inserts
each batch in one transaction (games, players, decks, cards, events, decisions, card tables and quarantine rows
together): an interrupted ingest leaves every earlier batch and none of the current one, and a rerun skips what
is stored. DuckDB is the slowest stage, on one thread
(``WRITER_THREADS``) while the other core parses: it takes about 60% of the CPU time, and the events insert alone
costs what a raw insert of the same Arrow rows does.

Idempotent by game id and log digest: a stored game with the same digest is skipped; two logs of one game id with
different digests keep neither (``ingest.claims``: both quarantined as ``ConflictingLogsError``, a stored one
withdrawn), except the same file changed since it was stored: when it only grew (the stored log is its first
frames whole: a judge's records, a signature, a game resumed after a backup, appended), the new log supersedes the
stored game, whose digest, result and time go to ``game_history``; changed any other way, it is quarantined
(``ChangedLogError``, the stored game kept). Every
log is checked as ``schemas.validate`` says before anything of it is stored (``replay``: re-run too, as
``verify`` does). A bad file goes to ``quarantine`` (file, frame, byte offset, reason) and the rest of the batch
goes in; with ``strict`` the first bad file raises ``IngestError`` and the
current batch is not written. Every event read is accounted for: read = stored + skipped + quarantined. Then the
decision reviews saved beside the logs are loaded (``ingest.reviews``).
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from itertools import islice
from pathlib import Path
from typing import Any, NamedTuple

import duckdb
import msgspec
import pyarrow as pa
import pyarrow.compute as pc

from annals.ingest import columnar
from annals.ingest.cardpools import definitions
from annals.ingest.cardrows import batch_card_tables, card_table_ddl
from annals.ingest.claims import Claim, Claims, ConflictingLogsError, Copy, Decide
from annals.ingest.connect import DatabaseError, classify
from annals.ingest.flatten import (
    Bad,
    ChangedLogError,
    Chunk,
    GameMeta,
    Skipped,
    collect,
    file_digest,
    flatten_files,
    gc_paused,
)
from annals.ingest.reviews import gather_reviews, store_reviews
from annals.ingest.schema import DEFAULT_DB, ddl, derive_card_tables, open_database, recorded_at
from annals.ingest.summary import refresh_card_summary
from annals.schemas.errors import AnnalsError
from annals.schemas.header import LogClose, played_turns
from annals.schemas.logfile import judged_result
from annals.schemas.records import LEADER_INDEX, instance_id
from annals.schemas.rulesets import register_schema, registrations, schema_for

BATCH_ROWS = 2_000_000  # large transactions write straight to the file; small ones go through the WAL
CHUNK_FILES = 256  # a chunk has a fixed cost, but a larger one keeps the database waiting longer for its first batch


class IngestError(AnnalsError, ValueError):
    """``--strict``: a file could not be ingested."""


class IngestReport(msgspec.Struct):
    files: int = 0
    games_added: int = 0
    games_skipped: int = 0
    files_quarantined: int = 0
    events_read: int = 0
    events_stored: int = 0
    events_skipped: int = 0
    events_quarantined: int = 0
    decisions_stored: int = 0
    batches: int = 0
    quarantined: list[str] = []  # "file: Error: reason" lines
    games_withdrawn: int = 0  # games stored by an earlier ingest, taken out for a conflict (``ingest.claims``)
    events_withdrawn: int = 0
    games_superseded: int = 0  # stored games whose log grew since (judge frames appended): replaced by it
    reviews_loaded: int = 0  # review files beside the logs loaded into decision_reviews (``ingest.reviews``)
    review_rows: int = 0  # their decisions
    reviews_skipped: list[str] = []  # "file: Error: reason" lines of the review files not loaded

    @property
    def reconciled(self) -> bool:
        return self.events_read == self.events_stored + self.events_skipped + self.events_quarantined


Progress = Callable[[int, int], None]  # (files done, events done)

_known: dict[str, str] = {}
_replay = [False]


def _init_worker(known: dict[str, str], replay: bool, schemas: dict[str, str], rules: dict[str, str]) -> None:
    """A spawned worker starts from a fresh interpreter: it repeats the parent's ruleset registrations (the rules
    modules too when it re-runs games, ``--replay``)."""
    global _known
    _known = known
    _replay[0] = replay
    for name, module in schemas.items():
        register_schema(name, module)
    if replay:
        from annals.engine.registry import register_ruleset  # the engine only when asked to re-run games

        for name, module in rules.items():
            register_ruleset(name, module, schemas[name])


class _Sent(NamedTuple):
    """A chunk as a worker sends it back: its tables as Arrow IPC streams (a copy into the pipe and a zero-copy
    read, where pickling a table costs several times more), the rest as it is."""

    chunk: Chunk  # with empty tables
    events: bytes
    decisions: bytes


def _ipc(table: pa.Table) -> bytes:
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return memoryview(sink.getvalue()).tobytes()


def _work(paths: Sequence[str]) -> _Sent:
    chunk = flatten_files(paths, _known, replay=_replay[0])
    empty = chunk._replace(events=chunk.events.schema.empty_table(), decisions=chunk.decisions.schema.empty_table())
    return _Sent(empty, _ipc(chunk.events), _ipc(chunk.decisions))


def _received(sent: _Sent) -> Chunk:
    read = pa.ipc.open_stream
    return sent.chunk._replace(events=read(sent.events).read_all(), decisions=read(sent.decisions).read_all())


def _chunks(files: list[str], size: int) -> list[list[str]]:
    return [files[i : i + size] for i in range(0, len(files), size)]


POOL_MIN_CHUNKS = 4  # below this, starting worker processes costs more than it saves
# DuckDB's threads for the writer's connection. On two, inserting a batch's table as the chunks of files it was
# flattened in (in order) took about twice the CPU time of the same rows in one chunk (2.6 s against 1.3 s for 2 M
# events; a chunk that does not end on a row group boundary leaves a part of one to merge again), so the chunks were
# copied into one (0.15-0.5 s). On one thread the chunks go in as they come at the cost of one chunk, no copy: the
# rows are compressed at commit instead of during the insert, and the card tables' SQL costs the same. The other
# core is parsing the next batch meanwhile.
WRITER_THREADS = 1
THREADS_AHEAD = 16  # chunks in flight: a batch's worth (BATCH_ROWS / CHUNK_FILES games of ~500 events)


def _results(chunks: list[list[str]], known: dict[str, str], workers: int, replay: bool = False) -> Iterator[Chunk]:
    """Each chunk flattened, in order; ``known`` is read as it is now (the caller goes on adding to it). With
    ``replay`` the rules run in Python, so worker processes, not threads."""
    known = dict(known)
    if workers <= 1 or len(chunks) < POOL_MIN_CHUNKS:
        for chunk in chunks:
            yield flatten_files(chunk, known, replay=replay)
        return
    if columnar.enabled() and not replay:
        yield from _threaded(chunks, known, workers)
        return
    ctx = multiprocessing.get_context("spawn")
    rules: dict[str, str] = {}
    if replay:
        from annals.engine.registry import engine_registrations

        rules = engine_registrations()
    with ctx.Pool(workers, initializer=_init_worker, initargs=(known, replay, registrations(), rules)) as pool:
        for sent in pool.imap(_work, chunks):
            yield _received(sent)


def _threaded(chunks: list[list[str]], known: dict[str, str], workers: int) -> Iterator[Chunk]:
    """Threads, when the C parser is built: it releases the GIL, so they parse while DuckDB inserts (which also
    releases it), and the tables need no copy between processes. Up to ``THREADS_AHEAD`` chunks are flattened
    ahead, so the threads keep parsing through a whole batch's insert; if the caller stops early (an error, an
    interrupt), the chunks not yet started are dropped."""
    pool = ThreadPoolExecutor(workers, thread_name_prefix="annals-ingest")
    try:
        todo = iter(chunks)
        running = deque(pool.submit(flatten_files, c, known) for c in islice(todo, THREADS_AHEAD))
        while running:
            done = running.popleft().result()
            following = next(todo, None)
            if following is not None:
                running.append(pool.submit(flatten_files, following, known))
            yield done
    finally:
        pool.shutdown(cancel_futures=True)


class _Batch:
    def __init__(self) -> None:
        self.games: list[tuple[int, GameMeta]] = []
        self.events: list[pa.Table] = []
        self.decisions: list[pa.Table] = []
        self.bad: list[Bad] = []
        self.rows = 0
        self.withdraw: list[int] = []  # games stored by earlier batches, deleted by this one (``ingest.claims``)
        self.superseded: list[tuple[int, str]] = []  # of those, each stored game whose log grew, and the new digest
        self.dropped: set[int] = set()  # games of this batch withdrawn before it was written


_STORED = "SELECT game_id, digest, file, game, events, decisions FROM games"


class _Run:
    """Where each game read goes (``ingest.claims``): stored, skipped as a copy, or quarantined in a conflict."""

    def __init__(self, report: IngestReport, claims: Claims, strict: bool, decide: Decide | None):
        self.report, self.claims, self.strict, self.decide = report, claims, strict, decide
        self.batch = _Batch()
        self.next_game = 1

    def take(self, chunk: Chunk) -> None:
        """A flattened chunk into the current batch: each game placed (numbered, skipped or quarantined), the rows
        of those stored numbered by game."""
        batch = self.batch
        for s in chunk.skipped:
            self.skipped(s)
        for b in chunk.bad:
            _quarantine(self.report, batch, b, self.strict)
        keep: list[int] = []
        gnos: list[int] = []
        for i, meta in enumerate(chunk.games):
            gno = self.place(meta)
            gnos.append(gno)
            if gno >= 0:
                keep.append(i)
        gno_array = pa.array(gnos, pa.int32())
        events, decisions = chunk.events, chunk.decisions
        if len(keep) != len(chunk.games):
            keep_idx = pa.array(keep, pa.int32())
            events = events.filter(pc.is_in(events.column("file_idx"), keep_idx))
            decisions = decisions.filter(pc.is_in(decisions.column("file_idx"), keep_idx))
        batch.events.append(_with_game(events, gno_array))
        batch.decisions.append(_with_game(decisions, gno_array))
        batch.rows += sum(chunk.games[i].events for i in keep)

    def skipped(self, s: Skipped) -> None:
        if s.game_id in self.claims.conflicted:
            self._conflict(s.file, s.game_id, s.events)
            return
        self.claims.copies.setdefault(s.game_id, []).append(Copy(s.file, s.events))
        self.report.games_skipped += 1
        self.report.events_read += s.events
        self.report.events_skipped += s.events

    def place(self, meta: GameMeta) -> int:
        """The game number ``meta`` is stored under, or -1."""
        claims, gid = self.claims, meta.header.game_id
        if gid in claims.conflicted:
            self._conflict(meta.file, gid, meta.events)
            return -1
        held = claims.holder.get(gid)
        if held is None:
            return self._store(meta)
        if held.digest == meta.digest:
            self.skipped(Skipped(meta.file, gid, meta.digest, meta.events))
            return -1
        if held.prior and held.file == meta.file and meta.grows:  # this very file, only appended to since
            return self._supersede(meta, held)
        if held.prior and held.file == meta.file:  # this very file, changed in another way since it was stored
            _quarantine(self.report, self.batch, _changed(meta, held.digest), self.strict)
            return -1
        kept = self.decide(held.file, meta.file) if self.decide is not None else None
        if kept == held.file:
            exc = ConflictingLogsError(gid, [held.file, meta.file], kept)
            _quarantine(self.report, self.batch, _conflicted(meta.file, gid, exc, meta.events), self.strict)
            return -1
        files = [held.file, *(c.file for c in claims.copies.get(gid, [])), meta.file]
        del claims.holder[gid]
        self._withdraw(gid, held, files if kept is None else [held.file, meta.file], kept)
        if kept == meta.file:
            return self._store(meta)
        claims.conflicted[gid] = files
        self._conflict(meta.file, gid, meta.events)
        return -1

    def _store(self, meta: GameMeta) -> int:
        gno = self.next_game
        self.next_game += 1
        self.claims.holder[meta.header.game_id] = Claim(meta.digest, meta.file, gno, meta.events, meta.decisions,
                                                        False)  # fmt: skip
        self.batch.games.append((gno, meta))
        r = self.report
        r.games_added += 1
        r.events_read += meta.events
        r.events_stored += meta.events
        r.decisions_stored += meta.decisions
        return gno

    def _supersede(self, meta: GameMeta, held: Claim) -> int:
        """The stored game's log grew since it was stored: it leaves the database for the new one (in the same
        transaction), its digest, result and time kept in ``game_history``."""
        self.batch.withdraw.append(held.game)
        self.batch.superseded.append((held.game, meta.digest))
        del self.claims.holder[meta.header.game_id]
        gno = self._store(meta)
        self.report.games_added -= 1  # not a new game: the same one, its record grown
        self.report.games_superseded += 1
        return gno

    def _conflict(self, file: str, gid: str, events: int) -> None:
        files = self.claims.conflicted[gid]
        if file not in files:
            files.append(file)
        exc = ConflictingLogsError(gid, [f for f in files if f != file] + [file])
        _quarantine(self.report, self.batch, _conflicted(file, gid, exc, events), self.strict)

    def _withdraw(self, gid: str, held: Claim, files: list[str], kept: str | None) -> None:
        """The stored game ``held`` leaves the database; its file and skipped copies go to quarantine."""
        r, batch = self.report, self.batch
        exc = ConflictingLogsError(gid, files, kept)
        bad = _conflicted(held.file, gid, exc, held.events)
        if held.prior:  # stored by an earlier ingest: not read by this one
            if self.strict:
                _quarantine(r, batch, bad, self.strict)
            r.games_withdrawn += 1
            r.events_withdrawn += held.events
            r.quarantined.append(_line(bad))
            batch.bad.append(bad)
        else:
            r.games_added -= 1
            r.events_read -= held.events
            r.events_stored -= held.events
            r.decisions_stored -= held.decisions
            _quarantine(r, batch, bad, self.strict)
        if held.prior or all(gno != held.game for gno, _ in batch.games):
            batch.withdraw.append(held.game)
        else:
            batch.dropped.add(held.game)
            batch.games = [(gno, m) for gno, m in batch.games if gno != held.game]
        for c in self.claims.copies.pop(gid, []):
            r.games_skipped -= 1
            r.events_read -= c.events
            r.events_skipped -= c.events
            _quarantine(r, batch, _conflicted(c.file, gid, exc, c.events), self.strict)


_GAME_COLUMNS = [
    "game", "game_id", "file", "digest", "ruleset", "ruleset_version", "engine_version", "card_pool_hash",
    "format_version", "seed", "max_turns", "event", "round", "table_no", "match", "game_no", "branched_from",
    "branched_at", "first_player", "winner", "end_reason", "events", "decisions", "turns",
]  # fmt: skip


def _first_player(ruleset: str, first: int) -> int | None:
    """The player who took turn 1; NULL where both players take every turn together ([MOR-13])."""
    return None if schema_for(ruleset).simultaneous_turns else first


class _DeckLists:
    """The deck_cards rows of a batch, gathered a deck at a time (its card ids, then its leader's) and made columns
    by Arrow: a Python int per row for the game, seat, index and instance cost as much as the rest of the batch's
    game rows together."""

    def __init__(self) -> None:
        self.cards: list[list[str]] = []
        self.game: list[int] = []
        self.seat: list[int] = []
        self.size: list[int] = []  # the deck's own cards, without the leader
        self.first: list[int] = []  # instance_id(seat, 0): a deck's instances are consecutive from it
        self.leader: list[int] = []  # instance_id(seat, LEADER_INDEX)

    def add(self, game: int, seat: int, cards: list[str], leader: str) -> None:
        self.cards.append([*cards, leader] if leader else cards)
        self.game.append(game)
        self.seat.append(seat)
        self.size.append(len(cards))
        self.first.append(instance_id(seat, 0))
        self.leader.append(instance_id(seat, LEADER_INDEX))

    def table(self) -> pa.Table:
        lists = pa.array(self.cards, pa.list_(pa.string()))
        deck = pc.list_parent_indices(lists)
        rows = len(lists.values)
        idx = pc.subtract(pa.array(range(rows), pa.int32()), pc.take(lists.offsets, deck))
        is_leader = pc.equal(idx, pc.take(pa.array(self.size, pa.int32()), deck))  # the slot after the cards
        instance = pc.add(pc.take(pa.array(self.first, pa.int32()), deck), idx)
        return pa.table(
            {
                "game": pc.take(pa.array(self.game, pa.int32()), deck),
                "seat": pc.take(pa.array(self.seat, pa.int32()), deck),
                "idx": pc.if_else(is_leader, pa.scalar(-1, pa.int32()), idx),
                "instance": pc.if_else(is_leader, pc.take(pa.array(self.leader, pa.int32()), deck), instance),
                "card_id": lists.flatten(),
            }
        )


def _game_rows(batch: _Batch) -> dict[str, pa.Table]:
    """The batch's games, players and deck cards as Arrow tables, built column by column."""
    games: list[tuple[Any, ...]] = []
    players: dict[str, list[Any]] = {"game": [], "seat": [], "name": [], "agent": [], "deck": [], "leader": []}
    decks = _DeckLists()
    dates: dict[str, list[Any]] = {"game": [], "recorded_at": []}
    for gno, m in batch.games:
        dates["game"].append(gno)
        dates["recorded_at"].append(recorded_at(m.modified))
        h = m.header
        t = h.tournament
        b = h.branched_from
        winner, end_reason = judged_result(  # a judge's game loss or override is the result the games table holds
            LogClose(m.winner, m.end_reason, m.events, m.decisions, m.turns), [j.record for j in m.judged]
        )
        games.append(
            (gno, h.game_id, m.file, m.digest, h.ruleset, h.ruleset_version, h.engine_version, h.card_pool_hash,
             h.format_version, h.seed, h.max_turns, t.event if t else None, t.round if t else None,
             t.table if t else None, t.match if t else None, t.game if t else None, b.game_id if b else None,
             b.at_event if b else None, _first_player(h.ruleset, m.first_player), winner, end_reason, m.events,
             m.decisions, played_turns(m.turns, m.end_reason, h.max_turns))
        )  # fmt: skip
        for seat, (player, dl) in enumerate(zip(h.players, h.decks, strict=False)):
            for key, v in zip(players, (gno, seat, player.name, player.agent, dl.name, dl.leader), strict=True):
                players[key].append(v)
            decks.add(gno, seat, dl.cards, dl.leader)
    columns = list(zip(*games, strict=True))
    tables = {
        "g": pa.table(
            {
                name: pa.array(column, pa.int32() if name == "first_player" else None)
                for name, column in zip(_GAME_COLUMNS, columns, strict=True)
            }
        ),
        "t": pa.table(
            {
                "game": pa.array(dates["game"], pa.int32()),
                "recorded_at": pa.array(dates["recorded_at"], pa.timestamp("us")),
            }
        ),
        "p": pa.table(players),
        "d": decks.table(),
    }
    judged = _judge_rows(batch)
    if judged:
        tables["j"] = pa.Table.from_pylist(judged)
    return tables


def _judge_rows(batch: _Batch) -> list[dict[str, Any]]:
    """A row per judge frame of the batch's logs (``interventions``), the player named by tournament id or name."""
    rows: list[dict[str, Any]] = []
    for _, m in batch.games:
        h, t = m.header, m.header.tournament
        people = list(t.player_ids) if t and t.player_ids else [p.name for p in h.players]
        for seen in m.judged:
            r = seen.record
            rows.append(
                {"event_id": t.event if t else None, "round": t.round if t else None,
                 "table_no": t.table if t else None, "game_no": t.game if t else None, "game_id": h.game_id,
                 "frame": seen.frame, "kind": r.kind, "judge": r.judge,
                 "player_id": people[r.player] if 0 <= r.player < len(people) else None, "reason": r.reason or None,
                 "at_event": r.at_event, "data": msgspec.json.encode(r).decode()}
            )  # fmt: skip
    return rows


_DECISION_COLS = "game, n, at_event, player, point, n_offered, chosen, chosen_kind, chosen_option, offered"


class _Tables(NamedTuple):
    """A batch as the Arrow tables its transaction inserts, made by the gathering thread so that the writer thread
    (the slowest stage) only runs SQL."""

    games: dict[str, pa.Table]  # _in_g games, _in_p players, _in_d deck cards, _in_t dates, _in_j judge frames
    cards: pa.Table
    events: pa.Table | None
    decisions: pa.Table | None
    numbers: tuple[int, int] | None  # the batch's first and last game number
    quarantine: pa.Table | None
    withdraw: list[int]  # games of earlier batches to delete first
    superseded: list[tuple[int, str]] = []  # of those, the games whose logs grew (into ``game_history`` first)
    card_rows: dict[str, pa.Table] | None = None  # CARD_TABLES' rows made beside the writer; None: derived by SQL


def _tables(batch: _Batch) -> _Tables:
    # The chunks' tables as they are, no copy into one chunk per column: DuckDB on one thread (``WRITER_THREADS``)
    # inserts them in order as fast as one chunk.
    def gathered(tables: list[pa.Table]) -> pa.Table | None:
        if not tables:
            return None
        table = pa.concat_tables(tables)
        if batch.dropped:  # games withdrawn before the batch was written (``ingest.claims``)
            table = table.filter(pc.invert(pc.is_in(table.column("game"), pa.array(sorted(batch.dropped), pa.int32()))))
        return _as_json(table)

    numbers = [gno for gno, _ in batch.games]
    return _Tables(
        _game_rows(batch) if batch.games else {},
        _card_rows(batch),
        gathered(batch.events),
        gathered(batch.decisions),
        (min(numbers), max(numbers)) if numbers else None,
        pa.Table.from_pylist([b._asdict() for b in batch.bad]) if batch.bad else None,
        list(batch.withdraw),
        list(batch.superseded),
    )


_JSON = pa.json_(pa.string())
_JSON_COLUMNS = ("extra", "chosen_option", "offered")


def _as_json(table: pa.Table) -> pa.Table:
    """The JSON text columns typed as Arrow's JSON extension type, which DuckDB takes into its JSON columns as they
    are: as plain strings it would parse every value to check it, and annals writes these texts itself."""
    for name in _JSON_COLUMNS:
        i = table.schema.get_field_index(name)
        if i >= 0:
            column = pa.chunked_array([pa.ExtensionArray.from_storage(_JSON, c) for c in table.column(i).chunks], _JSON)
            table = table.set_column(i, pa.field(name, _JSON), column)
    return table


def _write(con: duckdb.DuckDBPyConnection, t: _Tables) -> None:
    """One transaction: everything in the batch, or nothing."""
    con.execute("BEGIN TRANSACTION")
    try:
        for game, digest in t.superseded:  # before they go: what the superseded logs said, and when
            con.execute(ddl("game_history"), {"game": game, "superseded_by": digest})
        if t.withdraw:
            con.execute(  # a judge's records of a withdrawn game go with it (they name it by id)
                "DELETE FROM interventions WHERE game_id IN (SELECT game_id FROM games WHERE game IN "
                "(SELECT unnest($games)))",
                {"games": t.withdraw},
            )
            for table in WITHDRAW_FROM:
                con.execute(f"DELETE FROM {table} WHERE game IN (SELECT unnest($games))", {"games": t.withdraw})
        if t.numbers is not None:
            for name, table in t.games.items():
                con.register(f"_in_{name}", table)
            con.execute("INSERT INTO games BY NAME SELECT * FROM _in_g")
            con.execute("INSERT INTO players BY NAME SELECT * FROM _in_p")
            con.execute("INSERT INTO deck_cards BY NAME SELECT * FROM _in_d")
            con.execute("INSERT INTO game_dates BY NAME SELECT * FROM _in_t")
            if "j" in t.games:
                con.execute("INSERT INTO interventions BY NAME SELECT * FROM _in_j")
            con.register("_in_c", t.cards)
            con.execute("INSERT OR IGNORE INTO cards SELECT * FROM _in_c")  # the whole pool, when known
            con.execute(  # and any card id the decks name that the pool does not describe
                "INSERT OR IGNORE INTO cards SELECT DISTINCT r.ruleset, r.card_pool_hash, d.card_id, NULL, NULL, NULL "
                "FROM _in_d d JOIN (SELECT DISTINCT game, ruleset, card_pool_hash FROM _in_g) r USING (game)"
            )
            con.unregister("_in_c")
            if t.events is not None and t.events.num_rows:
                con.register("_in_e", t.events)
                con.execute("INSERT INTO events SELECT * FROM _in_e")
                con.unregister("_in_e")
            if t.decisions is not None and t.decisions.num_rows:
                con.register("_in_x", t.decisions)
                con.execute(f"INSERT INTO decisions SELECT {_DECISION_COLS} FROM _in_x")
                con.unregister("_in_x")
            for name in t.games:
                con.unregister(f"_in_{name}")
            if t.card_rows is None:
                derive_card_tables(con, *t.numbers)
            else:
                for name, rows in t.card_rows.items():
                    con.register("_in_k", rows)
                    con.execute(f"INSERT INTO {name} SELECT * FROM _in_k")
                    con.unregister("_in_k")
        if t.quarantine is not None:
            con.register("_in_q", t.quarantine)
            con.execute(
                'INSERT OR IGNORE INTO quarantine SELECT file, file_digest, game_id, error, frame, "offset", '
                "reason, events_read FROM _in_q"
            )
            con.unregister("_in_q")
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


# A game's rows, table by table, in the order they are deleted (a withdrawn, superseded or removed game)
WITHDRAW_FROM = (
    "decision_reviews",
    "card_facts",
    "card_games",
    "game_dates",
    "decisions",
    "events",
    "deck_cards",
    "players",
    "games",
)


def _card_rows(batch: _Batch) -> pa.Table:
    """Definitions of the pools the batch's games were played with (see ``ingest.cardpools``)."""
    rows: list[dict[str, str]] = []
    for ruleset, pool_hash in sorted({(m.header.ruleset, m.header.card_pool_hash) for _, m in batch.games}):
        for card_id, (name, kind, data) in definitions(ruleset, pool_hash).items():
            rows.append({"ruleset": ruleset, "card_pool_hash": pool_hash, "card_id": card_id, "name": name,
                         "type": kind, "data": data})  # fmt: skip
    schema = pa.schema([(f, pa.string()) for f in ("ruleset", "card_pool_hash", "card_id", "name", "type", "data")])
    return pa.Table.from_pylist(rows, schema=schema)


def _with_game(table: pa.Table, gnos: pa.Array) -> pa.Table:
    game = pc.take(gnos, table.column("file_idx"))
    return table.set_column(0, pa.field("game", pa.int32()), game)


def ingest(
    paths: Sequence[str | Path],
    db: str | Path = DEFAULT_DB,
    *,
    strict: bool = False,
    workers: int | None = None,
    batch_rows: int = BATCH_ROWS,
    chunk_files: int = CHUNK_FILES,
    on_progress: Progress | None = None,
    on_files: Callable[[int], None] | None = None,
    replay: bool = False,
    decide: Decide | None = None,
    first_game: int = 1,
) -> IngestReport:
    """Ingest log files and folders into the database at ``db``; see the module docstring.

    ``replay``: re-run every game as ``annals verify`` does and quarantine one that differs (several times the
    cost of ingest: the rules run in Python). ``decide``: the hook for logs in conflict (``ingest.claims``).
    ``first_game``: the lowest game number to give (the lake numbers each archive's games from its own base)."""
    files = collect(paths)
    if on_files is not None:
        on_files(len(files))
    with gc_paused():  # millions of objects come and go, next to none in cycles: collecting only costs time
        try:
            return _ingest(
                files, open_database(db), strict, workers, batch_rows, chunk_files, on_progress, replay, decide,
                first_game,
            )  # fmt: skip
        except duckdb.Error as exc:  # a full disk, a lost lock: named, with what to do (earlier batches are kept)
            named = classify(exc, str(db))
            if named is None:
                raise DatabaseError(f"database {db}: {exc}") from None
            raise named from None


def _ingest(
    files: list[str],
    con: duckdb.DuckDBPyConnection,
    strict: bool,
    workers: int | None,
    batch_rows: int,
    chunk_files: int,
    on_progress: Progress | None,
    replay: bool = False,
    decide: Decide | None = None,
    first_game: int = 1,
) -> IngestReport:
    report = IngestReport(files=len(files))
    writer = _Writer(con)
    try:
        claims = Claims(con.execute(_STORED).fetchall())
        run = _Run(report, claims, strict, decide)
        stored_next = int(con.execute("SELECT coalesce(max(game), 0) + 1 FROM games").fetchall()[0][0])
        run.next_game = max(first_game, stored_next)
        n_workers = workers if workers is not None else min(2, os.cpu_count() or 1)
        done = 0
        for chunk in _results(_chunks(files, chunk_files), claims.digests(), n_workers, replay):
            run.take(chunk)
            batch = run.batch
            done += len(chunk.games) + len(chunk.skipped) + len(chunk.bad)
            if batch.rows >= batch_rows >> max(0, 3 - report.batches):  # 1/8, 1/4, 1/2: the database starts sooner
                writer.write(batch)
                report.batches += 1
                run.batch = _Batch()
            if on_progress is not None:
                on_progress(done, report.events_read)
        batch = run.batch
        if batch.games or batch.bad or batch.withdraw:
            writer.write(batch)
            report.batches += 1
        writer.close()
        refresh_card_summary(con)  # card_winrate's counts per seat context, from every stored game
        _reviews(con, files, report, strict)
    except BaseException:
        writer.close(quiet=True)  # the batches before stay written; the error in hand is the one to report
        raise
    finally:
        con.close()
    return report


def _reviews(con: duckdb.DuckDBPyConnection, files: list[str], report: IngestReport, strict: bool) -> None:
    """The reviews saved beside the logs, once the logs are stored (``ingest.reviews``)."""
    gathered = gather_reviews(con, files)
    if strict and gathered.skipped:
        raise IngestError(f"--strict: {gathered.skipped[0]}; no review was loaded (the logs were)")
    report.reviews_skipped = gathered.skipped
    report.review_rows = store_reviews(con, gathered)
    report.reviews_loaded = len(gathered.games)


class _Writer:
    """Writes batches on a thread of its own, one at a time and in order, while the caller gathers the next one
    (DuckDB releases the GIL while it inserts)."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        # the setting is the database's, shared by every connection to it in this process: given back in close()
        self.threads = int(con.execute("SELECT current_setting('threads')").fetchall()[0][0])
        con.execute(f"SET threads = {WRITER_THREADS}")
        self.card_ddl = card_table_ddl(con)
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="annals-write")
        self.pending: Future[None] | None = None

    def write(self, batch: _Batch) -> None:
        tables = _tables(batch)  # while the previous batch is still being written
        if tables.numbers is not None and tables.events is not None:  # and its card tables (``ingest.cardrows``)
            cards = batch_card_tables(tables.events, tables.games["d"], *tables.numbers, self.card_ddl)
            tables = tables._replace(card_rows=cards)
        self.wait()
        self.pending = self.pool.submit(_write, self.con, tables)

    def wait(self) -> None:
        pending, self.pending = self.pending, None
        if pending is not None:
            pending.result()

    def close(self, quiet: bool = False) -> None:
        try:
            self.wait()
        except Exception:
            if not quiet:
                raise
        finally:
            self.pool.shutdown()
            try:
                self.con.execute(f"SET threads = {self.threads}")
            except duckdb.Error:  # a database that failed (a full disk): the error in hand is the one to report
                if not quiet:
                    raise


def _changed(meta: GameMeta, stored: str) -> Bad:
    exc = ChangedLogError(meta.header.game_id, stored, meta.digest, meta.events)
    return Bad(meta.file, file_digest(meta.file), meta.header.game_id, "ChangedLogError", None, None, str(exc),
               meta.events)  # fmt: skip


def _conflicted(file: str, gid: str, exc: ConflictingLogsError, events: int) -> Bad:
    try:
        digest = file_digest(file)
    except OSError:  # a stored game's file that has gone since
        digest = ""
    return Bad(file, digest, gid, "ConflictingLogsError", None, None, str(exc), events)


def _line(bad: Bad) -> str:
    where = "" if bad.frame is None else f" (frame {bad.frame}, byte {bad.offset})"
    return f"{bad.file}{where}: {bad.error}: {bad.reason}"


def _quarantine(report: IngestReport, batch: _Batch, bad: Bad, strict: bool) -> None:
    line = _line(bad)
    if strict:
        raise IngestError(f"--strict: {line}; nothing of the current batch was written")
    report.events_read += bad.events_read
    report.events_quarantined += bad.events_read
    report.files_quarantined += 1
    report.quarantined.append(line)
    batch.bad.append(bad)
