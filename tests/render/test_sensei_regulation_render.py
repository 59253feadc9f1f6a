"""A game the table's regulation drew says why on its picture, not "agreed"."""
from __future__ import annotations

import pytest

from bot.domain.regulation import drawn, ruling
from bot.games.sensei import Sensei, parse_turn
from render.sensei import render
from tests.render.legibility import Tracer, clear_render_caches


def repeated_three_times() -> Sensei:
    game = Sensei.new(2, {"first": "green"}, 1)
    for notation in ("b1-b2", "b7-b6", "b2-b1", "b6-b7") * 2:
        seat = game.to_move
        for action in parse_turn(notation):
            game.apply(seat, action)
        game.apply(seat, {"type": "end_turn"})
    return game


@pytest.mark.parametrize("language, said", [("en", "the same position a third time"),
                                            ("pl", "ta sama pozycja po raz trzeci")])
def test_a_regulation_draw_names_the_repetition(language, said):
    game = repeated_three_times()
    ended, _ = drawn(game, ruling(game))
    clear_render_caches()
    with Tracer() as tracer:
        render(ended.public_view(), ["Ana", "Ben"], language)
    texts = {d.text for img, placed in tracer.pictures for d in (p.drawn for p in placed)}
    assert said in texts
