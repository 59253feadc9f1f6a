"""Fewest switches that would have solved a deal, with every condition known.

Shown after the game as a yardstick. The search is iterative deepening over breadth-first
sweeps (one turn per layer) pruned by a breakpoint lower bound. It is bounded by a node budget
rather than a clock, so the answer is the same on every host: either the exact optimum or None
("could not tell within the budget"). The default budget keeps a call around a second or less;
some 5-player deals that need six or more switches come back None.

A search state is the ring (the rows concatenated in seat order, as a tuple of card ids); the
turn number fixes who is to move, and in advanced mode the previous switch's two positions are
part of the state because they forbid the undoing switch.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from .conditions import allows

DEFAULT_NODE_BUDGET = 20_000
MAX_FIXED_PER_SWITCH = 4


class _Table:
    """Everything about a deal that does not change while searching, precomputed."""

    def __init__(self, state: Mapping[str, Any]) -> None:
        self.seats = int(state["seats"])
        self.advanced = bool(state["advanced"])
        self.max_turns = int(state["max_turns"])
        self.first_seat = int(state["first_seat"])
        rows = [list(r) for r in state["initial_rows"]]
        self.start = tuple(c for row in rows for c in row)
        cards = {int(c["id"]): c for c in state["cards"]}
        self.rank = [-1] * (max(cards) + 1)
        for cid, c in cards.items():
            if c["number"] is not None:
                self.rank[cid] = c["number"]
        # Positions never change owner: a switch exchanges cards, not places.
        self.seat_at: list[int] = [s for s, row in enumerate(rows) for _ in row]
        self.own: list[tuple[int, ...]] = []
        self.others: list[tuple[int, ...]] = []
        for seat in range(self.seats):
            self.own.append(tuple(p for p, s in enumerate(self.seat_at) if s == seat))
            self.others.append(tuple(p for p, s in enumerate(self.seat_at) if s != seat))
        # allowed[(c, d, offset)] for every pair of cards and every seat offset.
        self.allowed: dict[tuple[int, int, int], bool] = {}
        for c, cdata in cards.items():
            for d, ddata in cards.items():
                if c == d:
                    continue
                for offset in range(1, self.seats):
                    self.allowed[(c, d, offset)] = allows(
                        cdata["condition"], cdata["number"], ddata["number"], ddata["colour"],
                        offset, self.seats)

    def breakpoints(self, ring: Sequence[int]) -> int:
        """Neighbouring numbers (blanks skipped, circularly) that are not consecutive.

        Zero exactly when the ring is solved. One switch changes at most four neighbourhoods,
        so ceil(breakpoints / 4) more switches are needed at least.
        """
        rank = self.rank
        seq = [rank[c] for c in ring if rank[c] >= 0]
        size = len(seq)
        gaps = 0
        prev = seq[-1]
        for cur in seq:
            if (cur - prev) % size not in (1, size - 1):
                gaps += 1
            prev = cur
        return gaps

    def moves(self, ring: tuple[int, ...], seat: int,
              last: tuple[int, int] | None) -> list[tuple[int, int]]:
        out = []
        seats, seat_at, allowed = self.seats, self.seat_at, self.allowed
        for p in self.own[seat]:
            c = ring[p]
            for q in self.others[seat]:
                if allowed[(c, ring[q], (seat_at[q] - seat) % seats)] and (
                        last is None or (p, q) != last):
                    out.append((p, q))
        return out


def _state_of(game_or_state: Any) -> Mapping[str, Any]:
    if isinstance(game_or_state, Mapping):
        return game_or_state
    return game_or_state.to_json()


def fewest_switches(game_or_initial_state: Any,
                    node_budget: int = DEFAULT_NODE_BUDGET) -> int | None:
    """The least number of switches solving the initial deal, or None.

    Accepts a Narabi game or its ``to_json()`` dict; only the initial deal is used, so it can be
    called at any point of the game. None means the budget (states expanded, summed over all
    rounds) ran out first, or the deal cannot be solved within the turn limit.
    """
    return par(game_or_initial_state, node_budget)["best"]


def par(game_or_initial_state: Any, node_budget: int = DEFAULT_NODE_BUDGET) -> dict[str, Any]:
    """The par of a deal and how sure it is: ``{"best": n, "status": "found"}``,
    ``{"best": None, "status": "none", "limit": turns}`` when no solution exists within the
    turn limit (proved), or ``{"best": None, "status": "unknown"}`` when the budget ran out
    first."""
    table = _Table(_state_of(game_or_initial_state))
    start_gap = table.breakpoints(table.start)
    if start_gap == 0:
        return {"best": 0, "status": "found"}
    spent = 0
    # Iterative deepening on the answer: a round proves "no solution in fewer than `limit`
    # switches" or finds one in exactly `limit`; the breakpoint bound prunes hard near the end.
    for limit in range(-(-start_gap // MAX_FIXED_PER_SWITCH), table.max_turns + 1):
        found, spent = _search(table, limit, node_budget, spent)
        if found is not None:
            return {"best": found, "status": "found"}
        if spent > node_budget:
            return {"best": None, "status": "unknown"}
    return {"best": None, "status": "none", "limit": table.max_turns}
    return None


def _search(table: _Table, limit: int, budget: int, spent: int) -> tuple[int | None, int]:
    """Breadth-first to depth ``limit``: the depth of the first solved ring reached, if any,
    and the budget spent so far."""
    layer: dict[tuple[Any, ...], int] = {(table.start, None): table.breakpoints(table.start)}
    seen: set[tuple[Any, ...]] = {(table.start, 0, None)}
    for turn in range(limit):
        seat = (table.first_seat + turn) % table.seats
        left_after = limit - turn - 1
        next_layer: dict[tuple[Any, ...], int] = {}
        for (ring, last), ring_gaps in layer.items():
            spent += 1
            if spent > budget:
                return None, spent
            # In advanced mode the undo is the same two positions, given from this side.
            forbidden = (last[1], last[0]) if last else None
            for p, q in table.moves(ring, seat, forbidden):
                child = list(ring)
                child[p], child[q] = child[q], child[p]
                # Exchanging two blanks leaves the order of the numbers as it was.
                both_blank = table.rank[ring[p]] < 0 and table.rank[ring[q]] < 0
                gap = ring_gaps if both_blank else table.breakpoints(child)
                if gap == 0:
                    return turn + 1, spent
                if gap > MAX_FIXED_PER_SWITCH * left_after:
                    continue
                key = tuple(child)
                memo = (p, q) if table.advanced else None
                # Seen before with the same player to move = reached in fewer turns: not worse.
                mark = (key, (turn + 1) % table.seats, memo)
                if mark in seen:
                    continue
                seen.add(mark)
                next_layer[(key, memo)] = gap
        if not next_layer:
            return None, spent
        layer = next_layer
    return None, spent
