"""The store: tables, seats, game state, action log, results, ratings, outbox — one interface
over two backends (``sqlite`` embedded, ``postgresql`` shared by several processes).

Everything a click changes is written in one transaction and committed before the click is
answered, so a crash never loses an acknowledged move. The messages that announce a change
(log line, direct messages, the end of a game) are queued in the outbox by that same
transaction, so a stop between the commit and Discord can delay them but never lose them.

This is the one place the store is composed: the core (``core.py``: open, close, the write
queue, reads) and one query mixin a concern. A new concern is one more base class below.
"""
from __future__ import annotations

from .actions import ActionQueries
from .core import StoreCore
from .learning import LearningQueries
from .results import ResultQueries
from .reviews import ReviewQueries
from .settings import SettingQueries
from .tables import TableQueries
from .tournaments import TournamentQueries


class Store(
    TableQueries,     # tables and seats (tables.py)
    ActionQueries,    # moves, outbox, questions (actions.py)
    ResultQueries,    # results, ratings, stats (results.py)
    SettingQueries,   # turn clocks, heartbeat, server and member settings (settings.py)
    ReviewQueries,    # finished games' reviews (reviews.py)
    TournamentQueries,  # tournaments, their rounds and games (tournaments.py)
    LearningQueries,  # lessons, puzzle attempts and ratings (learning.py)
    StoreCore,        # open, close, the group commit, shared reads (core.py): always last
):
    """The whole store: ``await Store.open(target)``."""
