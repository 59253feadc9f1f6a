"""Taps per turn, per game: every turn of a few seeded games is played from the board message
to the click that sends it, through the real components, counting a button as one tap and a
select as two (open it, choose). ``pytest -s`` prints the counts; each test also records them
(``record_property``, in a JUnit report).

A game joins by an entry in ``PATHS``: which components a turn clicks, from the board on."""
from __future__ import annotations

import random
from collections import Counter
from typing import Any, Callable

import pytest

from bot.games.sensei import legal_turns
from tests.conftest import SQLITE_ONLY
from tests.helpers import (Tap, board, deal_with, narabi_path, random_move, sarena_path,
                           sensei_path, start_table, tap_through)

# Taps are what the components ask of a person: the same on either store, which the other
# modules' tests cover on both. On PostgreSQL too, these games took 67 s of a run's test time.
pytestmark = [pytest.mark.usefixtures("no_missing_text"), SQLITE_ONLY]

#: the goal: any turn from the board in this many taps at most, with a Back before the last
MAX_TAPS = 3
#: game → the clicks of one turn: (board message, action) → [(verb, choice), …]
PATHS: dict[str, Callable[[dict[str, Any], dict[str, Any]], list[Tap]]] = {
    "narabi": narabi_path,
    "sarena": sarena_path,
}
#: the longest game played (Sàréná ends within 45 moves, Narabi within 24 switches)
TURNS = 45


@pytest.mark.slow
@pytest.mark.parametrize("game, seats, seed", [
    ("narabi", 3, 1), ("narabi", 5, 2), ("narabi", 4, 3),
    ("sarena", 2, 11), ("sarena", 4, 12),
])
async def test_every_turn_takes_at_most_three_taps(harness, players, monkeypatch,
                                                   record_property, game, seats, seed):
    h = harness
    deal_with(monkeypatch, seed)
    table = await start_table(h, game, players[:seats])
    rng = random.Random(seed)
    taps = []
    while len(taps) < TURNS and (picked := await random_move(h, table, rng)) is not None:
        player, action = picked
        live = await h.bot.tables.get(table.id)
        version = live.row.version
        b = board(h, table)
        _, count = await tap_through(h, player, b, PATHS[game](b, action))
        assert live.row.version == version + 1, (game, action)  # the last tap sent the turn
        taps.append(count)
    record_property("taps_per_turn", taps)
    print(f"\ntaps per turn — {game}, {seats} players, deal {seed}: {len(taps)} turns, "
          f"max {max(taps)}, mean {sum(taps) / len(taps):.2f}, "
          + ", ".join(f"{n} taps × {k}" for n, k in sorted(Counter(taps).items())))
    assert taps and max(taps) <= MAX_TAPS


#: Sensei: a turn of two moves, then Send, in this many taps at most (Move, piece, square,
#: piece, square, Send turn); any planned move, the third too, can be undone before Send
SENSEI_TWO_MOVES = 6


def two_action_turn(game: Any, rng: random.Random) -> list[dict[str, Any]] | None:
    """Two random legal actions in a row that leave the game running (a turn of two), or None.
    Drawn directly: Arashi offers thousands of whole turns, too many to list at every turn."""
    trial, seat, turn = game.copy(), game.to_move, []
    for _ in range(2):
        actions = [a for a in trial.legal_actions(seat) if a["type"] != "end_turn"]
        if not actions:
            return None
        turn.append(rng.choice(actions))
        trial.apply(seat, turn[-1])
        if trial.result() is not None:
            return None
    return turn


@pytest.mark.slow
@pytest.mark.parametrize("seed", [21, 22])
async def test_a_sensei_turn_of_two_moves_takes_six_taps(harness, players, record_property,
                                                          seed):
    h = harness
    table = await start_table(h, "sensei", players[:2])
    rng = random.Random(seed)
    taps: Counter = Counter()
    for _ in range(TURNS):
        live = await h.bot.tables.get(table.id)
        if live.game.result() is not None:
            break
        # A two-move turn when there is one (the goal's case), any turn otherwise.
        turn = two_action_turn(live.game, rng) or rng.choice(legal_turns(live.game))
        player = table.players[live.game.to_move]
        _, count = await tap_through(h, player, board(h, table), sensei_path(turn))
        assert count == 2 + 2 * len(turn)
        if len(turn) == 2:
            assert count <= SENSEI_TWO_MOVES
        taps[len(turn)] += 1
    record_property("sensei_turns_by_moves", dict(taps))
    print(f"\ntaps per turn — sensei, deal {seed}: " + ", ".join(
        f"{moves} move(s): {2 + 2 * moves} taps × {k}" for moves, k in sorted(taps.items())))
    assert taps[2] > 0
