"""Sàréná's picture in words: the move, who moves (or the result), the last move, then every
pile by its top colour and height, the empty circles and the arrow circles.

A seat's colour is secret while the game runs and the picture never shows it: only the result
of a finished game (where the picture reveals every colour) names it here."""
from __future__ import annotations

from typing import Any, Iterator, Sequence

from bot.i18n import has, t

from . import listing, name_of

COLOURS = ("white", "black", "red", "yellow")


def _colour(name: Any, locale: Any) -> str:
    key = f"sarena.colour.{name}"
    return t(key, locale) if has(key) else str(name)


def _order(square: str) -> tuple[str, str]:
    return square[1:], square[:1]


def _piles(view: dict[str, Any], locale: Any) -> Iterator[str]:
    by_top: dict[str, dict[int, list[str]]] = {}
    empty, arrows = [], []
    for circle in view.get("board") or []:
        square = str(circle.get("square", ""))
        if circle.get("arrow"):
            arrows.append(square)
        height = int(circle.get("height") or 0)
        if not height or circle.get("top") is None:
            empty.append(square)
            continue
        by_top.setdefault(str(circle["top"]), {}).setdefault(height, []).append(square)
    for colour in sorted(by_top, key=lambda c: (COLOURS.index(c) if c in COLOURS else 9, c)):
        heights = by_top[colour]
        groups = [t("alt.sarena.height", locale, height=height,
                    squares=listing(sorted(heights[height], key=_order)))
                  for height in sorted(heights)]
        yield t("alt.sarena.top", locale, colour=_colour(colour, locale),
                count=sum(len(s) for s in heights.values()),
                piles=t("alt.separator", locale).join(groups))
    if empty:
        yield t("alt.sarena.empty", locale, squares=listing(sorted(empty, key=_order)))
    if arrows:
        yield t("alt.sarena.arrows", locale, squares=listing(sorted(arrows, key=_order)))


def _result(view: dict[str, Any], names: Sequence[str], locale: Any) -> Iterator[str]:
    result = view.get("result") or {}
    winners = [int(w) for w in result.get("winners") or []]
    if len(winners) == 1:
        yield t("alt.sarena.wins", locale, player=name_of(names, winners[0], locale))
    elif winners:
        yield t("alt.sarena.shared", locale,
                players=listing(name_of(names, w, locale) for w in winners))
    else:
        yield t("render.sarena.no_winner", locale) + "."
    colours = result.get("colours") or []
    scores = result.get("scores") or []
    resigned = set(view.get("resigned") or ())
    lines = []
    for seat, colour in enumerate(colours):
        who, shown = name_of(names, seat, locale), _colour(colour, locale)
        if seat in resigned or seat >= len(scores):
            lines.append(t("alt.sarena.score.left", locale, player=who, colour=shown))
        else:
            lines.append(t("alt.sarena.score", locale, player=who, colour=shown,
                           count=scores[seat]))
    if lines:
        yield t("alt.sarena.scores", locale, lines=t("alt.separator", locale).join(lines))


def parts(view: dict[str, Any], names: Sequence[str], locale: Any) -> Iterator[str]:
    yield t("alt.sarena.head", locale, move=view.get("move", 1))
    finished = bool(view.get("finished") and view.get("result"))
    if finished:
        yield from _result(view, names, locale)
    elif view.get("to_move") is not None:
        yield t("alt.sarena.to_move", locale, player=name_of(names, int(view["to_move"]), locale))
    last = view.get("last_move")
    if last and last.get("from"):
        key = "alt.sarena.last_flip" if last.get("flipped") else "alt.sarena.last"
        yield t(key, locale, player=name_of(names, int(last.get("seat", 0)), locale),
                src=last["from"], dst=last["to"])
    resigned = [int(s) for s in view.get("resigned") or ()]
    if resigned and not finished:
        yield t("alt.sarena.left", locale,
                players=listing(name_of(names, s, locale) for s in resigned))
    choice = view.get("choice") or {}
    if choice.get("to"):
        key = "alt.sarena.choice.to" if choice.get("from") else "alt.sarena.choice"
        yield t(key, locale, square=choice.get("from", ""),
                squares=listing(str(s) for s in choice["to"]))
    yield from _piles(view, locale)
