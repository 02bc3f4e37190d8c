"""bench.event_record runs to its end on a small event (so a change that breaks it fails here, not at ``make bench``);
its figures are only printed, never asserted."""

from __future__ import annotations

import sys

import pytest

from bench import event_record


def test_the_event_verify_benchmark_runs_on_a_small_event(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    monkeypatch.setattr(sys, "argv", ["bench.event_record", "--players", "6", "--rounds", "2", "--best-of", "1"])
    event_record.main()
    said = capsys.readouterr().out
    assert "6 players, 2 rounds, best of 1: 6 matches" in said
    assert "event verify:" in said and "ratio" in said
