"""Filters, splits and refusals every report shares, checked against independent counts from the logs."""

from __future__ import annotations

from collections import Counter
from datetime import date
from pathlib import Path

import duckdb
import pytest

from annals.ingest.flatten import collect
from annals.queries.reports.filters import Filters, NotApplicableError, UnknownValueError
from annals.queries.reports.run import REPORTS, run_report
from annals.schemas.logfile import GameLog, read_log
from tests.queries.reports.test_reports import rows


@pytest.fixture(scope="module")
def logs(real_logs: Path) -> list[GameLog]:
    return [read_log(p) for p in collect([real_logs])]


@pytest.fixture(scope="module")
def con(real_db: Path) -> duckdb.DuckDBPyConnection:
    return duckdb.connect(str(real_db), read_only=True)


def test_deck_matrix_by_agent_matches_the_logs(con: duckdb.DuckDBPyConnection, logs: list[GameLog]) -> None:
    """--by agent: each deck's record against each opponent, per (agent, opponent agent) pair."""
    want: Counter[tuple[str, str, str, str, str]] = Counter()
    for log in logs:
        if log.close.winner < 0:
            continue
        for seat in (0, 1):
            agents = [p.agent for p in log.header.players]
            decks = [d.name for d in log.header.decks]
            key = (agents[seat], agents[1 - seat], decks[seat], decks[1 - seat])
            want[(*key, "games")] += 1
            want[(*key, "wins")] += log.close.winner == seat
    frame = run_report(con, "deck_matrix", min_games=0, filters=Filters(by="agent")).frame
    got = rows(frame, ["agent", "opponent_agent", "deck", "opponent"], ["games", "wins"])
    assert got == {k[:4]: (want[(*k[:4], "games")], want[(*k[:4], "wins")]) for k in want if k[4] == "games"}
    assert {"heuristic", "random"} == set(frame["agent"])


@pytest.mark.parametrize("agent", ["heuristic", "random"])
def test_agent_filter_selects_that_agents_seats(
    con: duckdb.DuckDBPyConnection, logs: list[GameLog], agent: str
) -> None:
    decided = [
        (log, s) for log in logs if log.close.winner >= 0 for s in (0, 1) if log.header.players[s].agent == agent
    ]
    want: Counter[tuple[str, str]] = Counter()
    for log, seat in decided:
        want[(log.header.ruleset, "games")] += 1
        want[(log.header.ruleset, "wins")] += log.close.winner == seat
    gp: Counter[tuple[str, str, str]] = Counter()  # (ruleset, card, games|wins): decided seat-games with it
    for log, seat in decided:
        for card in set(log.header.decks[seat].cards):
            gp[(log.header.ruleset, card, "games")] += 1
            gp[(log.header.ruleset, card, "wins")] += log.close.winner == seat
    result = run_report(con, "card_metrics", min_games=0, filters=Filters(agent=agent))
    got = rows(result.frame, ["ruleset", "card_id"], ["gp_games", "gp_wins"])
    assert got == {(r, c): (n, gp[(r, c, "wins")]) for (r, c, k), n in gp.items() if k == "games"} and got
    assert f"agent={agent}" in result.sample and result.filters == {"agent": agent}
    matrix = run_report(con, "deck_matrix", min_games=0, filters=Filters(agent=agent)).frame
    assert sum(matrix["games"]) == len(decided) and sum(matrix["wins"]) == sum(
        want[(r, "wins")] for r in ("miras9", "morana")
    )


def test_seat_and_deck_filters(con: duckdb.DuckDBPyConnection, logs: list[GameLog]) -> None:
    seat1 = sum(1 for log in logs if log.close.winner == 1)
    frame = run_report(con, "deck_matrix", min_games=0, filters=Filters(seat=1)).frame
    assert sum(frame["wins"]) == seat1
    glory = [log for log in logs if any(d.name == "glory" for d in log.header.decks)]
    sample = run_report(con, "game_length", min_games=0, filters=Filters(deck="glory")).sample
    assert sample.startswith(f"sample: {len(glory)} games")


def test_min_turns_and_dates(con: duckdb.DuckDBPyConnection, logs: list[GameLog]) -> None:
    long = [log for log in logs if log.close.turns >= 8]
    got = run_report(con, "game_length", min_games=0, filters=Filters(min_turns=8)).frame
    assert sum(got["games"]) == len(long)
    today = date.today()
    assert sum(run_report(con, "game_length", min_games=0, filters=Filters(since=today)).frame["games"]) == len(logs)
    assert run_report(con, "game_length", min_games=0, filters=Filters(until=date(2000, 1, 1))).frame.height == 0


@pytest.mark.parametrize(
    ("filters", "message"),
    [
        (Filters(ruleset="nosuch"), "no ruleset 'nosuch'; known rulesets: "),
        (Filters(agent="heuristc"), "did you mean 'heuristic'"),
        (Filters(deck="nosuch"), "known decks: clash, glory, windrunner, wreckers"),
        (Filters(event="nosuch"), "no event 'nosuch'"),
        (Filters(seat=2), "seats are 0 and 1"),
        (Filters(by="colour"), "cannot split by 'colour'"),
    ],
)
def test_unknown_values_are_errors_listing_the_known(
    con: duckdb.DuckDBPyConnection, filters: Filters, message: str
) -> None:
    with pytest.raises(UnknownValueError, match=message.replace("(", r"\(")):
        run_report(con, "card_metrics", filters=filters)


def test_options_that_do_not_apply_are_refused(con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(NotApplicableError, match="cannot be split by 'deck'; it splits by: agent"):
        run_report(con, "deck_matrix", filters=Filters(by="deck"))
    with pytest.raises(NotApplicableError, match="about whole games, so --seat does not apply"):
        run_report(con, "game_length", filters=Filters(seat=0))
    with pytest.raises(NotApplicableError, match="no games column, so --min-games 5 does not apply"):
        run_report(con, "offboard_cap", min_games=5)
    with pytest.raises(NotApplicableError, match="reads miras9 games only"):
        run_report(con, "damage_payments", ruleset="morana")
    assert all(not spec.by or spec.per_seat for spec in REPORTS.values())  # a split needs rows about seats
    with pytest.raises(NotApplicableError, match="cannot be split by 'agent'; it splits by: deck, seat"):
        run_report(con, "first_player", filters=Filters(by="agent"))  # its rows are per agent pairing already


@pytest.mark.parametrize(("name", "by"), [(name, by) for name, spec in REPORTS.items() for by in spec.by])
def test_every_split_a_report_offers_runs(con: duckdb.DuckDBPyConnection, name: str, by: str) -> None:
    """Each ``--by`` a report offers gives rows with the split as a column of its own (first_player once offered
    ``--by agent`` beside its own agent column, review_accuracy ``--by deck``, and both failed on the duplicate
    name)."""
    frame = run_report(con, name, min_games=0, filters=Filters(by=by)).frame
    assert by in frame.columns and len(set(frame.columns)) == len(frame.columns)
    assert frame.height > 0 or REPORTS[name].reviews  # the real games are not reviewed
