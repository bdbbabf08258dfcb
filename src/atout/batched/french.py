"""French Tarot deals stepped together in compiled code (numba): 3, 4 and 5 players (called king)
and the dead-player table, a copy of :mod:`atout.engine.french` proven equal to it by
``tests/batched/test_french.py``.

Cards are two words, as in :mod:`atout.bots.rules.kernel`: the plain suits (bits 0-55 of the pack,
as they are) and the trumps with the Excuse (cards 56-77 shifted down to bits 0-21). A deal is one
row of an ``int64`` state array (fields below); each deal has its own xorshift64* generator, which
deals its cards and draws :meth:`FrenchBatch.random_actions`. The dead-player table is its inner
4-player deal (:mod:`atout.engine.dead_player`) with the seats told in table seats.

Whole random deals (:func:`random_french_deals`, :meth:`FrenchBatch.play_out`) make the very
draws of stepping with :meth:`FrenchBatch.random_actions`, but play the bids, the call, the écart
and, once no poignée is left to declare, the tricks with the deal in registers: the benchmark's
path (``bench/batched.py``).

Every decision of the FFT rules is played: bids, the call, the écart, the chelem announcement,
poignées and the trumps shown, the petit sec, the card play with the Excuse and its exchange, the
petit au bout, the chelem and the score. Options played too: ``play_direction``, ``deal_scheme``
(every scheme deals uniformly random hands), ``first_bidder``, ``no_petite``, ``bid_pousse``,
``first_leader``, ``chelem_announcer_leads``, ``threshold_0_oudlers``, ``petit_sec_rule`` (but
``petit_imprenable``), ``petit_au_bout_multiplied``, the poignée options, the slam values,
``called_card_fallback``, ``five_player_split`` and the margin rounding. :func:`check_rules`
refuses the others, naming them.

>>> from atout.presets import rules_for
>>> batch = FrenchBatch(rules_for("fft", players=4), size=2, seed=1)
>>> batch.current_player().tolist()
[1, 1]
>>> random_french_deals(rules_for("fft", players=5), 3, seed=5).shape
(3, 5)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from atout.batched.bits import bounded, draw, need_numba, nth_bit, seed_stream, xorshift
from atout.cards import CardSet
from atout.engine.actions import (
    BID_BASE,
    BID_NAMES,
    CALL_BASE,
    CHELEM_BASE,
    DISCARD_BASE,
    N_ACTIONS,
    NAMES,
    POIGNEE_BASE,
    SHOW_DEFAULT_ID,
)
from atout.engine.dead_player import DeadPlayerDeal, check_dead_player_rules
from atout.engine.deal import CHIEN_SIZE, HAND_SIZE, seat_step
from atout.engine.french import FrenchDeal, check_engine_rules
from atout.games import deal_from_dealt
from atout.jit import AVAILABLE, bitlen, inline, jit, lowbit, np, popcount
from atout.rules import Rules, RulesError

# ---------------------------------------------------------------- the two words
PLAIN: Final = (1 << 56) - 1
M14: Final = (1 << 14) - 1
TRUMPS_T: Final = (1 << 21) - 1
EXC_T: Final = 1 << 21
PETIT_T: Final = 1
T21_T: Final = 1 << 20
MID_T: Final = TRUMPS_T & ~PETIT_T & ~T21_T
BOUTS_T: Final = PETIT_T | T21_T | EXC_T


def _ranks(ranks: range | list[int]) -> int:
    return sum(1 << (14 * s + r) for s in range(4) for r in ranks)


LOW_P: Final = _ranks(range(10))
JACK_P: Final = _ranks([10])
CAV_P: Final = _ranks([11])
QUEEN_P: Final = _ranks([12])
KING_P: Final = _ranks([13])
DISCARDABLE_P: Final = PLAIN & ~KING_P
SHOW_T_BASE: Final = SHOW_DEFAULT_ID + 1
"""The action showing trump-word bit ``b`` (T1 is bit 0) is ``SHOW_T_BASE + b``."""

# ---------------------------------------------------------------- phases
BIDDING, CALL, DISCARD, CHELEM, POIGNEE, SHOW, PLAY, END = range(8)
PLAYED, CANCELLED = 1, 2

# ---------------------------------------------------------------- state fields (one int64 row per deal)
(
    F_PHASE,
    F_PLAYER,
    F_TAKER,
    F_CONTRACT,
    F_NBIDS,
    F_CALLED,
    F_PARTNER,
    F_DISCARDS_LEFT,
    F_CHELEM,
    F_PENDING,
    F_SHOW_LEVEL,
    F_SHOW_PICKED,
    F_LED,
    F_TRICK_P,
    F_TRICK_T,
    F_TRICK_COUNT,
    F_BEST_SEAT,
    F_BEST_KEY,
    F_EXCUSE_SEAT,
    F_EXCUSE_LED,
    F_TRICK_NO,
    F_ATTACK_P,
    F_ATTACK_T,
    F_DEFENSE_P,
    F_DEFENSE_T,
    F_ATTACK_TRICKS,
    F_DEBT,
    F_EXCUSE_WON_LAST,
    F_PETIT_TRICK,
    F_PETIT_ATTACK,
    F_OUTCOME,
    F_ECART_P,
    F_ECART_T,
    F_CHIEN_P,
    F_CHIEN_T,
) = range(35)
F_HAND_P: Final = 35
F_HAND_T: Final = 40
F_DEALT_P: Final = 45
F_DEALT_T: Final = 50
F_POIGNEE: Final = 55
F_SCORE: Final = 60
"""Scores by table seat (the dead player's included)."""
N_FIELDS: Final = 65

# debts: which camp owes a card for the Excuse it kept (rule book §3.9)
NO_DEBT, ATTACK_OWES, DEFENSE_OWES = 0, 1, 2

# ---------------------------------------------------------------- options (one int64 vector)
(
    O_N,
    O_TRICKS,
    O_STEP,
    O_DEALER,
    O_BID_STEP,
    O_BIDS,
    O_LEADER_TAKER,
    O_ANNOUNCER_LEADS,
    O_THRESHOLD_0,
    O_PAB_MULTIPLIED,
    O_DECLARING_SIDE,
    O_SLAM_ANNOUNCED,
    O_SLAM_UNANNOUNCED,
    O_SLAM_FAILED,
    O_DEFENSE_SLAM,
    O_SPLIT_EQUAL,
    O_QUEEN_ONLY,
    O_ROUND_TO,
    O_ROUND_UP,
    O_SEC_IGNORES_EXCUSE,
    O_TABLE,
    O_CHIEN,
) = range(22)
O_MULT: Final = 22
"""Multiplier of each bid index (``BID_NAMES``)."""
O_POIGNEE_SIZE: Final = 28
O_POIGNEE_BONUS: Final = 31
O_SEAT: Final = 34
"""The table seat of each seat of the deal (the dead-player table's are not 0-3)."""
N_OPTIONS: Final = 39

_REFUSED: Final = (
    ("excuse_sec_redeal", False),
    ("misere_bonus", 0),
    ("partial_slam", None),
    ("excuse_exchange_card", "low"),
    ("excuse_last_trick", "changes_camp"),
)


def check_rules(rules: Rules) -> None:
    """Refuse rules the batched French simulator does not play, naming the option."""
    if rules.game != "french" or rules.players not in (3, 4, 5):
        raise RulesError("the batched French simulator plays French Tarot with 3, 4 or 5 players")
    if rules.five_player_mode == "dead_player":
        check_dead_player_rules(rules)
    else:
        check_engine_rules(rules)
    for name, played in _REFUSED:
        value = getattr(rules, name)
        if value != played:
            raise RulesError(f"{name}={value!r} is not played by the batched simulator (only {played!r})")
    if rules.petit_sec_rule == "petit_imprenable":
        raise RulesError("petit_sec_rule='petit_imprenable' is not played by the batched simulator")


def options(rules: Rules) -> Any:
    """The rules as the kernels' option vector."""
    check_rules(rules)
    dead = rules.five_player_mode == "dead_player"
    n = 4 if dead else rules.players
    step = 1 if dead else seat_step(rules) % n
    values = [0] * N_OPTIONS
    values[O_N] = n
    values[O_TRICKS] = HAND_SIZE[n]
    values[O_CHIEN] = CHIEN_SIZE[n]
    values[O_STEP] = step
    values[O_DEALER] = n - 1 if dead else 0
    values[O_BID_STEP] = (n - step) % n if rules.first_bidder == "dealer_left" else step
    values[O_BIDS] = sum(1 << BID_NAMES.index(c) for c in rules.contracts)
    values[O_LEADER_TAKER] = int(rules.first_leader == "taker")
    values[O_ANNOUNCER_LEADS] = int(rules.chelem_announcer_leads)
    values[O_THRESHOLD_0] = rules.threshold_0_oudlers
    values[O_PAB_MULTIPLIED] = int(rules.petit_au_bout_multiplied)
    values[O_DECLARING_SIDE] = int(rules.poignee_beneficiary == "declaring_side")
    values[O_SLAM_ANNOUNCED] = rules.slam_announced_made
    values[O_SLAM_UNANNOUNCED] = rules.slam_unannounced_made
    values[O_SLAM_FAILED] = rules.slam_announced_failed_penalty
    values[O_DEFENSE_SLAM] = rules.defense_slam_bonus
    values[O_SPLIT_EQUAL] = int(rules.five_player_split == "equal")
    values[O_QUEEN_ONLY] = int(rules.called_card_fallback == "queen_only")
    values[O_ROUND_TO] = rules.round_margin_to
    values[O_ROUND_UP] = int(rules.round_mode == "up")
    values[O_SEC_IGNORES_EXCUSE] = int(rules.petit_sec_rule == "only_trump_ignoring_excuse")
    values[O_TABLE] = rules.players
    for index, name in enumerate(BID_NAMES[1:], start=1):
        values[O_MULT + index] = rules.multiplier(name) if name in rules.contracts else 0
    levels = rules.poignee_levels(n)
    for i in range(3):
        values[O_POIGNEE_SIZE + i] = levels[i]
        values[O_POIGNEE_BONUS + i] = rules.poignee_bonus[i]
    table_step = seat_step(rules) % rules.players
    for seat in range(n):
        values[O_SEAT + seat] = (table_step * (seat + 1)) % rules.players if dead else seat
    return np.array(values, dtype=np.int64)


# ---------------------------------------------------------------- kernels (plain Python, compiled below)
_PLAIN_BIT: Any = (
    np.array([1 << c if c < 56 else 0 for c in range(78)], dtype=np.int64) if AVAILABLE else None
)
_TRUMP_BIT: Any = (
    np.array([1 << (c - 56) if c >= 56 else 0 for c in range(78)], dtype=np.int64) if AVAILABLE else None
)


def _half_points(p: int, t: int) -> int:
    """Card points in half-points of the cards of two words (rule book §1.1)."""
    return int(
        popcount(p)
        + popcount(t)
        + 8 * (popcount(p & KING_P) + popcount(t & BOUTS_T))
        + 6 * popcount(p & QUEEN_P)
        + 4 * popcount(p & CAV_P)
        + 2 * popcount(p & JACK_P)
    )


def _is_petit_sec(t: int, opts: Any) -> bool:
    if t & TRUMPS_T != PETIT_T:
        return False
    return opts[O_SEC_IGNORES_EXCUSE] == 1 or t & EXC_T == 0


def _reset(s: Any, rng: Any, i: int, opts: Any, pack: Any) -> None:
    """Shuffle and deal into state row ``s`` with generator ``i``, and start the deal."""
    for c in range(78):
        pack[c] = c
    x = rng[i]
    for j in range(77, 0, -2):  # Fisher-Yates, two draws from each 64-bit output of the generator
        x = xorshift(x)
        r = x * np.uint64(0x2545F4914F6CDD1D)
        k = np.int64(((r >> np.uint64(32)) * np.uint64(j + 1)) >> np.uint64(32))
        t = pack[j]
        pack[j] = pack[k]
        pack[k] = t
        if j > 1:
            k = np.int64(((r & np.uint64(0xFFFFFFFF)) * np.uint64(j)) >> np.uint64(32))
            t = pack[j - 1]
            pack[j - 1] = pack[k]
            pack[k] = t
    rng[i] = x
    n = opts[O_N]
    size = opts[O_TRICKS]
    for seat in range(n + 1):  # seat n: the chien
        p = 0
        t = 0
        last = size * seat + (opts[O_CHIEN] if seat == n else size)
        for c in range(size * seat, last):
            card = pack[c]
            p |= _PLAIN_BIT[card]
            t |= _TRUMP_BIT[card]
        if seat == n:
            s[F_CHIEN_P] = p
            s[F_CHIEN_T] = t
        else:
            s[F_DEALT_P + seat] = p
            s[F_DEALT_T + seat] = t
    _start_jit(s, opts)


def _start(s: Any, opts: Any) -> None:
    """Start the deal of row ``s`` from its dealt cards (the dealt hands and the chien); a petit
    sec ends it at once (rule book §3.3)."""
    n = opts[O_N]
    for f in range(F_CHIEN_P):
        s[f] = 0
    for f in range(F_POIGNEE, N_FIELDS):
        s[f] = 0
    for seat in range(5):
        s[F_HAND_P + seat] = s[F_DEALT_P + seat] if seat < n else 0
        s[F_HAND_T + seat] = s[F_DEALT_T + seat] if seat < n else 0
    s[F_TAKER] = -1
    s[F_CALLED] = -1
    s[F_PARTNER] = -1
    s[F_LED] = -1
    s[F_PETIT_TRICK] = -1
    s[F_PENDING] = (1 << n) - 1
    s[F_PHASE] = BIDDING
    s[F_PLAYER] = (opts[O_DEALER] + opts[O_BID_STEP]) % n
    for seat in range(n):
        if _is_petit_sec(s[F_HAND_T + seat], opts):
            _end(s, CANCELLED)
            return


def _end(s: Any, outcome: int) -> None:
    s[F_PHASE] = END
    s[F_PLAYER] = -1
    s[F_OUTCOME] = outcome


def _biddable(s: Any, opts: Any) -> int:
    """The bid indices above the highest bid so far, as bits."""
    above = s[F_CONTRACT] + 1
    return int((opts[O_BIDS] >> above) << above)


def _callable(s: Any, opts: Any) -> int:
    # rule book §4.3: a king; a queen with all four kings, then a cavalier, then a valet
    hand = s[F_HAND_P + s[F_TAKER]]
    out = 0
    for level in range(2 if opts[O_QUEEN_ONLY] else 4):
        mask = KING_P if level == 0 else QUEEN_P if level == 1 else CAV_P if level == 2 else JACK_P
        out |= mask
        if hand & mask != mask:
            break
    return out


def _discard_mask(s: Any) -> tuple[int, int]:
    # rule book §3.5: never a king or a bout; trumps 2-20 only when too few other cards remain
    taker = s[F_TAKER]
    suits = s[F_HAND_P + taker] & DISCARDABLE_P
    if popcount(suits) >= s[F_DISCARDS_LEFT]:
        return suits, 0
    return suits, s[F_HAND_T + taker] & MID_T


def _pool(s: Any, seat: int) -> int:
    """The trumps a poignée of ``seat`` may show: its own, and for the taker those of the écart."""
    pool = s[F_HAND_T + seat] & TRUMPS_T
    if seat == s[F_TAKER]:
        pool |= s[F_ECART_T]
    return int(pool)


def _poignee_levels(s: Any, seat: int, opts: Any) -> int:
    """The poignée levels (bits 1-3) ``seat`` may declare (rule book §3.7)."""
    trumps = popcount(_pool(s, seat))
    if trumps + 1 < opts[O_POIGNEE_SIZE]:
        return 0
    excuse = s[F_HAND_T + seat] & EXC_T != 0
    out = 0
    for level in range(3):
        size = opts[O_POIGNEE_SIZE + level]
        if trumps >= size or (excuse and trumps == size - 1):
            out |= 2 << level
    return out


def _play_mask(s: Any) -> tuple[int, int]:
    """The cards the player to act may play (rule book §3.8), as two words."""
    seat = s[F_PLAYER]
    p = s[F_HAND_P + seat]
    t = s[F_HAND_T + seat]
    if s[F_CALLED] >= 0 and s[F_TRICK_NO] == 0 and s[F_TRICK_COUNT] == 0:
        # §3.8 step 2: the first lead is not of the called suit, unless the called card itself
        called = s[F_CALLED]
        barred = (np.int64(M14) << (14 * (called // 14))) & ~(np.int64(1) << called)
        if p & ~barred == 0 and t == 0:
            return p, t
        return p & ~barred, t
    led = s[F_LED]
    if led < 0:
        return p, t
    if led < 4:
        follow = p & (np.int64(M14) << (14 * led))
        if follow:
            return follow, t & EXC_T
    trumps = t & TRUMPS_T
    if trumps == 0:
        return p, t
    top = bitlen(s[F_TRICK_T] & TRUMPS_T)
    higher = (trumps >> top) << top
    return 0, (higher if higher else trumps) | (t & EXC_T)


def _begin_turn(s: Any, seat: int, opts: Any) -> None:
    s[F_PLAYER] = seat
    s[F_PHASE] = PLAY
    if s[F_PENDING] >> seat & 1:
        # a poignée is declared just before one's first card (§3.7)
        s[F_PENDING] &= ~(1 << seat)
        if _poignee_levels(s, seat, opts):
            s[F_PHASE] = POIGNEE


def _after_bids(s: Any, opts: Any) -> None:
    if s[F_CONTRACT] == 0:
        _end(s, CANCELLED)
        return
    s[F_PLAYER] = s[F_TAKER]
    if opts[O_N] == 5:
        s[F_PHASE] = CALL
    else:
        _after_call(s, opts)


def _after_call(s: Any, opts: Any) -> None:
    taker = s[F_TAKER]
    if s[F_CONTRACT] <= 3:  # petite, pousse, garde: the taker takes the chien and discards
        s[F_HAND_P + taker] |= s[F_CHIEN_P]
        s[F_HAND_T + taker] |= s[F_CHIEN_T]
        s[F_DISCARDS_LEFT] = opts[O_CHIEN]
        s[F_PHASE] = DISCARD
    else:
        s[F_PHASE] = CHELEM


def _is_attack(s: Any, seat: int) -> bool:
    return bool(seat == s[F_TAKER] or seat == s[F_PARTNER])


def _play(s: Any, card: int, opts: Any) -> None:
    seat = s[F_PLAYER]
    if card < 56:
        bit = np.int64(1) << card
        s[F_HAND_P + seat] ^= bit
        s[F_TRICK_P] |= bit
        suit = card // 14
        if s[F_LED] < 0:
            s[F_LED] = suit
        key = card % 14 if suit == s[F_LED] else -1
    else:
        b = card - 56
        bit = np.int64(1) << b
        s[F_HAND_T + seat] ^= bit
        s[F_TRICK_T] |= bit
        if b == 21:
            key = -2
            s[F_EXCUSE_SEAT] = seat
            s[F_EXCUSE_LED] = int(s[F_TRICK_COUNT] == 0)
        else:
            if s[F_LED] < 0:
                s[F_LED] = 4
            key = 100 + b
    if key > s[F_BEST_KEY]:
        s[F_BEST_KEY] = key
        s[F_BEST_SEAT] = seat
    s[F_TRICK_COUNT] += 1
    n = opts[O_N]
    if s[F_TRICK_COUNT] < n:
        following = seat + opts[O_STEP]
        if following >= n:
            following -= n
        if s[F_PENDING] >> following & 1:
            _begin_turn(s, following, opts)
        else:
            s[F_PLAYER] = following
        return
    _finish_trick(s, opts)


def _finish_trick(s: Any, opts: Any) -> None:
    winner = s[F_BEST_SEAT]
    trick_p = s[F_TRICK_P]
    trick_t = s[F_TRICK_T]
    last = s[F_TRICK_NO] == opts[O_TRICKS] - 1
    if trick_t & EXC_T:
        owner = s[F_EXCUSE_SEAT]
        owner_attack = _is_attack(s, owner)
        won_all = s[F_ATTACK_TRICKS] == s[F_TRICK_NO] if owner_attack else s[F_ATTACK_TRICKS] == 0
        if last and s[F_EXCUSE_LED] == 1 and won_all:
            # §3.9 slam exception: the Excuse led to the last trick wins it
            winner = owner
            s[F_EXCUSE_WON_LAST] = 1
        elif owner != winner and not last:
            # §3.9: the Excuse returns to its side; a low card is owed across the camps
            trick_t ^= EXC_T
            if owner_attack:
                s[F_ATTACK_T] |= EXC_T
            else:
                s[F_DEFENSE_T] |= EXC_T
            if owner_attack != _is_attack(s, winner):
                s[F_DEBT] = ATTACK_OWES if owner_attack else DEFENSE_OWES
    attack = _is_attack(s, winner)
    if attack:
        s[F_ATTACK_P] |= trick_p
        s[F_ATTACK_T] |= trick_t
        s[F_ATTACK_TRICKS] += 1
    else:
        s[F_DEFENSE_P] |= trick_p
        s[F_DEFENSE_T] |= trick_t
    if trick_t & PETIT_T:
        s[F_PETIT_TRICK] = s[F_TRICK_NO]
        s[F_PETIT_ATTACK] = int(attack)
    s[F_TRICK_NO] += 1
    s[F_TRICK_P] = 0
    s[F_TRICK_T] = 0
    s[F_TRICK_COUNT] = 0
    s[F_LED] = -1
    s[F_BEST_KEY] = -3
    s[F_BEST_SEAT] = -1
    s[F_EXCUSE_SEAT] = -1
    s[F_EXCUSE_LED] = 0
    s[F_PLAYER] = winner
    if s[F_TRICK_NO] == opts[O_TRICKS]:
        _finish_deal(s, opts)


def _round_margin(margin: int, opts: Any) -> int:
    step = opts[O_ROUND_TO]
    if opts[O_ROUND_UP]:
        return int(-(-margin // step) * step)
    return int((2 * margin + step) // (2 * step) * step)


def _finish_deal(s: Any, opts: Any) -> None:
    """Count the attack's cards and score the deal (rule book §3.9-§3.14, §4.3)."""
    contract = s[F_CONTRACT]
    pile_p = s[F_ATTACK_P] | s[F_ECART_P]
    pile_t = s[F_ATTACK_T] | s[F_ECART_T]
    if contract == 4:  # garde sans: the chien counts for the attack
        pile_p |= s[F_CHIEN_P]
        pile_t |= s[F_CHIEN_T]
    half = _half_points(pile_p, pile_t)
    # the Excuse's exchange card, when its side has won one, is always worth half a point
    debt = s[F_DEBT]
    if debt == ATTACK_OWES and (s[F_ATTACK_P] & LOW_P or s[F_ATTACK_T] & MID_T):
        half -= 1
    elif debt == DEFENSE_OWES and (s[F_DEFENSE_P] & LOW_P or s[F_DEFENSE_T] & MID_T):
        half += 1
    bouts = popcount(pile_t & BOUTS_T)
    threshold = opts[O_THRESHOLD_0] if bouts == 0 else 51 if bouts == 1 else 41 if bouts == 2 else 36
    points = half // 2
    if half % 2 == 1 and points >= threshold:
        points += 1
    won = 1 if points >= threshold else -1
    mult = opts[O_MULT + contract]
    unit = won * (25 + _round_margin(abs(points - threshold), opts)) * mult
    tricks = opts[O_TRICKS]
    petit_trick = s[F_PETIT_TRICK]
    if petit_trick == tricks - 1 or (s[F_EXCUSE_WON_LAST] == 1 and petit_trick == tricks - 2):
        value = 10 * mult if opts[O_PAB_MULTIPLIED] else 10
        unit += value if s[F_PETIT_ATTACK] else -value
    n = opts[O_N]
    for seat in range(n):
        level = s[F_POIGNEE + seat]
        if level:
            bonus = opts[O_POIGNEE_BONUS + level - 1]
            if opts[O_DECLARING_SIDE]:
                unit += bonus if _is_attack(s, seat) else -bonus
            else:
                unit += won * bonus
    attack_tricks = s[F_ATTACK_TRICKS]
    if attack_tricks == tricks:
        unit += opts[O_SLAM_ANNOUNCED] if s[F_CHELEM] else opts[O_SLAM_UNANNOUNCED]
    else:
        if s[F_CHELEM]:
            unit -= opts[O_SLAM_FAILED]
        if attack_tricks == 0:
            unit -= opts[O_DEFENSE_SLAM]
    taker = s[F_TAKER]
    partner = s[F_PARTNER]
    total = 0
    for seat in range(n):
        if not _is_attack(s, seat):
            s[F_SCORE + opts[O_SEAT + seat]] = -unit
            total += unit
    if partner < 0:
        s[F_SCORE + opts[O_SEAT + taker]] = total
    else:
        share = unit
        if opts[O_SPLIT_EQUAL]:
            share = abs(total) // 2 if total >= 0 else -(abs(total) // 2)
        s[F_SCORE + opts[O_SEAT + partner]] = share
        s[F_SCORE + opts[O_SEAT + taker]] = total - share
    _end(s, PLAYED)


def _lead(s: Any, opts: Any) -> None:
    """After the chelem decision: the first leader begins (rule book §3.8)."""
    if (s[F_CHELEM] and opts[O_ANNOUNCER_LEADS]) or opts[O_LEADER_TAKER]:
        leader = s[F_TAKER]
    else:
        leader = (opts[O_DEALER] + opts[O_STEP]) % opts[O_N]
    s[F_BEST_KEY] = -3
    s[F_BEST_SEAT] = -1
    s[F_EXCUSE_SEAT] = -1
    _begin_turn(s, leader, opts)


def _poignee_shown(s: Any, opts: Any, seat: int, level: int) -> None:
    s[F_POIGNEE + seat] = level
    s[F_SHOW_LEVEL] = 0
    s[F_SHOW_PICKED] = 0
    s[F_PHASE] = PLAY


def _call(s: Any, card: int, opts: Any) -> None:
    """The taker calls ``card``: its holder is his partner, if not himself or the chien (§4.3)."""
    s[F_CALLED] = card
    partner = -1
    for other in range(opts[O_N]):
        if other != s[F_TAKER] and s[F_HAND_P + other] >> card & 1:
            partner = other
    s[F_PARTNER] = partner
    _after_call(s, opts)


def _discard(s: Any, card: int) -> None:
    taker = s[F_TAKER]
    if card < 56:
        s[F_HAND_P + taker] ^= np.int64(1) << card
        s[F_ECART_P] |= np.int64(1) << card
    else:
        s[F_HAND_T + taker] ^= np.int64(1) << (card - 56)
        s[F_ECART_T] |= np.int64(1) << (card - 56)
    s[F_DISCARDS_LEFT] -= 1
    if s[F_DISCARDS_LEFT] == 0:
        s[F_PHASE] = CHELEM


def _apply(s: Any, action: int, opts: Any) -> None:
    """Apply a legal action of the player to act."""
    phase = s[F_PHASE]
    seat = s[F_PLAYER]
    if phase == PLAY:
        _play_jit(s, action, opts)
    elif phase == BIDDING:
        index = action - BID_BASE
        if index:
            s[F_CONTRACT] = index
            s[F_TAKER] = seat
        s[F_NBIDS] += 1
        n = opts[O_N]
        if s[F_NBIDS] < n:
            bidder = seat + opts[O_BID_STEP]
            s[F_PLAYER] = bidder - n if bidder >= n else bidder
        else:
            _after_bids(s, opts)
    elif phase == DISCARD:
        _discard(s, action - DISCARD_BASE)
    elif phase == CHELEM:
        s[F_CHELEM] = action - CHELEM_BASE
        _lead(s, opts)
    elif phase == POIGNEE:
        level = action - POIGNEE_BASE
        if level == 0:
            s[F_PHASE] = PLAY
        elif popcount(_pool(s, seat)) > opts[O_POIGNEE_SIZE + level - 1]:
            s[F_SHOW_LEVEL] = level  # §3.7: the player chooses which trumps to show
            s[F_SHOW_PICKED] = 0
            s[F_PHASE] = SHOW
        else:
            _poignee_shown(s, opts, seat, level)
    elif phase == SHOW:
        level = s[F_SHOW_LEVEL]
        if action == SHOW_DEFAULT_ID:
            _poignee_shown(s, opts, seat, level)
        else:
            s[F_SHOW_PICKED] |= np.int64(1) << (action - SHOW_T_BASE)
            if popcount(s[F_SHOW_PICKED]) == opts[O_POIGNEE_SIZE + level - 1]:
                _poignee_shown(s, opts, seat, level)
    elif phase == CALL:
        _call(s, action - CALL_BASE, opts)


def _card_in(p: int, t: int, card: int) -> bool:
    if card < 56:
        return bool(p >> card & 1)
    return bool(t >> (card - 56) & 1)


def _is_legal(s: Any, action: int, opts: Any) -> bool:
    phase = s[F_PHASE]
    if phase == PLAY:
        if not 0 <= action < DISCARD_BASE:
            return False
        p, t = _play_mask(s)
        return _card_in(p, t, action)
    if phase == BIDDING:
        index = action - BID_BASE
        return index == 0 or (0 < index < 6 and _biddable(s, opts) >> index & 1 == 1)
    if phase == DISCARD:
        if not DISCARD_BASE <= action < CALL_BASE:
            return False
        p, t = _discard_mask(s)
        return _card_in(p, t, action - DISCARD_BASE)
    if phase == CHELEM:
        return action == CHELEM_BASE or action == CHELEM_BASE + 1
    if phase == POIGNEE:
        level = action - POIGNEE_BASE
        return level == 0 or (0 < level < 4 and _poignee_levels(s, s[F_PLAYER], opts) >> level & 1 == 1)
    if phase == SHOW:
        if action == SHOW_DEFAULT_ID:
            return True
        b = action - SHOW_T_BASE
        return 0 <= b < 21 and (_pool(s, s[F_PLAYER]) & ~s[F_SHOW_PICKED]) >> b & 1 == 1
    if phase == CALL:
        card = action - CALL_BASE
        return 0 <= card < 56 and _callable(s, opts) >> card & 1 == 1
    return False


def _pick_card(p: int, t: int, rng: Any, i: int) -> int:
    """A uniformly random card of two words."""
    in_p = popcount(p)
    k = draw(rng, i, in_p + popcount(t))
    if k < in_p:
        return int(nth_bit(p, k))
    return int(56 + nth_bit(t, k - in_p))


def _random_action(s: Any, rng: Any, i: int, opts: Any) -> int:
    """A uniformly random legal action of the player to act (-1 once the deal is over)."""
    phase = s[F_PHASE]
    if phase == PLAY:
        p, t = _play_mask_jit(s)
        return int(_pick_card_jit(p, t, rng, i))
    if phase == DISCARD:
        p, t = _discard_mask_jit(s)
        return int(DISCARD_BASE + _pick_card_jit(p, t, rng, i))
    if phase == BIDDING:
        bids = _biddable_jit(s, opts)
        k = draw(rng, i, 1 + popcount(bids))
        return BID_BASE if k == 0 else BID_BASE + nth_bit(bids, k - 1)
    if phase == CHELEM:
        return int(CHELEM_BASE + draw(rng, i, 2))
    if phase == POIGNEE:
        levels = _poignee_levels_jit(s, s[F_PLAYER], opts)
        k = draw(rng, i, 1 + popcount(levels))
        return POIGNEE_BASE if k == 0 else POIGNEE_BASE + nth_bit(levels, k - 1)
    if phase == SHOW:
        choices = _pool_jit(s, s[F_PLAYER]) & ~s[F_SHOW_PICKED]
        k = draw(rng, i, 1 + popcount(choices))
        return SHOW_DEFAULT_ID if k == 0 else SHOW_T_BASE + nth_bit(choices, k - 1)
    if phase == CALL:
        callable_cards = _callable_jit(s, opts)
        return int(CALL_BASE + nth_bit(callable_cards, draw(rng, i, popcount(callable_cards))))
    return -1


def _reset_all(states: Any, rng: Any, seed: int, first: int, opts: Any) -> None:
    pack = np.empty(78, dtype=np.int64)
    for i in range(states.shape[0]):
        seed_stream(rng, i, seed, first + i)
        _reset_jit(states[i], rng, i, opts, pack)


def _set_cards(row: Any, base: int, p: int, t: int) -> None:
    while p:
        row[base + lowbit(p)] = True
        p &= p - 1
    while t:
        row[base + 56 + lowbit(t)] = True
        t &= t - 1


def _legal_masks(states: Any, opts: Any, out: Any) -> None:
    out[:] = False
    for i in range(states.shape[0]):
        s = states[i]
        row = out[i]
        phase = s[F_PHASE]
        if phase == PLAY:
            p, t = _play_mask_jit(s)
            _set_cards_jit(row, 0, p, t)
        elif phase == DISCARD:
            p, t = _discard_mask_jit(s)
            _set_cards_jit(row, DISCARD_BASE, p, t)
        elif phase == CALL:
            _set_cards_jit(row, CALL_BASE, _callable_jit(s, opts), 0)
        elif phase == BIDDING:
            row[BID_BASE] = True
            bids = _biddable_jit(s, opts)
            for index in range(1, 6):
                if bids >> index & 1:
                    row[BID_BASE + index] = True
        elif phase == CHELEM:
            row[CHELEM_BASE] = True
            row[CHELEM_BASE + 1] = True
        elif phase == POIGNEE:
            row[POIGNEE_BASE] = True
            levels = _poignee_levels_jit(s, s[F_PLAYER], opts)
            for level in range(1, 4):
                if levels >> level & 1:
                    row[POIGNEE_BASE + level] = True
        elif phase == SHOW:
            row[SHOW_DEFAULT_ID] = True
            choices = _pool_jit(s, s[F_PLAYER]) & ~s[F_SHOW_PICKED]
            while choices:
                row[SHOW_T_BASE + lowbit(choices)] = True
                choices &= choices - 1


def _step_all(states: Any, actions: Any, opts: Any) -> int:
    """Apply every deal's action, or none: the first deal whose action is illegal, else -1."""
    for i in range(states.shape[0]):
        if states[i, F_PHASE] != END and not _is_legal_jit(states[i], actions[i], opts):
            return i
    for i in range(states.shape[0]):
        if states[i, F_PHASE] != END:
            _apply_jit(states[i], actions[i], opts)
    return -1


def _random_actions(states: Any, rng: Any, opts: Any, out: Any) -> None:
    for i in range(states.shape[0]):
        out[i] = _random_action_jit(states[i], rng, i, opts)


def _random_card_play(s: Any, rng: Any, i: int, opts: Any, hands_p: Any, hands_t: Any) -> None:
    """Play the rest of the card play with uniformly random legal cards, from the start of a trick
    with no declaration to come (:func:`_declarations_done`): :func:`_random_action` and
    :func:`_apply` card by card, with the same draws, but with the deal in registers rather than
    in its row."""
    n = opts[O_N]
    step = opts[O_STEP]
    tricks = opts[O_TRICKS]
    for seat in range(n):
        hands_p[seat] = s[F_HAND_P + seat]
        hands_t[seat] = s[F_HAND_T + seat]
    attack = np.int64(1) << s[F_TAKER]
    if s[F_PARTNER] >= 0:
        attack |= np.int64(1) << s[F_PARTNER]
    called = s[F_CALLED]
    x = rng[i]
    leader = s[F_PLAYER]
    trick_no = s[F_TRICK_NO]
    attack_p = s[F_ATTACK_P]
    attack_t = s[F_ATTACK_T]
    defense_p = s[F_DEFENSE_P]
    defense_t = s[F_DEFENSE_T]
    attack_tricks = s[F_ATTACK_TRICKS]
    debt = s[F_DEBT]
    petit_trick = s[F_PETIT_TRICK]
    petit_attack = s[F_PETIT_ATTACK]
    excuse_won_last = 0
    while trick_no < tricks:
        seat = leader
        led = -1
        trick_p = np.int64(0)
        trick_t = np.int64(0)
        best_key = -3
        winner = -1
        excuse_seat = -1
        excuse_led = False
        for position in range(n):
            p = hands_p[seat]
            t = hands_t[seat]
            legal_p = p
            legal_t = t
            if trick_no == 0 and position == 0 and called >= 0:
                # §3.8 step 2: the first lead is not of the called suit, unless the called card
                barred = (np.int64(M14) << (14 * (called // 14))) & ~(np.int64(1) << called)
                if p & ~barred or t:
                    legal_p = p & ~barred
            elif led >= 0:
                follow = p & (np.int64(M14) << (14 * led)) if led < 4 else np.int64(0)
                if follow:
                    legal_p = follow
                    legal_t = t & EXC_T
                else:
                    trumps = t & TRUMPS_T
                    if trumps:
                        top = bitlen(trick_t & TRUMPS_T)
                        higher = (trumps >> top) << top
                        legal_p = np.int64(0)
                        legal_t = (higher if higher else trumps) | (t & EXC_T)
            x = xorshift(x)  # the draw of draw(), with the state in a register
            in_p = popcount(legal_p)
            k = np.int64(bounded(x, in_p + popcount(legal_t)))
            if k < in_p:
                card = nth_bit(legal_p, k)
                bit = np.int64(1) << card
                hands_p[seat] = p ^ bit
                trick_p |= bit
                suit = card // 14
                if led < 0:
                    led = suit
                key = card % 14 if suit == led else -1
            else:
                b = nth_bit(legal_t, k - in_p)
                bit = np.int64(1) << b
                hands_t[seat] = t ^ bit
                trick_t |= bit
                if b == 21:
                    key = -2
                    excuse_seat = seat
                    excuse_led = position == 0
                else:
                    if led < 0:
                        led = 4
                    key = 100 + b
            if key > best_key:
                best_key = key
                winner = seat
            seat += step
            if seat >= n:
                seat -= n
        last = trick_no == tricks - 1
        if trick_t & EXC_T:
            owner_attack = attack >> excuse_seat & 1 == 1
            won_all = attack_tricks == trick_no if owner_attack else attack_tricks == 0
            if last and excuse_led and won_all:
                winner = excuse_seat  # §3.9 slam exception
                excuse_won_last = 1
            elif excuse_seat != winner and not last:
                trick_t ^= EXC_T
                if owner_attack:
                    attack_t |= EXC_T
                else:
                    defense_t |= EXC_T
                if owner_attack != (attack >> winner & 1 == 1):
                    debt = ATTACK_OWES if owner_attack else DEFENSE_OWES
        won = attack >> winner & 1 == 1
        if won:
            attack_p |= trick_p
            attack_t |= trick_t
            attack_tricks += 1
        else:
            defense_p |= trick_p
            defense_t |= trick_t
        if trick_t & PETIT_T:
            petit_trick = trick_no
            petit_attack = int(won)
        trick_no += 1
        leader = winner
    rng[i] = x
    for seat in range(n):
        s[F_HAND_P + seat] = 0
        s[F_HAND_T + seat] = 0
    s[F_TRICK_NO] = trick_no
    s[F_PENDING] = 0
    s[F_PLAYER] = leader
    s[F_ATTACK_P] = attack_p
    s[F_ATTACK_T] = attack_t
    s[F_DEFENSE_P] = defense_p
    s[F_DEFENSE_T] = defense_t
    s[F_ATTACK_TRICKS] = attack_tricks
    s[F_DEBT] = debt
    s[F_PETIT_TRICK] = petit_trick
    s[F_PETIT_ATTACK] = petit_attack
    s[F_EXCUSE_WON_LAST] = excuse_won_last
    _finish_deal(s, opts)


def _random_auction(s: Any, rng: Any, i: int, opts: Any) -> None:
    """From the first bid to the first card, with uniformly random legal actions: bids, the call,
    the écart and the chelem decision as :func:`_random_action` and :func:`_apply` make them, with
    the same draws, but without going through the action ids."""
    n = opts[O_N]
    seat = s[F_PLAYER]
    contract = 0
    taker = -1
    for _ in range(n):
        above = contract + 1
        bids = (opts[O_BIDS] >> above) << above
        k = draw(rng, i, 1 + popcount(bids))
        if k:
            contract = nth_bit(bids, k - 1)
            taker = seat
        seat += opts[O_BID_STEP]
        if seat >= n:
            seat -= n
    s[F_NBIDS] = n
    s[F_CONTRACT] = contract
    s[F_TAKER] = taker
    if contract == 0:
        _end(s, CANCELLED)
        return
    s[F_PLAYER] = taker
    if n == 5:
        callable_cards = _callable_jit(s, opts)
        _call(s, nth_bit(callable_cards, draw(rng, i, popcount(callable_cards))), opts)
    else:
        _after_call(s, opts)
    while s[F_PHASE] == DISCARD:
        p, t = _discard_mask_jit(s)
        _discard(s, _pick_card_jit(p, t, rng, i))
    s[F_CHELEM] = draw(rng, i, 2)
    _lead(s, opts)


def _declarations_done(s: Any, opts: Any) -> bool:
    """Whether the deal is at the start of a trick with no poignée left to declare: after the
    first trick, or in it when no seat still to play its first card may declare one."""
    if s[F_PHASE] != PLAY or s[F_TRICK_COUNT] != 0:
        return False
    if s[F_TRICK_NO] > 0:
        return True
    pending = s[F_PENDING]
    declarable = 0
    for seat in range(opts[O_N]):
        if pending >> seat & 1:
            declarable |= _poignee_levels_jit(s, seat, opts)
    return declarable == 0


def _play_out(s: Any, rng: Any, i: int, opts: Any, hands_p: Any, hands_t: Any) -> None:
    """Finish deal ``i`` with uniformly random legal actions: what stepping it with
    :func:`_random_action` does, the tricks after the first played in registers."""
    if s[F_PHASE] == BIDDING and s[F_NBIDS] == 0:
        _random_auction_jit(s, rng, i, opts)
    while s[F_PHASE] != END:
        if _declarations_done_jit(s, opts):
            _random_card_play_jit(s, rng, i, opts, hands_p, hands_t)
            return
        _apply_jit(s, _random_action_jit(s, rng, i, opts), opts)


def _play_out_all(states: Any, rng: Any, opts: Any) -> None:
    hands_p = np.empty(5, dtype=np.int64)
    hands_t = np.empty(5, dtype=np.int64)
    for i in range(states.shape[0]):
        _play_out_jit(states[i], rng, i, opts, hands_p, hands_t)


def _random_deals(count: int, seed: int, opts: Any, out: Any) -> None:
    """``count`` whole deals with random legal actions; each seat's score into ``out``."""
    s = np.empty(N_FIELDS, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    pack = np.empty(78, dtype=np.int64)
    hands_p = np.empty(5, dtype=np.int64)
    hands_t = np.empty(5, dtype=np.int64)
    table = opts[O_TABLE]
    for d in range(count):
        seed_stream(rng, 0, seed, d)
        _reset_jit(s, rng, 0, opts, pack)
        _play_out_jit(s, rng, 0, opts, hands_p, hands_t)
        for seat in range(table):
            out[d, seat] = s[F_SCORE + seat]


if AVAILABLE:
    _half_points = inline(_half_points)
    _is_petit_sec = inline(_is_petit_sec)
    _end = inline(_end)
    _start_jit: Any = jit(_start)
    _reset_jit: Any = inline(_reset)
    _biddable_jit: Any = inline(_biddable)
    _biddable = _biddable_jit
    _callable_jit: Any = inline(_callable)
    _callable = _callable_jit
    _discard_mask_jit: Any = inline(_discard_mask)
    _discard_mask = _discard_mask_jit
    _pool_jit: Any = inline(_pool)
    _pool = _pool_jit
    _poignee_levels_jit: Any = inline(_poignee_levels)
    _poignee_levels = _poignee_levels_jit
    _play_mask_jit: Any = inline(_play_mask)
    _play_mask = _play_mask_jit
    _begin_turn = inline(_begin_turn)
    _after_call = inline(_after_call)
    _after_bids = inline(_after_bids)
    _is_attack = inline(_is_attack)
    _round_margin = inline(_round_margin)
    _finish_deal = inline(_finish_deal)
    _finish_trick = inline(_finish_trick)
    _play_jit: Any = inline(_play)
    _lead = inline(_lead)
    _poignee_shown = inline(_poignee_shown)
    _apply_jit: Any = inline(_apply)
    _card_in = inline(_card_in)
    _is_legal_jit: Any = inline(_is_legal)
    _pick_card_jit: Any = inline(_pick_card)
    _random_action_jit: Any = inline(_random_action)
    _reset_all_jit: Any = jit(_reset_all)
    _set_cards_jit: Any = inline(_set_cards)
    _legal_masks_jit: Any = jit(_legal_masks)
    _step_all_jit: Any = jit(_step_all)
    _random_actions_jit: Any = jit(_random_actions)
    _random_card_play_jit: Any = inline(_random_card_play)
    _call = inline(_call)
    _discard = inline(_discard)
    _random_auction_jit: Any = inline(_random_auction)
    _declarations_done_jit: Any = inline(_declarations_done)
    _play_out_jit: Any = inline(_play_out)
    _play_out_all_jit: Any = jit(_play_out_all)
    _random_deals_jit: Any = jit(_random_deals)


def _names(p: int, t: int) -> str:
    return str(CardSet(int(p) | int(t) << 56))


# ---------------------------------------------------------------- the public face
class FrenchBatch:
    """``size`` French Tarot deals stepped together (the API of :class:`atout.batched.BatchedDeals`)."""

    action_count: int = N_ACTIONS

    def __init__(self, rules: Rules, size: int, seed: int = 0) -> None:
        need_numba()
        self.rules = rules
        self.players = rules.players
        self.size = size
        self._options = options(rules)
        self._states = np.zeros((size, N_FIELDS), dtype=np.int64)
        self._rng = np.zeros(size, dtype=np.uint64)
        self._seed = seed
        self._first = 0
        self._reset()

    def _reset(self) -> None:
        _reset_all_jit(self._states, self._rng, self._seed, self._first, self._options)

    def reset(self, seed: int | None = None) -> None:
        """New shuffled deals (dealer: seat 0): those of a new ``seed``, or the next ones of the
        current seed. Deal ``i`` after ``r`` resets without a seed is deal ``r × size + i`` of
        :func:`random_french_deals` with the same seed."""
        if seed is None:
            self._first += self.size
        else:
            self._seed, self._first = seed, 0
        self._reset()

    def load(self, index: int, data: Mapping[str, object]) -> None:
        """Start deal ``index`` again from chosen cards, given as the engine's ``dealt()`` gives
        them (checked as :func:`atout.games.deal_from_dealt` checks them); its random stream goes on."""
        if not 0 <= index < self.size:
            raise ValueError(f"index must be a deal number from 0 to {self.size - 1}, not {index!r}")
        deal = deal_from_dealt(self.rules, 0, data)
        inner = deal.inner if isinstance(deal, DeadPlayerDeal) else deal
        assert isinstance(inner, FrenchDeal)
        row = self._states[index]
        row[:] = 0
        for seat, hand in enumerate(inner.initial_hands):
            row[F_DEALT_P + seat] = hand & PLAIN
            row[F_DEALT_T + seat] = hand >> 56
        row[F_CHIEN_P] = inner.initial_chien & PLAIN
        row[F_CHIEN_T] = inner.initial_chien >> 56
        _start_jit(row, self._options)

    def current_player(self) -> Any:
        """The table seat to act in each deal, -1 when it is over."""
        inner = self._states[:, F_PLAYER]
        seats = self._options[O_SEAT : O_SEAT + self._options[O_N]]
        return np.where(inner >= 0, seats[np.maximum(inner, 0)], -1)

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
                f"actions: one action per deal is needed, shape ({self.size},), not {moves.shape}"
            )
        bad = int(_step_all_jit(self._states, moves, self._options))
        if bad >= 0:
            action = int(moves[bad])
            name = repr(NAMES[action]) if 0 <= action < N_ACTIONS else f"{action} (not an action id)"
            raise ValueError(f"deal {bad}: {name} is not legal there")

    def random_actions(self) -> Any:
        """A uniformly random legal action per deal (-1 for finished deals), drawn from each deal's
        own generator exactly as :func:`random_french_deals` draws them."""
        out = np.empty(self.size, dtype=np.int64)
        _random_actions_jit(self._states, self._rng, self._options, out)
        return out

    def play_out(self) -> None:
        """Finish every deal with uniformly random legal actions in one compiled call: the very
        deals that stepping with :meth:`random_actions` until all are done plays."""
        _play_out_all_jit(self._states, self._rng, self._options)

    def done(self) -> Any:
        """(size,) bool: which deals are over."""
        return self._states[:, F_PHASE] == END

    def cancelled(self) -> Any:
        """(size,) bool: which deals ended unplayed (everyone passed, or a petit sec)."""
        return self._states[:, F_OUTCOME] == CANCELLED

    def scores(self) -> Any:
        """(size, players) int: each table seat's score (0 for cancelled deals); valid where done."""
        return self._states[:, F_SCORE : F_SCORE + self.players].copy()

    def dealt(self, index: int) -> dict[str, object]:
        """The dealt cards of deal ``index`` as the engine's ``dealt()`` gives them (table seats;
        a dead dealer's hand empty)."""
        row = self._states[index]
        hands = [""] * self.players
        for seat in range(int(self._options[O_N])):
            table_seat = int(self._options[O_SEAT + seat])
            hands[table_seat] = _names(row[F_DEALT_P + seat], row[F_DEALT_T + seat])
        return {"hands": hands, "chien": _names(row[F_CHIEN_P], row[F_CHIEN_T])}


def warm_up() -> None:
    """Compile every kernel Python calls into numba's on-disk cache (a few deals of each table)."""
    for rules in (Rules(players=3), Rules(players=4), Rules(players=5, five_player_mode="dead_player")):
        batch = FrenchBatch(rules, 2, seed=1)
        batch.legal_mask()
        batch.step(batch.random_actions())
        batch.load(0, batch.dealt(1))
        batch.play_out()
        batch.reset()
        random_french_deals(rules, 2, seed=1)


def random_french_deals(rules: Rules, count: int, seed: int = 0) -> Any:
    """``count`` French Tarot deals with uniformly random legal actions, played in one compiled
    call: each table seat's score, shape ``(count, players)``."""
    need_numba()
    out = np.zeros((count, rules.players), dtype=np.int64)
    _random_deals_jit(count, seed, options(rules), out)
    return out


__all__ = ["AVAILABLE", "FrenchBatch", "check_rules", "options", "random_french_deals", "warm_up"]
