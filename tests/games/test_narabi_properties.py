"""Narabi invariants over random games driven by hypothesis."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.base import IllegalAction
from bot.games.narabi import Narabi
from bot.games.narabi.conditions import allows
from bot.games.narabi.ring import is_solved

games = st.tuples(st.integers(3, 5), st.booleans(), st.integers(0, 2 ** 32), st.integers(0, 2 ** 16))


def brute_force_legal(game: Narabi) -> list[dict]:
    """Legal switches straight from the contract, to check legal_actions against."""
    seat, out = game.active, []
    last = game.last_switch
    for i, card in enumerate(game.rows[seat]):
        for other in range(game.seats):
            if other == seat:
                continue
            for j, target in enumerate(game.rows[other]):
                c, d = game.cards[card], game.cards[target]
                if not allows(c["condition"], c["number"], d["number"], d["colour"],
                              (other - seat) % game.seats, game.seats):
                    continue
                if game.advanced and last and {(seat, i), (other, j)} == {
                        (last["seat"], last["index"]), (last["target_seat"], last["target_index"])}:
                    continue
                out.append({"type": "switch", "card": card, "target": target})
    return out


def _pair(action: dict) -> tuple[int, int]:
    return action["card"], action["target"]


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(games)
def test_random_games_keep_every_invariant(params) -> None:
    seats, advanced, seed, choice_seed = params
    options = {"advanced": advanced}
    game = Narabi.new(seats, options, seed)
    chooser = random.Random(choice_seed)
    log = []
    all_cards = sorted(game.cards)
    while not game.finished:
        seat = game.to_move
        view = game.public_view()
        assert "condition" not in json.dumps(view)
        legal = game.legal_actions(seat)
        assert sorted(legal, key=_pair) == sorted(brute_force_legal(game), key=_pair)
        assert all(game.legal_actions(s) == [] for s in range(seats) if s != seat)
        data = json.loads(json.dumps(game.to_json()))
        assert Narabi.from_json(data).to_json() == game.to_json()

        # A random non-listed switch must be refused and change nothing.
        probe = {"type": "switch", "card": chooser.choice(all_cards),
                 "target": chooser.choice(all_cards)}
        if probe not in legal:
            before = game.to_json()
            try:
                game.apply(seat, probe)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"unlisted switch accepted: {probe}")
            assert game.to_json() == before

        action = chooser.choice(legal)
        events = game.apply(seat, action)
        log.append((seat, action))
        assert events[0]["type"] == "switched" and events[0]["turn"] == game.turn
        assert sorted(c for r in game.rows for c in r) == all_cards
    result = game.result()
    ring = [game.cards[c]["number"] for r in game.rows for c in r]
    assert 1 <= game.turn <= 24
    if result.reason == "solved":
        assert is_solved(ring) and result.winners == tuple(range(seats))
    else:
        assert not is_solved(ring) and result.winners == ()
        assert result.reason in ("out_of_turns", "no_legal_switch")
        assert (result.reason == "out_of_turns") == (game.turn == 24)
    assert all("condition" in card for row in game.public_view()["rows"] for card in row)
    assert Narabi.replay(seats, options, seed, log).to_json() == game.to_json()


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(games, st.one_of(st.none(), st.integers(), st.text(max_size=3), st.booleans(),
                        st.lists(st.integers(), max_size=2),
                        st.dictionaries(st.text(max_size=3), st.integers(), max_size=2)),
       st.sampled_from(["type", "card", "target", "seat"]))
def test_garbage_never_escapes_as_a_python_error(params, junk, key) -> None:
    seats, advanced, seed, _ = params
    game = Narabi.new(seats, {"advanced": advanced}, seed)
    legal = game.legal_actions(game.to_move)[0]
    action = dict(legal)
    action[key] = junk
    before = game.to_json()
    try:
        game.apply(game.to_move, action)
    except IllegalAction as err:
        assert err.code in {"bad_action", "unknown_action", "not_your_card", "own_card",
                            "condition_forbids", "undo_forbidden"}
        assert game.to_json() == before
    for seat in (junk, -1, seats):
        try:
            game.apply(seat, legal)  # type: ignore[arg-type]
        except IllegalAction as err:
            assert err.code in {"bad_seat", "not_your_turn"}
