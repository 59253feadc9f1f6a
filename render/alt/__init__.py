"""Alt text: what a picture shows, told in words for a screen reader (Discord reads an
attachment's ``description`` aloud, at most 1,024 characters).

Built from the same PUBLIC view the picture is drawn from, so it can tell nothing the picture
does not: never a Sàréná colour of a seat in play, never a Narabi condition before the end. A
game's module ``render.alt.<key>`` (found by name, like its renderer) gives ``parts(view,
names, locale)``: sentences, the most important first (the game, whose turn or the result, the
last move, then the position). ``fit`` keeps as many as fit and cuts the first that does not
at a list separator, so a long position loses its tail, never its head.

No Pillow and no discord here: words only, through ``bot.i18n.t``."""
from __future__ import annotations

import importlib
from typing import Any, Callable, Iterable, Sequence

from bot.i18n import t

#: Discord's limit on an attachment's description (its OpenAPI description says the same)
LIMIT = 1024
#: the longest a display name may be in alt text (a long name must not crowd out the position)
NAME_ROOM = 40
ELLIPSIS = "…"


def fit(parts: Iterable[str], limit: int = LIMIT) -> str:
    """``parts`` joined by spaces, as many as fit in ``limit`` characters. The first part that
    does not fit is cut after its last list separator that fits, with "…", when enough of it
    is left to be worth reading (else "…" alone ends the text); the parts after it are left
    out."""
    text = ""
    for part in (p.strip() for p in parts):
        if not part:
            continue
        joined = f"{text} {part}" if text else part
        if len(joined) <= limit:
            text = joined
            continue
        room = limit - len(text) - (1 if text else 0) - len(ELLIPSIS)
        if room >= 40:
            head = part[:room]
            cut = max(head.rfind(", "), head.rfind("; "), head.rfind(". "))
            if cut > room // 3:
                head = head[:cut]
            text = f"{text} {head.rstrip(' ,;:')}{ELLIPSIS}" if text else head + ELLIPSIS
        else:
            # Too little room for a piece of it: "…" still says that more was left out.
            text = text[:limit - len(ELLIPSIS) - 1] + " " + ELLIPSIS
        break
    return text[:limit]


def name_of(names: Sequence[str], seat: int | None, locale: Any) -> str:
    """A seat's display name as the picture shows it (its number when it has none)."""
    if seat is None:
        return "—"
    name = " ".join(str(names[seat]).split()) if 0 <= seat < len(names) else ""
    if len(name) > NAME_ROOM:
        name = name[:NAME_ROOM - 1].rstrip() + ELLIPSIS
    return name or t("alt.seat", locale, number=seat + 1)


def listing(items: Iterable[str]) -> str:
    """Items of a list as a sentence reads them."""
    return ", ".join(items)


def module_of(game: str) -> Any | None:
    try:
        return importlib.import_module(f"{__name__}.{game}")
    except ModuleNotFoundError:
        return None


def describe(game: str, view: dict[str, Any], names: Sequence[str], locale: Any,
             limit: int = LIMIT) -> str:
    """The alt text of ``game``'s picture of the public ``view``, in ``locale``."""
    module = module_of(game)
    parts: list[str]
    if module is None:
        parts = [t("alt.board", locale, game=t(f"{game}.name", locale))]
    else:
        parts = list(module.parts(view, names, locale))
    review = view.get("review")
    if isinstance(review, dict):
        parts[1:1] = [review_part(review, locale)]
    return fit(parts, limit)


def moves_text(moves: Sequence[dict[str, Any]], mark: Callable[[dict[str, Any]], str] | None = None
               ) -> str:
    """Moves as the board's notation reads them: c1-c4, with a character's marked ``*``."""
    shown = []
    for move in moves:
        if not isinstance(move, dict) or "from" not in move or "to" not in move:
            continue
        prefix = mark(move) if mark else ""
        shown.append(f"{prefix}{move['from']}-{move['to']}")
    return ", ".join(shown)


def review_part(review: dict[str, Any], locale: Any) -> str:
    """What a review picture's arrows show: the turn played and a better one."""
    character = lambda m: "*" if m.get("kind") == "character" else ""  # noqa: E731
    played = moves_text(review.get("played") or [], character) or "—"
    better = moves_text(review.get("better") or [], character)
    if better:
        return t("alt.review.better", locale, played=played, better=better)
    return t("alt.review.played", locale, played=played)
