"""Every generic report against an independent computation from the log files themselves (small data)."""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest

from annals.engine.simulate import simulate
from annals.ingest.flatten import collect
from annals.ingest.loader import ingest
from annals.ingest.schema import open_database
from annals.queries.reports.filters import Filters
from annals.queries.reports.run import REPORTS, run_report, wilson, with_win_rate
from annals.schemas.logfile import GameLog, read_log
from annals.schemas.records import instance_id

POOLED = Filters(pool=True)  # the bot pairings pooled, as the independent counts below count

NOT_PLAYED = {"deck", "hand", "discard", "exile", "nav", "gone"}


@pytest.fixture(scope="module")
def logs(logs_dir: Path) -> list[GameLog]:
    return [read_log(p) for p in collect([logs_dir])]


@pytest.fixture(scope="module")
def con(db: Path) -> duckdb.DuckDBPyConnection:
    return duckdb.connect(str(db), read_only=True)


def first_player(log: GameLog) -> int:
    return next((e.player for e in log.events if e.turn >= 1 and e.player >= 0), -1)


def rows(frame: pl.DataFrame, keys: list[str], values: list[str]) -> dict[tuple[Any, ...], tuple[Any, ...]]:
    return {tuple(r[k] for k in keys): tuple(r[v] for v in values) for r in frame.iter_rows(named=True)}


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson(0, 10)
    assert lo == pytest.approx(0.0, abs=1e-12) and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    frame = with_win_rate(pl.DataFrame({"games": [10, 100, 7], "wins": [0, 50, 3]}))
    for row in frame.iter_rows(named=True):
        lo, hi = wilson(row["wins"], row["games"])
        assert row["ci_low"] == pytest.approx(lo, abs=1e-4) and row["ci_high"] == pytest.approx(hi, abs=1e-4)


def independent_card_winrate(logs: list[GameLog]) -> dict[tuple[str, str], tuple[int, int]]:
    """(card id, context) -> (games, wins), by reading the logs' events directly."""
    seen: dict[tuple[str, str], set[tuple[str, int]]] = defaultdict(set)
    won: dict[tuple[str, str], set[tuple[str, int]]] = defaultdict(set)
    for log in logs:
        if log.close.winner < 0:
            continue
        ids = {instance_id(s, i): c for s, d in enumerate(log.header.decks) for i, c in enumerate(d.cards)}
        setup: dict[int, str] = {}
        facts: list[tuple[str, int]] = []
        for e in log.events:
            dst = getattr(e, "dst", None)
            if not dst:
                continue
            single = getattr(e, "card", None)
            moved = [single] if isinstance(single, int) and single > 0 else list(getattr(e, "cards", None) or [])
            src = getattr(e, "src", None)
            for card in moved:
                if e.turn == 0:
                    setup[card] = dst
                if single is None:
                    continue
                if e.turn >= 1 and src in ("deck", "resource") and dst == "hand":  # [M9-049] a draw from Resource
                    facts.append(("drawn", card))
                if src == "hand" and dst not in NOT_PLAYED:
                    facts.append(("played", card))
        facts += [("opening_hand", c) for c, z in setup.items() if z == "hand"]
        for context, card in facts:
            if card not in ids:
                continue  # a token or a leader: not a deck card
            seat = card // 1000 - 1
            key = (ids[card], context)
            seen[key].add((log.header.game_id, seat))
            if log.close.winner == seat:
                won[key].add((log.header.game_id, seat))
    return {k: (len(v), len(won[k])) for k, v in seen.items()}


def test_card_winrate(con: duckdb.DuckDBPyConnection, logs: list[GameLog]) -> None:
    cardtoy = [log for log in logs if log.header.ruleset == "cardtoy"]
    got = rows(
        run_report(con, "card_winrate", ruleset="cardtoy", min_games=0, filters=POOLED).frame,
        ["card_id", "context"],
        ["games", "wins"],
    )
    assert got == independent_card_winrate(cardtoy)
    assert {c for _, c in got} == {"opening_hand", "drawn", "played"}


def test_first_player(con: duckdb.DuckDBPyConnection, logs: list[GameLog]) -> None:
    want: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for log in logs:
        if log.close.winner >= 0:
            want[log.header.ruleset][0] += 1
            want[log.header.ruleset][1] += log.close.winner == first_player(log)
    got = rows(run_report(con, "first_player", min_games=0, filters=POOLED).frame, ["ruleset"], ["games", "wins"])
    assert got == {(r,): tuple(v) for r, v in want.items()}


