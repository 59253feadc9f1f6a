"""How a puzzle's answer travels and reads: Narabi switches as custom_id text, the hinted
piece, a Sàréná case the answer does not win, and the rating line."""
from __future__ import annotations

from typing import Any

from bot.domain import puzzle_rating
from bot.domain.tables import TableError
from bot.games import puzzles
from bot.i18n import t


def encode_switches(switches: list[dict[str, Any]]) -> str:
    """Narabi switches so far as custom_id text: ``3x1_11x4`` (card given x card taken)."""
    return "_".join(f"{a['card']}x{a['target']}" for a in switches)


def decode_switches(text: str) -> list[dict[str, Any]]:
    out = []
    for token in filter(None, text.split("_")):
        card, _, target = token.partition("x")
        if not (card.isdigit() and target.isdigit()):
            raise TableError("stale")
        out.append({"type": "switch", "card": int(card), "target": int(target)})
    return out


def hint_mark(puzzle: puzzles.Puzzle) -> dict[str, Any] | None:
    """The hinted piece or pile, framed on the picture like a picked one."""
    if puzzle.game == "narabi":
        return None
    tip = puzzles.hint(puzzle)
    if tip.get("kind") == "character":
        return {"from": puzzle.position().public_view()["characters"][puzzle.seat], "to": []}
    return {"from": tip.get("square", ""), "to": []}


def world_text(world: dict[str, Any], locale: str) -> str:
    """Sàréná: a case the table cannot rule out where the move does not win (chosen by
    the rules from what the table sees, never from the real colours)."""
    mine, theirs = (world.get("scores") or [0, 0])[:2]
    params = {"colour": t(f"sarena.colour.{world.get('opponent')}", locale),
              "mine": mine, "theirs": theirs}
    if world.get("flip"):
        return t("puzzle.sarena.world_flip", locale,
                 flip=t(f"sarena.colour.{world['flip']}", locale), **params)
    return t("puzzle.sarena.world", locale, **params)


def rating_text(before: Any, after: Any, locale: str) -> str:
    """Brackets hold the change only; the uncertainty is said in words, "± 2.1"."""
    params = {"rating": f"{puzzle_rating.shown(after):.1f}", "sigma": f"{after.sigma:.1f}",
              "streak": after.streak}
    if before is None:
        return t("puzzle.rating.first", locale, **params)
    change = puzzle_rating.shown(after) - puzzle_rating.shown(before)
    return t("puzzle.rating", locale, change=f"{change:+.1f}", **params)
