"""Records of a cooperative game (no rating there): wins, best turn counts per table size,
streaks, and switches over par on average. Pure: computed from a member's finished games."""
from __future__ import annotations

from typing import Any, Mapping, Sequence


def coop_records(games: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``games``: oldest first, each ``{"result", "par", "players"}``."""
    wins = losses = streak = longest = 0
    best: dict[int, int] = {}
    over: list[int] = []
    for game in games:
        result = game["result"]
        won = bool(result.get("winners"))
        turns = (result.get("details") or {}).get("turns")
        if won:
            wins += 1
            streak += 1
            longest = max(longest, streak)
            if isinstance(turns, int):
                players = int(game["players"])
                best[players] = min(best.get(players, turns), turns)
                if game.get("par") is not None:
                    over.append(turns - int(game["par"]))
        else:
            losses += 1
            streak = 0
    return {"wins": wins, "losses": losses, "streak": streak, "longest": longest,
            "best": dict(sorted(best.items())),
            "over_par": round(sum(over) / len(over), 1) if over else None}


def team_records(games: Sequence[Mapping[str, Any]], limit: int = 3
                 ) -> list[tuple[tuple[int, ...], dict[str, Any]]]:
    """The same records per exact team (the same people together), most played first."""
    teams: dict[tuple[int, ...], list[Mapping[str, Any]]] = {}
    for game in games:
        teams.setdefault(tuple(game["team"]), []).append(game)
    ranked = sorted(teams.items(), key=lambda item: (-len(item[1]), item[0]))
    return [(team, coop_records(played)) for team, played in ranked[:limit]]
