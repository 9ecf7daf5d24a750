"""A small seeded generator (SplitMix64) kept as an integer inside the game state.

The engine never touches the global ``random`` module: every draw advances ``state.rng``, so the
same seed and the same actions always give the same game.
"""

from __future__ import annotations

from typing import TypeVar

_MASK = (1 << 64) - 1
T = TypeVar("T")


def seed_state(seed: int) -> int:
    return (seed * 0x9E3779B97F4A7C15 + 0x6A09E667F3BCC909) & _MASK


def next_u64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


class Rng:
    """Draws from and writes back to an integer state; use as a short-lived helper."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("n must be positive")
        self.state, value = next_u64(self.state)
        return value % n

    def choice(self, seq: list[T] | tuple[T, ...]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, items: list[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
