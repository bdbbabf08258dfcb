"""Worlds from a seat's view (:mod:`atout.engine.worlds`), over whole deals of every game.

Each game is played out (random legal actions, or the rules bot) and, at a stride of its
decisions, every seat's view, read back from the wire, is resampled: the world must show the seat
exactly that view, be of the engine's class for the game, and play out to a deal with no broken
invariant. Hidden cards must vary from world to world, the dealing must be uniform (checked
against an exact enumeration on a small layout, and on a real view's card places), a weigher
must reweigh, and a view no deal can show is refused with a one-line message.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atout.bots.expert.likelihood import bid_weigher
from atout.bots.rules import RulesBot
from atout.cards import BIT, EXCUSE, N_CARDS, SUIT_MASKS, SUIT_OF, TRUMP, TRUMPS_MASK, cards_of, parse_card
from atout.engine.austrian.deal import AustrianDeal
from atout.engine.dead_player import DeadPlayerDeal
from atout.engine.french import FrenchDeal
from atout.engine.two_player import TwoPlayerDeal
from atout.engine.view import PUBLIC_SEAT, SeatView
from atout.engine.wire import View, view_from_json, view_to_json
from atout.engine.worlds import NoWorldError, Resampler, dealt_hands, sample_world
from atout.engine.worlds.uniform import Dealer, StepwiseDealer, UniformDealer
from atout.games import Deal, broken_invariants, deal_from_dealt, new_deal, playing_seats
from atout.presets import rules_for
from atout.rules import Rules

GAMES: dict[str, tuple[Rules, type]] = {
    "french-3": (Rules(players=3), FrenchDeal),
    "french-4-misere": (Rules(players=4, misere_bonus=10), FrenchDeal),
    "french-4-sheet": (rules_for("french-sheet"), FrenchDeal),
    "french-4-imprenable": (Rules(players=4, petit_sec_rule="petit_imprenable"), FrenchDeal),
    "french-5-called-king": (Rules(players=5), FrenchDeal),
    "french-5-dead-player": (Rules(players=5, five_player_mode="dead_player"), DeadPlayerDeal),
    "two-player": (Rules(players=2, two_player_chelem=True), TwoPlayerDeal),
    "austrian": (rules_for("tarock"), AustrianDeal),
    "austrian-free-talon": (rules_for("tarock", austrian_talon_mode="free_choice"), AustrianDeal),
}

Chooser = Callable[[Deal, random.Random], int]


def random_action(deal: Deal, rng: random.Random) -> int:
    legal = deal.legal_actions()
    return int(legal[rng.randrange(len(legal))])


def rules_bot_action(deal: Deal, rng: random.Random) -> int:
    legal = deal.legal_actions()
    return RulesBot().choose(deal.view(deal.current_player), legal)


def moments(rules: Rules, seed: int, stride: int, choose: Chooser) -> Iterator[tuple[Deal, View, int]]:
    """Every ``stride``-th moment of a whole deal, each playing seat's view there."""
    deal = new_deal(rules, dealer=seed % rules.players, rng=seed)
    rng = random.Random(seed)
    step = 0
    while True:
        if step % stride == 0 or deal.is_over():
            for seat in range(rules.players):
                yield deal, deal.view(seat), seat
        if deal.is_over():
            return
        deal.apply(choose(deal, rng))
        step += 1


def seen(deal: Deal, seat: int) -> View:
    return deal.public_view() if seat == PUBLIC_SEAT else deal.view(seat)


def check_world(world: Deal, view: View, seat: int, deal_class: type, rng: random.Random) -> None:
    """The world is of the game's class, shows the seat its view, replays from its dealt cards
    by its history, and plays out to a deal with no broken invariant."""
    assert type(world) is deal_class
    assert seen(world, seat) == view
    replayed = deal_from_dealt(world.rules, world.dealer, world.dealt())
    for action in world.history:
        replayed.apply(action)
    assert seen(replayed, seat) == view
    world.play_out(rng)
    assert world.is_over()
    assert broken_invariants(world) == []


