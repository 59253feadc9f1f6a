"""The puzzle API (bot/games/puzzles.py): every shipped puzzle verified, answers judged, hints,
puzzles cut from a reviewed game, and the losing-turn warning (bot/games/warnings.py)."""
from __future__ import annotations

import pytest

from bot.games import puzzles
from bot.games.narabi import puzzle as narabi_puzzle
from bot.games.puzzles import Puzzle
from bot.games.sensei import Sensei, legal_turns, play_turn
from bot.games.sensei import puzzle as sensei_puzzle
from bot.games.sensei.whole_turns import each_turn
from bot.games.sensei.wintwo import turn_verdict
from bot.games.warnings import losing_turn

END = {"type": "end_turn"}


def _any_win_at_once(game: Sensei, seat: int) -> bool:
    cells, characters = list(game.cells), list(game.characters)
    found = [False]

    def visit(path, arrived):
        if arrived or turn_verdict(cells, seat) > 0:
            found[0] = True
        return found[0]

    each_turn(cells, characters, seat, game.slide, 2, True, 0, visit)
    return found[0]


# -- the shipped sets ------------------------------------------------------------------------
def test_the_built_in_sets_are_large_enough_and_ids_are_stable():
    sensei, narabi = puzzles.ids("sensei"), puzzles.ids("narabi")
    assert len(sensei) >= 500 and len(narabi) >= 200
    assert sensei[:3] == ["sensei:1", "sensei:2", "sensei:3"]
    assert len(set(sensei)) == len(sensei)
    with pytest.raises(puzzles.UnknownPuzzle):
        puzzles.load("sensei:999999")


def _shown(puzzle: Puzzle) -> str:
    """What a puzzle puts in front of the solver: the position (not how or when it was
    reached) and the seat to play."""
    import json
    state = dict(puzzle.state)
    for how_reached in ("turn", "history", "last_turn", "draw_offer", "current", "result"):
        state.pop(how_reached, None)
    return json.dumps({"state": state, "seat": puzzle.seat}, sort_keys=True)


@pytest.mark.parametrize("game", ["sensei", "narabi", "sarena", "sensei-set"])
def test_no_position_is_shipped_twice(game):
    if game == "sensei-set":
        from bot.tools.win_in_two import load_set
        shipped = load_set()
    else:
        shipped = [puzzles.load(pid) for pid in puzzles.ids(game)]
    first: dict[str, str] = {}
    repeats = []
    for puzzle in shipped:
        key = _shown(puzzle)
        if key in first:
            repeats.append((first[key], puzzle.id))
        first.setdefault(key, puzzle.id)
    assert len(shipped) >= 200 and repeats == []


#: the shipped Sensei positions are verified in slices, so that test workers share the work
SLICES = 6


@pytest.mark.slow
@pytest.mark.parametrize("part", range(SLICES))
def test_every_shipped_sensei_puzzle_wins_in_two_against_every_reply(part):
    """The exhaustive check: the shipped turn, against every reply the opponent has, leaves a
    win at once; and the position itself has none (a two-turn puzzle)."""
    ids = puzzles.ids("sensei")[part::SLICES]
    failures = {pid: why for pid in ids
                if (why := sensei_puzzle.verify(puzzles.load(pid))) is not None}
    assert ids and failures == {}


