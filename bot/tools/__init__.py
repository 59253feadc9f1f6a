"""Commands for the people who build the bot, not for players: ``python -m bot bench``
(``bench`` and its per-concern ``benchmarks``), ``python -m bot arena`` (AI against AI) and the
AI's measuring tools run as ``python -m bot.tools.NAME`` (``compare_sensei``, ``calibrate``,
``fit_beliefs``).

The top floor: may import anything in the bot, and nothing in the bot imports it.
"""