@pytest.mark.parametrize("game", list(GAMES))
def test_every_world_shows_the_seat_its_view_over_whole_deals(game: str) -> None:
    rules, deal_class = GAMES[game]
    rng = random.Random(game)
    checked = 0
    for seed in range(3):
        choose = rules_bot_action if seed == 0 else random_action
        for deal, view, seat in moments(rules, seed, stride=5, choose=choose):
            wired = view_from_json(view_to_json(view))
            world = sample_world(wired, rng)
            check_world(world, view, seat, deal_class, rng)
            assert deal.view(seat) == view  # the deal sampled from is untouched
            checked += 1
    assert checked > 30


@pytest.mark.parametrize("game", ["french-5-called-king", "austrian"])
def test_the_quicker_dealing_too_gives_worlds_of_the_view(game: str) -> None:
    # the dealing used when a layout is too large to count (and by the expert bot for Austrian)
    rules, deal_class = GAMES[game]
    rng = random.Random(7)
    for deal, view, seat in moments(rules, 7, stride=9, choose=random_action):
        resampler = Resampler(view, exact=False)
        check_world(resampler.draw(rng), view, seat, deal_class, rng)
        assert deal.view(seat) == view


@pytest.mark.parametrize("game", ["french-4-misere", "french-5-dead-player", "two-player", "austrian"])
def test_a_spectators_public_view_resamples_too(game: str) -> None:
    rules, deal_class = GAMES[game]
    rng = random.Random(3)
    deal = new_deal(rules, dealer=0, rng=11)
    for step in range(60):
        if deal.is_over():
            break
        if step % 9 == 0:
            view = deal.public_view()
            check_world(sample_world(view, rng), view, PUBLIC_SEAT, deal_class, rng)
        deal.apply(random_action(deal, rng))


@pytest.mark.parametrize("game", ["french-4-misere", "french-5-called-king", "two-player", "austrian"])
def test_hidden_cards_vary_from_world_to_world(game: str) -> None:
    rules, _ = GAMES[game]
    rng = random.Random(5)
    deal = new_deal(rules, dealer=0, rng=5)
    while not deal.is_over() and len(deal.history) < 20:
        deal.apply(random_action(deal, rng))
    seat = playing_seats(deal)[0]
    view = deal.view(seat)
    resampler = Resampler(view)
    worlds = [dealt_hands(resampler.draw(rng)) for _ in range(20)]
    own = {hands[seat] for hands in worlds}
    others = {tuple(h for s, h in enumerate(hands) if s != seat) for hands in worlds}
    assert len(own) == 1
    assert len(others) > 15


# chi-square quantiles at 0.999 by degrees of freedom: a fair sampler fails one test in 1000
CHI2_999 = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 6: 22.46, 7: 24.32, 8: 26.12, 9: 27.88}


def chi_square(counts: Counter[object], expected: dict[object, float]) -> float:
    return sum((counts[key] - e) ** 2 / e for key, e in expected.items())


@dataclasses.dataclass(frozen=True)
class SmallLayout:
    hidden: int
    sizes: tuple[int, ...]
    allowed: tuple[int, ...]


@pytest.mark.parametrize("dealer_class", [UniformDealer, StepwiseDealer])
def test_dealings_are_uniform_where_constraints_overlap(dealer_class: type[Dealer]) -> None:
    # six cards, three places of two; card 0 not in place 1, cards 1-2 not in place 2: a dealer
    # that deals the most constrained cards first without counting would favour some dealings
    cards = range(6)
    allowed = (0b111111, 0b111110, 0b111001)
    layout = SmallLayout(hidden=0b111111, sizes=(2, 2, 2), allowed=allowed)
    dealings = []
    for places in itertools.product(range(3), repeat=6):
        if all(places.count(p) == 2 for p in range(3)) and all(
            allowed[p] >> c & 1 for c, p in zip(cards, places, strict=True)
        ):
            dealings.append(places)
    dealer = dealer_class(layout)
    counted = (
        dealer.count(0, layout.sizes)
        if isinstance(dealer, UniformDealer)
        else dealer.count(0, 0, len(dealer.groups[0][1]), layout.sizes)
    )
    assert counted == len(dealings)
    rng = random.Random(1)
    draws = 200 * len(dealings)
    counts: Counter[object] = Counter()
    for _ in range(draws):
        masks = dealer.deal(rng)
        assert masks is not None
        counts[tuple(next(p for p, m in enumerate(masks) if m >> c & 1) for c in cards)] += 1
    assert set(counts) == set(dealings)
    expected: dict[object, float] = {d: draws / len(dealings) for d in dealings}
    # beyond the table: the normal approximation of the 0.999 quantile
    df = len(dealings) - 1
    limit = CHI2_999.get(df, df + 3.1 * (2 * df) ** 0.5)
    assert chi_square(counts, expected) < limit


