"""Reviews the review tests run in the think pool: built by hand with bot.games.review (the
display and the storing are under test, not an expert), or the real Sàréná review on a tiny
budget. Importable in a fresh worker process."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.games import game_class
from bot.games.review import TurnReview, stored

#: the drop of turn i is DROPS[i % 5]: best, good, inaccuracy, mistake, blunder in turn
DROPS = (0.0, 0.05, 0.15, 0.25, 0.35)


def turns_of_log(log: Sequence[tuple[int, Mapping[str, Any]]]) -> list[tuple[int, int, int]]:
    """(seat, first, count) per turn: runs of one seat's actions, resignations left out."""
    turns: list[tuple[int, int, int]] = []
    for index, (seat, action) in enumerate(log):
        if action.get("type") == "resign":
            continue
        if turns and turns[-1][0] == seat and turns[-1][1] + turns[-1][2] == index:
            turns[-1] = (seat, turns[-1][1], turns[-1][2] + 1)
        else:
            turns.append((seat, index, 1))
    return turns


def by_hand(key: str, seats: int, options: Mapping, seed: int,
            log: Sequence[tuple[int, Mapping[str, Any]]]) -> dict:
    game = game_class(key).new(seats, options, seed)
    out, done = [], 0
    for i, (seat, first, count) in enumerate(turns_of_log(log)):
        for s, action in log[done:first]:
            game.apply(s, dict(action))
        done = first
        moves = [a for a in game.legal_actions(seat) if "from" in a]
        played = [dict(a) for _, a in log[first:first + count]]
        better = [dict(moves[-1])] if moves else played
        out.append(TurnReview.graded(seat, first, played, 0.6, 0.6 - DROPS[i % 5], better))
    return stored(key, seats, out)


def sensei(seats: int, options: Mapping, seed: int, log: Sequence) -> dict:
    return by_hand("sensei", seats, options, seed, log)


def sarena(seats: int, options: Mapping, seed: int, log: Sequence) -> dict:
    from bot.games.sarena.review import review

    return review(seats, options, seed, log, nodes=400)
