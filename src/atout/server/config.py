"""The server's settings, and where its database lives by default."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from atout.server.connection import Limits


def default_db_path() -> Path:
    """The SQLite file in the user's data directory: ``$XDG_DATA_HOME/atout/atout.sqlite3`` when
    ``XDG_DATA_HOME`` is set, else the platform's user data directory (``platformdirs``)."""
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg:
        return Path(xdg) / "atout" / "atout.sqlite3"
    import platformdirs

    return Path(platformdirs.user_data_dir("atout", appauthor=False)) / "atout.sqlite3"


def sqlite_url(path: Path) -> str:
    """A SQLAlchemy URL for a SQLite file."""
    return f"sqlite:///{path}"


@dataclass(frozen=True)
class ServerConfig:
    """What ``atout serve`` is told.

    ``bot_pause``: seconds a ``random`` or ``rules`` bot waits before it plays, so that people can
    follow (0 in tests). ``leave_timeout``: seconds after a person's last connection closes
    mid-deal before a ``rules`` bot plays for them. ``bot_workers``: processes that run the bots;
    ``warm_bots``: whether they load the bots' kernels as they start (else on first use).
    ``buffer``, ``buffer_bytes``: messages (and their bytes) kept per seat for a reconnecting
    client, during a deal. ``info_delay``: seconds over which changes of the table info are told
    as one message. ``idle_unload``: seconds a table with no connection and nothing to do stays
    in memory. ``deals_file``: prepared deals (:mod:`atout.server.prepared`). ``limits``: what one
    connection may cost (:class:`atout.server.connection.Limits`). ``allowed_origins``: the pages
    (``scheme://host[:port]``) besides the server's own that may open a table's websocket
    (:func:`atout.server.origins.origin_allowed`). ``internal_address``: ``host:port`` where the
    other workers on the same PostgreSQL database reach this one (:mod:`atout.server.relay`);
    ``None`` for a server alone. ``analysis``: ``"eager"`` starts the solver's analysis of each
    deal as it ends (a few at a time waiting, the others when asked), ``"on-demand"`` only when
    someone asks for it (:mod:`atout.server.study`).
    """

    db_url: str
    bot_pause: float = 0.7
    leave_timeout: float = 60.0
    bot_workers: int = 2
    warm_bots: bool = True
    buffer: int = 64
    buffer_bytes: int = 8 << 10
    info_delay: float = 0.05
    idle_unload: float = 60.0
    deals_file: str | None = None
    limits: Limits = field(default_factory=Limits)
    allowed_origins: frozenset[str] = frozenset()
    internal_address: str | None = None
    analysis: Literal["eager", "on-demand"] = "eager"
