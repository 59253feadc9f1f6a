"""Tournaments, the pure part: who plays whom each round and how the standings read.

Nothing here talks to Discord, the store or a clock, and nothing draws from a global random
source: a round's pairing is a function of the entrants, the games already played and the
tournament's seed (``bot/games/``-style purity). The runtime above stores and schedules.
"""
from .knockout import (MATCH_GAMES, knockout_round, knockout_rounds, match_winner, matches,
                       replays_due, round_winners)
from .pairing import (FORMATS, Entrant, Played, Table, narabi_teams, round_robin_round,
                      round_robin_rounds, score_groups, table_points)
from .swiss import swiss_round
from .rounds import pair_round
from .standings import Row, standings

__all__ = ["FORMATS", "Entrant", "Played", "Table", "knockout_round", "knockout_rounds",
           "narabi_teams", "pair_round", "round_robin_round", "round_robin_rounds",
           "score_groups", "swiss_round", "table_points", "Row", "standings", "MATCH_GAMES",
           "match_winner", "matches", "replays_due", "round_winners"]
