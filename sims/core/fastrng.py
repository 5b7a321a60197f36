"""NumPy's seeding and PCG64 streams, re-implemented for numba kernels.

A compiled kernel that plays a whole chunk of games in one call cannot afford to build
Python ``SeedSequence`` and ``Generator`` objects per game (≈100 µs each game). This
module reproduces, in ``@njit`` code and bit for bit:

- ``numpy.random.SeedSequence([game_index, study_seed]).spawn(k)`` (the hash mixing of
  ``bit_generator.pyx``), for non-negative integers below 2**32;
- ``PCG64(seed_sequence)`` seeding and its ``next_uint64`` / buffered ``next_uint32``;
- ``Generator.integers(0, n)`` (Lemire's bounded method on 32-bit draws) and
  ``Generator.shuffle`` of a 1-D array (``random_interval`` on 32-bit draws).

So a kernel game draws exactly what the reference engine draws with NumPy; the tests
compare both on thousands of seeds. A stream is a ``uint64[5]`` array:
``[state_hi, state_lo, inc_hi, inc_lo, buffer]`` where ``buffer`` holds a pending
upper 32-bit half plus ``1 << 32`` as the "has one" flag (0 when empty).
"""

from __future__ import annotations

import numpy as np
from numba import int64, njit, uint32, uint64

MASK32 = 0xFFFFFFFF
_INIT_A = 0x43B0D7E5
_MULT_A = 0x931E8875
_INIT_B = 0x8B51F9DD
_MULT_B = 0x58F38DED
_MIX_MULT_L = 0xCA01F9DD
_MIX_MULT_R = 0x4973F715
_POOL = 4
# PCG64's 128-bit multiplier, as high and low 64-bit words.
_PCG_MULT_HI = 2549297995355413924
_PCG_MULT_LO = 4865540595714422341


@njit(cache=True)
def _hashmix(value, hash_const):
    """One hashmix step: the mixed value and the next hash constant."""
    value = uint32(value ^ hash_const)
    hash_const = uint32(hash_const * uint32(_MULT_A))
    value = uint32(value * hash_const)
    value = uint32(value ^ (value >> uint32(16)))
    return value, hash_const


@njit(cache=True)
def _mix(x, y):
    result = uint32(uint32(uint32(_MIX_MULT_L) * x) - uint32(uint32(_MIX_MULT_R) * y))
    result = uint32(result ^ (result >> uint32(16)))
    return result


@njit(cache=True)
def _mix_pool(entropy, mixer):
    """Fill ``mixer`` (uint32[4]) with the pool of ``SeedSequence`` for uint32 ``entropy``."""
    hc = uint32(_INIT_A)
    n = entropy.shape[0]
    for i in range(_POOL):
        mixer[i], hc = _hashmix(entropy[i] if i < n else uint32(0), hc)
    for i_src in range(_POOL):
        for i_dst in range(_POOL):
            if i_src != i_dst:
                h, hc = _hashmix(mixer[i_src], hc)
                mixer[i_dst] = _mix(mixer[i_dst], h)
    for i_src in range(_POOL, n):
        for i_dst in range(_POOL):
            h, hc = _hashmix(entropy[i_src], hc)
            mixer[i_dst] = _mix(mixer[i_dst], h)


@njit(cache=True)
def seed_pool(entropy):
    """The 4-word pool of ``SeedSequence`` for an assembled uint32 entropy array."""
    mixer = np.zeros(_POOL, dtype=np.uint32)
    _mix_pool(entropy, mixer)
    return mixer


@njit(cache=True)
def _state_word32(pool, i, hash_const):
    """uint32 word i of ``SeedSequence.generate_state`` and the next hash constant."""
    v = uint32(pool[i % _POOL] ^ hash_const)
    hash_const = uint32(hash_const * uint32(_MULT_B))
    v = uint32(v * hash_const)
    v = uint32(v ^ (v >> uint32(16)))
    return v, hash_const


@njit(cache=True)
def _state_word64(pool, j, hash_const):
    """uint64 word j of ``generate_state(k, np.uint64)`` and the next hash constant.

    Words are generated in order: word j continues from word j - 1's hash constant.
    """
    lo, hash_const = _state_word32(pool, 2 * j, hash_const)
    hi, hash_const = _state_word32(pool, 2 * j + 1, hash_const)
    return uint64(lo) | (uint64(hi) << uint64(32)), hash_const


@njit(cache=True)
def generate_state64(pool, n_words64):
    """``SeedSequence.generate_state(n_words64, np.uint64)`` from a pool."""
    out = np.zeros(n_words64, dtype=np.uint64)
    hc = uint32(_INIT_B)
    for j in range(n_words64):
        out[j], hc = _state_word64(pool, j, hc)
    return out


@njit(cache=True)
def _mul64(a, b):
    """Full 128-bit product of two uint64 as (hi, lo)."""
    m32 = uint64(MASK32)
    a_lo = a & m32
    a_hi = a >> uint64(32)
    b_lo = b & m32
    b_hi = b >> uint64(32)
    p0 = a_lo * b_lo
    p1 = a_lo * b_hi
    p2 = a_hi * b_lo
    p3 = a_hi * b_hi
    mid = (p0 >> uint64(32)) + (p1 & m32) + (p2 & m32)
    lo = (p0 & m32) | (mid << uint64(32))
    hi = p3 + (p1 >> uint64(32)) + (p2 >> uint64(32)) + (mid >> uint64(32))
    return hi, lo


