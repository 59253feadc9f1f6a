"""Commands for the people who build the bot, not for players: ``python -m bot bench``
(``bench`` and its per-concern ``benchmarks``) and ``python -m bot arena`` (AI against AI).

The top floor: may import anything in the bot, and nothing in the bot imports it.
"""
