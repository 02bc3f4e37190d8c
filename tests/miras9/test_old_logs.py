"""Logs written before movement and crews existed (the first card pool) still read, replay and verify; so do those of
each later pool (edition 2: movement without Ship-Sites; edition 3 before the Ship-Site text cards, ruling
R-M9-62)."""

from __future__ import annotations

from pathlib import Path

import msgspec

from annals.engine.miras9.pool import EARLIER_POOLS, SHIPPED
from annals.engine.miras9.ruleset import RULESET
from annals.engine.miras9.state import EDITION
from annals.engine.replay import rerun, verify_log
from annals.engine.simulate import make_header
from annals.schemas import miras9 as ev
from annals.schemas.logfile import read_log

OLD = Path(__file__).resolve().parents[1] / "fixtures" / "miras9-pool-cdbf1905.log"
MOVES = Path(__file__).resolve().parents[1] / "fixtures" / "miras9-pool-ff31c769.log"  # edition 2: no Ship-Sites
SHIPS = Path(__file__).resolve().parents[1] / "fixtures" / "miras9-pool-0b0fc7bf.log"  # edition 3, before ss-boarder


def test_a_log_of_the_first_pool_still_verifies_M9_031() -> None:
    """Ruling R-M9-45: the committed log of the first pool (written before this change, no Move-phase decision
    [M9-031]) re-runs event for event under edition 1, and verify proves it."""
    log = read_log(OLD)
    assert log.header.card_pool_hash in EARLIER_POOLS and log.header.card_pool_hash != SHIPPED.digest
    assert RULESET.new_state(log.header).edition == 1
    report = rerun(log)
    assert report.ok and report.events_checked == len(log.events), report
    assert not any(type(e) in (ev.UnitMoved, ev.Embarked) for e in log.events)
    proved = verify_log(OLD)  # raises a named error on any failure
    assert (proved.events, proved.winner) == (len(log.events), log.close.winner)


def test_a_changed_first_pool_log_is_refused() -> None:
    """The edition is no free pass: the old log with one decision changed no longer re-runs."""
    log = read_log(OLD)
    k = next(i for i, d in enumerate(log.decisions) if len(d.offered) > 2)
    d = log.decisions[k]
    bad = msgspec.structs.replace(d, chosen=(d.chosen + 1) % len(d.offered))
    broken = msgspec.structs.replace(log, decisions=[*log.decisions[:k], bad, *log.decisions[k + 1 :]])
    assert not rerun(broken).ok


def test_a_new_game_is_edition_3_and_its_move_phase_asks() -> None:
    """A game of the current pool has the Move-phase decision the first pool's games never had."""
    h = make_header(RULESET, 1, ["windrunner", "vanguard"], ["random", "random"], max_turns=5)
    assert h.card_pool_hash == SHIPPED.digest and RULESET.new_state(h).edition == 3


def test_a_log_of_the_movement_pool_still_verifies_M9_031() -> None:
    """Ruling R-M9-45: the committed log of the second pool (movement and crews, written before Ship-Sites were
    added: a windrunner game that moves and embarks) re-runs event for event under edition 2, and verify proves
    it."""
    log = read_log(MOVES)
    assert EARLIER_POOLS.get(log.header.card_pool_hash) == 2 and log.header.card_pool_hash != SHIPPED.digest
    assert RULESET.new_state(log.header).edition == 2
    assert any(type(e) is ev.UnitMoved for e in log.events) and any(type(e) is ev.Embarked for e in log.events)
    report = rerun(log)
    assert report.ok and report.events_checked == len(log.events), report
    proved = verify_log(MOVES)
    assert (proved.events, proved.winner) == (len(log.events), log.close.winner)


def test_a_log_of_the_pool_before_the_ship_site_text_cards_still_verifies_M9_030_M9_063() -> None:
    """Ruling R-M9-62: the committed log of the pool before Boarding Hulk, Salvage Workship and Echo Tender (a
    corsairs game whose Ship-Sites move [M9-063] and are attacked [M9-030], written before they were added) names
    an earlier pool of today's edition: it re-runs event for event under today's rules (no earlier edition's
    note), and verify proves it."""
    log = read_log(SHIPS)
    digest = log.header.card_pool_hash
    assert EARLIER_POOLS.get(digest) == EDITION == 3 and digest != SHIPPED.digest
    assert RULESET.new_state(log.header).edition == 3 and RULESET.edition_note(log.header) == ""
    assert any(type(e) is ev.ShipSiteMoved for e in log.events)
    assert any(type(e) is ev.ShipSiteAttacked for e in log.events)
    report = rerun(log)
    assert report.ok and report.events_checked == len(log.events), report
    proved = verify_log(SHIPS)
    assert (proved.events, proved.winner) == (len(log.events), log.close.winner)
