"""Prepared deals (``atout serve --deals FILE``): deals a server deals before any shuffled one, for
duplicate play (the same cards at several tables) and for tests that need a given deal.

The file holds deal records (docs/records.md), as a JSON list or one record per line; only their
rules, dealer and dealt cards are used. A table takes the first deal not yet taken whose game and
player count are its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from atout.games import deal_class, deal_from_dealt
from atout.jsonio import JsonError, loads
from atout.records import RecordError, new_deal_from_record
from atout.rules import Rules


@dataclass(frozen=True)
class PreparedDeal:
    """One prepared deal: the engine it is for, its player count, dealer and dealt cards."""

    engine: str
    players: int
    dealer: int
    dealt: dict[str, object]


def _key(rules: Rules) -> tuple[str, int]:
    return deal_class(rules).__name__, rules.players


class PreparedDeals:
    """The deals still to deal, in the file's order."""

    def __init__(self, deals: list[PreparedDeal]) -> None:
        self.deals = list(deals)

    @classmethod
    def read(cls, path: str | Path) -> PreparedDeals:
        """The deals of a file; :class:`ValueError` with one line naming the record at fault."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"cannot read the deals file {path}: {exc}") from None
        try:
            stripped = text.lstrip()
            if stripped.startswith("["):
                items = loads(text)
            else:
                items = [loads(line) for line in text.splitlines() if line.strip()]
        except JsonError as exc:
            raise ValueError(f"the deals file {path}: {exc}") from None
        deals = []
        for number, item in enumerate(items, 1):
            try:
                if not isinstance(item, dict):
                    raise RecordError("a deal record is a JSON object")
                deal = new_deal_from_record(item)
            except (RecordError, ValueError) as exc:
                raise ValueError(f"the deals file {path}, deal {number}: {exc}") from None
            engine, players = _key(deal.rules)
            deals.append(PreparedDeal(engine, players, deal.dealer, deal.dealt()))
        return cls(deals)

    def take(self, rules: Rules) -> PreparedDeal | None:
        """The first deal left for a table of these rules (taken out), or ``None``."""
        key = _key(rules)
        for i, deal in enumerate(self.deals):
            if (deal.engine, deal.players) == key:
                try:
                    deal_from_dealt(rules, deal.dealer, deal.dealt)
                except ValueError:
                    continue
                return self.deals.pop(i)
        return None

    def give_back(self, deal: PreparedDeal) -> None:
        """Put a deal back first in line (its table could not deal it)."""
        self.deals.insert(0, deal)


__all__ = ["PreparedDeal", "PreparedDeals"]
