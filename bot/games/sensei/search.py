"""Sensei's evaluation and the searches of the easy, medium and hard AI players (``ai.py`` is
the entry point that picks a level; ``expert.py`` builds on the evaluation here).

Sensei hides nothing, so the AI rebuilds the game from the public view and plans a whole turn
(up to two stone moves and one character move). It returns the plan's first action; the next
call plans again among the continuations of the turn so far, so a turn follows one plan (the
scores depend on the position only, ``rng`` merely breaks ties).

The game is decided by one-turn threats, which are cheap to detect exactly:
- a side *threatens arrival* when its character sees a square of the goal rank (no opponent
  stone in between) that one of its stones holds or can reach with the two stone moves;
- a side *threatens a barrier win* when the other side has a barrier already touched and enough
  stones can come and touch it this turn.

- easy: action by action, the best single action by a one-sided evaluation plus noise; it takes
  a win within the turn when there is one, but never looks at the opponent's threats.
- medium: every whole turn, scored by the position it leaves: a win first, never a position
  where the opponent threatens, then a static evaluation of both sides' prospects.
- hard: medium's ranking, then the best candidates searched against every opponent reply (two
  plies of whole turns, alpha-beta on the candidates) within a budget of evaluated positions;
  first, its best candidates are checked exactly for a win in two turns (``wintwo``), within a
  smaller budget than the expert's.
- expert (``expert.py``): iterative-deepening alpha-beta over whole turns on the same
  evaluation, deciding each turn once from the position it started in.
"""
from __future__ import annotations

import random
from typing import Callable

from .barrier import LOSING_TOUCHES
from .board import EMPTY, HOME_RANK, NEIGHBOURS, ORTHOGONAL_RAYS, PIT, SIZE
from .game import STONE_MOVES_PER_TURN, Sensei
from .moves import character_targets, stone_destinations
from .notation import MAX_ACTIONS

WIN = 1_000_000
#: a position whose side to move threatens to win: lost, barring a blunder
LOST = 100_000

#: positions evaluated by hard (root turns included) before it settles for what it searched
HARD_BUDGET = 14_000
#: hard never searches replies to more candidates than this, whatever the budget left
HARD_CANDIDATES = 8
#: refutations remembered across hard's candidates
KILLERS = 3

# -- evaluation weights (tuned by self-play in the arena) -----------------------------------
#: by rank gap between a character and its goal rank (0 cannot happen: it would have won)
PROGRESS = (0, 60, 45, 30, 18, 8, 0)
#: by the best rank gap a single jump would give the character next turn
JUMP = (0, 40, 30, 20, 10, 4, 0)
#: a goal square the character sees but that needs three stone moves or more
LINE = 60
#: a goal square the side that just moved could win on next turn (the opponent must parry it)
THREAT = 220
DOUBLE_THREAT = 400
#: own stones standing on the goal rank (landing squares for later)
PAD = 12
#: by the touches on a side's most-touched barrier
BARRIER = (0, -25, -120)
EASY_NOISE = 40

Move = tuple[str, int, int]


def _goal_lines() -> tuple[tuple[tuple[tuple[tuple[int, ...], int], ...], ...], ...]:
    """Per seat and square: (squares strictly between, goal square) for the straight and the
    two diagonal lines from the square to the seat's goal rank."""
    out = []
    for seat in (0, 1):
        goal = HOME_RANK[1 - seat]
        step = 1 if goal > 0 else -1
        per_square = []
        for sq in range(SIZE * SIZE):
            x, y = sq % SIZE, sq // SIZE
            gap = abs(goal - y)
            lines = []
            if gap:
                for dx in (0, 1, -1):
                    tx = x + dx * gap
                    if 0 <= tx < SIZE:
                        between = tuple((y + step * i) * SIZE + x + dx * i for i in range(1, gap))
                        lines.append((between, goal * SIZE + tx))
            per_square.append(tuple(lines))
        out.append(tuple(per_square))
    return tuple(out)


GOAL_LINES = _goal_lines()
GOAL_RANK = (HOME_RANK[1], HOME_RANK[0])


