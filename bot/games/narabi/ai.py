"""Narabi AI teammates.

An AI seat sees exactly what a careful human at that seat could know: the public view, the
conditions of the cards it holds now (the private view), the public history of switches and the
public questions and answers. Conditions it has never seen are never read: other cards'
conditions are *inferred*, one card at a time, from public evidence:

- the conditions that can be in play (the deck's; with 3 or 4 players three of them left the
  game with the removed stones, nobody knows which),
- every switch made: the card given away had a condition that allowed it,
- every answered question: "can you switch your card X with Y" constrains X's condition.

Each of these constrains a single card's condition, so a consistent world is a matching of the
unknown cards to distinct remaining conditions; worlds are sampled from those candidate sets.

Levels:
- easy: greedy on what the seat itself can do: the switch that leaves the fewest breakpoints,
  with some careless moves.
- medium: a few sampled worlds, each candidate switch followed by one round of teammates
  playing the greedy policy with that world's conditions; best average outcome.
- hard: the same with more worlds and candidates and a longer lookahead (two rounds), which
  sees whether teammates can actually finish what a switch starts.

Everything is a pure function of the view and the ``rng`` passed in; search budgets are counted
in rollouts and steps, never in time.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping, Sequence

from .conditions import allows
from .deck import DECK

CONDITIONS = tuple(DECK.conditions)
CONDITION_INDEX = {cond["id"]: k for k, cond in enumerate(CONDITIONS)}

#: value of a rollout that ends in defeat, in "switches used" units: worse than any win
DEFEAT = -100.0
#: switches one breakpoint is worth when a rollout stops before the ring is solved
BREAKPOINT_COST = 0.6


@dataclass(frozen=True)
class Level:
    worlds: int          # sampled condition assignments
    candidates: int      # own switches examined by rollouts (the rest are pruned statically)
    rounds: float        # lookahead, in rounds of the table
    careless: float      # chance of a uniformly random move (easy only)


LEVELS = {
    "easy": Level(worlds=0, candidates=0, rounds=0, careless=0.15),
    "medium": Level(worlds=6, candidates=6, rounds=1, careless=0.0),
    "hard": Level(worlds=16, candidates=10, rounds=2, careless=0.0),
}
# Hard already wins every deal the par solver can solve: expert plays as hard.
LEVELS["expert"] = LEVELS["hard"]


# ------------------------------------------------------------------------------ the table

@lru_cache(maxsize=32)
def _masks(cards: tuple[tuple[int, int | None, str], ...], seats: int
           ) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """masks[k][c][offset]: bit d set when condition k on card c allows taking card d from the
    player ``offset`` seats clockwise. Depends only on the public stones, so it is shared."""
    size = max(card for card, _, _ in cards) + 1
    out = []
    for cond in CONDITIONS:
        per_card: list[tuple[int, ...]] = [()] * size
        for c, c_number, _ in cards:
            per_card[c] = tuple(
                sum(1 << d for d, d_number, d_colour in cards
                    if d != c and allows(cond, c_number, d_number, d_colour, offset, seats))
                if offset else 0
                for offset in range(seats))
        out.append(tuple(per_card))
    return tuple(out)


class Table:
    """The public position in search-friendly form: a ring of card ids by position."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        public = view["public"]
        rows = public["rows"]
        self.seats: int = public["seats"]
        self.me: int = view["seat"]
        self.turn: int = public["turn"]
        self.max_turns: int = public["max_turns"]
        self.advanced: bool = bool(public["advanced"])
        self.ring: list[int] = [card["id"] for row in rows for card in row]
        self.owner: list[int] = [seat for seat, row in enumerate(rows) for _ in row]
        cards = sorted((card["id"], card["number"], card["colour"]) for row in rows for card in row)
        self.rank: list[int] = [-1] * (cards[-1][0] + 1)
        for card, number, _ in cards:
            self.rank[card] = -1 if number is None else number
        self.numbered = sum(1 for _, number, _ in cards if number is not None)
        self.masks = _masks(tuple(cards), self.seats)
        self.own = [tuple(p for p, s in enumerate(self.owner) if s == seat)
                    for seat in range(self.seats)]
        self.others = [tuple(p for p, s in enumerate(self.owner) if s != seat)
                       for seat in range(self.seats)]
        self.offset = [[(self.owner[q] - seat) % self.seats for q in range(len(self.ring))]
                       for seat in range(self.seats)]
        # This seat's own switches come from view["legal"], which already applies the
        # advanced-mode undo ban; only the switches imagined after it need ``last``.
        self.known = _own_conditions(view)

    def distance(self, ring: Sequence[int]) -> int:
        """Breakpoints in the better reading direction: neighbouring numbers (blanks skipped,
        circularly) that do not follow each other. Zero exactly when solved."""
        rank, n = self.rank, self.numbered
        seq = [rank[c] for c in ring if rank[c] >= 0]
        prev = seq[-1]
        up = down = 0
        for cur in seq:
            step = (cur - prev) % n
            if step != 1:
                up += 1
            if step != n - 1:
                down += 1
            prev = cur
        return min(up, down)

    def moves(self, ring: Sequence[int], seat: int, world: Sequence[int],
              last: tuple[int, int] | None) -> list[tuple[int, int]]:
        """Legal switches (own position, other position) for ``seat`` if ``world`` were true."""
        out = []
        masks, offset = self.masks, self.offset[seat]
        for p in self.own[seat]:
            c = ring[p]
            allowed = masks[world[c]][c]
            for q in self.others[seat]:
                if allowed[offset[q]] >> ring[q] & 1 and (
                        last is None or (min(p, q), max(p, q)) != last):
                    out.append((p, q))
        return out


