"""The rules bot's card play compiled with numba (the optional extra ``solver-fast``): a French
deal's card play, 3 to 5 players, finished in a few microseconds instead of a few hundred.

:func:`finish` plays a :class:`~atout.engine.french.FrenchDeal` to its end with the rules bot in
every seat, as :func:`~atout.bots.rules.playout.play_to_end` does, and returns the seats' scores:
the decisions before the card play, and the card play until every seat's declarations (poignée,
misère, before one's first card) are made, go through the Python driver; from there the kernel
plays the cards. It makes the very decisions of the Python policy
(:func:`~atout.bots.rules.play.choose_card` on the table the Python driver builds: the cards
unseen by the seat to play, the voids shown, the sides as that seat knows them, in 5 players the
partner once shown or deduced, the trick) and applies the engine's card rules (following,
trumping and over-trumping, the Excuse, its exchange once the sides are public, the slam
exception, and under ``excuse_last_trick=must_play_before_last`` the Excuse due before the last
trick unless the side as the seat knows it has won every trick, read from a table of the
engine's :func:`~atout.engine.french.known_side`); its
count (the attack's cards, the Petit in the last trick, the attack's tricks) is summed up by the
engine itself (:meth:`~atout.engine.french.FrenchDeal.summary_after_play`) and scored.
``tests/bots/test_playout.py`` checks, over many deals, rules and starting points, that both give
the same scores and the same number of actions.

:class:`PlayJudge` runs the same loop over a card history instead: from a world's hands at the
start of the card play, each card played is compared with the rules bot's card there, for the
expert's inference by plays (:mod:`atout.bots.expert.worlds`).

The kernel does not play a petit imprenable, the dead-player table, or a deal whose card play
(with its declarations) has not begun; :func:`finish` plays those in Python. Cards are two words: the
plain suits (bits 0-55 of the pack, as they are) and the trumps with the Excuse (bits 56-77,
shifted down to 0-21). Without numba (or with ``ATOUT_PLAYOUT_FAST=0``), :func:`finish` is the
Python driver alone.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from typing import Any

from atout.bots.rules import RulesBot
from atout.bots.rules.playout import CardPlayFollower, play_to_end
from atout.cards import EXCUSE, PETIT, TRUMPS_MASK
from atout.engine.french import FrenchDeal, Phase, known_side
from atout.jit import AVAILABLE as NUMBA
from atout.jit import bitlen, inline, jit, lowbit, np, popcount
from atout.rules import Rules
from atout.scoring import FrenchSummary, score

_RULES = RulesBot()

AVAILABLE = NUMBA and os.environ.get("ATOUT_PLAYOUT_FAST") != "0"
"""Whether the card play is compiled: numba installed, and the environment variable
``ATOUT_PLAYOUT_FAST`` not ``0`` (set it to compare with the Python driver)."""
_PLAY = Phase.PLAY
_END = Phase.END

# the two words
PLAIN = (1 << 56) - 1
TRUMPS_T = (1 << 21) - 1
EXC_T = 1 << 21
PETIT_T = 1
T21 = 1 << 20
MID_T = TRUMPS_T & ~PETIT_T & ~T21
M14 = (1 << 14) - 1


def _rank_mask(ranks: Sequence[int]) -> int:
    return sum(1 << (14 * s + r) for s in range(4) for r in ranks)


LOW_P = _rank_mask(range(10))
JACK_P = _rank_mask([10])
CAV_P = _rank_mask([11])
QUEEN_P = _rank_mask([12])
KING_P = _rank_mask([13])

# the header of the input vector
(
    H_N,
    H_TAKER,
    H_TRICKS,
    H_TRICK_NO,
    H_CURRENT,
    H_LED,
    H_TRICK_LEN,
    H_EXCUSE_EARLY,
    H_EXCHANGE_ANY,
    H_ATT_WON_ANY,
    H_DEF_WON_ANY,
    H_ATT_TRICKS,
    H_DEBT,
    H_PETIT_TRICK,
    H_PETIT_WINNER,
    H_PLAYED_P,
    H_PLAYED_T,
    H_ATT_P,
    H_ATT_T,
    H_DEF_P,
    H_DEF_T,
    H_PARTNER,
    H_CALLED,
    H_REVEAL,
    H_PUBLIC,
    H_ALONE,
    H_CALLED_IN_CHIEN,
    H_WON_BY,
    H_SIDES_HIDDEN,
    H_SIDES_PUBLIC,
) = range(30)
HEADER = 30
"""The header's length; ``H_SIDES_HIDDEN`` and ``H_SIDES_PUBLIC``: the seats each seat counts as its
side, the sides hidden and public, five bits a seat (:func:`_sides_of`)."""
SEAT_FIELDS = 7
"""Per seat: hand (plain, trumps), attack (0/1), next seat, voids (suits 0-4 as bits), and the
cards it may not count unseen (plain, trumps: its known écart)."""
OUT_FIELDS = 9
"""Per row: the attack's won cards (plain, trumps), the petit-au-bout seat, the attack's
tricks, the cards played; when judging, the plays judged, how many the rules bot would not have
made, and the first of those (its seat and the rules bot's card; -1 when none)."""


# ------------------------------------------------------------------ card choices within classes
def _cheapest(p: int) -> int:
    """The plain card of ``p`` of least value, lowest first."""
    for cls in (LOW_P, JACK_P, CAV_P, QUEEN_P, KING_P):
        x = p & cls
        if x:
            return int(lowbit(x))
    return -1


def _richest_class(p: int) -> int:
    """The plain cards of ``p`` of the highest value it holds (kings, else queens...)."""
    for cls in (KING_P, QUEEN_P, CAV_P, JACK_P, LOW_P):
        x = p & cls
        if x:
            return x
    return 0


def _value_at_least_5(card: int) -> bool:
    if card >= 56:
        return card in (PETIT, 76, EXCUSE)
    return card % 14 >= 11


def _may_hold(voids: int, suit: int, unseen_p: int, unseen_t: int) -> int:
    """The unseen cards of ``suit`` (0-3 plain, in the plain word; 4 trumps, in the trump word) a
    seat with ``voids`` may hold."""
    if voids >> suit & 1:
        return 0
    if suit == 4:
        return unseen_t & TRUMPS_T
    return unseen_p & (M14 << (14 * suit))


def _can_beat(voids: int, best: int, led: int, unseen_p: int, unseen_t: int) -> bool:
    trumps = _may_hold_jit(voids, 4, unseen_p, unseen_t)
    higher = trumps & ~((2 << (best - 56)) - 1) if best >= 56 else 0
    if led == 4:
        return higher != 0
    follow = _may_hold_jit(voids, led, unseen_p, unseen_t)
    likely_void = popcount(follow) < 2
    if best >= 56:
        return likely_void and higher != 0
    if follow & ~((2 << best) - 1):
        return True
    return bool(likely_void and trumps != 0)


def _beatable(voids: int, cp: int, ct: int, led: int, unseen_p: int, unseen_t: int) -> tuple[int, int]:
    trumps = _may_hold_jit(voids, 4, unseen_p, unseen_t)
    under = ct & ((1 << (bitlen(trumps) - 1)) - 1) if trumps else 0
    if led == 4:
        return 0, under
    follow = _may_hold_jit(voids, led, unseen_p, unseen_t)
    likely_void = popcount(follow) < 2
    beaten_t = under & TRUMPS_T if likely_void else 0
    if likely_void and trumps:
        return cp, beaten_t
    beaten_p = cp & ((1 << (bitlen(follow) - 1)) - 1) if follow else 0
    return beaten_p, beaten_t


def _duck(op: int, ot: int, excuse: bool) -> int:
    """The poorest card (the Petit kept when one can); the Excuse saves a cavalier or better."""
    sp, st = op, ot & ~PETIT_T
    if not (sp | st):
        st = ot
    if sp & LOW_P:
        card = int(lowbit(sp & LOW_P))
    elif sp & JACK_P:
        card = int(lowbit(sp & JACK_P))
    elif st & MID_T:
        card = 56 + int(lowbit(st & MID_T))
    elif sp & CAV_P:
        card = int(lowbit(sp & CAV_P))
    elif sp & QUEEN_P:
        card = int(lowbit(sp & QUEEN_P))
    elif sp & KING_P:
        card = int(lowbit(sp & KING_P))
    else:
        card = 56 + int(lowbit(st))
    if excuse and _value_at_least_5_jit(card):
        return EXCUSE
    return card


def _give(op: int, ot: int) -> int:
    """The richest card for a trick one's side holds for good (the Petit first)."""
    if ot & PETIT_T:
        return PETIT
    if op:
        return int(bitlen(_richest_class_jit(op)) - 1)  # of most value, the highest
    x = ot & ~T21
    if not x:
        x = ot
    return 56 + int(lowbit(x))


def _choose(
    me: int,
    lp: int,
    lt: int,
    seats: Any,
    n: int,
    taker: int,
    trick_p: int,
    trick_t: int,
    cards: Any,
    players: Any,
    trick_len: int,
    led: int,
    in_trick: int,
    unseen_p: int,
    unseen_t: int,
    good: int,
    mine: bool,
    side_won_all: bool,
    lead_low_in: int,
) -> int:
    """:func:`atout.bots.rules.play.choose_card` for seat ``me`` with legal cards ``lp``/``lt``,
    knowing the seats of ``good`` (a mask) to be on its side, ``mine`` whether it is known to be
    on the attack."""
    if popcount(lp) + popcount(lt) == 1:
        return int(lowbit(lp)) if lp else 56 + int(lowbit(lt))
    hp, ht = seats[me, 0], seats[me, 1]
    if lt & EXC_T and popcount(hp) + popcount(ht) <= 2 and not side_won_all:
        return EXCUSE
    if led < 0:  # ------------------------------------------------ a lead
        ap, at = lp, lt & ~EXC_T
        if not (ap | at):
            ap, at = lp, lt
        unseen_trumps = unseen_t & TRUMPS_T
        if at & PETIT_T and not unseen_trumps:
            return PETIT
        if lead_low_in >= 0:  # the called suit from the bottom, to let the called card win it
            cs = ap & (M14 << (14 * lead_low_in))
            u = unseen_p & (M14 << (14 * lead_low_in))
            low = cs & ((1 << (bitlen(u) - 1)) - 1) if u else 0
            if low:
                return int(lowbit(low))
        plain = ap
        for p in range(n):
            if p != me and not in_trick >> p & 1 and not good >> p & 1:
                for s in range(4):
                    if seats[p, 4] >> s & 1:
                        plain &= ~(M14 << (14 * s))
        masters = 0
        for s in range(4):
            cs = plain & (M14 << (14 * s))
            if cs:
                u = unseen_p & (M14 << (14 * s))
                if u:
                    cs &= ~((1 << bitlen(u)) - 1)
                masters |= cs
        if masters:
            return int(lowbit(_richest_class_jit(masters)))  # of most value, the lowest
        x = at & TRUMPS_T & ~PETIT_T
        if x:
            top = int(bitlen(x) - 1)
            if mine and popcount(x) > popcount(unseen_trumps):
                return 56 + top
            if not mine and unseen_t & PETIT_T and not unseen_trumps >> top:
                return 56 + top
        if not mine:
            voids = seats[taker, 4]
            if not voids >> 4 & 1:
                cut = 0
                for s in range(4):
                    if voids >> s & 1:
                        cut |= ap & (M14 << (14 * s))
                if cut:
                    return int(_cheapest_jit(cut))
        if not ap:
            x = at & ~PETIT_T
            if not x:
                x = at
            return 56 + int(lowbit(x))
        longest, count = 0, 0
        for s in range(4):
            k = popcount(ap & (M14 << (14 * s)))
            if k > count:
                longest, count = s, k
        return int(_cheapest_jit(ap & (M14 << (14 * longest))))
    # ------------------------------------------------------------- a follow
    op, ot = lp, lt & ~EXC_T
    body_t = trick_t & TRUMPS_T
    if body_t:
        best = 56 + int(bitlen(body_t) - 1)
    else:
        best = int(bitlen(trick_p & (M14 << (14 * led))) - 1)
    winner = 0
    for i in range(trick_len):
        if cards[i] == best:
            winner = players[i]
    if good >> winner & 1:
        secure = True
        for p in range(n):
            if (
                p != me
                and not in_trick >> p & 1
                and not good >> p & 1
                and _can_beat_jit(seats[p, 4], best, led, unseen_p, unseen_t)
            ):
                secure = False
                break
        if secure:
            return int(_give_jit(op, ot))
    if best >= 56:
        wp, wt = 0, ot & TRUMPS_T & ~((2 << (best - 56)) - 1)
    else:
        wp, wt = op & (M14 << (14 * led)) & ~((2 << best) - 1), ot & TRUMPS_T
    sp, st = wp, wt
    for p in range(n):
        if p != me and not in_trick >> p & 1 and not good >> p & 1:
            bp, bt = _beatable_jit(seats[p, 4], sp, st, led, unseen_p, unseen_t)
            sp &= ~bp
            st &= ~bt
            if not (sp | st):
                break
    if st & PETIT_T:
        return PETIT
    if sp:
        return int(bitlen(_richest_class_jit(sp)) - 1)
    x = st & TRUMPS_T & ~PETIT_T
    if x:
        return 56 + int(lowbit(x))
    if wt & T21:
        return 76
    return int(_duck_jit(op, ot, (lt & EXC_T) != 0))


def _exchange_card(pile_p: int, pile_t: int, any_card: bool) -> int:
    """:func:`atout.engine.french.excuse_exchange_card` of a side's won cards (Excuse left out)."""
    pile_t &= ~EXC_T
    if any_card:
        for r in range(20):  # the half-point cards, lowest rank first, suits then trumps
            if r < 10:
                for s in range(4):
                    if pile_p >> (14 * s + r) & 1:
                        return 14 * s + r
            if r >= 1 and pile_t >> r & 1:
                return 56 + r
        for r in range(10, 14):  # jacks, cavaliers, queens
            if r == 13 and pile_t & PETIT_T:
                return PETIT
            for s in range(4):
                if pile_p >> (14 * s + r) & 1:
                    return 14 * s + r
        if pile_t & PETIT_T:
            return PETIT
        if pile_t & T21:
            return 76
        return -1
    mid = pile_t & MID_T
    if mid:
        return 56 + int(lowbit(mid))
    for r in range(10):
        for s in range(4):
            if pile_p >> (14 * s + r) & 1:
                return 14 * s + r
    return -1


def _same_play(expected: int, card: int) -> bool:
    """:func:`atout.bots.expert.likelihood.same_play`: the same card, or a plain card of the same
    suit and value."""
    if expected == card:
        return True
    if expected >= 56 or card >= 56 or expected // 14 != card // 14:
        return False
    return (expected % 14 < 10 and card % 14 < 10) or expected % 14 == card % 14


def _evaluate(data: Any, script: Any, judging: bool, skip: int, limit: int, out: Any) -> None:
    """Play the deal in ``data`` (see :func:`_pack`) once per row of ``script``, each time from
    the same position: the row's cards (to its first -1) are played in turn, then the rules bot
    in every seat; one row of ``out`` per row of ``script`` (:data:`OUT_FIELDS`).

    ``judging``: play the row's cards only (then stop), and judge each one of a seat other than
    ``skip`` that had a choice against the rules bot's card there (:func:`_same_play`); a row
    stops once more than ``limit`` are not the rules bot's, and a card that is not legal there
    stops it with -1 misses."""
    n = data[H_N]
    taker = data[H_TAKER]
    n_tricks = data[H_TRICKS]
    base = HEADER
    trick_at = base + SEAT_FIELDS * n
    seats = np.empty((n, SEAT_FIELDS), dtype=np.int64)
    cards = np.empty(n, dtype=np.int64)
    players = np.empty(n, dtype=np.int64)
    length = script.shape[1]
    for row in range(script.shape[0]):
        for s in range(n):
            for f in range(SEAT_FIELDS):
                seats[s, f] = data[base + SEAT_FIELDS * s + f]
        trick_len = data[H_TRICK_LEN]
        trick_p = trick_t = 0
        in_trick = 0
        for i in range(trick_len):
            c = data[trick_at + i]
            cards[i] = c
            players[i] = data[trick_at + n + i]
            in_trick |= 1 << players[i]
            if c < 56:
                trick_p |= 1 << c
            else:
                trick_t |= 1 << (c - 56)
        trick_no = data[H_TRICK_NO]
        me = data[H_CURRENT]
        led = data[H_LED]
        excuse_early = data[H_EXCUSE_EARLY] != 0
        exchange_any = data[H_EXCHANGE_ANY] != 0
        att_won_any = data[H_ATT_WON_ANY] != 0
        def_won_any = data[H_DEF_WON_ANY] != 0
        att_tricks = data[H_ATT_TRICKS]
        debt = data[H_DEBT]
        petit_trick = data[H_PETIT_TRICK]
        petit_winner = data[H_PETIT_WINNER]
        played_p, played_t = data[H_PLAYED_P], data[H_PLAYED_T]
        att_p, att_t = data[H_ATT_P], data[H_ATT_T]
        def_p, def_t = data[H_DEF_P], data[H_DEF_T]
        partner = data[H_PARTNER]
        called = data[H_CALLED]
        called_suit = called // 14 if called >= 0 else -1
        reveal = data[H_REVEAL]
        public = data[H_PUBLIC] != 0
        alone = data[H_ALONE] != 0
        called_in_chien = data[H_CALLED_IN_CHIEN] != 0
        won_by = data[H_WON_BY]
        steps = 0
        judged = misses = 0
        miss_seat = miss_card = -1
        excuse_won_last = False
        while trick_no < n_tricks:
            card = script[row, steps] if steps < length else -1
            if judging and card < 0:
                break
            hp, ht = seats[me, 0], seats[me, 1]
            # the legal cards (rule book §3.8), then the rules bot's choice
            lp, lt = hp, ht
            if led >= 0:
                follow = hp & (M14 << (14 * led)) if led < 4 else 0
                if follow:
                    lp, lt = follow, ht & EXC_T
                else:
                    trumps = ht & TRUMPS_T
                    if trumps:
                        top = bitlen(trick_t & TRUMPS_T)
                        higher = (trumps >> top) << top
                        lp, lt = 0, (higher if higher else trumps) | (ht & EXC_T)
            elif called >= 0 and trick_no == 0 and trick_len == 0:
                # in 5 players the first card may not be of the called suit, but the called card
                allowed = hp & ~((M14 << (14 * called_suit)) & ~(1 << called))
                if allowed | ht:
                    lp = allowed
            if excuse_early and ht & EXC_T and popcount(hp) + popcount(ht) == 2:
                # rule book §3.8 step 1: the Excuse now, unless the side as this seat knows it
                # (§4.3: the engine's known_side, read from the header) has won every trick so far
                side = (data[H_SIDES_PUBLIC if public else H_SIDES_HIDDEN] >> (5 * me)) & 31
                if won_by & ~side:
                    lp, lt = 0, EXC_T
            judge = judging and me != skip and popcount(lp) + popcount(lt) > 1
            if judging and not ((lp >> card & 1) if card < 56 else (lt >> (card - 56) & 1)):
                misses = -1
                break
            if card < 0 or judge:
                unseen_p = PLAIN & ~seats[me, 5] & ~played_p & ~hp
                unseen_t = (TRUMPS_T | EXC_T) & ~seats[me, 6] & ~played_t & ~ht
                # the sides as this seat knows them (5 players: the partner once shown or deduced)
                known = True
                attack = (1 << taker) | ((1 << partner) if partner >= 0 else 0)
                if n == 5:
                    shown = -2
                    if partner >= 0 and (public or me == partner):
                        shown = partner
                    elif called < 0:
                        pass
                    elif alone or called_in_chien or (me == taker and hp >> called & 1):
                        shown = -1
                    elif me != taker:
                        count = 0
                        for p in range(n):
                            if p != taker and p != me and not seats[p, 4] >> called_suit & 1:
                                count += 1
                                shown = p if count == 1 else -2
                    known = shown != -2
                    attack = (1 << taker) | ((1 << shown) if shown >= 0 else 0)
                mine = (attack >> me & 1) != 0
                good = 1 << me
                if known:
                    good |= attack if mine else ((1 << n) - 1) & ~attack
                choice = _choose_jit(
                    me,
                    lp,
                    lt,
                    seats,
                    n,
                    taker,
                    trick_p,
                    trick_t,
                    cards,
                    players,
                    trick_len,
                    led,
                    in_trick,
                    unseen_p,
                    unseen_t,
                    good,
                    mine,
                    (won_by & ~good) == 0,
                    called_suit if me == taker and not known else -1,
                )
                if not judge:
                    card = choice
                else:
                    judged += 1
                    if not _same_play_jit(choice, card):
                        misses += 1
                        if miss_seat < 0:
                            miss_seat, miss_card = me, choice
                        if misses > limit:
                            break
            # play it
            if card < 56:
                seats[me, 0] = hp & ~(1 << card)
                trick_p |= 1 << card
                played_p |= 1 << card
                suit = card // 14
            else:
                seats[me, 1] = ht & ~(1 << (card - 56))
                trick_t |= 1 << (card - 56)
                played_t |= 1 << (card - 56)
                suit = 4 if card != EXCUSE else -1
            if suit >= 0:
                if led < 0:
                    led = suit
                elif suit != led:
                    seats[me, 4] |= 1 << led
                    if suit != 4:
                        seats[me, 4] |= 1 << 4
            if card == reveal:  # the called card shows the sides (or that the taker is alone)
                public = True
                reveal = -1
                if me == taker:
                    alone = True
            cards[trick_len] = card
            players[trick_len] = me
            trick_len += 1
            in_trick |= 1 << me
            steps += 1
            if trick_len < n:
                me = seats[me, 3]
                continue
            # the trick is complete
            body_t = trick_t & TRUMPS_T
            if body_t:
                best = 56 + int(bitlen(body_t) - 1)
            else:
                best = int(bitlen(trick_p & (M14 << (14 * led))) - 1)
            winner = 0
            owner = -1
            for i in range(n):
                if cards[i] == best:
                    winner = players[i]
                if cards[i] == EXCUSE:
                    owner = players[i]
            won_p, won_t = trick_p, trick_t
            if owner >= 0:
                last = trick_no == n_tricks - 1
                owner_attack = seats[owner, 2]
                owner_won_all = not (def_won_any if owner_attack else att_won_any)
                if last and cards[0] == EXCUSE and owner_won_all:
                    winner = owner  # rule book §3.9 slam exception
                    excuse_won_last = True
                elif owner != winner and not last:
                    won_t &= ~EXC_T  # the Excuse returns to its side, a low card is owed
                    if owner_attack:
                        att_t |= EXC_T
                    else:
                        def_t |= EXC_T
                    if owner_attack != seats[winner, 2]:
                        debt = owner_attack
            won_by |= 1 << winner
            if seats[winner, 2]:
                att_p |= won_p
                att_t |= won_t
                att_won_any = True
                att_tricks += 1
            else:
                def_p |= won_p
                def_t |= won_t
                def_won_any = True
            if trick_t & PETIT_T:
                petit_trick, petit_winner = trick_no, winner
            trick_no += 1
            trick_len = 0
            trick_p = trick_t = 0
            in_trick = 0
            led = -1
            me = winner
            if debt >= 0 and (public or trick_no == n_tricks):
                # the side that owes hands a low card to the other (once the sides are known)
                if debt:
                    given = _exchange_card_jit(att_p, att_t, exchange_any)
                else:
                    given = _exchange_card_jit(def_p, def_t, exchange_any)
                if given >= 0:
                    gp = (1 << given) if given < 56 else 0
                    gt = (1 << (given - 56)) if given >= 56 else 0
                    if debt:
                        att_p, att_t, def_p, def_t = att_p & ~gp, att_t & ~gt, def_p | gp, def_t | gt
                    else:
                        att_p, att_t, def_p, def_t = att_p | gp, att_t | gt, def_p & ~gp, def_t & ~gt
                    debt = -1
        pab = -1
        if petit_trick == n_tricks - 1 or (excuse_won_last and petit_trick == n_tricks - 2):
            pab = petit_winner
        out[row, 0] = att_p
        out[row, 1] = att_t
        out[row, 2] = pab
        out[row, 3] = att_tricks
        out[row, 4] = steps
        out[row, 5] = judged
        out[row, 6] = misses
        out[row, 7] = miss_seat
        out[row, 8] = miss_card


def _judge_world(
    data: Any, script: Any, words: Any, sides: Any, taker: int, called: int, skip: int, limit: int, out: Any
) -> None:
    """:func:`_evaluate` judging ``script`` in the world whose hands at the start of the card
    play are ``words`` (plain and trump words by seat, then the taker's écart): the partner and
    the sides (from ``sides``: the header's two words for each partner, -1 first) written into
    ``data`` first."""
    n = data[H_N]
    partner = -1
    if called >= 0:
        for s in range(n):
            if s != taker and words[2 * s] >> called & 1:
                partner = s
    data[H_PARTNER] = partner
    data[H_SIDES_HIDDEN] = sides[2 * (partner + 1)]
    data[H_SIDES_PUBLIC] = sides[2 * (partner + 1) + 1]
    for s in range(n):
        at = HEADER + SEAT_FIELDS * s
        data[at] = words[2 * s]
        data[at + 1] = words[2 * s + 1]
        data[at + 2] = 1 if (s == taker) | (s == partner) else 0
    at = HEADER + SEAT_FIELDS * taker
    data[at + 5] = words[2 * n]
    data[at + 6] = words[2 * n + 1]
    _evaluate_jit(data, script, True, skip, limit, out)


if NUMBA:
    _cheapest_jit: Any = inline(_cheapest)
    _richest_class_jit: Any = inline(_richest_class)
    _value_at_least_5_jit: Any = inline(_value_at_least_5)
    _may_hold_jit: Any = inline(_may_hold)
    _can_beat_jit: Any = inline(_can_beat)
    _beatable_jit: Any = inline(_beatable)
    _duck_jit: Any = inline(_duck)
    _give_jit: Any = inline(_give)
    _same_play_jit: Any = inline(_same_play)
    _choose_jit: Any = jit(_choose)
    _exchange_card_jit: Any = jit(_exchange_card)
    _evaluate_jit: Any = jit(_evaluate)
    _judge_world_jit: Any = jit(_judge_world)


# ------------------------------------------------------------------ the Python side
def compiles(deal: FrenchDeal) -> bool:
    """Whether the kernel plays this deal from here: numba installed, only cards left to play, no
    petit imprenable (and not the inner deal of a dead-player table, which the Python driver plays
    through views)."""
    return (
        AVAILABLE
        and deal.only_cards_left
        and deal.petit_imprenable_seat < 0
        and not (deal.n == 5 and deal.rules.five_player_mode == "dead_player")
    )


@functools.cache
def _sides_of(n: int, taker: int, partner: int) -> tuple[int, int]:
    """The header's ``H_SIDES_HIDDEN`` and ``H_SIDES_PUBLIC``: the seats each seat counts as its side
    (:func:`~atout.engine.french.known_side`, five bits a seat), the sides hidden and public."""
    hidden, public = (
        sum(known_side(s, taker, partner, n, shown) << (5 * s) for s in range(n)) for shown in (False, True)
    )
    return hidden, public


def _pack(deal: FrenchDeal, follower: CardPlayFollower | None = None) -> Any:
    """The input vector of :func:`_evaluate` for ``deal`` (which :func:`compiles`); ``follower``:
    what the seats have seen (a follower of this deal, or of another world of the same view: only
    its public fields are read)."""
    n, taker = deal.n, deal.taker
    known = follower or CardPlayFollower(deal)  # what the seats have seen, as the Python driver reads it
    attack = [1 if deal.is_attack(s) else 0 for s in range(n)]
    voids = [sum(1 << suit for suit in known.voids.get(s, ())) for s in range(n)]
    att_won_any = def_won_any = att_tricks = 0
    petit_trick = petit_winner = -1
    for i, (_, trick_cards, winner) in enumerate(deal.tricks):
        if PETIT in trick_cards:
            petit_trick, petit_winner = i, winner
        if attack[winner]:
            att_won_any, att_tricks = 1, att_tricks + 1
        else:
            def_won_any = 1
    att = dfn = 0
    for seat in range(n):
        if attack[seat]:
            att |= deal.won[seat]
        else:
            dfn |= deal.won[seat]
    debt = -1
    for owner, winner in deal.excuse_debts:
        if attack[owner] != attack[winner]:
            debt = attack[owner]
    rules = deal.rules
    played = known.played
    current = known.plays
    header = [
        n,
        taker,
        deal.n_tricks,
        deal.trick_no,
        deal.current_player,
        known.led,
        len(current),
        1 if rules.excuse_last_trick == "must_play_before_last" else 0,
        1 if rules.excuse_exchange_card == "any_won_card" else 0,
        att_won_any,
        def_won_any,
        att_tricks,
        debt,
        petit_trick,
        petit_winner,
        played & PLAIN,
        played >> 56,
        att & PLAIN,
        att >> 56,
        dfn & PLAIN,
        dfn >> 56,
        deal.partner,
        deal.called_card,
        deal.reveal_card,
        1 if deal.sides_public else 0,
        1 if known.alone else 0,
        1 if known.called_in_chien else 0,
        known.won_by,
        *_sides_of(n, taker, deal.partner),
    ]
    ecart = deal.ecart
    for seat in range(n):
        hand = deal.hands[seat]
        seen = ecart if seat == taker else ecart & TRUMPS_MASK
        header += [hand & PLAIN, hand >> 56, attack[seat], deal.next_seat(seat), voids[seat]]
        header += [seen & PLAIN, seen >> 56]
    header += [card for _, card in current] + [0] * (n - len(current))
    header += [seat for seat, _ in current] + [0] * (n - len(current))
    return np.array(header, dtype=np.int64)


class Outcome:
    """The end of a deal played out: each seat's score, the summary (``None`` for a deal that
    ended before its card play) and the number of actions the playout applied."""

    __slots__ = ("scores", "steps", "summary")

    def __init__(self, scores: list[int], summary: FrenchSummary | None, steps: int) -> None:
        self.scores = scores
        self.summary = summary
        self.steps = steps


def finish_each(
    deal: FrenchDeal, cards: Sequence[int], shared: dict[str, Any] | None = None
) -> list[Outcome]:
    """For each card of ``cards`` (legal for the seat to play in ``deal``, which
    :func:`compiles`), the outcome of playing it and then the rules bot everywhere to the end; the
    deal is not changed. ``shared``: a dict kept for the worlds of one view (they have the same
    public past), where what they have in common is read once."""
    follower = None
    if shared is not None:
        follower = shared.get("follower")
        if follower is None:
            follower = shared["follower"] = CardPlayFollower(deal)
    data = _pack(deal, follower)
    script = np.array(cards, dtype=np.int64).reshape(len(cards), 1)
    out = np.zeros((len(cards), OUT_FIELDS), dtype=np.int64)
    _evaluate_jit(data, script, False, -1, 0, out)
    extra = deal.ecart | (deal.chien if deal.contract == "garde_sans" else 0)
    seen: dict[tuple[int, int, int], tuple[list[int], FrenchSummary]] = {}
    outcomes = []
    for att_p, att_t, pab, tricks, steps, *_ in out.tolist():
        key = (att_p | att_t << 56 | extra, pab, tricks)
        found = seen.get(key)
        if found is None:
            summary = deal.summary_after_play(*key)
            found = seen[key] = (score(summary), summary)
        outcomes.append(Outcome(list(found[0]), found[1], steps))
    return outcomes


class PlayJudge:
    """The card plays of a French deal judged against the rules bot's, world by world: built from
    one world of a seat's view (a deal in its card play, which :func:`compiles`) and the cards
    played so far, :meth:`judge` replays those cards from the start of the card play of another
    world of that view (its hands then) and tells which plays of the other seats the rules bot,
    in their seats of that world, would not have made (:func:`_same_play`), as
    :func:`atout.bots.expert.worlds.rebuild_weighted` judges them in its replay."""

    def __init__(self, world: FrenchDeal, plays: Sequence[int], seat: int) -> None:
        n, taker, rules = world.n, world.taker, world.rules
        self.n, self.taker, self.called = n, taker, world.called_card
        first = (
            world.tricks[0][0][0]
            if world.tricks
            else (world.trick_seat_order() or (world.current_player,))[0]
        )
        shown = world.contract in ("petite", "pousse", "garde")
        in_chien = self.called >= 0 and shown and bool(world.chien >> self.called & 1)
        header = [0] * HEADER
        header[H_N], header[H_TAKER], header[H_TRICKS] = n, taker, world.n_tricks
        header[H_CURRENT], header[H_LED] = first, -1
        header[H_EXCUSE_EARLY] = 1 if rules.excuse_last_trick == "must_play_before_last" else 0
        header[H_EXCHANGE_ANY] = 1 if rules.excuse_exchange_card == "any_won_card" else 0
        header[H_DEBT] = header[H_PETIT_TRICK] = header[H_PETIT_WINNER] = -1
        header[H_CALLED] = self.called
        header[H_REVEAL] = self.called if n == 5 and not in_chien else -1
        header[H_PUBLIC] = 1 if n < 5 or in_chien else 0
        header[H_CALLED_IN_CHIEN] = 1 if in_chien else 0
        shown_trumps = world.ecart & TRUMPS_MASK
        for s in range(n):
            header += [0, 0, 0, world.next_seat(s), 0, shown_trumps & PLAIN, shown_trumps >> 56]
        header += [0] * (2 * n)
        self.data = np.array(header, dtype=np.int64)
        self.sides = np.array([w for p in range(-1, n) for w in _sides_of(n, taker, p)], dtype=np.int64)
        self.script = np.array([list(plays)], dtype=np.int64).reshape(1, len(plays))
        self.seat = seat
        self.out = np.zeros((1, OUT_FIELDS), dtype=np.int64)

    def judge(self, hands: Sequence[int], ecart: int, limit: int = 1 << 30) -> tuple[int, int, int, int]:
        """For a world whose seats held ``hands`` when the card play began and whose taker put
        ``ecart`` aside: the plays judged, how many the rules bot would not have made (-1 if a
        card is not legal there), and the seat and the rules bot's card at the first of those
        (-1, -1 if none); stops once more than ``limit`` are not the rules bot's."""
        words = [w for hand in hands for w in (hand & PLAIN, hand >> 56)] + [ecart & PLAIN, ecart >> 56]
        out = self.out
        _judge_world_jit(
            self.data,
            self.script,
            np.array(words, dtype=np.int64),
            self.sides,
            self.taker,
            self.called,
            self.seat,
            limit,
            out,
        )
        return int(out[0, 5]), int(out[0, 6]), int(out[0, 7]), int(out[0, 8])


def finish(deal: FrenchDeal) -> Outcome:
    """Play ``deal`` to its end with the rules bot in every seat (the decisions of
    :func:`~atout.bots.rules.playout.play_to_end`) and return the outcome; the deal is left
    where the kernel took over (or at its end)."""
    steps = 0
    if AVAILABLE and not (deal.n == 5 and deal.rules.five_player_mode == "dead_player"):
        while not deal.is_over() and not deal.only_cards_left:
            if deal.phase is _PLAY:
                follower = CardPlayFollower(deal)
                while deal.phase is _PLAY and not deal.only_cards_left:
                    follower.play(follower.rules_card())
                    steps += 1
            else:
                steps += _one_decision(deal)
        if compiles(deal):
            outcome = finish_each(deal, [-1])[0]
            outcome.steps += steps
            return outcome
    steps += play_to_end(deal)
    return Outcome(deal.scores(), deal.summary, steps)


def _one_decision(deal: FrenchDeal) -> int:
    """One decision before the card play or a declaration, by the rules bot (through the view)."""
    deal.apply(_RULES.choose(deal.view(deal.current_player), deal.legal_actions()))
    return 1


def warm_up() -> None:
    """Compile the kernel (or load it from numba's cache)."""
    if AVAILABLE:
        finish(FrenchDeal.new(Rules(players=4), dealer=0, rng=1))


__all__ = ["AVAILABLE", "Outcome", "PlayJudge", "compiles", "finish", "finish_each", "warm_up"]
