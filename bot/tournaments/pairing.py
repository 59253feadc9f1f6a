"""Pairing a tournament's next round: Swiss (the FIDE Dutch system, in ``dutch``), round
robin (the circle method), tables of 3–4 grouped by score (Sàréná) and Narabi's duplicate
teams (single elimination is in ``knockout``; ``rounds.pair_round`` picks by format).

A round is a list of ``Table``: the entrant ids in seat order (seat 0 moves first), or one id
alone for a bye. Everything is a function of the entrants, the games already played and, where
a draw of lots is needed, the tournament's seed: the same inputs give the same round.

Why not a library at run time: the one maintained FIDE Dutch engine on PyPI
(caissify-pairings, built on networkx's weighted matching) took 1.8 s for a 64-player round
and 91 s for 200 players on this machine; a round of 1,000 must pair in well under a second.
It is the oracle of ``bot.tools.dutch_check`` instead.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

#: the formats a tournament can have
FORMATS = ("swiss", "round_robin", "knockout", "duplicate")

Table = tuple[int, ...]
#: DFS steps a bracket's pairing may take before it settles for a weaker pass
BUDGET = 20_000


@dataclass(frozen=True)
class Entrant:
    """An entrant still in the tournament; ``rank`` is the starting rank (1 is the top seed)."""

    id: int
    rank: int


@dataclass(frozen=True)
class Played:
    """A table of an earlier round: ``seats`` in seat order, ``points`` each seat scored (None
    while it is being played). A bye is one seat scoring 1. ``forfeit``: the game was not
    played (the loser never showed): it counts for the score, but the two did not meet, it
    gives no colour, and the winner has had a forfeit win (no pairing-allocated bye then)."""

    round: int
    table: int
    seats: tuple[int, ...]
    points: tuple[float, ...] | None
    forfeit: bool = False
    #: a knockout replay: the board of the match's first game
    replay_of: int | None = None

    @property
    def bye(self) -> bool:
        return len(self.seats) == 1


def table_points(seats: int, winners: Sequence[int], draw: bool) -> tuple[float, ...]:
    """Points per seat of a finished game: a win is 1, shared between the winners of a shared
    victory; a draw without winners gives each seat 1/seats (½ at a two-player table)."""
    if winners:
        share = 1.0 / len(winners)
        return tuple(share if s in winners else 0.0 for s in range(seats))
    if draw:
        return tuple(1.0 / seats for _ in range(seats))
    return tuple(0.0 for _ in range(seats))


# -- what the history says about each entrant --------------------------------------------------

class History:
    def __init__(self, played: Iterable[Played]) -> None:
        self.score: dict[int, float] = {}
        self.met: dict[int, set[int]] = {}
        self.colours: dict[int, list[int]] = {}   # +1 moved first, -1 second (2-player games)
        self.byes: dict[int, int] = {}
        self.first_seats: dict[int, int] = {}
        for game in played:
            points = game.points or tuple(0.0 for _ in game.seats)
            for seat, (pid, pts) in enumerate(zip(game.seats, points)):
                if game.points is not None:
                    self.score[pid] = self.score.get(pid, 0.0) + pts
                if game.bye:
                    self.byes[pid] = self.byes.get(pid, 0) + 1
                    continue
                if game.forfeit:  # not played: no meeting, no colour
                    continue
                self.met.setdefault(pid, set()).update(o for o in game.seats if o != pid)
                if seat == 0:
                    self.first_seats[pid] = self.first_seats.get(pid, 0) + 1
                if len(game.seats) == 2:
                    self.colours.setdefault(pid, []).append(1 if seat == 0 else -1)

    def met_before(self, a: int, b: int) -> bool:
        return b in self.met.get(a, ())

    def preference(self, pid: int) -> tuple[int, int]:
        """(colour wanted: +1 first, -1 second, 0 none; strength: 2 absolute, 1 strong,
        0 mild)."""
        colours = self.colours.get(pid, [])
        if not colours:
            return 0, 0
        diff = sum(colours)
        if diff <= -2 or colours[-2:] == [-1, -1]:
            return 1, 2
        if diff >= 2 or colours[-2:] == [1, 1]:
            return -1, 2
        if diff:
            return -diff, 1
        return -colours[-1], 0

    def clash(self, a: int, b: int) -> bool:
        """Both want the same colour absolutely: one of them would break it."""
        pa, sa = self.preference(a)
        pb, sb = self.preference(b)
        return sa == 2 and sb == 2 and pa == pb


def _ranked(entrants: Sequence[Entrant], history: History) -> list[int]:
    """Entrant ids by score (highest first), then by starting rank."""
    return [e.id for e in sorted(entrants, key=lambda e: (-history.score.get(e.id, 0.0), e.rank))]


# -- Swiss ---------------------------------------------------------------------------------------

def fallback_round(entrants: Sequence[Entrant], played: Iterable[Played], round_no: int,
                   seed: int = 0) -> list[Table]:
    """Score groups, the fewest rematches, at most one bye each while possible."""
    history = History(played)
    order = _ranked(entrants, history)
    bye: int | None = None
    if len(order) % 2:
        # The lowest-ranked who has not had a bye; a higher one only when giving it to the
        # lower would force a rematch that the higher one's bye avoids.
        eligible = [p for p in reversed(order) if not history.byes.get(p)] or list(reversed(order))
        best: tuple[int, list[tuple[int, int]]] | None = None
        for candidate in eligible[:8]:
            rest = [p for p in order if p != candidate]
            pairs = _pair_field(rest, history)
            rematches = sum(history.met_before(a, b) for a, b in pairs)
            if best is None or rematches < best[0]:
                best, bye = (rematches, pairs), candidate
            if rematches == 0:
                break
        assert best is not None
        pairs = best[1]
    else:
        pairs = _pair_field(order, history)
    rank = {p: i for i, p in enumerate(order)}
    pairs.sort(key=lambda pair: min(rank[pair[0]], rank[pair[1]]))
    tables = [_seat_pair(a, b, history, rank, board, seed) for board, (a, b) in enumerate(pairs)]
    if bye is not None:
        tables.append((bye,))
    return tables


def _seat_pair(a: int, b: int, history: History, rank: dict[int, int], board: int,
               seed: int) -> Table:
    """Who of ``a`` and ``b`` moves first: both preferences when they differ, else the
    stronger one, else the higher-ranked player's; with no history, by lot and board."""
    if rank[b] < rank[a]:
        a, b = b, a
    pa, sa = history.preference(a)
    pb, sb = history.preference(b)
    if pa == 0 and pb == 0:
        first_a = (seed + board) % 2 == 0
    elif pa != pb and pa != 0 and pb != 0:
        first_a = pa > 0
    elif pa == 0:
        first_a = pb < 0
    elif pb == 0:
        first_a = pa > 0
    else:  # the same colour wanted: the stronger preference, then the higher rank, has it
        first_a = (pa > 0) if sa >= sb else (pb < 0)
    return (a, b) if first_a else (b, a)


