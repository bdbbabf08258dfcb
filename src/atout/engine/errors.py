"""Errors raised by the engine."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action the rules forbid; the state is left unchanged.

    ``rule`` names the rule, e.g. ``"RULES.md §3.8 follow suit"``.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.reason = message
