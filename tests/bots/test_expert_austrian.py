"""The expert's Austrian card play: its sampled worlds show the seat exactly its view, the play
inferences hold in the true deal, the hidden cards of the true deal are never read, it plays only
legal actions, and it is deterministic under a seed."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atout.bots import make_bot
from atout.bots.expert import CheatBot, ExpertBot, ExpertConfig, austrian
from atout.bots.expert.austrian import AustrianSearcher, distinct_cards, playout_value
from atout.bots.expert.austrian_worlds import sample_world
from atout.bots.random_bot import RandomBot
from atout.bots.rules import RulesBot
from atout.cards import AUSTRIAN_DECK_MASK, CardSet
from atout.engine.austrian.actions import DISCARD_BASE
from atout.engine.austrian.cards import AUSTRIAN_TRUMPS_MASK, parse_austrian_card
from atout.engine.austrian.deal import AustrianDeal
from atout.engine.austrian.view import AustrianView
from atout.engine.worlds.austrian import DISCARD, TALON, excluded_cards, layout_of, trick_exclusions
from atout.rules import Rules

SMALL = ExpertConfig(samples=4, work=40, min_samples=2)
"""A cheap configuration for tests (the Austrian budget is a multiple of ``work``)."""


def _card(name: str) -> int:
    return parse_austrian_card(name)


def _mask(text: str) -> int:
    return CardSet.parse(text).mask


def random_rules(rng: random.Random) -> Rules:
    """Austrian rules with random options (threesomes come with ``austrian_allow_game2=false``,
    where the rules bot passes weak hands, or from random bidders)."""
    return Rules(
        game="austrian",
        players=3,
        austrian_must_overtrump=rng.random() < 0.7,
        austrian_talon_mode=rng.choice(["seed_sequential", "seed_sequential", "free_choice"]),
        austrian_second_half_visible=rng.random() < 0.2,
        austrian_forbid_trull_discard=rng.random() < 0.2,
        austrian_allow_game2=rng.random() < 0.5,
        austrian_jack_value=rng.choice([2, 3]),
        austrian_solo_talon=rng.choice(["defenders", "declarer"]),
    )


def _check_worlds(deal: AustrianDeal, rng: random.Random) -> int:
    seat = deal.current_player
    view = deal.view(seat)
    excluded = excluded_cards(view)
    layout = layout_of(view)
    # the inferences hold in the true deal, and the true hidden cards fit the layout
    for other in range(3):
        assert not deal.hands[other] & excluded[other]
        if other != seat:
            assert deal.hands[other] & ~layout.allowed[other] == 0
    assert layout.hidden & ~AUSTRIAN_DECK_MASK == 0
    made = 0
    for _ in range(3):
        world = sample_world(view, rng)
        if world is None:
            continue
        made += 1
        assert world.view(seat) == view
        assert world.hands[seat] == deal.hands[seat]
        assert world.rules == deal.rules and world.dealer == deal.dealer  # a view holds a copy of the rules
        for other in range(3):
            assert world.hands[other].bit_count() == deal.hands[other].bit_count()
            assert not world.hands[other] & excluded[other]
            assert not world.hands[other] & view.played()
        assert world.unused_talon() & layout.hidden == world.unused_talon() & ~layout.out_of_play
        if seat != deal.declarer and deal.bid == "threesome":
            assert world.discard & view.discard == view.discard
            assert world.discard & ~view.discard & AUSTRIAN_TRUMPS_MASK == 0
    return made


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), random_bids=st.booleans())
def test_sampled_worlds_show_the_seat_exactly_its_view(seed: int, random_bids: bool) -> None:
    rng = random.Random(seed)
    deal = AustrianDeal.new(random_rules(rng), dealer=rng.randrange(3), rng=rng)
    rules_bot = RulesBot()
    random_bot = RandomBot(random.Random(seed + 1))
    bot = random_bot if random_bids else rules_bot
    tried = made = 0
    while not deal.is_over():
        if deal.phase != "play" or rng.random() < 0.25:  # every decision before the play too
            tried += 3
            made += _check_worlds(deal, rng)
        legal = deal.legal_actions()
        chooser = random_bot if deal.phase == "play" and rng.random() < 0.3 else bot
        deal.apply(chooser.choose(deal.view(deal.current_player), legal))
    assert made == tried


def test_the_layout_places_a_defenders_hidden_cards() -> None:
    # a threesome with the first half accepted: a defender sees the first half (in the
    # declarer's hand now), not the second (unused); the discard is face down but its trumps
    rules = Rules(game="austrian", players=3, austrian_allow_game2=False)
    deal = AustrianDeal.new(rules, dealer=2, rng=4)
    for word in ("threesome", "pass", "pass", "accept"):
        deal.apply(deal.parse(word))
    hand = deal.hands[0]
    trump = min(CardSet(hand & AUSTRIAN_TRUMPS_MASK & ~_mask("T1")))
    plain = sorted(CardSet(hand & ~AUSTRIAN_TRUMPS_MASK & ~_mask("KS KH KD KC")))[:2]
    for card in (plain[0], trump, plain[1]):
        deal.apply(DISCARD_BASE + card)
    assert deal.phase == "play"  # no game declaration without game 2
    layout = layout_of(deal.view(1))
    assert layout.sizes == (16, 0, 16, 3, 2)
    assert layout.allowed[TALON] & deal.talon[1] == deal.talon[1]
    assert layout.allowed[DISCARD] & AUSTRIAN_TRUMPS_MASK == 0
    assert layout.out_of_play == 1 << trump
    first_kept = deal.talon[0] & ~deal.discard
    assert layout.allowed[2] & first_kept == 0  # only the declarer can hold them
    assert layout.allowed[0] & first_kept == first_kept
    own = layout_of(deal.view(0))  # the declarer knows his discard; the second half is unseen
    assert own.sizes == (0, 16, 16, 3, 0)
    assert own.out_of_play == deal.discard
    for seat in (0, 1, 2):
        world = sample_world(deal.view(seat), random.Random(seat))
        assert world is not None and world.view(seat) == deal.view(seat)


def test_trick_inferences() -> None:
    # spades led, seat 1 trumps with T5, seat 2 plays T3 under it: void in spades, no trump above T5
    plays = [(0, _card("KS")), (1, _card("T5")), (2, _card("T3"))]
    ex = trick_exclusions(plays, must_overtrump=True)
    assert ex[0] == 0
    assert ex[1] & _mask("7S 8S QS") == _mask("7S 8S QS") and not ex[1] & AUSTRIAN_TRUMPS_MASK
    assert ex[2] & _mask("T6 T21 EX") == _mask("T6 T21 EX") and not ex[2] & _mask("T4 T1")
    # without the duty to overtrump, the low trump only shows the spade void
    ex = trick_exclusions(plays, must_overtrump=False)
    assert not ex[2] & AUSTRIAN_TRUMPS_MASK and ex[2] & _mask("9S")
    # a plain card on a trump lead: no trumps (Sküs included)
    ex = trick_exclusions([(1, _card("T7")), (2, _card("4H"))], must_overtrump=True)
    assert ex[2] & AUSTRIAN_TRUMPS_MASK == AUSTRIAN_TRUMPS_MASK
    # a discard on a plain lead: void in the suit and in trumps
    ex = trick_exclusions([(2, _card("1H")), (0, _card("7C"))], must_overtrump=True)
    assert ex[0] & _mask("KH 4H EX T1") == _mask("KH 4H EX T1")


def test_distinct_cards_merge_touching_cards_of_equal_value() -> None:
    hand = _mask("1H 2H 4H KH T21 EX T1 T2 8S 9S")
    legal = sorted(CardSet(hand))
    groups = distinct_cards(legal, hand, gone=0)
    members = sorted(sorted(g) for g in groups.values())
    assert sorted([_card("1H"), _card("2H")]) in members  # red pips: 1 over 2, touching
    assert [_card("4H")] in members  # the 3 lies between, unseen
    assert sorted([_card("T21"), _card("EX")]) in members
    assert [_card("T1")] in members and [_card("T2")] in members  # the Pagat counts 5
    assert sorted([_card("8S"), _card("9S")]) in members
    # once the 3 of hearts is out of play, the 4 joins the 1 and 2
    groups = distinct_cards(legal, hand, gone=_mask("3H"))
    assert sorted(_card(c) for c in ("1H", "2H", "4H")) in [sorted(g) for g in groups.values()]


def test_a_playout_matches_the_rules_bot_game() -> None:
    deal = AustrianDeal.new(Rules(game="austrian", players=3), dealer=0, rng=3)
    rules_bot = RulesBot()
    while deal.phase != "play":
        deal.apply(rules_bot.choose(deal.view(deal.current_player), deal.legal_actions()))
    for _ in range(10):
        deal.apply(rules_bot.choose(deal.view(deal.current_player), deal.legal_actions()))
    seat = deal.current_player
    card = rules_bot.choose(deal.view(seat), deal.legal_actions())
    value, steps = playout_value(deal, seat, card)
    game = deal.clone()
    while not game.is_over():
        game.apply(rules_bot.choose(game.view(game.current_player), game.legal_actions()))
    assert value == game.scores()[seat] and steps == 48 - 10 - 1


def _play_to_a_decision(seed: int) -> AustrianDeal:
    rng = random.Random(seed)
    deal = AustrianDeal.new(Rules(game="austrian", players=3), dealer=rng.randrange(3), rng=rng)
    bot = RulesBot()
    stop = rng.randrange(12, 40)
    while not deal.is_over():
        if deal.phase == "play" and len(deal.history) >= stop and len(deal.legal_actions()) > 1:
            return deal
        deal.apply(bot.choose(deal.view(deal.current_player), deal.legal_actions()))
    raise AssertionError("no decision reached")


def _another_world(deal: AustrianDeal, view: AustrianView, seed: int) -> AustrianDeal | None:
    """A sampled world that shows the seat ``view`` with other hidden cards than ``deal``."""
    rng = random.Random(seed)
    for _ in range(20):
        world = sample_world(view, rng)
        if world is not None and world.hands != deal.hands:
            return world
    return None


def test_hidden_cards_of_the_true_deal_are_not_read() -> None:
    checked = 0
    for seed in range(8):
        deal = _play_to_a_decision(seed)
        seat = deal.current_player
        view = deal.view(seat)
        other = _another_world(deal, view, seed)
        if other is None:
            continue
        assert other.view(seat) == view
        choices = []
        for true_deal in (deal, other):
            bot = ExpertBot(SMALL, rng=seed)
            choices.append(bot.choose(true_deal.view(seat), true_deal.legal_actions()))
        assert choices[0] == choices[1]
        checked += 1
    assert checked >= 6


def test_the_expert_plays_only_legal_actions_over_whole_games() -> None:
    for seed in range(4):
        rng = random.Random(seed)
        deal = AustrianDeal.new(random_rules(rng), dealer=seed % 3, rng=rng)
        expert = ExpertBot(SMALL, rng=seed)
        others = RandomBot(random.Random(seed)) if seed % 2 else RulesBot()
        while not deal.is_over():
            seat, legal = deal.current_player, deal.legal_actions()
            action = (expert if seat != 1 else others).choose(deal.view(seat), legal)
            assert action in legal
            deal.apply(action)


def test_the_search_is_deterministic_under_a_seed() -> None:
    def game(seed: int) -> list[int]:
        deal = AustrianDeal.new(Rules(game="austrian", players=3), dealer=1, rng=11)
        bot = ExpertBot(SMALL, rng=seed)
        while not deal.is_over():
            deal.apply(bot.choose(deal.view(deal.current_player), deal.legal_actions()))
        return deal.history

    assert game(5) == game(5)


def test_the_searcher_falls_back_on_the_rules_card() -> None:
    deal = _play_to_a_decision(1)
    seat = deal.current_player
    view, legal = deal.view(seat), deal.legal_actions()
    rules_card = RulesBot().choose(view, legal)
    # a budget too small for min_samples worlds: the rules card at once, no world drawn
    searcher = AustrianSearcher(ExpertConfig(samples=8, work=1, min_samples=2), random.Random(1))
    assert searcher.choose(view, legal) == rules_card
    assert searcher.last is not None and searcher.last.worlds == 0
    # enough budget: worlds are searched and the card is legal
    searcher = AustrianSearcher(ExpertConfig(samples=3, work=10_000, min_samples=2), random.Random(1))
    assert searcher.choose(view, legal) in legal
    assert searcher.last is not None and searcher.last.worlds == 3
    assert set(searcher.last.values) <= set(legal)


def test_make_bot_gives_the_austrian_expert() -> None:
    deal = _play_to_a_decision(2)
    seat = deal.current_player
    bot = make_bot("expert", level="fast", rng=1)
    assert bot.choose(deal.view(seat), deal.legal_actions()) in deal.legal_actions()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_play_to_end_is_the_rules_bot_s_game(seed: int) -> None:
    """From any moment (bids included), the fast driver plays what the rules bot plays."""
    rng = random.Random(seed)
    deal = AustrianDeal.new(random_rules(rng), dealer=rng.randrange(3), rng=rng)
    bot = RulesBot()
    for _ in range(rng.randrange(30)):
        if deal.is_over():
            break
        deal.apply(bot.choose(deal.view(deal.current_player), deal.legal_actions()))
    fast, slow = deal.clone(), deal.clone()
    austrian.play_to_end(fast)
    while not slow.is_over():
        slow.apply(bot.choose(slow.view(slow.current_player), slow.legal_actions()))
    assert fast.history == slow.history and fast.scores() == slow.scores()


SIMULATING = dataclasses.replace(SMALL, simulations=3)


def test_simulated_bids_talon_discard_and_game_are_legal_over_whole_games() -> None:
    """rule book §5.2-5.3: the simulated bid, talon half, discard and game are legal actions, and
    every kind of decision is simulated (threesomes come without game 2)."""
    simulated: set[str] = set()
    for seed in range(10):
        rng = random.Random(seed)
        rules = Rules(game="austrian", players=3, austrian_allow_game2=seed % 2 == 0)
        deal = AustrianDeal.new(rules, dealer=seed % 3, rng=rng)
        bots = [ExpertBot(SIMULATING, rng=seed + s) for s in range(3)]
        while not deal.is_over():
            seat, legal = deal.current_player, deal.legal_actions()
            phase = str(deal.phase)
            bot = bots[seat]
            bot.last_simulation = None
            action = bot.choose(deal.view(seat), legal)
            assert action in legal
            if bot.last_simulation is not None:
                assert bot.last_simulation.dealings >= 2
                simulated.add(phase)
            deal.apply(action)
    assert simulated == {"bidding", "talon", "discard", "game"}


def _before_play(seed: int, phase: str) -> AustrianDeal | None:
    rng = random.Random(seed)
    rules = Rules(game="austrian", players=3, austrian_allow_game2=phase == "game")
    deal = AustrianDeal.new(rules, dealer=rng.randrange(3), rng=rng)
    bot = RulesBot()
    while deal.phase != phase:
        if deal.is_over() or deal.phase == "play":
            return None
        deal.apply(bot.choose(deal.view(deal.current_player), deal.legal_actions()))
    return deal


def test_simulated_decisions_read_only_the_view() -> None:
    """Hidden information stays hidden: two deals that show the seat the same view get the same
    simulated bid, talon half and game."""
    checked: set[str] = set()
    for phase in ("bidding", "talon", "game"):
        for seed in range(40):
            deal = _before_play(seed, phase)
            if deal is None:
                continue
            seat = deal.current_player
            view = deal.view(seat)
            other = sample_world(view, random.Random(seed))
            if other is None or other.hands == deal.hands:
                continue
            choices = [
                ExpertBot(SIMULATING, rng=seed).choose(d.view(seat), d.legal_actions()) for d in (deal, other)
            ]
            assert choices[0] == choices[1]
            checked.add(phase)
            break
    assert checked == {"bidding", "talon", "game"}


def test_the_cheat_plays_austrian_games_on_the_true_deal() -> None:
    """The cheat's card is worth at least the rules card on the true deal, and its options (bid,
    half, discard, game) are legal."""
    for seed in range(4):
        rng = random.Random(seed)
        deal = AustrianDeal.new(random_rules(rng), dealer=seed % 3, rng=rng)
        cheat, rules_bot = CheatBot(), RulesBot()
        cheat.observe_deal(deal)
        while not deal.is_over():
            seat, legal = deal.current_player, deal.legal_actions()
            view = deal.view(seat)
            action = cheat.choose(view, legal)
            assert action in legal
            if deal.phase == "play" and len(legal) > 1:
                rules_card = rules_bot.choose(view, legal)
                mine = austrian.playout_value(deal, seat, action)[0]
                assert mine >= austrian.playout_value(deal, seat, rules_card)[0]
            deal.apply(action)


SOLVING = ExpertConfig(samples=4, work=400, solver_cards=4, min_samples=2)
"""A cheap configuration whose endings (4 cards per hand or fewer) are valued by the solver."""


def _play_to_an_ending(seed: int, cards: int, rules: Rules | None = None) -> AustrianDeal | None:
    """A deal played by the rules bot until every hand holds at most ``cards`` cards and the seat
    to move has a choice; ``None`` if the deal is cancelled or no such choice comes."""
    rng = random.Random(seed)
    deal = AustrianDeal.new(rules or random_rules(rng), dealer=rng.randrange(3), rng=rng)
    bot = RulesBot()
    while not deal.is_over():
        if (
            deal.phase == "play"
            and deal.hands[deal.current_player].bit_count() <= cards
            and len(deal.legal_actions()) > 1
        ):
            return deal
        deal.apply(bot.choose(deal.view(deal.current_player), deal.legal_actions()))
    return None


def _best_line_scores(deal: AustrianDeal) -> tuple[int, list[int]]:
    """The declarer's final points under best play for the card points (the declarer maximises
    them in game 1, minimises them in game 2) and the engine's scores at the end of that line."""
    if deal.is_over():
        assert deal.summary is not None
        return deal.summary.points, deal.scores()
    lines = []
    for action in deal.legal_actions():
        child = deal.clone()
        child.apply(action)
        lines.append(_best_line_scores(child))
    maximize = (deal.current_player == deal.declarer) == (deal.game_type == "36_or_more")
    return (max if maximize else min)(lines, key=lambda line: line[0])


