"""Swiss pairing: hand-made cases and properties held against brute force; the bracket of a top cut."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from annals.engine.rng import Rng
from annals.engine.tournament.pairing import (
    PairingError,
    bracket_order,
    pair_next_bracket,
    pair_swiss,
    pair_top_cut,
    recommended_rounds,
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


def fewest(players: list[str], played: dict[str, set[str]]) -> int:
    return min(sum(1 for a, b in m if b in played.get(a, set())) for m in perfect_matchings(players))


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
def rounds_so_far(draw: st.DrawFn) -> Case:
    n = draw(st.integers(2, 9))
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
def test_pairing_properties_against_brute_force(case: Case) -> None:
    ranked, points, played, had_bye, seed = case
    pairings = pair_swiss(ranked, points, played, had_bye, Rng(seed))
    seated = [x for p in pairings for x in (p.a, p.b) if x]
    assert sorted(seated) == sorted(ranked)  # everyone exactly once
    assert [p.table for p in pairings] == list(range(1, len(pairings) + 1))
    byes = [p.a for p in pairings if not p.b]
    assert len(byes) == len(ranked) % 2
    if byes:
        eligible = [p for p in ranked if p not in had_bye] or ranked
        assert byes[0] in eligible
        # the lowest-ranked eligible player for whom the rest pair without a rematch, if any does
        feasible = [c for c in eligible if fewest([p for p in ranked if p != c], played) == 0]
        if feasible:
            assert byes[0] == feasible[-1]
            assert rematches(pairings, played) == 0
        else:
            assert byes[0] == eligible[-1]
            assert rematches(pairings, played) == fewest([p for p in ranked if p != byes[0]], played)
    else:
        assert rematches(pairings, played) == fewest(ranked, played)  # 0 whenever a rematch can be avoided
    assert pair_swiss(ranked, points, played, had_bye, Rng(seed)) == pairings  # reproducible


@given(st.lists(st.integers(0, 4), min_size=2, max_size=40), st.integers(0, 2**32))
def test_without_history_partners_are_neighbours_in_swiss_order(scores: list[int], seed: int) -> None:
    players = [f"p{i}" for i in range(len(scores))]
    points = {p: 3 * s for p, s in zip(players, scores, strict=True)}
    pairings = pair_swiss(players, points, {}, set(), Rng(seed))
    order = [p for p in swiss_order(players, points, Rng(seed))]
    bye = [p.a for p in pairings if not p.b]
    order = [p for p in order if p not in bye]
    assert [(p.a, p.b) for p in pairings if p.b] == [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    # point groups in order: a pair never spans a group with a player between them (pair-downs are adjacent)
    assert all(points[p.a] >= points[p.b] for p in pairings if p.b)


def test_top_cut_bracket_seeds_1_and_2_meet_only_in_the_final() -> None:
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    seeded = [f"s{i}" for i in range(1, 9)]
    first = pair_top_cut(seeded)
    assert [(p.a, p.b) for p in first] == [("s1", "s8"), ("s4", "s5"), ("s2", "s7"), ("s3", "s6")]
    assert pair_next_bracket(["s1", "s4", "s2", "s3"]) == [Pairing(1, "s1", "s4"), Pairing(2, "s2", "s3")]
    with pytest.raises(PairingError, match="power of two"):
        pair_top_cut(seeded[:6])


@pytest.mark.parametrize(
    ("players", "rounds"), [(2, 3), (8, 3), (9, 4), (16, 4), (17, 5), (64, 6), (65, 7), (2000, 11)]
)
def test_recommended_rounds(players: int, rounds: int) -> None:
    assert recommended_rounds(players) == rounds


@pytest.mark.soak
@settings(max_examples=3000)
@given(rounds_so_far())
def test_pairing_properties_soak(case: Case) -> None:
    test_pairing_properties_against_brute_force.hypothesis.inner_test(case)  # type: ignore[attr-defined]
