"""Exact wins in one and two turns: the verifier behind puzzles, the expert and the review.

A turn wins *at once* when it arrives (the character lands on the goal rank) or ends with the
opponent's barrier touched by three stones while the mover's own is not. A turn ``T`` *wins in
two* when it wins at once, or when the game goes on and, for every reply ``R`` the opponent can
end its turn with (each distinct position), ``R`` does not win for the opponent and the mover
then has a turn that wins at once (a pass by either side counts as a reply with no move).

Everything here is exact, not an estimate:

- arrival in one turn is decided by ``tactics.can_arrive`` (the character's open lines to the
  goal rank and the stone moves that put a stone on a landing square);
- a barrier win needs the opponent to own a barrier already (the mover cannot move the
  opponent's stones), so the turns are enumerated only then, and each end position is judged by
  the rules' own ``barrier.loses_to_barrier``.

Replies are enumerated by ``whole_turns.each_turn``, the same enumeration as ``turns.legal_turns``.
Refutations found for one candidate are tried first on the next ("killers"): most candidates
fall to the same few replies, so rejecting a turn usually costs a handful of positions and only
winning turns pay for the full enumeration. Work is counted in positions visited (``Budget``),
never in time. Pure: no I/O, no clock, no randomness.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .barrier import LOSING_TOUCHES, loses_to_barrier
from .board import EMPTY, NEIGHBOURS, PIT, SIZE
from .game import STONE_MOVES_PER_TURN, Sensei
from .moves import character_targets, stone_destinations
from .tactics import (GOAL_RANK, _first_stones, can_arrive, open_goal_squares, reach_cost,
                      touched_barrier)
from .whole_turns import Move, _after, _play_if_legal, each_turn, scored_turns, turn_start

Path = tuple[Move, ...]

#: killers remembered by a proof: refutations that beat earlier candidates
KILLERS = 4


class OutOfWork(Exception):
    """The position budget ran out before the question was settled."""


@dataclass
class Budget:
    """Positions a question may visit (``None``: no limit). ``spent`` counts them all."""
    limit: int | None = None
    spent: int = 0

    def spend(self, n: int = 1) -> None:
        self.spent += n
        if self.limit is not None and self.spent > self.limit:
            raise OutOfWork


# -- the end of a turn --------------------------------------------------------------------------
def turn_verdict(cells: list[int], seat: int) -> int:
    """The unfair-game verdict when ``seat`` ends its turn here: 1 ``seat`` wins, -1 it loses,
    0 the game goes on (the player who just moved loses when both are over the limit)."""
    # touched_barrier counts the same touches as the rules' worst_barrier, faster.
    mine = touched_barrier(cells, seat)
    if mine is not None and len(mine[1]) >= LOSING_TOUCHES:
        return -1
    theirs = touched_barrier(cells, 1 - seat)
    if theirs is not None and len(theirs[1]) >= LOSING_TOUCHES:
        return 1
    return 0


def _arrived(path: Path, seat: int) -> bool:
    return bool(path) and path[-1][0] == "character" and path[-1][2] // SIZE == GOAL_RANK[seat]


# -- wins in one turn ---------------------------------------------------------------------------
def wins_at_once(cells: list[int], characters: list[int], seat: int, slide: bool,
                 budget: Budget | None = None) -> bool:
    """Whether ``seat``, at the start of its turn, has a turn that wins at once."""
    if can_arrive(cells, seat, characters[seat], slide):
        return True
    return _barrier_win(cells, characters, seat, slide, budget) is not None


def winning_turn(cells: list[int], characters: list[int], seat: int, slide: bool,
                 budget: Budget | None = None) -> Path | None:
    """A turn that wins at once for ``seat`` (the shortest arrival when there is one), or None."""
    if can_arrive(cells, seat, characters[seat], slide):
        path = _arrival(cells, characters, seat, slide)
        if path is not None:
            return path
    return _barrier_win(cells, characters, seat, slide, budget)


def _arrival(cells: list[int], characters: list[int], seat: int, slide: bool) -> Path | None:
    """The arriving turn ``can_arrive`` promises: stone moves onto a landing square, then the
    jump."""
    at = characters[seat]
    best: Path | None = None
    for target in open_goal_squares(cells, seat, at):
        jump: Move = ("character", at, target)
        if cells[target] == seat:
            return (jump,)
        if reach_cost(cells, seat, at, target, slide) > 2:
            continue
        for frm in _own_stones(cells, seat, at):
            for to in stone_destinations(cells, frm, slide):
                if to == target:
                    return (("stone", frm, to), jump)
                if best is not None:
                    continue
                cells[frm], cells[to] = EMPTY, seat
                try:
                    for frm2 in _own_stones(cells, seat, at):
                        if target in stone_destinations(cells, frm2, slide):
                            best = (("stone", frm, to), ("stone", frm2, target), jump)
                            break
                finally:
                    cells[frm], cells[to] = seat, EMPTY
    return best


def _own_stones(cells: list[int], seat: int, at: int) -> list[int]:
    return [sq for sq in range(SIZE * SIZE) if cells[sq] == seat and sq != at]


def barrier_chains(cells: list[int], seat: int) -> list[tuple[int, ...]]:
    """Every barrier of ``seat`` (chains through the 7 files, consecutive files at most one rank
    apart), each as its squares by file."""
    columns = []
    for x in range(SIZE):
        column = [y * SIZE + x for y in range(SIZE) if cells[y * SIZE + x] in (seat, PIT)]
        if not column:
            return []
        columns.append(column)
    partial: list[tuple[int, ...]] = [()]
    for column in columns:
        partial = [chain + (sq,) for chain in partial for sq in column
                   if not chain or abs(sq // SIZE - chain[-1] // SIZE) <= 1]
        if not partial:
            return []
    return partial


def _touch_sets(cells: list[int], seat: int) -> list[frozenset[int]]:
    """Per barrier of ``seat``: the squares from which a stone touches it (next to a chain
    stone, never a pit), distinct sets only."""
    out = []
    for chain in barrier_chains(cells, seat):
        squares = frozenset(n for sq in chain if cells[sq] != PIT for n in NEIGHBOURS[sq]
                            if cells[n] != PIT and cells[n] != seat)
        if squares not in out:
            out.append(squares)
    return out


def _arrivals(cells: list[int], seat: int, fixed: int, targets: frozenset[int],
              slide: bool) -> list[Move]:
    """Single stone moves of ``seat`` (not the stone on ``fixed``) from outside ``targets``
    onto one of them."""
    busy = {fixed, *targets}
    return [("stone", sq, target) for target in targets if cells[target] == EMPTY
            for sq in _first_stones(cells, seat, target, slide, busy)]


def _barrier_win(cells: list[int], characters: list[int], seat: int, slide: bool,
                 budget: Budget | None) -> Path | None:
    """A turn ending with an opponent barrier touched by three of ``seat``'s stones (and its
    own barriers not), or None; exact.

    The character's jumps move no stone: they only decide which stone is held (the one under
    the character). A second stone move adds at most one touch, and only by arriving from
    outside the touching squares; so every winning turn is a first part (no move, or one stone
    move, with a jump before or after it or none) that leaves a barrier touched twice, then one
    such arrival, or a first part that already touches three times. Only those are tried.
    """
    opponent = 1 - seat
    sets = _touch_sets(cells, opponent)
    if not sets:
        return None
    work = list(cells)
    if max(sum(1 for sq in squares if work[sq] == seat) for squares in sets) < 1:
        return None
    at = characters[seat]
    goal = GOAL_RANK[seat]

    def jumps(fixed: int) -> list[int]:
        return [u for u in character_targets(work, seat, fixed) if u // SIZE != goal]

    def counts() -> list[int]:
        return [sum(1 for sq in squares if work[sq] == seat) for squares in sets]

    def finish(path: Path) -> Path | None:
        if budget is not None:
            budget.spend()
        if loses_to_barrier(work, opponent) and not loses_to_barrier(work, seat):
            return path
        return None

    def second(path: Path, holders: list[tuple[Path, int]]) -> Path | None:
        """After the first part ``path``: one more arrival, the character held on each of
        ``holders`` (a jump still to make, then the square it holds)."""
        now = counts()
        if max(now) >= 3:
            found = finish(path)
            if found is not None:
                return found
        for index, squares in enumerate(sets):
            if now[index] < 2:
                continue
            for jump, fixed in holders:
                for move in _arrivals(work, seat, fixed, squares, slide):
                    _, frm, to = move
                    work[frm], work[to] = EMPTY, seat
                    try:
                        found = finish(path + jump + (move,))
                    finally:
                        work[frm], work[to] = seat, EMPTY
                    if found is not None:
                        return found
        if max(now) >= 3:
            # Rare: three touches already, but a barrier of the mover's own loses too; any
            # second move might undo that.
            for jump, fixed in holders:
                for frm in _own_stones(work, seat, fixed):
                    for to in stone_destinations(work, frm, slide):
                        work[frm], work[to] = EMPTY, seat
                        try:
                            found = finish(path + jump + (("stone", frm, to),))
                        finally:
                            work[frm], work[to] = seat, EMPTY
                        if found is not None:
                            return found
        return None

    # No stone moved yet: the character may jump first (then it holds its new stone).
    starts: list[tuple[Path, int]] = [((), at)] + [((("character", at, u),), u) for u in jumps(at)]
    for prefix, fixed in starts:
        jumped = bool(prefix)
        holders = [((), fixed)]
        found = second(prefix, holders if jumped else holders + [
            ((("character", at, u),), u) for u in jumps(at)])
        if found is not None:
            return found
        for frm in _own_stones(work, seat, fixed):
            for to in stone_destinations(work, frm, slide):
                work[frm], work[to] = EMPTY, seat
                try:
                    path = prefix + (("stone", frm, to),)
                    if jumped:
                        later = [((), fixed)]
                    else:
                        later = [((), at)] + [((("character", at, u),), u) for u in jumps(at)]
                    found = second(path, later)
                finally:
                    work[frm], work[to] = seat, EMPTY
                if found is not None:
                    return found
    return None


# -- wins in two turns --------------------------------------------------------------------------
@dataclass
class Prover:
    """Proves or refutes turns of one position; remembers refutations across candidates."""
    slide: bool
    budget: Budget = field(default_factory=Budget)
    killers: list[Path] = field(default_factory=list)

    def refutation(self, cells: list[int], characters: list[int], seat: int,
                   path: Path) -> Path | None:
        """For ``seat`` playing ``path`` (a legal whole turn) from this position: None when it
        wins in two, else an opponent reply that beats it (``()`` when the turn itself loses or
        the opponent passes and ``seat`` then cannot win at once)."""
        after_cells, after_characters = _after(cells, characters, seat, path)
        if _arrived(path, seat):
            return None
        verdict = turn_verdict(after_cells, seat)
        if verdict:
            return None if verdict > 0 else ()
        return self.reply_refuting(after_cells, after_characters, seat)

    def reply_refuting(self, cells: list[int], characters: list[int], seat: int) -> Path | None:
        """``seat`` has just ended its turn here (the game goes on): an opponent reply after
        which ``seat`` has no win at once, or None when every reply leaves one."""
        opponent = 1 - seat
        for killer in self.killers:
            trial = _whole_turn_if_legal(cells, characters, opponent, self.slide, killer)
            if trial is None:
                continue
            self.budget.spend()
            if not self._answered(trial[0], trial[1], seat, killer):
                self._remember(killer)
                return killer
        found: list[Path] = []
        any_reply = [False]
        work_cells, work_characters = list(cells), list(characters)

        def visit(reply: Path, arrived: bool) -> bool:
            any_reply[0] = True
            self.budget.spend()
            if arrived or not self._answered(work_cells, work_characters, seat, reply):
                found.append(reply)
                return True
            return False

        each_turn(work_cells, work_characters, opponent, self.slide, STONE_MOVES_PER_TURN, True,
                  0, visit)
        if found:
            self._remember(found[0])
            return found[0]
        if not any_reply[0] and not wins_at_once(cells, characters, seat, self.slide, self.budget):
            return ()  # the opponent passes and the mover still cannot win
        return None

    def _answered(self, cells: list[int], characters: list[int], seat: int, reply: Path) -> bool:
        """After the opponent's ``reply`` (applied): whether ``seat`` wins anyway, by the reply's
        own verdict or by a win at once."""
        opponent = 1 - seat
        if _arrived(reply, opponent):
            return False
        verdict = turn_verdict(cells, opponent)
        if verdict:
            return verdict < 0
        return wins_at_once(cells, characters, seat, self.slide, self.budget)

    def _remember(self, reply: Path) -> None:
        if reply in self.killers:
            self.killers.remove(reply)
        self.killers.insert(0, reply)
        del self.killers[KILLERS:]

    def first_win(self, cells: list[int], characters: list[int], seat: int,
                  paths: list[Path]) -> Path | None:
        """The first of ``paths`` (legal whole turns from here) that wins in two, or None."""
        for path in paths:
            self.budget.spend()
            if self.refutation(cells, characters, seat, path) is None:
                return path
        return None

    def winning_turns(self, cells: list[int], characters: list[int], seat: int,
                      order: Callable[[list[Path]], list[Path]] | None = None,
                      first_only: bool = False) -> list[Path]:
        """Every turn (one per end position) that wins in two, in enumeration order, or only
        the first found when ``first_only``. Immediate wins count (they win in two as well)."""
        turns: list[Path] = []
        each_turn(list(cells), list(characters), seat, self.slide, STONE_MOVES_PER_TURN, True, 0,
                  lambda path, arrived: turns.append(path) or False)
        if order is not None:
            turns = order(turns)
        out: list[Path] = []
        for path in turns:
            self.budget.spend()
            if self.refutation(cells, characters, seat, path) is None:
                out.append(path)
                if first_only:
                    break
        return out


def forced_win(cells: list[int], characters: list[int], seat: int, slide: bool,
               budget: Budget | None = None) -> Path | None:
    """A turn that wins in two for ``seat`` (a win at once first), or None when there is none."""
    now = winning_turn(cells, characters, seat, slide, budget)
    if now is not None:
        return now
    prover = Prover(slide, budget or Budget())
    found = prover.winning_turns(cells, characters, seat, first_only=True)
    return found[0] if found else None


def _whole_turn_if_legal(cells: list[int], characters: list[int], seat: int, slide: bool,
                         path: Path) -> tuple[list[int], list[int]] | None:
    """``path`` applied when it is a legal whole turn here (not empty; an arrival ends it),
    else None."""
    goal = GOAL_RANK[seat]
    if not path or any(kind != "stone" and to // SIZE == goal for kind, _, to in path[:-1]):
        return None
    return _play_if_legal(cells, characters, seat, slide, path)


# -- hard's check -------------------------------------------------------------------------------
#: hard checks its best candidates by static score for a win in two against every reply
HARD_WIN_CANDIDATES = 100
#: positions that check may visit (the expert's is five times more)
HARD_WIN_POSITIONS = 8_000
#: hard's win-in-two answers by the position its turn started from (a memo, as the expert's
#: ``_DECIDED``: hard plans again at each action of its turn, the check runs once)
_WIN_IN_TWO: dict[tuple, Path | None] = {}
_WIN_IN_TWO_KEPT = 64


def hard_win_in_two(game: Sensei, seat: int,
                    paths: list[Path]) -> Path | None:
    """Hard's check: the rest of a whole turn that wins in two against every reply, found among
    the first ``HARD_WIN_CANDIDATES`` of ``paths`` (ways to finish the turn under way, best
    first) when the turn started here, and remembered for its later actions; None when there
    is none among them or ``HARD_WIN_POSITIONS`` ran out first."""
    done, cells, characters = turn_start(game, seat)
    key = (game.slide, tuple(cells), tuple(characters), seat)
    if key not in _WIN_IN_TWO:
        _WIN_IN_TWO[key] = _first_win_from_start(game, seat, cells, characters, done,
                                                 paths[:HARD_WIN_CANDIDATES])
        while len(_WIN_IN_TWO) > _WIN_IN_TWO_KEPT:
            del _WIN_IN_TWO[next(iter(_WIN_IN_TWO))]
    found = _WIN_IN_TWO[key]
    return found[len(done):] if found is not None and found[:len(done)] == done else None


def _first_win_from_start(game: Sensei, seat: int, cells: list[int], characters: list[int],
                          done: Path, paths: list[Path],
                          ) -> Path | None:
    if done:
        # A turn begun before this process saw it: decided from its start all the same, so
        # the answer never depends on what was remembered.
        start = game.copy()
        start.cells, start.characters, start.current = cells, characters, []
        ranked = sorted(scored_turns(start, seat), key=lambda item: -item[0])
        paths = [path for _, path in ranked[:HARD_WIN_CANDIDATES]]
    prover = Prover(game.slide, Budget(HARD_WIN_POSITIONS))
    try:
        return prover.first_win(cells, characters, seat, list(paths))
    except OutOfWork:
        return None
