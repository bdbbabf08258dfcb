"""The server of atout's browser game (``atout serve``, docs/server.md).

It holds no rule: every decision goes through the engine (:class:`atout.games.Game`) and every
message to a browser is built from that seat's view in the wire format (docs/protocol.md).

Modules, one idea each: :mod:`~atout.server.config` (settings and the default database),
:mod:`~atout.server.db` (the tables and the migrations run at start), :mod:`~atout.server.store`
(the append-only log, read and written), :mod:`~atout.server.botpool` (computer players in a
process pool), :mod:`~atout.server.tables` (a live table and its seats, the manager of tables),
:mod:`~atout.server.ws` (the websocket protocol), :mod:`~atout.server.lobby` (the REST routes),
:mod:`~atout.server.app` (the application that ties them).
"""
