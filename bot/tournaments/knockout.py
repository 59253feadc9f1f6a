"""Single elimination: the seeded bracket, and the matches of a round.

A match is the game of a bracket slot and its replays: a drawn game is played again with the
first move on the other side, up to ``MATCH_GAMES`` games in all; when the last of them is
drawn too, the higher seed goes through. A replay's ``Played.replay_of`` is the board of the
slot's first game, so a match is every game of the round with that board or that replay_of.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from .pairing import Entrant, Played, Table

#: games a match may take (the first and two replays) before the seed decides
MATCH_GAMES = 3


def knockout_rounds(count: int) -> int:
    rounds = 0
    while (1 << rounds) < count:
        rounds += 1
    return rounds


def bracket_order(size: int) -> list[int]:
    """Seeds (1-based) in bracket order for a power-of-two ``size``: 1 meets ``size`` first,
    and the top two can meet only in the final."""
    order = [1]
    while len(order) < size:
        total = len(order) * 2 + 1
        order = [x for seed in order for x in (seed, total - seed)]
    return order


def match_of(game: Played) -> int:
    """The board of the bracket slot a game belongs to."""
    return game.replay_of if game.replay_of is not None else game.table


def matches(games: Iterable[Played], round_no: int) -> dict[int, list[Played]]:
    """The round's matches by slot board (in board order), each's games in the order played."""
    out: dict[int, list[Played]] = {}
    for game in sorted((g for g in games if g.round == round_no), key=lambda g: g.table):
        out.setdefault(match_of(game), []).append(game)
    return dict(sorted(out.items()))


def _drawn(game: Played) -> bool:
    return game.points is not None and len(game.seats) > 1 and len(set(game.points)) == 1


def match_winner(games: Sequence[Played], rank: dict[int, int]) -> int | None:
    """Who goes through: the winner of the last game; after ``MATCH_GAMES`` drawn games the
    higher seed. None while the match is being played or needs a replay."""
    last = games[-1]
    if last.bye:
        return last.seats[0]
    if last.points is None:
        return None
    if not _drawn(last):
        best = max(last.points)
        return next(p for p, pts in zip(last.seats, last.points) if pts == best)
    if len(games) < MATCH_GAMES:
        return None
    return min(last.seats, key=lambda p: rank.get(p, 1 << 30))


def replays_due(games: Iterable[Played], round_no: int,
                rank: dict[int, int]) -> list[tuple[int, int, Table]]:
    """The replays a finished round still needs: (slot board, replay number, seats with the
    first move swapped), for every match whose last game is drawn with games left."""
    due = []
    for board, played in matches(games, round_no).items():
        last = played[-1]
        if last.points is not None and _drawn(last) and len(played) < MATCH_GAMES \
                and match_winner(played, rank) is None:
            due.append((board, len(played), tuple(reversed(last.seats))))
    return due


def knockout_round(entrants: Sequence[Entrant], played: Iterable[Played],
                   round_no: int) -> list[Table]:
    """Round 1: the seeded bracket, byes to the top seeds. Later rounds: the winners of the
    previous round's matches in bracket order, two by two. Empty once a champion is left."""
    rank = {e.id: e.rank for e in entrants}
    if round_no == 1:
        seeds = sorted(entrants, key=lambda e: e.rank)
        size = 1 << knockout_rounds(len(seeds))
        slots = [seeds[s - 1].id if s <= len(seeds) else None for s in bracket_order(size)]
        tables: list[Table] = []
        for a, b in zip(slots[::2], slots[1::2]):
            if a is not None and b is not None:
                tables.append((a, b))
            else:
                tables.append(((a if a is not None else b),))  # type: ignore[arg-type]
        return tables
    alive = set(rank)
    winners = [w for w in (match_winner(g, rank) for g in matches(played, round_no - 1).values())
               if w is not None and w in alive]
    if len(winners) < 2:
        return []
    tables = []
    for i in range(0, len(winners) - 1, 2):
        a, b = winners[i], winners[i + 1]
        tables.append((a, b) if rank.get(a, 0) <= rank.get(b, 0) else (b, a))
    if len(winners) % 2:
        tables.append((winners[-1],))
    return tables


def round_winners(played: Iterable[Played], round_no: int, rank: dict[int, int]) -> set[int]:
    """Who went through in round ``round_no`` (matches still undecided give no one)."""
    return {w for w in (match_winner(g, rank) for g in matches(played, round_no).values())
            if w is not None}
