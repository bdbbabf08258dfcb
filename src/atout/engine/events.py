"""What happens during a deal, as a list of events that front ends narrate.

Each event says who may see it: ``visible_to`` is ``None`` for everyone, or the one seat that may.
"""

from __future__ import annotations

from typing import NamedTuple


class Event(NamedTuple):
    """One thing that happened. ``data`` depends on ``kind``:

    ==================  ==============================================================
    kind                data
    ==================  ==============================================================
    ``petit_sec``       the hand shown (card mask); the deal is cancelled
    ``excuse_sec``      the Excuse shown alone (card mask); the deal is cancelled (option)
    ``petit_imprenable``  the Petit (card): it plays like the Excuse for ``seat`` (option)
    ``misere``          the misère kind declared (option)
    ``partial_slam``    ``True``: the taker announced a partial slam (option)
    ``bid``             ``pass`` or the contract name
    ``all_passed``      ``None``; the deal is cancelled
    ``call``            the called card
    ``chien``           the chien shown to all (card mask)
    ``discard``         the card discarded (to the taker only)
    ``discard_shown``   a trump discarded face up (to all)
    ``chelem``          ``True`` if announced, ``False`` if not
    ``poignee``         ``(level name, card mask shown)``
    ``play``            the card played
    ``partner``         the called card was played: ``seat`` is the partner
    ``alone``           the taker played the card he called: he plays alone
    ``trick``           ``(trick number, winner seat)``
    ``excuse_kept``     ``winner seat``: the Excuse returns to its player, a low card is owed
    ``excuse_paid``     ``(card, to seat)``: the owed low card is handed over
    ``excuse_settled``  ``winner seat``: the debt lapses, owner and winner being partners
    ``end``             the deal summary, or ``None`` for a cancelled deal
    ==================  ==============================================================
    """

    kind: str
    seat: int | None
    data: object
    visible_to: int | None = None
