"""Sàréná figures: board picture cost and random full games per second (fast path and API).

Times are this process's CPU time, so other work on a shared machine does not skew them.
"""
from __future__ import annotations

import statistics
import time

from bot.games.sarena import Sarena, playout
from bot.games.sarena.board import EDGES, SQUARE_NAMES
from bot.games.sarena.playout import choice_random, choose_edge, playout_api

RENDER_RUNS = 30
FAST_GAMES = 3000
API_GAMES = 200


def _midgame_view() -> dict:
    """A 4-player game 18 moves in: tall piles, flips, a last move to highlight."""
    game = Sarena.new(4, {"fair": True}, 2024)
    rnd = choice_random(2024).random
    for _ in range(18):
        src, dst = EDGES[choose_edge(game.legal_edges(), rnd)]
        game.apply(game.to_move, {"type": "move", "from": SQUARE_NAMES[src],
                                  "to": SQUARE_NAMES[dst]})
    return game.public_view()


def _games_per_s(play, games: int) -> float:
    start = time.process_time()
    for seed in range(games):
        play(seed, 2 + seed % 3, seed % 2 == 1)
    return games / (time.process_time() - start)


def bench() -> dict:
    from render.sarena import render

    view = _midgame_view()
    names = ["Alice", "Bartholomew", "Chen", "Dee"]
    png = render(view, names)  # warms the cached layers, as a running bot would have
    times = []
    for _ in range(RENDER_RUNS):
        start = time.process_time()
        render(view, names)
        times.append(time.process_time() - start)
    return {
        "render_ms_median": statistics.median(times) * 1000,
        "png_bytes": len(png),
        "random_games_per_s": _games_per_s(playout, FAST_GAMES),
        "random_games_per_s_api": _games_per_s(playout_api, API_GAMES),
    }


if __name__ == "__main__":
    print(bench())
