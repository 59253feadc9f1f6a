"""A Discord bot for hidden-information board games. Its floors, lowest first; a module imports
only from its own floor or the ones below it:

- ``games``     the rules, solvers and AI players of every game, and their registry (pure);
- ``errors``, ``logs``, ``i18n``, ``glossary``   problems, logs and words;
- ``store``     SQLite and PostgreSQL behind one ``Store``;
- ``config``    the settings, read from the environment (it names the store's shard scope);
- ``domain``    live tables and their moves, ratings, records;
- ``runtime``   AI seats, the search processes, the turn clock, upkeep;
- ``ui``        the Discord surface every game shares (the cogs in ``cogs/`` build on it);
- ``client``    the discord.py client that assembles the floors;
- ``testing``, ``playground``, ``tools``   a Discord stand-in, the playground, bench and arena.

Board pictures are drawn by the separate ``render`` package (Pillow), which sees only public views.
"""
