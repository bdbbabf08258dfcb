"""rule book §3.6 the chelem announcement and §3.7 the poignée."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from atout.cards import EXCUSE, EXCUSE_MASK, TRUMPS_MASK, CardSet, card_name
from atout.engine import FrenchDeal, IllegalActionError, Phase
from atout.engine.actions import POIGNEE_ACTIONS
from atout.engine.events import visible_to

from .conftest import MakeDeal

Act = Callable[..., FrenchDeal]

ALL_BUT_LOW_TRUMPS = " ".join(f"T{n}" for n in range(4, 22))  # 18 trumps, T4..T21


def taker_plays_high(deal: FrenchDeal) -> FrenchDeal:
    """Play out: the taker plays his highest legal card, everyone else the Excuse as soon as
    they may, otherwise their lowest legal card."""
    while not deal.is_over():
        legal = deal.legal_actions()
        if deal.phase is Phase.POIGNEE:
            deal.apply(legal[0])
        elif deal.current_player == deal.taker:
            deal.apply(max(legal, key=lambda a: -1 if card_name(a.card or 0) == "EX" else int(a)))
        else:
            deal.apply(legal[-1] if legal[-1].card == EXCUSE else legal[0])
    return deal


def test_the_chelem_announcer_leads_the_first_trick_3_6(make_deal: MakeDeal, act: Act) -> None:
    deal = make_deal(dealer=0)
    act(deal, "pass", "garde_sans", "pass", "pass")
    assert deal.phase is Phase.CHELEM and deal.current_player == 2
    assert [str(a) for a in deal.legal_actions()] == ["no_chelem", "chelem"]
    act(deal, "chelem")
    assert deal.chelem_announced and deal.current_player == 2


def test_without_announcement_the_dealers_right_leads_3_8(make_deal: MakeDeal, act: Act) -> None:
    deal = act(make_deal(dealer=0), "pass", "garde_sans", "pass", "pass", "no_chelem")
    assert deal.current_player == 1


def test_announcer_need_not_lead_under_the_variant_3_6(make_deal: MakeDeal, act: Act) -> None:
    deal = act(
        make_deal(dealer=0, chelem_announcer_leads=False), "pass", "garde_sans", "pass", "pass", "chelem"
    )
    assert deal.current_player == 1


def test_taker_leads_under_first_leader_taker_3_8(make_deal: MakeDeal, act: Act) -> None:
    deal = act(make_deal(dealer=0, first_leader="taker"), "pass", "pass", "garde_sans", "pass", "no_chelem")
    assert deal.current_player == 3


def test_chelem_decided_after_the_ecart_in_petite_and_garde_3_6(make_deal: MakeDeal, act: Act) -> None:
    deal = act(make_deal(), "petite", "pass", "pass", "pass")
    assert deal.phase is Phase.DISCARD
    with pytest.raises(IllegalActionError, match="discard phase"):
        act(deal, "chelem")


def test_announced_chelem_made_with_defence_excuse_counts_87_3_9_3_11(make_deal: MakeDeal, act: Act) -> None:
    deal = make_deal(hands={0: ALL_BUT_LOW_TRUMPS, 1: "EX"})
    act(deal, "garde", "pass", "pass", "pass")
    for _ in range(6):
        act(deal, str(deal.legal_actions()[0]))
    act(deal, "chelem")
    taker_plays_high(deal)
    summary = deal.summary
    assert summary is not None
    assert deal.trick_winners == [0] * 18
    assert summary.chelem_announced and summary.chelem_won_by == "attack"
    excuse_holder = next(s for s in range(4) if deal.initial_hands[s] & EXCUSE_MASK)
    assert excuse_holder != 0 and deal.won[excuse_holder] == EXCUSE_MASK
    # the Excuse stays with the defence, which has no card to give back: 86.5, counted 87
    assert summary.half_points == 173
    assert deal.scores()[0] > 0


def test_excuse_led_to_the_last_trick_wins_it_and_petit_in_penultimate_is_au_bout_3_9(
    make_deal: MakeDeal, act: Act
) -> None:
    hand = "EX T1 " + " ".join(f"T{n}" for n in range(6, 22))
    deal = make_deal(hands={0: hand})
    act(deal, "garde_sans", "pass", "pass", "pass", "chelem")
    act(deal, "no_poignee")
    while deal.trick_no < 16:
        legal = deal.legal_actions()
        if deal.phase is Phase.POIGNEE:
            deal.apply(legal[0])
        elif deal.current_player == 0:
            deal.apply(max(legal, key=lambda a: -1 if a.card == 77 else int(a)))
        else:
            deal.apply(legal[0])
    assert deal.current_player == 0
    act(deal, "T1", *[str(deal.legal_actions()[0]) for _ in range(0)])
    while deal.trick_no < 17:
        deal.apply(deal.legal_actions()[0])
    assert deal.trick_winners[16] == 0
    act(deal, "EX")
    while not deal.is_over():
        deal.apply(deal.legal_actions()[0])
    assert deal.trick_winners[17] == 0
    summary = deal.summary
    assert summary is not None
    assert summary.chelem_won_by == "attack" and summary.petit_au_bout == "attack"
    assert summary.half_points == 182


@pytest.mark.parametrize(("players", "levels"), [(3, (13, 15, 18)), (4, (10, 13, 15)), (5, (8, 10, 13))])
def test_poignee_sizes_by_player_count_3_7(
    make_deal: MakeDeal, act: Act, players: int, levels: tuple[int, ...]
) -> None:
    for level, size in enumerate(levels, start=1):
        trumps = " ".join(f"T{n}" for n in range(2, 2 + size))
        deal = make_deal(players=players, hands={0: trumps + " KS"})
        held = (deal.hands[0] & TRUMPS_MASK).bit_count()
        act(deal, "garde_sans", *["pass"] * (players - 1))
        if players == 5:
            act(deal, "call KH")
        act(deal, "no_chelem")
        assert deal.phase is Phase.POIGNEE and deal.current_player == 0
        offered = [a.poignee_level for a in deal.legal_actions()]
        expected = [lv for lv, s in enumerate(levels, start=1) if held >= s]
        assert offered == [0, *expected] and level in offered


def test_a_lower_poignee_may_be_declared_and_extra_trumps_stay_hidden_3_7(
    make_deal: MakeDeal, act: Act
) -> None:
    trumps = " ".join(f"T{n}" for n in range(2, 15))  # 13 trumps
    deal = make_deal(hands={0: trumps + " KS KH KD KC 1S"})
    act(deal, "garde_sans", "pass", "pass", "pass", "no_chelem", "poignee simple", "show_default")
    seat, level, shown = deal.poignees[0]
    assert (seat, level) == (0, 1)
    assert shown == CardSet.parse(" ".join(f"T{n}" for n in range(2, 12))).mask  # the lowest ten
    event = next(e for e in deal.events if e.kind == "poignee")
    assert visible_to(event) is None and (event.level, event.cards) == ("simple", shown)
    assert deal.phase is Phase.PLAY and deal.current_player == 0


def test_the_player_chooses_which_trumps_a_poignee_shows_3_7(make_deal: MakeDeal, act: Act) -> None:
    trumps = " ".join(f"T{n}" for n in range(2, 15))  # 13 trumps: 3 of them stay hidden
    deal = make_deal(hands={0: trumps + " KS KH KD KC 1S"})
    act(deal, "garde_sans", "pass", "pass", "pass", "no_chelem", "poignee simple")
    assert deal.phase is Phase.POIGNEE and deal.current_player == 0 and not deal.poignees
    legal = [str(a) for a in deal.legal_actions()]
    assert legal == ["show_default", *(f"show T{n}" for n in range(2, 15))]
    act(deal, "show T14", "show T13")
    assert "show T14" not in [str(a) for a in deal.legal_actions()]
    with pytest.raises(IllegalActionError, match=r"§3\.7"):
        act(deal, "show T14")  # each trump once
    with pytest.raises(IllegalActionError, match=r"§3\.7"):
        act(deal, "show T21")  # not in the hand
    with pytest.raises(ValueError, match="trumps"):
        deal.parse("show KS")
    act(deal, "show_default")  # the rest: the lowest
    shown = deal.poignees[0][2]
    assert shown == CardSet.parse("T14 T13 T2 T3 T4 T5 T6 T7 T8 T9").mask
    assert deal.phase is Phase.PLAY and deal.current_player == 0


def test_a_display_chosen_card_by_card_ends_at_its_size_3_7(make_deal: MakeDeal, act: Act) -> None:
    trumps = " ".join(f"T{n}" for n in range(2, 15))
    deal = make_deal(hands={0: trumps + " KS KH KD KC 1S"})
    act(deal, "garde_sans", "pass", "pass", "pass", "no_chelem", "poignee simple")
    chosen = [f"T{n}" for n in range(5, 15)]
    act(deal, *(f"show {c}" for c in chosen))
    assert deal.poignees[0][2] == CardSet.parse(" ".join(chosen)).mask
    assert deal.phase is Phase.PLAY and [e.kind for e in deal.events].count("poignee") == 1
    assert deal.view(1).poignees == ((0, "simple", CardSet.parse(" ".join(chosen)).mask),)


def test_excuse_completes_a_poignee_only_when_every_trump_is_shown_3_7(make_deal: MakeDeal, act: Act) -> None:
    nine = " ".join(f"T{n}" for n in range(2, 11))
    deal = make_deal(hands={0: nine + " EX KS KH KD KC 1S 2S 3S 4S"})
    act(deal, "garde_sans", "pass", "pass", "pass", "no_chelem")
    assert [a.poignee_level for a in deal.legal_actions()] == [0, 1]
    act(deal, "poignee simple")
    shown = deal.poignees[0][2]
    assert shown == deal.initial_hands[0] & (TRUMPS_MASK | EXCUSE_MASK)
    # with ten trumps and the Excuse, the display is ten trumps and no Excuse
    ten = " ".join(f"T{n}" for n in range(2, 12))
    deal = make_deal(hands={0: ten + " EX KS KH KD KC 1S 2S 3S"})
    act(deal, "garde_sans", "pass", "pass", "pass", "no_chelem", "poignee simple")
    assert not deal.poignees[0][2] & EXCUSE_MASK and deal.poignees[0][2].bit_count() == 10


def test_poignee_is_declared_just_before_ones_first_card_3_7(make_deal: MakeDeal, act: Act) -> None:
    trumps = " ".join(f"T{n}" for n in range(2, 12))
    deal = make_deal(hands={2: trumps + " KS KH KD KC 1S 2S 3S 4S"})
    act(deal, "garde_sans", "pass", "pass", "pass", "no_chelem")
    assert deal.phase is Phase.PLAY and deal.current_player == 0
    deal.apply(deal.legal_actions()[0])
    deal.apply(deal.legal_actions()[0])
    assert deal.phase is Phase.POIGNEE and deal.current_player == 2
    with pytest.raises(IllegalActionError, match="poignee phase"):
        deal.apply(deal.legal_actions()[0].card or 0)
    act(deal, "poignee simple")
    assert deal.phase is Phase.PLAY and deal.current_player == 2
    with pytest.raises(IllegalActionError):
        deal.apply(POIGNEE_ACTIONS[1])


def test_taker_counts_trumps_shown_in_the_ecart_3_7(make_deal: MakeDeal, act: Act) -> None:
    hand = "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T1 EX KS KH KD KC"
    deal = make_deal(hands={0: hand}, chien="1S 2S 3S T9 T8 T7")
    act(deal, "garde", "pass", "pass", "pass")
    act(deal, "1S", "2S", "3S", "T7", "T8", "T9")
    act(deal, "no_chelem")
    # 13 trumps left in hand + 3 shown in the écart = 16 trumps: up to a triple
    assert (deal.hands[0] & TRUMPS_MASK).bit_count() == 13
    assert [a.poignee_level for a in deal.legal_actions()] == [0, 1, 2, 3]
    act(deal, "poignee simple")
    assert "show T8" in [str(a) for a in deal.legal_actions()]  # écart trumps may be shown
    act(deal, "show_default")
    shown = CardSet(deal.poignees[0][2])
    assert len(shown) == 10
    assert {"T7", "T8", "T9"} <= {card_name(c) for c in shown}  # by default, first


def test_poignee_side_in_the_summary_3_7(make_deal: MakeDeal, act: Act) -> None:
    trumps = " ".join(f"T{n}" for n in range(2, 12))
    deal = make_deal(hands={1: trumps + " KS KH KD KC 1S 2S 3S 4S"})
    act(deal, "garde_sans", "pass", "pass", "pass", "no_chelem")
    while not deal.is_over():
        legal = deal.legal_actions()
        deal.apply(legal[-1] if deal.phase is Phase.POIGNEE else legal[0])
    assert deal.summary is not None
    assert [(p.side, p.level, p.seat) for p in deal.summary.poignees] == [("defense", "simple", 1)]
