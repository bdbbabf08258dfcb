"""The solver's search compiled with numba: the optional extra ``solver-fast`` (``numba>=0.60``).

The same search as :mod:`atout.solver.search` (same bounds, table, pruning, ordering and
MTD(f) guesses, so the same values and the same node counts), over a compact card numbering:
the cards still in play, renumbered in the pack's order, fit one 64-bit word as long as there
are at most 63 of them (up to 12 cards per hand in 5 players). The table is an open-addressing
hash table in arrays, the search an explicit stack of frames (no recursion).

The module imports without numba (``AVAILABLE`` is then false and nothing here may be called);
:func:`atout.solver.search.fast_module` decides whether a :class:`~atout.solver.search.Solver`
uses it. Functions compile on first use (tens of seconds) and are cached on disk (numba's
``cache=True``), so later processes load them in about a second; ``python -m atout.solver.fast``
compiles them ahead.
"""

from __future__ import annotations

from typing import Any

from atout.cards import BIT, EXCUSE, HALF_POINTS, PETIT_MASK, SUIT_OF, cards_of
from atout.jit import AVAILABLE, bitlen, inline, jit, lowbit, np, numba, popcount
from atout.rules import Rules
from atout.solver.position import ExcuseState, Position
from atout.solver.search import FIXED_CARDS, FIXED_RANK

MAX_CARDS = 63
"""The most cards in play the compact numbering holds (one bit each in a signed 64-bit word)."""
INF = 1 << 20

# cfg slots
N, LOW, PAY_MAX, EARLY, FORBIDDEN, ROOT_LEFT, REVEAL, EXC, USE_TT, USE_EQ, USE_ORDER, CANONICAL = range(12)
TRUMPS, EXC_MASK, FIXED, V9, V7, V5, V3, V1 = range(12, 20)
PETIT_BIT, PETIT_BONUS, PETIT_AU_BOUT = range(20, 23)
# the sides as each seat knows them (rule book §3.8 step 1, §4.3), public and hidden: five bits a seat
SIDES_PUBLIC, SIDES_HIDDEN = range(23, 25)
CFG_SIZE = 25
# the Excuse state packed in a word: the seats that won a trick (bits 0-4), each side's cheapest won
# card (5-8, 9-12), the exchange owed plus one (13-14), the sides public (15)

# tab rows
HP, SUIT, OWNER, FIXED_RANK_ROW = range(4)


# ------------------------------------------------------------------ the kernel
def _half_points(cfg: Any, mask: int) -> int:
    return int(
        popcount(mask)
        + 8 * popcount(mask & cfg[V9])
        + 6 * popcount(mask & cfg[V7])
        + 4 * popcount(mask & cfg[V5])
        + 2 * popcount(mask & cfg[V3])
    )


def _min_value(cfg: Any, mask: int) -> int:
    if not mask:
        return 0
    if mask & cfg[V1]:
        return 1
    if mask & cfg[V3]:
        return 3
    if mask & cfg[V5]:
        return 5
    if mask & cfg[V7]:
        return 7
    return 9


def _finish(
    cfg: Any, tab: Any, smask: Any, side: Any, tmask: int, led: int, tpts: int, first: int, left: int, xs: int
) -> tuple[int, int, int]:
    """``finisher`` of :mod:`atout.solver.position` over compact cards; the Excuse state packed in an int."""
    exc_mask = cfg[EXC_MASK]
    body = tmask & ~exc_mask
    top = body & cfg[TRUMPS]
    win = bitlen(top if top else body & smask[led]) - 1
    winner = tab[OWNER, win]
    wside = side[winner]
    won_by = xs & 31
    min_a = (xs >> 5) & 15
    min_d = (xs >> 9) & 15
    debt = ((xs >> 13) & 3) - 1
    public = (xs >> 15) & 1
    if tmask & exc_mask:
        exc = cfg[EXC]
        owner = tab[OWNER, exc]
        oside = side[owner]
        if left == 1:
            if first == exc and not (won_by & ~(cfg[SIDES_PUBLIC] >> (5 * owner)) & 31):
                winner, wside = owner, oside
            gain = 0 if wside else tpts
        else:
            gain = (0 if oside else 9) + (0 if wside else tpts - 9)
            if oside != wside:
                debt = oside
    else:
        gain = 0 if wside else tpts
    if tmask & cfg[PETIT_BIT]:
        if not wside:
            gain += cfg[PETIT_BONUS]
        if left == 1:
            gain += -cfg[PETIT_AU_BOUT] if wside else cfg[PETIT_AU_BOUT]
    won_by |= 1 << winner
    value = _min_value_jit(cfg, body)
    if wside:
        if value and (not min_d or value < min_d):
            min_d = value
    elif value and (not min_a or value < min_a):
        min_a = value
    reveal = cfg[REVEAL]
    if not public and reveal >= 0 and (tmask >> reveal) & 1:
        public = 1
    if debt >= 0 and (public or left == 1):
        pile = min_d if debt else min_a
        if cfg[LOW]:
            pay = 1 if pile == 1 else 0
        else:
            pay = pile
        if pay:
            gain += -pay if debt == 0 else pay
            debt = -1
        elif left == 1:
            debt = -1
    return gain, winner, won_by | min_a << 5 | min_d << 9 | (debt + 1) << 13 | public << 15


