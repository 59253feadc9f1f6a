"""The guided first deal of Narabi: you and two AI players, three cards each… four, with three
players. The deal (seed 15) is solved in four switches, par: yours, the two AIs', then yours
again. Each rule comes when it first matters: your conditions before your first switch, the
switch itself (a condition refusing one, by the rules), and asking once the AIs have played."""
from __future__ import annotations

from functools import partial
from typing import Any

from bot.games.narabi.rules import Narabi
from bot.i18n import t
from bot.ui.lessons import Choice, Lesson, Step

SEED = 15
SEATS = 3
#: the par line of the deal: (seat, card given, card taken), as the solver found it
LINE = ((0, 3, 1), (1, 11, 4), (2, 5, 2), (0, 8, 2))
#: a switch the player may try first, refused by the condition of their card 3
REFUSED = (3, 4)
#: the question of the asking step: may AI 1 give its card 6 for the player's card 0?
QUESTION = (1, 6, 0)


def played(switches: int) -> Narabi:
    game = Narabi.new(SEATS, {"advanced": False}, SEED)
    for seat, card, target in LINE[:switches]:
        game.apply(seat, {"type": "switch", "card": card, "target": target})
    return game


def lesson(cog: Any) -> Lesson:
    """``cog``: the Narabi cog, whose words for stones and conditions the lesson uses."""
    def stone(card: int, locale: str = "en") -> str:
        return cog.stone_of(played(0), card, locale)

    def switch(card: int, target: int, right: bool = True, said: str | None = None) -> Choice:
        return Choice(f"{stone(card)} ↔ {stone(target)}",
                      ({"type": "switch", "card": card, "target": target},), right, said)

    def names(locale: str) -> list[str]:
        ai = t("learn.ai", locale)
        return [t("learn.you", locale), f"{ai} 1", f"{ai} 2"]

    def cards(game: Any, locale: str) -> dict[str, Any]:
        mine = game.private_view(0)["cards"]
        return {"cards": "\n".join(f"• {cog.stone(c, locale)}: {cog.condition(c['condition'], locale)}"
                                   for c in mine)}

    def first_switch(game: Any, locale: str) -> dict[str, Any]:
        given = next(c for c in game.private_view(0)["cards"] if c["id"] == REFUSED[0])
        return {"card": stone(REFUSED[0], locale),
                "condition": cog.condition(given["condition"], locale),
                "refused": stone(REFUSED[1], locale), "right": stone(LINE[0][2], locale)}

    def asking(game: Narabi, locale: str) -> dict[str, Any]:
        seat, card, target = QUESTION
        trial = game.copy()
        trial.active = seat  # the question is about AI 1's own turn
        yes = trial._switch_refusal(card, target) is None
        return {"card": stone(card, locale), "target": stone(target, locale),
                "answer": t("learn.narabi.yes" if yes else "learn.narabi.no", locale),
                "give": stone(LINE[3][1], locale), "take": stone(LINE[3][2], locale)}

    def replies(locale: str) -> str:
        ai = t("learn.ai", locale)
        return " · ".join(f"{ai} {seat}: {stone(card, locale)} ↔ {stone(target, locale)}"
                          for seat, card, target in LINE[1:3])

    return Lesson("narabi", (
        Step("learn.narabi.goal", partial(played, 0), facts=cards),
        Step("learn.narabi.switch", partial(played, 0), facts=first_switch,
             choices=(switch(*REFUSED, right=False, said="learn.narabi.switch.refused"),
                      switch(*LINE[0][1:], said="learn.narabi.switch.done")),
             reply=replies),
        Step("learn.narabi.asking", partial(played, 3), facts=asking,
             choices=(switch(*LINE[3][1:], said="learn.narabi.solved"),)),
    ), names=names)
