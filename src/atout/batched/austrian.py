"""Austrian Tarock deals stepped together in compiled code (numba): a copy of
:mod:`atout.engine.austrian` for training, proven equal to it by ``tests/batched/test_austrian.py``.

The 54 cards are renumbered 0-53 in the engine's order (so the k-th set bit of a mask is the k-th
legal action): the four plain suits 8 cards each, then the 22 trumps, Sküs last. A set of cards is
one ``int64``; a deal is one row of an ``int64`` state array (fields below). Every option of the
game is played: jack value, overtrumping, the talon modes, trull discards, game 2, the solo's
multiplier and talon, both scorings and both directions of play.

>>> from atout.presets import rules_for
>>> batch = AustrianBatch(rules_for("tarock"), size=4, seed=1)
>>> batch.current_player().tolist(), int(batch.legal_mask()[0].sum())
([1, 1, 1, 1], 3)
>>> random_austrian_deals(rules_for("tarock"), 3, seed=5).shape
(3, 3)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from atout.batched.bits import bounded, draw, need_numba, nth_bit, seed_stream, shuffle, xorshift
from atout.cards import (
    AUSTRIAN_DECK_MASK,
    CAVALIERS_MASK,
    JACKS_MASK,
    KINGS_MASK,
    N_CARDS,
    QUEENS_MASK,
    SUIT_MASKS,
    CardSet,
    cards_of,
)
from atout.engine.austrian.actions import (
    BID_BASE,
    DISCARD_BASE,
    GAME_BASE,
    N_AUSTRIAN_ACTIONS,
    TALON_BASE,
)
from atout.engine.austrian.cards import AUSTRIAN_TRUMPS_MASK, STRENGTH, TRULL_MASK
from atout.engine.austrian.deal import AustrianDeal
from atout.engine.deal import seat_step
from atout.jit import AVAILABLE, bitlen, inline, jit, lowbit, np, popcount
from atout.rules import Rules, RulesError

ENGINE_CARD: Final = tuple(cards_of(AUSTRIAN_DECK_MASK))
"""The engine's card index of each compact card 0-53."""
COMPACT_CARD: Final = tuple(ENGINE_CARD.index(c) if c in ENGINE_CARD else -1 for c in range(N_CARDS))
"""The compact index of each engine card (-1 outside the 54-card pack)."""


def _compact(mask: int) -> int:
    return sum(1 << i for i, card in enumerate(ENGINE_CARD) if mask >> card & 1)


def _engine(mask: int) -> int:
    return sum(1 << card for i, card in enumerate(ENGINE_CARD) if mask >> i & 1)


TRUMPS_C: Final = _compact(AUSTRIAN_TRUMPS_MASK)
SUITS_C: Final = (*(_compact(SUIT_MASKS[s]) for s in range(4)), TRUMPS_C)
KINGS_C: Final = _compact(KINGS_MASK)
TRULL_C: Final = _compact(TRULL_MASK)
QUEENS_C: Final = _compact(QUEENS_MASK)
CAVALIERS_C: Final = _compact(CAVALIERS_MASK)
JACKS_C: Final = _compact(JACKS_MASK)
N_COMPACT: Final = len(ENGINE_CARD)
TRUMP_SUIT: Final = 4

# phases
BIDDING, TALON, DISCARD, GAME, PLAY, END = range(6)
# state fields of one deal (one int64 row)
F_PHASE, F_PLAYER, F_DEALER = 0, 1, 2
F_HAND = 3  # 3 hands
F_HALF = 6  # 2 talon halves
F_NBIDS, F_HIGH, F_HIGH_SEAT, F_DECLARER, F_BID, F_TAKEN = 8, 9, 10, 11, 12, 13
F_DISCARD, F_NDISCARD, F_GAME = 14, 15, 16
F_LED, F_TRICK, F_NTRICK, F_BEST, F_BEST_SEAT, F_TRICK_NO = 17, 18, 19, 20, 21, 22
F_WON = 23  # 3 piles
F_SCORE = 26  # 3 scores
F_OUTCOME = 29  # 0 running, 1 played, 2 cancelled
F_DEALT = 30  # 3 dealt hands
N_FIELDS: Final = 33
# options (one int64 vector)
O_JACK, O_OVERTRUMP, O_FORBID_TRULL, O_GAME2, O_SOLO_MULT = 0, 1, 2, 3, 4
O_SOLO_TALON_DECLARER, O_ZERO_SUM, O_STEP, O_FREE_CHOICE, O_TOTAL = 5, 6, 7, 8, 9
N_OPTIONS: Final = 10


