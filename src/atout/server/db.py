"""The database: four tables (docs/server.md), created and upgraded by the Alembic migrations
shipped in this package, run at every start.

A table is its log: ``tables`` and ``seats`` say who sits where, ``deals`` holds each deal's
dealt cards (and its scores once over), ``actions`` every action applied, appended and never
changed. SQLite by default, PostgreSQL by URL (``postgresql+psycopg://...``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import (
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Integer,
    String,
    Text,
    create_engine,
    event,
    text,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def now() -> datetime:
    """The current time, in UTC."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """The declarative base of the server's tables."""


class TableRow(Base):
    """A table: its rules (preset name and every option), its state, and the hash of its host's
    token (the person who created it)."""

    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    preset: Mapped[str] = mapped_column(String(40))
    rules_json: Mapped[str] = mapped_column(Text)
    state: Mapped[str] = mapped_column(String(20))
    host_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    settings_json: Mapped[str | None] = mapped_column(Text, nullable=True)


class SeatRow(Base):
    """A seat: ``human`` (a person holding a token, of which only the hash is kept), ``bot`` or
    ``open``; ``left_at`` is set while a bot plays for a person who left."""

    __tablename__ = "seats"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    name: Mapped[str] = mapped_column(String(40), default="")
    bot: Mapped[str | None] = mapped_column(String(80), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    left_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class DealRow(Base):
    """A deal: its dealer and dealt cards (``Game.dealt()``), the log's sequence number at which
    it was dealt and each seat's own sequence number then (``seat_seqs_json``), and once over its
    scores and outcome."""

    __tablename__ = "deals"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    deal_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    dealer: Mapped[int] = mapped_column(Integer)
    dealt_json: Mapped[str] = mapped_column(Text)
    seq: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    scores_json: Mapped[str | None] = mapped_column(Text, nullable=True)
    outcome: Mapped[str | None] = mapped_column(Text, nullable=True)
    seat_seqs_json: Mapped[str | None] = mapped_column(Text, nullable=True)


class DealAnalysisRow(Base):
    """The exact solver's analysis of a finished deal (:mod:`atout.analysis`), computed once."""

    __tablename__ = "deal_analyses"
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    deal_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    analysis_json: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ScoreSheetRow(Base):
    """A score sheet of a table playing with real cards: one JSON document, the hash of the token
    that may edit it, and a version that grows with each change."""

    __tablename__ = "score_sheets"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    edit_hash: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(Integer, default=1)
    sheet_json: Mapped[str] = mapped_column(Text)


class ActionRow(Base):
    """One action applied, in its words, by a seat, at a table-wide sequence number."""

    __tablename__ = "actions"
    __table_args__ = (ForeignKeyConstraint(["table_id", "deal_no"], ["deals.table_id", "deals.deal_no"]),)
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    deal_no: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(40))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


def _sqlite_pragmas(dbapi_connection: object, _record: object) -> None:
    """WAL, so that readers never wait on the writer; ``synchronous=FULL``, so that a commit is on
    disk before the table tells anyone (in WAL mode ``NORMAL`` may lose the last commits to a power
    cut); the group commits share each flush."""
    cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def open_database(url: str) -> Engine:
    """An engine on ``url`` with the schema brought up to date (a SQLite file and its directory
    are created on first use). Raises :class:`ValueError` with a one-line message when the URL
    is not one SQLAlchemy reads or the database cannot be reached."""
    try:
        parsed = make_url(url)
    except Exception as exc:
        raise ValueError(f"not a database URL: {url!r} ({exc})") from None
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(parsed, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
    else:
        try:
            engine = create_engine(parsed, pool_pre_ping=True)
        except Exception as exc:  # e.g. the driver is not installed
            raise ValueError(f"cannot use database {parsed.render_as_string()}: {exc}") from None
    try:
        upgrade(engine)
    except Exception as exc:
        raise ValueError(f"cannot open database {parsed.render_as_string()}: {exc}".splitlines()[0]) from None
    return engine


MIGRATION_LOCK = 0x41544F5500
"""The PostgreSQL advisory lock the migrations run under."""


def upgrade(engine: Engine) -> None:
    """Run the migrations shipped in ``atout.server.migrations`` up to the newest."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            # several hosts starting at once: one migrates, the others wait and find it done
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
