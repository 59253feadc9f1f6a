"""The guided first game of Sensei: green (the player) against a scripted red, over the real
rules. Each rule comes when it first matters: moves and the character's jump on turn 1, the
barrier and the unfair-barrier rule when three red stones wait on the second rank, arrival
when a green stone reaches red's home rank, and the storm board at the end."""
from __future__ import annotations

from functools import partial
from typing import Any, Callable, Mapping, Sequence

import discord

from bot.games.sensei import Sensei, format_turn, parse_turn
from bot.games.sensei.board import EMPTY, parse_square
from bot.i18n import t
from bot.markdown import md
from bot.ui.lessons import Choice, Lesson, Step

from .planning import decode_plan, encode_plan, piece_buttons, target_buttons
from .warning import losing_reason

OPTIONS = {"version": "arashi", "setup": "standard", "board": "plain", "first": "green"}
GREEN, RED = 0, 1

#: the main line, both sides' turns in notation
LINE = ("f1-f3 *d1-f3", "b7-b2 e7-e3", "c1-c6 c6-b6", "g7-g2 a7-a2")


def end_turn(game: Sensei, seat: int) -> None:
    if game.result() is None and game.to_move == seat and game.current:
        game.apply(seat, {"type": "end_turn"})


def played(turns: Sequence[str], board: str = "plain") -> Sensei:
    game = Sensei.new(2, dict(OPTIONS, board=board), 0)
    for turn in turns:
        seat = game.to_move
        assert seat is not None
        for action in parse_turn(turn):
            game.apply(seat, action)
        end_turn(game, seat)
    return game


def barrier_board() -> Sensei:
    """Another board: green's six stones a1–f1 lack only the g-file for a barrier, and three
    red stones wait on the second rank."""
    game = Sensei.new(2, dict(OPTIONS), 0)
    cells = [EMPTY] * 49
    for name in ("a1", "b1", "c1", "d1", "e1", "f1", "g4"):
        cells[parse_square(name)] = GREEN
    for name in ("b2", "d2", "f2", "a7", "c7", "e7", "g7"):
        cells[parse_square(name)] = RED
    game.cells = cells
    game.characters = [parse_square("d1"), parse_square("c7")]
    return game


def loses(game: Sensei, seat: int, actions: Sequence[Mapping[str, Any]]
          ) -> tuple[str, dict[str, Any]] | None:
    trial = game.copy()
    for action in actions:
        trial.apply(seat, action)
    rest = [{"type": "end_turn"}] if trial.result() is None and trial.to_move == seat else []
    return losing_reason(trial, seat, rest)


class Planner:
    """A lesson's turn planned with a table's buttons (``cogs/sensei/planning.py``)."""
    send, undo = "sensei.button.send", "sensei.button.undo"
    ready, ready_win = "sensei.step.ready", "sensei.step.ready_win"

    def encode(self, plan: Sequence[Mapping[str, Any]]) -> str:
        return encode_plan(list(plan))  # type: ignore[arg-type]

    def decode(self, code: str) -> list[dict[str, Any]]:
        return decode_plan(code)

    def pieces(self, game: Any, seat: int, picked: Callable[[str], str],
               locale: str) -> tuple[list[discord.ui.Item], str | None]:
        return piece_buttons(game, seat, picked, locale)

    def targets(self, game: Any, seat: int, piece: str,
                planned: Callable[[dict[str, Any]], str], locale: str
                ) -> tuple[list[discord.ui.Item], str, dict[str, Any]]:
        return target_buttons(game, seat, piece, planned, locale)

    def planned(self, plan: Sequence[Mapping[str, Any]], locale: str) -> str:
        return md("sensei.step.planned", locale, actions=format_turn(list(plan)))


def choice(turn: str, right: bool = True, said: str | None = None) -> Choice:
    return Choice(turn, tuple(parse_turn(turn)), right, said)


def lesson() -> Lesson:
    # The player's seat is unnamed, so the pictures call it by its colour ("1 · Green wins"):
    # their sentences are made for a third person, and the text says "you play green".
    return Lesson("sensei", (
        Step("learn.sensei.goal", partial(played, ())),
        Step("learn.sensei.moves", partial(played, ()),
             choices=(choice(LINE[0], said="learn.sensei.moves.done"),), reply=LINE[1],
             note="learn.sensei.notation"),
        Step("learn.sensei.two_moves", partial(played, LINE[:2]),
             choices=(choice(LINE[2], said="learn.sensei.two_moves.done"),), reply=LINE[3],
             answered=partial(played, LINE)),
        Step("learn.sensei.barrier", barrier_board,
             choices=(choice("g4-g1", right=False, said="learn.sensei.barrier.lost"),
                      choice("g4-g6", said="learn.sensei.barrier.done"))),
        Step("learn.sensei.arrival", partial(played, LINE),
             choices=(choice("b6-b7", right=False, said="learn.sensei.arrival.short"),
                      choice("b6-b7 *f3-b7", said="learn.sensei.arrival.done"))),
        Step("learn.sensei.storm", partial(played, (), "storm")),
    ), names=lambda locale: ["", t("learn.ai", locale)],
        finish_turn=end_turn, loses=loses, planner=Planner())
