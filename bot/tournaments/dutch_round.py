"""The Dutch engine's view of one round (``dutch``): the players in pairing order, who may
meet whom (C1, C3), what a pair or a set of floaters costs by the quality criteria (C5–C19),
the look at the next bracket (C7, with ``dutch_lookahead``), the bye's criterion, and the
lower bounds on colour wishes that let the bracket search cut branches early."""
from __future__ import annotations

from typing import Iterable, Sequence

from .dutch_lookahead import lookahead
from .dutch_matching import complete
from .dutch_players import ABSOLUTE, DOWN, STRONG, UP, DutchPlayer

BUDGET = 3_000
#: a round's steps to share: smaller fields give each bracket more (``BUDGET`` to 10 times it)
ROUND_STEPS = 3_000_000
#: how often a bounded path was taken (for the cross-check's report)
STATS = {"budget": 0, "gave_up": 0, "exchanges": 0, "subsets": 0, "incomplete": 0, "c7": 0}

class StopSearch(Exception):
    pass


class RoundView:
    def __init__(self, players: list[DutchPlayer], round_no: int) -> None:
        players.sort(key=lambda p: (-p.score, p.pn))
        self.P = players
        self.n = len(players)
        idx = {p.id: i for i, p in enumerate(players)}
        self.opp = [{idx[o] for o in p.opponents if o in idx} for p in players]
        self.prev1 = [p.floats.get(round_no - 1) for p in players]
        self.prev2 = [p.floats.get(round_no - 2) for p in players]
        levels = sorted({p.score for p in players}, reverse=True)
        self.levels = levels
        self.level = [levels.index(p.score) for p in players]
        k = self.n.bit_length() + 1
        self.bits = [1 << (k * (len(levels) - 1 - self.level[i])) for i in range(self.n)]
        self.abs_pref = [p.pref if p.strength == ABSOLUTE and not p.topscorer else 0
                         for p in players]
        self.bye: set[int] = set()
        self.bye_level: int | None = None
        self.budget = min(10 * BUDGET, max(BUDGET, ROUND_STEPS // max(self.n, 1)))
        self.games = [len(p.opponents) for p in players]
        # where each score level starts in the ranking (and the end)
        self.start = [0] * (len(levels) + 1)
        for i in range(self.n - 1, -1, -1):
            self.start[self.level[i]] = i
        self.start[len(levels)] = self.n

    # -- absolute criteria ------------------------------------------------------------------

    def compat(self, i: int, j: int) -> bool:
        if j in self.opp[i]:
            return False
        a = self.abs_pref[i]
        return not (a and a == self.abs_pref[j])

    def completable(self, players: Sequence[int]) -> bool:
        return complete(players, self.compat, self.bye.__contains__)

    def choose_bye_candidates(self) -> bool:
        """C2 and the bye's place: eligible players of the lowest score from which the rest
        of the round can still be paired. False when no bye makes the round possible."""
        everyone = list(range(self.n))
        if self.n % 2 == 0:
            return complete(everyone, self.compat, lambda i: False)
        eligible = [i for i in everyone if self.P[i].bye_eligible]
        for level in range(len(self.levels) - 1, -1, -1):
            self.bye = {i for i in eligible if self.level[i] >= level}
            if self.bye and self.completable(everyone):
                self.bye_level = level
                return True
        return False

    # -- quality criteria -------------------------------------------------------------------

    def pair_cost(self, i: int, j: int) -> list[int]:
        """C8–C19 of pair (i higher, j lower) as penalties: C8 C9 C10 C11 C12 C13 C14 C15
        C16 C17 C18 C19 (C12/C14/C16/C18 for the floaters come from ``float_cost``)."""
        a, b = self.P[i], self.P[j]
        same = a.pref != 0 and a.pref == b.pref
        c8 = int(same and abs(a.diff) >= 2 and abs(b.diff) >= 2)
        c9 = 0
        if same and a.strength == ABSOLUTE and b.strength == ABSOLUTE:
            if abs(a.diff) == abs(b.diff):
                c9 = int(b.repeated != 0 and b.repeated == a.repeated)
            else:
                yielder = b if abs(a.diff) > abs(b.diff) else a
                c9 = int(yielder.repeated != 0 and yielder.repeated == -b.pref)
        c10 = int(same)
        c11 = int(same and a.strength >= STRONG and b.strength >= STRONG
                  and not (a.strength == ABSOLUTE and b.strength == ABSOLUTE))
        down = self.level[i] < self.level[j]
        c12 = int(down and self.prev1[i] == DOWN)
        c13 = int(down and self.prev1[j] == UP)
        c14 = int(down and self.prev2[i] == DOWN)
        c15 = int(down and self.prev2[j] == UP)
        c17 = self.bits[i] if c13 else 0
        c19 = self.bits[i] if c15 else 0
        return [c8, c9, c10, c11, c12, c13, c14, c15, 0, c17, 0, c19]

    def float_cost(self, floaters: Iterable[int]) -> list[int]:
        c12 = c14 = c16 = c18 = 0
        for f in floaters:
            if self.prev1[f] == DOWN:
                c12 += 1
                c16 += self.bits[f]
            if self.prev2[f] == DOWN:
                c14 += 1
                c18 += self.bits[f]
        return [0, 0, 0, 0, c12, 0, c14, 0, c16, 0, c18, 0]

    def c7(self, floaters: Sequence[int], nxt: Sequence[int] | None,
           level: int) -> tuple[int, ...]:
        """The next bracket (C7, ``dutch_lookahead``): first its pairs, then its MDPs paired,
        the higher scores first, with everyone below still pairable; then the bye
        assignee's unplayed games (``bye_games``)."""
        if nxt is None:
            return (self.bye_games(floaters, level, last=True),)
        below = range(self.start[self.level[nxt[-1]] + 1], self.n)
        key, _ = lookahead(floaters, nxt, below, self.level, len(self.levels), self.compat,
                           self.bye.__contains__, STATS)
        return (*key, self.bye_games(floaters, level))

    def bye_games(self, floaters: Sequence[int], level: int, last: bool = False) -> int:
        """The bye assignee's unplayed games, as bbpPairings reads C.04.3 (after C7, before
        the colours): when a bracket at or below the bye's score has a single floater of that
        score, who will take the bye, minus his games played (in the last bracket, of whoever
        is left unpaired)."""
        if last:
            return -sum(self.games[f] for f in floaters)
        if (self.bye_level is None or level < self.bye_level or len(floaters) != 1
                or self.level[floaters[0]] != self.bye_level):
            return 0
        return -self.games[floaters[0]]

    def _c7_key(self, kept: Sequence[int], pairs: int) -> tuple[int, ...]:
        counts = [0] * len(self.levels)
        for f in kept:
            counts[self.level[f]] -= 1
        return (-pairs, *counts)

    def c7_ideal(self, floaters_by_level: Sequence[int], nxt: Sequence[int] | None,
                 bracket: Sequence[int], level: int):
        k = len(floaters_by_level)
        if nxt is None:
            most = sorted((self.games[i] for i in bracket), reverse=True)
            return (-sum(most[:k]),)
        bye = 0
        if self.bye_level is not None and level >= self.bye_level and k == 1:
            bye = -max((self.games[i] for i in bracket if self.level[i] == self.bye_level),
                       default=0)
        kept = list(floaters_by_level)[:len(nxt)]
        return (*self._c7_key(kept, len(kept) + (len(nxt) - len(kept)) // 2), bye)


def _wishes(rnd: "RoundView", players: Iterable[int], strong: bool) -> tuple[int, int, int]:
    """How many of ``players`` want white, black, and neither (``strong``: by a strong
    preference; the others count as wishing neither)."""
    w = b = z = 0
    for i in players:
        p = rnd.P[i]
        c = p.pref if not strong or p.strength == STRONG else 0
        if c > 0:
            w += 1
        elif c < 0:
            b += 1
        else:
            z += 1
    return w, b, z


def colour_lower_bound(rnd: RoundView, s1: Sequence[int], s2: Sequence[int], strong: bool = False) -> int:
    """At least this many pairs of ``s1`` (each with a distinct player of ``s2``) want the
    same colour (``strong``: the same colour by a strong preference each; absolute ones
    count as wildcards there, since two absolute ones do not count for C11)."""
    w1, b1, z1 = _wishes(rnd, s1, strong)
    w2, b2, z2 = _wishes(rnd, s2, strong)
    x = min(w1, b2)
    y = min(b1, w2)
    w1, b1, b2, w2 = w1 - x, b1 - y, b2 - x, w2 - y
    t = min(w1 + b1, z2)
    u = min(z1, w2 + b2 + z2 - t)
    return max(0, len(s1) - (x + y + t + u))


def pairs_colour_lower_bound(rnd: RoundView, players: Sequence[int], q: int,
                     strong: bool = False) -> int:
    """At least this many of any ``q`` pairs formed among ``players`` (the others left out)
    want the same colour: leaving out the commoner wish first, the wishes of one colour
    beyond the other's and the wishless ones must meet each other."""
    w, b, z = _wishes(rnd, players, strong)
    drop = max(0, len(players) - 2 * q)
    hi, lo = max(w, b), min(w, b)
    cut = min(drop, hi - lo)
    hi -= cut
    drop -= cut
    hi -= (drop + 1) // 2
    lo -= drop // 2
    return max(0, hi - lo - z) // 2


def add_costs(a: list[int], b: list[int]) -> list[int]:
    return [x + y for x, y in zip(a, b)]
