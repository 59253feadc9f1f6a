"""The FIDE Dutch system (Handbook C.04.3, with the basic rules C.04.1): the next round of a
two-player Swiss.

The round is paired bracket by bracket from the top scoregroup down (A.3, A.9). A bracket is
its resident players plus the players moved down from above (MDPs). Its pairing is chosen
among the candidates of section D, generated in their order: the MDPs paired (S1) by D.3,
their opponents by the transpositions of S2 (D.1), then the remainder by its exchanges (D.2)
and transpositions. Absolute criteria (C1 no rematch, C2 the bye, C3 absolute colours) are
never broken; the completion criterion (C4) is a real matching check: the players left for
the brackets below (this bracket's downfloaters with everyone below) must all be pairable,
all but one bye candidate when the count is odd. Like the endorsed programs, completion is
required of every bracket, which makes the PPB/CLB route of A.9 unnecessary: a bracket whose
natural pairing would strand the players below is paired so that it does not.

Among the candidates, the quality criteria decide in their priority: C5 pairs, C6 the score
differences (more, and higher-scored, MDPs paired), C7 the next bracket, then the bye
assignee's unplayed games, C8–C9 the topscorers' colours, C10 colour preferences, C11 strong
ones, C12–C15 repeated floats, C16–C19 their scores. The first candidate that reaches the best
possible value wins; otherwise the best one, the earliest on ties. C7 and the bye criterion
are read as bbpPairings (the FIDE-endorsed program) reads them: C7 (``dutch_lookahead``) is
the most pairs inside the next bracket (its residents among themselves too), then its MDPs
paired by score, always with everyone below still pairable; the bye goes, when it is
decided in a bracket, to the player with the most games played.

Exactness and speed: the candidates are walked depth first over S2's positions in
lexicographic order, prefixes breaking an absolute criterion are cut, and a branch is cut
when its criteria so far (plus lower bounds on the colour clashes still to come: by the
wishes' counts, and by a maximum matching of the pairs that do not clash) cannot beat the
best candidate found, which keeps the order. Bounded paths (rare; counted in ``STATS``): a
bracket stops searching after ``BUDGET`` steps (more in smaller fields: ``ROUND_STEPS``
divided by the players, up to 30,000 from 100 players down) and keeps its best candidate so
far; exchanges of k players are generated only while there are at most ``EXCHANGE_LIMIT`` of
them, MDP subsets only while there are at most ``SUBSET_LIMIT``, and C7's search under
completion stops after ``C7_BUDGET`` steps. The bye criterion's condition (a bracket at the
bye's score with one floater of that score) is ours; bbpPairings decides it with a
preliminary matching. Cross-checked against caissify-pairings (2026-11-27, the commands in
docs/measurements/bench.md): 10..40 players, 0 of 2,065 random rounds pair differently (107
of 2,067 before this reading of C7 and the bye); 65..100 players, 1 of 84 and 1 of 56 (23
and 13 before), both budget stops: brackets of 25 and 26 players whose best candidate
(fewer colour clashes) lies deep in the exchange order, beyond their 30,000 steps, with
colour bounds too weak to cut the branches before it (300,000 steps find the first).
"""
from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations
from math import comb
from typing import Iterable, Sequence

from .dutch_matching import bipartite_max, max_matching_size
from .dutch_players import ABSOLUTE, DOWN, STRONG, DutchPlayer, allocate, read_history
from .dutch_round import (BUDGET, STATS, RoundView, StopSearch, add_costs, colour_lower_bound,
                          pairs_colour_lower_bound)

EXCHANGE_LIMIT = 20_000
SUBSET_LIMIT = 4_096


@lru_cache(maxsize=256)
def _exchanges(p: int, q: int) -> tuple:
    return tuple(_exchange_order(p, q))


