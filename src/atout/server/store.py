"""The log of every table, written and read back.

Nothing is updated in place but a table's state, its seats and a deal's end: actions are
appended and committed before anyone hears of them. A table's changes are :class:`Write` s made
by the functions below (:func:`append_action`, :func:`start_deal`, :func:`end_deal`,
:func:`save_seat`) and committed by :meth:`Store.commit` through the group-commit writer
(:mod:`atout.server.writer`); reading a table back and creating one are synchronous (the table
manager calls them in a worker thread, so that the event loop never waits on the database).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session

from atout.server.db import ActionRow, Base, DealRow, SeatRow, TableRow, now
from atout.server.writer import CommitObserver, LogConflict, LogWriter, Write

ACTIONS, DEALS, SEATS, TABLES = (
    Base.metadata.tables[name] for name in ("actions", "deals", "seats", "tables")
)


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
    settings: dict[str, object] = field(default_factory=dict)
    """The host's choices that are not rules (``{"hints": bool}``), ``tables.settings_json``."""


class Store:
    """The server's database, table by table: its writes grouped by one :class:`LogWriter`."""

    def __init__(self, engine: Engine, on_commit: CommitObserver | None = None) -> None:
        self.engine = engine
        self.writer = LogWriter(engine, on_commit=on_commit)

    async def commit(self, write: Write) -> None:
        """Commit one change (grouped with other tables'); raises what the database raised."""
        await self.writer.write(write)

    def close(self) -> None:
        """Stop the writer once the writes queued are committed."""
        self.writer.close()

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
                    settings_json=json.dumps(record.settings),
                )
            )
            session.flush()
            for s in record.seats:
                session.add(_seat_row(record.id, s))

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
                json.loads(row.settings_json) if row.settings_json else {},
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


def _set_state(connection: Connection, table_id: str, state: str) -> None:
    connection.execute(update(TABLES).where(TABLES.c.id == table_id).values(state=state))


# ---------------------------------------------------------------------- the writes
def append_action(table_id: str, deal_no: int, seq: int, seat: int, action: str) -> Write:
    """One action at its sequence number. Writing the same action again is no change (a retry
    after a commit whose answer was lost); another action at that number is refused."""

    def run(connection: Connection) -> None:
        connection.execute(
            insert(ACTIONS),
            {
                "table_id": table_id,
                "seq": seq,
                "deal_no": deal_no,
                "seat": seat,
                "action": action,
                "at": now(),
            },
        )

    def already(connection: Connection) -> bool:
        row = connection.execute(
            select(ACTIONS.c.deal_no, ACTIONS.c.seat, ACTIONS.c.action).where(
                ACTIONS.c.table_id == table_id, ACTIONS.c.seq == seq
            )
        ).first()
        if row is not None and tuple(row) != (deal_no, seat, action):
            raise LogConflict(f"table {table_id}: another action holds number {seq} of the log")
        return row is not None

    return Write(run, already, "append_action")


def start_deal(table_id: str, deal: DealRecord) -> Write:
    """A new deal dealt (the table is then playing)."""

    def run(connection: Connection) -> None:
        connection.execute(
            insert(DEALS),
            {
                "table_id": table_id,
                "deal_no": deal.deal_no,
                "dealer": deal.dealer,
                "dealt_json": json.dumps(deal.dealt),
                "seq": deal.seq,
                "seat_seqs_json": None if deal.seat_seqs is None else json.dumps(deal.seat_seqs),
                "started_at": now(),
            },
        )
        _set_state(connection, table_id, "playing")

    def already(connection: Connection) -> bool:
        row = connection.execute(
            select(DEALS.c.dealt_json).where(DEALS.c.table_id == table_id, DEALS.c.deal_no == deal.deal_no)
        ).first()
        if row is not None and row[0] != json.dumps(deal.dealt):
            raise LogConflict(f"table {table_id}: another deal holds number {deal.deal_no}")
        return row is not None

    return Write(run, already, "start_deal")


def end_deal(table_id: str, deal_no: int, scores: list[int], outcome: str) -> Write:
    """A deal's scores and outcome once it is over (the table is then between deals)."""

    def run(connection: Connection) -> None:
        connection.execute(
            update(DEALS)
            .where(DEALS.c.table_id == table_id, DEALS.c.deal_no == deal_no)
            .values(scores_json=json.dumps(scores), outcome=outcome, ended_at=now())
        )
        _set_state(connection, table_id, "between_deals")

    return Write(run, None, "end_deal")


def save_seat(table_id: str, seat: SeatRecord) -> Write:
    """A seat's new kind, name, bot, token hash or departure."""
    values = {
        "kind": seat.kind,
        "name": seat.name,
        "bot": seat.bot,
        "token_hash": seat.token_hash,
        "left_at": seat.left_at,
    }

    def run(connection: Connection) -> None:
        changed = connection.execute(
            update(SEATS).where(SEATS.c.table_id == table_id, SEATS.c.seat == seat.seat).values(**values)
        )
        if changed.rowcount == 0:
            connection.execute(insert(SEATS), {"table_id": table_id, "seat": seat.seat, **values})

    return Write(run, None, "save_seat")
