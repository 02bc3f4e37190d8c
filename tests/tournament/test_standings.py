"""Standings: match points, OMW%, GW%, OGW% with the 33% floor, byes, drops and a tie on every tiebreaker."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from annals.engine.tournament.standings import Result, lot, standings


def close(x: float, y: Fraction | float) -> bool:
    return abs(x - float(y)) < 1e-12


def test_a_hand_made_event_of_five_players_with_byes_and_a_drawn_match() -> None:
    results = [
        Result("A", "B", 2, 0, 0, "A"),
        Result("C", "D", 2, 1, 0, "C"),
        Result("E", "", 2, 0, 0, "E"),  # bye
        Result("A", "C", 2, 1, 0, "A"),
        Result("B", "E", 1, 1, 1, ""),  # a drawn match, one drawn game
        Result("D", "", 2, 0, 0, "D"),  # bye
    ]
    rows = {s.player: s for s in standings(list("ABCDE"), results, seed=1)}
    floor = Fraction(33, 100)
    mw = {"A": Fraction(1), "B": floor, "C": Fraction(1, 2), "D": Fraction(1, 2), "E": Fraction(2, 3)}
    gw = {"A": Fraction(12, 15), "B": floor, "C": Fraction(1, 2), "D": Fraction(9, 15), "E": Fraction(10, 15)}
    opponents = {"A": "BC", "B": "AE", "C": "DA", "D": "C", "E": "B"}  # byes are no opponents
    for p, s in rows.items():
        assert close(s.mw, mw[p]) and close(s.gw, gw[p])
        assert close(s.omw, sum(mw[o] for o in opponents[p]) / len(opponents[p]))
        assert close(s.ogw, sum(gw[o] for o in opponents[p]) / len(opponents[p]))
    assert {p: s.points for p, s in rows.items()} == {"A": 6, "B": 1, "C": 3, "D": 3, "E": 4}
    assert [s.player for s in sorted(rows.values(), key=lambda s: s.rank)] == ["A", "E", "C", "D", "B"]
    assert (rows["E"].byes, rows["D"].byes, rows["A"].byes) == (1, 1, 0)


def test_the_floor_lifts_a_winless_record_to_33_percent() -> None:
    rows = {s.player: s for s in standings(["W", "L"], [Result("W", "L", 2, 0, 0, "W")], seed=3)}
    assert close(rows["L"].mw, Fraction(33, 100)) and close(rows["L"].gw, Fraction(33, 100))
    assert close(rows["W"].omw, Fraction(33, 100))  # the opponent's floored figure


def test_a_dropped_player_still_counts_as_an_opponent() -> None:
    # X beat D in round 1, then D dropped; X's OMW% still holds D's record, D stays in the standings
    results = [Result("X", "D", 2, 0, 0, "X"), Result("Y", "Z", 2, 0, 0, "Y"), Result("X", "Y", 2, 0, 0, "X")]
    rows = {s.player: s for s in standings(["X", "Y", "Z", "D"], results, seed=5)}
    assert close(rows["X"].omw, (Fraction(33, 100) + Fraction(1, 2)) / 2)
    assert rows["D"].points == rows["Z"].points == 0
    assert (rows["D"].rank, rows["Z"].rank) == (3, 4)  # D's one opponent (X, 100%) beats Z's (Y, 50%)


def test_a_tie_on_every_tiebreaker_is_broken_by_the_seeded_lot() -> None:
    # A and C: 3 points, OMW 33%, GW 100%, OGW 33% each; B and D level too. The lot decides, whatever the order
    results = [Result("A", "B", 2, 0, 0, "A"), Result("C", "D", 2, 0, 0, "C")]
    orders = set()
    for seed in range(12):
        for players in (list("ABCD"), list("DCBA")):
            rows = standings(players, results, seed)
            a, c = rows[0], rows[1]
            assert {a.player, c.player} == {"A", "C"}
            assert (a.points, a.omw, a.gw, a.ogw) == (c.points, c.omw, c.gw, c.ogw)
            assert lot(seed, a.player) < lot(seed, c.player)
            orders.add((seed, a.player))
        assert len({p for s, p in orders if s == seed}) == 1  # the same at every computation
    assert {p for _, p in orders} == {"A", "C"}  # and not always the same player


@pytest.mark.parametrize("count", [3, 7])
def test_odd_fields_have_one_bye_a_round_and_it_counts_as_a_2_0_win(count: int) -> None:
    players = [f"p{i}" for i in range(count)]
    results = [Result(players[i], players[i + 1], 2, 1, 0, players[i]) for i in range(0, count - 1, 2)]
    results.append(Result(players[-1], "", 2, 0, 0, players[-1]))
    rows = {s.player: s for s in standings(players, results, seed=2)}
    bye = rows[players[-1]]
    assert (bye.points, bye.wins, bye.byes) == (3, 1, 1)
    assert close(bye.gw, 1) and close(bye.omw, Fraction(33, 100))  # no opponents: the floor


@st.composite
def swiss_results(draw: st.DrawFn) -> tuple[list[str], list[Result]]:
    n = draw(st.integers(2, 12))
    players = [f"p{i}" for i in range(n)]
    out: list[Result] = []
    for _ in range(draw(st.integers(0, 5))):
        order = draw(st.permutations(players))
        if n % 2:
            out.append(Result(order[-1], "", 2, 0, 0, order[-1]))
        for a, b in zip(order[0:-1:2], order[1::2], strict=False):
            wa, wb, d = draw(
                st.sampled_from([(2, 0, 0), (2, 1, 0), (0, 2, 0), (1, 2, 0), (1, 1, 1), (0, 0, 3), (1, 0, 2)])
            )
            out.append(Result(a, b, wa, wb, d, a if wa > wb else b if wb > wa else ""))
    return players, out


@given(swiss_results(), st.integers(0, 99))
def test_standings_equal_a_plain_fraction_computation(case: tuple[list[str], list[Result]], seed: int) -> None:
    players, results = case
    floor = Fraction(33, 100)
    mp = {p: 0 for p in players}
    n_matches = {p: 0 for p in players}
    gp = {p: 0 for p in players}
    n_games = {p: 0 for p in players}
    opp: dict[str, list[str]] = {p: [] for p in players}
    for r in results:
        if not r.b:
            mp[r.a] += 3
            n_matches[r.a] += 1
            gp[r.a] += 6
            n_games[r.a] += 2
            continue
        for me, them, won in ((r.a, r.b, r.wins_a), (r.b, r.a, r.wins_b)):
            mp[me] += 3 if r.winner == me else 1 if not r.winner else 0
            n_matches[me] += 1
            gp[me] += 3 * won + r.draws
            n_games[me] += r.wins_a + r.wins_b + r.draws
            opp[me].append(them)
    mw = {p: max(floor, Fraction(mp[p], 3 * n_matches[p])) if n_matches[p] else floor for p in players}
    gw = {p: max(floor, Fraction(gp[p], 3 * n_games[p])) if n_games[p] else floor for p in players}
    omw = {p: sum((mw[o] for o in opp[p]), Fraction(0)) / len(opp[p]) if opp[p] else floor for p in players}
    ogw = {p: sum((gw[o] for o in opp[p]), Fraction(0)) / len(opp[p]) if opp[p] else floor for p in players}
    want = sorted(players, key=lambda p: (-mp[p], -omw[p], -gw[p], -ogw[p], lot(seed, p)))
    rows = standings(players, results, seed)
    assert [s.player for s in rows] == want
    for s in rows:
        assert (s.points, s.omw, s.gw, s.ogw) == (mp[s.player], float(omw[s.player]), float(gw[s.player]),
                                                  float(ogw[s.player]))  # fmt: skip
