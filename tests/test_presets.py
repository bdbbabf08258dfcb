"""rule book §6 and §8: presets a table picks by name, each one reproducing a rule document."""

from __future__ import annotations

import pytest

from atout.presets import PRESETS, preset, rules_for
from atout.rules import Rules, RulesError


def test_fft_preset_is_every_default_8() -> None:
    assert rules_for("fft") == Rules()
    assert rules_for("official", players=3) == Rules(players=3)


def test_japanese_preset_follows_seed_000_6_1() -> None:
    rules = rules_for("japanese")
    assert rules.first_bidder == "dealer_left"  # F2
    assert rules.deal_scheme == "seed000"  # F4
    assert rules.excuse_exchange_card == "any_won_card"  # F7
    assert rules.petit_au_bout_multiplied is False  # F10
    assert rules.slam_announced_failed_penalty == 400  # F15


def test_czech_preset_follows_seed_003_6_1() -> None:
    rules = rules_for("czech", players=5)
    assert rules.threshold(0) == 55  # F1
    assert rules.first_leader == "taker"  # F3
    assert rules.called_card_fallback == "queen_only"  # F21


def test_french_sheet_preset_follows_seed_004_6_1() -> None:
    assert rules_for("seed004").excuse_last_trick == "must_play_before_last"  # F8


def test_chinese_preset_follows_seed_002_3_6() -> None:
    assert rules_for("chinese").chelem_announcer_leads is False


def test_tarock_presets_follow_seed_001_1_2() -> None:
    coherent, literal = rules_for("tarock"), rules_for("tarock-seed")
    assert (coherent.game, coherent.players, coherent.austrian_jack_value) == ("austrian", 3, 2)
    assert (literal.game, literal.players, literal.austrian_jack_value) == ("austrian", 3, 3)


def test_tarock_plays_36_of_70_and_tarock_seed_keeps_game_2_6_2_a5() -> None:
    """§6.2 A5: the Austrian preset plays the real game's reading, the seed's stays by name."""
    assert rules_for("tarock").austrian_allow_game2 is False
    assert rules_for("austrian").austrian_allow_game2 is False
    assert rules_for("tarock-seed").austrian_allow_game2 is True
    assert rules_for("tarock", austrian_allow_game2=True).austrian_allow_game2 is True  # still an option


def test_options_change_a_preset_and_are_validated() -> None:
    assert rules_for("japanese", first_bidder="dealer_right").first_bidder == "dealer_right"
    with pytest.raises(RulesError, match="unknown option"):
        rules_for("czech", {"bogus": 1})
    with pytest.raises(RulesError, match="game=austrian"):
        rules_for("tarock", game="french")


def test_unknown_presets_are_refused_with_a_suggestion() -> None:
    with pytest.raises(RulesError, match="did you mean 'japanese'"):
        preset("japanes")


def test_every_preset_builds_valid_rules() -> None:
    for p in PRESETS:
        rules = rules_for(p.name)
        assert all(getattr(rules, k) == v for k, v in p.options.items())
        assert set(rules.changed()) <= set(p.options)  # a preset may name a default to be plain
        for alias in p.aliases:
            assert rules_for(alias) == rules
