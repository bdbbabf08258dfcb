"""Which attack piles (card points, oudlers) can end a French deal, by its slam outcome.

rule book §3.9–§3.11 settle what each side holds when one side wins every trick:

* **the attack's slam**: the attack holds every card but the chien of a garde contre and the
  cards the defence kept by playing them to the attack's tricks (the Excuse; the Petit of a
  ``petit_imprenable``): having won no trick, the defence never pays the low card it owes. The
  FFT count (§3.9: "the Excuse counts 4", the attack has 87) gives the attack that half point
  for each kept card, so both 86.5 and 87 are accepted with 2 oudlers; they score the same (§3.11).
* **the defence's slam**: the attack holds only the écart (no king, no bout), the chien of a garde
  sans, or nothing in a garde contre, plus the cards it kept the same way (counted 4 in the FFT
  way, or 4.5). Two kept cards need two attackers: a petit imprenable's holder has no Excuse.
* **no slam**: each side won a trick, so each pile holds at least the cards of one trick but the
  other side's returned cards (n − 1, or n − 2 under ``petit_imprenable``), plus the écart or the
  chien it was given; a pile of k oudlers and m cards is worth at least 4.5·k + 0.5·(m − k).

Piles are in half-points, as in :class:`~atout.scoring.summary.FrenchSummary`.

>>> sorted(slam_piles(6, "garde", False, 1, "attack"))
[(173, 2), (174, 2), (182, 3)]
>>> sorted(slam_piles(6, "garde_contre", False, 1, "defense"))
[(0, 0), (8, 1), (9, 1)]
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal, NamedTuple

TOTAL_HALF_POINTS = 182
BOUT = 9
"""A bout's half-points (4.5 points)."""
SlamSide = Literal["attack", "defense"]


class _Kind(NamedTuple):
    """Cards alike for counting: their half-points, how many the pack holds, and which bout."""

    half_points: int
    copies: int
    bout: str = ""


_PACK = (
    _Kind(BOUT, 1, "excuse"),
    _Kind(BOUT, 1, "petit"),
    _Kind(BOUT, 1, "21"),
    _Kind(9, 4),  # kings
    _Kind(7, 4),  # queens
    _Kind(5, 4),  # cavaliers
    _Kind(3, 4),  # valets
    _Kind(1, 59),  # low cards: pips 1-10 and trumps 2-20
)
_ECART = tuple(k for k in _PACK if not k.bout and k.half_points != 9)
"""What an écart may hold (§3.5): no king, no bout."""


class _Heap(NamedTuple):
    """A few cards set apart (chien, écart): their half-points, bouts, and whether the Excuse
    and the Petit are among them."""

    half_points: int
    bouts: int
    excuse: bool
    petit: bool


@lru_cache(maxsize=8)
def _heaps(size: int, whole_pack: bool) -> frozenset[_Heap]:
    """Every heap of ``size`` cards from the pack (or from what an écart may hold)."""
    kinds = _PACK if whole_pack else _ECART
    out: set[_Heap] = set()

    def walk(i: int, left: int, points: int, bouts: int, excuse: bool, petit: bool) -> None:
        if left == 0:
            out.add(_Heap(points, bouts, excuse, petit))
            return
        if i == len(kinds):
            return
        kind = kinds[i]
        for take in range(min(left, kind.copies) + 1):
            walk(
                i + 1,
                left - take,
                points + take * kind.half_points,
                bouts + (take if kind.bout else 0),
                excuse or (take > 0 and kind.bout == "excuse"),
                petit or (take > 0 and kind.bout == "petit"),
            )

    walk(0, size, 0, 0, False, False)
    return frozenset(out)


_NO_HEAP = frozenset({_Heap(0, 0, False, False)})


@lru_cache(maxsize=256)
def slam_piles(
    chien: int, contract: str, imprenable: bool, attackers: int, won_by: SlamSide
) -> frozenset[tuple[int, int]]:
    """Every (half-points, oudlers) of the attack's pile when ``won_by`` won every trick.

    ``chien`` is the chien's size, ``imprenable`` whether the ``petit_imprenable`` rule is on,
    ``attackers`` 1 or 2 (every trick goes to one side: the table's size does not matter).
    """
    out: set[tuple[int, int]] = set()
    if won_by == "attack":
        heaps = _heaps(chien, True) if contract == "garde_contre" else _NO_HEAP
        for heap in heaps:
            # the defence has at least two players: it may keep both the Excuse and a petit imprenable
            for kept in range(_keepable(heap, imprenable) + 1):
                held = TOTAL_HALF_POINTS - heap.half_points - BOUT * kept
                for fft in range(kept + 1):
                    out.add((held + fft, 3 - heap.bouts - kept))
        return frozenset(out)
    if contract == "garde_contre":
        heaps = _NO_HEAP
    else:
        heaps = _heaps(chien, contract == "garde_sans")
    for heap in heaps:
        for kept in range(min(_keepable(heap, imprenable), attackers) + 1):
            held = heap.half_points + BOUT * kept
            for fft in range(kept + 1):
                out.add((held - fft, heap.bouts + kept))
    return frozenset(out)


def _keepable(heap: _Heap, imprenable: bool) -> int:
    """How many cards a side can keep by playing them to tricks it loses (Excuse, petit imprenable)."""
    return (not heap.excuse) + (imprenable and not heap.petit)


class Span(NamedTuple):
    """The half-points an attack pile of some oudlers can hold when each side won a trick."""

    low: int
    high: int


def open_span(in_play: int, chien: int, contract: str, imprenable: bool, oudlers: int) -> Span:
    """The attack's possible half-points with ``oudlers`` when neither side won every trick."""
    from_trick = in_play - 1 - (1 if imprenable else 0)
    attack_cards = from_trick + (0 if contract == "garde_contre" else chien)
    defence_cards = from_trick + (chien if contract == "garde_contre" else 0)
    defence_oudlers = 3 - oudlers
    low = BOUT * oudlers + max(0, attack_cards - oudlers)
    high = TOTAL_HALF_POINTS - BOUT * defence_oudlers - max(0, defence_cards - defence_oudlers)
    return Span(low, high)
