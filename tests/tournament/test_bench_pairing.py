"""The pairing benchmark's quick mode: annals and the FIDE Dutch peer pair the same standings, and annals never
floats more (the figures themselves are the benchmark's to print; no timing is asserted here)."""

from __future__ import annotations

import pytest

from bench.pairing import main


def test_quick_mode_prints_floats_beside_the_dutch_peer_and_annals_never_floats_more(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["--quick", "--peer-limit", "300"])
    out = capsys.readouterr().out
    table = [
        cells
        for cells in (line.split() for line in out.splitlines())
        if cells[:2] and all(c.isdigit() for c in cells[:2])
    ]
    rounds = [(int(size), int(number), int(ours), int(peer)) for size, number, ours, peer, *_ in table]
    assert [(size, number) for size, number, _, _ in rounds] == [(s, n) for s in (24, 48) for n in range(1, 5)]
    assert all(ours <= peer for _, _, ours, peer in rounds)  # the peer paired every round, and floated no less
    assert sum(ours for _, _, ours, _ in rounds) > 0  # fields that needed floats: not a comparison of zeros
    for size in (24, 48):
        summary = next(line for line in out.splitlines() if line.lstrip().startswith(f"{size} players:"))
        assert "the peer" in summary and "stopped" not in summary
