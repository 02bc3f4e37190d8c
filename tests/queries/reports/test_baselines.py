"""Reports that cannot mislead (issue 30): each misleading headline rebuilt on a simulated set of bot games, and
the corrected report beside an independent count from the logs themselves."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import duckdb
import pytest

from annals.engine.simulate import simulate
from annals.ingest.flatten import collect
from annals.ingest.loader import ingest
from annals.queries.reports.filters import Filters, NotApplicableError
from annals.queries.reports.run import run_report
from annals.schemas.logfile import GameLog, read_log
from tests.queries.reports.test_reports import first_player, rows


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Miras 9 with a strong bot against a weak one (heuristic wins most games whoever goes first), and MORANA."""
    root = tmp_path_factory.mktemp("mixed")
    list(simulate("miras9", 40, 5, ["vanguard", "bastion"], ["heuristic", "random"], root / "miras9"))
    list(simulate("morana", 10, 5, ["clash", "glory"], ["heuristic", "random"], root / "morana"))
    return root


@pytest.fixture(scope="module")
def logs(mixed: Path) -> list[GameLog]:
    return [read_log(p) for p in collect([mixed])]


@pytest.fixture(scope="module")
def con(mixed: Path, tmp_path_factory: pytest.TempPathFactory) -> duckdb.DuckDBPyConnection:
    path = tmp_path_factory.mktemp("mixeddb") / "annals.duckdb"
    ingest([mixed], path, workers=1)
    return duckdb.connect(str(path), read_only=True)


def test_first_player_is_read_against_going_second_in_the_same_bot_pairing(
    con: duckdb.DuckDBPyConnection, logs: list[GameLog]
) -> None:
    """[M9-022] The old headline, the first player's win rate split by bot, read heuristic ~0.9: bot skill, since
    heuristic wins going second too. Each row now holds one bot pairing, going first beside going second (the
    baseline), and their difference; the counts are the logs' own."""
    want: Counter[tuple[str, str, str]] = Counter()
    for log in logs:
        if log.header.ruleset != "miras9" or log.close.winner < 0:
            continue
        first = first_player(log)
        for seat in (0, 1):
            agents = (log.header.players[seat].agent, log.header.players[1 - seat].agent)
            side = "" if seat == first else "second_"
            want[(*agents, f"{side}games")] += 1
            want[(*agents, f"{side}wins")] += log.close.winner == seat
    frame = run_report(con, "first_player", min_games=0).frame
    columns = ["games", "wins", "second_games", "second_wins"]
    got = rows(frame, ["agent", "opponent_agent"], columns)
    assert got == {pair: tuple(want[(*pair, c)] for c in columns) for pair in {k[:2] for k in want}}
    strong = frame.filter(agent="heuristic").row(0, named=True)
    assert strong["win_rate"] > 0.7  # the misleading headline, had it stood alone
    assert strong["second_win_rate"] > 0.7  # ...but heuristic wins going second as well: bot skill
    assert strong["advantage"] == pytest.approx(strong["win_rate"] - strong["second_win_rate"], abs=2e-4)
    assert abs(strong["advantage"]) < strong["win_rate"] - 0.5


def test_first_player_counts_only_the_games_it_reads(con: duckdb.DuckDBPyConnection, logs: list[GameLog]) -> None:
    """[MOR-13] MORANA has no first player: its games are neither read nor counted in the sample line, and asking
    for them is refused by name."""
    result = run_report(con, "first_player", min_games=0)
    miras9 = sum(1 for log in logs if log.header.ruleset == "miras9")
    assert f"sample: {miras9} games" in result.sample and "morana" not in result.sample
    assert set(result.frame["ruleset"]) == {"miras9"}
    with pytest.raises(NotApplicableError, match="--ruleset morana does not apply"):
        run_report(con, "first_player", filters=Filters(ruleset="morana"))
