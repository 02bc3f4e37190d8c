"""The one source of randomness: SplitMix64, seeded, injected, and stable everywhere.

Python's ``random`` module has changed its derived methods (``randrange``, ``shuffle``) between versions; a log
must re-run identically on any Python, so annals owns its generator. SplitMix64 is tiny, has a single 64-bit state
(easy to store in a position file) and passes BigCrush; test vectors in ``tests/test_rng.py`` pin it.

>>> rng = Rng(42)
>>> [rng.below(6) for _ in range(5)]
[1, 1, 0, 0, 4]
>>> cards = [1000, 1001, 1002, 1003]
>>> Rng(7).shuffle(cards)
>>> sorted(cards) == [1000, 1001, 1002, 1003]
True
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence, Sequence
from typing import Final, TypeVar

try:
    from annals.engine import _splitmix
except ImportError:  # built without a C compiler: the pure-Python steps, the same numbers
    _splitmix = None  # type: ignore[assignment]

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_CACHED = 4096  # ``below``'s rejection limits for n below this are kept (a game asks of a few small n, often)
_LIMITS: dict[int, int] = {}
T = TypeVar("T")


def py_below(state: int, n: int) -> tuple[int, int]:
    """``Rng.below`` in Python: the generator's state after the draw, and the draw. The step of ``Rng.next_u64``
    is written out, and the rejection limit of each small ``n`` kept."""
    limit = _LIMITS.get(n)
    if limit is None:
        if n <= 0:
            raise ValueError(f"below() needs n >= 1, got {n}")
        if n > 1 << 64:  # no draw of 64 bits is below a limit of 0: it would loop for ever
            raise ValueError(f"below() draws from 64 bits: n must be at most 2**64, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        if n < _CACHED:
            _LIMITS[n] = limit
    s = state
    while True:
        s = (s + _GOLDEN) & _MASK  # next_u64
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        x = z ^ (z >> 31)
        if x < limit:
            return s, x % n


_below: Final[Callable[[int, int], tuple[int, int]]] = _splitmix.below if _splitmix is not None else py_below
BUILT = _splitmix is not None  # is the C fast path (``engine/_splitmix.c``) built?


class Rng:
    __slots__ = ("state",)

    def __init__(self, seed: int):
        self.state = seed & _MASK

    def next_u64(self) -> int:
        self.state = s = (self.state + _GOLDEN) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias (rejection sampling): by the C fast path when it is
        built (a random bot calls this once per decision), else by ``py_below``; the two give the same numbers.
        The C path takes ``n`` up to 2**64 - 1; ``py_below`` the rest."""
        try:
            self.state, x = _below(self.state, n)
        except OverflowError:
            self.state, x = py_below(self.state, n)
        return x

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place, from the end."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def fork(self, stream: int) -> Rng:
        """An independent generator for another consumer (a bot, say), derived without consuming this one."""
        child = Rng(self.state ^ ((stream + 1) * _GOLDEN))
        child.next_u64()
        return child