def score_groups(order: Sequence[int], history: History) -> list[list[int]]:
    groups: list[list[int]] = []
    last: float | None = None
    for pid in order:
        score = history.score.get(pid, 0.0)
        if score != last:
            groups.append([])
            last = score
        groups[-1].append(pid)
    return groups


def _pair_field(order: list[int], history: History) -> list[tuple[int, int]]:
    """Pair an even field bracket by bracket, top score group first. A bracket's players it
    cannot pair float down to the next. When the last bracket cannot be paired (without a
    rematch, then without breaking an absolute colour preference), the brackets above are
    opened up again one by one (the last bracket takes their players back) until it can, or
    until the whole field is one bracket."""
    groups = score_groups(order, history)
    for strict in (True, False):
        for merge_from in range(len(groups) - 1, -1, -1):
            pairs: list[tuple[int, int]] = []
            floaters: list[int] = []
            for index in range(merge_from):
                got, floaters = _pair_bracket(floaters + groups[index], history)
                pairs += got
            tail = floaters + [p for g in groups[merge_from:] for p in g]
            found = _search(tail, history, strict, 0, allow_rematch=False)
            if found is not None:
                return pairs + found[0]
    # A rematch cannot be avoided: the fewest the search finds, in the Dutch order.
    found = _search(order, history, False, 0, allow_rematch=True)
    assert found is not None
    return found[0]


def _pair_bracket(bracket: list[int],
                  history: History) -> tuple[list[tuple[int, int]], list[int]]:
    """Pair a bracket that is not the last: strict (no rematch, no broken absolute colour),
    floating down as few of its players as needed (the lowest first)."""
    n = len(bracket)
    for floats in range(n % 2, n + 1, 2):
        found = _search(bracket, history, True, floats, allow_rematch=False)
        if found is not None:
            return found
    return [], list(bracket)


def _candidates(remaining: list[int], start: int) -> Iterator[int]:
    """Indices of partners for ``remaining[0]`` in the Dutch order: its S2 counterpart, the
    rest of S2 downwards, then upwards."""
    target = max(1, start)
    for i in range(target, len(remaining)):
        yield i
    for i in range(target - 1, 0, -1):
        yield i


def _search(bracket: list[int], history: History, strict: bool, floats: int,
            allow_rematch: bool) -> tuple[list[tuple[int, int]], list[int]] | None:
    """Depth-first over the Dutch order with a step budget: pairs, and the players floated
    down (the lowest first), or None when nothing was found within the budget."""
    steps = 0
    pairs: list[tuple[int, int]] = []
    floated: list[int] = []

    def ok(a: int, b: int) -> bool:
        if not allow_rematch and history.met_before(a, b):
            return False
        return not (strict and history.clash(a, b))

    def rematch_cost(a: int, b: int) -> int:
        return 1 if history.met_before(a, b) else 0

    def walk(remaining: list[int], floats_left: int) -> bool:
        nonlocal steps
        if not remaining:
            return True
        if len(remaining) == floats_left:
            floated.extend(remaining)
            return True
        steps += 1
        if steps > BUDGET:
            return False
        top = remaining[0]
        half = len(remaining) // 2
        order = list(_candidates(remaining, half))
        if allow_rematch:
            order.sort(key=lambda i: rematch_cost(top, remaining[i]))  # stable: Dutch order kept
        for i in order:
            other = remaining[i]
            if not ok(top, other):
                continue
            pairs.append((top, other))
            if walk(remaining[1:i] + remaining[i + 1:], floats_left):
                return True
            pairs.pop()
            if steps > BUDGET:
                return False
        if floats_left:
            # ``top`` cannot be paired here: it floats (a higher player floats only when the
            # lower ones could not take its place).
            floated.append(top)
            if walk(remaining[1:], floats_left - 1):
                return True
            floated.pop()
        return False

    if walk(list(bracket), floats):
        return list(pairs), list(floated)
    return None


