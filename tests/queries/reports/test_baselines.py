"""Reports that cannot mislead (issue 30): each misleading headline rebuilt on a simulated set of bot games, and
the corrected report beside an independent count from the logs themselves."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import duckdb
import polars as pl
import pytest

from annals.engine.simulate import simulate
from annals.ingest.flatten import collect
from annals.ingest.loader import ingest
from annals.queries.cards import pool
from annals.queries.reports.filters import Filters, NotApplicableError
from annals.queries.reports.run import Z95, run_report
from annals.schemas.header import played_turns
from annals.schemas.logfile import GameLog, read_log
from annals.schemas.records import instance_id
from tests.queries.reports.test_reports import first_player, rows

POOLED = Filters(pool=True)  # the bot pairings pooled, as the independent counts below count


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Miras 9 with a strong bot against a weak one (heuristic wins most games whoever goes first), and MORANA
    between equals."""
    root = tmp_path_factory.mktemp("mixed")
    list(simulate("miras9", 40, 5, ["vanguard", "bastion"], ["heuristic", "random"], root / "miras9"))
    list(simulate("morana", 60, 5, ["clash", "glory"], ["heuristic", "heuristic"], root / "morana"))
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
    assert f"sample: {miras9} games" in result.sample and "rulesets: miras9 (" in result.sample
    assert "morana" not in result.sample
    assert set(result.frame["ruleset"]) == {"miras9"}
    with pytest.raises(NotApplicableError, match="--ruleset morana does not apply"):
        run_report(con, "first_player", filters=Filters(ruleset="morana"))


def test_site_order_is_read_against_what_the_slava_difference_predicts(
    con: duckdb.DuckDBPyConnection, logs: list[GameLog]
) -> None:
    """[MOR-28] The player with less Slava resolves first: against a flat 0.5, "resolving first wins a third of the
    time" read as a finding. expected_wins is the win rate of every seat behind by the same Slava (at every
    resolution), summed over the seat-games that resolved first; the excess over it is what is left to explain."""
    seen: list[tuple[int, bool]] = []  # (behind, won) of every seat at every resolution
    firsts: dict[tuple[int, str, str, int], int] = {}  # (site, reason, game, seat) -> behind at its first one
    wins: Counter[tuple[int, str]] = Counter()
    for log in logs:
        if log.header.ruleset != "morana" or log.close.winner < 0:
            continue
        for e in log.events:
            if type(e).__name__ != "SiteResolutionBegan":
                continue
            for seat in (0, 1):
                behind = max(-4, min(4, e.slava[1 - seat] - e.slava[seat]))
                seen.append((behind, seat == log.close.winner))
                key = (e.site, e.reason, log.header.game_id, seat)
                if e.first == seat and key not in firsts:
                    firsts[key] = behind
                    wins[(e.site, e.reason)] += seat == log.close.winner
    chance = {k: sum(w for b, w in seen if b == k) / sum(1 for b, _ in seen if b == k) for k, _ in seen}
    expected: dict[tuple[int, str], float] = {}
    games: Counter[tuple[int, str]] = Counter()
    for (site, reason, _, _), behind in firsts.items():
        expected[(site, reason)] = expected.get((site, reason), 0.0) + chance[behind]
        games[(site, reason)] += 1
    frame = run_report(con, "site_order", min_games=0).frame
    got = rows(frame, ["site", "reason"], ["games", "wins", "expected_wins"])
    assert set(got) == set(games)
    for (site, reason), (n, w, e) in got.items():
        cell = (int(site), str(reason))
        assert (n, w) == (games[cell], wins[cell]) and e == pytest.approx(expected[cell], abs=1e-3), cell
    behind = frame.filter(reason="less_slava")
    pooled = float(behind["wins"].sum()) / float(behind["games"].sum())
    assert pooled < 0.45  # the misleading headline: well under a flat 0.5
    predicted = float(behind["expected_wins"].sum()) / float(behind["games"].sum())
    assert abs(pooled - predicted) < abs(pooled - 0.5)  # mostly what being behind predicts
    for row in behind.iter_rows(named=True):
        assert row["excess"] == pytest.approx(row["win_rate"] - row["expected_win_rate"], abs=2e-4)