def _excuse_due(cfg: Any, p: int, tmask: int, xs: int) -> bool:
    """Whether a trick won outside ``p``'s side, as ``p`` knows it now (the sides public once the
    card revealing them is played, in this trick too), makes the Excuse due (rule book §3.8 step 1)."""
    reveal = cfg[REVEAL]
    if (xs >> 15) & 1 or (reveal >= 0 and (tmask >> reveal) & 1):
        sides = cfg[SIDES_PUBLIC]
    else:
        sides = cfg[SIDES_HIDDEN]
    return bool(xs & 31 & ~(sides >> (5 * p)))


def _moves(
    cfg: Any,
    tab: Any,
    smask: Any,
    side: Any,
    hands: Any,
    out: Any,
    p: int,
    tcount: int,
    tmask: int,
    led: int,
    left: int,
    xs: int,
) -> int:
    """The cards to try, in order, written to ``out``; returns how many (``moves_of`` in search.py)."""
    hand = hands[p]
    exc_mask = cfg[EXC_MASK]
    trumps = cfg[TRUMPS]
    forbidden = cfg[FORBIDDEN]
    if forbidden and tcount == 0 and left == cfg[ROOT_LEFT]:
        legal = hand & ~forbidden
        if not legal:
            legal = hand
    elif cfg[EARLY] and hand & exc_mask and popcount(hand) == 2 and _excuse_due_jit(cfg, p, tmask, xs):
        out[0] = cfg[EXC]
        return 1
    elif led < 0:
        legal = hand
    else:
        legal = 0
        if led != 4:
            legal = hand & smask[led]
        if legal:
            legal |= hand & exc_mask
        else:
            own = hand & trumps
            if own:
                top = bitlen(tmask & trumps)
                higher = own >> top << top
                legal = (higher if higher else own) | (hand & exc_mask)
            else:
                legal = hand
    if not legal & (legal - 1):
        out[0] = bitlen(legal) - 1
        return 1
    exc = cfg[EXC]
    body = tmask & ~exc_mask
    top_trump = 0
    win = 0
    if body:
        top_trump = body & trumps
        win = bitlen(top_trump if top_trump else body & smask[led]) - 1
    count = 0
    if cfg[USE_EQ]:
        rest = 0
        for h in hands:
            rest |= h
        with_trick = rest | tmask
        if not body:
            cannot = 0
        elif top_trump:
            cannot = ~trumps | ((1 << win) - 1)
        else:
            cannot = ~(trumps | (smask[led] & ~((1 << win) - 1)))
        m = legal
        while m:
            low = m & -m
            c = lowbit(m)
            m ^= low
            if c != exc:
                below = (rest if cannot & low else with_trick) & smask[tab[SUIT, c]] & (low - 1)
                if below:
                    b = bitlen(below) - 1
                    if (legal >> b) & 1 and tab[HP, b] == tab[HP, c]:
                        continue
            out[count] = c
            count += 1
        if count < 2:
            return count
    else:
        m = legal
        while m:
            c = lowbit(m)
            m &= m - 1
            out[count] = c
            count += 1
    if not cfg[USE_ORDER]:
        return count
    if not body:
        for i in range(count):
            c = out[i]
            out[i] = (1 << 11 if tab[SUIT, c] == 4 else 0) | tab[HP, c] << 7 | c
    else:
        ours = side[tab[OWNER, win]] == side[p]
        last = tcount == cfg[N] - 1
        for i in range(count):
            c = out[i]
            trump_card = tab[SUIT, c] == 4
            if c == exc:
                score = -5 if ours else 40
            elif (trump_card and c > win) if top_trump else (trump_card or (tab[SUIT, c] == led and c > win)):
                if last:
                    score = 60 + tab[HP, c]
                else:
                    score = 5 if ours else 30
            elif ours:
                score = 20 + tab[HP, c]
            else:
                score = -tab[HP, c]
            # sorted high to low below: store the complement
            out[i] = -(((score + 16) << 7) | c)
    # insertion sort, ascending
    for i in range(1, count):
        v = out[i]
        j = i - 1
        while j >= 0 and out[j] > v:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = v
    if body:
        for i in range(count):
            out[i] = (-out[i]) & 127
    else:
        for i in range(count):
            out[i] = out[i] & 127
    return count


