"""Fewest switches that would have solved a deal, with every condition known ("par").

Shown after the game as a yardstick; the bot runs it in a worker process. The search is exact:
IDA* (depth-first, deepening on the number of switches) with a table of proved lower bounds
per position, pruned by two admissible bounds:

- breakpoints: neighbouring numbers (blanks skipped, circularly) that are not consecutive.
  One switch changes at most four neighbourhoods, so it removes at most four of them.
- covering (``_Cover``): a switch changes what lies in exactly two places, one of them held by
  the player to move. So with ``m`` switches left, some solved ring must differ from this one
  in places that those switches can reach: at most one place of each turn's player per turn
  it has, and one more place (anyone's) per switch. Checked over every solved ring at once
  (both directions, every rotation, every way to place the blanks) as a small automaton on
  bit sets. It cuts off nearly every line that the breakpoints still allow two or three
  switches before the end, which is where the search spends its time.

A search state is the ring (the rows concatenated in seat order: positions never change owner,
a switch exchanges cards between places); the turn fixes who is to move, and in advanced mode
the previous switch matters when it is the one the next player could undo. No clock and no
randomness: the answer and the work done are the same on every host. A node budget remains as
a safety net (a deal that would exceed it comes back "unknown"); no deal tried gets near it.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .conditions import allows

#: Positions expanded before giving up: a safety net only. The hardest of 19,000 seeded deals
#: (8,000 with 5 players in basic mode, 5,000 in advanced mode, 3,000 each with 3 and 4) needed
#: 11,249, a few seconds; none came back unknown.
DEFAULT_NODE_BUDGET = 100_000
MAX_FIXED_PER_SWITCH = 4
#: Switches left for which the covering bound is checked: with more it rarely cuts anything.
COVER_MIN, COVER_MAX = 2, 3
#: Lower bound of a position from which no line goes on (someone has no legal switch).
_DEAD = 1 << 10


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
        self.numbers = sum(r >= 0 for r in self.rank)
        size = self.numbers
        self.bad = [[int((b - a) % size not in (1, size - 1)) for b in range(size)]
                    for a in range(size)]
        # Positions never change owner: a switch exchanges cards, not places.
        self.seat_at: list[int] = [s for s, row in enumerate(rows) for _ in row]
        self.own: list[tuple[int, ...]] = []
        self.targets: list[tuple[tuple[int, int], ...]] = []  # (position, seat offset)
        for seat in range(self.seats):
            self.own.append(tuple(p for p, s in enumerate(self.seat_at) if s == seat))
            self.targets.append(tuple((q, (s - seat) % self.seats)
                                      for q, s in enumerate(self.seat_at) if s != seat))
        # allowed[c][offset]: bit d set when card c may be given for card d held that many
        # seats clockwise.
        self.allowed = [[0] * self.seats for _ in self.rank]
        for c, cdata in cards.items():
            for d, ddata in cards.items():
                for offset in range(1, self.seats):
                    if c != d and allows(cdata["condition"], cdata["number"], ddata["number"],
                                         ddata["colour"], offset, self.seats):
                        self.allowed[c][offset] |= 1 << d
        self.card_bits = max(cards).bit_length()

    def seat_to_move(self, turn: int) -> int:
        return (self.first_seat + turn) % self.seats

    def breakpoints(self, ring: Sequence[int]) -> int:
        """Neighbouring numbers (blanks skipped, circularly) that are not consecutive.

        Zero exactly when the ring is solved. One switch changes at most four neighbourhoods,
        so ceil(breakpoints / 4) more switches are needed at least.
        """
        seq = [self.rank[c] for c in ring if self.rank[c] >= 0]
        return sum(self.bad[a][b] for a, b in zip(seq[-1:] + seq[:-1], seq))

    def moves(self, ring: Sequence[int], seat: int,
              last: tuple[int, int] | None) -> list[tuple[int, int]]:
        """Legal switches (own position, other position); ``last`` is the one forbidden as
        the undo of the previous switch, if any."""
        allowed = self.allowed
        return [(p, q) for p in self.own[seat] for q, offset in self.targets[seat]
                if allowed[ring[p]][offset] >> ring[q] & 1 and (p, q) != last]

    def undo_of(self, p: int, q: int, turn: int) -> tuple[int, int] | None:
        """The switch that the player after ``turn`` may not make in advanced mode."""
        if self.advanced and self.seat_at[q] == self.seat_to_move(turn + 1):
            return (q, p)
        return None


def _neighbours(ranks: Sequence[int]) -> tuple[list[int], list[int]]:
    """For every position, the nearest numbered position before it and after it (circular)."""
    size = len(ranks)
    numbered = [p for p in range(size) if ranks[p] >= 0]
    before, after = [0] * size, [0] * size
    last = numbered[-1]
    for p in range(size):
        before[p] = last
        if ranks[p] >= 0:
            last = p
    last = numbered[0]
    for p in range(size - 1, -1, -1):
        after[p] = last
        if ranks[p] >= 0:
            last = p
    return before, after


def _gap_change(bad: list[list[int]], ranks: Sequence[int], before: list[int],
                after: list[int], p: int, q: int) -> int:
    """How the breakpoint count changes when the cards at ``p`` and ``q`` are exchanged, from
    the at most four neighbourhoods involved (instead of rescanning the ring)."""
    x, y = ranks[p], ranks[q]
    if x < 0 and y < 0:
        return 0
    if x < 0 or y < 0:
        # One number moves into a blank's place: it leaves its two neighbours (which close up)
        # and goes between the two numbers around the blank. Within its own gap nothing changes.
        if x < 0:
            p, q, x = q, p, y
        if before[q] == p or after[q] == p:
            return 0
        a, b, e, f = ranks[before[p]], ranks[after[p]], ranks[before[q]], ranks[after[q]]
        return bad[a][b] + bad[e][x] + bad[x][f] - bad[a][x] - bad[x][b] - bad[e][f]
    if after[q] == p:
        p, q, x, y = q, p, y, x
    if after[p] == q:  # next to each other among the numbers: three neighbourhoods
        a, f = ranks[before[p]], ranks[after[q]]
        return bad[a][y] + bad[x][f] - bad[a][x] - bad[y][f]
    a, b, e, f = ranks[before[p]], ranks[after[p]], ranks[before[q]], ranks[after[q]]
    return (bad[a][y] + bad[y][b] + bad[e][x] + bad[x][f]
            - bad[a][x] - bad[x][b] - bad[e][y] - bad[y][f])


class _Cover:
    """The covering bound: can some solved ring be reached in ``m`` switches, judging only by
    which places differ from it and who may touch them?

    A solved ring is a path through the positions choosing "number" or "blank" at each: with
    ``k`` blanks placed so far, position ``i`` holds the number of index ``i - k`` in one of
    the ``2 * numbers`` orientations. A place that differs from it must be touched by some
    switch; seat ``s`` touches one of its own places on each of its ``turns[s]`` turns, and
    every switch touches one more place anywhere. So with ``e`` differing places in seat s's
    row, ``max(0, e - turns[s])`` of them use the "anywhere" touches, of which there are
    ``m``. Every automaton state (orientation, blanks so far ``k``, anywhere-touches used
    ``u``, differing places in the current row ``e``) is one bit of a Python int, so all
    solved rings are followed at once with a few integer operations per position.

    ``prepare`` runs the automaton over a parent ring forwards (states before each position)
    and backwards (states from which the end is reachable); a child differs from its parent in
    two places only, so ``fits`` replays just the positions between them.
    """

    def __init__(self, table: _Table) -> None:
        self.size = len(table.seat_at)
        self.seat_at = table.seat_at
        self.row_end = [p == self.size - 1 or table.seat_at[p + 1] != table.seat_at[p]
                        for p in range(self.size)]
        self.row = len(table.own[0])
        blanks = self.size - table.numbers
        self.layouts = {m: _cover_layout(table.numbers, blanks, self.row, m)
                        for m in range(COVER_MIN, COVER_MAX + 1)}

    def _forward(self, lay: _Layout, bits: int, ranks: Sequence[int], start: int, stop: int,
                 turns: Sequence[int], record: list[int] | None = None) -> int:
        """The automaton over positions start..stop-1: at each, the solved ring has a number
        there (the same: nothing changes; else one more differing place) or a blank; at a
        row's end, the differing places beyond the seat's own turns use "anywhere" touches."""
        k_step, more_blanks, match, miss, index_ok, close = (
            lay.k_step, lay.more_blanks, lay.match, lay.miss, lay.index_ok, lay.close)
        row_end, seat_at = self.row_end, self.seat_at
        for p in range(start, stop):
            if record is not None:
                record.append(bits)
            x = ranks[p]
            if x >= 0:
                bits = (bits & match[x][p] | (bits & miss[x][p]) << 1
                        | (bits & more_blanks) << (k_step + 1))
            else:
                bits = (bits & index_ok[p]) << 1 | (bits & more_blanks) << k_step
            if row_end[p]:
                bits = _moved(bits, close[turns[seat_at[p]]])
                if not bits:
                    return 0
        return bits

    def _backward(self, lay: _Layout, ranks: Sequence[int], turns: Sequence[int]) -> list[int]:
        """For every position, the states before it from which the end can be reached."""
        k_step, more_blanks, match, miss, index_ok, reopen = (
            lay.k_step, lay.more_blanks, lay.match, lay.miss, lay.index_ok, lay.reopen)
        row_end, seat_at = self.row_end, self.seat_at
        bits = lay.end
        out = [bits] * (self.size + 1)
        for p in range(self.size - 1, -1, -1):
            if row_end[p]:
                bits = _moved(bits, reopen[turns[seat_at[p]]])
            x = ranks[p]
            if x >= 0:
                bits = (bits & match[x][p] | bits >> 1 & miss[x][p]
                        | bits >> (k_step + 1) & more_blanks)
            else:
                bits = bits >> 1 & index_ok[p] | bits >> k_step & more_blanks
            out[p] = bits
        return out

    def prepare(self, ranks: Sequence[int], turns: Sequence[int],
                m: int) -> tuple[list[int], list[int]]:
        """Forward and backward state sets of the ring ``ranks`` when ``turns[s]`` of the
        ``m`` switches left are seat s's."""
        lay = self.layouts[m]
        forward: list[int] = []
        self._forward(lay, lay.start, ranks, 0, self.size, turns, forward)
        forward.extend([0] * (self.size + 1 - len(forward)))  # dead before the end
        return forward, self._backward(lay, ranks, turns)

    def fits(self, prepared: tuple[list[int], list[int]], ranks: Sequence[int], p: int,
             q: int, turns: Sequence[int], m: int) -> bool:
        """Whether the ring ``ranks`` with positions p and q exchanged passes the bound."""
        forward, backward = prepared
        low, high = min(p, q), max(p, q)
        if not forward[low]:
            return False
        child = list(ranks)
        child[p], child[q] = ranks[q], ranks[p]
        bits = self._forward(self.layouts[m], forward[low], child, low, high + 1, turns)
        return bool(bits & backward[high + 1])


