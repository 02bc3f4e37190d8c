"""bench.event_record runs to its end on a small event (so a change that breaks it fails here, not at ``make bench``);
its figures are only printed, never asserted."""

from __future__ import annotations

import pytest

from bench import event_record


def test_the_event_verify_benchmark_runs_on_a_small_event(capsys: pytest.CaptureFixture[str]) -> None:
    event_record.main(event_record.QUICK)  # 6 players, 2 rounds, best of 1
    said = capsys.readouterr().out
    assert "6 players, 2 rounds, best of 1: 6 matches" in said
    assert "event verify:" in said and "ratio" in said
