"""Narabi figures: picture time and size, and how many random games the rules play per second."""
from __future__ import annotations

import random
import statistics
import time
from typing import Any

from bot.games.narabi import Narabi

NAMES = ["Ada", "Bartholomew", "Chloé", "Dmitri", "Eve"]


def _mid_game_views(count: int) -> list[dict[str, Any]]:
    views, seed = [], 0
    while len(views) < count:
        game = Narabi.new(5, {}, seed)
        rng = random.Random(seed)
        for _ in range(rng.randint(1, 10)):
            if game.finished:
                break
            game.apply(game.to_move, rng.choice(game.legal_actions(game.to_move)))
        if not game.finished:
            views.append(game.public_view())
        seed += 1
    return views


def _random_games_per_s(seconds: float = 1.0) -> float:
    start = time.perf_counter()
    games = 0
    while time.perf_counter() - start < seconds:
        rng = random.Random(games)
        game = Narabi.new(3 + games % 3, {"advanced": games % 2 == 1}, games)
        while not game.finished:
            game.apply(game.to_move, rng.choice(game.legal_actions(game.to_move)))
        games += 1
    return games / (time.perf_counter() - start)


def bench() -> dict[str, Any]:
    from render.narabi import render

    views = _mid_game_views(50)
    render(views[0], NAMES)  # the first call builds the cached layers
    times, sizes = [], []
    for view in views:
        start = time.perf_counter()
        data = render(view, NAMES)
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(data))
    return {
        "render_ms_median": round(statistics.median(times), 2),
        "png_bytes": max(sizes),
        "random_games_per_s": round(_random_games_per_s(), 1),
    }


if __name__ == "__main__":
    print(bench())
