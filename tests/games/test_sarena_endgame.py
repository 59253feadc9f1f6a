"""Sàréná expert's endgame: exact in a world, blind to secrets, used only when trees are small."""
from __future__ import annotations

import random

from bot.games.ai import seat_view
from bot.games.sarena import endgame, expert
from bot.games.sarena.knowledge import read_view
from bot.games.sarena.position import Position
from tests.games.test_sarena_ai import random_game, twin_with_other_secrets


def late_games(count: int, seed: int):
    """Two-player games with few legal moves left (random moves until then)."""
    rnd = random.Random(seed)
    while count:
        game = random_game(rnd.randrange(2**32), 2, rnd.randint(22, 30))
        if game.to_move is not None and 1 < len(seat_view(game, game.to_move)["legal"]) <= 10:
            count -= 1
            yield game


def minimax(position: Position, me_to_move: bool, leaf) -> float:
    """Plain minimax, no pruning and no table: the value for ``me``."""
    if not position.legal:
        return leaf(position.piles, position.heights)
    values = []
    for edge in sorted(position.legal):
        child = position.copy()
        child.move(edge)
        values.append(minimax(child, not me_to_move, leaf))
    return max(values) if me_to_move else min(values)


def test_in_a_known_world_it_finds_the_minimax_value_of_every_move():
    for game in late_games(6, seed=1):
        state = game.to_json()
        seat = game.to_move
        mine, rival = state["colours"][seat], state["colours"][1 - seat]

        def leaf(piles, heights, rival=rival):
            win, margin = expert.win_score(piles, heights, mine, (rival,))
            return 2 * win - 1 + expert.MARGIN * margin

        truth = Position(list(state["piles"]), list(state["heights"]))
        values = endgame.solve(truth, mine, tuple(sorted(truth.legal)),
                               lambda rng: (list(state["piles"]), rival), leaf,
                               random.Random(0), nodes=10**6)
        assert values is not None
        for edge, value in values.items():
            child = truth.copy()
            child.move(edge)
            assert abs(value - minimax(child, False, lambda p, h: leaf(p, h))) < 1e-9


def test_big_trees_are_left_to_the_playouts():
    game = random_game(7, 2, 4)
    table = read_view(seat_view(game, game.to_move))
    worlds = expert.worlds_for(table, [])
    assert expert.solve_endgame(table, worlds, random.Random(1), nodes=5_000) is None


def test_what_the_seat_cannot_see_never_changes_the_endgame_choice():
    rnd = random.Random(56)
    differing = 0
    for i, game in enumerate(late_games(6, seed=2)):
        seat = game.to_move
        twin = twin_with_other_secrets(game, seat, rnd)
        differing += twin.to_json() != game.to_json()
        view, twin_view = seat_view(game, seat), seat_view(twin, seat)
        assert twin_view == view
        table = read_view(view)
        assert expert.solve_endgame(table, expert.worlds_for(table, view["history"]),
                                    random.Random(i)) is not None
        picks = {expert.choose_edge(read_view(v), v["history"], random.Random(i))
                 for v in (view, twin_view)}
        assert len(picks) == 1
    assert differing >= 5
