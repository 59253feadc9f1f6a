"""What the FIDE Dutch system (C.04.3) needs to know of each player, read from the games
already played: score, colour history and preference (A.6), floats (A.4), byes and forfeit
wins (C.2), opponents (C.1); and the colour allocation of a pair (section E).

Colours: +1 is white (seat 0 moves first), -1 black. A forfeited game counts for the score
only: the two did not meet, it gives no colour, the winner gets a downfloat (he did not play
but scored) and counts as having had a forfeit win. A pairing-allocated bye is a downfloat.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

ABSOLUTE, STRONG, MILD, NONE = 3, 2, 1, 0
DOWN, UP = "d", "u"


@dataclass
class DutchPlayer:
    id: int
    pn: int                      # pairing number (the starting rank)
    score: float = 0.0
    colours: list[int] = field(default_factory=list)   # played games only, oldest first
    floats: dict[int, str] = field(default_factory=dict)  # round → DOWN / UP
    opponents: set[int] = field(default_factory=set)
    byes: int = 0                # pairing-allocated byes
    forfeit_wins: int = 0
    topscorer: bool = False
    # filled by ``settle``
    diff: int = 0
    pref: int = 0                # +1 wants white, -1 black, 0 none
    strength: int = NONE
    repeated: int = 0            # the colour of the last two games when they were the same

    def settle(self) -> None:
        c = self.colours
        self.diff = sum(c)
        self.repeated = c[-1] if len(c) >= 2 and c[-1] == c[-2] else 0
        if not c:
            self.pref, self.strength = 0, NONE
        elif self.repeated:
            self.pref, self.strength = -self.repeated, ABSOLUTE
        elif abs(self.diff) >= 2:
            self.pref, self.strength = (-1 if self.diff > 0 else 1), ABSOLUTE
        elif self.diff:
            self.pref, self.strength = -self.diff, STRONG
        else:
            self.pref, self.strength = -c[-1], MILD

    @property
    def bye_eligible(self) -> bool:
        return self.byes == 0 and self.forfeit_wins == 0


def read_history(entrants: Iterable[tuple[int, int]], played: Iterable, round_no: int,
                 rounds: int | None) -> list[DutchPlayer]:
    """The players ``(id, pairing number)`` still in, with what ``played`` says of them."""
    games = [g for g in played if g.round < round_no]
    players = {pid: DutchPlayer(pid, pn) for pid, pn in entrants}
    everyone: dict[int, float] = {}
    by_round: dict[int, list] = {}
    for g in games:
        by_round.setdefault(g.round, []).append(g)
    for rnd in sorted(by_round):
        before = dict(everyone)
        for g in by_round[rnd]:
            points = g.points or tuple(0.0 for _ in g.seats)
            for pid, pts in zip(g.seats, points):
                everyone[pid] = everyone.get(pid, 0.0) + pts
            if len(g.seats) == 1:
                p = players.get(g.seats[0])
                if p is not None:
                    p.byes += 1
                    p.floats[rnd] = DOWN
                continue
            if len(g.seats) != 2:
                continue
            forfeit = getattr(g, "forfeit", False)
            for seat, pid in enumerate(g.seats):
                p = players.get(pid)
                if p is None:
                    continue
                other = g.seats[1 - seat]
                if forfeit:
                    if g.points is not None and points[seat] > 0:
                        p.forfeit_wins += 1
                        p.floats[rnd] = DOWN
                    continue
                p.opponents.add(other)
                p.colours.append(1 if seat == 0 else -1)
                mine, theirs = before.get(pid, 0.0), before.get(other, 0.0)
                if mine > theirs:
                    p.floats[rnd] = DOWN
                elif mine < theirs:
                    p.floats[rnd] = UP
    final = rounds is not None and round_no >= rounds
    for p in players.values():
        p.score = everyone.get(p.id, 0.0)
        p.settle()
        # A.7: topscorers exist only when pairing the final round.
        p.topscorer = final and p.score > (round_no - 1) / 2
    return list(players.values())


def colour_rank(p: DutchPlayer) -> tuple[float, int]:
    return -p.score, p.pn


def allocate(a: DutchPlayer, b: DutchPlayer, initial: int,
             by_pairing_number: bool = False) -> tuple[DutchPlayer, DutchPlayer]:
    """(white, black) for the pair by E.1–E.5; ``initial`` is the initial colour (+1 white)
    drawn by lot for E.5. The higher ranked player is the higher by score, then pairing
    number (A.2); ``by_pairing_number`` ranks by pairing number alone, as caissify-pairings
    does (used only to explain its colours in the cross-check)."""
    if by_pairing_number:
        hi, lo = (a, b) if a.pn < b.pn else (b, a)
    else:
        hi, lo = (a, b) if colour_rank(a) <= colour_rank(b) else (b, a)

    def give(p: DutchPlayer, colour: int) -> tuple[DutchPlayer, DutchPlayer]:
        other = lo if p is hi else hi
        return (p, other) if colour > 0 else (other, p)

    # E.1 both preferences
    if hi.pref and lo.pref and hi.pref != lo.pref:
        return give(hi, hi.pref)
    # E.2 the stronger preference; both absolute: the wider colour difference
    if hi.strength != lo.strength:
        strong = hi if hi.strength > lo.strength else lo
        return give(strong, strong.pref)
    if hi.strength and hi.pref == lo.pref and abs(hi.diff) != abs(lo.diff):
        wide = hi if abs(hi.diff) > abs(lo.diff) else lo
        return give(wide, wide.pref)
    # E.3 alternate to the most recent round in which they had different colours
    for x, y in zip(reversed(hi.colours), reversed(lo.colours)):
        if x != y:
            return give(hi, -x)
    # E.4 the higher ranked player's preference
    if hi.pref:
        return give(hi, hi.pref)
    # E.5 by the higher ranked player's pairing number
    return give(hi, initial if hi.pn % 2 else -initial)


def pair_colours(pairs: Sequence[tuple[DutchPlayer, DutchPlayer]],
                 initial: int) -> list[tuple[DutchPlayer, DutchPlayer]]:
    return [allocate(a, b, initial) for a, b in pairs]
