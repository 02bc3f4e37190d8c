"""``LogWriter(overwrite=True)`` writes over an old file in place: what is left is the new log alone, whether the
old one was longer or the new game was abandoned midway."""

from __future__ import annotations

from pathlib import Path

import pytest

from annals.schemas.errors import TruncatedLogError
from annals.schemas.header import LogClose
from annals.schemas.logfile import LogWriter, read_log
from tests.helpers import toy_header, toy_log
from tests.toyrules.toy_schema import GameOver, TurnBegan


def test_a_shorter_log_over_a_longer_one_reads_as_itself(tmp_path: Path) -> None:
    path, _ = toy_log(tmp_path)  # a live log: many frames, longer than the one written over it
    old_size = path.stat().st_size
    header = toy_header(seed=2)
    writer = LogWriter(path, header, overwrite=True)
    writer.write_batch([GameOver(0, 0, "end", -1, 1, "test")], [])
    writer.close(LogClose(1, "test", 1, 0, 0))
    assert path.stat().st_size < old_size
    log = read_log(path)
    assert log.header == header and len(log.events) == 1 and log.digest == writer.digest


def test_an_abandoned_overwrite_reads_as_truncated_not_as_the_old_log(tmp_path: Path) -> None:
    path, _ = toy_log(tmp_path)
    header = toy_header(seed=2)
    writer = LogWriter(path, header, overwrite=True)
    assert writer.abandon([TurnBegan(0, 1, "turn", -1)], [])
    with pytest.raises(TruncatedLogError):
        read_log(path)


def test_without_overwrite_an_existing_file_is_refused(tmp_path: Path) -> None:
    path, _ = toy_log(tmp_path)
    before = path.read_bytes()
    with pytest.raises(FileExistsError):
        LogWriter(path, toy_header(seed=2))
    assert path.read_bytes() == before