def check_rules(rules: Rules) -> None:
    """Refuse rules the batched Austrian game does not play, naming the option."""
    if rules.game != "austrian":
        raise RulesError(f"game={rules.game}: the batched Austrian simulator plays only game=austrian")
    if rules.austrian_all_pass != "redeal":
        raise RulesError(
            f"austrian_all_pass={rules.austrian_all_pass} is not played by the batched simulator"
        )


def options(rules: Rules) -> Any:
    """The rules as the kernels' option vector."""
    check_rules(rules)
    values = [0] * N_OPTIONS
    values[O_JACK] = rules.austrian_jack_value
    values[O_OVERTRUMP] = int(rules.austrian_must_overtrump)
    values[O_FORBID_TRULL] = int(rules.austrian_forbid_trull_discard)
    values[O_GAME2] = int(rules.austrian_allow_game2)
    values[O_SOLO_MULT] = rules.austrian_solo_multiplier
    values[O_SOLO_TALON_DECLARER] = int(rules.austrian_solo_talon == "declarer")
    values[O_ZERO_SUM] = int(rules.austrian_scoring == "zero_sum")
    values[O_STEP] = seat_step(rules) % 3
    values[O_FREE_CHOICE] = int(rules.austrian_talon_mode == "free_choice")
    values[O_TOTAL] = 74 if rules.austrian_jack_value == 3 else 70
    return np.array(values, dtype=np.int64)


# ---------------------------------------------------------------- kernels (plain Python, compiled below)
_ENGINE_OF: Any = np.array(ENGINE_CARD, dtype=np.int64) if AVAILABLE else None
_COMPACT_OF: Any = np.array(COMPACT_CARD, dtype=np.int64) if AVAILABLE else None
_STRENGTH_OF: Any = np.array([STRENGTH[c] for c in ENGINE_CARD], dtype=np.int64) if AVAILABLE else None
_SUITS: Any = np.array(SUITS_C, dtype=np.int64) if AVAILABLE else None


def _reset(s: Any, rng: Any, i: int, opts: Any, pack: Any) -> None:
    """Shuffle and deal (dealer seat 0) into state row ``s`` with generator ``i``."""
    shuffle(pack, 54, rng, i)
    _deal_jit(s, opts, pack)


def _deal(s: Any, opts: Any, pack: Any) -> None:
    """Deal an ordered pack of compact cards (top card first) into state row ``s``, as
    :func:`atout.engine.austrian.cards.deal_pack` does with the dealer at seat 0."""
    for f in range(N_FIELDS):
        s[f] = 0
    step = opts[O_STEP]
    for packet in range(6):
        seat = (step * (packet % 3 + 1)) % 3
        hand = s[F_HAND + seat]
        for c in range(8 * packet, 8 * packet + 8):
            hand |= np.int64(1) << pack[c]
        s[F_HAND + seat] = hand
    for half in range(2):
        cards = 0
        for c in range(48 + 3 * half, 51 + 3 * half):
            cards |= np.int64(1) << pack[c]
        s[F_HALF + half] = cards
    for seat in range(3):
        s[F_DEALT + seat] = s[F_HAND + seat]
    s[F_PHASE] = BIDDING
    s[F_PLAYER] = step % 3
    s[F_DECLARER] = -1
    s[F_LED] = -1


