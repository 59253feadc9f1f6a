"""What keeps tables moving between clicks: AI seats playing (``autoplay``) in search processes
(``thinkpool``), the turn clock (``turnclock``), periodic upkeep of lobbies and old tables
(``upkeep``) and the garbage collector's timing (``heap``); and the operator's console
(``console``: ``/metrics`` from ``metrics``, ``/healthz`` and ``/readyz`` from ``health``).

May import the games, the store, the domain (``bot.domain``), ``bot.config`` and ``bot.logs``;
never ``bot.ui``, ``bot.client`` or the cogs: it tells the Discord surface about a change
through callables it is handed.
"""
