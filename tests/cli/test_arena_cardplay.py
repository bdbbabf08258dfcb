"""``atout arena --track cardplay``: the reference bot bids, calls, discards and declares, the same in
both halves of every duplicate deal, so that candidate and baseline differ in card play only."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from atout.arena import ArenaSetup, play_duplicate, run_arena
from atout.bots import registry
from atout.bots.rules import RulesBot
from atout.games import Deal, is_card_play, new_deal
from atout.records import load_record, replay
from atout.rules import Rules

GAMES = {
    "french 2": Rules(players=2, two_player_chelem=True),
    "french 3": Rules(players=3),
    "french 4": Rules(players=4, misere_bonus=10, excuse_sec_redeal=True),
    "french 5": Rules(players=5),
    "french 5 dead player": Rules(players=5, five_player_mode="dead_player"),
    "austrian": Rules(game="austrian", players=3),
}


def _is_play(name: str) -> bool:
    return name.startswith("play ")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_is_card_play_in_every_game(game: str) -> None:
    rng = random.Random(7)
    for seed in range(4):
        deal = new_deal(GAMES[game], dealer=seed % GAMES[game].players, rng=seed)
        while not deal.is_over():
            legal = deal.legal_actions()
            assert is_card_play(deal) == is_card_play(deal, legal) == _is_play(deal.action_name(legal[0]))
            deal.apply(rng.choice(legal))
        assert not is_card_play(deal)


@pytest.mark.parametrize("reference", ["random", "rules"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_both_halves_share_the_auction_and_differ_in_card_play_only(
    game: str, reference: str, tmp_path: Path
) -> None:
    rules = GAMES[game]
    setup = ArenaSetup(rules, "rules", "random", reference, 4, 3, tmp_path, 200, track="cardplay")
    report = run_arena(setup)
    assert report["track"] == "cardplay"
    by_deal: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for path in sorted(tmp_path.glob("*.json")):
        record = load_record(path)
        assert replay(record).scores() == record["result"]["scores"]
        by_deal[path.name.split("-seat-")[0]].append(record)
    assert len(by_deal) == 4
    plays_differ = False
    for records in by_deal.values():
        actions = [r["actions"] for r in records]
        # everything before the first card, and every later decision that is not a card, is shared
        auctions = {tuple(a[: next((i for i, x in enumerate(a) if _is_play(x)), len(a))]) for a in actions}
        assert len(auctions) == 1
        assert len({tuple(x for x in a if not _is_play(x)) for a in actions}) == 1
        assert len({(r["dealer"], json.dumps(r.get("hands"))) for r in records}) == 1
        plays = {tuple(x for x in a if _is_play(x)) for a in actions}
        plays_differ |= len(plays) > 1
    assert plays_differ


@pytest.mark.parametrize("seed", [5, 21, 40])
def test_declarations_at_ones_first_card_stay_the_reference_bots(seed: int) -> None:
    """Misère and poignée come just before one's first card, after others have played: these deals
    have one, and it is the same in every game (the rules bot would always declare a misère)."""
    options = {"game": "french", "players": 4, "misere_bonus": 10}
    result = play_duplicate(
        options, ("rules", "random", "random"), (0, seed, seed % 4), True, None, "cardplay"
    )
    late = set()
    for _, text in result.records:
        actions = json.loads(text)["actions"]
        first = next(i for i, a in enumerate(actions) if _is_play(a))
        late.add(tuple(a for a in actions[first:] if not _is_play(a)))
    assert len(late) == 1 and next(iter(late))


def test_a_deal_over_before_the_first_card_counts_zero() -> None:
    options = {"game": "french", "players": 4}
    names = ("rules", "random", "rules")
    for seed in range(40):
        result = play_duplicate(options, names, (seed, seed, seed % 4), save=True, track="cardplay")
        records = [json.loads(text) for _, text in result.records]
        if "summary" not in records[0]["result"]:  # all passed: no card was played
            assert result.d == 0
            assert len(result.candidate) == len(result.baseline) == 4
            assert {tuple(r["actions"]) for r in records} == {tuple(records[0]["actions"])}
            assert not any(_is_play(a) for a in records[0]["actions"])
            return
    pytest.fail("no deal where every seat passed")


def test_the_tested_seat_is_timed_on_its_cards_only() -> None:
    full = run_arena(ArenaSetup(Rules(players=4), "rules", "random", "random", deals=3, seed=1))
    cardplay = run_arena(
        ArenaSetup(Rules(players=4), "rules", "random", "random", deals=3, seed=1, track="cardplay")
    )
    # 18 cards per seat in every deal that is played out; the full track adds bids and the rest
    assert cardplay["candidate"]["decisions"] % 18 == 0
    assert cardplay["candidate"]["decisions"] < full["candidate"]["decisions"]


class Seer(RulesBot):
    """A bot that sees everything, checking that it is shown the very deal being played."""

    name = "seer"
    sees_everything = True
    checked = 0

    def __init__(self) -> None:
        super().__init__()
        self.deal: Deal | None = None

    def observe_deal(self, deal: Deal) -> None:
        self.deal = deal

    def choose(self, view: Any, legal: Sequence[int]) -> int:
        assert self.deal is not None
        assert self.deal.view(view.seat) == view and list(self.deal.legal_actions()) == list(legal)
        Seer.checked += 1
        return super().choose(view, legal)


@pytest.mark.parametrize("track", ["full", "cardplay"])
def test_a_bot_that_sees_everything_is_shown_the_deal_it_plays(
    track: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(registry.BOTS, "seer", lambda level, rng: Seer())
    Seer.checked = 0
    for candidate, reference in (("seer", "random"), ("random", "seer")):
        setup = ArenaSetup(Rules(players=4), candidate, "random", reference, deals=2, seed=5, track=track)
        run_arena(setup)
    assert Seer.checked > 100


def test_the_report_names_the_track(atout: Any) -> None:
    result = atout("arena", "--deals", "2", "-p", "3", "--track", "cardplay")
    assert result.exit_code == 0, result.stderr
    assert "track: cardplay" in result.stdout
    result = atout("arena", "--deals", "2", "-p", "3")
    assert result.exit_code == 0, result.stderr
    assert "track: full" in result.stdout


def test_cheat_gap_in_the_cardplay_track(atout: Any) -> None:
    result = atout(
        "arena",
        *("--candidate", "rules", "--baseline", "random", "--reference", "rules"),
        *("--deals", "2", "-p", "3", "--seed", "4", "--track", "cardplay", "--cheat", "--json"),
    )
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["track"] == "cardplay"
    assert {"cheat_mean_d", "cheat_ci95", "gap_closed"} <= set(report)


@pytest.mark.parametrize("value", ["bidding", ""])
def test_bad_track(atout: Any, value: str) -> None:
    result = atout("arena", "--track", value)
    assert result.exit_code == 2
    assert "--track must be one of full, cardplay" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_the_setup_refuses_an_unknown_track() -> None:
    with pytest.raises(ValueError, match="unknown track 'auction'"):
        ArenaSetup(Rules(), "rules", "random", "random", deals=1, track="auction")
