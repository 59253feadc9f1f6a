"""The guided first game of Sàréná, two players: you and the AI. Each rule comes when it first
matters: piles on the first move, the flip when a pile lands on an empty arrow circle (and the
plain circle a pile may never enter), your secret colour, and how piles are scored at the end."""
from __future__ import annotations

from functools import partial
from typing import Any

from bot.games.sarena.rules import Sarena
from bot.i18n import t
from bot.ui.lessons import Choice, Lesson, Step

SEED = 0
#: both sides' moves, in order: yours, the AI's, yours …
LINE = ("a1-a2", "f6-f5", "b1-a1", "e6-f6", "c2-c1", "d5-d6")


def played(moves: int) -> Sarena:
    game = Sarena.new(2, {"fair": False}, SEED)
    for move in LINE[:moves]:
        frm, to = move.split("-")
        game.apply(game.to_move, {"type": "move", "from": frm, "to": to})
    return game


def move(text: str, right: bool = True, said: str | None = None) -> Choice:
    frm, to = text.split("-")
    return Choice(text, ({"type": "move", "from": frm, "to": to},), right, said)


def colour(game: Sarena, locale: str) -> dict[str, Any]:
    mine = game.private_view(0)["colour"]
    return {"colour": t(f"sarena.colour.{mine}", locale)}


def score(game: Sarena, locale: str) -> dict[str, Any]:
    mine = game.private_view(0)["colour"]
    board = game.public_view()["board"]
    return {"colour": t(f"sarena.colour.{mine}", locale),
            "score": sum(c["height"] for c in board if c["top"] == mine)}


def lesson() -> Lesson:
    return Lesson("sarena", (
        Step("learn.sarena.piles", partial(played, 0),
             choices=(move(LINE[0], said="learn.sarena.piles.done"),), reply=LINE[1]),
        Step("learn.sarena.flips", partial(played, 2),
             choices=(move(LINE[2], said="learn.sarena.flips.done"),), reply=LINE[3]),
        Step("learn.sarena.colours", partial(played, 4), facts=colour,
             choices=(move("c1-b1", right=False, said="learn.sarena.plain"),
                      move(LINE[4])), reply=LINE[5]),
        Step("learn.sarena.scoring", partial(played, 6), facts=score),
    ), names=lambda locale: [t("learn.you", locale), t("learn.ai", locale)])
