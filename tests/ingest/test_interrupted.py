"""An ingest killed mid-run (a real subprocess, SIGKILL) leaves whole batches only; a rerun equals one clean run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import duckdb

from annals.ingest.loader import ingest
from tests.ingest.test_ingest import snapshot

CHILD = """
import sys, time
from annals.ingest.loader import ingest
from tests import toyrules

toyrules.register()

def progress(files, events):
    print(files, flush=True)
    time.sleep(0.05)

ingest([sys.argv[1]], sys.argv[2], workers=1, chunk_files=2, batch_rows=40, on_progress=progress)
print("finished", flush=True)
"""


def test_killed_ingest_then_rerun_equals_a_clean_run(logs_copy: Path, tmp_path: Path) -> None:
    killed = tmp_path / "killed.duckdb"
    root = Path(__file__).resolve().parents[2]
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(logs_copy), str(killed)],
        cwd=root,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert child.stdout is not None
    for seen, line in enumerate(child.stdout, start=1):
        assert line.strip() != "finished", "the ingest finished before it could be interrupted"
        if seen == 4:
            os.kill(child.pid, signal.SIGKILL)
            break
    child.wait()
    assert child.returncode == -signal.SIGKILL
    con = duckdb.connect(str(killed), read_only=True)
    partial = con.execute("SELECT count(*) FROM games").fetchall()[0][0]
    # whole batches only: every stored game has all its events
    torn = con.execute(
        "SELECT count(*) FROM games g LEFT JOIN (SELECT game, count(*) c FROM events GROUP BY game) e USING (game) "
        "WHERE coalesce(e.c, 0) <> g.events"
    ).fetchall()[0][0]
    con.close()
    assert 0 < partial < 50 and torn == 0

    rerun = ingest([logs_copy], killed, workers=1)
    assert rerun.games_skipped == partial and rerun.reconciled
    clean = tmp_path / "clean.duckdb"
    ingest([logs_copy], clean, workers=1)
    assert snapshot(killed) == snapshot(clean)
