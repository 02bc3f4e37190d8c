"""Properties of amended logs: any damage to a signed log is caught, and any sequence of backups and resumes
leaves a log that verifies, append-only, with every abandoned branch re-running."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annals.engine.judge import backup, resume
from annals.engine.registry import get_ruleset
from annals.engine.replay import rerun, rerun_branches
from annals.engine.simulate import bots_for
from annals.schemas.errors import LogError
from annals.schemas.keys import SigningKey
from annals.schemas.logfile import read_log
from annals.schemas.signing import sign_log, verify_signature
from tests.helpers import toy_log

TOY = get_ruleset("toy")
KEY = SigningKey.generate("Spring Open")
_SIGNED: dict[int, bytes] = {}


def signed_bytes(tmp_path: Path, seed: int) -> bytes:
    if seed not in _SIGNED:
        path, _ = toy_log(tmp_path, seed, f"signed-{seed}.log")
        sign_log(path, KEY)
        _SIGNED[seed] = path.read_bytes()
    return _SIGNED[seed]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(1, 3), where=st.floats(0, 1, exclude_max=True), bit=st.integers(0, 7))
def test_any_flipped_bit_of_a_signed_log_is_caught(tmp_path: Path, seed: int, where: float, bit: int) -> None:
    data = bytearray(signed_bytes(tmp_path, seed))
    data[int(where * len(data))] ^= 1 << bit
    path = tmp_path / "flipped.log"
    path.write_bytes(bytes(data))
    try:
        read_log(path)
        status = verify_signature(path, KEY.public)
    except LogError:
        return  # the chain or framing caught it, naming where
    assert not status.ok, status  # else the signature must


@pytest.mark.parametrize("seed", [1, 2])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cuts=st.lists(st.floats(0, 1, exclude_max=True), min_size=1, max_size=3))
def test_any_sequence_of_backups_leaves_a_verifying_append_only_log(
    tmp_path: Path, seed: int, cuts: list[float]
) -> None:
    path = tmp_path / f"judged-{len(list(tmp_path.iterdir()))}.log"
    toy_log(tmp_path, seed, path.name)
    header = read_log(path).header
    for i, cut in enumerate(cuts):
        before = path.read_bytes()
        decisions = read_log(path).decisions
        backup(path, int(cut * len(decisions)), f"judge {i}", reason="test", key=KEY)
        resume(path, bots_for(TOY, header), key=KEY)
        assert path.read_bytes().startswith(before)
    game = read_log(path)
    assert len(game.branches) == len(cuts)
    assert rerun(game).ok
    reports = rerun_branches(game)
    assert all(r.report.ok and not r.shared for r in reports), reports
    assert verify_signature(path, KEY.public).ok