# -- round robin ---------------------------------------------------------------------------------

def round_robin_rounds(count: int) -> int:
    return count - 1 if count % 2 == 0 else count


def round_robin_round(entrants: Sequence[Entrant], round_no: int) -> list[Table]:
    """Round ``round_no`` (1-based) by the circle method: the top seed stays, the others turn
    one place a round; with an odd count a ghost makes the bye. Who moves first: whoever has
    moved first less often in the rounds before, then whoever moved second last time."""
    ids: list[int | None] = [e.id for e in sorted(entrants, key=lambda e: e.rank)]
    if len(ids) % 2:
        ids.append(None)
    n = len(ids)
    rank = {pid: i for i, pid in enumerate(ids) if pid is not None}
    firsts = {pid: 0 for pid in rank}
    last: dict[int, int] = {}
    tables: list[Table] = []
    for r in range(1, round_no + 1):
        turn = (r - 1) % (n - 1)
        rest = ids[1:]
        rest = rest[-turn:] + rest[:-turn] if turn else rest
        circle = [ids[0], *rest]
        tables, byes = [], []
        for i in range(n // 2):
            a, b = circle[i], circle[n - 1 - i]
            if a is None or b is None:
                byes.append(((a if a is not None else b),))
                continue
            key_a = (firsts[a], last.get(a, 0), rank[a] if r % 2 else -rank[a])
            key_b = (firsts[b], last.get(b, 0), rank[b] if r % 2 else -rank[b])
            first, second = (a, b) if key_a < key_b else (b, a)
            firsts[first] += 1
            last[first], last[second] = 1, -1
            tables.append((first, second))
        tables += byes  # type: ignore[arg-type]
    return tables


# -- tables of three and more --------------------------------------------------------------------

def table_sizes(count: int, size: int, smallest: int) -> list[int]:
    """Table sizes for ``count`` players, ``size`` at most and as even as possible, none
    below ``smallest`` (fewer, larger tables instead). Empty when ``count < smallest``."""
    if count < smallest:
        return []
    tables = -(-count // size)
    while tables > 1 and count // tables < smallest:
        tables -= 1
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def score_groups_tables(entrants: Sequence[Entrant], played: Iterable[Played], size: int,
                        smallest: int) -> list[Table]:
    """Tables of up to ``size`` grouped by score: the ranking cut into consecutive tables,
    then neighbours swapped across a table boundary while that lowers how many pairs at the
    same table met before. Seat 0 goes to whoever sat first least. Players beyond what a
    table can take (fewer than ``smallest`` in all) get a bye."""
    played = list(played)
    history = History(played)
    order = _ranked(entrants, history)
    sizes = table_sizes(len(order), size, smallest)
    if not sizes:
        return [(p,) for p in order]
    tables: list[list[int]] = []
    at = 0
    for s in sizes:
        tables.append(order[at:at + s])
        at += s

    def repeats(table: list[int]) -> int:
        return sum(history.met_before(a, b) for i, a in enumerate(table) for b in table[i + 1:])

    for _ in range(3):
        improved = False
        for i in range(len(tables) - 1):
            upper, lower = tables[i], tables[i + 1]
            before = repeats(upper) + repeats(lower)
            if not before:
                continue
            for ui in range(len(upper) - 1, -1, -1):
                for li in range(len(lower)):
                    u2, l2 = list(upper), list(lower)
                    u2[ui], l2[li] = lower[li], upper[ui]
                    if repeats(u2) + repeats(l2) < before:
                        tables[i], tables[i + 1] = u2, l2
                        upper, lower, before = u2, l2, repeats(u2) + repeats(l2)
                        improved = True
        if not improved:
            break
    rank = {p: i for i, p in enumerate(order)}
    return [tuple(sorted(t, key=lambda p: (history.first_seats.get(p, 0), rank[p])))
            for t in tables]


def narabi_teams(entrants: Sequence[Entrant], played: Iterable[Played], size: int,
                 smallest: int = 3) -> list[Table]:
    """Duplicate Narabi: teams of ``size`` (as even as possible, at least ``smallest``),
    grouped by score so that teams are of like strength and partners change."""
    return score_groups_tables(entrants, played, size, smallest)
