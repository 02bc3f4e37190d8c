"""MORANA logs of ruleset version 1 (written before ``Flipped`` carried each player's Embers) still verify: the
rules did not change, so this engine re-runs them and compares each event as version 1 recorded it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import msgspec

from annals.engine.replay import rerun, verify_log
from annals.schemas.logfile import read_log
from annals.schemas.morana import SCHEMA, Flipped

FIXTURE = Path(__file__).parent.parent / "fixtures" / "morana-ruleset1.log"  # written by the version-1 engine


def test_a_version_1_log_verifies_flip_by_flip() -> None:
    """[MOR-16] The fixture was written by the engine at ruleset version 1: its flips carry no Embers, and the
    re-run, which does, matches it event for event to its closing record."""
    game = read_log(FIXTURE)
    flips = [e for e in game.events if type(e) is Flipped]
    assert game.header.ruleset_version == "1" and SCHEMA.version == "2"
    assert flips and all(e.embers == [] for e in flips)
    report = rerun(game)
    assert report.ok and report.events_checked == len(game.events)
    assert verify_log(FIXTURE).end_reason == game.close.end_reason


def test_annals_verify_passes_a_version_1_log() -> None:
    annals = Path(sys.executable).parent / "annals"
    done = subprocess.run([annals, "verify", str(FIXTURE)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and ": ok (" in done.stdout, done.stdout + done.stderr


def test_a_version_1_log_with_a_version_2_flip_or_an_unknown_version_is_refused() -> None:
    """[MOR-16] The allowance is exact: a version-1 log whose first flip carries Embers (as only version 2 records)
    differs at that event, and a version this engine never had is refused at the header."""
    game = read_log(FIXTURE)
    k = next(i for i, e in enumerate(game.events) if type(e) is Flipped)
    as_v2 = msgspec.structs.replace(game.events[k], embers=[1, 1])
    edited = msgspec.structs.replace(game, events=[*game.events[:k], as_v2, *game.events[k + 1 :]])
    report = rerun(edited)
    assert not report.ok and report.field.startswith(f"event {k}")
    unknown = msgspec.structs.replace(game, header=msgspec.structs.replace(game.header, ruleset_version="0"))
    report = rerun(unknown)
    assert not report.ok and report.field == "header: ruleset_version"