def _own_conditions(view: Mapping[str, Any]) -> dict[int, int]:
    """Card id -> condition index for the cards this seat holds (a condition id the deck does
    not know, after a deck edit, stays unknown rather than guessed)."""
    out = {}
    for card in view.get("private", {}).get("cards", ()):
        k = CONDITION_INDEX.get(card.get("condition"))
        if k is not None:
            out[card["id"]] = k
    return out


def _swapped(ring: Sequence[int], p: int, q: int) -> list[int]:
    child = list(ring)
    child[p], child[q] = child[q], child[p]
    return child


# ------------------------------------------------------------------------------ inference

def _past_rings(table: Table, history: Sequence[Mapping[str, Any]]
                ) -> tuple[list[tuple[int, list[int], Mapping[str, Any]]], dict[int, list[int]]]:
    """Undo the public switches from the present ring backwards.

    Returns each switch with the ring just before it, and the ring after each turn (by turn
    number) as far back as the history reaches. A state saved before the history was kept has
    a shorter history than its turn count: then only the recent past is known.
    """
    switches = [e for e in history if e.get("action", {}).get("type") == "switch"]
    ring = list(table.ring)
    after: dict[int, list[int]] = {table.turn: list(ring)}
    before_each = []
    turn = table.turn
    for entry in reversed(switches):
        action = entry["action"]
        try:
            p, q = ring.index(action["card"]), ring.index(action["target"])
        except ValueError:
            break
        ring[p], ring[q] = ring[q], ring[p]
        turn -= 1
        after[turn] = list(ring)
        before_each.append((int(entry["seat"]), list(ring), action))
    before_each.reverse()
    return before_each, after


def candidate_conditions(table: Table, history: Sequence[Mapping[str, Any]],
                         questions: Sequence[Mapping[str, Any]] = ()) -> dict[int, int]:
    """For every card whose condition this seat cannot see: a bitmask of the conditions still
    consistent with the public evidence."""
    pool = (1 << len(CONDITIONS)) - 1
    for k in table.known.values():
        pool &= ~(1 << k)
    unknown = [c for c in table.ring if c not in table.known]
    cands = {c: pool for c in unknown}
    switches, after = _past_rings(table, history)
    for seat, ring, action in switches:
        c, d = action["card"], action["target"]
        if c in cands:
            offset = (table.owner[ring.index(d)] - seat) % table.seats
            cands[c] &= _conditions_where(table, c, d, offset, True)
    for question in questions:
        _apply_answer(table, cands, after, question)
    for c, mask in cands.items():
        if not mask:
            # Contradicting evidence (a mistaken answer): fall back to knowing nothing.
            cands[c] = pool
    return cands


def _conditions_where(table: Table, c: int, d: int, offset: int, allowed: bool) -> int:
    out = 0
    for k, per_card in enumerate(table.masks):
        if bool(per_card[c][offset] >> d & 1) == allowed:
            out |= 1 << k
    return out


def _apply_answer(table: Table, cands: dict[int, int], after: Mapping[int, list[int]],
                  question: Mapping[str, Any]) -> None:
    answer, ring = question.get("answer"), after.get(question.get("turn", -1))
    card, other, asked = question.get("card"), question.get("other"), question.get("asked")
    if answer is None or ring is None or card not in cands or other not in ring:
        return
    if card not in ring or table.owner[ring.index(card)] != asked:
        return
    holder = table.owner[ring.index(other)]
    if holder == asked:
        return
    cands[card] &= _conditions_where(table, card, other, (holder - asked) % table.seats,
                                     bool(answer))


