"""``atout rules`` and ``--rules``: presets and options as a table chooses them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from atout.presets import PRESETS, rules_for
from atout.rules import OPTION_HELP, SHARED_OPTIONS, options_of_game

FRENCH_ONLY = ("deal_scheme", "petit_sec_rule", "poignee_thresholds", "excuse_last_trick", "five_player_mode")


def test_rules_lists_every_preset_and_option(atout: Any) -> None:
    result = atout("rules", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert [p["name"] for p in data["presets"]] == [p.name for p in PRESETS]
    assert {o["name"] for o in data["options"]} == set(OPTION_HELP)
    table = atout("rules")
    assert table.exit_code == 0 and "japanese" in table.stdout and "threshold_0_oudlers" in table.stdout


def test_rules_preset_shows_every_value(atout: Any) -> None:
    result = atout("rules", "czech", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["preset"] == "czech"
    assert data["options"]["threshold_0_oudlers"] == 55
    assert set(data["options"]) == {o for o in OPTION_HELP if not o.startswith("austrian_")}
    shown = atout("rules", "seed003")
    assert shown.exit_code == 0 and "first_leader" in shown.stdout


def test_unknown_preset_is_a_clear_error(atout: Any) -> None:
    result = atout("rules", "japanes")
    assert result.exit_code == 2
    assert "did you mean 'japanese'" in result.stderr and "Traceback" not in result.stderr


def test_simulate_under_a_preset_applies_its_options(atout: Any) -> None:
    result = atout("simulate", "--rules", "japanese", "--deals", "200", "--json")
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["options"]["deal_scheme"] == "seed000" and report["broken"] == []
    override = atout("simulate", "-r", "japanese", "-o", "first_bidder=dealer_right", "-n", "50", "--json")
    assert "first_bidder" not in json.loads(override.stdout)["options"]
    five = atout("simulate", "-r", "czech", "-p", "5", "-n", "200", "--json")
    assert json.loads(five.stdout)["options"]["called_card_fallback"] == "queen_only"


def test_score_under_a_preset_uses_its_options_and_the_summary_wins(atout: Any) -> None:
    failed_slam = {
        "game": "french",
        "players": 4,
        "taker": 0,
        "contract": "garde",
        "oudlers": 2,
        "points": 70,
        "chelem": {"announced": True, "won_by": None},
    }
    fft = json.loads(atout("score", "-", "--json", input=json.dumps(failed_slam)).stdout)
    japanese = json.loads(
        atout("score", "-", "--json", "--rules", "japanese", input=json.dumps(failed_slam)).stdout
    )
    assert fft["scores"] == [-276, 92, 92, 92]  # FFT: a failed announced slam costs 200
    assert japanese["scores"] == [-876, 292, 292, 292]  # seed 000: it costs 400
    own = {**failed_slam, "options": {"slam_announced_failed_penalty": 200}}
    assert json.loads(atout("score", "-", "--json", "-r", "japanese", input=json.dumps(own)).stdout) == fft


def test_score_refuses_a_preset_of_another_game(atout: Any) -> None:
    summary = {"game": "french", "players": 4, "taker": 0, "contract": "garde", "oudlers": 2, "points": 70}
    result = atout("score", "-", "-r", "tarock", input=json.dumps(summary))
    assert result.exit_code == 2 and "tarock preset is for austrian" in result.stderr
    unknown = atout("score", "-", "-r", "nope", input=json.dumps(summary))
    assert unknown.exit_code == 2 and "unknown rules preset" in unknown.stderr


def _whole_names(text: str) -> set[str]:
    """The option names that stand whole at the start of a line (``name=`` or ``* name=``)."""
    return {line.lstrip("* ").partition("=")[0] for line in text.splitlines() if "=" in line}


def test_rules_never_cuts_an_option_name_when_piped_and_narrow(atout: Any, monkeypatch: Any) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    listing = atout("rules")
    assert listing.exit_code == 0
    assert set(OPTION_HELP) <= _whole_names(listing.stdout)
    # piped: one option per line, its meaning on the same line
    assert f"threshold_0_oudlers=56  {OPTION_HELP['threshold_0_oudlers']}" in listing.stdout.splitlines()
    preset = atout("rules", "czech")
    assert preset.exit_code == 0
    assert set(options_of_game("french")) == _whole_names(preset.stdout) & set(OPTION_HELP)
    assert "* threshold_0_oudlers=55  " in preset.stdout  # set by the preset, marked


def test_rules_never_cuts_an_option_name_on_a_narrow_terminal() -> None:
    from io import StringIO

    from rich.console import Console

    from atout.cli.rules import _print_listing

    out = StringIO()
    _print_listing(Console(file=out, width=40, force_terminal=True, color_system=None))
    lines = out.getvalue().splitlines()
    assert set(OPTION_HELP) <= _whole_names(out.getvalue())
    assert all(len(line) <= 40 for line in lines if "=" not in line)
    wide = StringIO()
    _print_listing(Console(file=wide, width=120, force_terminal=True, color_system=None))
    assert all(name in wide.getvalue() for name in OPTION_HELP)  # a table, names whole


@pytest.mark.parametrize("name", [p.name for p in PRESETS])
def test_rules_of_a_preset_show_only_the_options_of_its_game_8(atout: Any, name: str) -> None:
    """rule book §8: an option of another game is not one a table of this game can choose."""
    game = rules_for(name).game
    data = json.loads(atout("rules", name, "--json").stdout)
    assert list(data["options"]) == list(options_of_game(game))
    shown = _whole_names(atout("rules", name).stdout) & set(OPTION_HELP)
    assert shown == set(options_of_game(game))
    if game == "austrian":
        assert not any(option in shown for option in FRENCH_ONLY)
    else:
        assert not any(option.startswith("austrian_") for option in shown)


def test_the_austrian_preset_lists_no_deal_scheme_petit_sec_or_poignee(atout: Any) -> None:
    result = atout("rules", "tarock")
    assert result.exit_code == 0
    for french in ("deal_scheme", "petit_sec", "poignee", "chelem", "excuse", "five_player"):
        assert french not in result.stdout
    assert "* austrian_allow_game2=false" in result.stdout  # rule book §6.2 A5: set by the preset
    seed = atout("rules", "tarock-seed").stdout
    assert "* austrian_allow_game2=true" in seed and "* austrian_jack_value=3" in seed


def test_the_listing_groups_the_options_by_the_game_that_reads_them(atout: Any) -> None:
    data = json.loads(atout("rules", "--json").stdout)
    games = {o["name"]: o["games"] for o in data["options"]}
    assert games["deal_scheme"] == ["french"] and games["austrian_allow_game2"] == ["austrian"]
    assert all(games[o] == ["french", "austrian"] for o in SHARED_OPTIONS)
    assert {p["name"]: p["game"] for p in data["presets"]}["tarock"] == "austrian"
    text = atout("rules").stdout
    french, austrian = text.index("Options of French Tarot"), text.index("Options of Austrian Tarock")
    assert text.index("petit_sec_rule=") < austrian < text.index("austrian_jack_value=")
    assert french < text.index("petit_sec_rule=")


def test_options_of_an_unknown_game_are_refused() -> None:
    from atout.rules import RulesError

    with pytest.raises(RulesError, match="game must be french or austrian"):
        options_of_game("chess")
