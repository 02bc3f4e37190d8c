"""Logs written before issue 14's combat rules still read, replay and verify (ruling R-M9-45): a committed edition-1
log, its card pool, and the edition-1 rules the engine keeps for it."""

from __future__ import annotations

from pathlib import Path

import msgspec

from annals.engine.miras9.cards import build_pool, pool_hash
from annals.engine.miras9.editions import EARLIER_FILES
from annals.engine.miras9.pool import EARLIER_POOLS, SHIPPED
from annals.engine.miras9.ruleset import RULESET
from annals.engine.miras9.state import M9State
from annals.engine.replay import fold, verify_log
from annals.ingest.loader import ingest
from annals.queries.positions.timeline import Timeline
from annals.schemas import miras9 as ev
from annals.schemas.logfile import read_log
from tests.miras9.table import Table

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
OLD_LOG = FIXTURES / "miras9-edition1.log"  # tempest against vanguard, written by the engine before issue 14
OLD_POOL = EARLIER_FILES["cdbf1905cc74e766"]  # that engine's engine/miras9/data/cards.toml, kept beside it
ERRATA = {"rx-escape"}  # the cards whose current text differs from edition 1's [M9-113]


def test_the_edition_1_log_verifies_and_folds(tmp_path: Path) -> None:
    """The old log re-runs event for event (its Escape Route leaves the wave as edition 1 printed it), folds at
    every event, and ingests."""
    log = read_log(OLD_LOG)
    assert log.header.card_pool_hash in EARLIER_POOLS and log.header.card_pool_hash != SHIPPED.digest
    assert any(type(e) is ev.CardPlayed and e.card_id == "rx-escape" for e in log.events)
    v = verify_log(OLD_LOG)
    assert v.events == len(log.events) == 1904
    state = fold(log)
    assert isinstance(state, M9State) and state.over and state.winner == log.close.winner
    timeline = Timeline.from_file(OLD_LOG)
    assert timeline.position(len(log.events)).cards == RULESET.position(state).cards
    report = ingest([OLD_LOG], tmp_path / "annals.duckdb", workers=1)
    assert report.reconciled and report.games_added == 1


def test_the_edition_1_pool_is_todays_but_for_its_errata() -> None:
    """The edition-1 hash is that pool's own, and every edition-1 card is today's card unchanged, but the errata."""
    assert pool_hash(OLD_POOL) in EARLIER_POOLS
    old = build_pool(msgspec.toml.decode(OLD_POOL.read_bytes(), type=ev.CardPool).cards)
    changed = {cid for cid, d in old.items() if SHIPPED.get(cid) != d}
    assert changed == ERRATA


def test_edition_1_rules_have_no_take_back_blackwake_or_escape_destination_R_M9_45() -> None:
    """Ruling R-M9-45: in an edition-1 game no pick is taken back, no Blackwake is checked, and Escape Route is
    the plain "leave the wave" it printed; in edition 2 all three apply ([M9-074], [M9-088], [M9-117])."""
    for edition in (1, 2):
        t = Table(phase="attack")
        t.s.edition = edition
        a = t.unit(0, "char-raider", 0)
        b = t.unit(0, "veh-buggy", 0)
        escape = t.hand(0, "rx-escape")
        t.add(1, "char-salvager", "deck")
        t.act(ev.DeclareAt(0))
        assert (ev.TakeBack() in t.options()) == (edition == 2)
        t.act(ev.AddAttacker(a, 0))
        t.act(ev.AddAttacker(b, 0))
        t.act(ev.Confirm())
        t.act(ev.Pass())
        plays = {(o.target, o.loc) for o in t.options() if type(o) is ev.PlayCard and o.card == escape}
        assert plays == ({(a, -1), (b, -1)} if edition == 1 else {(a, 1)})  # edition 2: no Vehicle, a destination
        t.pass_window()
        t.to_damage()
        t.act(ev.PayPoint("deck"))
        assert bool(t.of(ev.BlackwakeChecked)) == (edition == 2)