class _Layout:
    """Bit masks of the covering automaton's states for one table size and ``m``."""

    def __init__(self, numbers: int, blanks: int, row: int, m: int) -> None:
        size = numbers + blanks
        self.u_step = row + 1
        self.k_step = (m + 1) * self.u_step
        o_step = (blanks + 1) * self.k_step
        every_u_e = (1 << (m + 1) * self.u_step) - 1
        orientations = [(s, d) for d in (1, -1) for s in range(numbers)]

        def where(ok: Callable[[int, int], bool]) -> int:
            """The states of every (orientation, k) that ``ok`` accepts, any u and e."""
            return sum(every_u_e << (o * o_step + k * self.k_step)
                       for o in range(len(orientations)) for k in range(blanks + 1) if ok(o, k))

        def each_o_k(u_e: int) -> int:
            return sum(u_e << (o * o_step + k * self.k_step)
                       for o in range(len(orientations)) for k in range(blanks + 1))

        self.match = [[0] * size for _ in range(numbers)]
        for o, (first, direction) in enumerate(orientations):
            for k in range(blanks + 1):
                for p in range(k, min(size, numbers + k)):
                    x = (first + direction * (p - k)) % numbers
                    self.match[x][p] |= every_u_e << (o * o_step + k * self.k_step)
        self.index_ok = [where(lambda o, k, p=p: 0 <= p - k < numbers) for p in range(size)]
        self.miss = [[self.index_ok[p] & ~self.match[x][p] for p in range(size)]
                     for x in range(numbers)]
        self.more_blanks = where(lambda o, k: k < blanks)
        self.row_e = [each_o_k(sum(1 << (u * self.u_step + e) for u in range(m + 1)))
                      for e in range(row + 1)]
        self.u_at_most = [each_o_k(sum(1 << (u * self.u_step + e) for u in range(v + 1)
                                       for e in range(row + 1))) for v in range(m + 1)]
        self.u_at_least = [each_o_k(sum(1 << (u * self.u_step + e) for u in range(v, m + 1)
                                        for e in range(row + 1))) for v in range(m + 1)]
        # Closing a row whose seat has t turns: the states with e differing places in it go
        # to e = 0 and u + max(0, e - t), those that would pass u = m are dropped. ``reopen``
        # is the same backwards.
        self.close, self.reopen = [], []
        for turns in range(m + 1):
            close, reopen = [], []
            for e in range(row + 1):
                extra = max(0, e - turns)
                if extra <= m:
                    shift = extra * self.u_step - e
                    close.append((self.row_e[e] & self.u_at_most[m - extra], shift))
                    reopen.append((self.row_e[0] & self.u_at_least[extra], -shift))
            self.close.append(_pieces(close))
            self.reopen.append(_pieces(reopen))
        self.start = where(lambda o, k: k == 0) & self.row_e[0] & self.u_at_most[0]
        self.end = where(lambda o, k: k == blanks) & self.row_e[0]


