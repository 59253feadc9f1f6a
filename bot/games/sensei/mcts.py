"""Sensei: Monte-Carlo tree search over whole turns, the alternative the expert's alpha-beta was
measured against at the same budget (``python -m bot.tools.compare_sensei``). Players get the
alpha-beta of ``expert.py``; this search exists for that comparison.

Random playouts say nothing in Sensei (random turns almost never arrive), so a new node is
valued by the expert's static score through a logistic curve, as MCTS with an evaluation
function does. A node is a position at the start of a turn; its children are the positions a
turn can end in, enumerated and scored exactly as the alpha-beta does (``Search.children``,
counted in the same nodes). Selection is UCT among the best ⌈WIDEN·√visits⌉ children by static
score (progressive widening): a turn has hundreds to thousands of children, and an unvisited
child is tried in the order of its static score. The move played is the most visited child.
No randomness: the same position and budget always give the same turn.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from .expert import OutOfBudget, PROVED, Decision, Search, _after
from .review import SCALE, expected as chance
from .whole_turns import Move

#: exploration weight of UCT, for values in [0, 1]
EXPLORE = 0.4
#: children considered at a node visited n times: ⌈WIDEN·√n⌉
WIDEN = 2.0


@dataclass
class Node:
    """A position at the start of ``seat``'s turn, reached by the other seat's turn."""

    cells: list[int]
    characters: list[int]
    seat: int
    visits: int = 0
    # Summed value for the seat that moved into this node (the parent's mover).
    total: float = 0.0
    kids: list[tuple[int, tuple[Move, ...]]] | None = None
    children: dict[int, "Node"] = field(default_factory=dict)


def decide(cells: list[int], characters: list[int], seat: int, slide: bool,
           nodes: int) -> Decision:
    """The turn the search plays from a turn's start, within ``nodes`` children scored."""
    search = Search(slide, nodes)
    root = Node(list(cells), list(characters), seat)
    try:
        root.kids = search.children(root.cells, root.characters, seat, 0)
    except OutOfBudget:
        # A budget too small to score every turn once: the turns are scored all the same (as
        # the alpha-beta does), and the best of them is the answer.
        search = Search(slide, 10 ** 9)
        root.kids = search.children(root.cells, root.characters, seat, 0)
        search.nodes = search.spent
    if not root.kids:
        return Decision((), 0, 0, search.spent)
    if len(root.kids) == 1 or abs(root.kids[0][0]) >= PROVED:
        return Decision(root.kids[0][1], root.kids[0][0], 1, search.spent)
    try:
        while True:
            _descend(search, root, 1)
            root.visits += 1
    except OutOfBudget:
        pass
    if not root.children:
        return Decision(root.kids[0][1], root.kids[0][0], 1, search.spent)
    best = max(root.children.items(),
               key=lambda item: (item[1].visits, item[1].total / item[1].visits, -item[0]))
    index, child = best
    score, path = root.kids[index]
    mean = child.total / child.visits
    return Decision(path, score if child.visits == 1 else _score_of(mean), 0, search.spent)


def _score_of(chance_: float) -> int:
    chance_ = min(max(chance_, 1e-6), 1 - 1e-6)
    return int(-SCALE * math.log(1 / chance_ - 1))


def _descend(search: Search, node: Node, ply: int) -> float:
    """One simulation below ``node``; returns its value for ``node``'s mover (``node.seat``).
    The caller counts the visit."""
    # Every step costs a node, so a tree whose ends are all proved still exhausts the budget.
    search.spend()
    if node.kids is None:
        node.kids = search.children(node.cells, node.characters, node.seat, ply)
    kids = node.kids
    if not kids:
        return 0.5  # no turn at all: the rules' pass, scored even
    visits = node.visits + 1
    width = min(len(kids), math.ceil(WIDEN * math.sqrt(visits)))
    log_n = math.log(visits)
    chosen, best = 0, -1.0
    for index in range(width):
        child = node.children.get(index)
        if child is None:
            chosen = index  # the best-scored child not tried yet
            break
        value = child.total / child.visits + EXPLORE * math.sqrt(log_n / child.visits)
        if value > best:
            chosen, best = index, value
    score, path = kids[chosen]
    child = node.children.get(chosen)
    if child is None:
        after_cells, after_characters = _after(node.cells, node.characters, node.seat, path)
        child = node.children[chosen] = Node(after_cells, after_characters, 1 - node.seat)
        value = chance(score)
    elif abs(score) >= PROVED:
        value = chance(score)  # a proved end: nothing below it to search
    else:
        value = 1.0 - _descend(search, child, ply + 1)
    child.visits += 1
    child.total += value
    return value