def test_deck_matrix_counts_each_side_once_and_splits_mirrors_by_seat(
    con: duckdb.DuckDBPyConnection, logs: list[GameLog]
) -> None:
    """Each decided game once from each deck's side; the toy games are mirrors (pile against pile), reported per
    seat instead of the tautological 0.5 both sides of one game always give."""
    want: Counter[tuple[str, str, str, str, str]] = Counter()
    for log in logs:
        if log.close.winner < 0:
            continue
        names = [d.name for d in log.header.decks]
        for seat in (0, 1):
            side = f"seat {seat}" if names[0] == names[1] else "either"
            key = (log.header.ruleset, names[seat], names[1 - seat], side)
            want[(*key, "games")] += 1
            want[(*key, "wins")] += log.close.winner == seat
    frame = run_report(con, "deck_matrix", min_games=0, filters=POOLED).frame
    got = rows(frame, ["ruleset", "deck", "opponent", "side"], ["games", "wins"])
    assert got == {k[:4]: (want[(*k[:4], "games")], want[(*k[:4], "wins")]) for k in want}
    mirror = {r["side"]: r for r in frame.filter(pl.col("ruleset") == "toy").iter_rows(named=True)}
    assert set(mirror) == {"seat 0", "seat 1"}
    decided = sum(1 for log in logs if log.header.ruleset == "toy" and log.close.winner >= 0)
    assert mirror["seat 0"]["games"] == decided and mirror["seat 0"]["wins"] + mirror["seat 1"]["wins"] == decided
    assert mirror["seat 0"]["deck_games"] == 2 * decided  # the deck's record: both seats of every mirror game


def test_game_length(con: duckdb.DuckDBPyConnection, logs: list[GameLog]) -> None:
    turns: dict[tuple[str, int, str], list[int]] = defaultdict(list)
    for log in logs:
        played = log.close.turns
        if log.close.end_reason == "turn_cap":  # it began the turn after the cap, and did not play it
            played = log.header.max_turns
        turns[(log.header.ruleset, log.header.max_turns, log.close.end_reason)].append(played)
    frame = run_report(con, "game_length", min_games=0, filters=POOLED).frame
    got = rows(frame, ["ruleset", "turn_cap", "end_reason"], ["games", "mean_turns", "median_turns"])
    assert set(got) == set(turns)
    for key, values in turns.items():
        games, mean, median = got[key]
        assert games == len(values)
        assert mean == pytest.approx(statistics.fmean(values))
        assert median == pytest.approx(statistics.median(values))


def test_game_length_keeps_turn_caps_apart_and_counts_turns_played(tmp_path: Path) -> None:
    """Games stopped at a cap of 3 and of 5 are two rows, not one mean; a capped game counts the turns it played
    (its closing record says the turn after the cap, which had begun)."""
    for cap in (3, 5):
        list(simulate("miras9", 3, 2, None, ["random", "random"], tmp_path / f"cap{cap}", max_turns=cap))
    ingest([tmp_path / "cap3", tmp_path / "cap5"], tmp_path / "annals.duckdb", workers=1)
    closes = [read_log(p).close for p in collect([tmp_path / "cap3"])]
    assert all(c.end_reason == "turn_cap" and c.turns == 4 for c in closes)  # the misleading count
    con = duckdb.connect(str(tmp_path / "annals.duckdb"), read_only=True)
    frame = run_report(con, "game_length", min_games=0, filters=POOLED).frame
    got = rows(frame, ["turn_cap", "end_reason"], ["games", "mean_turns"])
    assert got == {(3, "turn_cap"): (3, 3.0), (5, "turn_cap"): (3, 5.0)}
    con.close()
    old = duckdb.connect(str(tmp_path / "annals.duckdb"))  # as schema version 3 stored them: the turn begun
    old.execute("UPDATE games SET turns = turns + 1 WHERE end_reason = 'turn_cap'")
    old.execute("UPDATE schema_version SET version = 3")
    old.close()
    open_database(tmp_path / "annals.duckdb").close()  # migrated on its next writable open
    con = duckdb.connect(str(tmp_path / "annals.duckdb"), read_only=True)
    assert con.execute("SELECT max_turns, turns FROM games GROUP BY ALL ORDER BY ALL").fetchall() == [(3, 3), (5, 5)]


