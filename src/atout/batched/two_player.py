"""2-player French Tarot deals stepped together in compiled code (numba): a copy of
:mod:`atout.engine.two_player` for training, proven equal to it by ``tests/batched/test_two_player.py``.

A set of cards is two ``int64`` words: the plain suits (bits 0-55, the engine's card indices) and
the trumps (bit ``t`` is trump ``t + 1``, bit 21 the Excuse); the k-th legal action is the k-th
set bit counting the plain word first, as the engine orders its actions. A deal is one row of an
``int64`` state array (fields below): hands, pile tops, the 2 × 6 piles of 3 cards bottom → top
and their heights, the trick, the won piles and the Excuse's debt. Every option the 2-player engine
reads is played: the chelem announcement and who leads after it, the Excuse's last trick and
exchange card, the threshold with no bout, the margin's rounding and the chelem values.

>>> from atout.rules import Rules
>>> batch = TwoPlayerBatch(Rules(players=2), size=2, seed=1)
>>> batch.current_player().tolist(), int(batch.legal_mask()[0].sum()) >= 21
([1, 1], True)
>>> int(random_two_player_deals(Rules(players=2), 5, seed=2).sum())
0
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from atout.batched.bits import bounded, draw, need_numba, nth_bit, seed_stream, shuffle, xorshift
from atout.cards import (
    BOUTS_MASK,
    CAVALIERS_MASK,
    EXCUSE,
    HALF_POINTS,
    JACKS_MASK,
    KINGS_MASK,
    LOW_CARDS_MASK,
    MIDDLE_TRUMPS_MASK,
    N_CARDS,
    PETIT,
    PLAIN_SUITS_MASK,
    QUEENS_MASK,
    card_name,
    cards_of,
)
from atout.engine import actions
from atout.engine.two_player import TwoPlayerDeal, check_two_player_rules
from atout.jit import AVAILABLE, bitlen, inline, jit, lowbit, np, popcount
from atout.rules import Rules

N_ACTIONS: Final = actions.N_ACTIONS
NO_CHELEM: Final = int(actions.NO_CHELEM)
ANNOUNCE_CHELEM: Final = int(actions.ANNOUNCE_CHELEM)
TRUMP_BITS: Final = (1 << 21) - 1
"""Trumps 1-21 in the trump word."""
EXCUSE_T: Final = 1 << 21
PETIT_T: Final = 1
BOUTS_T: Final = BOUTS_MASK >> 56
NINES_P: Final = KINGS_MASK
QUEENS_P: Final = QUEENS_MASK
CAVALIERS_P: Final = CAVALIERS_MASK
JACKS_P: Final = JACKS_MASK
SUIT_P: Final = tuple(((1 << 14) - 1) << (14 * s) for s in range(4))
LAST_TRICK: Final = 38
TRICKS: Final = 39


def _exchange_key(card: int) -> tuple[int, int]:
    return (card % 14, card // 14) if card < PETIT else (card - PETIT, 4)


EXCHANGE_ORDER: Final = {
    "low": (
        *cards_of(MIDDLE_TRUMPS_MASK),
        *sorted(cards_of(LOW_CARDS_MASK & PLAIN_SUITS_MASK), key=_exchange_key),
    ),
    "any_won_card": tuple(sorted(range(EXCUSE), key=lambda c: (HALF_POINTS[c], _exchange_key(c)))),
}
"""The cards a player may hand over for his Excuse, the first one he holds first (as
:func:`atout.engine.french.excuse_exchange_card` chooses)."""

# phases
CHELEM, PLAY, END = 0, 1, 2
# state fields of one deal (one int64 row)
F_PHASE, F_PLAYER = 0, 1
F_HAND_P, F_HAND_T, F_TOP_P, F_TOP_T = 2, 4, 6, 8  # 2 seats each
F_PILES = 10  # 2 seats × 6 piles × 3 cards, bottom → top
F_HEIGHT = 46  # 2 seats × 6 piles
F_PENDING = 58  # 2 seats: the pile whose next card turns up at the end of the trick, or -1
F_CHELEM_BY, F_LEADER, F_LED, F_TRICK_P, F_TRICK_T, F_NTRICK, F_FIRST, F_TRICK_NO = range(60, 68)
F_WON_P, F_WON_T, F_WINS = 68, 70, 72  # 2 seats each; F_WINS counts the tricks won
F_DEBT_OWNER, F_DEBT_WINNER, F_EXCUSE_WON_LAST = 74, 75, 76
F_LAST_WINNER, F_PREV_WINNER, F_PETIT_TRICK = 77, 78, 79
F_SCORE, F_DEALT_P, F_DEALT_T = 80, 82, 84  # 2 seats each
N_FIELDS: Final = 86
# options (one int64 vector)
O_CHELEM, O_ANNOUNCER_LEADS, O_EXCUSE_BEFORE_LAST, O_THRESHOLD_0 = 0, 1, 2, 3
O_ROUND_TO, O_ROUND_UP, O_ANNOUNCED_MADE, O_UNANNOUNCED_MADE, O_ANNOUNCED_FAILED, O_DEFENSE_SLAM = range(
    4, 10
)
N_OPTIONS: Final = 10


def options(rules: Rules) -> tuple[Any, Any]:
    """The rules as the kernels' option vector and Excuse exchange order (the engine's own
    check refuses what the 2-player game does not play, naming the option)."""
    check_two_player_rules(rules)
    values = [0] * N_OPTIONS
    values[O_CHELEM] = int(rules.two_player_chelem)
    values[O_ANNOUNCER_LEADS] = int(rules.chelem_announcer_leads)
    values[O_EXCUSE_BEFORE_LAST] = int(rules.excuse_last_trick == "must_play_before_last")
    values[O_THRESHOLD_0] = rules.threshold_0_oudlers
    values[O_ROUND_TO] = rules.round_margin_to
    values[O_ROUND_UP] = int(rules.round_mode == "up")
    values[O_ANNOUNCED_MADE] = rules.slam_announced_made
    values[O_UNANNOUNCED_MADE] = rules.slam_unannounced_made
    values[O_ANNOUNCED_FAILED] = rules.slam_announced_failed_penalty
    values[O_DEFENSE_SLAM] = rules.defense_slam_bonus
    order = np.array(EXCHANGE_ORDER[rules.excuse_exchange_card], dtype=np.int64)
    return np.array(values, dtype=np.int64), order


# ---------------------------------------------------------------- kernels (plain Python, compiled below)
_SUITS: Any = np.array(SUIT_P, dtype=np.int64) if AVAILABLE else None


def _add(s: Any, field: int, seat: int, card: int) -> None:
    """Put ``card`` into the set of fields ``field`` (plain) and ``field + 2`` (trumps) of ``seat``."""
    if card < 56:
        s[field + seat] |= np.int64(1) << card
    else:
        s[field + 2 + seat] |= np.int64(1) << (card - 56)


def _reset(s: Any, rng: Any, i: int, pack: Any) -> None:
    """Shuffle and lay out a deal (dealer seat 0) as :func:`atout.engine.two_player.deal_layout`."""
    shuffle(pack, N_CARDS, rng, i)
    _lay_out_jit(s, pack)


def _lay_out(s: Any, pack: Any) -> None:
    """Lay out an ordered pack (top card first) into state row ``s``, as
    :func:`atout.engine.two_player.deal_layout` does with the dealer at seat 0."""
    for f in range(N_FIELDS):
        s[f] = 0
    n = 0
    for layer in range(3):
        for first in (0, 3):
            for seat in (1, 0):
                for pile in range(first, first + 3):
                    s[F_PILES + 18 * seat + 3 * pile + layer] = pack[n]
                    n += 1
    for _ in range(7):
        for seat in (1, 0):
            for _ in range(3):
                _add_jit(s, F_HAND_P, seat, pack[n])
                n += 1
    for seat in range(2):
        for pile in range(6):
            s[F_HEIGHT + 6 * seat + pile] = 3
            _add_jit(s, F_TOP_P, seat, s[F_PILES + 18 * seat + 3 * pile + 2])
        s[F_DEALT_P + seat] = s[F_HAND_P + seat]
        s[F_DEALT_T + seat] = s[F_HAND_T + seat]
        s[F_PENDING + seat] = -1
    s[F_PHASE] = CHELEM
    s[F_PLAYER] = 1
    s[F_LEADER] = 1
    s[F_CHELEM_BY] = s[F_DEBT_OWNER] = s[F_LED] = s[F_PETIT_TRICK] = -1
    s[F_LAST_WINNER] = s[F_PREV_WINNER] = -1


def _play_masks(s: Any, opts: Any) -> tuple[int, int]:
    """The cards the current player may play (§4.4 over §3.8): plain and trump words."""
    seat = s[F_PLAYER]
    avail_p = s[F_HAND_P + seat] | s[F_TOP_P + seat]
    avail_t = s[F_HAND_T + seat] | s[F_TOP_T + seat]
    excuse = avail_t & EXCUSE_T
    if opts[O_EXCUSE_BEFORE_LAST] and excuse and s[F_WINS + seat] != s[F_TRICK_NO]:
        remaining = popcount(s[F_HAND_P + seat]) + popcount(s[F_HAND_T + seat])
        for pile in range(6):
            remaining += s[F_HEIGHT + 6 * seat + pile]
        if remaining == 2:
            return 0, int(EXCUSE_T)
    led = s[F_LED]
    if led < 0:
        return int(avail_p), int(avail_t)
    if led != 4:
        follow = avail_p & _SUITS[led]
        if follow:
            return int(follow), int(excuse)
    trumps = avail_t & TRUMP_BITS
    if trumps == 0:
        return int(avail_p), int(avail_t)
    top = bitlen(s[F_TRICK_T] & TRUMP_BITS)
    higher = (trumps >> top) << top
    return 0, int((higher if higher else trumps) | excuse)


def _half_points(p: int, t: int) -> int:
    return int(
        popcount(p)
        + popcount(t)
        + 8 * (popcount(p & NINES_P) + popcount(t & BOUTS_T))
        + 6 * popcount(p & QUEENS_P)
        + 4 * popcount(p & CAVALIERS_P)
        + 2 * popcount(p & JACKS_P)
    )


def _pay_debt(s: Any, order: Any) -> None:
    """The Excuse's owner hands over his exchange card, if he has won one yet (§3.9)."""
    owner = s[F_DEBT_OWNER]
    won_p, won_t = s[F_WON_P + owner], s[F_WON_T + owner]
    for card in order:
        if card < 56:
            bit = np.int64(1) << card
            if won_p & bit:
                s[F_WON_P + owner] ^= bit
                s[F_WON_P + s[F_DEBT_WINNER]] |= bit
                s[F_DEBT_OWNER] = -1
                return
        else:
            bit = np.int64(1) << (card - 56)
            if won_t & bit:
                s[F_WON_T + owner] ^= bit
                s[F_WON_T + s[F_DEBT_WINNER]] |= bit
                s[F_DEBT_OWNER] = -1
                return