# ------------------------------------------------------------------ the transposition table
# an open-addressing hash table in arrays, held in a typed list so that it can grow in place:
# tt[0] keys (capacity x 7; key[5], the player, is -1 in an empty slot), tt[1] values (lo, hi,
# best card), tt[2][0, 0] the number of entries
_MIX = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed word


def _tt_slot(keys: Any, key: Any) -> int:
    """The slot holding ``key`` (a row of 7 words), or ``-1 - slot`` of the empty slot it would take."""
    h = 0
    for j in range(7):
        h = (h ^ key[j]) * _MIX
        h ^= h >> 29
    mask: int = keys.shape[0] - 1
    i = h & mask
    while True:
        row = keys[i]
        if row[5] < 0:
            return -1 - i
        if (
            row[0] == key[0] and row[1] == key[1] and row[2] == key[2] and row[3] == key[3]
            and row[4] == key[4] and row[5] == key[5] and row[6] == key[6]
        ):  # fmt: skip
            return i
        i = (i + 1) & mask


def _tt_store(tt: Any, key: Any, lo: int, hi: int, code: int) -> None:
    keys = tt[0]
    slot = _tt_slot_jit(keys, key)
    if slot >= 0:
        vals = tt[1]
        vals[slot, 0] = lo
        vals[slot, 1] = hi
        vals[slot, 2] = code
        return
    slot = -1 - slot
    keys[slot, :] = key
    vals = tt[1]
    vals[slot, 0] = lo
    vals[slot, 1] = hi
    vals[slot, 2] = code
    meta = tt[2]
    meta[0, 0] += 1
    if 2 * meta[0, 0] > keys.shape[0]:
        # grow: twice the slots, every entry again
        cap = 2 * keys.shape[0]
        new_keys = np.full((cap, 7), -1, dtype=np.int64)
        new_vals = np.zeros((cap, 3), dtype=np.int64)
        for i in range(keys.shape[0]):
            if keys[i, 5] >= 0:
                j = -1 - _tt_slot_jit(new_keys, keys[i])
                new_keys[j, :] = keys[i]
                new_vals[j, :] = vals[i]
        tt[0] = new_keys
        tt[1] = new_vals


# fields of a search frame (one row of ``st`` per depth)
(F_P, F_TCOUNT, F_FIRST, F_LEADER, F_TMASK, F_LED, F_TPTS, F_LEFT, F_XS, F_ALPHA, F_BETA, F_ALPHA0, F_BETA0,
 F_BEST, F_BEST_CARD, F_I, F_COUNT, F_HAND, F_HAVE_KEY, F_REST, F_GAIN, F_KEY) = range(22)  # fmt: skip
FRAME = F_KEY + 7


