"""Cross-check the bot's FIDE Dutch pairing against caissify-pairings (a Python Dutch engine
checked against bbpPairings, the FIDE-endorsed program) on random tournaments.

    python -m bot.tools.dutch_check --tournaments 50 --players 10..40 --rounds 9 --seed 1

Every round of every tournament is paired by both from the same history (random results with
draws, some forfeits, some withdrawals, odd and even counts); the pairs and their colours are
compared. The bot's pairing is then played on. Needs caissify-pairings (installed with the bot).
"""
from __future__ import annotations

import argparse
import random
import time
from typing import Any

from ..tournaments.dutch import STATS, dutch_round, initial_colour
from ..tournaments.dutch_players import allocate, read_history
from ..tournaments.pairing import Entrant, Played
from ..tournaments.reference import reference_round


def oracle_round(entrants: list[Entrant], played: list[Played], round_no: int, rounds: int,
                 seed: int) -> list[tuple[int, ...]] | None:
    """The reference library's round (``bot.tournaments.reference``), whatever its size;
    None when it finds no legal pairing (``reference_round`` refuses the rounds it pairs
    anyway with several byes, a second bye or a rematch)."""
    try:
        import caissify_pairings  # noqa: F401
    except ImportError as exc:
        raise RuntimeError("the cross-check needs caissify-pairings (a dependency of the bot)") from exc
    return reference_round(entrants, played, round_no, rounds, seed)


def _play(tables, round_no: int, rng: random.Random) -> list[Played]:
    games = []
    for board, seats in enumerate(tables, start=1):
        if len(seats) == 1:
            games.append(Played(round_no, board, seats, (1.0,)))
            continue
        roll = rng.random()
        if roll < 0.03:
            winner = rng.randrange(2)
            points = (1.0, 0.0) if winner == 0 else (0.0, 1.0)
            games.append(Played(round_no, board, seats, points, forfeit=True))
            continue
        points = (0.5, 0.5) if roll < 0.2 else (1.0, 0.0) if roll < 0.6 else (0.0, 1.0)
        games.append(Played(round_no, board, seats, points))
    return games


def compare(ours, theirs) -> tuple[bool, bool]:
    """(same pairs and bye, same colours too)"""
    pairs = lambda ts: {frozenset(t) for t in ts}  # noqa: E731
    return pairs(ours) == pairs(theirs), set(ours) == set(theirs)


def check(tournaments: int, low: int, high: int, rounds: int, seed: int,
          show: int = 3) -> dict[str, Any]:
    rng = random.Random(seed)
    checked = pair_diff = colour_diff = colour_by_pn = both_none = 0
    dumps: list[str] = []
    ours_s = theirs_s = 0.0
    for t in range(tournaments):
        n = rng.randint(low, high)
        people = [Entrant(1000 + i, i) for i in range(1, n + 1)]
        played: list[Played] = []
        tseed = rng.randrange(1 << 30)
        for round_no in range(1, min(rounds, n - 1) + 1):
            if round_no > 1 and rng.random() < 0.15 and len(people) > 4:
                people = [p for p in people if p is not rng.choice(people)]
            started = time.perf_counter()
            ours = dutch_round(people, played, round_no, rounds, tseed)
            ours_s += time.perf_counter() - started
            started = time.perf_counter()
            theirs = oracle_round(people, played, round_no, rounds, tseed)
            theirs_s += time.perf_counter() - started
            checked += 1
            if ours is None or theirs is None:
                # No legal pairing: the same answer when neither finds one.
                if ours is None and theirs is None:
                    both_none += 1
                else:
                    pair_diff += 1
                    if len(dumps) < show:
                        who = "ours" if ours is None else "the oracle"
                        dumps.append(f"tournament {t} round {round_no}: {who} found no "
                                     "pairing")
                if ours is None:
                    break
                played += _play(ours, round_no, rng)
                continue
            same_pairs, same_colours = compare(ours, theirs)
            if not same_pairs:
                pair_diff += 1
            elif not same_colours:
                if set(theirs) == set(_by_pairing_number(people, played, round_no, rounds,
                                                         tseed, ours)):
                    colour_by_pn += 1
                    same_colours = True
                else:
                    colour_diff += 1
            if (not same_pairs or not same_colours) and len(dumps) < show:
                dumps.append(_dump(t, round_no, rounds, people, played, ours, theirs))
            played += _play(ours, round_no, rng)
    return {"rounds_checked": checked, "pair_discrepancies": pair_diff,
            "colour_only_discrepancies": colour_diff,
            "colours_ranked_by_pairing_number": colour_by_pn,
            "neither_could_pair": both_none, "ours_s": round(ours_s, 2),
            "oracle_s": round(theirs_s, 2), "bounded_paths": dict(STATS), "dumps": dumps}


def _by_pairing_number(people, played, round_no, rounds, seed, ours):
    """Our pairs, their colours allocated with the higher ranked player of E.2–E.5 taken by
    pairing number alone (caissify-pairings' reading; FIDE's A.2 ranks by score first)."""
    players = {p.id: p for p in read_history([(e.id, e.rank) for e in people], played,
                                             round_no, rounds)}
    colour = initial_colour(seed)
    out = []
    for t in ours:
        if len(t) == 1:
            out.append(t)
            continue
        w, b = allocate(players[t[0]], players[t[1]], colour, by_pairing_number=True)
        out.append((w.id, b.id))
    return out


def _dump(t, round_no, rounds, people, played, ours, theirs) -> str:
    players = read_history([(e.id, e.rank) for e in people], played, round_no, rounds)
    players.sort(key=lambda p: (-p.score, p.pn))
    lines = [f"tournament {t}, round {round_no} of {rounds}:"]
    for p in players:
        cols = "".join("W" if c > 0 else "B" for c in p.colours)
        fl = "".join(p.floats.get(r, "-") for r in range(1, round_no))
        lines.append(f"  {p.id} pn{p.pn} {p.score:g} col={cols or '-'} floats={fl} "
                     f"bye={p.byes} ff={p.forfeit_wins} met={sorted(p.opponents)}")
    lines.append(f"  ours:   {ours}")
    lines.append(f"  oracle: {theirs}")
    only_ours = {frozenset(x) for x in ours} - {frozenset(x) for x in theirs}
    only_theirs = {frozenset(x) for x in theirs} - {frozenset(x) for x in ours}
    lines.append(f"  only ours: {[tuple(sorted(x)) for x in only_ours]}  only oracle: "
                 f"{[tuple(sorted(x)) for x in only_theirs]}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=50)
    parser.add_argument("--players", default="10..40")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=3)
    args = parser.parse_args(argv)
    low, _, high = args.players.partition("..")
    report = check(args.tournaments, int(low), int(high or low), args.rounds, args.seed,
                   args.show)
    for dump in report.pop("dumps"):
        print(dump)
    print(f"rounds checked: {report['rounds_checked']}, pair discrepancies: "
          f"{report['pair_discrepancies']}, colour-only discrepancies: "
          f"{report['colour_only_discrepancies']} (and "
          f"{report['colours_ranked_by_pairing_number']} rounds whose colours differ only "
          f"because the oracle ranks by pairing number alone in E.2–E.5); neither could pair: "
          f"{report['neither_could_pair']}")
    print(f"time: ours {report['ours_s']} s, oracle {report['oracle_s']} s; bounded paths: "
          f"{report['bounded_paths']}")


if __name__ == "__main__":
    main()
