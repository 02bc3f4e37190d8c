"""The engine's shortcuts agree with the rules they shortcut: effective values summed over only the cards whose
statics change them (``Pool.modifying``) equal the sum over every static in force [M9-110], and the defeat check's
fast test (``grit_reached``) equals "wounds reach effective GRIT" [M9-084], also in a pool where a static lowers
GRIT (where the fast test must not be taken)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annals.engine.miras9.board import _static_sum, defn, grit, grit_reached, site_in_force
from annals.engine.miras9.effects import check_defeats
from annals.engine.miras9.pool import STAT_FIELDS
from annals.engine.miras9.state import ZONE_ROUTE, CardState, M9State, lane_of
from annals.schemas.carddefs import definition
from tests.miras9.table import Table

MIRE = definition(
    "cards",
    {"id": "site-mire", "name": "Mire", "type": "site", "lanes": [0, 1], "gen": 1,
     "statics": [{"scope": "enemy_here", "grit": -1}]},
)  # fmt: skip
UNITS = ["char-recruit", "char-captain", "char-raider", "veh-hauler", "char-sniper", "spirit-echo"]
GEAR = ["eq-plate", "eq-jetpack", "eq-blade", "eq-banner", "eq-ward", "eq-rifle"]
SITES = ["site-bastion", "site-mine", "site-foundry", "site-dock", "site-transit", "site-shrine", "site-mire"]


def _every_static(s: M9State, cs: CardState, field: str) -> int:
    """[M9-110] the reference: every static of every card on the board and every Site in force, none skipped."""
    total = 0
    lane = lane_of(cs.loc)
    for other in s.board:
        o = s.cards[other]
        if o.zone in ZONE_ROUTE and other != cs.iid and o.host != cs.iid:
            continue
        for sta in defn(s, o).statics:
            if (
                (sta.scope == "host" and o.host == cs.iid)
                or (sta.scope == "self" and other == cs.iid)
                or (sta.scope == "friendly_here" and other != cs.iid and lane_of(o.loc) == lane and o.ctrl == cs.ctrl)
                or (sta.scope == "enemy_here" and lane_of(o.loc) == lane and o.ctrl != cs.ctrl)
            ):
                total += getattr(sta, field)
    for side in (0, 1):
        site = site_in_force(s, side, lane)
        if site:
            for sta in s.pool[s.cards[site].cid].statics:
                if (sta.scope == "friendly_here" and side == cs.ctrl) or (
                    sta.scope == "enemy_here" and side != cs.ctrl
                ):
                    total += getattr(sta, field)
    return total


def _with_mire(t: Table) -> None:
    t.s.card_defs = [MIRE]
    t.s.__post_init__()


unit = st.tuples(st.integers(0, 1), st.sampled_from(UNITS), st.integers(0, 1), st.integers(0, 3), st.integers(-2, 1))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    units=st.lists(unit, min_size=1, max_size=6),
    gear=st.lists(st.tuples(st.sampled_from(GEAR), st.integers(0, 5)), max_size=3),
    sites=st.lists(st.tuples(st.integers(0, 1), st.sampled_from(SITES), st.integers(0, 1)), max_size=3),
    mire=st.booleans(),
)
def test_static_sums_and_the_defeat_test_match_every_static_M9_110_M9_084(
    units: list[tuple[int, str, int, int, int]],
    gear: list[tuple[str, int]],
    sites: list[tuple[int, str, int]],
    mire: bool,
) -> None:
    t = Table(leaders=("planet-vael", "planet-tessa"))
    if mire or any(cid == "site-mire" for _, cid, _ in sites):
        _with_mire(t)
    placed = [t.unit(p, cid, lane, wounds=w, grit_mod=m) for p, cid, lane, w, m in units]
    for cid, k in gear:
        host = placed[k % len(placed)]
        t.equip(t.s.cards[host].owner, cid, host)
    for p, cid, lane in sites:
        if not t.s.players[p].sites[lane]:
            t.site(p, cid, lane)
    s = t.s
    assert s.pool.lowers_grit == ("site-mire" in s.pool)
    for c in placed:
        cs = s.cards[c]
        for field in STAT_FIELDS:
            assert _static_sum(s, cs, field) == _every_static(s, cs, field), (cs.cid, field)
        assert grit_reached(s, cs) == (cs.wounds >= grit(s, cs)), cs.cid


def test_a_static_that_lowers_grit_to_0_defeats_an_unwounded_unit_M9_084_M9_007() -> None:
    """[M9-084], [M9-007] with the Mire's -1 GRIT, an unwounded 1-GRIT Scout in its column has GRIT 0 and is
    defeated; the same Scout in the other column is not (the fast test is right to skip it)."""
    t = Table()
    _with_mire(t)
    t.site(1, "site-mire", 0)
    doomed = t.unit(0, "char-scout", 0)
    safe = t.unit(0, "char-scout", 1)
    assert grit(t.s, t.c(doomed)) == 0 and grit(t.s, t.c(safe)) == 1
    check_defeats(t.s, t.emit)
    assert t.c(doomed).zone == "discard" and t.c(safe).zone == "lane:0:interior"
