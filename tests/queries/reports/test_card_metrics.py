"""card_metrics (17lands' GP, OH, GD, GIH, GNS, IWD; played and used) against an independent count from the logs
of real Miras 9 and MORANA games, Resource draws included [M9-049]."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import duckdb
import polars as pl
import pytest

from annals.ingest.flatten import collect
from annals.queries.reports.filters import Filters
from annals.queries.reports.run import REPORTS, run_report, wilson
from annals.schemas.logfile import GameLog, read_log
from annals.schemas.records import instance_id
from tests.queries.reports.test_reports import NOT_PLAYED, rows

USED = {"AbilityActivated", "TriggerFired", "StackPushed", "Manifested", "Pressured", "OmenFired", "RebornFired",
        "CharmFired", "ClashFired", "InvocationFired"}  # fmt: skip
METRICS = ("gp", "oh", "gd", "gih", "gns", "played", "used")

POOLED = Filters(pool=True)  # the bot pairings pooled, as the independent counts below count


@pytest.fixture(scope="module")
def logs(real_logs: Path) -> list[GameLog]:
    return [read_log(p) for p in collect([real_logs])]


@pytest.fixture(scope="module")
def con(real_db: Path) -> duckdb.DuckDBPyConnection:
    return duckdb.connect(str(real_db), read_only=True)


def independent(logs: list[GameLog], by: str | None = None, agent: str | None = None) -> Counter[tuple[str, ...]]:
    """(ruleset, card id, metric, games|wins|turns) over decided seat-games, one count per game and seat; with
    ``by`` ("agent" or "seat") the seat's value leads the key, with ``agent`` only that agent's seats count."""
    out: Counter[tuple[str, ...]] = Counter()
    for log in logs:
        if log.close.winner < 0:
            continue
        ids = {instance_id(s, i): c for s, d in enumerate(log.header.decks) for i, c in enumerate(d.cards)}
        setup: dict[int, str] = {}
        held: set[int] = set()  # in hand at some point of set-up
        drawn: set[int] = set()
        played: set[int] = set()
        used: set[int] = set()
        for e in log.events:
            card = getattr(e, "card", None)
            if type(e).__name__ in USED and isinstance(card, int):
                used.add(card)
            dst = getattr(e, "dst", None)
            if not dst:
                continue
            src = getattr(e, "src", None)
            moved = [card] if isinstance(card, int) and card > 0 else list(getattr(e, "cards", None) or [])
            for c in moved:
                if e.turn == 0:
                    setup[c] = dst
                    held |= {c} if dst == "hand" else set()
                if card is None:
                    continue
                if e.turn >= 1 and src in ("deck", "resource") and dst == "hand":
                    drawn.add(c)
                if src == "hand" and dst not in NOT_PLAYED:
                    played.add(c)
        opening = {c for c, z in setup.items() if z == "hand"}
        placed = {c for c, z in setup.items() if z not in ("hand", "deck") and c not in held}  # [M9-020]
        for seat in (0, 1):
            if agent is not None and log.header.players[seat].agent != agent:
                continue
            split = () if by is None else (log.header.players[seat].agent if by == "agent" else f"seat {seat}",)
            mine = [i for i in ids if i // 1000 - 1 == seat]
            for card_id in {ids[i] for i in mine}:
                copies = {i for i in mine if ids[i] == card_id}
                facts = {"gp": True, "oh": bool(copies & opening), "gd": bool(copies & drawn),
                         "played": bool(copies & played), "used": bool(copies & used)}  # fmt: skip
                facts["gih"] = facts["oh"] or facts["gd"]
                facts["gns"] = not facts["gih"] and not copies & placed  # a starting Site was seen: not GNS
                for metric, hit in facts.items():
                    if hit:
                        key = (*split, log.header.ruleset, card_id, metric)
                        out[(*key, "games")] += 1
                        out[(*key, "wins")] += log.close.winner == seat
                        out[(*key, "turns")] += log.close.turns
    return out


def test_card_metrics_match_the_logs(con: duckdb.DuckDBPyConnection, logs: list[GameLog]) -> None:
    want = independent(logs)
    frame = run_report(con, "card_metrics", min_games=0, filters=POOLED).frame
    columns = [f"{m}_{k}" for m in METRICS for k in ("games", "wins")]
    got = rows(frame, ["ruleset", "card_id"], columns)
    cards = {(k[0], k[1]) for k in want}
    assert set(got) == cards
    for key in cards:
        turns = want[(*key, "gp", "turns")] / want[(*key, "gp", "games")]
        assert frame.filter(ruleset=key[0], card_id=key[1])["gp_mean_turns"].item() == pytest.approx(turns, abs=0.005)
        assert got[key] == tuple(want[(*key, m, k)] for m in METRICS for k in ("games", "wins")), key
    assert sum(frame["gd_games"]) > 0 and sum(frame["used_games"]) > 0
    for row in frame.iter_rows(named=True):  # every rate carries its Wilson interval; IWD is GIH minus GNS
        if row["gih_games"] and row["gns_games"]:
            assert row["iwd"] == pytest.approx(row["gih_win_rate"] - row["gns_win_rate"], abs=2e-4)
        lo = wilson(row["oh_wins"], row["oh_games"])[0] if row["oh_games"] else None
        assert row["oh_ci_low"] == (pytest.approx(lo, abs=1e-4) if lo is not None else None)
        assert row["gih_unplayed_games"] == row["gih_games"] - row["played_games"]  # played only from hand


def test_resource_draws_count_as_drawn(con: duckdb.DuckDBPyConnection) -> None:
    """[M9-049] moving a card from Resource to Hand is a draw: card_games marks it drawn (and from Resource)."""
    moved = con.execute(
        "SELECT count(*) FROM events e JOIN games g USING (game) "
        "WHERE g.ruleset = 'miras9' AND e.src = 'resource' AND e.dst = 'hand' AND e.turn >= 1"
    ).fetchall()[0][0]
    flagged = con.execute("SELECT count(*) FROM card_games WHERE drawn_from_resource AND drawn").fetchall()[0][0]
    assert moved > 0 and flagged > 0
    assert (
        "Resource [M9-049]" in REPORTS["card_metrics"].description and "MORANA" in REPORTS["card_metrics"].description
    )


@pytest.mark.parametrize(("by", "agent"), [("agent", None), ("seat", None), (None, "heuristic"), ("seat", "random")])
def test_card_metrics_split_and_filtered_match_the_logs(
    con: duckdb.DuckDBPyConnection, logs: list[GameLog], by: str | None, agent: str | None
) -> None:
    """--by agent|seat and --agent against the same independent count, split and filtered by the seat's header;
    the mean length of the games with the card in hand too (the length-bias control the description names)."""
    want = independent(logs, by, agent)
    result = run_report(con, "card_metrics", min_games=0, filters=Filters(pool=True, by=by, agent=agent))
    frame = result.frame
    lead = [by] if by else []
    columns = [f"{m}_{k}" for m in METRICS for k in ("games", "wins")]
    got = rows(frame, [*lead, "ruleset", "card_id"], columns)
    keys = {k[:-2] for k in want}
    assert keys and set(got) == keys
    for key in keys:
        assert got[key] == tuple(want[(*key, m, k)] for m in METRICS for k in ("games", "wins")), key
    for row in frame.iter_rows(named=True):
        key = tuple(row[c] for c in [*lead, "ruleset", "card_id"])
        if want[(*key, "gih", "games")]:
            mean = want[(*key, "gih", "turns")] / want[(*key, "gih", "games")]
            assert row["gih_mean_turns"] == pytest.approx(mean, abs=0.005)
        else:
            assert row["gih_mean_turns"] is None


@pytest.mark.parametrize("made_before", ["card_games", "placed_at_setup", "other_seat"])
def test_card_games_backfilled_in_a_database_made_before_it(real_db: Path, tmp_path: Path, made_before: str) -> None:
    """A database made before card_games existed, before it told the starting Site apart, or before it held the other
    seat's context, gets it on its next
    writable open (``ingest.schema``), the same rows an ingest writes (one pass over the events, ``card_moves.sql``)
    [M9-049], [M9-020]."""
    from annals.ingest.schema import open_database

    old = tmp_path / "old.duckdb"
    old.write_bytes(real_db.read_bytes())
    query = "SELECT * FROM card_games ORDER BY ALL"
    with duckdb.connect(str(old)) as made:
        ingested = made.execute(query).fetchall()
        if made_before == "card_games":
            made.execute("DROP TABLE card_games")
        else:
            made.execute(f"ALTER TABLE card_games DROP COLUMN {made_before}")
    assert any(row[-2] for row in ingested)  # placed at set-up: the Miras 9 games have starting Sites
    assert ingested and any(row[6] for row in ingested)  # drawn from Resource: the Miras 9 games have some
    con = open_database(old)
    try:
        assert con.execute(query).fetchall() == ingested
        assert not con.execute("SELECT * FROM duckdb_tables() WHERE table_name = 'card_moves'").fetchall()
    finally:
        con.close()


def test_other_seat_is_the_other_seats_context_for_the_card(con: duckdb.DuckDBPyConnection) -> None:
    """card_games.other_seat, recounted from the other seat's own row of the same game and card id: 0 without one,
    1 in hand, 3 placed at set-up only, 2 neither; some games hold a card in both seats (what it is for)."""
    rows = con.execute(
        "SELECT game, seat, card_id, opening_hand OR drawn, placed_at_setup, other_seat FROM card_games"
    ).fetchall()
    context = {(g, seat, card): 1 if gih else 3 if placed else 2 for g, seat, card, gih, placed, _ in rows}
    for g, seat, card, _, _, other in rows:
        assert other == context.get((g, 1 - seat, card), 0), (g, seat, card)
    assert any(other for *_, other in rows)


def test_the_starting_site_is_in_neither_gih_nor_gns(con: duckdb.DuckDBPyConnection) -> None:
    """[M9-020] a starting Site is chosen from the deck and put in a lane at set-up, never passing through the hand:
    counted as "never seen" it made a Site's GNS group mostly games where it was in play from the start. Such
    seat-games (no other copy in hand) are now in neither group: GNS = GP - GIH - setup_only."""
    frame = run_report(con, "card_metrics", ruleset="miras9", min_games=0, filters=POOLED).frame
    sites = frame.filter(pl.col("card_id").str.starts_with("site-"))
    assert sites["setup_only_games"].sum() > 0  # the simulated set has the misleading case
    naive = sites["gp_games"] - sites["gih_games"]  # the old definition of GNS
    assert (sites["gns_games"] == naive - sites["setup_only_games"]).all()
    stored = con.execute(
        "SELECT count(*) FROM card_games c JOIN games g USING (game) "
        "WHERE g.winner >= 0 AND c.placed_at_setup AND NOT (c.opening_hand OR c.drawn)"
    ).fetchall()[0][0]
    assert sites["setup_only_games"].sum() == stored
    units = frame.filter(~pl.col("card_id").str.starts_with("site-"))
    assert units["setup_only_games"].sum() == 0  # only a Site starts in play
