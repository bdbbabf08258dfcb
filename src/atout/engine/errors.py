"""Errors raised by the engine."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action the rules forbid; the state is left unchanged.

    ``rule`` names the rule, e.g. ``"rule book §3.8 follow suit"``.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.reason = message


def not_an_action(action: object, game: str, other_class: type, other_game: str) -> IllegalActionError:
    """The refusal of something that is not an action of ``game``, named exactly as given."""
    if type(action) is other_class:
        return IllegalActionError("actions", f"{action!r} is an action of {other_game}, not of {game}")
    return IllegalActionError("actions", f"{action!r} is not an action of {game}")
