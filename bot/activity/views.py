"""What the Activity's page is shown of a table: the public part (the same for everyone, built
once per version and kept as JSON text) and the viewer's part (their seat, their private view,
their legal targets), which is all that is built per person.

The legal targets come from the rules (``legal_actions``; for Sensei the plan of the turn is
replayed on a copy, as the thread's private menu does), so the page holds no rule.
"""
from __future__ import annotations

import json
from typing import Any, Mapping

from ..domain.live import LiveTable
from ..games import Game, IllegalAction

#: a Sensei turn is planned whole, then sent (see cogs/sensei: "A turn is planned …")
SENSEI_PLAN_MAX = 3


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# -- the public part ------------------------------------------------------------------------

def public_state(live: LiveTable, questions: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Everything anyone at the table or watching may see, at the table's version."""
    row, game = live.row, live.game
    public = game.public_view() if game is not None else None
    state: dict[str, Any] = {
        "id": row.id, "game": row.game, "status": row.status, "version": row.version,
        "rev": row.rev,
        "names": [s.name for s in row.seats],
        "seats": [{"name": s.name, "ai": s.ai, "user_id": str(s.user_id) if s.person else None}
                  for s in row.seats],
        "to_move": game.to_move if game is not None else None,
        "public": public,
        "last": last_arrows(row.game, public) if public is not None else [],
        "result": (public or {}).get("result"),
        "deadline": row.deadline,
        "locale": row.locale,
        "channel_id": str(row.thread_id or row.channel_id),
    }
    if questions is not None:
        state["questions"] = questions
    return state


def last_arrows(game_key: str, public: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The last move's arrows, from the same public fields render/ draws them from."""
    if game_key == "sensei":
        out = []
        last = public.get("last_turn") or {}
        for move in last.get("actions") or ():
            out.append({"from": move["from"], "to": move["to"], "kind": move["kind"],
                        "seat": last.get("seat")})
        current = public.get("current_turn") or {}
        for move in current.get("actions") or ():
            out.append({"from": move["from"], "to": move["to"], "kind": move["kind"],
                        "seat": current.get("seat"), "ongoing": True})
        return out
    if game_key == "narabi":
        switch = public.get("last_switch")
        if not switch:
            return []
        return [{"from": {"seat": switch["seat"], "index": switch["index"]},
                 "to": {"seat": switch["target_seat"], "index": switch["target_index"]},
                 "kind": "switch", "seat": switch["seat"]}]
    if game_key == "sarena":
        move = public.get("last_move")
        if not move:
            return []
        return [{"from": move["from"], "to": move["to"], "kind": "move", "seat": move["seat"]}]
    return []


# -- the viewer's part ----------------------------------------------------------------------

def viewer_part(live: LiveTable, user_id: int) -> dict[str, Any]:
    """The session user's seat, private view and legal targets (all null for a spectator)."""
    row, game = live.row, live.game
    seat = row.seat_of(user_id)
    if seat is None or game is None:
        return {"seat": None, "your_turn": False, "private": None, "legal": None}
    your_turn = row.status == "playing" and game.to_move == seat and row.seats[seat].ai is None
    private = game.private_view(seat) or {}
    if row.game == "narabi":
        private = narabi_seats_named(game, seat, private)
    return {"seat": seat, "your_turn": your_turn,
            "private": private,
            "legal": legal_for(row.game, game, seat) if your_turn else None}


def narabi_seats_named(game: Any, seat: int, private: dict[str, Any]) -> dict[str, Any]:
    """Each card whose condition names a seat by where it sits ("the player on your right")
    gets that seat (``seat_named``): the board lists the seats top to bottom, where left and
    right mean nothing, so the page names the player instead."""
    cards = []
    for card in private.get("cards") or ():
        condition = (game.cards.get(card["id"]) or {}).get("condition") or {}
        if condition.get("kind") == "seat" and isinstance(condition.get("offset"), int):
            card = dict(card, seat_named=(seat + condition["offset"]) % game.seats)
        cards.append(card)
    return dict(private, cards=cards) if cards else private


def legal_for(game_key: str, game: Game, seat: int,
              plan: list[Mapping[str, Any]] | None = None) -> dict[str, Any]:
    if game_key == "sensei":
        return sensei_legal(game, sensei_trial(game, seat, plan or []), seat, bool(plan))
    actions = game.legal_actions(seat)
    if game_key == "narabi":
        switches: dict[str, list[int]] = {}
        for action in actions:
            if action.get("type") == "switch":
                switches.setdefault(str(action["card"]), []).append(action["target"])
        return {"switches": switches, "asking": bool(getattr(game, "asking_allowed", False))}
    if game_key == "sarena":
        moves: dict[str, list[str]] = {}
        for action in actions:
            if action.get("type") == "move":
                moves.setdefault(action["from"], []).append(action["to"])
        return {"moves": moves}
    return {"actions": actions}


# -- Sensei: a turn planned whole -----------------------------------------------------------

def sensei_trial(game: Any, seat: int, plan: list[Mapping[str, Any]]) -> Any:
    """The game as it would be after ``plan`` (raises IllegalAction naming what is refused)."""
    if len(plan) > SENSEI_PLAN_MAX:
        raise IllegalAction("too_many_actions", "a turn has at most 3 actions",
                            max=SENSEI_PLAN_MAX)
    trial = game.copy()
    for action in plan:
        if not isinstance(action, Mapping) or action.get("type") not in ("stone", "character"):
            raise IllegalAction("bad_action", "a plan holds stone and character moves")
        trial.apply(seat, dict(action))
    return trial


def sensei_open(game: Any, trial: Any, seat: int) -> bool:
    """Whether the planned turn can take another action (as the thread's menu decides)."""
    return trial.result() is None and trial.active == seat and trial.turn == game.turn


def sensei_legal(game: Any, trial: Any, seat: int, planned: bool) -> dict[str, Any]:
    pieces: dict[str, dict[str, Any]] = {}
    is_open = sensei_open(game, trial, seat)
    if is_open:
        for square in trial.movable_stones(seat):
            pieces[square] = {"kind": "stone", "to": trial.stone_destinations(seat, square)}
        jumps = trial.character_targets(seat)
        if jumps:
            at = trial.public_view()["characters"][seat]
            pieces[at] = {"kind": "character", "to": jumps}
    return {"pieces": pieces, "open": is_open, "can_send": planned or bool(game.current),
            "stone_moves_left": trial.stone_moves_left() if is_open else 0,
            "character_move_left": bool(is_open and trial.character_move_left()),
            "draw_offer": game.draw_offer}


def sensei_send(game: Any, seat: int, plan: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The actions Send commits: the plan, closed by end_turn while the turn is still open."""
    trial = sensei_trial(game, seat, plan)
    actions = [dict(a) for a in plan]
    if sensei_open(game, trial, seat):
        actions.append({"type": "end_turn"})
    return actions
