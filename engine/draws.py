"""Random draws the engine makes often, faster than :mod:`random`'s and the very same.

A game's pile is shuffled at every set-up (bots and reports set up thousands of games).
:func:`shuffle` gives exactly ``rng.shuffle(x)``'s permutation and leaves ``rng`` in the same
state, with ``random.Random._randbelow`` inlined (``getrandbits(n.bit_length())`` until the
draw is below ``n``); any other generator is simply asked to shuffle.
"""

from __future__ import annotations

import random
from typing import Any

_INLINE = getattr(random.Random, "_randbelow", None) is getattr(
    random.Random, "_randbelow_with_getrandbits", object()
)
"""Whether random.Random draws below n as inlined here (CPython does)."""


def inlinable(rng: random.Random) -> bool:
    """Whether ``rng``'s draws below ``n`` may be inlined as ``getrandbits(n.bit_length())``
    until below ``n`` (a plain ``random.Random`` on CPython): the same draws, no call each."""
    return _INLINE and type(rng) is random.Random


def shuffle(rng: random.Random, x: list[Any]) -> None:
    """``rng.shuffle(x)``: the same permutation, and ``rng`` left in the same state."""
    if not inlinable(rng):
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    # draws below n = i + 1 take n.bit_length() bits: k follows it down from the top (one
    # comparison a step instead of a method call; the pile is re-dealt at every bot decision)
    n = len(x)
    k = n.bit_length()
    below = (1 << k >> 1) - 1  # k drops by one once i + 1 < 2 ** (k - 1), that is i < below
    for i in range(n - 1, 0, -1):
        if i < below:
            k -= 1
            below >>= 1
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