# -- one-turn tactics ------------------------------------------------------------------------
def reach_cost(cells: list[int], seat: int, fixed: int, target: int, slide: bool) -> int:
    """Stone moves (1, 2, or 3 meaning "more") ``seat`` needs to put a stone on the empty
    ``target``; the stone on ``fixed`` (the character's) may not move.

    Two moves are enough exactly when some stone reaches a square from which the target is one
    move away: moving another stone first can only unblock a path whose first stone could then
    have gone itself.
    """
    if slide:
        approach = []
        for ray in ORTHOGONAL_RAYS[target]:
            for sq in ray:
                cell = cells[sq]
                if cell == EMPTY:
                    approach.append(sq)
                    continue
                if cell == seat and sq != fixed:
                    return 1
                break
        for a in approach:
            for ray in ORTHOGONAL_RAYS[a]:
                for sq in ray:
                    cell = cells[sq]
                    if cell == EMPTY:
                        continue
                    if cell == seat and sq != fixed:
                        return 2
                    break
        return 3
    neighbours = NEIGHBOURS[target]
    for n in neighbours:
        if cells[n] == seat and n != fixed:
            return 1
    for n in neighbours:
        if cells[n] == EMPTY:
            for m in NEIGHBOURS[n]:
                if cells[m] == seat and m != fixed:
                    return 2
    return 3


def open_goal_squares(cells: list[int], seat: int, at: int) -> list[int]:
    """Goal squares the character on ``at`` could land on once an own stone is there."""
    opponent = 1 - seat
    out = []
    for between, target in GOAL_LINES[seat][at]:
        cell = cells[target]
        if cell == opponent or cell == PIT:
            continue
        for sq in between:
            if cells[sq] == opponent:
                break
        else:
            out.append(target)
    return out


def can_arrive(cells: list[int], seat: int, at: int, slide: bool) -> bool:
    """Whether ``seat``, at the start of its turn, can bring its character to the goal rank."""
    for target in open_goal_squares(cells, seat, at):
        if cells[target] == seat or reach_cost(cells, seat, at, target, slide) <= 2:
            return True
    return False


Barrier = tuple[list[int], list[int]] | None


def touched_barrier(cells: list[int], seat: int) -> Barrier:
    """``seat``'s most-touched barrier as (chain, touching stones), or None when it has no
    barrier or none is touched. Same touch count as ``barrier.worst_barrier``, but the search
    asks it twice per position, so it is written for speed: without pits, 7 stones can only
    make a barrier with one stone in each file, which leaves a single chain to look at.
    """
    if PIT in cells:
        return _touched_barrier_with_pits(cells, seat)
    opponent = 1 - seat
    chain = []
    touched = set()
    previous = 0
    for x in range(SIZE):
        column = cells[x::SIZE]
        count = column.count(seat)
        if count != 1:
            # With at most 7 stones, two in one file leave another file empty.
            if count == 0 or cells.count(seat) <= SIZE:
                return None
            return _touched_barrier_with_pits(cells, seat)
        y = column.index(seat)
        if x and abs(y - previous) > 1:
            return None
        previous = y
        sq = y * SIZE + x
        chain.append(sq)
        for n in NEIGHBOURS[sq]:
            if cells[n] == opponent:
                touched.add(n)
    if not touched:
        return None
    return chain, sorted(touched)


