"""The searches of Sensei's easy, medium and hard AI players (``ai.py`` is the entry point
that picks a level; ``expert.py`` builds on the same evaluation, ``evaluation.py``).

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

from .board import SIZE
from .evaluation import LOST, WIN, side_score, turn_end_score
from .game import STONE_MOVES_PER_TURN, Sensei
from .moves import character_targets, stone_destinations
from .tactics import GOAL_RANK, open_goal_squares, reach_cost
from .whole_turns import Move, _after, _best, _play_if_legal, _turn_state, each_turn, scored_turns

#: positions evaluated by hard (root turns included) before it settles for what it searched
HARD_BUDGET = 14_000
#: hard never searches replies to more candidates than this, whatever the budget left
HARD_CANDIDATES = 8
#: refutations remembered across hard's candidates
KILLERS = 3

EASY_NOISE = 40


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
