"""The server's settings, and where its database lives by default."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


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
    mid-deal before a ``rules`` bot plays for them. ``bot_workers``: processes that run the bots.
    ``buffer``: updates kept per seat for a reconnecting client. ``allowed_origins``: the pages
    (``scheme://host[:port]``) besides the server's own that may open a table's websocket
    (:func:`atout.server.origins.origin_allowed`).
    """

    db_url: str
    bot_pause: float = 0.7
    leave_timeout: float = 60.0
    bot_workers: int = 2
    buffer: int = 256
    allowed_origins: frozenset[str] = frozenset()