def _table_key(
    cfg: Any, tab: Any, nonfixed: Any, side: Any, hands: Any, key: Any, p: int, xs: int, rest: int
) -> None:
    """The table's key of a trick start, into ``key`` (7 words): ``table_key`` in search.py, the
    renamed hands as masks (the k-th half-point card still held of a suit numbered as the suit's
    k-th in play at the root), the player, the Excuse part."""
    holder = -1
    if rest & cfg[EXC_MASK]:
        holder = tab[OWNER, cfg[EXC]]
    if holder >= 0:
        pile = (xs >> (5 + 4 * side[holder])) & 15
        aux = 1
        if not (xs & 31 & ~(cfg[SIDES_PUBLIC] >> (5 * holder))):
            aux += 4
        if cfg[EARLY] and not (xs >> 15) & 1:
            aux += 256
            if not (xs & 31 & ~(cfg[SIDES_HIDDEN] >> (5 * holder))):
                aux += 512
    elif ((xs >> 13) & 3) > 0:
        debt = ((xs >> 13) & 3) - 1
        pile = (xs >> (5 + 4 * debt)) & 15
        aux = 2 + debt
    else:
        pile = 0
        aux = 0
    if aux:
        if cfg[LOW]:
            aux += 16 if pile == 1 else 0
        else:
            aux += 8 * ((xs >> 15) & 1) + 16 * pile
    for s in range(5):
        key[s] = 0
    if cfg[CANONICAL]:
        m = rest
        suit = -1
        k = 0
        fixed = cfg[FIXED]
        while m:
            c = lowbit(m)
            m &= m - 1
            s = tab[SUIT, c]
            if s != suit:
                suit = s
                k = 0
            if (fixed >> c) & 1:
                key[tab[OWNER, c]] |= 1 << c
            else:
                key[tab[OWNER, c]] |= 1 << nonfixed[s, k]
                k += 1
    else:
        for s in range(cfg[N]):
            key[s] = hands[s]
    key[5] = p
    key[6] = aux


def _table_key_of(cfg: Any, tab: Any, nonfixed: Any, side: Any, hands: Any, p: int, xs: int) -> Any:
    key = np.zeros(7, dtype=np.int64)
    rest = 0
    for h in hands:
        rest |= h
    _table_key_jit(cfg, tab, nonfixed, side, hands, key, p, xs, rest)
    return key


def _enter(
    cfg: Any,
    tab: Any,
    smask: Any,
    nonfixed: Any,
    order: Any,
    side: Any,
    hands: Any,
    buf: Any,
    st: Any,
    counter: Any,
    table: Any,
    d: int,
    p: int,
    tcount: int,
    first: int,
    leader: int,
    tmask: int,
    led: int,
    tpts: int,
    left: int,
    xs: int,
    alpha: int,
    beta: int,
) -> tuple[int, int]:
    """A node at depth ``d``: ``(1, value)`` when it is settled at once (last trick, bounds, table),
    else ``(0, 0)`` with its frame and its cards to try set up (``search`` in search.py)."""
    counter[0] += 1
    n = cfg[N]
    exc = cfg[EXC]
    if left == 1:
        seats = order[leader]
        for i in range(tcount, n):
            c = bitlen(hands[seats[i]]) - 1
            if i == 0:
                first = c
            tmask |= 1 << c
            tpts += tab[HP, c]
            if led < 0 and c != exc:
                led = tab[SUIT, c]
        gain, _, _ = _finish_jit(cfg, tab, smask, side, tmask, led, tpts, first, 1, xs)
        return 1, gain
    frame = st[d]
    tt_card = -1
    frame[F_HAVE_KEY] = 0
    if tcount == 0:
        rest = 0
        for h in hands:
            rest |= h
        frame[F_REST] = rest
        debt = ((xs >> 13) & 3) - 1
        pay_max = cfg[PAY_MAX]
        most = _half_points_jit(cfg, rest) + (pay_max if debt == 1 else 0)
        least = -pay_max if debt == 0 else 0
        if rest & cfg[PETIT_BIT]:
            most += cfg[PETIT_BONUS] + cfg[PETIT_AU_BOUT]
            least -= cfg[PETIT_AU_BOUT]
        if most <= alpha:
            return 1, most
        if least >= beta:
            return 1, least
        if cfg[USE_TT]:
            _table_key_jit(cfg, tab, nonfixed, side, hands, frame[F_KEY : F_KEY + 7], p, xs, rest)
            frame[F_HAVE_KEY] = 1
            slot = _tt_slot_jit(table[0], frame[F_KEY : F_KEY + 7])
            if slot >= 0:
                entry = table[1][slot]
                lo = entry[0]
                hi = entry[1]
                if lo >= beta or lo == hi:
                    return 1, lo
                if hi <= alpha:
                    return 1, hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
                code = entry[2]
                if code >= 0:
                    m = rest & smask[code >> 5]
                    for _ in range(code & 31):
                        m &= m - 1
                    tt_card = lowbit(m)
    moves = buf[d]
    count = _moves_jit(cfg, tab, smask, side, hands, moves, p, tcount, tmask, led, left, xs)
    if tt_card >= 0 and moves[0] != tt_card:
        for i in range(1, count):
            if moves[i] == tt_card:
                for j in range(i, 0, -1):
                    moves[j] = moves[j - 1]
                moves[0] = tt_card
                break
    frame[F_P] = p
    frame[F_TCOUNT] = tcount
    frame[F_FIRST] = first
    frame[F_LEADER] = leader
    frame[F_TMASK] = tmask
    frame[F_LED] = led
    frame[F_TPTS] = tpts
    frame[F_LEFT] = left
    frame[F_XS] = xs
    frame[F_ALPHA] = alpha
    frame[F_BETA] = beta
    frame[F_ALPHA0] = alpha
    frame[F_BETA0] = beta
    frame[F_BEST] = -INF if side[p] == 0 else INF
    frame[F_BEST_CARD] = -1
    frame[F_I] = 0
    frame[F_COUNT] = count
    frame[F_HAND] = hands[p]
    return 0, 0


