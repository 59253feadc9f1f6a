"""The tables as the bot keeps them, above the store and below Discord: live tables and their
moves (``tables``: the service, composed of ``live``, ``lobby`` and ``play``), ratings
(``ratings``) and records such as streaks and par (``records``).

May import the games, the store and ``bot.config``; never the runtime, ``bot.ui``, the client
or the cogs.
"""
