"""What the batched simulator's game modules share in compiled code: each deal's random stream
and the k-th card of a card set.

Each deal has its own xorshift64* generator, one ``uint64`` of an array: :func:`seed_stream`
seeds it from ``(seed, deal number)`` (splitmix64), :func:`xorshift` steps a state,
:func:`bounded` turns a state into a uniform integer below ``n`` (the output's high bits),
:func:`draw` does both on the array, :func:`shuffle` deals a pack by Fisher-Yates with one draw a
card. :func:`nth_bit` is the index of the k-th set bit of a word: one ``pdep`` instruction where
numba compiles for an x86-64 processor with BMI2 (:data:`PDEP`), else by clearing the k lowest
bits. Every kernel is inlined into its callers (``inline``), so the game modules' kernels run as
fast as with their own copies; ``None`` without numba.

numba keys a kernel's on-disk cache by its own module's source only: after changing this module,
touch ``french.py``, ``austrian.py`` and ``two_player.py`` (or clear their caches) so that their
kernels compile again with the change.
"""

from __future__ import annotations

import importlib
import platform
from typing import Any, Final

from atout.jit import AVAILABLE, inline, lowbit, np, numba


def need_numba() -> None:
    """Raise a :class:`RuntimeError` saying how to install numba when it is missing."""
    if not AVAILABLE:
        raise RuntimeError("the batched simulator needs numba: pip install -e '.[solver-fast]'")


# ---------------------------------------------------------------- the random streams
def _xorshift(x: Any) -> Any:
    """The next state of a xorshift64* generator (a ``uint64``)."""
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    return x


def _bounded(x: Any, n: int) -> Any:
    """A uniform integer in [0, n) from generator state ``x`` (the xorshift64* output's high
    bits), a ``uint64``."""
    r = (x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(32)
    return int((r * np.uint64(n)) >> np.uint64(32))


def _draw(rng: Any, i: int, n: int) -> int:
    """A uniform integer in [0, n) from deal ``i``'s generator, an ``int64``."""
    x = xorshift(rng[i])
    rng[i] = x
    return int(np.int64(bounded(x, n)))


def _seed_stream(rng: Any, i: int, seed: int, index: int) -> None:
    """Seed generator ``i`` from ``(seed, index)`` (splitmix64), never zero."""
    z = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(index + 1) * np.uint64(0xD1B54A32D192ED03)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    rng[i] = z if z != np.uint64(0) else np.uint64(1)


def _shuffle(pack: Any, n: int, rng: Any, i: int) -> None:
    """Cards ``0 .. n - 1`` into ``pack[:n]`` in a uniformly random order (Fisher-Yates, one draw
    of generator ``i`` a card)."""
    for c in range(n):
        pack[c] = c
    x = rng[i]
    for j in range(n - 1, 0, -1):
        x = xorshift(x)
        k = bounded(x, j + 1)
        t = pack[j]
        pack[j] = pack[k]
        pack[k] = t
    rng[i] = x


# ---------------------------------------------------------------- the k-th set bit
def _has_pdep() -> bool:
    """Whether numba compiles for an x86-64 processor with BMI2 (its ``pdep`` instruction)."""
    if not AVAILABLE or platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    config = numba.core.config
    if config.CPU_NAME:
        features = config.CPU_FEATURES or ""
    else:
        features = importlib.import_module("llvmlite.binding").get_host_cpu_features().flatten()
    return "+bmi2" in features.split(",")


def _pdep_typer(typingctx: Any, source: Any, mask: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ir = importlib.import_module("llvmlite.ir")
        word = ir.IntType(64)
        pdep = numba.core.cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(word, [word, word]), "llvm.x86.bmi.pdep.64"
        )
        return builder.call(pdep, args)

    return numba.types.int64(numba.types.int64, numba.types.int64), codegen


PDEP: Final = _has_pdep()
"""Whether the k-th set bit of a card set is found by one ``pdep`` instruction (a third faster
random deals here), else by clearing the k lowest bits."""
_pdep: Any = numba.extending.intrinsic(_pdep_typer) if PDEP else None


def _nth_bit_loop(mask: int, k: int) -> int:
    """The index of the k-th set bit of ``mask`` (k from 0), clearing the k lowest."""
    for _ in range(k):
        mask &= mask - 1
    return int(lowbit(mask))


def _nth_bit_pdep(mask: int, k: int) -> int:
    """The index of the k-th set bit of ``mask`` (k from 0), with one ``pdep`` instruction."""
    return int(lowbit(_pdep(np.int64(1) << k, mask)))


xorshift: Any = None
bounded: Any = None
draw: Any = None
seed_stream: Any = None
shuffle: Any = None
nth_bit: Any = None
if AVAILABLE:
    xorshift = inline(_xorshift)
    bounded = inline(_bounded)
    draw = inline(_draw)
    seed_stream = inline(_seed_stream)
    shuffle = inline(_shuffle)
    nth_bit = inline(_nth_bit_pdep if PDEP else _nth_bit_loop)


def warm_up() -> None:
    """Nothing to compile apart: every kernel here is inlined into the game modules' kernels,
    which their own ``warm_up`` compiles."""


__all__ = [
    "PDEP",
    "bounded",
    "draw",
    "need_numba",
    "nth_bit",
    "seed_stream",
    "shuffle",
    "warm_up",
    "xorshift",
]