def _play_mask(s: Any, opts: Any) -> int:
    """The compact cards the current player may play (rule book §5.4)."""
    hand = int(s[F_HAND + s[F_PLAYER]])
    if s[F_NTRICK] == 0:
        return hand
    led = s[F_LED]
    if led != TRUMP_SUIT:
        follow = hand & _SUITS[led]
        if follow:
            return int(follow)
    trumps = hand & TRUMPS_C
    if trumps == 0:
        return hand
    if opts[O_OVERTRUMP]:
        top = bitlen(s[F_TRICK] & TRUMPS_C)
        higher = (trumps >> top) << top
        if higher:
            return int(higher)
    return trumps


def _discard_mask(s: Any, opts: Any) -> int:
    banned = KINGS_C | (TRULL_C if opts[O_FORBID_TRULL] else 0)
    return int(s[F_HAND + s[F_DECLARER]] & ~banned)


def _is_legal(s: Any, action: int, opts: Any) -> bool:
    phase = s[F_PHASE]
    if action < 0 or action >= N_AUSTRIAN_ACTIONS:
        return False
    if phase == PLAY:
        if action >= DISCARD_BASE:
            return False
        c = _COMPACT_OF[action]
        return bool(c >= 0 and (_play_mask_jit(s, opts) >> c) & 1 == 1)
    if phase == BIDDING:
        index = action - BID_BASE
        return bool(index == 0 or s[F_HIGH] < index < 3)
    if phase == TALON:
        return bool(TALON_BASE <= action < GAME_BASE)
    if phase == DISCARD:
        if not DISCARD_BASE <= action < BID_BASE:
            return False
        c = _COMPACT_OF[action - DISCARD_BASE]
        return bool(c >= 0 and (_discard_mask_jit(s, opts) >> c) & 1 == 1)
    if phase == GAME:
        return bool(action >= GAME_BASE)
    return False


