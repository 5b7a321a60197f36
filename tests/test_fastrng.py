"""The numba re-implementation of SeedSequence/PCG64 draws exactly what NumPy draws."""

import numpy as np
import pytest

from sims.core.fastrng import game_streams_into, integers, next_double, next_uint64, shuffle

SEEDS = [0, 1, 7, 123456, 2**32 - 1]
INDICES = [0, 1, 2, 999, 10**6, 2**32 - 1]


@pytest.mark.parametrize("seed", SEEDS)
def test_streams_match_numpy(seed):
    out = np.zeros((5, 5), dtype=np.uint64)
    for gi in INDICES:
        game_streams_into(seed, gi, 5, out)
        kids = np.random.SeedSequence([gi, seed]).spawn(5)
        for c in range(5):
            gen = np.random.Generator(np.random.PCG64(kids[c]))
            s = out[c].copy()
            assert [int(next_uint64(s)) for _ in range(3)] == [
                int(x) for x in gen.bit_generator.random_raw(3)
            ]
            s = out[c].copy()
            gen = np.random.Generator(np.random.PCG64(kids[c]))
            # Mixed draws, as a game makes them: bounded integers, shuffles, doubles.
            for n in [2, 3, 11, 1485, 3234, 7, 1, 2**31 + 5, 2**32]:
                assert integers(s, n) == int(gen.integers(0, n)), n
            a, b = np.arange(69), np.arange(69)
            shuffle(s, a)
            gen.shuffle(b)
            assert (a == b).all()
            assert next_double(s) == gen.random()
            assert integers(s, 5) == int(gen.integers(0, 5))


def test_many_games_agree_on_the_deal_stream():
    out = np.zeros((1, 5), dtype=np.uint64)
    for gi in range(300):
        game_streams_into(42, gi, 1, out)
        gen = np.random.Generator(np.random.PCG64(np.random.SeedSequence([gi, 42]).spawn(1)[0]))
        a, b = np.arange(47), np.arange(47)
        shuffle(out[0], a)
        gen.shuffle(b)
        assert (a == b).all()