def _fifths(keys: list[tuple[int, int, int]]) -> dict[tuple[int, int], int]:
    """DuckDB's ntile(5) over seat-games ordered by (turns, game, seat): (game, seat) -> fifth, 1 to 5."""
    ordered = sorted(keys)
    size, extra = divmod(len(ordered), 5)
    out: dict[tuple[int, int], int] = {}
    at = 0
    for fifth in range(1, 6):
        take = size + (1 if fifth <= extra else 0)
        for _, game, seat in ordered[at : at + take]:
            out[(game, seat)] = fifth
        at += take
    return out


def test_iwd_is_matched_for_game_length_and_shown_only_on_enough_games(
    con: duckdb.DuckDBPyConnection, logs: list[GameLog]
) -> None:
    """Never-seen games are shorter: IWD compares GIH with GNS games that are shorter on average, so a card looks
    better for being seen in long games. iwd_length_matched compares them within each fifth of the game lengths,
    weighted by GIH games; recomputed here from card_games and the logs' lengths. IWD of a cell under the floor
    is not shown."""
    facts = con.execute(
        "SELECT c.game, c.seat, c.card_id, c.opening_hand OR c.drawn, c.placed_at_setup FROM card_games c "
        "JOIN games g USING (game) WHERE g.ruleset = 'miras9' AND g.winner >= 0"
    ).fetchall()
    numbers = dict(con.execute("SELECT game_id, game FROM games").fetchall())
    # the turns played (a capped game's closing record says the turn after its cap: schemas.header.played_turns)
    miras9 = [log for log in logs if log.header.ruleset == "miras9"]
    length = {numbers[log.header.game_id]: log.close for log in miras9}
    played = {
        numbers[g.header.game_id]: played_turns(g.close.turns, g.close.end_reason, g.header.max_turns) for g in miras9
    }
    seats = [(played[game], game, seat) for game, c in length.items() if c.winner >= 0 for seat in (0, 1)]
    fifth = _fifths(seats)
    cells: dict[str, dict[int, list[int]]] = {}  # card -> fifth -> [gih games, gih wins, gns games, gns wins]
    for game, seat, card, seen, placed in facts:
        if not seen and placed:
            continue  # a starting Site: in neither group
        cell = cells.setdefault(card, {}).setdefault(fifth[(game, seat)], [0, 0, 0, 0])
        won = length[game].winner == seat
        cell[0 if seen else 2] += 1
        cell[1 if seen else 3] += won
    frame = run_report(con, "card_metrics", ruleset="miras9", min_games=0, filters=POOLED).frame
    checked = 0
    for row in frame.iter_rows(named=True):
        both = [c for c in cells[row["card_id"]].values() if c[0] and c[2]]
        if not both:
            assert row["iwd_length_matched"] is None
            continue
        want = sum(c[0] * (c[1] / c[0] - c[3] / c[2]) for c in both) / sum(c[0] for c in both)
        assert row["iwd_length_matched"] == pytest.approx(want, abs=1e-4), row["card_id"]
        assert row["matched_gih_games"] == sum(c[0] for c in both)
        checked += 1
    assert checked > 5
    shorter = frame.filter(pl.col("gns_mean_turns") < pl.col("gih_mean_turns")).height
    assert shorter > frame.height / 2  # the bias: never-seen games are the shorter ones
    floored = run_report(con, "card_metrics", ruleset="miras9", min_games=10, filters=POOLED).frame
    small = floored.filter((pl.col("gih_games") < 10) | (pl.col("gns_games") < 10))
    assert small.height > 0 and small["iwd"].null_count() == small.height
    assert small["iwd_length_matched"].null_count() == small.height


