"""Ingest checks each event row by structure (one untyped decode per frame): an unknown tag or a row of the wrong
width quarantines the file naming the frame; a row of an old log, missing trailing defaulted fields, takes the
defaults."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pytest

from annals.ingest.flatten import collect
from annals.ingest.loader import ingest
from annals.ingest.plans import plans_for
from annals.schemas.logfile import LogReader, LogWriter
from annals.schemas.rulesets import schema_for

Rows = list[list[Any]]


def rewrite(path: Path, change: Callable[[int, Rows], None]) -> list[tuple[int, int, int]]:
    """Write ``path`` again with ``change(frame number, rows)`` applied to each batch frame's plain event rows
    (checksums and chain recomputed: only the content is wrong). Returns (frame index, byte offset, events) of
    each batch frame of the new file."""
    with LogReader(path) as reader:
        header = reader.header
        frames = [(msgspec.to_builtins(b.events), msgspec.to_builtins(b.decisions)) for b in reader.batches()]
        close = reader.close_record
    assert close is not None
    writer = LogWriter(path, header, overwrite=True)
    for i, (rows, decisions) in enumerate(frames):
        change(i, rows)
        writer.write_batch(rows, decisions)
    writer.close(close)
    with LogReader(path) as reader:
        return [(index, at, len(msgspec.msgpack.decode(payload)[0])) for index, at, payload in reader.raw_frames()]


def test_unknown_tag_and_wrong_width_are_quarantined_naming_the_frame(real_logs: Path, tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    files = []
    for source in collect([real_logs / "miras9"])[:3]:
        files.append(folder / Path(source).name)
        files[-1].write_bytes(Path(source).read_bytes())
    plans, _ = plans_for(schema_for("miras9"))

    def unknown_tag(i: int, rows: Rows) -> None:
        if i == 1:
            rows[0][0] = 999

    def too_wide(i: int, rows: Rows) -> None:
        if i == 2:
            rows[-1].append(7)

    def too_narrow(i: int, rows: Rows) -> None:
        if i == 1:
            del rows[3][plans[rows[3][0]].required - 1 :]  # one required field short

    bad = {}
    for path, change, frame, words in [(files[0], unknown_tag, 1, "tag 999"), (files[1], too_wide, 2, "row of"),
                                       (files[2], too_narrow, 1, "row of")]:  # fmt: skip
        frames = rewrite(path, change)
        bad[str(path)] = (frames[frame][0], frames[frame][1], sum(n for _, _, n in frames[:frame]), words)
    db = tmp_path / "q.duckdb"
    report = ingest([folder, real_logs / "morana"], db, workers=1)
    assert report.files_quarantined == 3 and report.reconciled
    assert report.games_added == report.files - 3
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("SELECT file, error, frame, byte_offset, reason, events_read FROM quarantine").fetchall()
    stored = con.execute("SELECT count(*) FROM games WHERE file IN (SELECT file FROM quarantine)").fetchall()
    con.close()
    assert {r[0] for r in rows} == set(bad) and stored == [(0,)]
    for file, error, frame, offset, reason, events_read in rows:
        want_frame, want_offset, want_read, words = bad[file]
        assert error == "CorruptLogError"
        assert (frame, offset, events_read) == (want_frame, want_offset, want_read)
        assert words in reason, reason
    assert all(f"frame {bad[f][0]}" in line for f in bad for line in report.quarantined if line.startswith(f))


def test_old_rows_without_trailing_defaulted_fields_take_the_defaults(real_logs: Path, tmp_path: Path) -> None:
    """Rows written before a defaulted field was appended (cut here where the values equal the defaults) store the
    same columns and ``extra`` as the full rows."""
    source = Path(collect([real_logs / "miras9"])[0])
    old = tmp_path / "old" / source.name
    old.parent.mkdir()
    old.write_bytes(source.read_bytes())
    plans, _ = plans_for(schema_for("miras9"))
    cut = 0

    def drop_defaults(_: int, rows: Rows) -> None:
        nonlocal cut
        for row in rows:
            plan = plans[row[0]]
            while len(row) > plan.required and row[-1] == plan.defaults[len(row) - 1]:
                row.pop()
                cut += 1

    rewrite(old, drop_defaults)
    assert cut > 0
    tables = []
    for folder in (source.parent, old.parent):
        db = tmp_path / f"{folder.name}.duckdb"
        report = ingest([folder] if folder == old.parent else [source], db, workers=1)
        assert report.files_quarantined == 0 and report.games_added == 1
        con = duckdb.connect(str(db), read_only=True)
        tables.append(con.execute("SELECT * FROM events ORDER BY n").fetchall())
        con.close()
    assert tables[0] == tables[1]


@pytest.mark.parametrize(
    ("bad_card", "reason"),
    [("not-a-card", "does not match the schema"), (2**40, "a value its column cannot hold")],
)
def test_a_value_of_the_wrong_type_in_a_typed_column_is_quarantined_naming_the_frame(
    real_logs: Path, tmp_path: Path, bad_card: object, reason: str
) -> None:
    """A checksummed log whose row holds a string, or an int beyond 32 bits, where the kind's ``card`` (an INTEGER
    column) belongs: the chunk goes again through the typed pass, which names the frame; the other files of the
    chunk are stored."""
    folder = tmp_path / "logs"
    folder.mkdir()
    sources = [Path(f) for f in collect([real_logs / "morana"])]
    for source in sources:
        (folder / source.name).write_bytes(source.read_bytes())
    target = folder / sources[1].name
    plans, _ = plans_for(schema_for("morana"))
    changed: list[int] = []

    def wrong_type(i: int, rows: Rows) -> None:
        for j, row in enumerate(rows):
            card = plans[row[0]].convention.get("card")
            if i >= 1 and not changed and card is not None:
                rows[j] = [*row[:card], bad_card, *row[card + 1 :]]
                changed.append(i)

    frames = rewrite(target, wrong_type)
    assert changed
    db = tmp_path / "t.duckdb"
    report = ingest([folder], db, workers=1)
    assert report.files_quarantined == 1 and report.games_added == len(sources) - 1 and report.reconciled
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("SELECT file, error, frame, byte_offset, reason FROM quarantine").fetchall()
    con.close()
    frame, offset, _ = frames[changed[0]]
    assert rows == [(str(target), "CorruptLogError", frame, offset, rows[0][4])]
    assert reason in rows[0][4]
