"""Ingest's worker processes start from a fresh interpreter (``spawn``): they repeat the parent's ruleset
registrations, so a plugin ruleset's logs (the toys) flatten there as in the parent."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from annals.ingest import columnar
from annals.ingest.loader import ingest
from tests.databases import GAMES


def test_spawned_workers_know_registered_rulesets(
    logs_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(columnar.PURE_PYTHON_VARIABLE, "1")  # worker processes, not the C parser's threads
    db = tmp_path / "pure.duckdb"
    report = ingest([logs_copy], db, workers=2, chunk_files=5)
    assert report.reconciled and not report.quarantined
    con = duckdb.connect(str(db), read_only=True)
    rows = dict(con.execute("SELECT ruleset, count(*) FROM games GROUP BY ALL").fetchall())
    con.close()
    assert rows == {name: games for name, (games, _) in GAMES.items()}