def test_a_card_lies_in_each_place_in_proportion_to_its_room() -> None:
    # 3 players, right after the deal: seat 0 holds 24 cards, the others 24 each, the chien 6
    deal = new_deal(Rules(players=3), dealer=2, rng=4)
    view = deal.view(0)
    card = next(c for c in range(N_CARDS) if not view.hand >> c & 1)
    resampler = Resampler(view)
    rng = random.Random(2)
    counts: Counter[object] = Counter()
    draws = 1200
    for _ in range(draws):
        world = resampler.draw(rng)
        assert isinstance(world, FrenchDeal)
        holder = next((s for s, h in enumerate(world.initial_hands) if h >> card & 1), "chien")
        counts[holder] += 1
    expected: dict[object, float] = {1: draws * 24 / 54, 2: draws * 24 / 54, "chien": draws * 6 / 54}
    assert chi_square(counts, expected) < CHI2_999[2]


def test_a_void_shown_by_play_is_respected() -> None:
    rng = random.Random(8)
    for seed in range(40):
        deal = new_deal(Rules(players=4), dealer=0, rng=seed)
        while not deal.is_over():
            if deal.phase == "play" and len(deal.tricks) >= 4:
                break
            deal.apply(random_action(deal, rng))
        if deal.is_over():
            continue
        view = deal.view(0)
        for trick in view.tricks:
            led = trick.plays[0][1]
            for seat, card in trick.plays[1:]:
                if seat == 0 or EXCUSE in (card, led):
                    continue
                if SUIT_OF[card] != SUIT_OF[led] and SUIT_OF[led] != TRUMP:
                    world = sample_world(view, rng)
                    assert isinstance(world, FrenchDeal)
                    assert world.hands[seat] & SUIT_MASKS[SUIT_OF[led]] == 0
                    return
    pytest.fail("no void shown in 40 deals")


def test_a_2_player_void_empties_the_hand_not_the_face_down_piles() -> None:
    rng = random.Random(6)
    for seed in range(40):
        deal = new_deal(Rules(players=2), dealer=0, rng=seed)
        while len(deal.tricks) < 8:
            deal.apply(random_action(deal, rng))
        view = deal.view(0)
        voids = [
            (seat, SUIT_OF[led])
            for trick in view.tricks
            for (_, led), (seat, card) in [trick.plays]
            if seat == 1 and EXCUSE not in (led, card) and SUIT_OF[card] != SUIT_OF[led]
        ]
        if not voids:
            continue
        seat, suit = voids[0]
        for _ in range(10):
            world = sample_world(view, rng)
            assert isinstance(world, TwoPlayerDeal)
            assert world.hands[seat] & SUIT_MASKS[suit] == 0
        return
    pytest.fail("no 2-player void shown in 40 deals")


def test_a_weigher_reweighs_the_worlds() -> None:
    deal = new_deal(Rules(players=4), dealer=0, rng=9)
    view = deal.view(1)
    card = next(c for c in range(N_CARDS) if not view.hand >> c & 1)
    rng = random.Random(4)
    for _ in range(20):
        world = sample_world(view, rng, weigher=lambda hands: float(hands[3] >> card & 1))
        assert dealt_hands(world)[3] >> card & 1