def _give(frame: Any, side: Any, hands: Any, card: int, value: int) -> None:
    """The value of the node's child after ``card``, back in the node's frame (fail-soft alpha-beta)."""
    p = frame[F_P]
    hands[p] = frame[F_HAND]
    value += frame[F_GAIN]
    if side[p] == 0:
        if value > frame[F_BEST]:
            frame[F_BEST] = value
            frame[F_BEST_CARD] = card
            if value > frame[F_ALPHA]:
                frame[F_ALPHA] = value
    elif value < frame[F_BEST]:
        frame[F_BEST] = value
        frame[F_BEST_CARD] = card
        if value < frame[F_BETA]:
            frame[F_BETA] = value
    if frame[F_ALPHA] >= frame[F_BETA]:
        frame[F_I] = frame[F_COUNT]


def _close(frame: Any, tab: Any, smask: Any, table: Any) -> int:
    """A node whose cards are all tried (or cut): its value, into the table at the start of a trick."""
    best = frame[F_BEST]
    if frame[F_HAVE_KEY]:
        if best <= frame[F_ALPHA0]:
            lo, hi = -INF, best
        elif best >= frame[F_BETA0]:
            lo, hi = best, INF
        else:
            lo, hi = best, best
        key = frame[F_KEY : F_KEY + 7]
        slot = _tt_slot_jit(table[0], key)
        if slot >= 0:
            entry = table[1][slot]
            lo = max(lo, entry[0])
            hi = min(hi, entry[1])
        best_card = frame[F_BEST_CARD]
        s = tab[SUIT, best_card]
        code = s << 5 | popcount(frame[F_REST] & smask[s] & ((1 << best_card) - 1))
        _tt_store_jit(table, key, lo, hi, code)
    return int(best)


def _search(
    cfg: Any,
    tab: Any,
    smask: Any,
    nonfixed: Any,
    order: Any,
    side: Any,
    hands: Any,
    buf: Any,
    st: Any,
    counter: Any,
    table: Any,
    p: int,
    tcount: int,
    first: int,
    leader: int,
    tmask: int,
    led: int,
    tpts: int,
    left: int,
    xs: int,
    alpha: int,
    beta: int,
) -> int:
    """Fail-soft alpha-beta from the given node, with an explicit stack of frames (``st``, one per
    depth; ``buf`` holds each depth's cards to try)."""
    n = cfg[N]
    exc = cfg[EXC]
    d = -1  # the depth of the deepest open node; the node to enter is at d + 1
    while True:
        settled, value = _enter_jit(
            cfg, tab, smask, nonfixed, order, side, hands, buf, st, counter, table,
            d + 1, p, tcount, first, leader, tmask, led, tpts, left, xs, alpha, beta,
        )  # fmt: skip
        if not settled:
            d += 1
        elif d < 0:
            return int(value)
        else:
            _give_jit(st[d], side, hands, buf[d, st[d, F_I] - 1], value)
        # the next node to enter: the next card of the deepest open node, closing finished ones
        while True:
            frame = st[d]
            i = frame[F_I]
            if i < frame[F_COUNT]:
                break
            value = _close_jit(frame, tab, smask, table)
            if d == 0:
                return int(value)
            d -= 1
            _give_jit(st[d], side, hands, buf[d, st[d, F_I] - 1], value)
        frame[F_I] = i + 1
        c = buf[d, i]
        bit = 1 << c
        hands[frame[F_P]] = frame[F_HAND] ^ bit
        tcount = frame[F_TCOUNT]
        led = frame[F_LED]
        if led < 0 and c != exc:
            led = tab[SUIT, c]
        first = c if tcount == 0 else frame[F_FIRST]
        leader = frame[F_LEADER]
        tmask = frame[F_TMASK] | bit
        tpts = frame[F_TPTS] + tab[HP, c]
        left = frame[F_LEFT]
        xs = frame[F_XS]
        alpha = frame[F_ALPHA]
        beta = frame[F_BETA]
        tcount += 1
        if tcount == n:
            gain, p, xs = _finish_jit(cfg, tab, smask, side, tmask, led, tpts, first, left, xs)
            frame[F_GAIN] = gain
            tcount, first, leader, tmask, led, tpts = 0, -1, p, 0, -1, 0
            left -= 1
            alpha -= gain
            beta -= gain
        else:
            frame[F_GAIN] = 0
            p = order[leader, tcount]


