"""Every benchmark runs to its end at the tiny sizes of its quick mode (``python -m bench --quick``), so a change
that breaks one fails here rather than at the next ``make bench``. Nothing is timed: the figures of a quick run
mean nothing; what is checked is that each benchmark reached its last line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from annals.spark import missing
from bench.__main__ import BENCHMARKS, MAKE_BENCH, arguments, main, run

# The last line each benchmark prints: seen only when it ran to its end.
LAST_LINE = {
    "bench.logs": "log read",
    "bench.engine": "log writer",
    "bench.bots": "heuristic beat random",
    "bench.ingest": "card_winrate report over",
    "bench.signing": "walk over frame headers",
    "bench.viewer": "main-thread CPU per move",
    "bench.reports": "pass 2:",
    "bench.forward": "random playout",
    "bench.tournament": "standings after",
    "bench.pairing": "players: annals",
    "bench.clicks": "single-answer share",
    "bench.event_record": "ceiling, read + check each log's signature",
    "bench.server": "machine:",
    "bench.scale": "one task,",
    "bench.search": "morana: time per searched decision",
    "bench.startup": "start-up measured",
}


def test_every_benchmark_has_a_quick_mode_and_a_last_line() -> None:
    assert sorted(LAST_LINE) == sorted(BENCHMARKS)


@pytest.mark.parametrize("name", [n for n in BENCHMARKS if n != "bench.scale"])
def test_quick_mode_runs_to_the_end(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    run(name, quick=True)
    assert LAST_LINE[name] in capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.skipif(missing() is not None, reason=f"Spark cannot run here: {missing()}")
def test_quick_scale_runs_to_the_end_on_spark_and_again_in_its_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """On the Spark tests' master, whose session a whole-suite run has started already; a second run with the same
    ``--dir`` reuses the logs the first made and replaces its archives and lakes."""
    import bench.scale

    for _ in range(2):
        bench.scale.main([*bench.scale.QUICK, "--dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert out.count(LAST_LINE["bench.scale"]) == 2 and "reusing the logs in" in out


def test_make_bench_sizes_every_benchmark_and_full_runs_its_defaults() -> None:
    """``make bench`` passes each module its ``MAKE_BENCH`` arguments; ``--full`` none (the module's defaults)."""
    assert sorted(MAKE_BENCH) == sorted(BENCHMARKS)
    assert arguments("bench.search", "make") == MAKE_BENCH["bench.search"] != []
    assert arguments("bench.search", "full") == []
    assert arguments("bench.search", "quick") == ["--quick"]


def test_each_benchmark_ends_with_its_wall_time_and_the_load(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--quick", "tournament", "startup"]) == 0
    out = capsys.readouterr().out
    assert "quick sizes; load average at start " in out
    for name in ("bench.tournament", "bench.startup"):
        assert re.search(rf"^-- {name}: \d+\.\d s wall; load average [\d.]+ [\d.]+ [\d.]+$", out, re.M), out
    assert re.search(r"^bench: \d+ s wall in all; load average at end ", out, re.M)


def test_a_failing_benchmark_does_not_stop_the_others(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--quick", "no_such_benchmark", "tournament"]) == 1
    out = capsys.readouterr().out
    assert LAST_LINE["bench.tournament"] in out and "1 benchmark(s) failed: bench.no_such_benchmark" in out


@pytest.mark.parametrize("name", ["bench.viewer", "bench.server"])
def test_a_browser_or_event_loop_benchmark_runs_beside_a_session_browser(
    browser: object, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """A whole-suite run may have started the session's Playwright on this thread before the quick mode runs (both
    once failed so under ``-n 2``): the benchmark's own browser, or its asyncio loop, must start beside it."""
    del browser  # only started: Playwright's sync API now runs an event loop on this thread
    run(name, quick=True)
    assert LAST_LINE[name] in capsys.readouterr().out