def test_mulligan_report_against_the_logs(con: duckdb.DuckDBPyConnection, logs: list[GameLog]) -> None:
    """[M9-021] each seat's mulligan decision by the Units its hand held when it decided, taken or kept, and the
    games that followed: counted from the logs' own decisions and set-up draws."""
    units = {c.id for c in pool("miras9") if c.type.startswith("unit")}  # "unit (character)", "unit (ship)", ...
    want: Counter[tuple[int, str]] = Counter()
    for log in logs:
        if log.header.ruleset != "miras9":
            continue
        ids = {instance_id(s, i): c for s, d in enumerate(log.header.decks) for i, c in enumerate(d.cards)}
        for d in log.decisions:
            if d.point != "mulligan":
                continue
            drawn = [
                e.card
                for e in log.events[: d.at]
                if e.turn == 0
                and getattr(e, "src", None) == "deck"
                and getattr(e, "dst", None) == "hand"
                and e.card // 1000 - 1 == d.player
            ]  # fmt: skip (instance ids are 1000 * (seat + 1) + i)
            held = sum(1 for c in drawn if ids[c] in units)
            took = bool(d.offered[d.chosen].take)
            want[(held, "decisions")] += 1
            want[(held, "taken")] += took
            if log.close.winner >= 0:
                side = "mulligan" if took else "kept"
                want[(held, f"{side}_games")] += 1
                want[(held, f"{side}_wins")] += log.close.winner == d.player
    columns = ["decisions", "taken", "kept_games", "kept_wins", "mulligan_games", "mulligan_wins"]
    frame = run_report(con, "mulligan", min_games=0, filters=POOLED).frame
    got = rows(frame, ["units_in_hand"], columns)
    assert got == {(h,): tuple(want[(h, c)] for c in columns) for h in {k[0] for k in want}}
    assert sum(want[(h, "taken")] for h in {k[0] for k in want}) > 0  # the bots do take mulligans
    for row in frame.iter_rows(named=True):
        assert row["take_rate"] == pytest.approx(row["taken"] / row["decisions"], abs=1e-4)


def test_deck_and_card_reports_compare_like_with_like_unless_pooled(
    con: duckdb.DuckDBPyConnection, logs: list[GameLog]
) -> None:
    """The bot mix decided headlines: pooled, a deck played by the strong bot in half its games reads as strong.
    By default each bot pairing is a row of its own (``pairing``) and a baseline (deck_games, the deck against
    every opponent) is computed within it; ``--pool`` gives the old pooled rows. Counted from the logs."""
    want: Counter[tuple[str, str, str, str]] = Counter()  # (pairing, deck, opponent, games|wins)
    for log in logs:
        if log.header.ruleset != "miras9" or log.close.winner < 0:
            continue
        for seat in (0, 1):
            me, them = log.header.players[seat], log.header.players[1 - seat]
            key = (f"{me.agent} vs {them.agent}", log.header.decks[seat].name, log.header.decks[1 - seat].name)
            want[(*key, "games")] += 1
            want[(*key, "wins")] += log.close.winner == seat
    frame = run_report(con, "deck_matrix", ruleset="miras9", min_games=0).frame
    got = rows(frame, ["pairing", "deck", "opponent"], ["games", "wins"])
    assert got == {k[:3]: (want[(*k[:3], "games")], want[(*k[:3], "wins")]) for k in want}
    assert {p for p, _, _ in got} == {"heuristic vs random", "random vs heuristic"}
    for row in frame.iter_rows(named=True):  # the baseline within the pairing: here, the deck's one opponent
        assert (row["deck_games"], row["deck_wins"]) == (row["games"], row["wins"])
    pooled = run_report(con, "deck_matrix", filters=Filters(ruleset="miras9", pool=True), min_games=0).frame
    assert "pairing" not in pooled.columns
    totals = rows(pooled, ["deck", "opponent"], ["games", "wins"])
    for (deck, opponent), (games, wins) in totals.items():
        assert games == sum(n for (p, d, o), (n, _) in got.items() if (d, o) == (deck, opponent))
        assert wins == sum(w for (p, d, o), (_, w) in got.items() if (d, o) == (deck, opponent))
    by_agent = run_report(con, "card_metrics", filters=Filters(ruleset="miras9", by="agent"), min_games=0).frame
    assert {"agent", "pairing"} <= set(by_agent.columns)
    assert set(zip(by_agent["agent"], by_agent["pairing"], strict=True)) == {
        ("heuristic", "heuristic vs random"),
        ("random", "random vs heuristic"),
    }


def test_play_and_draw_split_the_deck_and_card_reports(con: duckdb.DuckDBPyConnection, logs: list[GameLog]) -> None:
    """[M9-022] --by play: each seat-game on the play (it took turn 1) or on the draw, counted from the logs; in a
    MORANA game no one is (both players take every turn together [MOR-13])."""
    want: Counter[tuple[str, str, str, str, str]] = Counter()
    for log in logs:
        if log.close.winner < 0:
            continue
        first = first_player(log) if log.header.ruleset == "miras9" else -1
        for seat in (0, 1):
            play = "no first player" if first < 0 else "on the play" if seat == first else "on the draw"
            key = (log.header.ruleset, play, log.header.decks[seat].name, log.header.decks[1 - seat].name)
            want[(*key, "games")] += 1
            want[(*key, "wins")] += log.close.winner == seat
    frame = run_report(con, "deck_matrix", filters=Filters(by="play", pool=True), min_games=0).frame
    assert {"play", "opponent_play"} <= set(frame.columns)
    got = rows(frame, ["ruleset", "play", "deck", "opponent"], ["games", "wins"])
    assert got == {k[:4]: (want[(*k[:4], "games")], want[(*k[:4], "wins")]) for k in want}
    cards = run_report(con, "card_winrate", filters=Filters(by="play", ruleset="miras9"), min_games=0).frame
    assert set(cards["play"]) == {"on the play", "on the draw"}