def _touched_barrier_with_pits(cells: list[int], seat: int) -> Barrier:
    columns = []
    for x in range(SIZE):
        column = cells[x::SIZE]
        if seat not in column and PIT not in column:
            return None
        columns.append([y * SIZE + x for y, cell in enumerate(column) if cell == seat or cell == PIT])
    opponent = 1 - seat
    partial: list[tuple[tuple[int, ...], frozenset[int]]] = [((), frozenset())]
    for column in columns:
        grown = []
        for chain, touched in partial:
            for sq in column:
                if chain and abs(sq // SIZE - chain[-1] // SIZE) > 1:
                    continue
                if cells[sq] == PIT:
                    grown.append((chain + (sq,), touched))
                else:
                    grown.append((chain + (sq,), touched.union(
                        [n for n in NEIGHBOURS[sq] if cells[n] == opponent])))
        if not grown:
            return None
        partial = grown
    chain, touched = max(partial, key=lambda item: len(item[1]))
    if not touched:
        return None
    return list(chain), sorted(touched)


def barrier_threat(cells: list[int], attacker: int, fixed: int, slide: bool,
                   found: Barrier) -> bool:
    """Whether ``attacker`` can bring its touches on the other side's worst barrier (``found``)
    to three this turn (an estimate: it looks at that one chain only)."""
    if found is None:
        return False
    chain, touching = found
    need = 3 - len(touching)
    if need > 2:
        return False
    if need <= 0:
        return True
    busy = set(touching)
    busy.add(fixed)
    targets = {n for sq in chain if cells[sq] != PIT for n in NEIGHBOURS[sq] if cells[n] == EMPTY}
    movers = set()
    for target in targets:
        movers.update(_first_stones(cells, attacker, target, slide, busy))
        if len(movers) >= need:
            return True
    if need == 1:
        for target in targets:
            if _reach_in_two(cells, attacker, target, slide, busy):
                return True
    return False


def _first_stones(cells: list[int], seat: int, target: int, slide: bool,
                  busy: set[int]) -> list[int]:
    """Free stones of ``seat`` that can move onto the empty ``target`` in one move."""
    out = []
    if slide:
        for ray in ORTHOGONAL_RAYS[target]:
            for sq in ray:
                cell = cells[sq]
                if cell == EMPTY:
                    continue
                if cell == seat and sq not in busy:
                    out.append(sq)
                break
    else:
        for n in NEIGHBOURS[target]:
            if cells[n] == seat and n not in busy:
                out.append(n)
    return out


def _reach_in_two(cells: list[int], seat: int, target: int, slide: bool, busy: set[int]) -> bool:
    for step in stone_destinations(cells, target, slide):
        if _first_stones(cells, seat, step, slide, busy):
            return True
    return False


# -- evaluation ------------------------------------------------------------------------------
def side_score(cells: list[int], characters: list[int], seat: int, slide: bool,
               barrier: Barrier) -> tuple[int, int]:
    """(how well placed ``seat`` is to arrive in a few turns, how many goal squares it could
    arrive on with a whole turn from here) in one pass over the character's forward lines."""
    at = characters[seat]
    opponent = 1 - seat
    gap = abs(GOAL_RANK[seat] - at // SIZE)
    score = PROGRESS[gap]
    best = gap
    threats = 0
    for between, target in GOAL_LINES[seat][at]:
        step = 0
        for sq in between:
            step += 1
            cell = cells[sq]
            if cell == opponent:
                break
            if cell == seat and gap - step < best:
                best = gap - step
        else:
            cell = cells[target]
            if cell == seat:
                threats += 1
            elif cell == EMPTY:
                cost = reach_cost(cells, seat, at, target, slide)
                if cost <= 2:
                    threats += 1
                else:
                    score += LINE
    score += JUMP[best]
    row = GOAL_RANK[seat] * SIZE
    score += PAD * cells[row:row + SIZE].count(seat)
    if barrier is not None:
        score += BARRIER[min(2, len(barrier[1]))]
    return score, threats


def turn_end_score(cells: list[int], characters: list[int], mover: int, slide: bool) -> int:
    """Score for ``mover`` of the position it ends its turn in (no arrival this turn): the
    unfair-game verdict when there is one, else the evaluation."""
    other = 1 - mover
    mine, theirs = touched_barrier(cells, mover), touched_barrier(cells, other)
    # The player who just moved loses when both barriers are over the limit.
    if mine is not None and len(mine[1]) >= LOSING_TOUCHES:
        return -WIN
    if theirs is not None and len(theirs[1]) >= LOSING_TOUCHES:
        return WIN
    score, threats = side_score(cells, characters, mover, slide, mine)
    their_score, their_threats = side_score(cells, characters, other, slide, theirs)
    base = score - their_score
    if their_threats:
        return -LOST + base
    if barrier_threat(cells, other, characters[other], slide, mine):
        return -LOST // 2 + base
    if threats:
        base += THREAT + (DOUBLE_THREAT if threats > 1 else 0)
    if barrier_threat(cells, mover, characters[mover], slide, theirs):
        base += THREAT
    return base


# -- whole turns -----------------------------------------------------------------------------
def each_turn(cells: list[int], characters: list[int], seat: int, slide: bool, stones_left: int,
              character_left: bool, done: int,
              visit: Callable[[tuple[Move, ...], bool], bool]) -> None:
    """Call ``visit(path, arrived)`` once per distinct position the turn can end in, exactly as
    ``turns.legal_turns`` enumerates them; ``cells`` and ``characters`` hold that position
    during the call. ``visit`` returns True to stop the enumeration.
    """
    goal = GOAL_RANK[seat]
    seen: set[tuple[tuple[int, ...], int]] = set()
    if done:
        seen.add((tuple(cells), characters[seat]))
        if visit((), False):
            return

    class Stop(Exception):
        pass

    def explore(path: tuple[Move, ...], stones: int, jump: bool) -> None:
        at = characters[seat]
        if stones:
            for frm in range(SIZE * SIZE):
                if cells[frm] != seat or frm == at:
                    continue
                for to in stone_destinations(cells, frm, slide):
                    cells[frm], cells[to] = EMPTY, seat
                    step = path + (("stone", frm, to),)
                    key = (tuple(cells), at)
                    try:
                        if key not in seen:
                            seen.add(key)
                            if visit(step, False):
                                raise Stop
                        if done + len(step) < MAX_ACTIONS:
                            explore(step, stones - 1, jump)
                    finally:
                        cells[frm], cells[to] = seat, EMPTY
        if jump:
            for to in character_targets(cells, seat, at):
                characters[seat] = to
                step = path + (("character", at, to),)
                key = (tuple(cells), to)
                arrived = to // SIZE == goal
                try:
                    if key not in seen:
                        seen.add(key)
                        if visit(step, arrived):
                            raise Stop
                    if not arrived and done + len(step) < MAX_ACTIONS:
                        explore(step, stones, False)
                finally:
                    characters[seat] = at

    try:
        explore((), stones_left, character_left)
    except Stop:
        pass


def _turn_state(game: Sensei) -> tuple[int, bool, int]:
    stones = STONE_MOVES_PER_TURN - sum(1 for a in game.current if a["kind"] == "stone")
    return stones, game.character_move_left(), len(game.current)


def scored_turns(game: Sensei, seat: int) -> list[tuple[int, tuple[Move, ...]]]:
    """Every way to finish the turn with medium's score of the position it leaves."""
    cells, characters, slide = list(game.cells), list(game.characters), game.slide
    out: list[tuple[int, tuple[Move, ...]]] = []

    def visit(path: tuple[Move, ...], arrived: bool) -> bool:
        if arrived:
            out.append((WIN, path))
            return False
        out.append((turn_end_score(cells, characters, seat, slide), path))
        return False

    each_turn(cells, characters, seat, slide, *_turn_state(game), visit)
    return out


def _best(scored: list[tuple[int, tuple[Move, ...]]], rng: random.Random) -> tuple[Move, ...]:
    top = max(score for score, _ in scored)
    return rng.choice([path for score, path in scored if score == top])


# -- hard: replies to the best candidates ----------------------------------------------------
class Budget:
    def __init__(self, nodes: int) -> None:
        self.left = nodes

    def spend(self) -> bool:
        self.left -= 1
        return self.left >= 0


def reply_value(cells: list[int], characters: list[int], me: int, slide: bool, alpha: int,
                budget: Budget, killers: list[tuple[Move, ...]]) -> int | None:
    """The worst score ``me`` can get after the opponent's best reply (cells: after my turn).

    Stops early once a reply scores at most ``alpha`` (the candidate cannot beat the best one
    already searched) and returns that bound; None when the budget ran out first. ``killers``
    are replies that refuted earlier candidates: tried first, as sibling candidates tend to
    fall to the same reply; the refutation found here is added to them.
    """
    opponent = 1 - me
    for killer in killers:
        trial = _play_if_legal(cells, characters, opponent, slide, killer)
        if trial is None or not budget.spend():
            continue
        value = _reply_score(trial[0], trial[1], opponent, slide, killer)
        if value <= alpha:
            return value
    worst = [WIN]
    refutation: list[tuple[Move, ...]] = [()]
    out_of_budget = [False]

    def visit(path: tuple[Move, ...], arrived: bool) -> bool:
        if not budget.spend():
            out_of_budget[0] = True
            return True
        value = -WIN + 1 if arrived else -turn_end_score(cells, characters, opponent, slide)
        if value < worst[0]:
            worst[0] = value
            refutation[0] = path
        return value <= alpha

    each_turn(cells, characters, opponent, slide, STONE_MOVES_PER_TURN, True, 0, visit)
    if out_of_budget[0]:
        return None
    if worst[0] == WIN:
        # The opponent cannot act and passes: judge the position as it stands.
        return turn_end_score(cells, characters, me, slide)
    if refutation[0] not in killers:
        killers.insert(0, refutation[0])
        del killers[KILLERS:]
    return worst[0]


def _reply_score(cells: list[int], characters: list[int], opponent: int, slide: bool,
                 path: tuple[Move, ...]) -> int:
    """Score for the side that did not play the reply ``path`` (already applied)."""
    arrived = path[-1][0] == "character" and path[-1][2] // SIZE == GOAL_RANK[opponent]
    return -WIN + 1 if arrived else -turn_end_score(cells, characters, opponent, slide)


def _play_if_legal(cells: list[int], characters: list[int], seat: int, slide: bool,
                   path: tuple[Move, ...]) -> tuple[list[int], list[int]] | None:
    """``path`` (a killer turn from another position) applied here, or None when one of its
    actions is not legal here, or it holds more actions of a kind than a turn allows."""
    cells, characters = list(cells), list(characters)
    stones = jumps = 0
    for kind, frm, to in path:
        if kind == "stone":
            stones += 1
            if (stones > STONE_MOVES_PER_TURN or cells[frm] != seat or frm == characters[seat]
                    or to not in stone_destinations(cells, frm, slide)):
                return None
            cells[frm], cells[to] = EMPTY, seat
        else:
            jumps += 1
            if (jumps > 1 or characters[seat] != frm
                    or to not in character_targets(cells, seat, frm)):
                return None
            characters[seat] = to
    return cells, characters


WinCheck = Callable[[list[tuple[Move, ...]]], "tuple[Move, ...] | None"]


def hard_turn(game: Sensei, seat: int, rng: random.Random,
              win_in_two: WinCheck | None = None) -> tuple[Move, ...]:
    """Hard's rest of the turn. ``win_in_two``, given the candidates best first, returns the rest
    of a turn that wins by force in two, or None (``wintwo.hard_win_in_two``; ``ai.py`` passes
    it, this module cannot import it)."""
    scored = scored_turns(game, seat)
    budget = Budget(HARD_BUDGET - len(scored))
    top = max(score for score, _ in scored)
    if top >= LOST // 2 or top <= -LOST // 2:
        # A win in hand, or every turn loses to a threat: replies cannot change the verdict.
        return _best(scored, rng)
    ranked = sorted(scored, key=lambda item: -item[0])
    cells, characters = list(game.cells), list(game.characters)
    if win_in_two is not None:
        win = win_in_two([path for _, path in ranked])
        if win is not None:
            return win
    deep: list[tuple[int, tuple[Move, ...]]] = []
    killers: list[tuple[Move, ...]] = []
    alpha = -WIN
    for _, path in ranked[:HARD_CANDIDATES]:
        trial = _after(cells, characters, seat, path)
        value = reply_value(trial[0], trial[1], seat, game.slide, alpha - 1, budget, killers)
        if value is None:
            break
        deep.append((value, path))
        alpha = max(alpha, value)
    if not deep:
        return _best(scored, rng)
    return _best(deep, rng)


def _after(cells: list[int], characters: list[int], seat: int,
           path: tuple[Move, ...]) -> tuple[list[int], list[int]]:
    cells, characters = list(cells), list(characters)
    for kind, frm, to in path:
        if kind == "stone":
            cells[frm], cells[to] = EMPTY, seat
        else:
            characters[seat] = to
    return cells, characters


# -- easy ------------------------------------------------------------------------------------
def easy_action(game: Sensei, seat: int, rng: random.Random) -> Move | None:
    """A winning action when the turn can still win, else the best action by ``side_score``
    with noise; None means end the turn."""
    cells, characters, slide = list(game.cells), list(game.characters), game.slide
    stones, jump, done = _turn_state(game)
    win = _winning_path(cells, characters, seat, slide, stones, jump)
    if win:
        return win[0]
    best: Move | None = None
    best_score = side_score(cells, characters, seat, slide, None)[0] if done else -WIN
    for move in _single_actions(cells, characters, seat, slide, stones, jump):
        trial_cells, trial_characters = _after(cells, characters, seat, (move,))
        score = (side_score(trial_cells, trial_characters, seat, slide, None)[0]
                 + rng.randint(0, EASY_NOISE))
        if score > best_score:
            best, best_score = move, score
    return best


def _winning_path(cells: list[int], characters: list[int], seat: int, slide: bool, stones: int,
                  jump: bool) -> tuple[Move, ...] | None:
    """Stone moves then the arriving jump, when this turn can still arrive."""
    if not jump:
        return None
    at = characters[seat]
    for target in open_goal_squares(cells, seat, at):
        if cells[target] == seat:
            return (("character", at, target),)
        if reach_cost(cells, seat, at, target, slide) <= stones:
            for first in _single_actions(cells, characters, seat, slide, stones, False):
                trial_cells, _ = _after(cells, characters, seat, (first,))
                if trial_cells[target] == seat:
                    return (first, ("character", at, target))
                if stones == 2 and reach_cost(trial_cells, seat, at, target, slide) == 1:
                    return (first,)
    return None


def _single_actions(cells: list[int], characters: list[int], seat: int, slide: bool, stones: int,
                    jump: bool) -> list[Move]:
    at = characters[seat]
    out: list[Move] = []
    if stones:
        for frm in range(SIZE * SIZE):
            if cells[frm] == seat and frm != at:
                out.extend(("stone", frm, to) for to in stone_destinations(cells, frm, slide))
    if jump:
        out.extend(("character", at, to) for to in character_targets(cells, seat, at))
    return out
