"""The log of every table, written and read back (synchronous: the table manager calls it in a
worker thread, so that the event loop never waits on the database).

Nothing is updated in place but a table's state, its seats and a deal's end: actions are
appended, each in its own committed transaction, before anyone hears of them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from atout.server.db import ActionRow, DealRow, SeatRow, TableRow, now


@dataclass
class SeatRecord:
    """A seat as stored."""

    seat: int
    kind: str
    name: str = ""
    bot: str | None = None
    token_hash: str | None = None
    left_at: datetime | None = None


@dataclass
class DealRecord:
    """A deal as stored, with its actions (words, in order) and their sequence numbers in the
    log; ``seat_seqs``: each seat's own sequence number when it was dealt."""

    deal_no: int
    dealer: int
    dealt: dict[str, object]
    seq: int
    scores: list[int] | None = None
    outcome: str | None = None
    actions: list[tuple[int, int, str]] = field(default_factory=list)
    seat_seqs: list[int] | None = None


@dataclass
class TableRecord:
    """A table as stored: its rules, seats and every deal, and its host's token hash."""

    id: str
    preset: str
    rules: dict[str, object]
    state: str
    seats: list[SeatRecord]
    deals: list[DealRecord]
    host_hash: str | None = None


class Store:
    """The server's database, table by table."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create_table(self, record: TableRecord) -> None:
        """A new table and its seats."""
        with Session(self.engine) as session, session.begin():
            session.add(
                TableRow(
                    id=record.id,
                    preset=record.preset,
                    rules_json=json.dumps(record.rules),
                    state=record.state,
                    created_at=now(),
                    host_hash=record.host_hash,
                )
            )
            session.flush()
            for s in record.seats:
                session.add(_seat_row(record.id, s))

    def save_seat(self, table_id: str, seat: SeatRecord) -> None:
        """A seat's new kind, name, bot, token hash or departure."""
        with Session(self.engine) as session, session.begin():
            row = session.get(SeatRow, (table_id, seat.seat))
            if row is None:
                session.add(_seat_row(table_id, seat))
                return
            row.kind, row.name, row.bot = seat.kind, seat.name, seat.bot
            row.token_hash, row.left_at = seat.token_hash, seat.left_at

    def start_deal(self, table_id: str, deal: DealRecord) -> None:
        """A new deal dealt (the table is then playing)."""
        with Session(self.engine) as session, session.begin():
            session.add(
                DealRow(
                    table_id=table_id,
                    deal_no=deal.deal_no,
                    dealer=deal.dealer,
                    dealt_json=json.dumps(deal.dealt),
                    seq=deal.seq,
                    seat_seqs_json=None if deal.seat_seqs is None else json.dumps(deal.seat_seqs),
                    started_at=now(),
                )
            )
            _set_state(session, table_id, "playing")

    def append_action(self, table_id: str, deal_no: int, seq: int, seat: int, action: str) -> None:
        """One action, committed. Writing the same action again is a no-op (a retry after a
        commit whose answer was lost); another action at that number is an error."""
        try:
            with Session(self.engine) as session, session.begin():
                session.add(
                    ActionRow(table_id=table_id, deal_no=deal_no, seq=seq, seat=seat, action=action, at=now())
                )
        except IntegrityError:
            with Session(self.engine) as session:
                row = session.get(ActionRow, (table_id, seq))
                if row is None or (row.deal_no, row.seat, row.action) != (deal_no, seat, action):
                    raise

    def end_deal(self, table_id: str, deal_no: int, scores: list[int], outcome: str) -> None:
        """A deal's scores and outcome once it is over (the table is then between deals)."""
        with Session(self.engine) as session, session.begin():
            row = session.get(DealRow, (table_id, deal_no))
            if row is None:  # pragma: no cover - the deal was stored when dealt
                raise KeyError(deal_no)
            row.scores_json, row.outcome, row.ended_at = json.dumps(scores), outcome, now()
            _set_state(session, table_id, "between_deals")

    def load(self, table_id: str) -> TableRecord | None:
        """A table with its seats, deals and actions; ``None`` if there is none of that id."""
        with Session(self.engine) as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            seats = [
                SeatRecord(s.seat, s.kind, s.name, s.bot, s.token_hash, s.left_at)
                for s in session.scalars(
                    select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
                )
            ]
            deals = {
                d.deal_no: DealRecord(
                    d.deal_no,
                    d.dealer,
                    json.loads(d.dealt_json),
                    d.seq,
                    None if d.scores_json is None else json.loads(d.scores_json),
                    d.outcome,
                    seat_seqs=None if d.seat_seqs_json is None else json.loads(d.seat_seqs_json),
                )
                for d in session.scalars(
                    select(DealRow).where(DealRow.table_id == table_id).order_by(DealRow.deal_no)
                )
            }
            for a in session.scalars(
                select(ActionRow).where(ActionRow.table_id == table_id).order_by(ActionRow.seq)
            ):
                deals[a.deal_no].actions.append((a.seq, a.seat, a.action))
            return TableRecord(
                row.id,
                row.preset,
                json.loads(row.rules_json),
                row.state,
                seats,
                list(deals.values()),
                row.host_hash,
            )


def _seat_row(table_id: str, s: SeatRecord) -> SeatRow:
    return SeatRow(
        table_id=table_id,
        seat=s.seat,
        kind=s.kind,
        name=s.name,
        bot=s.bot,
        token_hash=s.token_hash,
        left_at=s.left_at,
    )


def _set_state(session: Session, table_id: str, state: str) -> None:
    table = session.get(TableRow, table_id)
    if table is None:  # pragma: no cover - the table was stored when created
        raise KeyError(table_id)
    table.state = state
