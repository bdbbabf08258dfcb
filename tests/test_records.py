"""Deal records: a deal written as a JSON document (rules, the dealt cards, every action) and read
back; replaying a record reproduces the identical deal, events and scores, and every bad record is
refused with a :class:`RecordError` naming the field, never a traceback."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from atout.bots.random_bot import RandomBot
from atout.cards import CardSet
from atout.engine import FrenchDeal, Phase
from atout.games import new_deal
from atout.records import (
    FORMAT,
    VERSION,
    RecordError,
    deal_to_record,
    load_record,
    read_record,
    replay,
    write_record,
)
from atout.rules import Rules


def random_deal(players: int = 4, seed: int = 0, stop_after: int | None = None, **options: Any) -> FrenchDeal:
    """A deal played by random legal actions (all of them, or the first ``stop_after``)."""
    rules = Rules.from_options({"players": players, **options})
    rng = random.Random(seed)
    deal = FrenchDeal.new(rules, dealer=seed % players, rng=rng)
    bot = RandomBot(rng)
    while not deal.is_over() and (stop_after is None or len(deal.history) < stop_after):
        deal.apply(bot.choose(None, deal.legal_actions()))
    return deal


def played_deal(players: int = 4, **options: Any) -> FrenchDeal:
    """A finished deal that was played (not cancelled): the first bidder takes the top contract."""
    for seed in range(50):
        deal = FrenchDeal.new(Rules.from_options({"players": players, **options}), rng=seed)
        while not deal.is_over():
            deal.apply(deal.legal_actions()[-1])
        if deal.summary is not None:
            return deal
    raise AssertionError("no played deal in 50 seeds")


def assert_same_deal(a: FrenchDeal, b: FrenchDeal) -> None:
    assert b.rules == a.rules
    assert b.dealer == a.dealer
    assert b.initial_hands == a.initial_hands and b.initial_chien == a.initial_chien
    assert b.history == a.history
    assert b.events == a.events
    assert b.phase == a.phase and b.current_player == a.current_player
    assert b.hands == a.hands
    assert b.legal_actions() == a.legal_actions()
    if a.is_over():
        assert b.scores() == a.scores()
        assert b.outcome == a.outcome
        assert b.summary == a.summary


def round_trip(deal: FrenchDeal) -> FrenchDeal:
    return replay(read_record(write_record(deal)))


# ---------------------------------------------------------------- round trips
@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("seed", range(6))
def test_replaying_a_record_reproduces_the_deal_events_and_scores(players: int, seed: int) -> None:
    deal = random_deal(players, seed)
    again = round_trip(deal)
    assert_same_deal(deal, again)
    assert write_record(again) == write_record(deal)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_played_deal_round_trips_with_its_summary(players: int) -> None:
    deal = played_deal(players)
    record = deal_to_record(deal)
    assert record["result"]["outcome"] == "played"
    assert record["result"]["scores"] == deal.scores()
    assert record["result"]["summary"]["contract"] == deal.contract
    assert_same_deal(deal, round_trip(deal))


OPTION_SETS: list[dict[str, Any]] = [
    {"bid_pousse": True},
    {"no_petite": True, "first_leader": "taker"},
    {"play_direction": "clockwise", "first_bidder": "dealer_left"},
    {"excuse_last_trick": "must_play_before_last", "excuse_exchange_card": "any_won_card"},
    {"deal_scheme": "seed000", "threshold_0_oudlers": 55, "round_margin_to": 10},
    {"poignee_thresholds": {"4": [8, 10, 12]}, "poignee_bonus": [10, 20, 30]},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o))
@pytest.mark.parametrize("seed", range(3))
def test_a_record_keeps_the_rules_options_and_replays_under_them(options: dict[str, Any], seed: int) -> None:
    deal = random_deal(4, seed, **options)
    record = json.loads(write_record(deal))
    assert Rules.from_options({**record["options"], "players": 4}) == deal.rules
    assert set(record["options"]) == set(options)
    assert_same_deal(deal, replay(record))


def test_a_five_player_record_keeps_the_call_and_the_partner() -> None:
    deal = played_deal(5, called_card_fallback="queen_only", five_player_split="equal")
    assert any(a.startswith("call ") for a in deal_to_record(deal)["actions"])
    again = round_trip(deal)
    assert again.called_card == deal.called_card and again.partner == deal.partner
    assert_same_deal(deal, again)


def test_a_cancelled_deal_round_trips_with_zero_scores() -> None:
    rules = Rules()
    for seed in range(100):
        deal = FrenchDeal.new(rules, rng=seed)
        while not deal.is_over():
            deal.apply(deal.legal_actions()[0])  # everyone passes
        if deal.outcome.startswith("all passed"):
            break
    record = deal_to_record(deal)
    assert record["result"] == {"outcome": deal.outcome, "scores": [0, 0, 0, 0]}
    assert_same_deal(deal, replay(record))


def test_the_record_holds_the_dealt_cards_and_the_action_words() -> None:
    deal = random_deal(4, 7)
    record = deal_to_record(deal, seed=7)
    assert record["format"] == FORMAT and record["version"] == VERSION
    assert record["game"] == "french" and record["players"] == 4 and record["seed"] == 7
    assert [CardSet.parse(h).mask for h in record["hands"]] == list(deal.initial_hands)
    assert CardSet.parse(record["chien"]).mask == deal.initial_chien
    assert len(record["actions"]) == len(deal.history)
    assert all(isinstance(a, str) for a in record["actions"])


# ---------------------------------------------------------------- unfinished deals
@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("stop_after", [0, 1, 5, 30])
def test_a_record_of_an_unfinished_deal_replays_to_the_same_position(players: int, stop_after: int) -> None:
    deal = random_deal(players, 11, stop_after=stop_after)
    record = deal_to_record(deal)
    assert "result" not in record or deal.is_over()
    again = replay(read_record(json.dumps(record)))
    assert_same_deal(deal, again)
    # both copies go on identically
    rng = random.Random(5)
    while not deal.is_over():
        action = RandomBot(rng).choose(None, deal.legal_actions())
        deal.apply(action)
        again.apply(action)
    assert again.scores() == deal.scores() and again.events == deal.events


def test_replay_upto_stops_after_that_many_actions() -> None:
    deal = random_deal(4, 3)
    record = deal_to_record(deal)
    partial = replay(record, upto=10)
    assert partial.history == deal.history[:10]
    assert_same_deal(random_deal(4, 3, stop_after=10), partial)


def test_a_record_with_a_result_but_too_few_actions_is_refused() -> None:
    record = deal_to_record(played_deal())
    record["actions"] = record["actions"][:-1]
    with pytest.raises(RecordError, match=r"^result: .*do not finish the deal"):
        replay(record)


# ---------------------------------------------------------------- bad records
def good_record() -> dict[str, Any]:
    return json.loads(write_record(played_deal()))


def changed(**fields: Any) -> dict[str, Any]:
    record = good_record()
    record.update(fields)
    return record


def test_text_that_is_not_json_names_where_it_fails() -> None:
    with pytest.raises(RecordError, match=r"^not JSON: .* at line 1 column"):
        read_record('{"format": ')


@pytest.mark.parametrize("text", ["[]", '"atout-deal"', "3"])
def test_a_record_must_be_a_json_object(text: str) -> None:
    with pytest.raises(RecordError, match="a record is a JSON object"):
        read_record(text)


@pytest.mark.parametrize("value", ["pgn", None, 1])
def test_a_record_of_another_format_is_refused(value: object) -> None:
    with pytest.raises(RecordError, match=r"^format: expected 'atout-deal'"):
        read_record(json.dumps(changed(format=value)))


@pytest.mark.parametrize("value", [2, 0, "1", None, True])
def test_a_record_of_another_version_is_refused(value: object) -> None:
    with pytest.raises(RecordError, match=r"^version: this atout reads version 1"):
        read_record(json.dumps(changed(version=value)))


def test_an_unknown_option_is_named_with_a_suggestion() -> None:
    with pytest.raises(
        RecordError, match=r"^options: unknown option 'pousse' \(did you mean 'bid_pousse'\?\)"
    ):
        replay(changed(options={"pousse": True}))


def test_a_bad_option_value_is_refused() -> None:
    with pytest.raises(RecordError, match=r"^options: play_direction must be one of"):
        replay(changed(options={"play_direction": "sideways"}))


def test_an_option_the_engine_does_not_play_is_refused_under_options() -> None:
    record = json.loads(write_record(new_deal(Rules(players=2), rng=1)))
    record["options"] = {"misere_bonus": 10}
    with pytest.raises(
        RecordError, match=r"^options: misère and partial-slam declarations are not played with 2"
    ):
        replay(record)


@pytest.mark.parametrize("value", [1, 6, None, "4", True])
def test_a_player_count_the_game_does_not_have_is_refused(value: object) -> None:
    with pytest.raises(RecordError, match=r"^players: french is played by 2 to 5 players"):
        replay(changed(players=value))


def test_a_record_of_four_player_cards_is_not_read_as_another_game() -> None:
    with pytest.raises(RecordError, match=r"^players: austrian is played by 3 players"):
        replay(changed(game="austrian"))
    with pytest.raises(RecordError, match=r"^hands"):
        replay(changed(players=2))


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(RecordError, match=r"^game: expected french or austrian, found 'belote'"):
        replay(changed(game="belote"))


@pytest.mark.parametrize("value", [4, -1, None, "0", True])
def test_a_dealer_that_is_not_a_seat_is_refused(value: object) -> None:
    with pytest.raises(RecordError, match=r"^dealer: expected a seat number 0\.\.3"):
        replay(changed(dealer=value))


def test_a_bad_card_name_is_named_with_its_hand() -> None:
    record = good_record()
    record["hands"][1] = record["hands"][1].replace(record["hands"][1].split()[0], "ZZ", 1)
    with pytest.raises(RecordError, match=r"^hands\[1\]: not a card: 'ZZ'"):
        replay(record)


def test_a_bad_card_name_in_the_chien_is_named() -> None:
    record = good_record()
    record["chien"] = record["chien"] + " T22"
    with pytest.raises(RecordError, match=r"^chien: no trump numbered 22"):
        replay(record)


def test_a_hand_that_is_not_text_is_refused() -> None:
    record = good_record()
    record["hands"][2] = 18
    with pytest.raises(RecordError, match=r"^hands\[2\]: expected card names"):
        replay(record)


@pytest.mark.parametrize("value", [None, "KS", ["KS"] * 3])
def test_the_hands_must_be_a_list_of_one_hand_per_seat(value: object) -> None:
    with pytest.raises(RecordError, match=r"^hands: expected 4 hands"):
        replay(changed(hands=value))


def test_a_card_dealt_twice_is_named_with_both_hands() -> None:
    record = good_record()
    first = record["hands"][0].split()[0]
    hand1 = record["hands"][1].split()
    hand1[0] = first
    record["hands"][1] = " ".join(hand1)
    with pytest.raises(RecordError, match=rf"^hands\[1\]: {first} is dealt twice \(also in hands\[0\]\)"):
        replay(record)


def test_a_card_in_both_a_hand_and_the_chien_is_refused() -> None:
    record = good_record()
    first = record["hands"][3].split()[0]
    chien = record["chien"].split()
    chien[0] = first
    record["chien"] = " ".join(chien)
    with pytest.raises(RecordError, match=rf"^chien: {first} is dealt twice \(also in hands\[3\]\)"):
        replay(record)


def test_a_card_written_twice_in_one_hand_is_refused() -> None:
    record = good_record()
    cards = record["hands"][0].split()
    record["hands"][0] = " ".join([*cards[:-1], cards[0]])
    with pytest.raises(RecordError, match=rf"^hands\[0\]: {cards[0]} is dealt twice \(also in hands\[0\]\)"):
        replay(record)


def test_a_hand_of_the_wrong_size_is_refused() -> None:
    record = good_record()
    record["hands"][2] = " ".join(record["hands"][2].split()[:-1])
    with pytest.raises(RecordError, match=r"^hands\[2\]: 17 cards, a 4-player deal gives 18"):
        replay(record)


def test_a_chien_of_the_wrong_size_is_refused() -> None:
    record = good_record()
    record["chien"] = " ".join(record["chien"].split()[:-1])
    with pytest.raises(RecordError, match=r"^chien: 5 cards, a 4-player deal gives 6"):
        replay(record)


def test_an_illegal_action_is_named_with_its_index_and_rule() -> None:
    record = good_record()
    k = next(i for i, a in enumerate(record["actions"]) if a.startswith("play "))
    record["actions"][k] = "garde"
    with pytest.raises(RecordError, match=rf"^actions\[{k}\] 'garde': .*play phase.*rule book"):
        replay(record)


def test_a_card_not_held_is_an_illegal_action_at_its_index() -> None:
    record = good_record()
    k = next(i for i, a in enumerate(record["actions"]) if a.startswith("play "))
    before = replay(record, upto=k)
    other = before.hands[(before.current_player + 1) % 4]
    record["actions"][k] = f"play {str(CardSet(other)).split()[0]}"
    with pytest.raises(RecordError, match=rf"^actions\[{k}\] 'play \w+': .* does not hold"):
        replay(record)


def test_an_unreadable_action_word_is_named_with_its_index() -> None:
    record = good_record()
    record["actions"][3] = "jump"
    with pytest.raises(RecordError, match=r"^actions\[3\] 'jump': not an action"):
        replay(record)


def test_an_action_that_is_not_text_is_named_with_its_index() -> None:
    record = good_record()
    record["actions"][2] = 240
    with pytest.raises(RecordError, match=r"^actions\[2\]: expected an action name"):
        replay(record)


def test_actions_must_be_a_list() -> None:
    with pytest.raises(RecordError, match=r"^actions: expected a list"):
        replay(changed(actions="pass pass"))


def test_an_action_after_the_end_is_refused_at_its_index() -> None:
    record = good_record()
    k = len(record["actions"])
    record["actions"].append("pass")
    with pytest.raises(RecordError, match=rf"^actions\[{k}\] 'pass': pass: the deal is over"):
        replay(record)


def test_a_result_whose_scores_disagree_with_the_replay_is_refused() -> None:
    record = good_record()
    true_scores = record["result"]["scores"]
    record["result"]["scores"] = [
        s + 1 if i == 0 else s - 1 if i == 1 else s for i, s in enumerate(true_scores)
    ]
    with pytest.raises(RecordError, match=r"^result\.scores: recorded .* the replay gives") as info:
        replay(record)
    assert str(true_scores) in str(info.value)


@pytest.mark.parametrize("value", [None, 0, "100", {"0": 1}])
def test_result_scores_that_are_not_a_list_are_refused(value: object) -> None:
    record = good_record()
    record["result"]["scores"] = value
    with pytest.raises(RecordError, match=r"^result\.scores: recorded"):
        replay(record)


def test_a_result_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(RecordError, match=r"^result: expected an object"):
        replay(changed(result=[0, 0, 0, 0]))


def test_a_missing_file_is_named() -> None:
    with pytest.raises(RecordError, match=r"nowhere\.json: No such file or directory"):
        load_record("/nonexistent/nowhere.json")


def test_a_directory_is_not_a_record(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=rf"^{tmp_path}: "):
        load_record(tmp_path)


def test_a_file_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('{"format": "atout-deal", "note": "écart"}'.encode("latin-1"))
    with pytest.raises(RecordError, match=r"latin1\.json: not a UTF-8 text file"):
        load_record(path)


def test_load_record_names_the_file_in_front_of_the_field(tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    path.write_text(json.dumps(changed(version=0)), encoding="utf-8")
    with pytest.raises(RecordError, match=r"old\.json: version: this atout reads version 1"):
        load_record(path)


def test_a_record_file_loads_and_replays(tmp_path: Path) -> None:
    deal = played_deal(3)
    path = tmp_path / "deal.json"
    path.write_text(write_record(deal), encoding="utf-8")
    assert_same_deal(deal, replay(load_record(path)))


BREAKS = [
    lambda r: r.update(options=[]),
    lambda r: r.update(options={"players": "x", "poignee_thresholds": {"x": 1}}),
    lambda r: r.update(chien=None),
    lambda r: r["hands"].__setitem__(0, ""),
    lambda r: r["actions"].__setitem__(0, None),
    lambda r: r.update(players=[4]),
    lambda r: r.update(dealer=[0]),
    lambda r: r["result"].update(scores="abc"),
    lambda r: r.pop("hands"),
    lambda r: r.pop("dealer"),
]


@pytest.mark.parametrize("index", range(len(BREAKS)))
def test_every_broken_field_raises_record_error_never_another_exception(index: int) -> None:
    record = copy.deepcopy(good_record())
    BREAKS[index](record)
    with pytest.raises(RecordError):
        replay(read_record(json.dumps(record)))


def test_record_error_is_a_value_error() -> None:
    assert issubclass(RecordError, ValueError)


def test_a_replayed_deal_is_a_live_engine() -> None:
    deal = random_deal(4, 1, stop_after=4)
    again = replay(deal_to_record(deal))
    assert again.phase in (Phase.BIDDING, Phase.CALL, Phase.DISCARD, Phase.CHELEM, Phase.POIGNEE, Phase.PLAY)
    again.apply(again.legal_actions()[0])
    assert len(again.history) == len(deal.history) + 1
