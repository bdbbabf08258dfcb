"""numba, when it is installed (the optional extra ``solver-fast``): what compiled kernels share.

``AVAILABLE`` tells whether numba imports; without it nothing else here may be used, and every
kernel has a pure-Python path that gives the same results. With it: ``jit`` and ``inline``
(``numba.njit`` with the on-disk cache, compiled on first use, the second inlined into its
callers) and three bit intrinsics on signed 64-bit words: ``popcount`` (set bits), ``bitlen``
(``int.bit_length``) and ``lowbit`` (the index of the lowest set bit).
"""

from __future__ import annotations

import importlib
from typing import Any

numba: Any
np: Any
try:
    numba = importlib.import_module("numba")
    np = importlib.import_module("numpy")
except ImportError:
    numba = np = None
AVAILABLE = numba is not None
"""Whether numba is installed."""


def _popcount_typer(typingctx: Any, x: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return _types.int64(_types.int64), codegen


def _bitlen_typer(typingctx: Any, x: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        zeros = builder.ctlz(args[0], _ir.Constant(_ir.IntType(1), 0))
        return builder.sub(_ir.Constant(_ir.IntType(64), 64), zeros)

    return _types.int64(_types.int64), codegen


def _lowbit_typer(typingctx: Any, x: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], _ir.Constant(_ir.IntType(1), 0))

    return _types.int64(_types.int64), codegen


popcount: Any = None
bitlen: Any = None
lowbit: Any = None
jit: Any = None
inline: Any = None
if AVAILABLE:
    _types: Any = numba.types
    _ir: Any = importlib.import_module("llvmlite.ir")
    popcount = numba.extending.intrinsic(_popcount_typer)
    bitlen = numba.extending.intrinsic(_bitlen_typer)
    lowbit = numba.extending.intrinsic(_lowbit_typer)
    jit = numba.njit(cache=True, nogil=True)
    inline = numba.njit(cache=True, nogil=True, inline="always")

__all__ = ["AVAILABLE", "bitlen", "inline", "jit", "lowbit", "np", "numba", "popcount"]
