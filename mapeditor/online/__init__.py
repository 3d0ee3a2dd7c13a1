"""Online play: a host that runs games of a map for players in web browsers.

``python -m mapeditor host MAP`` (:mod:`mapeditor.host_cli`) starts an aiohttp server
(:mod:`mapeditor.online.server`) that keeps one :class:`~mapeditor.online.table.Table` per map.
The host's engine is the referee: a browser only proposes actions, in messages checked against
``schemas/online-message.schema.json`` (:mod:`mapeditor.online.protocol`). Each table is saved
after every action (:mod:`mapeditor.online.store`), so a restarted host resumes its games. The
browser client is the plain HTML/CSS/JS in ``static/``; the board art is drawn once at start-up
by the editor's painters (:mod:`mapeditor.online.art`).
"""

DEFAULT_PORT = 8765
"""The port a host listens on unless told otherwise."""