@pytest.mark.slow
@pytest.mark.parametrize("part", range(SLICES // 2))
def test_every_position_of_the_win_in_two_test_set_is_verified(part):
    from bot.tools.win_in_two import load_set
    rows = load_set()
    assert len(rows) >= 200
    mine = rows[part::SLICES // 2]
    failures = {p.id: why for p in mine if (why := sensei_puzzle.verify(p)) is not None}
    assert failures == {}


@pytest.mark.slow
def test_every_shipped_narabi_puzzle_is_solved_in_its_par_and_no_fewer():
    failures = {pid: why for pid in puzzles.ids("narabi")
                if (why := narabi_puzzle.verify(puzzles.load(pid))) is not None}
    assert failures == {}


def test_a_puzzle_round_trips_through_json():
    puzzle = puzzles.load("sensei:5")
    assert Puzzle.from_json(puzzle.to_json()) == puzzle
    assert isinstance(puzzle.position(), Sensei)
    assert puzzle.position().to_move == puzzle.seat


# -- Sensei answers --------------------------------------------------------------------------
def test_the_shipped_answer_is_solved_typed_or_clicked():
    puzzle = puzzles.load("sensei:3")
    assert puzzles.check(puzzle, puzzle.solution + [END]).status == "solved"
    partial = puzzles.check(puzzle, puzzle.solution[:1])
    solution_done = puzzle.position()
    for action in puzzle.solution:
        solution_done.apply(puzzle.seat, action)
    if solution_done.result() is None and len(puzzle.solution) < 3:
        assert puzzles.check(puzzle, puzzle.solution).status == "incomplete"
    assert partial.status in ("incomplete", "solved")


def test_a_wrong_turn_gets_a_reply_that_really_beats_it():
    puzzle = puzzles.load("sensei:4")
    game = puzzle.position()
    seat = puzzle.seat
    wrong = 0
    for turn in legal_turns(game)[:25]:
        verdict = puzzles.check(puzzle, turn + [END])
        assert verdict.status in ("solved", "wrong")
        if verdict.status == "solved":
            continue
        wrong += 1
        trial = game.copy()
        play_turn(trial, seat, turn)
        if verdict.reason == "loses_at_once":
            assert trial.result() is not None and seat not in trial.result().winners
            continue
        assert trial.result() is None
        play_turn(trial, 1 - seat, verdict.refutation)
        if verdict.reason == "reply_wins":
            assert trial.result().winners == (1 - seat,)
        else:
            assert verdict.reason == "no_win_after_reply"
            assert trial.result() is None and not _any_win_at_once(trial, seat)
    assert wrong > 5


def test_an_illegal_action_is_refused_with_the_rules_code():
    puzzle = puzzles.load("sensei:1")
    verdict = puzzles.check(puzzle, [{"type": "stone", "from": "a1", "to": "g7"}])
    assert verdict.status == "illegal" and verdict.error["code"]


def test_the_hint_names_the_first_piece_of_the_solution():
    puzzle = puzzles.load("sensei:1")
    hint = puzzles.hint(puzzle)
    assert hint == {"code": "sensei.first_piece", "kind": puzzle.solution[0]["type"],
                    "square": puzzle.solution[0]["from"]}


# -- Narabi answers --------------------------------------------------------------------------
def test_narabi_par_line_solves_a_prefix_is_incomplete_and_a_detour_is_wrong():
    puzzle = puzzles.load("narabi:1")
    assert puzzles.check(puzzle, puzzle.solution).status == "solved"
    assert puzzles.check(puzzle, puzzle.solution[:1]).status == "incomplete"
    game = puzzle.position()
    verdicts = set()
    for action in game.legal_actions(game.active):
        verdict = puzzles.check(puzzle, [action])
        verdicts.add(verdict.status)
        if verdict.status == "wrong":
            assert verdict.reason == "par_out_of_reach" and verdict.line == puzzle.solution
    assert "wrong" in verdicts and "incomplete" in verdicts
    assert puzzles.hint(puzzle)["card"] == puzzle.solution[0]["card"]


# -- the losing-turn warning -----------------------------------------------------------------
def _barrier_trap() -> Sensei:
    # Green's stones a2-f2 and g4; red touches a2, b2 and c2 from above. g4-g2 completes green's
    # barrier next to three red stones: green loses when the turn ends.
    return Sensei.from_json({
        "options": {"version": "arashi"},
        "stones": [["a2", "b2", "c2", "d2", "e2", "f2", "g4"], ["a3", "b3", "c3", "d7", "e7", "f7", "g7"]],
        "characters": ["d2", "d7"], "active": 0, "first": 0, "turn": 9, "current": [],
        "last_turn": None, "draw_offer": None, "result": None})


def test_a_turn_completing_a_touched_barrier_is_flagged_with_what_the_board_shows():
    game = _barrier_trap()
    move = {"type": "stone", "from": "g4", "to": "g2"}
    warning = losing_turn(game, 0, [move, END])
    assert warning == {"code": "unfair_barrier", "params": {
        "barrier": ["a2", "b2", "c2", "d2", "e2", "f2", "g2"], "touching": ["a3", "b3", "c3"],
        "count": 3, "both": False}}
    assert game.to_json()["stones"][0][-1] == "g4"  # the game itself is untouched
    # Not yet: the turn is not over after the move alone.
    assert losing_turn(game, 0, [move]) is None
    # Once the move is made, ending the turn is what loses.
    game.apply(0, move)
    assert losing_turn(game, 0, [END])["code"] == "unfair_barrier"


def test_harmless_and_illegal_turns_and_other_games_are_not_flagged():
    game = _barrier_trap()
    assert losing_turn(game, 0, [{"type": "stone", "from": "g4", "to": "g5"}, END]) is None
    assert losing_turn(game, 0, [{"type": "stone", "from": "a2", "to": "a7"}, END]) is None
    from bot.games.narabi.rules import Narabi
    narabi = Narabi.new(3, {}, 1)
    assert losing_turn(narabi, narabi.active, narabi.legal_actions(narabi.active)[:1]) is None


# -- puzzles from a reviewed game ------------------------------------------------------------
@pytest.mark.slow
def test_a_blunder_that_missed_a_win_in_two_becomes_a_puzzle():
    from bot.games.sensei.review import review
    seed, log, missed_at = _game_with_a_missed_win()
    options = {"version": "arashi", "first": "green"}
    data = review(2, options, seed, log, nodes=2_000)
    graded = {t["first"]: t for t in data["turns"]}
    assert graded[missed_at]["grade"] == "blunder"
    found = puzzles.from_review("sensei", 2, options, seed, log, data, game_id=77)
    mine = [p for p in found if p.source["turn_index"] == missed_at]
    assert len(mine) == 1
    puzzle = mine[0]
    assert puzzle.id == f"sensei:g:77:{missed_at}" and puzzle.source["game_id"] == 77
    assert sensei_puzzle.verify(puzzle) is None
    assert puzzles.check(puzzle, puzzle.solution + [END]).status == "solved"
    assert puzzle.state["history"] == []


def _game_with_a_missed_win():
    """A seeded game of noisy medium players cut just after a turn that missed a win in two."""
    import random

    from bot.games.sensei.puzzle import actions_of
    from bot.games.sensei.whole_turns import _best, scored_turns
    from bot.games.sensei.wintwo import Prover, forced_win, winning_turn
    from bot.games.sensei.puzzle import _moves

    for seed in range(40):
        rng = random.Random(seed)
        game = Sensei.new(2, {"version": "arashi", "first": "green"}, seed)
        log = []
        while game.result() is None and game.turn < 30:
            seat = game.active
            scored = scored_turns(game, seat)
            turn = actions_of(_best(scored, rng))
            cells, characters = list(game.cells), list(game.characters)
            start = len(log)
            missed = (winning_turn(cells, characters, seat, game.slide) is None
                      and forced_win(cells, characters, seat, game.slide) is not None
                      and Prover(game.slide).refutation(cells, characters, seat, _moves(turn))
                      is not None)
            before = len(game.history)
            play_turn(game, seat, turn)
            log += [(s, _action(token)) for s, token in game.history[before:]]
            if missed:
                return seed, log, start
    raise AssertionError("no missed win in 40 games")


def _action(token: str) -> dict:
    from bot.games.sensei.notation import parse_action
    return parse_action(token) if "-" in token else {"type": token}


# -- Sàréná answers --------------------------------------------------------------------------
def test_every_shipped_sarena_puzzle_ends_the_game_with_a_win_whatever_is_hidden():
    from bot.games.sarena import puzzle as sarena_puzzle
    ids = puzzles.ids("sarena")
    assert len(ids) >= 100
    failures = {pid: why for pid in ids
                if (why := sarena_puzzle.verify(puzzles.load(pid))) is not None}
    assert failures == {}


def test_a_sarena_winning_move_wins_whatever_colour_the_opponent_holds():
    """Played out by the rules: the opponent given every colour it may hold, the face a flip
    turns up being the real one (the state's truth is one of the worlds)."""
    from bot.games.sarena.rules import Sarena
    for pid in puzzles.ids("sarena")[:30]:
        puzzle = puzzles.load(pid)
        game = puzzle.position()
        mine = game.to_json()["colours"][puzzle.seat]
        for action in game.legal_actions(puzzle.seat):
            verdict = puzzles.check(puzzle, [action])
            outcomes = []
            for other in range(4):
                if other == mine:
                    continue
                state = puzzle.position().to_json()
                state["colours"][1 - puzzle.seat] = other
                trial = Sarena.from_json(state)
                trial.apply(puzzle.seat, action)
                result = trial.result()
                outcomes.append(result is not None and result.winners == (puzzle.seat,)
                                and result.details["scores"][puzzle.seat]
                                > result.details["scores"][1 - puzzle.seat])
            if verdict.status == "solved":
                assert all(outcomes)
            elif verdict.reason == "game_goes_on":
                trial = puzzle.position()
                trial.apply(puzzle.seat, action)
                assert trial.result() is None
            else:
                assert verdict.status == "wrong" and verdict.reason == "not_winning"
                world = verdict.refutation[0]
                assert world["type"] == "world" and world["final"]
                assert world["scores"][0] <= world["scores"][1]
                if world["flip"] is None:  # no unseen face: the rules agree with the world
                    state = puzzle.position().to_json()
                    from bot.games.sarena.chips import COLOUR_INDEX
                    state["colours"][1 - puzzle.seat] = COLOUR_INDEX[world["opponent"]]
                    trial = Sarena.from_json(state)
                    trial.apply(puzzle.seat, action)
                    scores = trial.result().details["scores"]
                    assert [scores[puzzle.seat], scores[1 - puzzle.seat]] == world["scores"]
        assert puzzles.check(puzzle, puzzle.solution).status == "solved"
        assert puzzles.hint(puzzle) == {"code": "sarena.pile", "square": puzzle.solution[0]["from"]}