def _exchange_order(p: int, q: int):
    """D.2: exchanges between S1 (BSN 1..p) and S2 (p+1..p+q), in their order; no exchange
    first."""
    yield (), ()
    for k in range(1, min(p, q) + 1):
        if comb(p, k) * comb(q, k) > EXCHANGE_LIMIT:
            STATS["exchanges"] += 1
            return
        items = []
        for A in combinations(range(1, p + 1), k):
            for B in combinations(range(p + 1, p + q + 1), k):
                items.append((sum(B) - sum(A), tuple(-a for a in reversed(A)), B, A))
        items.sort()
        for _, _, B, A in items:
            yield A, B


class _Bracket:
    def __init__(self, rnd: RoundView, mdps: list[int], residents: list[int], rest: list[int],
                 nxt: list[int] | None) -> None:
        self.r = rnd
        self.mdps, self.res, self.rest, self.nxt = mdps, residents, rest, nxt
        self.best: tuple | None = None
        self.best_pairs: list[tuple[int, int]] = []
        self.best_floaters: list[int] = []
        self.steps = 0
        self.done_cache: dict[frozenset, bool] = {}
        self.c7_cache: dict[frozenset, tuple] = {}
        self.clash_cache: dict[tuple, int] = {}
        self.mdp_set = set(mdps)

    def solve(self) -> tuple[list[tuple[int, int]], list[int]]:
        r = self.r
        mdp_set = set(self.mdps)
        bracket = self.mdps + self.res
        struct = lambda a, b: r.compat(a, b) and not (a in mdp_set and b in mdp_set)  # noqa
        n1max = max_matching_size(bracket, struct)
        for n1 in range(n1max, -1, -1):
            try:
                self.stage(n1)
            except StopSearch:
                pass
            if self.best is not None:
                return self.best_pairs, self.best_floaters
        STATS["incomplete"] += 1
        return [], bracket

    # -- one number of pairs --------------------------------------------------------------

    def subsets(self, n1: int):
        r, mdps, res = self.r, self.mdps, self.res
        m = len(mdps)
        sets = []
        lo = max(0, n1 - len(res) // 2)
        for m1 in range(min(m, n1, len(res)), lo - 1, -1):
            if n1 - m1 > (len(res) - m1) // 2:
                continue
            if comb(m, m1) > SUBSET_LIMIT:
                STATS["subsets"] += 1
                continue
            for s1 in combinations(mdps, m1):
                counts = [0] * len(r.levels)
                for i in s1:
                    counts[r.level[i]] -= 1
                counts[r.level[res[0]]] -= n1 - m1
                sets.append((tuple(counts), s1))
        sets.sort()
        return sets

    def stage(self, n1: int) -> None:
        r = self.r
        for c6, s1 in self.subsets(n1):
            if bipartite_max(s1, self.res, r.compat) < len(s1):
                continue
            limbo = [i for i in self.mdps if i not in s1]
            n_float_res = len(self.res) - len(s1) - 2 * (n1 - len(s1))
            ideal_floaters = sorted(limbo + [self.res[-1]] * n_float_res)
            if n_float_res:
                c7 = r.c7_ideal(ideal_floaters, self.nxt, self.mdps + self.res,
                                r.level[self.res[0]])
            else:
                # the floaters are known: the unpaired MDPs
                key = frozenset(limbo)
                c7 = self.c7_cache.get(key)
                if c7 is None:
                    c7 = self.c7_cache[key] = r.c7(sorted(limbo), self.nxt,
                                                   r.level[self.res[0]])
            ideal = (c6, c7, [0] * 12)
            if self.best is not None and self._key(ideal) >= self.best:
                continue
            self.ideal = ideal
            self.c6 = c6
            self.limbo = limbo
            self.n1 = n1
            self.mdp_dfs(list(s1), 0, [], set(), [0] * 12)

    def _key(self, parts) -> tuple:
        c6, c7, add = parts
        return (c6, c7, tuple(add))

    def _bound(self, add: list[int], s1: Sequence[int] = (), avail: Sequence[int] = (),
               remainder: bool = False, pairs: int = 0) -> tuple:
        """A lower bound of every candidate below this node: the criteria so far, the colour
        preferences that the rest must break, the floaters it must leave."""
        r = self.r
        bound = list(add)
        if s1:
            bound[2] += colour_lower_bound(r, s1, avail)
            bound[3] += colour_lower_bound(r, s1, avail, strong=True)
        if pairs:
            # all the pairs still to form (``s1``'s and ``pairs`` more among ``avail``)
            everyone = list(s1) + list(avail)
            q = len(s1) + pairs
            bound[2] = max(bound[2], add[2] + self._clash_lb(everyone, q))
            bound[3] = max(bound[3], add[3] + self._clash_lb(everyone, q, strong=True))
        floaters = list(self.limbo)
        cost = r.float_cost(floaters)
        if remainder:
            bound[2] = max(bound[2], self.floor[0])
            bound[3] = max(bound[3], self.floor[1])
            extra = len(avail) - len(s1)
            for prev, c, c_bits in ((r.prev1, 4, 8), (r.prev2, 6, 10)):
                down = [j for j in avail if prev[j] == DOWN]
                forced = max(0, len(down) - (len(avail) - extra))
                cost[c] += forced
                if forced:
                    cost[c_bits] += forced * min(r.bits[j] for j in down)
        bound = add_costs(bound, cost)
        return (self.c6, self.ideal[1], tuple(bound))

    def _clash_lb(self, players: Sequence[int], q: int, strong: bool = False) -> int:
        """At least this many of any ``q`` pairs among ``players`` want the same colour
        (``strong``: by strong preferences, C11): by the wishes' counts, then by a maximum
        matching of the pairs that do not clash (MDPs never paired together)."""
        r = self.r
        lb = pairs_colour_lower_bound(r, players, q, strong)
        key = (frozenset(players), q, strong)
        got = self.clash_cache.get(key)
        if got is not None:
            return max(lb, got)
        P, mdps = r.P, self.mdp_set

        def clash(a: int, b: int) -> bool:
            x, y = P[a], P[b]
            if not x.pref or x.pref != y.pref:
                return False
            if not strong:
                return True
            return (x.strength >= STRONG and y.strength >= STRONG
                    and not (x.strength == ABSOLUTE and y.strength == ABSOLUTE))

        def ok(a: int, b: int) -> bool:
            return r.compat(a, b) and not clash(a, b) and not (a in mdps and b in mdps)

        got = max(0, q - max_matching_size(players, ok, enough=q))
        self.clash_cache[key] = got
        return max(lb, got)

    def _tick(self) -> None:
        self.steps += 1
        if self.steps > self.r.budget and self.best is not None:
            STATS["budget"] += 1
            raise StopSearch
        if self.steps > max(10 * BUDGET, self.r.budget):
            # Nothing valid found with this many pairs: try one pair fewer.
            STATS["gave_up"] += 1
            self.steps = 0
            raise StopSearch

    def mdp_dfs(self, s1: list[int], k: int, pairs: list, used: set, add: list[int]) -> None:
        r = self.r
        self._tick()
        if k == len(s1):
            rem = [i for i in self.res if i not in used]
            self.remainder(rem, self.n1 - len(s1), pairs, add)
            return
        if self.best is not None:
            avail = [j for j in self.res if j not in used]
            if self._bound(add, s1[k:], avail, pairs=self.n1 - len(s1)) >= self.best:
                return
        a = s1[k]
        for j in self.res:
            if j in used or not r.compat(a, j):
                continue
            used.add(j)
            pairs.append((a, j))
            self.mdp_dfs(s1, k + 1, pairs, used, add_costs(add, r.pair_cost(a, j)))
            pairs.pop()
            used.discard(j)

    def remainder(self, rem: list[int], p: int, pairs: list, add: list[int]) -> None:
        s1o, s2o = rem[:p], rem[p:]
        # whatever the exchange, the remainder's pairs clash at least this much
        self.floor = (add[2] + self._clash_lb(rem, p), add[3] + self._clash_lb(rem, p, True))
        for A, B in _exchanges(len(s1o), len(s2o)):
            if self.best is not None and self._bound(add, (), rem, pairs=p) >= self.best:
                return
            out = {rem[a - 1] for a in A}
            into = {rem[b - 1] for b in B}
            s1 = sorted((set(s1o) - out) | into)
            s2 = sorted((set(s2o) - into) | out)
            self.rem_dfs(s1, s2, 0, pairs, set(), add)

    def rem_dfs(self, s1: list[int], s2: list[int], k: int, pairs: list, used: set,
                add: list[int]) -> None:
        r = self.r
        self._tick()
        if k == len(s1):
            self.leaf(pairs, [j for j in s2 if j not in used], add)
            return
        if self.best is not None:
            avail = [j for j in s2 if j not in used]
            if self._bound(add, s1[k:], avail, remainder=True) >= self.best:
                return
        a = s1[k]
        for j in s2:
            if j in used or not r.compat(a, j):
                continue
            used.add(j)
            pairs.append((a, j))
            self.rem_dfs(s1, s2, k + 1, pairs, used, add_costs(add, r.pair_cost(a, j)))
            pairs.pop()
            used.discard(j)

    def leaf(self, pairs: list, unpaired: list[int], add: list[int]) -> None:
        r = self.r
        floaters = sorted(self.limbo + unpaired)
        key = frozenset(floaters)
        c7 = self.c7_cache.get(key)
        if c7 is None:
            c7 = self.c7_cache[key] = r.c7(floaters, self.nxt, r.level[self.res[0]])
        total = add_costs(add, r.float_cost(floaters))
        vec = (self.c6, c7, tuple(total))
        if self.best is not None and vec >= self.best:
            return
        done = self.done_cache.get(key)
        if done is None:
            done = self.done_cache[key] = r.completable(floaters + self.rest)
        if not done:
            return
        self.best = vec
        self.best_pairs = list(pairs)
        self.best_floaters = floaters
        if vec == self._key(self.ideal):
            raise StopSearch


def dutch_pairs(players: list[DutchPlayer], round_no: int) -> tuple[list, DutchPlayer | None] | None:
    """The pairs (in no particular order) and the bye, or None when no pairing satisfies the
    absolute criteria (the arbiter's case)."""
    rnd = RoundView(players, round_no)
    if not rnd.choose_bye_candidates():
        return None
    groups: list[list[int]] = []
    for i in range(rnd.n):
        if not groups or rnd.level[groups[-1][0]] != rnd.level[i]:
            groups.append([])
        groups[-1].append(i)
    mdps: list[int] = []
    pairs: list[tuple[int, int]] = []
    for g, residents in enumerate(groups):
        rest = [i for grp in groups[g + 1:] for i in grp]
        nxt = groups[g + 1] if g + 1 < len(groups) else None
        if not residents:
            continue
        got, mdps = _Bracket(rnd, mdps, residents, rest, nxt).solve()
        pairs += got
    if len(mdps) > 1:
        return None
    bye = rnd.P[mdps[0]] if mdps else None
    return [(rnd.P[a], rnd.P[b]) for a, b in pairs], bye


def initial_colour(seed: int) -> int:
    """E.5's initial colour, drawn by lot from the tournament's seed."""
    return 1 if random.Random(f"dutch-initial-colour:{seed}").random() < 0.5 else -1


def dutch_round(entrants: Sequence, played: Iterable, round_no: int, rounds: int | None,
                seed: int = 0) -> list[tuple[int, ...]] | None:
    """The round's tables, in board order, white first, the bye last as a 1-tuple; None
    when the absolute criteria cannot all be met."""
    players = read_history([(e.id, e.rank) for e in entrants], played, round_no, rounds)
    got = dutch_pairs(players, round_no)
    if got is None:
        return None
    pairs, bye = got
    colour = initial_colour(seed)
    seated = [allocate(a, b, colour) for a, b in pairs]

    def board(pair: tuple[DutchPlayer, DutchPlayer]) -> tuple[float, int]:
        hi = min(pair, key=lambda p: (-p.score, p.pn))
        return -hi.score, hi.pn

    seated.sort(key=board)
    tables: list[tuple[int, ...]] = [(w.id, b.id) for w, b in seated]
    if bye is not None:
        tables.append((bye.id,))
    return tables
