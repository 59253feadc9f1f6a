"""Exact matching checks for the Dutch pairing: can a set of players all be paired (all but one
bye candidate when odd), and bipartite coverage for the look-ahead of C7.

``complete`` first tries a greedy pass (enough in the dense compatibility graphs of a Swiss),
then Edmonds' blossom algorithm augments from whoever the greedy pass left alone, with the
neighbours of a vertex computed only when the search reaches it. The answer is exact.
"""
from __future__ import annotations

from collections import deque
from typing import Callable, Sequence

Compat = Callable[[int, int], bool]


def complete(players: Sequence[int], compat: Compat, bye_ok: Callable[[int], bool]) -> bool:
    """Whether ``players`` can all be paired, or all but one for whom ``bye_ok`` holds."""
    nodes = list(players)
    odd = len(nodes) % 2 == 1
    if odd:
        if not any(bye_ok(p) for p in nodes):
            return False
        nodes.append(-1)  # the bye: a partner only for a bye candidate
    n = len(nodes)
    if n == 0:
        return True

    def ok(i: int, j: int) -> bool:
        a, b = nodes[i], nodes[j]
        if a == -1:
            return bye_ok(b)
        if b == -1:
            return bye_ok(a)
        return compat(a, b)

    match = [-1] * n
    # greedy, the bye last so that it takes whoever is left
    free = list(range(n - 1 if odd else n))
    left: list[int] = []
    while free:
        v = free.pop(0)
        for k, u in enumerate(free):
            if ok(v, u):
                match[v], match[u] = u, v
                free.pop(k)
                break
        else:
            left.append(v)
    if odd:
        for v in left:
            if ok(v, n - 1):
                match[v], match[n - 1] = n - 1, v
                left.remove(v)
                break
    if not left and (not odd or match[n - 1] != -1):
        return True
    return _edmonds(n, ok, match)


def _edmonds(n: int, ok: Callable[[int, int], bool], match: list[int],
             strict: bool = True, roots: Sequence[int] | None = None) -> bool:
    adj_cache: dict[int, list[int]] = {}

    def adj(v: int) -> list[int]:
        got = adj_cache.get(v)
        if got is None:
            got = [u for u in range(n) if u != v and ok(v, u)]
            adj_cache[v] = got
        return got

    def find_path(root: int) -> tuple[int, list[int]]:
        used = [False] * n
        parent = [-1] * n
        base = list(range(n))
        used[root] = True
        queue = deque([root])

        def lca(a: int, b: int) -> int:
            seen = [False] * n
            while True:
                a = base[a]
                seen[a] = True
                if match[a] == -1:
                    break
                a = parent[match[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[match[b]]

        def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
            while base[v] != b:
                blossom[base[v]] = blossom[base[match[v]]] = True
                parent[v] = child
                child = match[v]
                v = parent[match[v]]

        while queue:
            v = queue.popleft()
            for to in adj(v):
                if base[v] == base[to] or match[v] == to:
                    continue
                if to == root or (match[to] != -1 and parent[match[to]] != -1):
                    cur = lca(v, to)
                    blossom = [False] * n
                    mark(v, cur, to, blossom)
                    mark(to, cur, v, blossom)
                    for i in range(n):
                        if blossom[base[i]]:
                            base[i] = cur
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if match[to] == -1:
                        return to, parent
                    used[match[to]] = True
                    queue.append(match[to])
        return -1, parent

    for root in range(n) if roots is None else roots:
        if match[root] != -1:
            continue
        # No augmenting path from a free vertex now means none later: it stays free in every
        # maximum matching, so a perfect one does not exist.
        end, parent = find_path(root)
        if end == -1:
            if strict:
                return False
            continue
        v = end
        while v != -1:
            pv = parent[v]
            nxt = match[pv]
            match[v], match[pv] = pv, v
            v = nxt
    return True


def cover(order: Sequence[int], others: Sequence[int], compat: Compat) -> list[int]:
    """Greedy over ``order`` (a transversal matroid, so this is the lexicographic best):
    the players of ``order`` kept matched to distinct ``others``, by augmenting paths."""
    owner: dict[int, int] = {}
    kept: list[int] = []
    for p in order:
        seen: set[int] = set()

        def augment(x: int) -> bool:
            for o in others:
                if o in seen or not compat(x, o):
                    continue
                seen.add(o)
                if o not in owner or augment(owner[o]):
                    owner[o] = x
                    return True
            return False

        if augment(p):
            kept.append(p)
    return kept


def bipartite_max(left: Sequence[int], right: Sequence[int], compat: Compat) -> int:
    return len(cover(left, right, compat))


def max_matching_size(players: Sequence[int], ok: Compat, enough: int | None = None) -> int:
    """The size of a maximum matching among ``players`` (Edmonds, with a greedy start); with
    ``enough``, any size at least that once the greedy start reaches it."""
    nodes = list(players)
    n = len(nodes)
    match = [-1] * n
    for i in range(n):
        if match[i] != -1:
            continue
        for j in range(i + 1, n):
            if match[j] == -1 and ok(nodes[i], nodes[j]):
                match[i], match[j] = j, i
                break
    best = sum(1 for m in match if m != -1) // 2
    if 2 * best >= n - 1 or (enough is not None and best >= enough):
        return best
    local = lambda i, j: ok(nodes[i], nodes[j])  # noqa: E731
    _edmonds(n, local, match, strict=False)
    return sum(1 for m in match if m != -1) // 2
