"""The tables as the bot keeps them, above the store and below Discord: live tables and their
moves (``tables``: the service, composed of ``live``, ``lobby`` and ``play``) and records such
as streaks and par (``records``). Ratings are the store's (``bot.store.ratings``): a game's end
and its rating change are written in one transaction.

May import the games, the store and ``bot.config``; never the runtime, ``bot.ui``, the client
or the cogs.
"""
