"""``atout warm-up``: compile the computer players' kernels into numba's on-disk cache, so that
neither the first game nor the server's bot workers wait for a compiler (``make run`` and
``make test`` run it once after installing)."""

from __future__ import annotations

from typing import Annotated

import typer


def warm_up_command(
    no_solver: Annotated[
        bool,
        typer.Option(
            "--no-solver",
            help="Leave out the exact solver's and the batched simulator's kernels (the cheat bot's "
            "and the tools'; the bots offered at a table never call them).",
        ),
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")] = False,
) -> None:
    """Compile every kernel the bots, the solver and the batched simulator use, in every game (or
    load it from the cache)."""
    from atout.bots.warm import cache_folder, warm_up
    from atout.jit import AVAILABLE

    if not AVAILABLE:
        if not quiet:
            typer.echo("numba is not installed (the solver-fast extra): nothing to compile")
        return
    took = warm_up(solver=not no_solver)
    if not quiet:
        parts = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in took.items())
        typer.echo(f"kernels compiled or loaded from the cache ({parts}); cache: {cache_folder()}")
