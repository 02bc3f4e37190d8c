"""``events.target``: NULL means no target, and a real 0 stays 0, on both ingest paths and after the migration of a
database stored before (schema version 2 kept every 0 as NULL).

Miras 9: an attacker added at the defender's Site position has target 0 [M9-074] (``SelectionChanged``, as in
``WaveDeclared.targets``); a card played or activated with no target has 0, which means none, as has a Blackwake
instruction resolved on no card. MORANA: a Clash with no enemy Spirit at its Site hits nothing (R-MOR-07),
``ClashFired.target`` -1.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import msgspec
import pytest

from annals.ingest import columnar
from annals.ingest.flatten import collect, flatten_files
from annals.ingest.schema import SCHEMA_VERSION, open_database
from annals.schemas.logfile import LogReader, LogWriter, read_log

# each kind's "no target"; SelectionChanged and SelectionUndone have none (0 is the Site position)
NONE = {"CardPlayed": 0, "AbilityActivated": 0, "StackPushed": 0, "StackResolved": 0, "CombatDamage": 0,
        "BlackwakeResolved": 0, "ClashFired": -1}  # fmt: skip


def expected(real_logs: Path) -> list[tuple[str, int, str, int | None]]:
    """(game id, event n, kind, target as it must be stored) for every event with a target, read from the logs."""
    out = []
    for path in collect([real_logs]):
        log = read_log(path)
        for e in log.events:
            kind = type(e).__name__
            target = getattr(e, "target", None)
            if isinstance(target, int):
                out.append((log.header.game_id, e.n, kind, None if NONE.get(kind) == target else target))
    return out


def test_the_logs_hold_each_case(real_logs: Path) -> None:
    rows = expected(real_logs)
    assert any(k == "SelectionChanged" and t == 0 for _, _, k, t in rows)  # the Site position
    assert any(k == "SelectionChanged" and t not in (0, None) for _, _, k, t in rows)
    assert any(k == "CardPlayed" and t is None for _, _, k, t in rows)
    assert any(k == "ClashFired" and t is not None for _, _, k, t in rows)


def no_target_clash(real_logs: Path, folder: Path) -> Path:
    """A copy of a MORANA log whose first ClashFired hit nothing (target -1, as R-MOR-07 allows; these bots' games
    always had a Spirit to hit), frames and close as they were: flattening does not re-run the game."""
    source = next(p for p in collect([real_logs]) if "morana" in p)
    folder.mkdir()
    out = folder / Path(source).name
    with LogReader(source) as reader:
        frames = [(b.events, b.decisions) for b in reader.batches()]
        header, close = reader.header, reader.close_record
    assert close is not None
    done = False
    writer = LogWriter(out, header)
    for events, decisions in frames:
        for i, e in enumerate(events):
            if not done and type(e).__name__ == "ClashFired":
                events[i], done = msgspec.structs.replace(e, target=-1), True
        writer.write_batch(events, decisions)
    writer.close(close)
    assert done
    return out


@pytest.mark.parametrize("fast", [True, False], ids=["C", "reference"])
def test_both_paths_store_a_real_zero_and_null_for_none(real_logs: Path, tmp_path: Path, fast: bool) -> None:
    if fast and not columnar.BUILT:
        pytest.skip("the C extension is not built")
    edited = no_target_clash(real_logs, tmp_path / "edited")
    files = [str(p) for p in collect([real_logs])] + [str(edited)]
    chunk = flatten_files(files, {}, fast=fast)
    assert not chunk.bad
    ids = [g.header.game_id for g in chunk.games]
    events = chunk.events.to_pydict()
    stored = {
        (ids[f], n): (k, t)
        for f, n, k, t in zip(events["file_idx"], events["n"], events["kind"], events["target"], strict=True)
        if f != len(files) - 1
    }
    assert len(ids) == len(set(ids)) + 1  # the edited copy has its source's game id: key it apart
    edited_idx = len(files) - 1
    for game_id, n, kind, target in expected(real_logs):
        assert stored[(game_id, n)] == (kind, target), (game_id, n)
    clashes = [t for f, k, t in zip(events["file_idx"], events["kind"], events["target"], strict=True)
               if f == edited_idx and k == "ClashFired"]  # fmt: skip
    assert clashes[0] is None and all(t is not None for t in clashes[1:])


def test_a_version_2_database_is_migrated(real_db: Path, real_logs: Path, tmp_path: Path) -> None:
    """A database as schema version 2 stored it (0 as NULL, ClashFired's -1 kept) reads as a new one once opened."""
    assert SCHEMA_VERSION >= 3  # every later migration runs after 3
    old = tmp_path / "v2.duckdb"
    shutil.copy(real_db, old)
    con = duckdb.connect(str(old))
    con.execute("UPDATE events SET target = NULL WHERE target = 0")
    con.execute("UPDATE events SET target = -1 WHERE kind = 'ClashFired' AND target IS NULL")
    con.execute("UPDATE schema_version SET version = 2")
    con.close()
    query = "SELECT g.game_id, e.n, e.kind, e.target FROM events e JOIN games g USING (game) WHERE e.kind = ?"
    want = {r[:2]: r for r in expected(real_logs)}
    with pytest.raises(Exception, match="schema version 2"):
        open_database(old, read_only=True)  # a read-only open refuses, saying how to migrate
    open_database(old).close()
    con = open_database(old, read_only=True)
    for kind in ("SelectionChanged", "ClashFired", "CardPlayed"):
        got = con.execute(query, [kind]).fetchall()
        assert got and all(want[(g, n)] == (g, n, k, t) for g, n, k, t in got), kind
    fresh = duckdb.connect(str(real_db), read_only=True)
    everything = "SELECT game, n, target FROM events ORDER BY game, n"
    assert con.execute(everything).fetchall() == fresh.execute(everything).fetchall()