def test_the_expert_bots_bid_weigher_plugs_in() -> None:
    deal = new_deal(Rules(players=4), dealer=0, rng=3)
    rng = random.Random(1)
    while len(deal.tricks) < 1:
        deal.apply(random_action(deal, rng))
    view = deal.view(2)
    assert isinstance(view, SeatView)
    world = sample_world(view, rng, weigher=bid_weigher(view))
    check_world(world, view, 2, FrenchDeal, rng)


def test_a_view_no_deal_can_show_is_refused_in_one_line() -> None:
    deal = new_deal(Rules(players=3), dealer=0, rng=2)
    rng = random.Random(1)
    while deal.phase != "play" or len(deal.tricks) < 1:
        deal.apply(random_action(deal, rng))
    view = deal.view(0)
    played = next(c for _, c in view.tricks[0].plays if not view.hand >> c & 1)
    impossible = dataclasses.replace(view, hand=view.hand | BIT[played])
    with pytest.raises(NoWorldError) as refused:
        Resampler(impossible, tries=20).draw(rng)
    assert "seat 1's view" in str(refused.value)
    assert "\n" not in str(refused.value)
    piles = TwoPlayerDeal.new(Rules(players=2), dealer=0, rng=2).view(1)
    with pytest.raises(NoWorldError, match=r"^seat 2's view comes from no deal: a pile without"):
        sample_world(dataclasses.replace(piles, own_tops=(None,) * 6), rng)
    with pytest.raises(TypeError, match="not a seat's view"):
        sample_world("a view", rng)  # type: ignore[arg-type]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(sorted(GAMES)),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 90),
    seat=st.integers(0, 4),
)
def test_any_moment_of_any_game_resamples_to_its_view(game: str, seed: int, steps: int, seat: int) -> None:
    rules, deal_class = GAMES[game]
    rng = random.Random(seed)
    deal = new_deal(rules, dealer=seed % rules.players, rng=seed)
    for _ in range(steps):
        if deal.is_over():
            break
        deal.apply(random_action(deal, rng))
    seat %= rules.players
    view = deal.view(seat)
    world = sample_world(view_from_json(view_to_json(view)), rng)
    check_world(world, view, seat, deal_class, rng)
    assert set(cards_of(sum(dealt_hands(world)))) <= set(range(N_CARDS))


def test_a_poignee_of_chosen_trumps_says_nothing_of_the_others() -> None:
    """Rule book §3.10: the seat chooses which trumps its poignée shows (``show T..``), so a trump
    it holds below the highest one shown is not ruled out. The taker keeps a trump of the chien
    (everyone saw it go to his hand) and shows higher ones instead: every other seat's worlds, at
    each of its later decisions, show it its view."""
    for seed in itertools.count():
        assert seed < 3000, "no deal where the taker keeps back a trump of the chien"
        deal = new_deal(Rules(players=4), rng=seed)
        rng = random.Random(seed)
        chien_trumps = deal.chien & TRUMPS_MASK
        bidder = deal.current_player
        if not chien_trumps or ((deal.hands[bidder] | deal.chien) & TRUMPS_MASK).bit_count() < 11:
            continue
        kept_back = 0
        while not deal.is_over():
            legal = deal.legal_actions()
            names = [deal.action_name(a) for a in legal]
            seat = deal.current_player
            if "garde" in names and seat == bidder:
                choice = legal[names.index("garde")]
            elif deal.phase.value == "bidding":
                choice = legal[names.index("pass")]
            elif "poignee simple" in names and seat == bidder:
                choice = legal[names.index("poignee simple")]
            elif any(n.startswith("show T") for n in names):
                shows = {
                    a: parse_card(n.removeprefix("show "))
                    for a, n in zip(legal, names, strict=True)
                    if n.startswith("show T")
                }
                not_chien = [a for a, card in shows.items() if not chien_trumps & BIT[card]]
                choice = max(not_chien or shows)
            else:
                if seat != bidder and deal.taker == bidder and deal.view(seat).poignees:
                    view = deal.view(seat)
                    kept_back |= chien_trumps & deal.hands[bidder] & ~view.poignees[0][2]
                    assert sample_world(view, rng).view(seat) == view
                choice = rng.choice(legal)
            deal.apply(choice)
        if kept_back:
            return