def _playout(
    cfg: Any,
    tab: Any,
    smask: Any,
    order: Any,
    side: Any,
    hands: Any,
    buf: Any,
    p: int,
    tcount: int,
    first: int,
    leader: int,
    tmask: int,
    led: int,
    tpts: int,
    left: int,
    xs: int,
) -> int:
    """The points still to come when everyone plays the first card of the ordering."""
    n = cfg[N]
    saved = hands.copy()
    gain = 0
    moves = buf[0]
    while left:
        _moves_jit(cfg, tab, smask, side, hands, moves, p, tcount, tmask, led, left, xs)
        c = moves[0]
        hands[p] ^= 1 << c
        if tcount == 0:
            first = c
        tcount += 1
        tmask |= 1 << c
        tpts += tab[HP, c]
        if led < 0 and c != cfg[EXC]:
            led = tab[SUIT, c]
        if tcount == n:
            g, p, xs = _finish_jit(cfg, tab, smask, side, tmask, led, tpts, first, left, xs)
            gain += g
            left -= 1
            leader = p
            tcount, tmask, led, tpts = 0, 0, -1, 0
        else:
            p = order[leader, tcount]
    hands[:] = saved
    return gain


# ------------------------------------------------------------------ the Python side
def _new_arrays(capacity: int) -> Any:
    arrays = numba.typed.List()
    arrays.append(np.full((capacity, 7), -1, dtype=np.int64))
    arrays.append(np.zeros((capacity, 3), dtype=np.int64))
    arrays.append(np.zeros((1, 1), dtype=np.int64))
    return arrays


class Table:
    """The compiled search's transposition table (``Solver.table``); ``len`` is its number of entries."""

    def __init__(self, capacity: int = 1 << 10) -> None:
        self.arrays = _new_arrays_jit(capacity)

    def __len__(self) -> int:
        return int(self.arrays[2][0, 0])


def new_table() -> Table:
    """An empty transposition table."""
    return Table()


def fits(position: Position) -> bool:
    """Whether the cards in play fit the compact numbering."""
    total = len(position.trick)
    for hand in position.hands:
        total += hand.bit_count()
    return total <= MAX_CARDS