def sample_world(table: Table, cands: Mapping[int, int], rng: random.Random,
                 tries: int = 20) -> list[int]:
    """One assignment card -> condition index: own conditions as seen, the others distinct
    and drawn from their candidate sets (most constrained first, restarting on a dead end)."""
    world = [0] * len(table.rank)
    for c, k in table.known.items():
        world[c] = k
    order = sorted(cands, key=lambda c: (bin(cands[c]).count("1"), rng.random()))
    free_all = (1 << len(CONDITIONS)) - 1
    for k in table.known.values():
        free_all &= ~(1 << k)
    for attempt in range(tries):
        free = free_all
        for c in order:
            options = cands[c] & free
            if not options:
                if attempt < tries - 1:
                    break
                options = free  # give up on this card's evidence rather than fail
            k = _pick_bit(options, rng)
            world[c] = k
            free &= ~(1 << k)
        else:
            return world
    return world


def _pick_bit(mask: int, rng: random.Random) -> int:
    bits = [k for k in range(mask.bit_length()) if mask >> k & 1]
    return rng.choice(bits)


# ------------------------------------------------------------------------------ planning

def _greedy(table: Table, ring: list[int], seat: int, world: Sequence[int],
            last: tuple[int, int] | None, tiebreak: Sequence[Sequence[float]]
            ) -> tuple[tuple[int, int] | None, int]:
    """The switch leaving the fewest breakpoints, ties broken by a fixed per-world order so
    that every candidate is judged against the same teammates."""
    best, best_key = None, None
    for p, q in table.moves(ring, seat, world, last):
        ring[p], ring[q] = ring[q], ring[p]
        gaps = table.distance(ring)
        ring[p], ring[q] = ring[q], ring[p]
        key = (gaps, tiebreak[p][q])
        if best_key is None or key < best_key:
            best, best_key = (p, q), key
    return best, (best_key[0] if best_key else -1)


def rollout(table: Table, world: Sequence[int], ring: list[int], seat: int,
            last: tuple[int, int] | None, used: int, steps: int,
            tiebreak: Sequence[Sequence[float]]) -> float:
    """Value (minus switches used, or DEFEAT) of the table playing greedily in ``world``."""
    ring = list(ring)
    turns_left = table.max_turns - table.turn - used
    for _ in range(min(steps, turns_left)):
        move, gaps = _greedy(table, ring, seat, world, last, tiebreak)
        if move is None:
            return DEFEAT
        p, q = move
        ring[p], ring[q] = ring[q], ring[p]
        used += 1
        if gaps == 0:
            return -float(used)
        last = (min(p, q), max(p, q)) if table.advanced else None
        seat = (seat + 1) % table.seats
    if used >= table.max_turns - table.turn:
        return DEFEAT
    return -(used + BREAKPOINT_COST * table.distance(ring))


def _action_pairs(table: Table, legal: Sequence[Mapping[str, Any]]
                  ) -> list[tuple[Mapping[str, Any], tuple[int, int]]]:
    ring = table.ring
    return [(a, (ring.index(a["card"]), ring.index(a["target"])))
            for a in legal if a.get("type") == "switch"]


def _static_order(table: Table, pairs: list[tuple[Mapping[str, Any], tuple[int, int]]],
                  rng: random.Random) -> list[tuple[int, Mapping[str, Any], tuple[int, int]]]:
    scored = [(table.distance(_swapped(table.ring, p, q)), rng.random(), a, (p, q))
              for a, (p, q) in pairs]
    scored.sort(key=lambda item: (item[0], item[1]))
    return [(gaps, a, pq) for gaps, _, a, pq in scored]


def sampled_worlds(table: Table, view: Mapping[str, Any], count: int,
                   rng: random.Random) -> list[list[int]]:
    cands = candidate_conditions(table, view.get("history") or (), view.get("questions") or ())
    return [sample_world(table, cands, rng) for _ in range(count)]


def value_matrix(table: Table, worlds: Sequence[Sequence[int]],
                 moves: Sequence[tuple[int, int]], steps: int, rng: random.Random
                 ) -> list[list[float]]:
    """values[m][w]: rollout value of own switch m in world w."""
    size = len(table.ring)
    tiebreaks = [[[rng.random() for _ in range(size)] for _ in range(size)] for _ in worlds]
    nxt = (table.me + 1) % table.seats
    values = []
    for p, q in moves:
        child = _swapped(table.ring, p, q)
        if table.distance(child) == 0:
            values.append([-1.0] * len(worlds))
            continue
        last = (min(p, q), max(p, q)) if table.advanced else None
        values.append([rollout(table, world, child, nxt, last, 1, steps - 1, tb)
                       for world, tb in zip(worlds, tiebreaks)])
    return values


@dataclass
class Plan:
    """Candidate switches with their rollout values in each sampled world."""

    table: Table
    actions: list[Mapping[str, Any]]
    gaps: list[int]                 # breakpoints right after each candidate
    worlds: list[list[int]]
    values: list[list[float]]       # values[m][w]

    def means(self) -> list[float]:
        return [sum(v) / len(v) for v in self.values]

    def best(self) -> Mapping[str, Any]:
        means = self.means()
        # Equal values: prefer the switch that looks better now, then the earlier (random) rank.
        pick = max(range(len(self.actions)), key=lambda i: (means[i], -self.gaps[i], -i))
        return self.actions[pick]