_Pieces = tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]


def _pieces(moves: list[tuple[int, int]]) -> _Pieces:
    """(mask, shift) pairs split into right shifts and left shifts, as positive amounts."""
    return (tuple((mask, -shift) for mask, shift in moves if shift <= 0),
            tuple((mask, shift) for mask, shift in moves if shift > 0))


def _moved(bits: int, pieces: _Pieces) -> int:
    """Every masked part of ``bits`` shifted by its amount, all together."""
    downs, ups = pieces
    out = 0
    for mask, shift in downs:
        out |= (bits & mask) >> shift
    for mask, shift in ups:
        out |= (bits & mask) << shift
    return out


@functools.lru_cache(maxsize=None)
def _cover_layout(numbers: int, blanks: int, row: int, m: int) -> _Layout:
    # The same for every deal of a table size: built once per process.
    return _Layout(numbers, blanks, row, m)


class _OutOfBudget(Exception):
    pass


class _Search:
    """One IDA* over a deal: ``solve`` returns the optimal line of switches, or None when
    there is none within the turn limit; raises _OutOfBudget past the node budget."""

    def __init__(self, table: _Table, budget: int) -> None:
        self.table = table
        self.cover = _Cover(table)
        self.budget = budget
        self.nodes = 0
        self.ring = list(table.start)
        # Proved lower bounds on the switches still needed, per (ring, seat to move, undo
        # forbidden): every entry is the result of a finished search, so it holds for any
        # later iteration too.
        self.bounds: dict[int, int] = {}
        self.line: list[tuple[int, int]] = []

    def solve(self) -> list[tuple[int, int]] | None:
        table = self.table
        gaps = table.breakpoints(self.ring)
        if gaps == 0:
            return []
        key = 0
        for c in reversed(self.ring):
            key = key << table.card_bits | c
        limit = -(-gaps // MAX_FIXED_PER_SWITCH)
        while limit <= table.max_turns:
            needed = self._search(0, limit, None, gaps, key)
            if needed < 0:
                return self.line[::-1]
            if needed >= _DEAD:
                return None
            limit = max(limit + 1, needed)
        return None

    def _children(self, turn: int, forbidden: tuple[int, int] | None,
                  gaps: int) -> tuple[list[int], list[tuple[int, int, int]]]:
        table, ring = self.table, self.ring
        rank = table.rank
        ranks = [rank[c] for c in ring]
        before, after = _neighbours(ranks)
        return ranks, [(gaps + _gap_change(table.bad, ranks, before, after, p, q), p, q)
                       for p, q in table.moves(ring, table.seat_to_move(turn), forbidden)]

    def _search(self, turn: int, moves: int, forbidden: tuple[int, int] | None, gaps: int,
                key: int) -> int:
        """-1 when the ring (``turn`` switches made, ``moves`` allowed from here) can be
        solved, the solution then in ``self.line`` (last switch first); otherwise a proved
        lower bound on the switches it needs, more than ``moves``."""
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfBudget
        ranks, children = self._children(turn, forbidden, gaps)
        if not children:
            return _DEAD
        for child_gaps, p, q in children:
            if child_gaps == 0:
                self.line.append((p, q))
                return -1
        candidates, best = self._candidates(turn, moves - 1, key, ranks, children)
        ring, bounds = self.ring, self.bounds
        for _, child_gaps, p, q, child_key, undo, mark in candidates:
            c, d = ring[p], ring[q]
            ring[p], ring[q] = d, c
            need = self._search(turn + 1, moves - 1, undo, child_gaps, child_key)
            ring[p], ring[q] = c, d
            if need < 0:
                self.line.append((p, q))
                return -1
            bounds[mark] = max(bounds.get(mark, 0), need)
            best = min(best, need)
        return min(best + 1, _DEAD)

    def _candidates(self, turn: int, left: int, key: int, ranks: list[int],
                    children: list[tuple[int, int, int]]) -> tuple[list[tuple[Any, ...]], int]:
        """The children worth searching with ``left`` switches, most promising first, and the
        least lower bound among the others."""
        table, ring, bounds = self.table, self.ring, self.bounds
        shift = table.card_bits
        fits = self._cover_test(turn + 1, left, ranks)
        best = _DEAD
        candidates = []
        for child_gaps, p, q in children:
            c, d = ring[p], ring[q]
            child_key = key + ((d - c) << (shift * p)) + ((c - d) << (shift * q))
            undo = table.undo_of(p, q, turn)
            mark = self._mark(child_key, undo, turn + 1)
            need = max(-(-child_gaps // MAX_FIXED_PER_SWITCH), bounds.get(mark, 0))
            if need <= left and fits is not None and not fits(p, q):
                need = bounds[mark] = left + 1
            if need > left:
                best = min(best, need)
            else:
                candidates.append((need, child_gaps, p, q, child_key, undo, mark))
        candidates.sort()
        return candidates, best

    def _mark(self, ring_key: int, undo: tuple[int, int] | None, turn: int) -> int:
        """The key of a position in ``bounds``: ring, seat to move, undo forbidden."""
        size, seats = len(self.ring), self.table.seats
        code = undo[0] * size + undo[1] if undo else size * size
        return (ring_key * (size * size + 1) + code) * seats + self.table.seat_to_move(turn)

    def _cover_test(self, turn: int, left: int,
                    ranks: list[int]) -> Callable[[int, int], bool] | None:
        """The covering test for this node's children (``left`` switches from turn ``turn``),
        or None where it is not used."""
        if not COVER_MIN <= left <= COVER_MAX:
            return None
        table = self.table
        turns = [0] * table.seats
        for t in range(turn, turn + left):
            turns[table.seat_to_move(t)] += 1
        prepared = self.cover.prepare(ranks, turns, left)
        return lambda p, q: self.cover.fits(prepared, ranks, p, q, turns, left)


def _state_of(game_or_state: Any) -> Mapping[str, Any]:
    if isinstance(game_or_state, Mapping):
        return game_or_state
    return game_or_state.to_json()


def fewest_switches(game_or_initial_state: Any,
                    node_budget: int = DEFAULT_NODE_BUDGET) -> int | None:
    """The least number of switches solving the initial deal, or None.

    Accepts a Narabi game or its ``to_json()`` dict; only the initial deal is used, so it can be
    called at any point of the game. None means the deal cannot be solved within the turn limit
    or (only past the node budget) that the search gave up.
    """
    return par(game_or_initial_state, node_budget)["best"]


def par(game_or_initial_state: Any, node_budget: int = DEFAULT_NODE_BUDGET) -> dict[str, Any]:
    """The par of a deal and how sure it is: ``{"best": n, "status": "found", "line": [...]}``
    with one optimal line as ``[seat, card given, card taken]`` per switch,
    ``{"best": None, "status": "none", "limit": turns}`` when no solution exists within the
    turn limit (proved), or ``{"best": None, "status": "unknown"}`` when the node budget ran out
    first."""
    table = _Table(_state_of(game_or_initial_state))
    search = _Search(table, node_budget)
    try:
        line = search.solve()
    except _OutOfBudget:
        return {"best": None, "status": "unknown"}
    if line is None:
        return {"best": None, "status": "none", "limit": table.max_turns}
    return {"best": len(line), "status": "found", "line": _named(table, line)}


def _named(table: _Table, line: list[tuple[int, int]]) -> list[list[int]]:
    """Positions to cards, the way the game's history records switches."""
    ring = list(table.start)
    named = []
    for turn, (p, q) in enumerate(line):
        named.append([table.seat_to_move(turn), ring[p], ring[q]])
        ring[p], ring[q] = ring[q], ring[p]
    return named