def sql_round(x: float, places: int) -> float:
    """``round(x, places)`` as SQL (DuckDB) rounds a double: half away from zero on its exact binary value, where
    Python's ``round`` goes half to even (0.53125 is 0.5313 in SQL, 0.5312 in Python)."""
    return float(Decimal(x).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP))


def independent_choices(logs: list[GameLog]) -> dict[tuple[str, str, str], tuple[Any, ...]]:
    """Per (ruleset, point, option kind): decisions that chose it, decisions that offered it, the mean share of the
    offered options that were of that kind, and chosen/declined decided seat-games with their wins."""
    picks: Counter[tuple[str, str, str]] = Counter()
    offered: Counter[tuple[str, str, str]] = Counter()
    shares: defaultdict[tuple[str, str, str], list[float]] = defaultdict(list)
    games: Counter[tuple[str, str, str, str]] = Counter()
    for log in logs:
        seen: defaultdict[tuple[str, str, str], dict[int, bool]] = defaultdict(dict)
        for d in log.decisions:
            kinds = Counter(type(o).__name__ for o in d.offered)
            chosen = type(d.offered[d.chosen]).__name__
            for kind, count in kinds.items():
                key = (log.header.ruleset, d.point, kind)
                offered[key] += 1
                picks[key] += kind == chosen
                shares[key].append(count / len(d.offered))
                seen[key][d.player] = seen[key].get(d.player, False) or kind == chosen
        if log.close.winner >= 0:
            for key, seats in seen.items():
                for seat, did in seats.items():
                    side = "chosen" if did else "declined"
                    games[(*key, f"{side}_games")] += 1
                    games[(*key, f"{side}_wins")] += log.close.winner == seat
    names = ("chosen_games", "chosen_wins", "declined_games", "declined_wins")
    return {
        k: (picks[k], offered[k], sql_round(statistics.fmean(shares[k]), 4), *(games[(*k, n)] for n in names))
        for k in offered
    }


@pytest.mark.parametrize("games", ["toy", "real"])
def test_decision_choices_with_their_baselines(
    con: duckdb.DuckDBPyConnection, logs: list[GameLog], real_db: Path, real_logs: Path, games: str
) -> None:
    """Every option kind offered at each point: how often chosen when offered (with its interval) against choosing
    uniformly, and the seat-games that chose it against those that were offered it and declined (Miras 9 and
    MORANA games, and the toy rulesets)."""
    if games == "real":
        logs = [read_log(p) for p in collect([real_logs])]
        con = duckdb.connect(str(real_db), read_only=True)
    want = independent_choices(logs)
    frame = run_report(con, "decision_choices", min_games=0, filters=POOLED).frame
    values = ["decisions", "offered_decisions", "uniform_pick", "chosen_games", "chosen_wins", "declined_games",
              "declined_wins"]  # fmt: skip
    got = rows(frame, ["ruleset", "point", "option_kind"], values)
    assert got == want
    for row in frame.iter_rows(named=True):  # the interval is cluster-robust by game (test_baselines recomputes it)
        assert row["pick"] == pytest.approx(row["decisions"] / row["offered_decisions"], abs=1e-4)
        if row["pick_ci_low"] is not None:
            assert row["pick_ci_low"] <= row["pick"] + 1e-4 and row["pick"] <= row["pick_ci_high"] + 1e-4


@pytest.mark.parametrize("name", sorted(REPORTS))
def test_every_report_runs_and_states_its_sample(con: duckdb.DuckDBPyConnection, name: str, db: Path) -> None:
    result = run_report(con, name, database=str(db))
    reads = REPORTS[name].rulesets  # the toy database holds no Miras 9 or MORANA game: their reports count none
    assert (
        result.sample.startswith("sample: 50 games" if reads is None else "sample: 0 games")
        and str(db) in result.sample
    )
    assert isinstance(result.frame, pl.DataFrame)


def test_ruleset_filter_and_min_games(con: duckdb.DuckDBPyConnection) -> None:
    only = run_report(con, "first_player", ruleset="toy", min_games=0, filters=POOLED)
    assert only.frame["ruleset"].to_list() == ["toy"] and "10 games" in only.sample
    small = run_report(
        con, "first_player", ruleset="toy", filters=POOLED
    )  # the default floor hides the 10-game row, and says so
    assert small.frame.height == 0 and small.hidden == 1 and "1 rows with fewer than 30 games hidden" in small.sample
    big = run_report(con, "card_winrate", min_games=10**6, filters=POOLED)
    assert big.frame.height == 0
