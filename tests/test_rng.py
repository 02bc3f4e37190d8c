"""The seeded generator is pinned by test vectors: logs must re-run identically on every machine and Python."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from annals.engine import rng as rng_module
from annals.engine.rng import Rng, py_below


def test_splitmix64_reference_vectors() -> None:
    """The published SplitMix64 outputs for seed 0 (Vigna's reference implementation)."""
    rng = Rng(0)
    assert [rng.next_u64() for _ in range(4)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
        0xF88BB8A8724C81EC,
    ]


def test_derived_methods_are_pinned() -> None:
    """below(), shuffle() and fork() are ours, so their outputs are pinned too."""
    assert [Rng(42).below(6) for _ in range(1)] == [1]
    rng = Rng(42)
    assert [rng.below(6) for _ in range(10)] == [1, 1, 0, 0, 4, 0, 1, 2, 1, 2]
    items = list(range(10))
    Rng(42).shuffle(items)
    assert items == [0, 9, 5, 8, 6, 4, 7, 2, 1, 3]
    parent = Rng(7)
    assert (parent.fork(0).next_u64(), parent.fork(1).next_u64()) == (18363971414914884509, 1344154044715485647)
    assert parent.state == 7, "fork must not consume the parent's stream"


@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=1, max_value=10**6))
def test_below_stays_in_range(seed: int, n: int) -> None:
    rng = Rng(seed)
    assert all(0 <= rng.below(n) < n for _ in range(20))


@given(st.integers(min_value=0, max_value=2**64 - 1), st.lists(st.integers(min_value=1, max_value=2**64), max_size=30))
def test_below_is_next_u64_rejection_sampled(seed: int, ns: list[int]) -> None:
    """below() writes out next_u64's step for speed: it must draw exactly what next_u64 would (rejecting the top
    ``2**64 % n`` values), and leave the generator in the same state."""
    fast, reference = Rng(seed), Rng(seed)
    for n in ns:
        limit = 2**64 - 2**64 % n
        x = reference.next_u64()
        while x >= limit:
            x = reference.next_u64()
        assert fast.below(n) == x % n
        assert fast.state == reference.state


@given(st.integers(min_value=0, max_value=2**64 - 1), st.lists(st.integers(), max_size=40))
def test_shuffle_is_a_permutation(seed: int, items: list[int]) -> None:
    shuffled = list(items)
    Rng(seed).shuffle(shuffled)
    assert Counter(shuffled) == Counter(items)


def test_below_is_roughly_uniform() -> None:
    rng = Rng(99)
    counts = Counter(rng.below(6) for _ in range(60_000))
    assert all(9_400 < counts[k] < 10_600 for k in range(6)), counts


def test_below_rejects_empty_range() -> None:
    import pytest

    with pytest.raises(ValueError, match="n >= 1"):
        Rng(1).below(0)


@pytest.mark.skipif(not rng_module.BUILT, reason="the C fast path is not built here (no compiler at install time)")
@given(
    st.integers(min_value=0, max_value=2**64 - 1),
    st.one_of(st.integers(min_value=1, max_value=64), st.integers(min_value=1, max_value=2**64 - 1)),
)
def test_the_c_fast_path_draws_what_python_draws(state: int, n: int) -> None:
    """``engine/_splitmix.c`` and ``py_below`` give the same draw and the same next state (so a log re-runs the
    same whether or not the extension was built)."""
    from annals.engine import _splitmix

    assert _splitmix.below(state, n) == py_below(state, n)


@pytest.mark.parametrize("n", [0, -1, -(2**70)])
def test_below_refuses_an_empty_range(n: int) -> None:
    with pytest.raises(ValueError, match="needs n >= 1"):
        Rng(3).below(n)
    with pytest.raises(ValueError, match="needs n >= 1"):
        py_below(3, n)


def test_below_refuses_a_range_wider_than_its_64_bits() -> None:
    """A draw of 64 bits cannot be uniform over more than 2**64 numbers: refused, where it used to loop."""
    assert 0 <= Rng(3).below(2**64) < 2**64
    with pytest.raises(ValueError, match="at most 2\\*\\*64"):
        Rng(3).below(2**64 + 1)