def test_solver_values_are_the_engine_scores_at_the_end_of_best_play() -> None:
    """rule book §5.5 counting and §5.7 scoring: a card's solver value is the seat's engine score
    at the end of the deal when everyone plays the card points perfectly after it (the points
    already won, the discard and the talon's share included, game 1 and 2, solo and threesome)."""
    checked: set[tuple[str | None, str | None]] = set()
    for seed in range(40):
        deal = _play_to_an_ending(seed, 3)
        if deal is None:
            continue
        seat = deal.current_player
        cards = [int(a) for a in deal.legal_actions()]
        assert austrian.uses_solver(deal, 3)
        values, work = austrian.solver_values(deal, seat, cards)
        assert work >= 1
        for card in cards:
            child = deal.clone()
            child.apply(card)
            assert values[card] == _best_line_scores(child)[1][seat]
        checked.add((deal.bid, deal.game_type))
    assert len(checked) >= 3


def test_the_expert_values_endings_by_the_solver() -> None:
    """Once every hand holds at most ``solver_cards`` cards the expert's card comes from the
    solver (a legal card, the work counting its nodes), and the decision repeats under a seed."""
    solved = 0
    for seed in range(12):
        deal = _play_to_an_ending(seed, 4)
        if deal is None:
            continue
        seat = deal.current_player
        view, legal = deal.view(seat), deal.legal_actions()
        decisions = []
        for _ in range(2):
            searcher = AustrianSearcher(SOLVING, random.Random(seed))
            card = searcher.choose(view, legal)
            assert card in legal
            decisions.append((card, searcher.last))
        assert decisions[0] == decisions[1]
        last = decisions[0][1]
        assert last is not None and last.evaluator == "solver"
        if last.worlds:
            assert last.worlds >= SOLVING.min_samples
            assert last.work >= last.worlds * (austrian.WORLD_WORK + 1)
            assert set(last.values) <= set(legal)
            solved += 1
        # before the ending, the same configuration plays out
        early = _play_to_a_decision(seed)
        if early.hands[early.current_player].bit_count() > SOLVING.solver_cards:
            searcher = AustrianSearcher(SOLVING, random.Random(seed))
            searcher.choose(early.view(early.current_player), early.legal_actions())
            assert searcher.last is not None and searcher.last.evaluator == "playout"
    assert solved >= 8


