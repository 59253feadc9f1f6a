"""Narabi's picture in words: the switch count, who switches next (or how the game ended), the
last switch, then the ring of cards seat by seat, clockwise, as the picture lays them out.

A card is told by its public face only (colour, number or blank). Its condition is secret
while the game runs: it is told only when the picture shows it too (a finished game, or a
replay, whose view says ``reveal``)."""
from __future__ import annotations

from typing import Any, Iterator, Mapping, Sequence

from bot.i18n import has, t

from . import listing, name_of


def card_text(card: Mapping[str, Any], locale: Any, *, condition: bool = False) -> str:
    colour = "dark" if card.get("colour") == "dark" else "white"
    number = card.get("number")
    if number is None:
        text = t(f"alt.narabi.{colour}.blank", locale)
    else:
        text = t(f"alt.narabi.{colour}", locale, number=number)
    ident = card.get("condition")
    if condition and ident:
        key = f"render.narabi.condition.{ident}"
        text = t("alt.narabi.with_condition", locale, card=text,
                 condition=t(key, locale) if has(key) else str(ident))
    return text


def _cards(view: Mapping[str, Any]) -> dict[Any, tuple[int, Mapping[str, Any]]]:
    return {card.get("id"): (seat, card) for seat, row in enumerate(view.get("rows") or [])
            for card in row}


def _result(view: Mapping[str, Any], names: Sequence[str], locale: Any) -> str:
    result = view.get("result") or {}
    details = result.get("details") or {}
    reason = str(result.get("reason", ""))
    rating = str(details.get("rating", "horrible"))
    params: dict[str, Any] = {"turns": details.get("turns", view.get("turn", 0)),
                              "max": view.get("max_turns", 24),
                              "rating": t(f"narabi.rating.{rating}", locale)}
    if "seat" in details:
        params["player"] = name_of(names, int(details["seat"]), locale)
    key = f"narabi.end.{reason}"
    text = t(key, locale, **params) if has(key) else reason
    if reason not in ("solved", "out_of_turns"):
        text += " " + t("narabi.end.summary", locale, **params)
    best = view.get("fewest_switches")
    if isinstance(best, int):
        text += " " + t("alt.narabi.best", locale, count=best)
    return text


def parts(view: Mapping[str, Any], names: Sequence[str], locale: Any) -> Iterator[str]:
    yield t("alt.narabi.head", locale, turn=view.get("turn", 0), max=view.get("max_turns", 24))
    finished = bool(view.get("finished") and view.get("result"))
    if finished:
        yield _result(view, names, locale)
    elif view.get("to_move") is not None:
        yield t("alt.narabi.to_move", locale, player=name_of(names, int(view["to_move"]), locale))
    cards = _cards(view)
    last = view.get("last_switch")
    if last and last.get("card") in cards and last.get("target") in cards:
        # After the switch each card lies where the other was: faces only, read from the ring.
        yield t("alt.narabi.last", locale, player=name_of(names, int(last["seat"]), locale),
                card=card_text(cards[last["card"]][1], locale),
                other=name_of(names, int(last["target_seat"]), locale),
                target=card_text(cards[last["target"]][1], locale))
    choice = view.get("choice") or {}
    if choice.get("card") in cards:
        targets = [card_text(cards[c][1], locale) for c in choice.get("targets") or ()
                   if c in cards]
        yield t("alt.narabi.choice", locale, card=card_text(cards[choice["card"]][1], locale),
                targets=listing(targets) or "—")
    reveal = finished or bool(view.get("reveal"))
    rows = [t("alt.narabi.row", locale, player=name_of(names, seat, locale),
              cards=listing(card_text(card, locale, condition=reveal) for card in row))
            for seat, row in enumerate(view.get("rows") or [])]
    yield t("alt.narabi.ring", locale, rows=t("alt.separator", locale).join(rows))
    if view.get("advanced") and not finished:
        yield t("narabi.status.advanced", locale)
