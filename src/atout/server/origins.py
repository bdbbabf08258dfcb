"""Which pages may open a table's websocket: the server's own, and the origins it is told of.

A browser sends the page's origin (``scheme://host[:port]``) with every websocket handshake, and
lets any page open a websocket to any server: without this check a page elsewhere could play at
a table with a visitor's seat. A client that is no browser (a bot, a script) sends no origin.

>>> origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000", frozenset())
True
>>> origin_allowed("https://tarot.example", "tarot.example", frozenset())
True
>>> origin_allowed("https://elsewhere.example", "tarot.example", frozenset())
False
>>> origin_allowed("https://tarot.example", "127.0.0.1:8000", frozenset({"https://tarot.example"}))
True
>>> origin_allowed(None, "tarot.example", frozenset())
True
"""

from __future__ import annotations

from urllib.parse import urlsplit

__all__ = ["canonical_origin", "origin_allowed"]

DEFAULT_PORTS = {"http": 80, "https": 443}
"""The port an origin of each web scheme means when it names none."""


def _parts(origin: str) -> tuple[str, str, int] | None:
    """Scheme, host and port of an ``http`` or ``https`` origin; None for anything else."""
    try:
        split = urlsplit(origin)
        port = split.port
    except ValueError:
        return None
    scheme, host = split.scheme.lower(), split.hostname
    if scheme not in DEFAULT_PORTS or not host or split.username is not None or split.password is not None:
        return None
    if split.path or split.query or split.fragment or origin.endswith(("?", "#")):
        return None
    return scheme, host.lower(), DEFAULT_PORTS[scheme] if port is None else port


def canonical_origin(origin: str) -> str:
    """``scheme://host[:port]`` in lower case, the scheme's default port left out; raises
    :class:`ValueError` for what is no web origin.

    >>> canonical_origin("HTTPS://Tarot.Example:443")
    'https://tarot.example'
    >>> canonical_origin("http://[::1]:8000/")
    'http://[::1]:8000'
    """
    text = origin.strip()
    parts = _parts(text[:-1] if text.endswith("/") else text)
    if parts is None:
        raise ValueError(f"{origin!r} is not an origin: write scheme://host[:port], http or https")
    scheme, host, port = parts
    shown = f"[{host}]" if ":" in host else host
    return f"{scheme}://{shown}" if port == DEFAULT_PORTS[scheme] else f"{scheme}://{shown}:{port}"


def _host_parts(host: str) -> tuple[str, int | None] | None:
    """The host and port of a ``Host`` header (the port None when it names none)."""
    try:
        split = urlsplit(f"//{host}")
        port = split.port
    except ValueError:
        return None
    if not split.hostname or split.path or split.query or split.fragment or split.username is not None:
        return None
    return split.hostname.lower(), port


def origin_allowed(origin: str | None, host: str | None, allowed: frozenset[str]) -> bool:
    """Whether a websocket handshake with this ``Origin`` and ``Host`` may go on.

    No origin (a client that is no browser) may; an origin whose scheme, host and port are those
    of the ``Host`` the request was sent to (a ``Host`` without a port is the scheme's default
    port) may; an origin in ``allowed`` (``scheme://host[:port]``, for a proxy that rewrites
    ``Host``) may; any other origin may not.
    """
    if origin is None:
        return True
    if origin in allowed:
        return True
    parts = _parts(origin)
    if parts is None:
        return False
    scheme, origin_host, origin_port = parts
    target = _host_parts(host) if host is not None else None
    if target is not None:
        target_host, target_port = target
        wanted = DEFAULT_PORTS[scheme] if target_port is None else target_port
        if origin_host == target_host and origin_port == wanted:
            return True
    return any(_parts(entry) == parts for entry in allowed)
