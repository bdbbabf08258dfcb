"""A hint: what the strongest bot would do from one seat's view, and why, as data.

The hint asks a fresh ``expert:strong`` bot (the strongest, docs/bots.md: it plays the rules
bot's decision where it has no search of its own, the 2-player game, the dead-player table and
the declarations) for its decision on the seat's wire view, nothing else, and reads back what the
bot computed for it (:attr:`ExpertBot.last`, :attr:`ExpertBot.last_simulation`,
:attr:`ExpertBot.last_austrian`), never recomputing it:

* ``method``: ``search`` (a card valued over sampled worlds), ``simulation`` (a bid, the call, an
  écart or an Austrian declaration played out over sampled dealings) or ``rules`` (the rules
  bot's decision, no figures);
* ``worlds``: the worlds or dealings the figures come from;
* ``measure``: what a value is, ``score`` (the seat's mean score for the deal) or ``standing``
  (Austrian declarations: its score minus the mean of the other two seats');
* ``best``: the action taken first, then the best others, at most :data:`BEST` in all, each
  ``{"action": words, "value": mean}``; a card's also ``worlds``, those it was valued in (fewer
  when the search's race dropped it early); an écart's ``plan``, the cards of that whole écart.

The bot's seed comes from the view alone (:func:`hint_seed`), so a hint is a function of what the
seat may know: the same view gives the same hint, whatever the hidden cards are.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from atout.bots.expert import ExpertBot
from atout.engine.wire import WireError, action_to_json, view_from_json

HINT_BOT = "expert:strong"
"""The bot a hint asks: the strongest in the arena (docs/bots.md)."""
BEST = 3
"""The most actions a hint's reason values."""


@dataclass(frozen=True)
class Hint:
    """The action's words and the reason, as JSON data (see the module doc)."""

    action: str
    reason: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """``{"action", "reason"}``."""
        return {"action": self.action, "reason": self.reason}


def hint_seed(view: Mapping[str, Any]) -> int:
    """The bot's seed for a wire view: 64 bits of a hash of the view written canonically.

    >>> hint_seed({"seat": 1, "hand": ["KS"]}) == hint_seed({"hand": ["KS"], "seat": 1})
    True
    """
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def _ranked(chosen: int, values: Mapping[int, float]) -> list[int]:
    """The chosen action, then the others by value, best first (at most :data:`BEST`)."""
    others = sorted((a for a in values if a != chosen), key=lambda a: (-values[a], a))
    return ([chosen] if chosen in values else []) + others[: BEST - 1 if chosen in values else BEST]


def _option_json(option: tuple[int, ...], value: float, words: Callable[[int], str]) -> dict[str, Any]:
    """A simulated option: its first action's words and its value; an écart's cards as ``plan``."""
    out: dict[str, Any] = {"action": words(option[0]), "value": round(value, 1)}
    if len(option) > 1:
        out["plan"] = [words(a).split()[-1] for a in option]
    return out


def hint_for(view: Mapping[str, Any], seed: int | None = None, bot: str = HINT_BOT) -> Hint:
    """The hint for a seat's wire view (the seat must be to act); ``seed`` defaults to
    :func:`hint_seed`. :class:`ValueError` in one line for a view that is not one or has
    nothing to decide."""
    try:
        seat_view = view_from_json(dict(view))
    except WireError as exc:
        raise ValueError(f"not a seat's view: {exc}") from None
    legal = list(seat_view.legal_actions)
    if not legal:
        raise ValueError("this seat has nothing to decide now")
    expert = ExpertBot.at_level(bot.partition(":")[2] or None, hint_seed(view) if seed is None else seed)
    action = expert.choose(seat_view, legal)
    rules = seat_view.rules

    def words(a: int) -> str:
        return action_to_json(a, rules)

    reason: dict[str, Any] = {"bot": bot, "method": "rules", "worlds": 0, "measure": None, "best": []}
    search = expert.last or expert.last_austrian
    simulated = expert.last_simulation
    if search is not None and search.worlds >= expert.config.min_samples and search.values:
        reason |= {"method": "search", "worlds": search.worlds, "measure": "score"}
        valued: Mapping[int, int] = getattr(search, "card_worlds", None) or {}
        reason["best"] = [
            {"action": words(a), "value": round(search.values[a], 1), "worlds": valued.get(a, search.worlds)}
            for a in _ranked(action, search.values)
        ]
    elif simulated is not None and simulated.dealings and simulated.means:
        means = simulated.means
        ranked = sorted((o for o in means if o != simulated.option), key=lambda o: (-means[o], o))
        options = ([simulated.option] if simulated.option in means else []) + ranked
        measure = "standing" if seat_view.game == "austrian" and expert.config.standing else "score"
        reason |= {"method": "simulation", "worlds": simulated.dealings, "measure": measure}
        reason["best"] = [_option_json(o, means[o], words) for o in options[:BEST]]
    return Hint(words(action), reason)


def hint_json(view_json: str, seed: int | None = None) -> dict[str, Any]:
    """:func:`hint_for` of a view's JSON text, as ``{"action", "reason"}`` (for the bot pool's
    worker processes)."""
    try:
        data = json.loads(view_json)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError("not a seat's view: a view is a JSON object")
    return hint_for(data, seed).to_json()


__all__ = ["BEST", "HINT_BOT", "Hint", "hint_for", "hint_json", "hint_seed"]