class Kernel:
    """A position in compact numbering, and the compiled search over it (see :class:`Solver`)."""

    def __init__(
        self, pos: Position, table: Table, use_tt: bool, use_eq: bool, use_order: bool, canonical: bool
    ):
        n = pos.n
        in_play = pos.trick_mask
        for hand in pos.hands:
            in_play |= hand
        cards = cards_of(in_play)
        self.cards = cards
        self.index = {c: i for i, c in enumerate(cards)}
        k = len(cards)
        if k > MAX_CARDS:
            raise ValueError(f"{k} cards in play: more than the {MAX_CARDS} the compact numbering holds")
        tab = np.zeros((4, 64), dtype=np.int64)
        owner = {}
        for seat, hand in enumerate(pos.hands):
            for c in cards_of(hand):
                owner[c] = seat
        for i, c in enumerate(pos.trick):
            owner[c] = pos.order[pos.leader][i]
        smask = np.zeros(6, dtype=np.int64)
        nonfixed = np.zeros((6, 64), dtype=np.int64)
        counts = [0] * 6
        masks = {"v9": 0, "v7": 0, "v5": 0, "v3": 0, "v1": 0}
        fixed = 0
        for i, c in enumerate(cards):
            tab[HP, i] = HALF_POINTS[c]
            tab[SUIT, i] = SUIT_OF[c]
            tab[OWNER, i] = owner[c]
            tab[FIXED_RANK_ROW, i] = FIXED_RANK[c]
            smask[SUIT_OF[c]] |= 1 << i
            masks[f"v{HALF_POINTS[c]}"] |= 1 << i
            if BIT[c] & FIXED_CARDS:
                fixed |= 1 << i
            else:
                nonfixed[SUIT_OF[c], counts[SUIT_OF[c]]] = i
                counts[SUIT_OF[c]] += 1
        cfg = np.zeros(CFG_SIZE, dtype=np.int64)
        cfg[N] = n
        cfg[LOW] = int(pos.exchange_rule == "low")
        cfg[PAY_MAX] = 1 if pos.exchange_rule == "low" else 9
        cfg[EARLY] = int(pos.excuse_early)
        cfg[FORBIDDEN] = self.compact(pos.lead_forbidden)
        cfg[ROOT_LEFT] = pos.tricks_left
        cfg[REVEAL] = self.index.get(pos.reveal_card, -1)
        cfg[EXC] = self.index.get(EXCUSE, -1)
        cfg[USE_TT] = int(use_tt)
        cfg[USE_EQ] = int(use_eq)
        cfg[USE_ORDER] = int(use_order)
        cfg[CANONICAL] = int(canonical)
        cfg[TRUMPS] = smask[4]
        cfg[EXC_MASK] = smask[5]
        cfg[FIXED] = fixed
        cfg[V9], cfg[V7], cfg[V5], cfg[V3], cfg[V1] = (masks[v] for v in ("v9", "v7", "v5", "v3", "v1"))
        cfg[PETIT_BIT] = self.compact(PETIT_MASK)
        cfg[PETIT_BONUS] = pos.petit_bonus
        cfg[PETIT_AU_BOUT] = pos.petit_au_bout
        cfg[SIDES_PUBLIC], cfg[SIDES_HIDDEN] = (
            sum(mask << (5 * seat) for seat, mask in enumerate(pos.sides(public))) for public in (True, False)
        )
        self.cfg, self.tab, self.smask, self.nonfixed = cfg, tab, smask, nonfixed
        self.order = np.array(pos.order, dtype=np.int64)
        self.side = np.array([0 if a else 1 for a in pos.attack], dtype=np.int64)
        self.hands = np.array([self.compact(h) for h in pos.hands], dtype=np.int64)
        self.buf = np.zeros((k + 2, 32), dtype=np.int64)
        self.st = np.zeros((k + 2, FRAME), dtype=np.int64)
        self.counter = np.zeros(1, dtype=np.int64)
        self.table = table.arrays
        self.pos = pos
        trick = pos.trick
        self.root = (
            len(trick),
            self.index[trick[0]] if trick else -1,
            self.compact(pos.trick_mask),
            pos.led_suit,
            sum(HALF_POINTS[c] for c in trick),
            pack(pos.excuse_state()),
        )

    def compact(self, mask: int) -> int:
        """A mask of cards in the compact numbering (the cards not in play left out)."""
        out = 0
        index = self.index
        for c in cards_of(mask):
            if c in index:
                out |= 1 << index[c]
        return out

    def _start(self, card: int) -> tuple[int, int, int, int, int, int, int, int, int, int]:
        """``card`` played at the root (or none, -1): the search's arguments and the points won."""
        pos = self.pos
        tcount, first, tmask, led, tpts, xs = self.root
        if card >= 0:
            i = self.index[card]
            self.hands[pos.player] ^= 1 << i
            if not tcount:
                first = i
            tcount += 1
            tmask |= 1 << i
            tpts += HALF_POINTS[card]
            if led < 0 and card != EXCUSE:
                led = SUIT_OF[card]
        if tcount == pos.n:
            gain, winner, xs = _finish_jit(
                self.cfg, self.tab, self.smask, self.side, tmask, led, tpts, first, pos.tricks_left, xs
            )
            return int(winner), 0, -1, int(winner), 0, -1, 0, pos.tricks_left - 1, int(xs), int(gain)
        p = pos.order[pos.leader][tcount]
        return p, tcount, first, pos.leader, tmask, led, tpts, pos.tricks_left, xs, 0

    def child(self, card: int, alpha: int, beta: int) -> int:
        """The points still to come after ``card`` at the root (``Solver._child``)."""
        p, tcount, first, leader, tmask, led, tpts, left, xs, gain = self._start(card)
        try:
            if left == 0:
                return gain
            value = _search_jit(
                self.cfg, self.tab, self.smask, self.nonfixed, self.order, self.side, self.hands,
                self.buf, self.st, self.counter, self.table,
                p, tcount, first, leader, tmask, led, tpts, left, xs, alpha - gain, beta - gain,
            )  # fmt: skip
            return gain + int(value)
        finally:
            self.hands[self.pos.player] ^= 1 << self.index[card]

    def playout(self, card: int) -> int:
        """The points still to come under the ordering's first cards (``Solver._playout``)."""
        p, tcount, first, leader, tmask, led, tpts, left, xs, gain = self._start(card)
        try:
            value = _playout_jit(
                self.cfg, self.tab, self.smask, self.order, self.side, self.hands, self.buf,
                p, tcount, first, leader, tmask, led, tpts, left, xs,
            )  # fmt: skip
            return gain + int(value)
        finally:
            if card >= 0:
                self.hands[self.pos.player] ^= 1 << self.index[card]

    @property
    def nodes(self) -> int:
        return int(self.counter[0])

    def table_key(self, position: Position) -> tuple[int, ...]:
        """The table's key of a position at the start of a trick (``Solver._table_key``)."""
        hands = np.array([self.compact(h) for h in position.hands], dtype=np.int64)
        key = _table_key_of_jit(
            self.cfg,
            self.tab,
            self.nonfixed,
            self.side,
            hands,
            position.player,
            pack(position.excuse_state()),
        )
        return tuple(int(k) for k in key)


