"""C7 of the FIDE Dutch system: how well the next bracket can be paired with a bracket's
downfloaters, read as bbpPairings reads it (a weighted matching over everyone left): first the
most pairs inside the next bracket (the downfloaters with its residents, and its residents
among themselves), then the downfloaters paired there, the higher scores first; always so that
everyone below can still be paired (completion).

The unconstrained best is exact and cheap: the downfloaters pairable into the next bracket by
score are a transversal matroid's greedy basis, and augmenting that matching to a maximum one
keeps them matched. When the players it leaves over cannot be completed with the brackets
below (rare: near the bottom), a depth-first search over the next bracket's pairings finds the
true best, within a step budget (``STATS["c7"]`` counts the searches that ran out).
"""
from __future__ import annotations

from typing import Callable, Sequence

from .dutch_matching import _edmonds, complete

Compat = Callable[[int, int], bool]

#: steps of the completion-constrained search before it keeps its best so far
C7_BUDGET = 2_000


def lookahead(floaters: Sequence[int], nxt: Sequence[int], below: Sequence[int],
              level: Sequence[int], n_levels: int, compat: Compat,
              bye_ok: Callable[[int], bool], stats: dict) -> tuple[tuple[int, ...], bool]:
    """(the C7 key, lower is better: minus the pairs, then minus the floaters kept per
    level; whether the floaters can be completed with everyone below at all)."""
    fl = set(floaters)
    nodes = list(floaters) + list(nxt)
    n = len(nodes)

    def ok(i: int, j: int) -> bool:
        a, b = nodes[i], nodes[j]
        return compat(a, b) and not (a in fl and b in fl)

    # the greedy basis: floaters by rank, each kept when an augmenting path reaches it
    match = [-1] * n
    nf = len(floaters)
    for f in range(nf):
        seen: set[int] = set()

        def augment(x: int) -> bool:
            for o in range(nf, n):
                if o in seen or not ok(x, o):
                    continue
                seen.add(o)
                if match[o] == -1 or augment(match[o]):
                    match[o], match[x] = x, o
                    return True
            return False

        augment(f)
    kept = [nodes[f] for f in range(nf) if match[f] != -1]
    # The floaters left out stay out of every maximum matching (an augmenting path from one
    # would match one more floater into the next bracket), so only its residents augment.
    free = [v for v in range(nf, n) if match[v] == -1]
    for k, v in enumerate(free):
        if match[v] != -1:
            continue
        for u in free[k + 1:]:
            if match[u] == -1 and ok(v, u):
                match[v], match[u] = u, v
                break
    free = [v for v in free if match[v] == -1]
    if len(free) > 1:
        _edmonds(n, ok, match, strict=False, roots=free)
    pairs = sum(1 for m in match if m != -1) // 2
    best = _key(kept, pairs, level, n_levels)
    left = [nodes[i] for i in range(n) if match[i] == -1]
    if complete(left + list(below), compat, bye_ok):
        return best, True
    return _search(floaters, nxt, below, level, n_levels, compat, bye_ok, stats, best)


def _key(kept: Sequence[int], pairs: int, level: Sequence[int], n_levels: int):
    counts = [0] * n_levels
    for f in kept:
        counts[level[f]] -= 1
    return (-pairs, *counts)


def _search(floaters, nxt, below, level, n_levels, compat, bye_ok, stats, upper):
    """The best key among the next bracket's pairings that leave a completable rest."""
    fl = set(floaters)
    order = list(floaters) + list(nxt)
    below = list(below)
    best: list = [None]
    steps = [0]
    done: dict[frozenset, bool] = {}

    class Stop(Exception):
        pass

    def bound(k: int, pairs: int, kept: list[int]) -> tuple:
        rest = order[k:]
        free_fl = [f for f in rest if f in fl]
        return _key(kept + free_fl, pairs + len(rest) // 2, level, n_levels)

    def dfs(k: int, used: set, pairs: int, kept: list[int], left: list[int]) -> None:
        steps[0] += 1
        if steps[0] > C7_BUDGET:
            raise Stop
        while k < len(order) and order[k] in used:
            k += 1
        if k == len(order):
            key = frozenset(left)
            ok = done.get(key)
            if ok is None:
                ok = done[key] = complete(left + below, compat, bye_ok)
            if ok:
                got = _key(kept, pairs, level, n_levels)
                if best[0] is None or got < best[0]:
                    best[0] = got
                    if got == upper:
                        raise Stop
            return
        if best[0] is not None and bound(k, pairs, kept) >= best[0]:
            return
        v = order[k]
        used.add(v)
        for u in order[k + 1:]:
            if u in used or (v in fl and u in fl) or not compat(v, u):
                continue
            used.add(u)
            now = kept + [x for x in (v, u) if x in fl]
            dfs(k + 1, used, pairs + 1, now, left)
            used.discard(u)
        left.append(v)
        dfs(k + 1, used, pairs, kept, left)
        left.pop()
        used.discard(v)

    try:
        dfs(0, set(), 0, [], [])
    except Stop:
        if steps[0] > C7_BUDGET:
            stats["c7"] = stats.get("c7", 0) + 1
    if best[0] is None:
        if steps[0] <= C7_BUDGET:
            return upper, False
        return upper, True
    return best[0], True
