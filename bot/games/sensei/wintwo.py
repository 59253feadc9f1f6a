"""Exact wins in one and two turns: the verifier behind puzzles, the expert and the review.

A turn wins *at once* when it arrives (the character lands on the goal rank) or ends with the
opponent's barrier touched by three stones while the mover's own is not. A turn ``T`` *wins in
two* when it wins at once, or when the game goes on and, for every reply ``R`` the opponent can
end its turn with (each distinct position), ``R`` does not win for the opponent and the mover
then has a turn that wins at once (a pass by either side counts as a reply with no move).

Everything here is exact, not an estimate:

- arrival in one turn is decided by ``search.can_arrive`` (the character's open lines to the
  goal rank and the stone moves that put a stone on a landing square);
- a barrier win needs the opponent to own a barrier already (the mover cannot move the
  opponent's stones), so the turns are enumerated only then, and each end position is judged by
  the rules' own ``barrier.loses_to_barrier``.

Replies are enumerated by ``search.each_turn``, the same enumeration as ``turns.legal_turns``.
Refutations found for one candidate are tried first on the next ("killers"): most candidates
fall to the same few replies, so rejecting a turn usually costs a handful of positions and only
winning turns pay for the full enumeration. Work is counted in positions visited (``Budget``),
never in time. Pure: no I/O, no clock, no randomness.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .barrier import loses_to_barrier
from .board import EMPTY, PIT, SIZE
from .game import STONE_MOVES_PER_TURN
from .moves import character_targets, stone_destinations
from .search import GOAL_RANK, Move, can_arrive, each_turn, open_goal_squares, reach_cost

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
def has_barrier(cells: list[int], seat: int) -> bool:
    """Whether ``seat`` owns a barrier at all (a chain through every file, touched or not)."""
    reach = None
    for x in range(SIZE):
        rows = {y for y in range(SIZE) if cells[y * SIZE + x] in (seat, PIT)}
        if reach is not None:
            rows = {y for y in rows if y in reach or y - 1 in reach or y + 1 in reach}
        if not rows:
            return False
        reach = rows
    return True


def turn_verdict(cells: list[int], seat: int) -> int:
    """The unfair-game verdict when ``seat`` ends its turn here: 1 ``seat`` wins, -1 it loses,
    0 the game goes on (the player who just moved loses when both are over the limit)."""
    if loses_to_barrier(cells, seat):
        return -1
    if loses_to_barrier(cells, 1 - seat):
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
    if not has_barrier(cells, 1 - seat):
        return False
    return _barrier_win(cells, characters, seat, slide, budget) is not None


def winning_turn(cells: list[int], characters: list[int], seat: int, slide: bool,
                 budget: Budget | None = None) -> Path | None:
    """A turn that wins at once for ``seat`` (the shortest arrival when there is one), or None."""
    if can_arrive(cells, seat, characters[seat], slide):
        path = _arrival(cells, characters, seat, slide)
        if path is not None:
            return path
    if not has_barrier(cells, 1 - seat):
        return None
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


def _barrier_win(cells: list[int], characters: list[int], seat: int, slide: bool,
                 budget: Budget | None) -> Path | None:
    found: list[Path] = []
    opponent = 1 - seat

    def visit(path: Path, arrived: bool) -> bool:
        if budget is not None:
            budget.spend()
        if arrived or (loses_to_barrier(cells, opponent) and not loses_to_barrier(cells, seat)):
            found.append(path)
            return True
        return False

    each_turn(list(cells), list(characters), seat, slide, STONE_MOVES_PER_TURN, True, 0, visit)
    return found[0] if found else None


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
        after_cells, after_characters = _play(cells, characters, seat, path)
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
            trial = _play_if_legal(cells, characters, opponent, self.slide, killer)
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


def _play(cells: list[int], characters: list[int], seat: int,
          path: Path) -> tuple[list[int], list[int]]:
    cells, characters = list(cells), list(characters)
    for kind, frm, to in path:
        if kind == "stone":
            cells[frm], cells[to] = EMPTY, seat
        else:
            characters[seat] = to
    return cells, characters


def _play_if_legal(cells: list[int], characters: list[int], seat: int, slide: bool,
                   path: Path) -> tuple[list[int], list[int]] | None:
    """``path`` applied when it is a legal whole turn here, else None."""
    if not path:
        return None
    cells, characters = list(cells), list(characters)
    stones = jumps = 0
    goal = GOAL_RANK[seat]
    for index, (kind, frm, to) in enumerate(path):
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
            if to // SIZE == goal and index != len(path) - 1:
                return None
    return cells, characters