def _count(pile: int, opts: Any) -> int:
    """Card points counted in threes (rule book §5.5)."""
    n = popcount(pile)
    total = (
        n
        + 4 * popcount(pile & (TRULL_C | KINGS_C))
        + 3 * popcount(pile & QUEENS_C)
        + 2 * popcount(pile & CAVALIERS_C)
        + (opts[O_JACK] - 1) * popcount(pile & JACKS_C)
    )
    return int(total - 2 * (n // 3))


def _finish(s: Any, opts: Any) -> None:
    """Count and score the played deal (rule book §5.7), as :func:`atout.scoring.score_austrian`."""
    declarer, solo = s[F_DECLARER], s[F_BID] == 2
    pile = s[F_WON + declarer] | s[F_DISCARD]
    if solo and opts[O_SOLO_TALON_DECLARER]:
        pile |= s[F_HALF] | s[F_HALF + 1]
    points = _count_jit(pile, opts)
    game1 = s[F_GAME] == 0
    wins = points >= 36 if game1 else points <= 35
    winners = points if wins else opts[O_TOTAL] - points
    margin = max(0, winners - 35 if game1 else 35 - winners)
    if solo:
        k = opts[O_SOLO_MULT]
    elif s[F_TAKEN] == 2 and not opts[O_FREE_CHOICE]:
        k = 4
    else:
        k = 2
    value = (100 if solo else 50) + k * margin
    for seat in range(3):
        if opts[O_ZERO_SUM]:
            if seat == declarer:
                s[F_SCORE + seat] = 2 * value if wins else -2 * value
            else:
                s[F_SCORE + seat] = -value if wins else value
        else:
            s[F_SCORE + seat] = value if (seat == declarer) == wins else 0
    s[F_OUTCOME] = 1
    s[F_PHASE] = END
    s[F_PLAYER] = -1


def _start_play(s: Any, opts: Any, game: int) -> None:
    s[F_GAME] = game
    s[F_PLAYER] = opts[O_STEP] % 3  # forehand, the dealer (seat 0) being to his left
    s[F_PHASE] = PLAY


def _apply(s: Any, action: int, opts: Any) -> None:
    """Apply a legal action to state row ``s``, as :meth:`AustrianDeal.apply` does."""
    phase, seat, step = s[F_PHASE], s[F_PLAYER], opts[O_STEP]
    if phase == PLAY:
        c = _COMPACT_OF[action]
        bit = np.int64(1) << c
        s[F_HAND + seat] ^= bit
        s[F_TRICK] |= bit
        n = s[F_NTRICK]
        if n == 0:
            s[F_LED] = c // 8 if c < 32 else TRUMP_SUIT
            s[F_BEST], s[F_BEST_SEAT] = c, seat
        else:
            best = s[F_BEST]
            if c >= 32:
                beats = best < 32 or c > best
            else:
                beats = best < 32 and c // 8 == s[F_LED] and _STRENGTH_OF[c] > _STRENGTH_OF[best]
            if beats:
                s[F_BEST], s[F_BEST_SEAT] = c, seat
        if n < 2:
            s[F_NTRICK] = n + 1
            s[F_PLAYER] = (seat + step) % 3
            return
        winner = s[F_BEST_SEAT]
        s[F_WON + winner] |= s[F_TRICK]
        s[F_TRICK], s[F_NTRICK], s[F_LED] = 0, 0, -1
        s[F_TRICK_NO] += 1
        s[F_PLAYER] = winner
        if s[F_TRICK_NO] == 16:
            _finish_jit(s, opts)
    elif phase == BIDDING:
        index = action - BID_BASE
        s[F_NBIDS] += 1
        if index:
            s[F_HIGH], s[F_HIGH_SEAT] = index, seat
        if s[F_NBIDS] < 3:
            s[F_PLAYER] = (seat + step) % 3
        elif s[F_HIGH] == 0:  # all pass: the deal is cancelled
            s[F_OUTCOME], s[F_PHASE], s[F_PLAYER] = 2, END, -1
        else:
            declarer = s[F_HIGH_SEAT]
            s[F_DECLARER], s[F_BID], s[F_PLAYER] = declarer, s[F_HIGH], declarer
            if s[F_BID] == 2:
                if opts[O_GAME2]:
                    s[F_PHASE] = GAME
                else:
                    _start_play_jit(s, opts, 0)
            else:
                s[F_PHASE] = TALON
    elif phase == TALON:
        half = action - TALON_BASE + 1
        s[F_TAKEN] = half
        s[F_HAND + seat] |= s[F_HALF + half - 1]
        s[F_PHASE] = DISCARD
    elif phase == DISCARD:
        bit = np.int64(1) << _COMPACT_OF[action - DISCARD_BASE]
        s[F_HAND + seat] ^= bit
        s[F_DISCARD] |= bit
        s[F_NDISCARD] += 1
        if s[F_NDISCARD] == 3:
            if opts[O_GAME2]:
                s[F_PHASE] = GAME
            else:
                _start_play_jit(s, opts, 0)
    elif phase == GAME:
        _start_play_jit(s, opts, action - GAME_BASE)


def _random_action(s: Any, rng: Any, i: int, opts: Any) -> int:
    """The k-th legal action in increasing order, k uniform (generator ``i``)."""
    phase = s[F_PHASE]
    if phase == PLAY:
        legal = _play_mask_jit(s, opts)
        return int(_ENGINE_OF[nth_bit(legal, draw(rng, i, popcount(legal)))])
    if phase == BIDDING:
        k = draw(rng, i, 3 - s[F_HIGH])
        return BID_BASE if k == 0 else int(BID_BASE + s[F_HIGH] + k)
    if phase == DISCARD:
        legal = _discard_mask_jit(s, opts)
        return int(DISCARD_BASE + _ENGINE_OF[nth_bit(legal, draw(rng, i, popcount(legal)))])
    if phase == TALON:
        return int(TALON_BASE + draw(rng, i, 2))
    return int(GAME_BASE + draw(rng, i, 2))


def _reset_all(states: Any, rng: Any, seed: int, first: int, opts: Any) -> None:
    pack = np.empty(54, dtype=np.int64)
    for i in range(states.shape[0]):
        seed_stream(rng, i, seed, first + i)
        _reset_jit(states[i], rng, i, opts, pack)


def _load(s: Any, opts: Any, pack: Any) -> None:
    _deal_jit(s, opts, pack)


def _legal_masks(states: Any, opts: Any, out: Any) -> None:
    out[:] = False
    for i in range(states.shape[0]):
        s = states[i]
        phase = s[F_PHASE]
        if phase in (PLAY, DISCARD):
            legal = _play_mask_jit(s, opts) if phase == PLAY else _discard_mask_jit(s, opts)
            base = 0 if phase == PLAY else DISCARD_BASE
            while legal:
                out[i, base + _ENGINE_OF[lowbit(legal)]] = True
                legal &= legal - 1
        elif phase == BIDDING:
            out[i, BID_BASE] = True
            for index in range(s[F_HIGH] + 1, 3):
                out[i, BID_BASE + index] = True
        elif phase == TALON:
            out[i, TALON_BASE] = out[i, TALON_BASE + 1] = True
        elif phase == GAME:
            out[i, GAME_BASE] = out[i, GAME_BASE + 1] = True


def _step_all(states: Any, actions: Any, opts: Any) -> int:
    """Apply one action to every running deal; the first deal whose action is illegal, or -1 (then
    nothing is applied)."""
    for i in range(states.shape[0]):
        if states[i, F_PHASE] != END and not _is_legal_jit(states[i], actions[i], opts):
            return i
    for i in range(states.shape[0]):
        if states[i, F_PHASE] != END:
            _apply_jit(states[i], actions[i], opts)
    return -1


def _random_actions(states: Any, rng: Any, opts: Any, out: Any) -> None:
    for i in range(states.shape[0]):
        out[i] = -1 if states[i, F_PHASE] == END else _random_action_jit(states[i], rng, i, opts)


def _play_out(states: Any, rng: Any, opts: Any) -> None:
    """Finish every deal with the random actions :func:`_random_actions` would draw."""
    for i in range(states.shape[0]):
        s = states[i]
        while s[F_PHASE] != END:
            _apply_jit(s, _random_action_jit(s, rng, i, opts), opts)


def _random_deals(count: int, seed: int, opts: Any, out: Any) -> None:
    """Whole random deals, each decision drawn as :func:`_random_action` draws it, with the deal
    kept in local variables from the bids to the last trick (the state row serves the deal and
    the count only): the simulator's fast path, checked equal to stepped play by the tests."""
    s = np.empty(N_FIELDS, dtype=np.int64)
    pack = np.empty(54, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    step, overtrump, game2 = opts[O_STEP], opts[O_OVERTRUMP], opts[O_GAME2]
    banned = KINGS_C | (TRULL_C if opts[O_FORBID_TRULL] else 0)
    forehand = step % 3
    for i in range(count):
        seed_stream(rng, 0, seed, i)
        _reset_jit(s, rng, 0, opts, pack)
        x = rng[0]
        high, declarer, seat = 0, -1, forehand
        for _ in range(3):
            x = xorshift(x)
            k = bounded(x, 3 - high)
            if k:
                high, declarer = high + k, seat
            seat = seat + step - 3 if seat + step >= 3 else seat + step
        if high == 0:
            out[i, 0] = out[i, 1] = out[i, 2] = 0
            continue
        h0, h1, h2 = s[F_HAND], s[F_HAND + 1], s[F_HAND + 2]
        own = h0 if declarer == 0 else (h1 if declarer == 1 else h2)
        discard, taken = 0, 0
        if high == 1:
            x = xorshift(x)
            taken = 1 + bounded(x, 2)
            own |= s[F_HALF + taken - 1]
            for _ in range(3):
                legal = own & ~banned
                x = xorshift(x)
                bit = np.int64(1) << nth_bit(legal, bounded(x, popcount(legal)))
                own ^= bit
                discard |= bit
        if declarer == 0:
            h0 = own
        elif declarer == 1:
            h1 = own
        else:
            h2 = own
        game = 0
        if game2:
            x = xorshift(x)
            game = bounded(x, 2)
        pile, leader = 0, forehand
        for _ in range(16):
            seat, trick, led, best, best_seat = leader, 0, -1, -1, -1
            for j in range(3):
                hand = h0 if seat == 0 else (h1 if seat == 1 else h2)
                legal = hand
                if j:
                    follow = hand & _SUITS[led] if led != TRUMP_SUIT else 0
                    if follow:
                        legal = follow
                    else:
                        trumps = hand & TRUMPS_C
                        if trumps:
                            legal = trumps
                            if overtrump:
                                top = bitlen(trick & TRUMPS_C)
                                higher = (trumps >> top) << top
                                if higher:
                                    legal = higher
                x = xorshift(x)
                c = nth_bit(legal, bounded(x, popcount(legal)))
                bit = np.int64(1) << c
                if seat == 0:
                    h0 ^= bit
                elif seat == 1:
                    h1 ^= bit
                else:
                    h2 ^= bit
                trick |= bit
                if j == 0:
                    led, best, best_seat = (c >> 3 if c < 32 else TRUMP_SUIT), c, seat
                elif (
                    (best < 32 or c > best)
                    if c >= 32
                    else (best < 32 and c >> 3 == led and _STRENGTH_OF[c] > _STRENGTH_OF[best])
                ):
                    best, best_seat = c, seat
                seat = seat + step - 3 if seat + step >= 3 else seat + step
            if best_seat == declarer:
                pile |= trick
            leader = best_seat
        s[F_DECLARER], s[F_BID], s[F_TAKEN], s[F_GAME] = declarer, high, taken, game
        s[F_DISCARD], s[F_WON + declarer] = discard, pile
        _finish_jit(s, opts)
        out[i, 0], out[i, 1], out[i, 2] = s[F_SCORE], s[F_SCORE + 1], s[F_SCORE + 2]


if AVAILABLE:
    _deal_jit: Any = inline(_deal)
    _reset_jit: Any = inline(_reset)
    _play_mask_jit: Any = inline(_play_mask)
    _discard_mask_jit: Any = inline(_discard_mask)
    _is_legal_jit: Any = inline(_is_legal)
    _count_jit: Any = inline(_count)
    _finish_jit: Any = inline(_finish)
    _start_play_jit: Any = inline(_start_play)
    _apply_jit: Any = inline(_apply)
    _random_action_jit: Any = inline(_random_action)
    _reset_all_jit: Any = jit(_reset_all)
    _load_jit: Any = jit(_load)
    _legal_masks_jit: Any = jit(_legal_masks)
    _step_all_jit: Any = jit(_step_all)
    _random_actions_jit: Any = jit(_random_actions)
    _play_out_jit: Any = jit(_play_out)
    _random_deals_jit: Any = jit(_random_deals)


# ---------------------------------------------------------------- the public face
class AustrianBatch:
    """``size`` Austrian Tarock deals stepped together (the API of :class:`atout.batched.BatchedDeals`)."""

    action_count: int = N_AUSTRIAN_ACTIONS
    players: int = 3

    def __init__(self, rules: Rules, size: int, seed: int = 0) -> None:
        need_numba()
        if not isinstance(size, int) or size < 1:
            raise ValueError(f"size: must be a positive number of deals, not {size!r}")
        self.rules = rules
        self.size = size
        self._options = options(rules)
        self._states = np.zeros((size, N_FIELDS), dtype=np.int64)
        self._rng = np.zeros(size, dtype=np.uint64)
        self._first = 0
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """New shuffled deals (dealer: seat 0): those of a new ``seed``, or the next ones of the
        current seed. Deal ``i`` after ``r`` resets without a seed is deal ``r × size + i`` of
        :func:`random_austrian_deals` with the same seed."""
        if seed is None:
            self._first += self.size
        else:
            if not isinstance(seed, int) or not 0 <= seed < 2**63:
                raise ValueError(f"seed: must be a whole number from 0 to 2**63 - 1, not {seed!r}")
            self._seed, self._first = seed, 0
        _reset_all_jit(self._states, self._rng, self._seed, self._first, self._options)

    def current_player(self) -> Any:
        """The seat to act in each deal, -1 when it is over."""
        return self._states[:, F_PLAYER].copy()

    def legal_mask(self) -> Any:
        """(size, action_count) bool: the legal actions of each deal (none once it is over)."""
        out = np.empty((self.size, N_AUSTRIAN_ACTIONS), dtype=np.bool_)
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
        bad = int(_step_all_jit(self._states, moves, self._options))
        if bad >= 0:
            raise ValueError(f"deal {bad}: action {int(moves[bad])} is not legal")

    def random_actions(self) -> Any:
        """A uniformly random legal action per deal (-1 for finished deals), drawn from each deal's
        own generator exactly as :func:`random_austrian_deals` draws them."""
        out = np.empty(self.size, dtype=np.int64)
        _random_actions_jit(self._states, self._rng, self._options, out)
        return out

    def play_out(self) -> None:
        """Finish every deal in one compiled call, as stepping with :meth:`random_actions` until every
        deal is done would."""
        _play_out_jit(self._states, self._rng, self._options)

    def done(self) -> Any:
        """(size,) bool: which deals are over."""
        return self._states[:, F_PHASE] == END

    def cancelled(self) -> Any:
        """(size,) bool: which deals ended with everyone passing."""
        return self._states[:, F_OUTCOME] == 2

    def scores(self) -> Any:
        """(size, 3) int: each seat's score (0 for cancelled deals); valid where :meth:`done`."""
        return self._states[:, F_SCORE : F_SCORE + 3].copy()

    def load(self, index: int, data: Mapping[str, object]) -> None:
        """Replace deal ``index`` by the dealt cards ``data`` (:meth:`AustrianDeal.dealt`'s format, the
        dealer at seat 0), to play chosen deals; bad data raises :class:`ValueError` naming the field."""
        self._check_index(index)
        deal = AustrianDeal.from_dealt(self.rules, 0, data)
        step = int(self._options[O_STEP])
        hands = [[COMPACT_CARD[c] for c in cards_of(hand)] for hand in deal.initial_hands]
        pack: list[int] = []
        for packet in range(6):
            pack += hands[step * (packet % 3 + 1) % 3][8 * (packet // 3) : 8 * (packet // 3) + 8]
        for half in deal.talon:
            pack += [COMPACT_CARD[c] for c in cards_of(half)]
        _load_jit(self._states[index], self._options, np.array(pack, dtype=np.int64))

    def _check_index(self, index: object) -> None:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < self.size:
            raise ValueError(f"index: must be a deal 0..{self.size - 1}, not {index!r}")

    def dealt(self, index: int) -> dict[str, object]:
        """The dealt cards of deal ``index`` as :meth:`AustrianDeal.dealt` gives them."""
        self._check_index(index)
        row = self._states[index]
        return {
            "hands": [str(CardSet(_engine(int(row[F_DEALT + seat])))) for seat in range(3)],
            "talon": [str(CardSet(_engine(int(row[F_HALF + half])))) for half in range(2)],
        }


def random_austrian_deals(rules: Rules, count: int, seed: int = 0) -> Any:
    """``count`` full deals with uniformly random legal actions, played in one compiled call;
    returns the scores, shape (count, 3)."""
    need_numba()
    opts = options(rules)
    if not isinstance(count, int) or count < 0:
        raise ValueError(f"count: must be a number of deals, not {count!r}")
    if not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ValueError(f"seed: must be a whole number from 0 to 2**63 - 1, not {seed!r}")
    out = np.zeros((count, 3), dtype=np.int64)
    _random_deals_jit(count, seed, opts, out)
    return out


def warm_up() -> None:
    """Compile every kernel Python calls (or load it from numba's cache)."""
    if not AVAILABLE:
        return
    from atout.presets import rules_for

    rules = rules_for("tarock")
    batch = AustrianBatch(rules, 2, seed=1)
    batch.legal_mask()
    batch.step(batch.random_actions())
    batch.load(0, batch.dealt(1))
    batch.play_out()
    batch.reset()
    random_austrian_deals(rules, 2, seed=1)


__all__ = ["AVAILABLE", "AustrianBatch", "check_rules", "random_austrian_deals", "warm_up"]
