"""Swiss pairing: hand-made cases and properties held against brute force; the bracket of a top cut."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from annals.engine.rng import Rng
from annals.engine.tournament.matching import fewest_floats, in_order
from annals.engine.tournament.pairing import (
    PairingError,
    bracket_order,
    pair_next_bracket,
    pair_swiss,
    pair_top_cut,
    swiss_order,
)
from annals.schemas.event import Pairing


def met(*pairs: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for pair in pairs:
        a, b = pair.split("-")
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return out


def rematches(pairings: list[Pairing], played: dict[str, set[str]]) -> int:
    return sum(1 for p in pairings if p.b and p.b in played.get(p.a, set()))


def perfect_matchings(players: list[str]) -> Iterator[list[tuple[str, str]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for tail in perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


Cost = tuple[int, int, int]


def cost(pairs: Iterable[tuple[str, str]], points: dict[str, int], played: dict[str, set[str]]) -> Cost:
    """(rematches, floats, match points apart) of a pairing: what the Swiss minimises, in that order."""
    pairs = list(pairs)
    return (
        sum(1 for a, b in pairs if b in played.get(a, set())),
        sum(1 for a, b in pairs if points.get(a, 0) != points.get(b, 0)),
        sum(abs(points.get(a, 0) - points.get(b, 0)) for a, b in pairs),
    )


def best(players: list[str], points: dict[str, int], played: dict[str, set[str]]) -> Cost:
    """The brute-force minimum over every pairing of ``players``."""
    return min(cost(m, points, played) for m in perfect_matchings(players))


def fewest(players: list[str], played: dict[str, set[str]]) -> int:
    return best(players, {}, played)[0]


def seated(pairings: list[Pairing]) -> list[tuple[str, str]]:
    return [(p.a, p.b) for p in pairings if p.b]


def test_round_one_pairs_everyone_at_numbered_tables_reproducibly() -> None:
    players = [f"p{i}" for i in range(8)]
    first = pair_swiss(players, {}, {}, set(), Rng(7))
    assert [p.table for p in first] == [1, 2, 3, 4]
    assert sorted(x for p in first for x in (p.a, p.b)) == sorted(players)
    assert pair_swiss(players, {}, {}, set(), Rng(7)) == first
    assert any(pair_swiss(players, {}, {}, set(), Rng(s)) != first for s in range(8, 20))


def test_top_point_group_pairs_first_and_odd_group_pairs_down() -> None:
    # three players on 3 points, three on 0: one of the top three is paired down, the top table is 3 v 3
    points = {"a": 3, "b": 3, "c": 3, "d": 0, "e": 0, "f": 0}
    pairings = pair_swiss(list(points), points, {}, set(), Rng(1))
    assert points[pairings[0].a] == points[pairings[0].b] == 3
    assert sorted([points[pairings[1].a], points[pairings[1].b]]) == [0, 3]  # the pair-down
    assert points[pairings[2].a] == points[pairings[2].b] == 0


def test_no_rematch_when_a_later_choice_avoids_it() -> None:
    # a and b led and met; c and d met: the only rematch-free pairings cross the groups
    points = {"a": 3, "b": 3, "c": 0, "d": 0}
    played = met("a-b", "c-d")
    for seed in range(20):
        pairings = pair_swiss(["a", "b", "c", "d"], points, played, set(), Rng(seed))
        assert rematches(pairings, played) == 0


def test_backtracking_reaches_back_past_several_pairs() -> None:
    # the bottom three have all met: the search has to undo pairs made higher up
    players = [f"p{i}" for i in range(8)]
    points = {p: 9 - i for i, p in enumerate(players)}
    played = met("p5-p6", "p5-p7", "p6-p7", "p4-p5", "p4-p6", "p4-p7")
    pairings = pair_swiss(players, points, played, set(), Rng(3))
    assert rematches(pairings, played) == 0


def test_bye_to_the_lowest_ranked_without_one() -> None:
    ranked = ["a", "b", "c", "d", "e"]
    pairings = pair_swiss(ranked, {}, {}, {"e"}, Rng(2))
    assert pairings[-1] == Pairing(3, "d", "")
    everyone = set(ranked)
    assert pair_swiss(ranked, {}, {}, everyone, Rng(2))[-1].a == "e"  # all had one: the lowest again


def test_bye_skips_a_player_whose_bye_would_force_a_rematch() -> None:
    ranked = ["a", "b", "c"]
    played = met("a-b")  # a bye to c leaves a v b, a rematch: b gets the bye instead
    pairings = pair_swiss(ranked, {}, played, set(), Rng(1))
    assert pairings[-1].b == "" and pairings[-1].a == "b"
    assert rematches(pairings, played) == 0


def test_unavoidable_rematches_are_as_few_as_possible() -> None:
    players = ["a", "b", "c", "d"]
    played = met("a-b", "a-c", "a-d", "b-c")  # a has met everyone: one rematch at least, and b-d is still fresh
    for seed in range(10):
        pairings = pair_swiss(players, {}, played, set(), Rng(seed))
        assert rematches(pairings, played) == fewest(players, played) == 1
    (two,) = pair_swiss(["a", "b"], {}, met("a-b"), set(), Rng(1))  # the only pairing there is: a rematch
    assert {two.a, two.b} == {"a", "b"}
    with pytest.raises(PairingError, match="at least 2"):
        pair_swiss(["a"], {}, {}, set(), Rng(1))


Case = tuple[list[str], dict[str, int], dict[str, set[str]], set[str], int]


@st.composite
def rounds_so_far(draw: st.DrawFn, most: int = 12) -> Case:
    n = draw(st.integers(2, most))
    players = [f"p{i}" for i in range(n)]
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n))
    played: dict[str, set[str]] = {}
    for i, j in edges:
        if i != j:
            played.setdefault(players[i], set()).add(players[j])
            played.setdefault(players[j], set()).add(players[i])
    points = {p: draw(st.integers(0, 4)) * 3 for p in players}
    had_bye = {p for p in players if draw(st.booleans())}
    return players, points, played, had_bye, draw(st.integers(0, 2**32))


@given(rounds_so_far())
def test_pairing_against_brute_force(case: Case) -> None:
    """Up to 12 players: the bye by its rule, then the fewest rematches, then the fewest floats (pairs across
    point groups), then the fewest match points apart, each the minimum over every pairing there is."""
    ranked, points, played, had_bye, seed = case
    pairings = pair_swiss(ranked, points, played, had_bye, Rng(seed))
    assert sorted(x for p in pairings for x in (p.a, p.b) if x) == sorted(ranked)  # everyone exactly once
    assert [p.table for p in pairings] == list(range(1, len(pairings) + 1))
    byes = [p.a for p in pairings if not p.b]
    assert len(byes) == len(ranked) % 2
    if byes:
        eligible = [p for p in ranked if p not in had_bye] or ranked
        # the lowest-ranked eligible player for whom the rest pair without a rematch, if any does
        feasible = [c for c in eligible if fewest([p for p in ranked if p != c], played) == 0]
        assert byes[0] == (feasible or eligible)[-1]
    rest = [p for p in ranked if p not in byes]
    assert cost(seated(pairings), points, played) == best(rest, points, played)
    assert pair_swiss(ranked, points, played, had_bye, Rng(seed)) == pairings  # reproducible


@st.composite
def pooled_fields(draw: st.DrawFn, most_met: int = 3) -> tuple[list[str], dict[str, int], dict[str, set[str]]]:
    """Up to 40 players in a few point groups, each player having met a few others: large groups are pools."""
    sizes = draw(st.lists(st.integers(1, 14), min_size=1, max_size=5))
    sizes[-1] += sum(sizes) % 2
    order = [f"p{i}" for i in range(sum(sizes))]
    points = {
        p: 3 * g for g, size in enumerate(reversed(sizes)) for p in order[sum(sizes[: len(sizes) - 1 - g]) :][:size]
    }
    played: dict[str, set[str]] = {}
    for p in order:
        for q in draw(st.lists(st.sampled_from(order), max_size=most_met)):
            if q != p:
                played.setdefault(p, set()).add(q)
                played.setdefault(q, set()).add(p)
    return order, points, played


@given(pooled_fields())
def test_pools_leave_the_optimum_unchanged(field: tuple[list[str], dict[str, int], dict[str, set[str]]]) -> None:
    """The reduced graph (large groups as a few slots) finds pairings exactly as good as the whole graph."""
    order, points, played = field
    reduced, whole = fewest_floats(order, points, played), fewest_floats(order, points, played, pools=False)
    assert (reduced is None) == (whole is None)
    if reduced is not None and whole is not None:
        assert sorted(x for pair in reduced for x in pair) == list(range(len(order)))
        named = [(order[i], order[j]) for i, j in reduced]
        assert cost(named, points, played) == cost([(order[i], order[j]) for i, j in whole], points, played)
        assert cost(named, points, played)[0] == 0


def test_a_pool_floats_one_player_and_pairs_the_rest_in_order() -> None:
    # 11 on 6 points, 3 on 3 (all met), 2 on 0: the 6-point group is a pool, and one of them must float
    order = [f"a{i}" for i in range(11)] + ["b0", "b1", "b2", "c0", "c1"]
    points = {p: 6 if p[0] == "a" else 3 if p[0] == "b" else 0 for p in order}
    played = met("b0-b1", "b0-b2", "b1-b2", *(f"a{i}-b{j}" for i in (9, 10) for j in range(3)))
    pairs = fewest_floats(order, points, played)
    assert pairs is not None
    named = [(order[i], order[j]) for i, j in pairs]
    whole = fewest_floats(order, points, played, pools=False)  # the unreduced graph, exact (held to brute force)
    assert whole is not None
    assert cost(named, points, played) == cost([(order[i], order[j]) for i, j in whole], points, played) == (0, 3, 9)
    floater = next(a for a, b in named if points[a] == 6 and points[b] == 3)
    assert floater == "a8"  # the last of the pool in Swiss order that the 3-point side has not met
    inside = [(a, b) for a, b in named if a[0] == b[0] == "a"]
    rest = [p for p in order[:11] if p != floater]
    assert inside == [(rest[i], rest[i + 1]) for i in range(0, 10, 2)]  # neighbours in Swiss order


def test_a_float_skips_a_group_when_that_floats_fewer() -> None:
    # 1, 2 and 1 players on 6, 3 and 0 points, no history: 6 v 0 and 3 v 3 is one float; 6 v 3, 3 v 0 would be two
    points = {"a": 6, "b1": 3, "b2": 3, "c": 0}
    for seed in range(10):
        pairings = pair_swiss(list(points), points, {}, set(), Rng(seed))
        assert sorted(tuple(sorted(pair)) for pair in seated(pairings)) == [("a", "c"), ("b1", "b2")]
        assert cost(seated(pairings), points, {}) == best(list(points), points, {}) == (0, 1, 6)


def test_ten_players_who_need_no_float_get_none() -> None:
    """10-player events of 4 rounds, 120 seeds: whenever a pairing without a float exists, the Swiss makes none
    (the first-legal search it replaced floated in some of these)."""
    players = [f"p{i}" for i in range(10)]
    needless = 0
    checked = 0
    for seed in range(120):
        rng = Rng(seed)
        points = dict.fromkeys(players, 0)
        played: dict[str, set[str]] = {}
        for number in range(1, 5):
            pairings = pair_swiss(players, points, played, set(), Rng(seed * 10 + number))
            if best(players, points, played)[:2] == (0, 0):
                checked += 1
                assert cost(seated(pairings), points, played)[:2] == (0, 0)
                order = swiss_order(players, points, Rng(seed * 10 + number))
                first_legal = in_order(
                    list(range(10)), [{order.index(o) for o in played.get(p, ())} for p in order], 10**6
                )
                assert first_legal is not None
                needless += cost([(order[i], order[j]) for i, j in first_legal], points, played)[1] > 0
            for a, b in seated(pairings):
                played.setdefault(a, set()).add(b)
                played.setdefault(b, set()).add(a)
                outcome = rng.below(10)
                if outcome < 9:
                    points[a if outcome < 5 else b] += 3
                else:
                    points[a] += 1
                    points[b] += 1
    assert checked > 120 and needless > 0


@given(st.lists(st.integers(0, 4), min_size=2, max_size=40), st.integers(0, 2**32))
def test_without_history_each_odd_group_floats_to_the_next_odd_group(scores: list[int], seed: int) -> None:
    players = [f"p{i}" for i in range(len(scores))]
    points = {p: 3 * s for p, s in zip(players, scores, strict=True)}
    pairings = pair_swiss(players, points, {}, set(), Rng(seed))
    bye = [p.a for p in pairings if not p.b]
    sizes = Counter(points[p] for p in players if p not in bye)
    odd = sorted((pts for pts, size in sizes.items() if size % 2), reverse=True)
    floats = sorted(((points[a], points[b]) for a, b in seated(pairings) if points[a] != points[b]), reverse=True)
    assert floats == [(odd[i], odd[i + 1]) for i in range(0, len(odd), 2)]  # the fewest floats, the shortest


def test_top_cut_bracket_seeds_1_and_2_meet_only_in_the_final() -> None:
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    seeded = [f"s{i}" for i in range(1, 9)]
    first = pair_top_cut(seeded)
    assert [(p.a, p.b) for p in first] == [("s1", "s8"), ("s4", "s5"), ("s2", "s7"), ("s3", "s6")]
    assert pair_next_bracket(["s1", "s4", "s2", "s3"]) == [Pairing(1, "s1", "s4"), Pairing(2, "s2", "s3")]
    with pytest.raises(PairingError, match="power of two"):
        pair_top_cut(seeded[:6])


@pytest.mark.soak
@settings(max_examples=3000)
@given(rounds_so_far())
def test_pairing_properties_soak(case: Case) -> None:
    test_pairing_against_brute_force.hypothesis.inner_test(case)  # type: ignore[attr-defined]


@pytest.mark.soak
@settings(max_examples=1500)
@given(st.one_of(pooled_fields(), pooled_fields(most_met=6)))
def test_pools_soak(field: tuple[list[str], dict[str, int], dict[str, set[str]]]) -> None:
    test_pools_leave_the_optimum_unchanged.hypothesis.inner_test(field)  # type: ignore[attr-defined]
