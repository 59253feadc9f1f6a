"""Sensei expert: iterative-deepening alpha-beta over whole turns.

A node is a position at the start of a turn; its children are the distinct positions the turn
can end in (``ai.each_turn``), each scored once by ``ai.turn_end_score`` as it is enumerated.
That static score orders the children and is the leaf value. Depth 2 (my turn, every reply) is
searched at full width, as hard does for a handful of candidates; deeper iterations keep only the
best children by static score (a beam): a Sensei turn has hundreds to thousands of children, and
the decisive replies (a threat, a parry) are the ones the static score ranks high.

Before searching, the root's children are checked in that order for a win in two turns, exactly
(``wintwo``: every reply enumerated, and the winning arrival or barrier after each), within a
budget of positions: the beam could drop the one reply that parries, and the evaluation's threat
count cannot see a barrier win or a threat that needs a jump first.

Scores are for the side to move (negamax). ``WIN - ply`` is an arrival or a barrier win ``ply``
turns from the root; a position whose opponent can arrive next turn is a proved loss (the
threat test is exact), so proved results prefer the quickest win and the slowest loss.

Everything is counted in nodes (children scored), never time, and nothing depends on the
``rng`` nor on hash order: children are ordered by (score, path), and the transposition table is
a dict looked up by the position's cells (a tuple of ints, hashed the same in every process).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from .board import SIZE
from .evaluation import LOST, WIN, turn_end_score
from .game import STONE_MOVES_PER_TURN
from .tactics import GOAL_RANK
from .whole_turns import Move, _after, _play_if_legal, each_turn, turn_start
from .wintwo import Budget, OutOfWork, Prover

#: children scored per expert decision (the whole turn is decided once, see ``plan_turn``)
EXPERT_NODES = 28_000
#: positions the exact win-in-two check may visit per decision (``wintwo``; about 0.3 s at most)
WIN_IN_TWO_POSITIONS = 40_000
#: the deepest iteration, in turns
MAX_DEPTH = 4
#: children searched below the root, by remaining depth (depth 1 is scored, not searched)
BEAM = {2: 8, 3: 5}
#: root children searched by the depth-2 iteration, and by deeper ones
ROOT_WIDTH = {2: 20, 3: 8, 4: 6}
#: refutations remembered per ply
KILLERS = 2
#: a score at least this far from 0 is a proved win or loss
PROVED = WIN - 1_000
#: turn_end_score's "the opponent threatens to arrive" band (-LOST plus a small evaluation)
_THREATENED = -LOST + 10_000

INFINITY = WIN + 1
FULL_TURN = (STONE_MOVES_PER_TURN, True, 0)

#: Shizukana only, per rank a stone stands ahead of its home rank (the mover's minus the
#: opponent's): one square a move, a stone needs turns to become a landing square, further
#: than the search sees, and two sides that only weigh the character's lines shuffle stones
#: at home until the game is capped. This gives the expert a way forward.
ADVANCE = 3


def advance_lead(cells: list[int]) -> int:
    """Ranks green's stones stand ahead of green's home rank, minus the same for red."""
    lead = 0
    for sq, cell in enumerate(cells):
        if cell == 0:
            lead += sq // SIZE
        elif cell == 1:
            lead -= SIZE - 1 - sq // SIZE
    return lead


class OutOfBudget(Exception):
    pass


@dataclass
class Entry:
    depth: int
    value: int
    bound: int  # 0 exact, 1 lower bound (failed high), -1 upper bound (failed low)
    move: tuple[Move, ...] | None


@dataclass
class Search:
    slide: bool
    nodes: int
    table: dict[tuple, Entry] = field(default_factory=dict)
    killers: dict[int, list[tuple[Move, ...]]] = field(default_factory=dict)
    spent: int = 0

    def spend(self) -> None:
        self.spent += 1
        if self.spent > self.nodes:
            raise OutOfBudget

    # -- children -------------------------------------------------------------------------
    def leaf(self, cells: list[int], characters: list[int], mover: int, ply: int) -> int:
        """Score for ``mover`` of the position it ends its turn in, ``ply`` turns deep."""
        score = turn_end_score(cells, characters, mover, self.slide)
        if score >= WIN:
            return WIN - ply
        if score <= -WIN:
            return -(WIN - ply)
        if score <= _THREATENED:
            return -(WIN - ply - 1)
        if not self.slide:
            lead = advance_lead(cells)
            score += ADVANCE * (lead if mover == 0 else -lead)
        return score

    def children(self, cells: list[int], characters: list[int], seat: int, ply: int,
                 state: tuple[int, bool, int] = (STONE_MOVES_PER_TURN, True, 0),
                 ) -> list[tuple[int, tuple[Move, ...]]]:
        """Every turn with its static score, best first; a winning arrival alone when there
        is one (nothing can beat it)."""
        out: list[tuple[int, tuple[Move, ...]]] = []
        win: list[tuple[Move, ...]] = []

        def visit(path: tuple[Move, ...], arrived: bool) -> bool:
            self.spend()
            if arrived:
                # Below the root any win will do; the root shows the shortest one.
                win.append(path)
                return ply > 0 or len(path) == 1
            out.append((self.leaf(cells, characters, seat, ply), path))
            return False

        each_turn(cells, characters, seat, self.slide, *state, visit)
        if win:
            if ply == 0:
                win = [_shortest(cells, characters, seat, self.slide, path) for path in win]
            return [(WIN - ply, min(win, key=lambda path: (len(path), path)))]
        out.sort(key=_order)
        return out

    # -- the search -----------------------------------------------------------------------
    def value(self, cells: list[int], characters: list[int], seat: int, depth: int,
              alpha: int, beta: int, ply: int) -> int:
        """Negamax value for ``seat`` to move, ``depth`` turns deep."""
        if depth == 1:
            return self._scored(cells, characters, seat, alpha, beta, ply)
        key = (tuple(cells), characters[0], characters[1], seat)
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            hint = entry.move
            if entry.depth >= depth and abs(entry.value) < PROVED:
                if entry.bound == 0:
                    return entry.value
                if entry.bound > 0 and entry.value >= beta:
                    return entry.value
                if entry.bound < 0 and entry.value <= alpha:
                    return entry.value
        kids = self.children(cells, characters, seat, ply)
        if not kids:
            # No action at all: the turn passes (rules), judged as it stands.
            return -self.leaf(cells, characters, 1 - seat, ply)
        if kids[0][0] >= PROVED:
            return kids[0][0]
        ordered = self._ordered(kids, hint, ply)[:BEAM.get(depth, min(BEAM.values()))]
        start_alpha = alpha
        best, best_move = -INFINITY, None
        for static, path in ordered:
            if abs(static) >= PROVED:
                score = static
            else:
                after_cells, after_characters = _after(cells, characters, seat, path)
                score = -self.value(after_cells, after_characters, 1 - seat, depth - 1,
                                    -beta, -alpha, ply + 1)
            if score > best:
                best, best_move = score, path
            if score > alpha:
                alpha = score
            if alpha >= beta:
                self._killer(ply, path)
                break
        bound = 1 if best >= beta else (-1 if best <= start_alpha else 0)
        self.table[key] = Entry(depth, best, bound, best_move)
        return best

    def _scored(self, cells: list[int], characters: list[int], seat: int, alpha: int,
                beta: int, ply: int) -> int:
        """Depth 1: the best static score of a turn, stopping at the first one reaching beta
        (the refutations of sibling positions are tried first)."""
        for killer in self.killers.get(ply, ()):
            trial = _play_if_legal(cells, characters, seat, self.slide, killer)
            if trial is None:
                continue
            self.spend()
            score = self._path_score(trial[0], trial[1], seat, killer, ply)
            if score >= beta:
                return score
        best = [-INFINITY]
        cut: list[tuple[Move, ...]] = []

        def visit(path: tuple[Move, ...], arrived: bool) -> bool:
            self.spend()
            score = WIN - ply if arrived else self.leaf(cells, characters, seat, ply)
            if score > best[0]:
                best[0] = score
                if score >= beta:
                    cut.append(path)
                    return True
            return arrived

        each_turn(cells, characters, seat, self.slide, STONE_MOVES_PER_TURN, True, 0, visit)
        if best[0] == -INFINITY:
            return -self.leaf(cells, characters, 1 - seat, ply)
        if cut:
            self._killer(ply, cut[0])
        return best[0]

    def _path_score(self, cells: list[int], characters: list[int], seat: int,
                    path: tuple[Move, ...], ply: int) -> int:
        kind, _, to = path[-1]
        if kind == "character" and to // SIZE == GOAL_RANK[seat]:
            return WIN - ply
        return self.leaf(cells, characters, seat, ply)

    def _killer(self, ply: int, path: tuple[Move, ...]) -> None:
        killers = self.killers.setdefault(ply, [])
        if path in killers:
            killers.remove(path)
        killers.insert(0, path)
        del killers[KILLERS:]

    def _ordered(self, kids: list[tuple[int, tuple[Move, ...]]], hint: tuple[Move, ...] | None,
                 ply: int) -> list[tuple[int, tuple[Move, ...]]]:
        """The table's move, then this ply's killers, then the rest by static score."""
        first = [hint] if hint is not None else []
        first += [k for k in self.killers.get(ply, ()) if k != hint]
        if not first:
            return kids
        by_path = {path: score for score, path in kids}
        front = [(by_path[p], p) for p in first if p in by_path]
        chosen = {p for _, p in front}
        return front + [kid for kid in kids if kid[1] not in chosen]


def _order(kid: tuple[int, tuple[Move, ...]]) -> tuple[int, tuple[Move, ...]]:
    return -kid[0], kid[1]


def _shortest(cells: list[int], characters: list[int], seat: int, slide: bool,
              path: tuple[Move, ...]) -> tuple[Move, ...]:
    """The fewest of ``path``'s actions, in order, that still arrive: the turn enumeration keeps
    one path per position, which may be a detour (a stone moved there and back)."""
    for size in range(1, len(path)):
        for kept in combinations(path[:-1], size - 1):
            trial = kept + path[-1:]
            if _play_if_legal(cells, characters, seat, slide, trial) is not None:
                return trial
    return path


@dataclass
class Decision:
    """The expert's turn from a position: the path, its value for the mover, and how deep the
    last completed iteration went."""
    path: tuple[Move, ...]
    value: int
    depth: int
    nodes: int


def first_win_in_two(cells: list[int], characters: list[int], seat: int, slide: bool,
                     kids: list[tuple[int, tuple[Move, ...]]], positions: int,
                     ) -> tuple[Move, ...] | None:
    """The first of the root's children (best static score first) that wins in two against
    every reply (``wintwo``: exact), or None when none does or ``positions`` ran out first."""
    prover = Prover(slide, Budget(positions))
    try:
        return prover.first_win(cells, characters, seat, [path for _, path in kids])
    except OutOfWork:
        return None


def decide(cells: list[int], characters: list[int], seat: int, slide: bool,
           state: tuple[int, bool, int] = (STONE_MOVES_PER_TURN, True, 0),
           nodes: int | None = None, max_depth: int = MAX_DEPTH,
           win_in_two: bool = True) -> Decision:
    """The best turn ``seat`` finds within ``nodes`` children scored (``EXPERT_NODES`` by
    default; ``state``: stone moves left, character move left, actions already done this
    turn). At the start of a turn, a turn that wins by force in two (every reply checked,
    ``first_win_in_two``) is played before anything is searched."""
    search = Search(slide, EXPERT_NODES if nodes is None else nodes)
    cells, characters = list(cells), list(characters)
    try:
        kids = search.children(cells, characters, seat, 0, state)
    except OutOfBudget:
        # A budget too small to score every turn once (tests, reviews): the turns are scored
        # all the same, and that first iteration is the answer.
        search = Search(slide, 10 ** 9)
        kids = search.children(cells, characters, seat, 0, state)
        search.nodes = search.spent
    if not kids:
        return Decision((), 0, 0, search.spent)
    best_score, best_path = kids[0]
    decision = Decision(best_path, best_score, 1, search.spent)
    if abs(best_score) >= PROVED or len(kids) == 1:
        return decision
    if state == FULL_TURN and win_in_two:
        win = first_win_in_two(cells, characters, seat, slide, kids, WIN_IN_TWO_POSITIONS)
        if win is not None:
            return Decision(win, WIN - 2, 2, search.spent)
    if search.spent >= search.nodes:
        return decision
    ranked = kids
    for depth in range(2, max_depth + 1):
        # Searched in the order of the previous iteration, its best first; a later child must
        # beat the best so far strictly (null window above it), so ties keep the earlier one.
        done: list[tuple[int, tuple[Move, ...]]] = []
        best: tuple[int, tuple[Move, ...]] | None = None
        try:
            for static, path in ranked[:ROOT_WIDTH.get(depth, 1)]:
                if abs(static) >= PROVED:
                    score = static
                else:
                    after_cells, after_characters = _after(cells, characters, seat, path)
                    ceiling = INFINITY if best is None else -best[0]
                    score = -search.value(after_cells, after_characters, 1 - seat, depth - 1,
                                          -INFINITY, ceiling, 1)
                done.append((score, path))
                if best is None or score > best[0]:
                    best = (score, path)
        except OutOfBudget:
            # A partial iteration counts only where it improved on its first child (the previous
            # best), which it searched in full.
            if best is not None and len(done) > 1 and best[1] != done[0][1]:
                decision = Decision(best[1], best[0], depth - 1, search.spent)
            break
        assert best is not None
        decision = Decision(best[1], best[0], depth, search.spent)
        if abs(decision.value) >= PROVED:
            break
        done.sort(key=lambda kid: -kid[0])
        searched = {path for _, path in done}
        ranked = done + [kid for kid in ranked if kid[1] not in searched]
    decision.nodes = search.spent
    return decision


# -- one decision per turn ---------------------------------------------------------------------
#: turns already decided, by the position the turn started from (a memo: the same key always
#: maps to the same path, so a process that never saw the turn decides it again identically)
_DECIDED: dict[tuple, tuple[Move, ...]] = {}
_DECIDED_KEPT = 64


def plan_turn(game: Any, seat: int) -> tuple[Move, ...]:
    """The rest of ``seat``'s turn. ``choose`` is called once per action, so the turn is decided
    from the position it started in (the actions already done are undone): every call of the
    turn asks the same question and gets the same answer, and only the first one searches."""
    done, cells, characters = turn_start(game, seat)
    key = (game.slide, tuple(cells), tuple(characters), seat)
    path = _DECIDED.get(key)
    if path is None:
        path = decide(cells, characters, seat, game.slide).path
        if len(_DECIDED) >= _DECIDED_KEPT:
            del _DECIDED[next(iter(_DECIDED))]
        _DECIDED[key] = path
    if path[:len(done)] == done:
        return path[len(done):]
    # The turn so far is not the expert's (someone else began it): decide what is left.
    state = (game.stone_moves_left(), game.character_move_left(), len(done))
    return decide(list(game.cells), list(game.characters), seat, game.slide, state).path
