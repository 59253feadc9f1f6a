"""`/puzzle` answers: the time from the click that answers a puzzle (Send, the last switch,
the move) to the bot's answer, with the verdict judged in the think pool (a Sensei answer
against every reply) and the rating moved in the store; pictures are left out, as in the
interaction figures (they are drawn in the render workers, measured per game). Built-in
puzzles of every game, a right answer and, where one exists, a wrong one each; the bot's real
cogs and store (SQLite). Each game's first answer is not counted: it loads that game's
checker in the worker, once per process."""
from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

from .clicks import bench_bot, ms


def _message(h, channel_id: int, custom_id: str) -> dict[str, Any]:
    """An ephemeral message holding the button clicked (as the puzzle's own step shows it)."""
    from ...testing.fake_discord import snowflake

    message = {"id": str(snowflake()), "channel_id": str(channel_id), "flags": 64, "content": "",
               "components": [{"type": 1, "components": [
                   {"type": 2, "style": 3, "label": "Answer", "custom_id": custom_id}]}]}
    h.fake._message(channel_id, message, [], message_id=int(message["id"]), flags=64)
    return h.fake.messages[int(message["id"])]


def _answers(puzzle: Any, attempt: int, rng: random.Random) -> list[tuple[str, str]]:
    """(kind, custom_id) of a right answer and a wrong one."""
    from cogs.learning.flow import encode_switches, pz
    from cogs.sensei.cog import encode_plan

    if puzzle.game == "sensei":
        right = pz(attempt, "sd", encode_plan(puzzle.solution))
        first = puzzle.solution[0]
        others = [a for a in puzzle.position().legal_actions(puzzle.seat)
                  if a["type"] in ("stone", "character") and a != first]
        wrong = pz(attempt, "sd", encode_plan([rng.choice(others)])) if others else None
    elif puzzle.game == "sarena":
        move = puzzle.solution[0]
        right = pz(attempt, "sd", f"{move['from']}.{move['to']}")
        others = [a for a in puzzle.position().legal_actions(puzzle.seat) if a != move]
        other = rng.choice(others) if others else None
        wrong = pz(attempt, "sd", f"{other['from']}.{other['to']}") if other else None
    else:
        right, wrong = pz(attempt, "pl", encode_switches(puzzle.solution)), None
    return [("right", right)] + ([("wrong", wrong)] if wrong else [])


async def bench_puzzle_answers(per_game: int = 40, drawn: bool = False) -> dict[str, Any]:
    """``drawn``: with the answer's picture drawn too (here in a thread: the bench's bot has
    no render workers)."""
    from ...games import puzzles
    from ...testing.fake_discord import CHANNEL_ID, Member

    rng = random.Random(5)
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        h = await bench_bot(Path(tmp) / "bench.sqlite3")
        if drawn:
            for cog in h.bot.cogs.values():
                cog.__dict__.pop("render", None)
        try:
            every: list[float] = []
            errors = 0
            for game in ("sensei", "narabi", "sarena"):
                times: dict[str, list[float]] = {"right": [], "wrong": []}
                for n, puzzle_id in enumerate(puzzles.ids(game)[:per_game + 1]):
                    puzzle = puzzles.load(puzzle_id)
                    for kind, custom_id in _answers(puzzle, 0, rng):
                        member = Member(70_000 + len(every) + n, f"solver{n}")
                        attempt = await h.bot.store.open_attempt(member.id, game,
                                                                 puzzle.to_json())
                        custom_id = custom_id.replace("pz:0:", f"pz:{attempt}:", 1)
                        message = _message(h, CHANNEL_ID, custom_id)
                        token = await h.click(member, message, custom_id, settle=False)
                        await h.settle()
                        taken = h.fake.acked_at[token] - h.fake.clicked_at[token]
                        # An answer is a verdict; anything else (an error) is counted apart.
                        said = h.reply_text(token)
                        if not any(mark in said for mark in ("🎉", "❌")):
                            errors += 1
                        if n == 0:
                            continue  # the warm-up (see above)
                        times[kind].append(taken)
                        every.append(taken)
                out[game] = {kind: ms(values) for kind, values in times.items() if values}
            out["all"] = dict(ms(every), errors=errors)
        finally:
            await h.bot.close()
    return out


async def bench_puzzles(per_game: int = 40) -> dict[str, Any]:
    return {"answers": await bench_puzzle_answers(per_game),
            "answers_drawn": (await bench_puzzle_answers(per_game, drawn=True))["all"]}


def print_figures(figures: dict[str, Any]) -> None:
    d = figures["answers_drawn"]
    figures = figures["answers"]
    a = figures["all"]
    print(f"/puzzle answers (judged in the pool, rated; pictures excluded): p50 {a['p50_ms']:.1f} ms  "
          f"p99 {a['p99_ms']:.1f} ms (n={a['n']}, answers that were no verdict: {a['errors']}; "
          f"target p99 ≤ 300 ms)")
    for game in ("sensei", "narabi", "sarena"):
        for kind, m in (figures.get(game) or {}).items():
            print(f"  {game} {kind:5}  p50 {m['p50_ms']:.1f} ms  p99 {m['p99_ms']:.1f} ms  (n={m['n']})")
    print(f"  with the picture drawn: p50 {d['p50_ms']:.1f} ms  p99 {d['p99_ms']:.1f} ms  (n={d['n']})")