def test_the_solver_sees_only_sampled_worlds() -> None:
    """Hidden information stays hidden with the solver too: two true deals that show the seat the
    same view get the same solver-valued card."""
    checked = 0
    for seed in range(20):
        deal = _play_to_an_ending(seed, 4)
        if deal is None:
            continue
        seat = deal.current_player
        view = deal.view(seat)
        other = _another_world(deal, view, seed)
        if other is None:
            continue
        assert other.view(seat) == view
        choices = []
        for true_deal in (deal, other):
            searcher = AustrianSearcher(SOLVING, random.Random(seed))
            choices.append((searcher.choose(true_deal.view(seat), true_deal.legal_actions()), searcher.last))
            assert searcher.last is not None and searcher.last.evaluator == "solver"
        assert choices[0] == choices[1]
        assert ExpertBot(SOLVING, rng=seed).choose(view, deal.legal_actions()) == ExpertBot(
            SOLVING, rng=seed
        ).choose(other.view(seat), other.legal_actions())
        checked += 1
    assert checked >= 6


def test_declarations_are_valued_by_the_seat_s_standing_5_7() -> None:
    """rule book §5.7, positive-only scoring: a lost game costs its declarer nothing by his own
    score, but gives each defender its value. The simulated bid weighs that (the seat's score
    minus the others' mean), so a weak hand's threesome is worth less than nothing and it passes;
    valued by its own score alone (``standing=false``), the same threesome looks free."""
    weak = CardSet.parse("7S 8S 9S 10S 4H 3H 2H 4D 3D 7C 8C 9C T2 T3 T4 T5").mask
    rest = [c for c in range(78) if AUSTRIAN_DECK_MASK >> c & 1 and not weak >> c & 1]
    hands = [weak, sum(1 << c for c in rest[:16]), sum(1 << c for c in rest[16:32])]
    talon = [sum(1 << c for c in rest[32:35]), sum(1 << c for c in rest[35:38])]
    deal = AustrianDeal(Rules(game="austrian", players=3, austrian_allow_game2=False), 2, hands, talon)
    threesome = deal.parse("threesome")
    means = {}
    for flag in (True, False):
        bot = ExpertBot(dataclasses.replace(SIMULATING, standing=flag), rng=1)
        bid = bot.choose(deal.view(0), deal.legal_actions())
        assert bot.last_simulation is not None
        means[flag] = bot.last_simulation.means[(threesome,)]
        if flag:
            assert deal.action_name(bid) == "pass"
    assert means[True] < 0 <= means[False]
    scores, seat = [0, 70, 70], 0
    assert austrian.standing(scores, seat) == -70.0 and austrian.standing(scores, 1) == 35.0
    value, _ = austrian.play_option(deal, 0, (threesome,), relative=True)
    own, _ = austrian.play_option(deal, 0, (threesome,))
    assert value <= own