def _slam(s: Any, opts: Any, seat: int, won_by: int) -> int:
    """What ``seat`` earns from the chelem (§3.13, the announcer in the taker's place)."""
    announcer = s[F_CHELEM_BY]
    if won_by == seat:
        if announcer == seat:
            return int(opts[O_ANNOUNCED_MADE])
        if announcer < 0:
            return int(opts[O_UNANNOUNCED_MADE])
        return int(opts[O_DEFENSE_SLAM])
    return int(-opts[O_ANNOUNCED_FAILED]) if announcer == seat else 0


def _threshold(opts: Any, bouts: int) -> int:
    if bouts == 0:
        return int(opts[O_THRESHOLD_0])
    return 51 if bouts == 1 else (41 if bouts == 2 else 36)


def _finish(s: Any, opts: Any) -> None:
    """Count each pile and score the deal as :func:`atout.scoring.score_two_player`."""
    halves0 = _half_points_jit(s[F_WON_P], s[F_WON_T])
    halves1 = _half_points_jit(s[F_WON_P + 1], s[F_WON_T + 1])
    bouts0, bouts1 = popcount(s[F_WON_T] & BOUTS_T), popcount(s[F_WON_T + 1] & BOUTS_T)
    reach0 = halves0 >= 2 * _threshold_jit(opts, bouts0)
    reach1 = halves1 >= 2 * _threshold_jit(opts, bouts1)
    if reach0 == reach1:  # each half a point short: the unpaid debt's half point goes to its creditor
        if s[F_DEBT_OWNER] == 0:
            halves0, halves1 = halves0 - 1, halves1 + 1
        else:
            halves0, halves1 = halves0 + 1, halves1 - 1
        reach0 = halves0 >= 2 * _threshold_jit(opts, bouts0)
    winner = 0 if reach0 else 1
    halves = halves0 if winner == 0 else halves1
    threshold = _threshold_jit(opts, bouts0 if winner == 0 else bouts1)
    whole = halves // 2
    points = whole + 1 if halves % 2 and whole >= threshold else whole
    margin, step = points - threshold, opts[O_ROUND_TO]
    if opts[O_ROUND_UP]:
        margin = -(-margin // step) * step
    else:
        margin = (2 * margin + step) // (2 * step) * step
    value = 25 + margin
    petit = s[F_PETIT_TRICK]
    if petit == LAST_TRICK:
        value += 10 if s[F_LAST_WINNER] == winner else -10
    elif petit == LAST_TRICK - 1 and s[F_EXCUSE_WON_LAST]:
        value += 10 if s[F_PREV_WINNER] == winner else -10
    if opts[O_CHELEM]:
        won_by = 0 if s[F_WINS] == TRICKS else (1 if s[F_WINS + 1] == TRICKS else -1)
        value += _slam_jit(s, opts, winner, won_by) - _slam_jit(s, opts, 1 - winner, won_by)
    s[F_SCORE + winner], s[F_SCORE + 1 - winner] = value, -value
    s[F_PHASE], s[F_PLAYER] = END, -1


def _finish_trick(s: Any, opts: Any, order: Any) -> None:
    leader, first = s[F_LEADER], s[F_FIRST]
    trick_p, trick_t = s[F_TRICK_P], s[F_TRICK_T]
    trumps = trick_t & TRUMP_BITS
    best = 55 + bitlen(trumps) if trumps else bitlen(trick_p & _SUITS[s[F_LED]]) - 1
    winner = leader if best == first else 1 - leader
    trick_no = s[F_TRICK_NO]
    if trick_t & EXCUSE_T:
        owner = leader if first == EXCUSE else 1 - leader
        if trick_no == LAST_TRICK and first == EXCUSE and s[F_WINS + owner] == trick_no:
            winner = owner  # §3.9: the Excuse led to the last trick by a slam wins it
            s[F_EXCUSE_WON_LAST] = 1
        elif owner != winner and trick_no != LAST_TRICK:
            trick_t ^= EXCUSE_T  # back to its owner, who owes the winner a half-point card
            s[F_WON_T + owner] |= EXCUSE_T
            s[F_DEBT_OWNER], s[F_DEBT_WINNER] = owner, winner
    s[F_WON_P + winner] |= trick_p
    s[F_WON_T + winner] |= trick_t
    s[F_WINS + winner] += 1
    if (s[F_TRICK_T] & PETIT_T) != 0:
        s[F_PETIT_TRICK] = trick_no
    s[F_PREV_WINNER], s[F_LAST_WINNER] = s[F_LAST_WINNER], winner
    for seat in range(2):  # §4.4: the card beneath a played pile card turns up at the end of the trick
        pile = s[F_PENDING + seat]
        if pile >= 0:
            height = s[F_HEIGHT + 6 * seat + pile]
            if height:
                _add_jit(s, F_TOP_P, seat, s[F_PILES + 18 * seat + 3 * pile + height - 1])
            s[F_PENDING + seat] = -1
    s[F_TRICK_NO] = trick_no + 1
    s[F_TRICK_P], s[F_TRICK_T], s[F_NTRICK], s[F_LED] = 0, 0, 0, -1
    s[F_LEADER] = winner
    if s[F_DEBT_OWNER] >= 0:
        _pay_debt_jit(s, order)
    if trick_no + 1 == TRICKS:
        _finish_jit(s, opts)
    else:
        s[F_PLAYER] = winner


def _play(s: Any, card: int, opts: Any, order: Any) -> None:
    seat = s[F_PLAYER]
    if card < 56:
        bit, hand, top, trick = np.int64(1) << card, F_HAND_P + seat, F_TOP_P + seat, F_TRICK_P
    else:
        bit, hand, top, trick = np.int64(1) << (card - 56), F_HAND_T + seat, F_TOP_T + seat, F_TRICK_T
    if s[hand] & bit:
        s[hand] ^= bit
    else:
        s[top] ^= bit
        for pile in range(6):
            height = s[F_HEIGHT + 6 * seat + pile]
            if height and s[F_PILES + 18 * seat + 3 * pile + height - 1] == card:
                s[F_HEIGHT + 6 * seat + pile] = height - 1
                s[F_PENDING + seat] = pile
                break
    s[trick] |= bit
    if s[F_LED] < 0 and card != EXCUSE:
        s[F_LED] = card // 14 if card < 56 else 4
    if s[F_NTRICK] == 0:
        s[F_FIRST], s[F_NTRICK], s[F_PLAYER] = card, 1, 1 - seat
    else:
        _finish_trick_jit(s, opts, order)


def _decide_chelem(s: Any, announced: bool, opts: Any) -> None:
    seat = s[F_PLAYER]
    if announced:
        s[F_CHELEM_BY] = seat
        if opts[O_ANNOUNCER_LEADS]:
            s[F_LEADER] = seat
    elif seat != 0:  # the non-dealer declined: the dealer decides
        s[F_PLAYER] = 0
        return
    s[F_PLAYER] = s[F_LEADER]
    s[F_PHASE] = PLAY


def _start(s: Any, opts: Any) -> None:
    if not opts[O_CHELEM]:
        s[F_PHASE] = PLAY


def _is_legal(s: Any, action: int, opts: Any) -> bool:
    phase = s[F_PHASE]
    if phase == PLAY:
        if action < 0 or action >= N_CARDS:
            return False
        legal_p, legal_t = _play_masks_jit(s, opts)
        return bool((legal_p >> action) & 1 if action < 56 else (legal_t >> (action - 56)) & 1)
    if phase == CHELEM:
        return bool(action in (NO_CHELEM, ANNOUNCE_CHELEM))
    return False


def _apply(s: Any, action: int, opts: Any, order: Any) -> None:
    if s[F_PHASE] == PLAY:
        _play_jit(s, action, opts, order)
    else:
        _decide_chelem_jit(s, action == ANNOUNCE_CHELEM, opts)


def _random_action(s: Any, rng: Any, i: int, opts: Any) -> int:
    """The k-th legal action in increasing order, k uniform (generator ``i``)."""
    if s[F_PHASE] == CHELEM:
        return int(NO_CHELEM + draw(rng, i, 2))
    legal_p, legal_t = _play_masks_jit(s, opts)
    count_p = popcount(legal_p)
    k = draw(rng, i, count_p + popcount(legal_t))
    if k < count_p:
        return int(nth_bit(legal_p, k))
    return int(56 + nth_bit(legal_t, k - count_p))


def _reset_all(states: Any, rng: Any, seed: int, first: int, opts: Any) -> None:
    pack = np.empty(N_CARDS, dtype=np.int64)
    for i in range(states.shape[0]):
        seed_stream(rng, i, seed, first + i)
        _reset_jit(states[i], rng, i, pack)
        _start_jit(states[i], opts)


def _load(s: Any, pack: Any, opts: Any) -> None:
    _lay_out_jit(s, pack)
    _start_jit(s, opts)


def _legal_masks(states: Any, opts: Any, out: Any) -> None:
    out[:] = False
    for i in range(states.shape[0]):
        s = states[i]
        if s[F_PHASE] == PLAY:
            legal_p, legal_t = _play_masks_jit(s, opts)
            while legal_p:
                out[i, lowbit(legal_p)] = True
                legal_p &= legal_p - 1
            while legal_t:
                out[i, 56 + lowbit(legal_t)] = True
                legal_t &= legal_t - 1
        elif s[F_PHASE] == CHELEM:
            out[i, NO_CHELEM] = out[i, ANNOUNCE_CHELEM] = True


def _step_all(states: Any, actions: Any, opts: Any, order: Any) -> int:
    """Apply one action to every running deal; the first deal whose action is illegal, or -1 (then
    nothing is applied)."""
    for i in range(states.shape[0]):
        if states[i, F_PHASE] != END and not _is_legal_jit(states[i], actions[i], opts):
            return i
    for i in range(states.shape[0]):
        if states[i, F_PHASE] != END:
            _apply_jit(states[i], actions[i], opts, order)
    return -1


def _random_actions(states: Any, rng: Any, opts: Any, out: Any) -> None:
    for i in range(states.shape[0]):
        out[i] = -1 if states[i, F_PHASE] == END else _random_action_jit(states[i], rng, i, opts)


def _play_out(states: Any, rng: Any, opts: Any, order: Any) -> None:
    """Finish every deal with the random actions :func:`_random_actions` would draw."""
    for i in range(states.shape[0]):
        s = states[i]
        while s[F_PHASE] != END:
            _apply_jit(s, _random_action_jit(s, rng, i, opts), opts, order)


def _random_deals(count: int, seed: int, opts: Any, order: Any, out: Any) -> None:
    """Whole random deals, each decision drawn as :func:`_random_action` draws it, with the hands,
    pile tops and tricks kept in local variables (the state row holds the piles, and the result
    for the count): the simulator's fast path, checked equal to stepped play by the tests."""
    s = np.empty(N_FIELDS, dtype=np.int64)
    pack = np.empty(N_CARDS, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    pile_of = np.empty(N_CARDS, dtype=np.int64)
    chelem, leads, before_last = opts[O_CHELEM], opts[O_ANNOUNCER_LEADS], opts[O_EXCUSE_BEFORE_LAST]
    for i in range(count):
        seed_stream(rng, 0, seed, i)
        _reset_jit(s, rng, 0, pack)
        x = rng[0]
        for f in range(36):
            pile_of[s[F_PILES + f]] = (f % 18) // 3
        leader, announcer = 1, -1
        if chelem:  # the non-dealer decides, then the dealer if he declined
            x = xorshift(x)
            if bounded(x, 2):
                announcer = 1
            else:
                x = xorshift(x)
                if bounded(x, 2):
                    announcer = 0
                    leader = 0 if leads else 1
        hp0, hp1, ht0, ht1 = s[F_HAND_P], s[F_HAND_P + 1], s[F_HAND_T], s[F_HAND_T + 1]
        tp0, tp1, tt0, tt1 = s[F_TOP_P], s[F_TOP_P + 1], s[F_TOP_T], s[F_TOP_T + 1]
        wp0 = wp1 = wt0 = wt1 = 0
        wins0 = wins1 = 0
        owner = creditor = excuse_won_last = -1
        petit_trick = last_winner = prev_winner = -1
        for trick_no in range(TRICKS):
            seat, led, trick_p, trick_t, first, pend0, pend1 = leader, -1, 0, 0, -1, -1, -1
            for _ in range(2):
                if seat == 0:
                    avail_p, avail_t, wins = hp0 | tp0, ht0 | tt0, wins0
                else:
                    avail_p, avail_t, wins = hp1 | tp1, ht1 | tt1, wins1
                excuse = avail_t & EXCUSE_T
                legal_p, legal_t = avail_p, avail_t
                if before_last and excuse and trick_no == LAST_TRICK - 1 and wins != trick_no:
                    legal_p, legal_t = 0, EXCUSE_T
                elif led >= 0:
                    follow = avail_p & _SUITS[led] if led != 4 else 0
                    if follow:
                        legal_p, legal_t = follow, excuse
                    else:
                        trumps = avail_t & TRUMP_BITS
                        if trumps:
                            top = bitlen(trick_t & TRUMP_BITS)
                            higher = (trumps >> top) << top
                            legal_p, legal_t = 0, (higher if higher else trumps) | excuse
                count_p = popcount(legal_p)
                x = xorshift(x)
                k = bounded(x, count_p + popcount(legal_t))
                if k < count_p:
                    card = nth_bit(legal_p, k)
                    bit = np.int64(1) << card
                    trick_p |= bit
                    if led < 0:
                        led = card // 14
                    in_hand = ((hp0 if seat == 0 else hp1) & bit) != 0
                    if seat == 0:
                        if in_hand:
                            hp0 ^= bit
                        else:
                            tp0 ^= bit
                    elif in_hand:
                        hp1 ^= bit
                    else:
                        tp1 ^= bit
                else:
                    card = 56 + nth_bit(legal_t, k - count_p)
                    bit = np.int64(1) << (card - 56)
                    trick_t |= bit
                    if led < 0 and card != EXCUSE:
                        led = 4
                    in_hand = ((ht0 if seat == 0 else ht1) & bit) != 0
                    if seat == 0:
                        if in_hand:
                            ht0 ^= bit
                        else:
                            tt0 ^= bit
                    elif in_hand:
                        ht1 ^= bit
                    else:
                        tt1 ^= bit
                if not in_hand:
                    pile = pile_of[card]
                    s[F_HEIGHT + 6 * seat + pile] -= 1
                    if seat == 0:
                        pend0 = pile
                    else:
                        pend1 = pile
                if first < 0:
                    first = card
                seat = 1 - seat
            trumps = trick_t & TRUMP_BITS
            best = 55 + bitlen(trumps) if trumps else bitlen(trick_p & _SUITS[led]) - 1
            winner = leader if best == first else 1 - leader
            if trick_t & EXCUSE_T:
                holder = leader if first == EXCUSE else 1 - leader
                if (
                    trick_no == LAST_TRICK
                    and first == EXCUSE
                    and (wins0 if holder == 0 else wins1) == trick_no
                ):
                    winner, excuse_won_last = holder, 1  # §3.9: the Excuse led to the last trick by a slam
                elif holder != winner and trick_no != LAST_TRICK:
                    trick_t ^= EXCUSE_T  # back to its owner, who owes the winner a half-point card
                    if holder == 0:
                        wt0 |= EXCUSE_T
                    else:
                        wt1 |= EXCUSE_T
                    owner, creditor = holder, winner
            if winner == 0:
                wp0, wt0, wins0 = wp0 | trick_p, wt0 | trick_t, wins0 + 1
            else:
                wp1, wt1, wins1 = wp1 | trick_p, wt1 | trick_t, wins1 + 1
            if trick_t & PETIT_T:
                petit_trick = trick_no
            prev_winner, last_winner = last_winner, winner
            if pend0 >= 0:
                height = s[F_HEIGHT + pend0]
                if height:
                    card = s[F_PILES + 3 * pend0 + height - 1]
                    if card < 56:
                        tp0 |= np.int64(1) << card
                    else:
                        tt0 |= np.int64(1) << (card - 56)
            if pend1 >= 0:
                height = s[F_HEIGHT + 6 + pend1]
                if height:
                    card = s[F_PILES + 18 + 3 * pend1 + height - 1]
                    if card < 56:
                        tp1 |= np.int64(1) << card
                    else:
                        tt1 |= np.int64(1) << (card - 56)
            leader = winner
            if owner >= 0:  # the Excuse's owner pays as soon as he has won a card he may hand over
                from_p, from_t = (wp0, wt0) if owner == 0 else (wp1, wt1)
                for card in order:
                    held = (from_p >> card) & 1 if card < 56 else (from_t >> (card - 56)) & 1
                    if held:
                        if card < 56:
                            bit = np.int64(1) << card
                            wp0, wp1 = wp0 ^ bit, wp1 ^ bit
                        else:
                            bit = np.int64(1) << (card - 56)
                            wt0, wt1 = wt0 ^ bit, wt1 ^ bit
                        owner = -1
                        break
        s[F_WON_P], s[F_WON_P + 1], s[F_WON_T], s[F_WON_T + 1] = wp0, wp1, wt0, wt1
        s[F_WINS], s[F_WINS + 1], s[F_CHELEM_BY] = wins0, wins1, announcer
        s[F_DEBT_OWNER], s[F_DEBT_WINNER], s[F_EXCUSE_WON_LAST] = owner, creditor, max(excuse_won_last, 0)
        s[F_PETIT_TRICK], s[F_LAST_WINNER], s[F_PREV_WINNER] = petit_trick, last_winner, prev_winner
        _finish_jit(s, opts)
        out[i, 0], out[i, 1] = s[F_SCORE], s[F_SCORE + 1]


if AVAILABLE:
    _add_jit: Any = inline(_add)
    _lay_out_jit: Any = inline(_lay_out)
    _reset_jit: Any = inline(_reset)
    _play_masks_jit: Any = inline(_play_masks)
    _half_points_jit: Any = inline(_half_points)
    _pay_debt_jit: Any = inline(_pay_debt)
    _slam_jit: Any = inline(_slam)
    _threshold_jit: Any = inline(_threshold)
    _finish_jit: Any = inline(_finish)
    _finish_trick_jit: Any = inline(_finish_trick)
    _play_jit: Any = inline(_play)
    _decide_chelem_jit: Any = inline(_decide_chelem)
    _start_jit: Any = inline(_start)
    _is_legal_jit: Any = inline(_is_legal)
    _apply_jit: Any = inline(_apply)
    _random_action_jit: Any = inline(_random_action)
    _reset_all_jit: Any = jit(_reset_all)
    _load_jit: Any = jit(_load)
    _legal_masks_jit: Any = jit(_legal_masks)
    _step_all_jit: Any = jit(_step_all)
    _random_actions_jit: Any = jit(_random_actions)
    _play_out_jit: Any = jit(_play_out)
    _random_deals_jit: Any = jit(_random_deals)


def _check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ValueError(f"seed: must be a whole number from 0 to 2**63 - 1, not {seed!r}")
    return seed


def _names(p: int, t: int) -> list[str]:
    return [card_name(c) for c in cards_of(p | t << 56)]


# ---------------------------------------------------------------- the public face
class TwoPlayerBatch:
    """``size`` 2-player deals stepped together (the API of :class:`atout.batched.BatchedDeals`)."""

    action_count: int = N_ACTIONS
    players: int = 2

    def __init__(self, rules: Rules, size: int, seed: int = 0) -> None:
        need_numba()
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"size: must be a positive number of deals, not {size!r}")
        self.rules = rules
        self.size = size
        self._options, self._order = options(rules)
        self._states = np.zeros((size, N_FIELDS), dtype=np.int64)
        self._rng = np.zeros(size, dtype=np.uint64)
        self._seed, self._first = _check_seed(seed), 0
        _reset_all_jit(self._states, self._rng, self._seed, 0, self._options)

    def reset(self, seed: int | None = None) -> None:
        """New shuffled deals (dealer: seat 0): those of a new ``seed``, or the next ones of the
        current seed. Deal ``i`` after ``r`` resets without a seed is deal ``r × size + i`` of
        :func:`random_two_player_deals` with the same seed."""
        if seed is None:
            self._first += self.size
        else:
            self._seed, self._first = _check_seed(seed), 0
        _reset_all_jit(self._states, self._rng, self._seed, self._first, self._options)

    def current_player(self) -> Any:
        """The seat to act in each deal, -1 when it is over."""
        return self._states[:, F_PLAYER].copy()

    def legal_mask(self) -> Any:
        """(size, action_count) bool: the legal actions of each deal (none once it is over)."""
        out = np.empty((self.size, N_ACTIONS), dtype=np.bool_)
        _legal_masks_jit(self._states, self._options, out)
        return out

    def step(self, actions: Any) -> None:
        """Apply one engine action id per deal (finished deals ignore theirs); an illegal action
        raises :class:`ValueError` naming the deal and the action, and nothing is applied."""
        moves = np.ascontiguousarray(actions, dtype=np.int64)
        if moves.shape != (self.size,):
            raise ValueError(
                f"actions: must hold one action per deal, shape ({self.size},), not {moves.shape}"
            )
        bad = int(_step_all_jit(self._states, moves, self._options, self._order))
        if bad >= 0:
            raise ValueError(f"deal {bad}: action {int(moves[bad])} is not legal")

    def random_actions(self) -> Any:
        """A uniformly random legal action per deal (-1 for finished deals), drawn from each deal's
        own generator exactly as :func:`random_two_player_deals` draws them."""
        out = np.empty(self.size, dtype=np.int64)
        _random_actions_jit(self._states, self._rng, self._options, out)
        return out

    def play_out(self) -> None:
        """Finish every deal in one compiled call, as stepping with :meth:`random_actions` until every
        deal is done would."""
        _play_out_jit(self._states, self._rng, self._options, self._order)

    def done(self) -> Any:
        """(size,) bool: which deals are over."""
        return self._states[:, F_PHASE] == END

    def cancelled(self) -> Any:
        """(size,) bool: always false, a 2-player deal is never cancelled."""
        return np.zeros(self.size, dtype=np.bool_)

    def scores(self) -> Any:
        """(size, 2) int: each seat's score; valid where :meth:`done`."""
        return self._states[:, F_SCORE : F_SCORE + 2].copy()

    def load(self, index: int, data: Mapping[str, object]) -> None:
        """Replace deal ``index`` by the layout ``data`` (:meth:`TwoPlayerDeal.dealt`'s format, the
        dealer at seat 0), to play chosen deals; bad data raises :class:`ValueError` naming the field."""
        self._check_index(index)
        deal = TwoPlayerDeal.from_dealt(self.rules, 0, data)
        piles, hands = deal.initial_piles, deal.initial_hands
        pack = [
            piles[seat][pile][layer]
            for layer in range(3)
            for first in (0, 3)
            for seat in (1, 0)
            for pile in range(first, first + 3)
        ]
        held = [cards_of(hands[seat]) for seat in (0, 1)]
        for round_ in range(7):
            pack += held[1][3 * round_ : 3 * round_ + 3] + held[0][3 * round_ : 3 * round_ + 3]
        _load_jit(self._states[index], np.array(pack, dtype=np.int64), self._options)

    def _check_index(self, index: object) -> None:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < self.size:
            raise ValueError(f"index: must be a deal 0..{self.size - 1}, not {index!r}")

    def dealt(self, index: int) -> dict[str, object]:
        """The layout of deal ``index`` as :meth:`TwoPlayerDeal.dealt` gives it."""
        self._check_index(index)
        row = self._states[index]
        piles = [
            [[card_name(int(row[F_PILES + 18 * seat + 3 * pile + k])) for k in range(3)] for pile in range(6)]
            for seat in range(2)
        ]
        return {
            "hands": [_names(int(row[F_DEALT_P + seat]), int(row[F_DEALT_T + seat])) for seat in range(2)],
            "piles": piles,
            "face_up": [[pile[-1] for pile in seat_piles] for seat_piles in piles],
        }


def random_two_player_deals(rules: Rules, count: int, seed: int = 0) -> Any:
    """``count`` full deals with uniformly random legal actions, played in one compiled call;
    returns the scores, shape (count, 2)."""
    need_numba()
    opts, order = options(rules)
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(f"count: must be a number of deals, not {count!r}")
    out = np.zeros((count, 2), dtype=np.int64)
    _random_deals_jit(count, _check_seed(seed), opts, order, out)
    return out


def warm_up() -> None:
    """Compile every kernel Python calls (or load it from numba's cache)."""
    if not AVAILABLE:
        return

    rules = Rules(players=2)
    batch = TwoPlayerBatch(rules, 2, seed=1)
    batch.legal_mask()
    batch.step(batch.random_actions())
    batch.load(0, batch.dealt(1))
    batch.play_out()
    batch.reset()
    random_two_player_deals(rules, 2, seed=1)


__all__ = ["AVAILABLE", "TwoPlayerBatch", "random_two_player_deals", "warm_up"]
