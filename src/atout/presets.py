"""Named sets of rules that a table picks by name (rule book §6 and §8).

A preset fixes some options; anything else keeps its default, and a table may still
change any option on top of a preset.

>>> rules_for("japanese", players=4).first_bidder
'dealer_left'
>>> rules_for("czech", {"players": 5}).called_card_fallback
'queen_only'
>>> rules_for("tarock").game, rules_for("tarock-seed").austrian_jack_value
('austrian', 3)
>>> rules_for("tarock").austrian_allow_game2, rules_for("tarock-seed").austrian_allow_game2
(False, True)
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from atout.rules import Rules, RulesError


@dataclass(frozen=True)
class Preset:
    """A named reading of the rules: the options it sets, and where it comes from."""

    name: str
    title: str
    source: str
    options: Mapping[str, Any] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()


PRESETS: tuple[Preset, ...] = (
    Preset(
        "fft",
        "French Tarot, official FFT rules (2012)",
        "Fédération Française de Tarot, Règlement officiel, 2012: every default of atout",
        aliases=("official", "french"),
    ),
    Preset(
        "japanese",
        "French Tarot as the Japanese rule page plays it",
        "seed 000: bidding from the dealer's left, a kitty of the first and last 3 cards with hands "
        "dealt in 6s, the Fool exchanged for any won card, petit au bout not multiplied, a failed "
        "announced slam costs 400",
        {
            "first_bidder": "dealer_left",
            "deal_scheme": "seed000",
            "excuse_exchange_card": "any_won_card",
            "petit_au_bout_multiplied": False,
            "slam_announced_failed_penalty": 400,
        },
        aliases=("seed000",),
    ),
    Preset(
        "chinese",
        "French Tarot as the Chinese encyclopedia article plays it",
        "seed 002: as FFT, but a chelem announcer does not lead the first trick",
        {"chelem_announcer_leads": False},
        aliases=("seed002",),
    ),
    Preset(
        "czech",
        "French Tarot as the Czech page (after pagat.com) plays it",
        "seed 003: 55 points needed with no bout, the taker leads the first trick, in 5 players "
        "only a queen may be called after the kings",
        {"threshold_0_oudlers": 55, "first_leader": "taker", "called_card_fallback": "queen_only"},
        aliases=("seed003", "pagat"),
    ),
    Preset(
        "french-sheet",
        "French Tarot as the French rule sheet plays it",
        "seed 004: the Excuse may not be kept for the last trick",
        {"excuse_last_trick": "must_play_before_last"},
        aliases=("seed004",),
    ),
    Preset(
        "tarock",
        "Austrian three-player Tarock (a jack counts 2, the declarer needs 36 of 70)",
        "seed 001 in atout's coherent reading (rule book §1.2, §5.7), with the real game's contract: "
        "the declarer needs 36 of the 70 points, no game 2 (35 or less), which a declarer choosing "
        "after seeing his hand nearly always makes (§6.2 A5, measured)",
        {"game": "austrian", "players": 3, "austrian_allow_game2": False},
        aliases=("austrian", "dreiertarock"),
    ),
    Preset(
        "tarock-seed",
        "Austrian three-player Tarock exactly as the Japanese page writes it (a jack counts 3, game 2 allowed)",
        "seed 001 to the letter: a jack counts 3, so the pack counts 74 points, and the declarer may "
        "play game 2 (35 or less)",
        {"game": "austrian", "players": 3, "austrian_jack_value": 3, "austrian_allow_game2": True},
        aliases=("seed001",),
    ),
)

_BY_NAME = {name: p for p in PRESETS for name in (p.name, *p.aliases)}


def preset(name: str) -> Preset:
    """The preset of that name or alias; :class:`RulesError` naming the choices otherwise."""
    found = _BY_NAME.get(name.strip().lower())
    if found is None:
        close = difflib.get_close_matches(name, sorted(_BY_NAME), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise RulesError(
            f"unknown rules preset {name!r}{hint}; presets: {', '.join(p.name for p in PRESETS)}"
        )
    return found


def rules_for(name: str = "fft", options: Mapping[str, Any] | None = None, **more: Any) -> Rules:
    """Rules from a preset with some options changed on top (validated)."""
    chosen = preset(name)
    merged = {**chosen.options, **(options or {}), **more}
    fixed_game = chosen.options.get("game")
    if fixed_game is not None and merged.get("game") != fixed_game:
        raise RulesError(f"the {chosen.name} preset is for game={fixed_game}")
    return Rules.from_options(merged)
