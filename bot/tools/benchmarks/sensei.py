"""Sensei figures: picture speed and size, turn enumeration and random-game throughput."""
from __future__ import annotations

import random
import statistics
import time

from bot.games.sensei import Sensei, legal_turns

MID_GAME_TURN = 12
RANDOM_GAME_TURN_CAP = 400


def random_game(options: dict, seed: int, until_turn: int | None = None) -> Sensei:
    """Play uniformly random legal actions (ending a turn 1 time in 4 when allowed)."""
    game = Sensei.new(2, options, seed)
    rng = random.Random(seed)
    cap = until_turn or RANDOM_GAME_TURN_CAP
    while game.to_move is not None and game.turn < cap:
        seat = game.to_move
        moves = [a for a in game.legal_actions(seat) if a["type"] != "end_turn"]
        if game.current and (not moves or rng.random() < 0.25):
            game.apply(seat, {"type": "end_turn"})
        else:
            game.apply(seat, rng.choice(moves))
    return game


def bench() -> dict:
    from render.sensei import render

    mid = random_game({"board": "storm", "setup": "crossed"}, 7, MID_GAME_TURN)
    view = mid.public_view()
    names = ["Alice", "Bob"]
    png = render(view, names)  # warms the cached layers
    timings = []
    for _ in range(30):
        start = time.perf_counter()
        png = render(view, names)
        timings.append((time.perf_counter() - start) * 1000)

    # Counted as distinct resulting positions (one representative action sequence each).
    positions, start = 0, time.perf_counter()
    while time.perf_counter() - start < 1.0:
        positions += len(legal_turns(mid))
    turns_per_s = positions / (time.perf_counter() - start)

    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < 1.0:
        random_game({}, games)
        games += 1
    games_per_s = games / (time.perf_counter() - start)

    return {"render_ms_median": round(statistics.median(timings), 2), "png_bytes": len(png),
            "turns_enumerated_per_s": round(turns_per_s), "random_games_per_s": round(games_per_s, 1)}


if __name__ == "__main__":
    print(bench())
