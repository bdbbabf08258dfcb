"""Exact open-hand ("double dummy") solving of French Tarot card play.

>>> from atout.solver import Position, Solver, best_moves, solve
"""

from atout.solver.position import Position
from atout.solver.search import Solver, SolveResult, best_moves, solve

__all__ = ["Position", "SolveResult", "Solver", "best_moves", "solve"]
