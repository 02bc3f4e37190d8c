"""Ingest on real databases: keys, accepted values, reconciliation with the logs, idempotence, quarantine,
strictness, changed logs and schema versions."""

from __future__ import annotations

import typing
from pathlib import Path

import duckdb
import msgspec
import pytest

from annals.engine.registry import get_ruleset
from annals.ingest.flatten import collect
from annals.ingest.loader import IngestError, ingest
from annals.ingest.schema import SchemaVersionError, open_database
from annals.schemas.header import LogClose
from annals.schemas.logfile import LogWriter, read_log

TABLES = ("games", "players", "deck_cards", "cards", "events", "decisions", "card_facts", "quarantine")


def snapshot(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every table's rows in a fixed order: two databases are the same when their snapshots are equal."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        return {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in TABLES}
    finally:
        con.close()


def test_keys_unique(db: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    for table, key in [
        ("games", "game_id"),
        ("games", "game"),
        ("events", "game, n"),
        ("decisions", "game, n"),
        ("players", "game, seat"),
        ("deck_cards", "game, instance"),
        ("card_facts", "game, seat, card_id"),
    ]:
        dupes = con.execute(f"SELECT count(*) FROM (SELECT {key} FROM {table} GROUP BY ALL HAVING count(*) > 1)")
        assert dupes.fetchall()[0][0] == 0, (table, key)


def test_accepted_values(db: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    kinds = {
        name: sorted(c.__name__ for c in typing.get_args(get_ruleset(name).schema.event_type))
        for name in ("cardtoy", "toy")
    }
    for ruleset, allowed in kinds.items():
        found = con.execute(
            "SELECT DISTINCT kind FROM events JOIN games USING (game) WHERE ruleset = ? ORDER BY 1", [ruleset]
        ).fetchall()
        assert {k for (k,) in found} <= set(allowed)
    assert con.execute("SELECT DISTINCT player FROM events ORDER BY 1").fetchall() == [(-1,), (0,), (1,)]
    assert {w for (w,) in con.execute("SELECT DISTINCT winner FROM games").fetchall()} <= {-1, 0, 1}
    zones = con.execute("SELECT DISTINCT dst FROM zone_moves ORDER BY 1").fetchall()
    assert zones == [("board",), ("deck",), ("hand",)]
    # event numbers are contiguous from 0 and match the closing record's count
    bad = con.execute(
        "SELECT count(*) FROM (SELECT game, count(*) c, min(n) lo, max(n) hi FROM events GROUP BY game) e "
        "JOIN games g USING (game) WHERE e.c <> g.events OR e.lo <> 0 OR e.hi <> g.events - 1"
    )
    assert bad.fetchall()[0][0] == 0
    # chosen indexes lie within the options offered
    assert con.execute("SELECT count(*) FROM decisions WHERE chosen < 0 OR chosen >= n_offered").fetchall() == [(0,)]


def test_counts_reconcile_with_logs(db: Path, logs_dir: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    stored = {
        gid: (events, decisions, digest, winner)
        for gid, events, decisions, digest, winner in con.execute(
            "SELECT game_id, events, decisions, digest, winner FROM games"
        ).fetchall()
    }
    for path in collect([logs_dir]):
        log = read_log(path)
        assert stored[log.header.game_id] == (len(log.events), len(log.decisions), log.digest, log.close.winner)
    counts = con.execute("SELECT (SELECT count(*) FROM events), (SELECT count(*) FROM decisions)").fetchall()[0]
    assert counts == (sum(v[0] for v in stored.values()), sum(v[1] for v in stored.values()))


def test_event_rows_equal_the_logged_events(db: Path, logs_dir: Path) -> None:
    """Spot check one game field by field against the decoded log."""
    path = collect([logs_dir / "cardtoy"])[3]
    log = read_log(path)
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute(
        "SELECT n, turn, step, player, kind, card, cards, src, dst, counter, holder, value, amount, source "
        "FROM events JOIN games USING (game) WHERE game_id = ? ORDER BY n",
        [log.header.game_id],
    ).fetchall()
    assert len(rows) == len(log.events)
    for row, event in zip(rows, log.events, strict=True):
        fields = ("card", "cards", "src", "dst", "counter", "holder", "value", "amount", "source")
        envelope = (event.n, event.turn, event.step, event.player, type(event).__name__)
        want = (*envelope, *(getattr(event, f, None) for f in fields))
        assert row == want


def test_idempotent(logs_copy: Path, tmp_path: Path) -> None:
    path = tmp_path / "a.duckdb"
    first = ingest([logs_copy], path, workers=1)
    before = snapshot(path)
    again = ingest([logs_copy], path, workers=2, chunk_files=7)
    assert again.games_added == 0 and again.games_skipped == first.games_added
    assert again.reconciled and again.events_skipped == first.events_stored
    assert snapshot(path) == before


def test_workers_and_batches_do_not_change_the_result(logs_copy: Path, tmp_path: Path) -> None:
    one = tmp_path / "one.duckdb"
    two = tmp_path / "two.duckdb"
    ingest([logs_copy], one, workers=1)
    report = ingest([logs_copy], two, workers=2, chunk_files=5, batch_rows=500)
    assert report.batches > 1
    assert snapshot(one) == snapshot(two)


def damage(folder: Path) -> dict[str, Path]:
    """A truncated, a bit-flipped and a wrong-version copy of three logs, beside the good ones."""
    logs = collect([folder / "cardtoy"])
    truncated, flipped, version = Path(logs[0]), Path(logs[1]), Path(logs[2])
    data = truncated.read_bytes()
    truncated.write_bytes(data[:-10])  # a torn closing frame: every batch frame before it is intact
    raw = bytearray(flipped.read_bytes())
    raw[len(raw) - 60] ^= 0x10  # inside the last batch frame
    flipped.write_bytes(bytes(raw))
    raw = bytearray(version.read_bytes())
    raw[8] = 99  # the format version u16 after the 8 magic bytes
    version.write_bytes(bytes(raw))
    return {"TruncatedLogError": truncated, "CorruptLogError": flipped, "UnsupportedFormatError": version}


@pytest.mark.parametrize("workers", [1, 2])
def test_quarantine_in_one_batch(logs_copy: Path, tmp_path: Path, workers: int) -> None:
    original = read_log(collect([logs_copy / "cardtoy"])[0])
    bad = damage(logs_copy)
    path = tmp_path / "q.duckdb"
    report = ingest([logs_copy], path, workers=workers, chunk_files=3)
    assert report.files_quarantined == 3 and report.batches == 1
    assert report.games_added == report.files - 3
    assert report.reconciled and report.events_quarantined > 0
    con = duckdb.connect(str(path), read_only=True)
    rows = con.execute("SELECT error, file, frame, byte_offset, reason, events_read FROM quarantine").fetchall()
    by_error = {r[0]: r for r in rows}
    assert set(by_error) == set(bad)
    for error, file in bad.items():
        assert by_error[error][1] == str(file)
        assert by_error[error][4]
    assert by_error["UnsupportedFormatError"][3] == 8 and by_error["UnsupportedFormatError"][5] == 0
    assert by_error["TruncatedLogError"][2] is not None and by_error["TruncatedLogError"][3] > 0
    assert by_error["TruncatedLogError"][5] == len(original.events)  # all its batch frames were read
    stored = con.execute("SELECT count(*) FROM games WHERE file IN (SELECT file FROM quarantine)").fetchall()
    assert stored == [(0,)]
    con.close()
    # ingesting again adds nothing and keeps one quarantine row per file
    again = ingest([logs_copy], path, workers=1)
    assert again.games_added == 0 and again.reconciled
    assert len(snapshot(path)["quarantine"]) == 3


def test_strict_stops_at_the_first_bad_file(logs_copy: Path, tmp_path: Path) -> None:
    damage(logs_copy)
    path = tmp_path / "s.duckdb"
    with pytest.raises(IngestError, match="--strict"):
        ingest([logs_copy], path, workers=1, strict=True)
    assert snapshot(path)["games"] == []


def test_strict_with_threads_keeps_whole_batches_before_the_bad_file(logs_copy: Path, tmp_path: Path) -> None:
    """Threads parse ahead and a writer thread inserts: the batches written before the bad file stay, whole."""
    files = collect([logs_copy])
    last = Path(files[-1])
    last.write_bytes(last.read_bytes()[:-10])
    path = tmp_path / "s.duckdb"
    with pytest.raises(IngestError, match="--strict"):
        ingest([logs_copy], path, workers=2, chunk_files=1, batch_rows=400, strict=True)
    con = duckdb.connect(str(path), read_only=True)
    stored = con.execute("SELECT count(*), count(*) FILTER (file = ?) FROM games", [str(last)]).fetchall()
    torn = con.execute(
        "SELECT count(*) FROM games g WHERE events <> (SELECT count(*) FROM events e WHERE e.game = g.game)"
    ).fetchall()
    con.close()
    assert 0 < stored[0][0] <= len(files) - 1 and stored[0][1] == 0 and torn == [(0,)]


def test_a_log_changed_in_place_since_it_was_stored_is_reported(logs_copy: Path, tmp_path: Path) -> None:
    """The same file, rewritten in other frames after it was stored: ``ChangedLogError``,
    and the stored game stays (its own file is the one that changed)."""
    path = tmp_path / "c.duckdb"
    ingest([logs_copy], path, workers=1)
    original = Path(collect([logs_copy / "cardtoy"])[0])
    log = read_log(original)
    writer = LogWriter(original, log.header, overwrite=True)
    k = len(log.events) // 2  # two batch frames where there was one: another digest, the same records
    writer.write_batch(log.events[:k], [d for d in log.decisions if d.at < k])
    writer.write_batch(log.events[k:], [d for d in log.decisions if d.at >= k])
    writer.close(log.close)
    assert read_log(original).digest != log.digest
    report = ingest([original], path, workers=1)
    assert report.games_added == 0 and report.files_quarantined == 1 and report.reconciled
    assert "ChangedLogError" in report.quarantined[0] and log.header.game_id in report.quarantined[0]
    con = duckdb.connect(str(path), read_only=True)
    assert con.execute("SELECT file FROM games WHERE game_id = ?", [log.header.game_id]).fetchall() == [
        (str(original),)
    ]


def test_schema_version_newer_or_older_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "v.duckdb"
    open_database(path).close()
    con = duckdb.connect(str(path))
    con.execute("UPDATE schema_version SET version = 99")
    con.close()
    with pytest.raises(SchemaVersionError, match="newer than this annals"):
        open_database(path)
    con = duckdb.connect(str(path))
    con.execute("UPDATE schema_version SET version = 0")
    con.close()
    with pytest.raises(SchemaVersionError, match="no migration"):
        open_database(path)


def test_a_writable_open_commits_the_views_and_comments_it_sets(tmp_path: Path) -> None:
    """The views, macros and comments a writable open sets go in one transaction (each in its own cost a WAL flush):
    committed, so another connection sees them, and the connection is handed back outside any transaction."""
    path = tmp_path / "open.duckdb"
    open_database(path).close()
    con = open_database(path)  # the second open sets them again over the first's
    try:
        con.execute("BEGIN")  # refused inside a transaction left open
        con.execute("ROLLBACK")
    finally:
        con.close()
    con = duckdb.connect(str(path), read_only=True)
    try:
        comments = con.execute(
            "SELECT count(*) FROM duckdb_columns() WHERE table_name IN ('events', 'decision_options') "
            "AND comment IS NOT NULL AND comment <> ''"
        ).fetchall()[0][0]
        views = {v for (v,) in con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()}
    finally:
        con.close()
    assert comments > 20 and "decision_options" in views


def test_close_record_type_is_the_foundations() -> None:
    assert LogClose.__struct_fields__ == ("winner", "end_reason", "events", "decisions", "turns")


def test_events_are_stored_in_game_and_event_order(db: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    unordered = con.execute(
        "SELECT count(*) FROM (SELECT game, n, lag(game) OVER w AS pg, lag(n) OVER w AS pn FROM events "
        "WINDOW w AS (ORDER BY rowid)) WHERE pg IS NOT NULL AND NOT (game > pg OR (game = pg AND n = pn + 1))"
    )
    assert unordered.fetchall() == [(0,)]


def test_extra_holds_every_other_field_by_name(db: Path, logs_dir: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    conventions = {"n", "turn", "step", "player", "card", "cards", "src", "dst", "counter", "holder", "value",
                   "amount", "target", "source", "card_id"}  # fmt: skip
    for path in (collect([logs_dir / "cardtoy"])[0], collect([logs_dir / "toy"])[0]):
        log = read_log(path)
        rows = con.execute(
            "SELECT extra FROM events JOIN games USING (game) WHERE game_id = ? ORDER BY n", [log.header.game_id]
        ).fetchall()
        for (extra,), event in zip(rows, log.events, strict=True):
            want = {f: getattr(event, f) for f in event.__struct_fields__ if f not in conventions}
            assert (msgspec.json.decode(extra) if extra is not None else {}) == want


def test_ingest_gives_back_the_databases_thread_setting(logs_copy: Path, tmp_path: Path) -> None:
    """The writer runs DuckDB on one thread (``WRITER_THREADS``), a setting of the database shared by every
    connection to it in the process: one held open across an ingest keeps its own."""
    path = tmp_path / "held.duckdb"
    open_database(path).close()
    held = duckdb.connect(str(path))
    try:
        held.execute("SET threads = 2")
        report = ingest([logs_copy], path, workers=1, batch_rows=500, chunk_files=5)
        assert report.batches > 1 and report.reconciled
        assert held.execute("SELECT current_setting('threads')").fetchall() == [(2,)]
    finally:
        held.close()


def test_batches_of_many_chunks_are_stored_in_order(logs_copy: Path, tmp_path: Path) -> None:
    """Each batch's table is inserted as the chunks it was flattened in (no copy into one): still in order."""
    path = tmp_path / "chunks.duckdb"
    report = ingest([logs_copy], path, workers=2, batch_rows=1_000, chunk_files=3)
    assert report.batches > 1 and report.reconciled
    test_events_are_stored_in_game_and_event_order(path)
