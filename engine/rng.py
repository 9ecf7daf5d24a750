"""The game's random draws, kept as an integer inside the game state.

The engine never touches the global ``random`` module nor the operating system: the seed comes in
with ``new_game`` (the bot takes 256 bits from ``secrets``), and every draw advances ``state.rng``,
so the same seed and the same actions always give the same game.

A game dealt by this code draws from a keyed stream (``KEYED``): block ``i`` of the stream is
BLAKE2b of ``i`` under a 256-bit key hashed from the seed, and ``state.rng`` counts the 64-bit
words drawn. The whole seed is the key, so it is not cut to 64 bits, and the draws are outputs of
a pseudo-random function: seeing any number of them (the deal one got, the cards drawn) tells
nothing about the key, so nothing about the draws to come.

Games stored before carry a 64-bit SplitMix64 state in ``state.rng`` (``SPLITMIX``) and play on
with it. SplitMix64 is also the fast generator of what is not hidden information of a real game:
the worlds an AI passenger imagines, its rollouts and the test harnesses.

AI passengers take their own streams (``stream``), derived one-way from the seed in another
domain: their choices neither advance the deal's stream nor show anything about it.
"""

from __future__ import annotations

import hashlib
import struct
from functools import lru_cache
from typing import TypeVar

_MASK = (1 << 64) - 1
T = TypeVar("T")

SPLITMIX = "splitmix64"  # games stored before the keyed stream; imagined worlds, harnesses
KEYED = "blake2b-ctr"  # games dealt now
KINDS = (SPLITMIX, KEYED)

# BLAKE2b personalisations (at most 16 bytes) keep the uses of one seed apart.
DEAL = b"coachride:deal"
PASSENGERS = b"coachride:ai"  # an AI passenger's decisions, per step and seat
SEATING = b"coachride:seats"  # the AI passengers' names and seats, in the lobby

_WORDS = struct.Struct("<8Q")  # one 64-byte BLAKE2b block: eight 64-bit words


def seed_state(seed: int) -> int:
    return (seed * 0x9E3779B97F4A7C15 + 0x6A09E667F3BCC909) & _MASK


def next_u64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


class Rng:
    """SplitMix64: draws from and writes back to an integer state; a short-lived helper."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state

    def next_u64(self) -> int:
        self.state, value = next_u64(self.state)
        return value

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("n must be positive")
        self.state, value = next_u64(self.state)  # inlined: the AI's rollouts draw a lot
        return value % n

    def choice(self, seq: list[T] | tuple[T, ...]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, items: list[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


class KeyedRng(Rng):
    """BLAKE2b in counter mode under a secret key; ``state`` is the number of words drawn.

    Its ``below`` rejects the few top values that would favour small results, so every card of a
    shuffle is exactly as likely."""

    __slots__ = ("_block", "_block_no", "_key")

    def __init__(self, key: bytes, drawn: int = 0) -> None:
        if len(key) < 16:
            raise ValueError("the stream's key must have at least 128 bits")
        super().__init__(drawn)
        self._key = key
        self._block_no = -1
        self._block: tuple[int, ...] = ()

    def next_u64(self) -> int:
        block_no, word = divmod(self.state, 8)
        if block_no != self._block_no:
            digest = hashlib.blake2b(
                block_no.to_bytes(16, "little"), key=self._key, digest_size=64
            ).digest()
            self._block = _WORDS.unpack(digest)
            self._block_no = block_no
        self.state += 1
        return self._block[word]

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - (1 << 64) % n
        value = self.next_u64()
        while value >= limit:  # probability below n / 2**64
            value = self.next_u64()
        return value % n


@lru_cache(maxsize=64)
def _derive(seed: int, domain: bytes) -> bytes:
    """A 256-bit key for one use of the seed: one-way, and unrelated across domains."""
    return hashlib.blake2b(b"%d" % seed, digest_size=32, person=domain).digest()


def deal_key(seed: int) -> bytes:
    return _derive(seed, DEAL)


def for_game(kind: str, seed: int, rng: int) -> Rng:
    """The generator of a game's hidden draws: the keyed stream of ``seed`` at ``rng`` words
    drawn, or for ``SPLITMIX`` (games stored before) the SplitMix64 state ``rng``."""
    if kind == KEYED:
        return KeyedRng(deal_key(seed), rng)
    if kind == SPLITMIX:
        return Rng(rng)
    raise ValueError(f"unknown generator {kind!r}")


def stream(seed: int, domain: bytes, *path: int) -> KeyedRng:
    """A keyed stream of its own for one other use of the game's seed (``domain``, and a ``path``
    such as the step and seat of an AI passenger's decision): its key is a keyed hash of the
    seed, so its draws neither advance the deal's stream nor tell anything about it."""
    if domain == DEAL:
        raise ValueError("the deal's stream is for_game's")
    data = b"".join(b"%d;" % p for p in path)
    key = hashlib.blake2b(data, key=_derive(seed, domain), digest_size=32).digest()
    return KeyedRng(key)
