"""Sensei's picture in words: the turn, who moves and what is left of their turn (or the
result), the moves of the last turn, then each side's character and stones by square, the pits
and the options. Every square named is one the picture shows."""
from __future__ import annotations

from typing import Any, Iterator, Sequence

from bot.i18n import has, t

from . import listing, moves_text, name_of

SIDES = ("render.sensei.seat.green", "render.sensei.seat.red")


def _known(key: str, locale: Any, default: str, **params: Any) -> str:
    return t(key, locale, **params) if has(key) else default


def player(names: Sequence[str], seat: int, locale: Any) -> str:
    """A seat by its player's name and its side's colour: "Ana (Green)"."""
    return t("alt.player", locale, name=name_of(names, seat, locale),
             side=t(SIDES[seat], locale))


def _character(move: dict[str, Any]) -> str:
    return "*" if move.get("kind") == "character" else ""


def _left(kind: str, count: int, locale: Any) -> str:
    # Words in full: the picture's are cut short to fit its status bar.
    return t(f"alt.sensei.{kind}", locale, count=count)


def _result(view: dict[str, Any], names: Sequence[str], locale: Any) -> str:
    result = view.get("result") or {}
    winners = result.get("winners") or []
    reason = str(result.get("reason", ""))
    if result.get("draw") or not winners:
        why = "no_moves" if reason == "no_moves" else "agreed"
        return t("alt.sensei.draw", locale, reason=t(f"render.sensei.draw.{why}", locale))
    seat = int(winners[0])
    if reason == "barrier":
        details = result.get("details") or {}
        why = t("render.sensei.end.barrier", locale, loser=player(names, 1 - seat, locale),
                count=len(details.get("touching", [])))
    else:
        why = _known(f"render.sensei.end.{reason}", locale, reason)
    return t("alt.sensei.wins", locale, player=player(names, seat, locale), reason=why)


def _side(view: dict[str, Any], names: Sequence[str], seat: int, locale: Any) -> str:
    board = view.get("board") or {}
    mine = sorted((sq for sq, stone in board.items() if stone.get("seat") == seat),
                  key=lambda sq: (sq[1], sq[0]))
    character = next((sq for sq in mine if board[sq].get("character")), None)
    stones = [sq for sq in mine if sq != character]
    who = player(names, seat, locale)
    where = character or t("alt.sensei.off_board", locale)
    if not stones:
        return t("alt.sensei.side.bare", locale, player=who, character=where)
    return t("alt.sensei.side", locale, player=who, character=where, count=len(stones),
             stones=listing(stones))


def parts(view: dict[str, Any], names: Sequence[str], locale: Any) -> Iterator[str]:
    yield t("alt.sensei.head", locale, turn=view.get("turn", 1))
    seat = view.get("to_move")
    if view.get("finished") and view.get("result"):
        yield _result(view, names, locale)
    elif seat in (0, 1):
        current = view.get("current_turn") or {}
        yield t("alt.sensei.to_move", locale, player=player(names, seat, locale),
                stones=_left("stones", int(current.get("stone_moves_left", 0)), locale),
                character=_left("character",
                                1 if current.get("character_move_left") else 0, locale))
        played = moves_text(current.get("actions") or [], _character)
        if played:
            yield t("alt.sensei.this_turn", locale, moves=played)
        if view.get("draw_offer") in (0, 1):
            yield t("alt.sensei.draw_offer", locale,
                    player=player(names, int(view["draw_offer"]), locale))
    last = view.get("last_turn")
    if last and last.get("actions"):
        yield t("alt.sensei.last", locale, player=player(names, int(last.get("seat", 0)), locale),
                moves=moves_text(last["actions"], _character))
    choice = view.get("choice") or {}
    if choice.get("from"):
        yield t("alt.sensei.choice", locale, square=choice["from"],
                targets=listing(str(sq) for sq in choice.get("to") or []) or "—")
    for side in (0, 1):
        yield _side(view, names, side, locale)
    pits = [str(sq) for sq in view.get("pits") or []]
    if pits:
        yield t("alt.sensei.pits", locale, squares=listing(pits))
    options = view.get("options") or {}
    version, setup, board = (str(options.get(k, "")) for k in ("version", "setup", "board"))
    yield t("alt.options", locale, options=t(
        "render.sensei.options", locale,
        version=_known(f"render.sensei.version.{version}", locale, version.capitalize()),
        setup=_known(f"render.sensei.setup.{setup}", locale, setup),
        board=_known(f"render.sensei.board.{board}", locale, board)))