NOT_IN_PLAY = {"deck", "hand", "discard", "exile", "nav", "gone"}


def test_card_turns_against_the_logs(con: duckdb.DuckDBPyConnection, logs: list[GameLog]) -> None:
    """Per card and the turn a copy was first played (from hand into play), the seat-games and wins, and the
    play rate against every seat-game with the card in its deck: counted from the logs' card moves."""
    want: Counter[tuple[str, str, int, str]] = Counter()
    deck: Counter[tuple[str, str, str]] = Counter()
    for log in logs:
        if log.close.winner < 0:
            continue
        ids = {instance_id(s, i): c for s, d in enumerate(log.header.decks) for i, c in enumerate(d.cards)}
        first: dict[int, int] = {}
        for e in log.events:
            card = getattr(e, "card", None)
            dst = getattr(e, "dst", None)
            played = getattr(e, "src", None) == "hand" and dst and dst not in NOT_IN_PLAY
            if isinstance(card, int) and card in ids and played:
                first.setdefault(card, e.turn)
        for seat in (0, 1):
            mine = [i for i in ids if i // 1000 - 1 == seat]
            won = log.close.winner == seat
            for card_id in {ids[i] for i in mine}:
                deck[(log.header.ruleset, card_id, "games")] += 1
                turns = [first[i] for i in mine if ids[i] == card_id and i in first]
                if turns:
                    key = (log.header.ruleset, card_id, min(min(turns), 11))
                    want[(*key, "games")] += 1
                    want[(*key, "wins")] += won
    frame = run_report(con, "card_turns", filters=POOLED, min_games=0).frame
    got = rows(frame, ["ruleset", "card_id", "played_turn"], ["games", "wins", "deck_games"])
    assert got == {k[:3]: (want[(*k[:3], "games")], want[(*k[:3], "wins")], deck[(*k[:2], "games")]) for k in want}
    for row in frame.iter_rows(named=True):
        assert row["play_rate"] == pytest.approx(row["games"] / row["deck_games"], abs=1e-4)


def test_card_metrics_within_a_matchup(con: duckdb.DuckDBPyConnection) -> None:
    """--by matchup: a card's metrics within each deck-against-deck matchup (17lands' matchup-aware card stats);
    summed over the matchups they are the pooled ones, and a baseline (GP) is the matchup's own."""
    split = run_report(con, "card_metrics", filters=Filters(by="matchup", pool=True), min_games=0).frame
    pooled = run_report(con, "card_metrics", filters=POOLED, min_games=0).frame
    assert set(split["matchup"]) == {"vanguard vs bastion", "bastion vs vanguard", "clash vs glory", "glory vs clash"}
    sums = split.group_by("ruleset", "card_id").agg(pl.col("gp_games").sum(), pl.col("gih_wins").sum())
    joined = pooled.select("ruleset", "card_id", "gp_games", "gih_wins").join(sums, on=["ruleset", "card_id"])
    assert joined.height == pooled.height
    assert (joined["gp_games"] == joined["gp_games_right"]).all() and (
        joined["gih_wins"] == joined["gih_wins_right"]
    ).all()


def test_decision_pick_intervals_are_cluster_robust_by_game(
    con: duckdb.DuckDBPyConnection, logs: list[GameLog]
) -> None:
    """A game's decisions are alike (the same hand, the same bot): treating each decision as independent made the
    pick rate's interval Wilson's, as if they were. Each game is a cluster: the sandwich variance of the ratio, with
    the G/(G-1) correction, recomputed here from the logs' decisions."""
    per_game: dict[tuple[str, str, str], dict[str, list[int]]] = {}  # (ruleset, point, kind) -> game -> [y, n]
    for log in logs:
        for d in log.decisions:
            kinds = {type(o).__name__ for o in d.offered}
            chosen = type(d.offered[d.chosen]).__name__
            for kind in kinds:
                cell = per_game.setdefault((log.header.ruleset, d.point, kind), {}).setdefault(
                    log.header.game_id, [0, 0]
                )
                cell[0] += chosen == kind
                cell[1] += 1
    frame = run_report(con, "decision_choices", filters=POOLED, min_games=0).frame
    checked = mixed = 0
    for row in frame.iter_rows(named=True):
        games = per_game[(row["ruleset"], row["point"], row["option_kind"])]
        y, n = sum(c[0] for c in games.values()), sum(c[1] for c in games.values())
        assert (row["decisions"], row["offered_decisions"], row["pick_games"]) == (y, n, len(games))
        if len(games) < 2:
            assert row["pick_ci_low"] is None
            continue
        p = y / n
        v = sum((c[0] - c[1] * p) ** 2 for c in games.values()) / n**2 * len(games) / (len(games) - 1)
        low, high = max(0.0, p - Z95 * v**0.5), min(1.0, p + Z95 * v**0.5)
        assert (row["pick_ci_low"], row["pick_ci_high"]) == (
            pytest.approx(low, abs=2e-4),
            pytest.approx(high, abs=2e-4),
        )
        checked += 1
        mixed += 0 < p < 1  # a kind always or never chosen has no spread between games
    assert checked > 10 and mixed > 10


def test_iwd_interval_is_cluster_robust_by_game_and_agrees_with_a_bootstrap(
    con: duckdb.DuckDBPyConnection, logs: list[GameLog]
) -> None:
    """IWD is a difference of two win rates over seat-games, and a game's two seats are one cluster (a card in both
    decks puts both in the sample, one winning and one losing). Its interval: the sandwich variance by game with the
    G/(G-1) correction, recomputed here from card_games and the logs' results, and held against a bootstrap that
    resamples whole games (400 draws: the two standard errors agree within a quarter)."""
    facts = con.execute(
        "SELECT g.ruleset, c.game, c.seat, c.card_id, c.opening_hand OR c.drawn, c.placed_at_setup, g.winner "
        "FROM card_games c JOIN games g USING (game) WHERE g.winner >= 0"
    ).fetchall()
    cells: dict[tuple[str, str], dict[int, list[int]]] = {}  # (ruleset, card) -> game -> [a, aw, b, bw]
    for ruleset, game, seat, card, seen, placed, winner in facts:
        if not seen and placed:
            continue  # a starting Site: in neither group
        cell = cells.setdefault((ruleset, card), {}).setdefault(game, [0, 0, 0, 0])
        cell[0 if seen else 2] += 1
        cell[1 if seen else 3] += winner == seat

    def iwd(games: list[list[int]]) -> float | None:
        a, aw, b, bw = (sum(g[i] for g in games) for i in range(4))
        return aw / a - bw / b if a and b else None

    frame = run_report(con, "card_metrics", min_games=5, filters=POOLED).frame
    rng = random.Random(7)
    checked = compared = 0
    for row in frame.iter_rows(named=True):
        if row["iwd"] is None:
            assert row["iwd_ci_low"] is None and row["iwd_ci_high"] is None
            continue
        games = list(cells[(row["ruleset"], row["card_id"])].values())
        a, aw, b, bw = (sum(g[i] for g in games) for i in range(4))
        d, mg, mn = aw / a - bw / b, aw / a, bw / b
        u = [(g[1] - g[0] * mg) / a - (g[3] - g[2] * mn) / b for g in games]
        se = (len(games) / (len(games) - 1) * sum(x * x for x in u)) ** 0.5
        assert row["iwd_games"] == len(games)
        assert row["iwd_ci_low"] == pytest.approx(max(-1.0, d - Z95 * se), abs=2e-4), row["card_id"]
        assert row["iwd_ci_high"] == pytest.approx(min(1.0, d + Z95 * se), abs=2e-4), row["card_id"]
        assert row["iwd_ci_low"] <= row["iwd"] <= row["iwd_ci_high"]
        checked += 1
        if se > 0.02 and len(games) >= 30:
            draws = [iwd(rng.choices(games, k=len(games))) for _ in range(400)]
            kept = [x for x in draws if x is not None]
            mean = sum(kept) / len(kept)
            boot = (sum((x - mean) ** 2 for x in kept) / (len(kept) - 1)) ** 0.5
            assert boot == pytest.approx(se, rel=0.25), row["card_id"]
            compared += 1
    assert checked > 10 and compared > 5
