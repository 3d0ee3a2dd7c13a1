"""``engine.draws.shuffle`` against ``random.Random.shuffle``: the same permutation and the
generator left in the same state, for every list size a pile can have and many seeds."""

from __future__ import annotations

import random

from engine.draws import shuffle


def test_shuffle_is_random_shuffle_with_the_same_state_after() -> None:
    for seed in range(60):
        for size in (0, 1, 2, 3, 4, 5, 7, 8, 9, 63, 64, 65, 71, 72, 113, 114, 200):
            mine, ref = random.Random(seed), random.Random(seed)
            a, b = list(range(size)), list(range(size))
            shuffle(mine, a)
            ref.shuffle(b)
            assert a == b, (seed, size)
            assert mine.getstate() == ref.getstate()


def test_other_generators_shuffle_themselves() -> None:
    class Counting(random.Random):
        calls = 0

        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            Counting.calls += 1
            super().shuffle(x)

    rng, ref = Counting(3), random.Random(3)
    a, b = list(range(50)), list(range(50))
    shuffle(rng, a)
    ref.shuffle(b)
    assert Counting.calls == 1
    assert a == b
