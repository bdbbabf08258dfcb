"""The batched simulator's shared compiled helpers (:mod:`atout.batched.bits`): the k-th set bit
is the same card by ``pdep`` and by the loop, and a shuffle is a uniformly random order of the
pack. Skipped without numba (failed under CI=true)."""

from __future__ import annotations

import os

import numpy as np
import pytest

from atout.batched import bits
from atout.jit import AVAILABLE, numba

pytestmark = pytest.mark.skipif(
    not AVAILABLE and os.environ.get("CI") != "true",
    reason="numba is not installed (pip install -e '.[solver-fast]'); under CI=true these tests fail instead",
)


def test_the_kth_set_bit_is_found_alike_by_every_way() -> None:
    # the deals do not hang on the processor: pdep (BMI2) and the loop find the same card
    ways = [numba.njit(bits._nth_bit_loop)] + ([numba.njit(bits._nth_bit_pdep)] if bits.PDEP else [])
    draw = np.random.default_rng(3)
    for mask in [*draw.integers(1, 2**63 - 1, size=2000).tolist(), 1, 2**62, 2**63 - 1, (1 << 56) - 1]:
        set_bits = [b for b in range(63) if mask >> b & 1]
        for k in (0, len(set_bits) - 1, int(draw.integers(len(set_bits)))):
            assert [int(way(mask, k)) for way in ways] == [set_bits[k]] * len(ways), (mask, k)


def test_a_shuffle_puts_every_card_anywhere_alike() -> None:
    # 54 cards shuffled 20000 times from seeded streams: each a permutation, and the first place
    # holds every card about as often (a chi-squared bound far above chance's, 53 degrees of freedom)
    shuffle, seed_stream = numba.njit(bits._shuffle), numba.njit(bits._seed_stream)
    rng = np.zeros(1, dtype=np.uint64)
    pack = np.empty(54, dtype=np.int64)
    first = np.zeros(54, dtype=np.int64)
    for deal in range(20000):
        seed_stream(rng, 0, 5, deal)
        shuffle(pack, 54, rng, 0)
        assert sorted(pack.tolist()) == list(range(54))
        first[pack[0]] += 1
    expected = 20000 / 54
    assert float(((first - expected) ** 2 / expected).sum()) < 110