@njit(cache=True)
def _step(s):
    """state = state * MULT + inc (mod 2**128)."""
    hi, lo = _mul64(s[1], uint64(_PCG_MULT_LO))
    hi = hi + s[0] * uint64(_PCG_MULT_LO) + s[1] * uint64(_PCG_MULT_HI)
    lo2 = lo + s[3]
    carry = uint64(1) if lo2 < lo else uint64(0)
    s[0] = hi + s[2] + carry
    s[1] = lo2


@njit(cache=True)
def _pcg64_seed(s, init_hi, init_lo, seq_hi, seq_lo):
    """pcg64_set_seed: seed stream ``s`` from the four ``generate_state(4, uint64)`` words."""
    # inc = (initseq << 1) | 1
    s[2] = (seq_hi << uint64(1)) | (seq_lo >> uint64(63))
    s[3] = (seq_lo << uint64(1)) | uint64(1)
    s[0] = uint64(0)
    s[1] = uint64(0)
    _step(s)
    lo = s[1] + init_lo
    carry = uint64(1) if lo < s[1] else uint64(0)
    s[0] = s[0] + init_hi + carry
    s[1] = lo
    _step(s)
    s[4] = uint64(0)


@njit(cache=True)
def pcg64_init(state_words, s):
    """Seed stream ``s`` (uint64[5]) from ``generate_state(4, uint64)`` words (pcg64_set_seed)."""
    _pcg64_seed(s, state_words[0], state_words[1], state_words[2], state_words[3])


@njit(cache=True)
def next_uint64(s):
    """PCG64 XSL-RR output after one step."""
    _step(s)
    x = s[0] ^ s[1]
    rot = s[0] >> uint64(58)
    return (x >> rot) | (x << ((uint64(64) - rot) & uint64(63)))


@njit(cache=True)
def next_uint32(s):
    """Buffered 32-bit draw: low half of a 64-bit draw, then its high half."""
    if s[4] != 0:
        v = s[4] & uint64(MASK32)
        s[4] = uint64(0)
        return v
    nxt = next_uint64(s)
    s[4] = (nxt >> uint64(32)) | (uint64(1) << uint64(32))
    return nxt & uint64(MASK32)


@njit(cache=True)
def next_double(s):
    """``Generator.random()``."""
    return float(next_uint64(s) >> uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def integers(s, n):
    """``Generator.integers(0, n)`` for 1 <= n <= 2**32 (Lemire on 32-bit draws)."""
    rng = uint64(n - 1)
    if rng == uint64(0):
        return int64(0)
    if rng == uint64(MASK32):
        return int64(next_uint32(s))
    rng_excl = rng + uint64(1)
    m = next_uint32(s) * rng_excl
    leftover = m & uint64(MASK32)
    if leftover < rng_excl:
        threshold = (uint64(MASK32) - rng) % rng_excl
        while leftover < threshold:
            m = next_uint32(s) * rng_excl
            leftover = m & uint64(MASK32)
    return int64(m >> uint64(32))


@njit(cache=True, inline="always")
def _interval(s, max_val):
    """numpy's random_interval for max_val < 2**32 (masked rejection on 32-bit draws)."""
    if max_val == 0:
        return int64(0)
    mx = uint64(max_val)
    mask = mx
    mask |= mask >> uint64(1)
    mask |= mask >> uint64(2)
    mask |= mask >> uint64(4)
    mask |= mask >> uint64(8)
    mask |= mask >> uint64(16)
    mask |= mask >> uint64(32)
    value = next_uint32(s) & mask
    while value > mx:
        value = next_uint32(s) & mask
    return int64(value)


@njit(cache=True)
def shuffle(s, x):
    """``Generator.shuffle`` of a 1-D array, in place."""
    for i in range(x.shape[0] - 1, 0, -1):
        j = _interval(s, i)
        if i == j:
            continue
        tmp = x[j]
        x[j] = x[i]
        x[i] = tmp


@njit(cache=True)
def game_streams_into(study_seed, game_index, n_children, out):
    """Fill ``out[c]`` (uint64[n_children, 5]) with the streams of
    ``SeedSequence([game_index, study_seed]).spawn(n_children)`` turned into PCG64.

    Both numbers must be in [0, 2**32) (one uint32 word each, as NumPy coerces them).
    """
    entropy = np.zeros(_POOL + 1, dtype=np.uint32)
    pool = np.zeros(_POOL, dtype=np.uint32)
    entropy[0] = uint32(game_index)
    entropy[1] = uint32(study_seed)
    # entropy[2:4] stay 0: NumPy pads spawned children's run entropy to the pool size.
    for c in range(n_children):
        entropy[_POOL] = uint32(c)
        _mix_pool(entropy, pool)
        # generate_state(4, uint64) word by word, without allocating (this runs per game).
        hc = uint32(_INIT_B)
        w0, hc = _state_word64(pool, 0, hc)
        w1, hc = _state_word64(pool, 1, hc)
        w2, hc = _state_word64(pool, 2, hc)
        w3, hc = _state_word64(pool, 3, hc)
        _pcg64_seed(out[c], w0, w1, w2, w3)
