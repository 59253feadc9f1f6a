"""The figures of `python -m bot bench`, by concern (``bot/tools/bench.py`` runs and prints them).

``clicks`` (the bench's bot and its clicks), ``interactions``, ``storage``, ``load`` (clicks
beside AIs and par searches; par itself), ``backends`` (SQLite beside PostgreSQL),
``discord_budget``, ``metrics_cost`` (clicks with the operator's metrics on and off); and
per game, a module named by the game's key (``narabi``, ``sensei``, ``sarena``: they read the
clock, so they live outside bot/games). No other module here may be
named like a game.
"""