def plan(view: Mapping[str, Any], settings: Level, rng: random.Random) -> Plan | None:
    """Rollout values of the most promising own switches; None when there is nothing to weigh
    (no switch, or one that solves the ring at once)."""
    table = Table(view)
    pairs = _action_pairs(table, view.get("legal") or ())
    if not pairs:
        return None
    ordered = _static_order(table, pairs, rng)[:max(1, settings.candidates)]
    if ordered[0][0] == 0:
        return None
    worlds = sampled_worlds(table, view, settings.worlds, rng)
    steps = max(2, round(settings.rounds * table.seats))
    values = value_matrix(table, worlds, [pq for _, _, pq in ordered], steps, rng)
    return Plan(table, [a for _, a, _ in ordered], [g for g, _, _ in ordered], worlds, values)


def choose(view: Mapping[str, Any], level: str, rng: random.Random) -> dict[str, Any]:
    legal = list(view["legal"])
    settings = LEVELS.get(level, LEVELS["hard"])
    if settings.careless and rng.random() < settings.careless:
        return dict(rng.choice(legal))
    found = plan(view, settings, rng) if settings.worlds else None
    if found is not None:
        return dict(found.best())
    table = Table(view)
    pairs = _action_pairs(table, legal)
    return dict(_static_order(table, pairs, rng)[0][1]) if pairs else dict(rng.choice(legal))


# ------------------------------------------------------------------------------ asking

def answer_question(view: Mapping[str, Any], question: Mapping[str, Any]) -> bool:
    """The truthful answer to "can you switch your card ``card`` with ``other``": what the
    condition of this seat's own card says (False when the question does not fit the table:
    the card is not ours, or ``other`` is ours as well)."""
    seat, public = view["seat"], view["public"]
    mine = {card["id"]: card for card in view.get("private", {}).get("cards", ())}
    card = mine.get(question.get("card"))
    holder, other = None, None
    for s, row in enumerate(public["rows"]):
        for entry in row:
            if entry["id"] == question.get("other"):
                holder, other = s, entry
    if card is None or other is None or holder == seat:
        return False
    k = CONDITION_INDEX.get(card.get("condition"))
    if k is None:
        return False
    return allows(CONDITIONS[k], card["number"], other["number"], other["colour"],
                  (holder - seat) % public["seats"], public["seats"])


def choose_question(view: Mapping[str, Any], level: str,
                    rng: random.Random) -> dict[str, Any] | None:
    """The question whose answer would most change this seat's choice of switch, or None.

    Value of information on the sampled worlds: split them by the answer each would give, take
    the best switch in each part, and compare with the best switch over all of them. A question
    that would change nothing (or is already answered) is not worth a teammate's time.
    """
    settings = LEVELS.get(level, LEVELS["hard"])
    public = view["public"]
    if not settings.worlds or not public.get("asking_allowed") or public.get("finished"):
        return None
    if public.get("to_move") != view["seat"]:
        return None
    found = plan(view, settings, rng)
    if found is None or len(found.actions) < 2:
        return None
    asked_already = _already_asked(view)
    best, best_gain = None, 1e-9
    for card, other in _possible_questions(found.table):
        if (card, other) in asked_already:
            continue
        gain = _information_value(found, card, other)
        if gain > best_gain:
            best, best_gain = {"card": card, "other": other}, gain
    return best


def _already_asked(view: Mapping[str, Any]) -> set[tuple[int, int]]:
    turn = view["public"]["turn"]
    return {(q.get("card"), q.get("other")) for q in view.get("questions") or ()
            if q.get("turn") == turn}


def _possible_questions(table: Table) -> list[tuple[int, int]]:
    """(card, other): a card another seat holds, and any card its holder does not hold."""
    return [(card, other)
            for p, card in enumerate(table.ring) if table.owner[p] != table.me
            for q, other in enumerate(table.ring) if table.owner[q] != table.owner[p]]


def _information_value(found: Plan, card: int, other: int) -> float:
    table = found.table
    asked = table.owner[table.ring.index(card)]
    offset = (table.owner[table.ring.index(other)] - asked) % table.seats
    yes = [bool(table.masks[w[card]][card][offset] >> other & 1) for w in found.worlds]
    if all(yes) or not any(yes):
        return 0.0
    split = 0.0
    for answer in (True, False):
        part = [i for i, said in enumerate(yes) if said == answer]
        split += len(part) / len(yes) * max(sum(v[i] for i in part) / len(part)
                                            for v in found.values)
    return split - max(found.means())