def warm_up() -> float:
    """Compile every function (or load it from numba's cache): a few tiny solves, one of them from
    the last card of a trick; returns the seconds it took."""
    import random
    import time

    from atout.solver.position import random_ending
    from atout.solver.search import Solver

    start = time.perf_counter()
    for players in (3, 4, 5):
        deal = random_ending(Rules(players=players), 3, random.Random(players), trick_cards=players - 1)
        pos = Position.from_deal(deal)
        Solver(pos, fast=True).solve()
        solver = Solver(pos, fast=True)
        solver.move_values()
        solver._table_key(pos.play(cards_of(pos.legal_mask())[0]))
    return time.perf_counter() - start


def pack(xs: ExcuseState) -> int:
    """An Excuse state as the kernel packs it."""
    won_by, min_a, min_d, debt, public = xs
    return won_by | min_a << 5 | min_d << 9 | (debt + 1) << 13 | public << 15


if AVAILABLE:
    _jit: Any = jit
    _inline: Any = inline
    _half_points_jit: Any = _inline(_half_points)
    _min_value_jit: Any = _inline(_min_value)
    _finish_jit: Any = _inline(_finish)
    _excuse_due_jit: Any = _inline(_excuse_due)
    _moves_jit: Any = _inline(_moves)
    _tt_slot_jit: Any = _inline(_tt_slot)
    _tt_store_jit: Any = _jit(_tt_store)
    _table_key_jit: Any = _inline(_table_key)
    _table_key_of_jit: Any = _jit(_table_key_of)
    _enter_jit: Any = _inline(_enter)
    _give_jit: Any = _inline(_give)
    _close_jit: Any = _inline(_close)
    _search_jit: Any = _jit(_search)
    _playout_jit: Any = _jit(_playout)
    _new_arrays_jit: Any = _jit(_new_arrays)

__all__ = ["AVAILABLE", "MAX_CARDS", "Kernel", "Table", "fits", "new_table", "pack", "warm_up"]

if __name__ == "__main__":  # python -m atout.solver.fast: compile once, into numba's cache
    if not AVAILABLE:
        raise SystemExit("numba is not installed: pip install 'atout[solver-fast]'")
    print(f"compiled (or loaded from the cache) in {warm_up():.1f} s")
