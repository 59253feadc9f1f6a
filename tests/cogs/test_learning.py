"""Lessons, the warning before a losing turn, and puzzles, through the fake Discord."""
from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from bot.games import puzzles
from bot.games.sensei import parse_turn
from bot.testing.fake_discord import components_of
from cogs.sensei import lesson as sensei_lesson
from cogs.sensei.warning import losing_reason, warns
from tests.conftest import start_bot
from tests.helpers import ephemeral_reply

pytestmark = pytest.mark.usefixtures("no_missing_text")


def ids(message: dict[str, Any]) -> list[str]:
    return [c["custom_id"] for c in components_of(message) if "custom_id" in c]


def labelled(message: dict[str, Any], label: str) -> str:
    found = [c["custom_id"] for c in components_of(message) if c.get("label") == label]
    assert len(found) == 1, (label, [c.get("label") for c in components_of(message)])
    return found[0]


def ending(message: dict[str, Any], what: str) -> str:
    found = [cid for cid in ids(message) if cid.endswith(":" + what)]
    assert len(found) == 1, (what, ids(message))
    return found[0]


async def tap(h, member, message, custom_id) -> dict[str, Any]:
    await h.click(member, message, custom_id)
    return h.fake.messages[int(message["id"])]


def said(message: dict[str, Any]) -> str:
    """What a message says: its content, then its embeds' words, in the order shown."""
    return "\n\n".join([message.get("content") or ""] + [
        e["description"] for e in message.get("embeds") or () if e.get("description")])


async def planned(h, member, step, turn: str) -> dict[str, Any]:
    """A turn planned with the buttons a table's private menu has: a piece (its square, or
    the character's ⛩️ button), then the square it goes to; then Send turn."""
    for action in parse_turn(turn):
        piece = "char" if action["type"] == "character" else action["from"]
        pick = [c for c in components_of(step) if c.get("custom_id", "").endswith("." + piece)]
        assert len(pick) == 1, (piece, [c.get("label") for c in components_of(step)])
        if piece == "char":
            assert pick[0]["emoji"]["name"] == "⛩️" and pick[0]["label"] == action["from"]
        step = await tap(h, member, step, pick[0]["custom_id"])
        step = await tap(h, member, step, labelled(step, action["to"]))
    return await tap(h, member, step, labelled(step, "Send turn"))


@pytest.mark.slow
async def test_sensei_lesson_through_every_rule_then_back_after_a_restart(database, players):
    h = await start_bot(database)
    ana = players[0]
    try:
        token = await h.command(ana, "sensei", "learn")
        step = ephemeral_reply(h, token)
        assert step["flags"] & 64 and step["attachments"], "private, with a picture"
        assert "step 1 of 6" in said(step) and "arrival" in said(step)
        step = await tap(h, ana, step, ending(step, "n"))
        assert "two stone moves" in said(step)
        # The turn is planned with a table's buttons; the notation is explained once, here.
        assert "notation" in said(step) and "Send turn" in said(step)
        assert {c.get("label") for c in components_of(step)} >= {"a1", "g1", "d1", "Send turn"}
        step = await planned(h, ana, step, "f1-f3 *d1-f3")
        assert "The AI answers: b7-b2 e7-e3" in said(step) and "step 3 of 6" in said(step)
        assert "notation" not in said(step), "explained once"
        # Red's reply, then a new board: the reply is drawn before the lesson moves on.
        answered = await planned(h, ana, step, "c1-c6 c6-b6")
        assert "The AI answers: g7-g2 a7-a2" in said(answered) and answered["attachments"]
        assert "step 3 of 6" in said(answered)
        step = await tap(h, ana, answered, labelled(answered, "Next"))
        assert "unfair-barrier rule" in said(step) and step["attachments"]
        # The tempting turn: the lesson asks exactly as a real game does.
        warning = await planned(h, ana, step, "g4-g1")
        assert "This turn loses the game" in said(warning)
        assert "a1 b1 c1 d1 e1 f1 g1" in said(warning) and "b2 d2 f2" in said(warning)
        lost = await tap(h, ana, warning, labelled(warning, "Play it anyway"))
        assert "You lost the game" in said(lost)
        step = await tap(h, ana, lost, labelled(lost, "Try again"))
        # A legal turn the lesson does not go on with is told so.
        off = await planned(h, ana, step, "g4-g5")
        assert "this lesson goes on with another one: g4-g6" in said(off)
        step = await tap(h, ana, off, labelled(off, "Try again"))
        step = await planned(h, ana, step, "g4-g6")
        assert "step 5 of 6" in said(step)
        short = await planned(h, ana, step, "b6-b7")
        assert "Not quite" in said(short)
        step = await tap(h, ana, short, labelled(short, "Try again"))
        old = dict(step)
        # A planned turn that wins says so before it is sent.
        ready = await tap(h, ana, step, labelled(step, "b6"))
        ready = await tap(h, ana, ready, labelled(ready, "b7"))
        ready = await tap(h, ana, ready, next(c["custom_id"] for c in components_of(ready)
                                              if c.get("custom_id", "").endswith(".char")))
        ready = await tap(h, ana, ready, labelled(ready, "b7"))
        assert "Add another move" not in said(ready) and "wins" in said(ready)
        # The winning arrival is drawn before the next board.
        won = await tap(h, ana, ready, labelled(ready, "Send turn"))
        assert "You win" in said(won) and "step 5 of 6" in said(won)
        assert won["attachments"] and "storm" not in said(won)
        step = await tap(h, ana, won, labelled(won, "Next"))
        assert "storm" in said(step) and "step 6 of 6" in said(step)
        # A click on an older step changes nothing: it shows where the lesson is.
        again = await tap(h, ana, old, labelled(old, "b6"))
        assert "moved on" in said(again) and "step 6 of 6" in said(again)
        left = await tap(h, ana, again, ending(again, "q"))
        assert "You left the lesson" in said(left)
        assert await h.bot.store.lesson_step(ana.id, "sensei") == (5, False)
    finally:
        await h.bot.close()
    # A restart keeps the step.
    h = await start_bot(database)
    try:
        token = await h.command(ana, "sensei", "learn")
        resume = ephemeral_reply(h, token)
        assert "step 6 of 6" in said(resume)
        step = await tap(h, ana, resume, labelled(resume, "Continue"))
        assert "storm" in said(step)
        done = await tap(h, ana, step, labelled(step, "Finish"))
        assert "Lesson finished" in said(done)
        assert await h.bot.store.lesson_step(ana.id, "sensei") == (5, True)
        token = await h.command(ana, "sensei", "learn")
        assert "step 1 of 6" in ephemeral_reply(h, token)["content"], "taken again from the start"
    finally:
        await h.bot.close()


async def test_lesson_in_german(harness):
    from bot.testing.fake_discord import Member
    h = harness
    lea = Member(300, "Lea", locale="de")
    step = ephemeral_reply(h, await h.command(lea, "sensei", "learn"))
    assert "Schritt 1 von 6" in said(step)
    step = await tap(h, lea, step, ending(step, "n"))
    assert "Notation" in said(step)
    step = await planned_in(h, lea, step, "f1-f3 *d1-f3", "Zug senden")
    assert "b7-b2 e7-e3" in said(step) and "Schritt 3 von 6" in said(step)


async def planned_in(h, member, step, turn: str, send: str) -> dict[str, Any]:
    for action in parse_turn(turn):
        piece = "char" if action["type"] == "character" else action["from"]
        step = await tap(h, member, step, next(c["custom_id"] for c in components_of(step)
                                               if c.get("custom_id", "").endswith("." + piece)))
        step = await tap(h, member, step, labelled(step, action["to"]))
    return await tap(h, member, step, labelled(step, send))


def test_the_lesson_pictures_name_the_player_in_the_third_person():
    from bot.ui.lessons import play_choice
    from render.sensei import _footer, _status, _Words
    lesson = sensei_lesson.lesson()
    won = play_choice(lesson, lesson.steps[4], lesson.steps[4].choices[1]).public_view()
    words = _Words(lesson.names("en"), "en")
    assert _status(won, words, 10_000)[1] == "1 · Green wins"
    assert _footer(won, words, 10_000)[0] == "Last: 1 · Green b6-b7 *f3-b7"


def test_every_scripted_turn_is_played_by_the_rules():
    from bot.ui.lessons import play_choice
    lesson = sensei_lesson.lesson()
    for step in lesson.steps:
        for choice in step.choices:
            after = play_choice(lesson, step, choice)
            result = after.result()
            if choice.right:
                assert result is None or step.seat in result.winners, choice.label
            if choice.label == "g4-g1":
                assert result is not None and result.reason == "barrier"
    final = play_choice(lesson, lesson.steps[4], lesson.steps[4].choices[1])
    assert final.result().reason == "arrived"


def test_warning_names_only_the_board_and_follows_the_table():
    board = sensei_lesson.barrier_board()
    trial = board.copy()
    for action in parse_turn("g4-g1"):
        trial.apply(0, action)
    key, params = losing_reason(trial, 0, [{"type": "end_turn"}])
    assert key == "warn.sensei.barrier" and params["touching"] == "b2 d2 f2"
    safe = board.copy()
    safe.apply(0, parse_turn("g4-g6")[0])
    assert losing_reason(safe, 0, [{"type": "end_turn"}]) is None


# == the warning in real games =============================================================

#: turns after which green's c1-c2 e1-e2 completes a barrier touched by a2, c3 and e3
BEFORE_BARRIER = ("g1-g2", "a7-a2 c7-c3", "*d1-f1", "e7-e3 g7-g5")
LOSING = ({"type": "stone", "from": "c1", "to": "c2"}, {"type": "stone", "from": "e1", "to": "e2"})


async def to_the_barrier(h, players, **options):
    from tests.cogs.test_sensei_cog import sensei_table
    table = await sensei_table(h, players, **options)
    for n, notation in enumerate(BEFORE_BARRIER):
        await h.command(players[n % 2], "sensei", "move", table.thread, notation=notation)
    return table


async def test_a_losing_turn_is_questioned_when_the_lobby_chose_it(harness, players):
    from tests.cogs.test_sensei_cog import open_move_menu, send, snapshot, ui_action
    h = harness
    ana, ben = players[:2]
    table = await to_the_barrier(h, players, warn=True)
    assert "Warning before a turn that loses at once: on" in table.lobby["embeds"][0]["fields"][1]["value"]
    step = await open_move_menu(h, table, ana)
    for action in LOSING:
        step = await ui_action(h, step, ana, action)
    before = await snapshot(h, table)
    await send(h, step, ana)
    warning = h.fake.messages[int(step["id"])]
    assert "This turn loses the game" in said(warning)
    assert "a1 b1 c2 d1 e2 f1 g2" in said(warning) and "a2 c3 e3" in said(warning)
    assert await snapshot(h, table) == before, "nothing is played before the answer"
    await h.click(ana, warning, labelled(warning, "Play it anyway"))
    live = await h.bot.tables.get(table.id)
    assert live.row.status == "finished" and live.game.result().winners == (1,)


@pytest.mark.slow
async def test_a_rated_game_does_not_ask_by_default(harness, players):
    from tests.cogs.test_sensei_cog import open_move_menu, send, ui_action
    h = harness
    table = await to_the_barrier(h, players)
    step = await open_move_menu(h, table, players[0])
    for action in LOSING:
        step = await ui_action(h, step, players[0], action)
    await send(h, step, players[0])
    live = await h.bot.tables.get(table.id)
    assert live.row.status == "finished" and live.game.result().reason == "barrier"


@pytest.mark.slow
async def test_a_typed_losing_turn_is_questioned_too(harness, players):
    h = harness
    ana = players[0]
    table = await to_the_barrier(h, players, warn=True)
    token = await h.command(ana, "sensei", "move", table.thread, notation="c1-c2 e1-e2")
    assert "This turn loses the game" in h.reply_text(token)
    assert (await h.bot.tables.get(table.id)).row.status == "playing"
    warning = ephemeral_reply(h, token)
    await h.click(ana, warning, labelled(warning, "Play it anyway"))
    assert (await h.bot.tables.get(table.id)).row.status == "finished"


def test_casual_means_an_ai_holds_a_seat():
    from types import SimpleNamespace as NS
    person, ai = NS(person=True, ai=None), NS(person=False, ai="easy")
    assert warns(NS(row=NS(seats=[person, ai], options={})))
    assert not warns(NS(row=NS(seats=[person, person], options={})))
    assert warns(NS(row=NS(seats=[person, person], options={"warn": True})))


# == Narabi and Sàréná lessons =============================================================

async def test_narabi_lesson_conditions_switches_and_asking(harness, players):
    h = harness
    ana = players[0]
    step = ephemeral_reply(h, await h.command(ana, "narabi", "learn"))
    assert step["flags"] & 64 and step["attachments"]
    assert "Switch only with the player two seats to your right." in said(step), "own conditions"
    step = await tap(h, ana, step, ending(step, "n"))
    refused = await tap(h, ana, step, labelled(step, "⚫3 ↔ ⚫4"))
    assert "Not quite" in said(refused) and "does not allow that switch" in said(refused)
    step = await tap(h, ana, refused, labelled(refused, "Try again"))
    step = await tap(h, ana, step, labelled(step, "⚫3 ↔ ⚪1"))
    assert "AI 1: ⚪blank ↔ ⚫4 · AI 2: ⚪5 ↔ ⚪2" in said(step)
    assert "AI 1 would answer **yes**" in said(step)
    done = await tap(h, ana, step, labelled(step, "⚫8 ↔ ⚪2"))
    assert "solved in 4 switches" in said(done) and "Lesson finished" in said(done)
    assert await h.bot.store.lesson_step(ana.id, "narabi") == (2, True)


async def test_sarena_lesson_piles_flips_colour_and_scoring(harness, players):
    h = harness
    ana = players[0]
    step = ephemeral_reply(h, await h.command(ana, "sarena", "learn"))
    assert "pile" in said(step)
    step = await tap(h, ana, step, labelled(step, "a1-a2"))
    assert "The AI answers: f6-f5" in said(step) and "arrow circle" in said(step)
    step = await tap(h, ana, step, labelled(step, "b1-a1"))
    assert "Flipped" in said(step) and "Your **secret colour** is Yellow" in said(step)
    refused = await tap(h, ana, step, labelled(step, "c1-b1"))
    assert "empty plain circle" in said(refused) and "Not quite" in said(refused)
    step = await tap(h, ana, refused, labelled(refused, "Try again"))
    step = await tap(h, ana, step, labelled(step, "c2-c1"))
    assert "**Scoring:**" in said(step) and "Yellow" in said(step)
    done = await tap(h, ana, step, labelled(step, "Finish"))
    assert "Lesson finished" in said(done)


@pytest.mark.parametrize("game", ["narabi", "sarena"])
def test_other_lessons_are_played_by_the_rules(game):
    from bot.games import IllegalAction
    from bot.ui.lessons import play_choice
    if game == "narabi":
        from cogs.narabi.cog import NarabiCog
        from cogs.narabi.lesson import lesson as build
        lesson = build(NarabiCog.__new__(NarabiCog))
    else:
        from cogs.sarena.lesson import lesson as build
        lesson = build()
    for step in lesson.steps:
        for choice in step.choices:
            if choice.right:
                play_choice(lesson, step, choice)
            else:
                with pytest.raises(IllegalAction):
                    play_choice(lesson, step, choice)


# == puzzles ===============================================================================

def arrival_puzzle(puzzle_id: str, game_id: int) -> dict[str, Any]:
    """The lesson's arrival position as a puzzle from a finished game (a win at once is a win
    within two turns)."""
    position = sensei_lesson.played(sensei_lesson.LINE)
    return puzzles.Puzzle(puzzle_id, "sensei", "win_in_two", 0, position.to_json(),
                          parse_turn("b6-b7 *f3-b7"),
                          {"type": "game", "game_id": game_id, "turn_index": 8, "seat": 0},
                          2).to_json()


async def puzzle_of(h, member, game: str) -> dict[str, Any]:
    return ephemeral_reply(h, await h.command(member, "puzzle", "solve", game=game))


@pytest.mark.slow
async def test_sensei_puzzle_from_this_server_own_misses_first(harness, players):
    h = harness
    ana, ben = players[:2]
    from bot.testing.fake_discord import GUILD_ID
    await h.bot.store.save_game_puzzles(GUILD_ID, 1, [("sensei:g:1:8", "sensei", ben.id,
                                                       arrival_puzzle("sensei:g:1:8", 1))])
    await h.bot.store.save_game_puzzles(GUILD_ID, 2, [("sensei:g:2:8", "sensei", ana.id,
                                                       arrival_puzzle("sensei:g:2:8", 2))])
    step = await puzzle_of(h, ana, "sensei")
    assert step["flags"] & 64 and step["attachments"]
    assert "comes from a game played here" in said(step)
    attempt = await h.bot.store.attempt(int(ids(step)[0].split(":")[1]))
    assert attempt.puzzle_id == "sensei:g:2:8", "Ana's own missed win comes first"
    # Someone else's clicks change nothing.
    token = await h.click(ben, step, labelled(step, "b6"))
    assert "someone else's" in h.reply_text(token)
    step = h.fake.messages[int(step["id"])]
    step = await tap(h, ana, step, labelled(step, "b6"))
    step = await tap(h, ana, step, labelled(step, "b7"))
    assert "b6-b7" in said(step)
    step = await tap(h, ana, step, labelled(step, "f3"))
    step = await tap(h, ana, step, labelled(step, "b7"))
    ready = dict(step)
    done = await tap(h, ana, step, labelled(step, "Send turn"))
    # the notation reaches Discord escaped, and reads "b6-b7 *f3-b7"
    assert "Solved: b6-b7 \\*f3-b7" in said(done) and "streak: 1" in said(done)
    # The first rating is not a change: no brackets; the uncertainty reads "± 7.8".
    assert re.search(r"Your first puzzle rating: -?[0-9.]+ · uncertainty ± [0-9.]+ · streak: 1$",
                     said(done)), said(done)
    rating = await h.bot.store.puzzle_rating(ana.id, "sensei")
    assert rating.solved == 1 and rating.streak == 1
    # A second click on the finished puzzle moves nothing twice.
    again = await tap(h, ana, ready, labelled(ready, "Send turn"))
    assert "already finished" in said(again)
    assert (await h.bot.store.puzzle_rating(ana.id, "sensei")).solved == 1
    # The next one is Ben's missed win, then none is left.
    nxt = await tap(h, ana, again, labelled(again, "Next puzzle"))
    assert (await h.bot.store.tried_puzzles(ana.id, "sensei")) == {"sensei:g:2:8"}
    following = await h.bot.store.attempt(int(ids(nxt)[0].split(":")[1]))
    assert following.puzzle_id == "sensei:g:1:8"


async def test_a_wrong_answer_gets_a_second_try_and_only_the_first_is_rated(harness, players):
    h = harness
    ana = players[0]
    from bot.testing.fake_discord import GUILD_ID
    await h.bot.store.save_game_puzzles(GUILD_ID, 3, [("sensei:g:3:8", "sensei", ana.id,
                                                       arrival_puzzle("sensei:g:3:8", 3))])
    puzzle = puzzles.Puzzle.from_json(arrival_puzzle("sensei:g:3:8", 3))
    # A one-stone turn the rules' own check calls wrong (it lets the win slip).
    wrong = next(a for a in puzzle.position().legal_actions(0) if a["type"] == "stone"
                 and puzzles.check(puzzle, [a, {"type": "end_turn"}]).status == "wrong")
    verdict = puzzles.check(puzzle, [wrong, {"type": "end_turn"}])
    step = await puzzle_of(h, ana, "sensei")
    step = await tap(h, ana, step, labelled(step, wrong["from"]))
    step = await tap(h, ana, step, labelled(step, wrong["to"]))
    done = await tap(h, ana, step, labelled(step, "Send turn"))
    from bot.games.sensei import format_turn
    assert verdict.refutation, "this position's wrong turns have an answer that refutes them"
    assert "❌" in said(done) and f"answers {format_turn(verdict.refutation)}" in said(done)
    # Not the end: the solution stays hidden, and a second try is offered.
    assert "A winning turn" not in said(done) and "one more try" in said(done)
    assert "Next puzzle" not in [c.get("label") for c in components_of(done)]
    rating = await h.bot.store.puzzle_rating(ana.id, "sensei")
    assert rating.failed == 1 and rating.streak == 0 and rating.mu < 25
    # The second try, wrong again: the solution now, and the rating as the first try left it.
    step = await tap(h, ana, done, labelled(done, "Try again"))
    assert "Send turn" not in [c.get("label") for c in components_of(step)], "a fresh turn"
    step = await tap(h, ana, step, labelled(step, wrong["from"]))
    step = await tap(h, ana, step, labelled(step, wrong["to"]))
    last = await tap(h, ana, step, labelled(step, "Send turn"))
    assert "A winning turn: b6-b7 *f3-b7" in said(last)
    assert "stays as your first answer left it" in said(last)
    assert await h.bot.store.puzzle_rating(ana.id, "sensei") == rating
    assert await h.bot.store.puzzle_history(ana.id, "sensei") == pytest.approx(
        [rating.mu - 3 * rating.sigma]), "one point on the chart per puzzle"
    assert await h.bot.store.tried_puzzles(ana.id, "sensei") == {"sensei:g:3:8"}


async def test_a_second_try_solved_is_told_and_not_rated(harness, players):
    h = harness
    ana = players[0]
    first = puzzles.load(puzzles.ids("sarena")[0])
    move = next(a for a in first.position().legal_actions(first.seat)
                if puzzles.check(first, [a]).status == "wrong")
    step = await puzzle_of(h, ana, "sarena")
    step = await tap(h, ana, step, labelled(step, move["from"]))
    done = await tap(h, ana, step, labelled(step, move["to"]))
    rating = await h.bot.store.puzzle_rating(ana.id, "sarena")
    assert rating.failed == 1 and rating.solved == 0
    step = await tap(h, ana, done, labelled(done, "Try again"))
    step = await tap(h, ana, step, labelled(step, first.solution[0]["from"]))
    solved = await tap(h, ana, step, labelled(step, first.solution[0]["to"]))
    assert "Solved on the second try" in said(solved)
    assert await h.bot.store.puzzle_rating(ana.id, "sarena") == rating
    # A typed answer after that finds nothing open.
    token = await h.command(ana, "puzzle", "answer", notation="a1-a2")
    assert "no Sensei or Sàréná puzzle open" in h.reply_text(token)


async def test_the_hint_is_where_the_person_looks(harness, players):
    """Hint answers on its own button (now the hint, greyed out), as the text's last line,
    and on the picture; it stays through the next steps."""
    h = harness
    ana = players[0]
    first = puzzles.load(puzzles.ids("sensei")[0])
    square = first.solution[0]["from"]
    step = await puzzle_of(h, ana, "sensei")
    hinted = await tap(h, ana, step, ending(step, "ht"))
    kind = "your character" if first.solution[0]["type"] == "character" else "the stone"
    hint = f"Hint: start with {kind} on {square}."
    assert said(hinted).splitlines()[-1] == "💡 " + hint
    hint_button = [c for c in components_of(hinted) if c.get("label") == hint]
    assert len(hint_button) == 1 and hint_button[0].get("disabled") is True
    from cogs.learning.answers import hint_mark
    at = first.position().public_view()["characters"][first.seat] if kind != "the stone" else square
    assert hint_mark(first) == {"from": at, "to": []}, "the picture frames the hinted piece"
    piece = "char" if first.solution[0]["type"] == "character" else square
    button = next(c["custom_id"] for c in components_of(hinted)
                  if c.get("custom_id", "").endswith("." + piece))
    picked = await tap(h, ana, hinted, button)
    back = await tap(h, ana, picked, labelled(picked, "Back"))
    assert said(back).splitlines()[-1] == "💡 " + hint, "the hint stays"


async def test_sarena_builtin_puzzle_with_a_hint(harness, players):
    h = harness
    ana = players[0]
    first = puzzles.load(puzzles.ids("sarena")[0])
    step = await puzzle_of(h, ana, "sarena")
    assert "your colour is" in said(step)
    hinted = await tap(h, ana, step, ending(step, "ht"))
    assert f"move the pile on {first.solution[0]['from']}" in said(hinted)
    step = await tap(h, ana, hinted, labelled(hinted, first.solution[0]["from"]))
    done = await tap(h, ana, step, labelled(step, first.solution[0]["to"]))
    assert "Solved" in said(done) and "streak: 0" in said(done), "a hint keeps no streak"
    rating = await h.bot.store.puzzle_rating(ana.id, "sarena")
    assert rating.solved == 1


@pytest.mark.slow
async def test_narabi_builtin_puzzle_switch_by_switch(harness, players):
    from cogs.narabi.cog import NarabiCog
    h = harness
    ana = players[0]
    first = puzzles.load(puzzles.ids("narabi")[0])
    start = first.position()
    label = {c["id"]: NarabiCog.stone(None, c, "en") for row in start.public_view()["rows"] for c in row}
    step = await puzzle_of(h, ana, "narabi")
    assert f"in {first.par} switches" in said(step)
    for switch in first.solution:
        step = await tap(h, ana, step, labelled(step, label[switch["card"]]))
        step = await tap(h, ana, step, labelled(step, label[switch["target"]]))
    assert "Solved" in said(step)


async def test_puzzle_stats_with_a_chart(harness, players):
    h = harness
    ana = players[0]
    for _ in range(2):
        step = await puzzle_of(h, ana, "sarena")
        await tap(h, ana, step, ending(step, "gu"))
    token = await h.command(ana, "puzzle", "stats")
    text = h.reply_text(token)
    assert "Sàréná: rating" in text and "0 solved of 2" in text
    assert "Sensei: no puzzle finished yet" in text
    assert ephemeral_reply(h, token)["attachments"], "the rating chart"


@pytest.mark.slow
async def test_a_reviewed_game_gives_this_server_its_puzzles(database, players):
    from tests.cogs.test_review import REVIEWED, finish, reviewed
    h = await start_bot(database, reviews="tests.cogs.review_jobs")
    try:
        h.bot.reviewer.reviewed = lambda game: game in REVIEWED
        h.bot.reviewer.cut_of = lambda game: "tests.cogs.puzzle_jobs:cut"
        from tests.cogs.test_sensei_cog import sensei_table
        table = await sensei_table(h, players)
        await finish(h, table, 6)
        await reviewed(h, table.id)
        query = "SELECT puzzle_id, missed_by FROM game_puzzles WHERE table_id=?"
        for _ in range(200):  # cut in the pool, in the background, after the review
            stored = await h.bot.store._fetchall(query, (table.id,))
            if stored:
                break
            await asyncio.sleep(0.05)
        assert stored == [(f"sensei:g:{table.id}:8", players[1].id)], "who missed it is kept"
        # Ben, who missed it, is offered it.
        step = ephemeral_reply(h, await h.command(players[1], "puzzle", "solve", game="sensei"))
        assert "comes from a game played here" in said(step)
    finally:
        await h.bot.close()


async def test_the_builtin_sensei_set_is_served_when_the_server_has_none(harness, players):
    h = harness
    ana = players[0]
    first = puzzles.load(puzzles.ids("sensei")[0])
    step = await puzzle_of(h, ana, "sensei")
    assert "A puzzle from the built-in set." in said(step)
    for action in first.solution:
        piece = "char" if action["type"] == "character" else action["from"]
        button = next(c["custom_id"] for c in components_of(step)
                      if c.get("custom_id", "").endswith("." + piece))
        step = await tap(h, ana, step, button)
        step = await tap(h, ana, step, labelled(step, action["to"]))
    step = await tap(h, ana, step, labelled(step, "Send turn"))
    assert "Solved" in said(step)
    assert await h.bot.store.tried_puzzles(ana.id, "sensei") == {first.id}


async def test_a_puzzle_answered_in_notation(harness, players):
    h = harness
    ana = players[0]
    token = await h.command(ana, "puzzle", "answer", notation="c2-c5")
    assert "no Sensei or Sàréná puzzle open" in h.reply_text(token)
    first = puzzles.load(puzzles.ids("sarena")[0])
    await puzzle_of(h, ana, "sarena")
    token = await h.command(ana, "puzzle", "answer", notation="zz")
    assert "⚠️" in h.reply_text(token)
    move = first.solution[0]
    token = await h.command(ana, "puzzle", "answer", notation=f"{move['from']}-{move['to']}")
    assert "Solved" in h.reply_text(token)
    assert (await h.bot.store.puzzle_rating(ana.id, "sarena")).solved == 1


async def test_a_wrong_sarena_move_is_told_a_case_it_does_not_win(harness, players):
    h = harness
    ana = players[0]
    first = puzzles.load(puzzles.ids("sarena")[0])
    # A move the check calls wrong with a case the table cannot rule out.
    move, verdict = next((a, v) for a in first.position().legal_actions(first.seat)
                         if (v := puzzles.check(first, [a])).reason == "not_winning")
    world = verdict.refutation[0]
    step = await puzzle_of(h, ana, "sarena")
    step = await tap(h, ana, step, labelled(step, move["from"]))
    done = await tap(h, ana, step, labelled(step, move["to"]))
    assert f"{move['from']}-{move['to']} does not win in every case" in said(done)
    mine, theirs = world["scores"][:2]
    assert f"you would score {mine} to {theirs}" in said(done)
    assert (await h.bot.store.puzzle_rating(ana.id, "sarena")).failed == 1


async def test_a_sarena_move_that_does_not_end_the_game_is_told_so(harness, players):
    h = harness
    ana = players[0]
    first = puzzles.load(puzzles.ids("sarena")[0])
    move = next(a for a in first.position().legal_actions(first.seat)
                if puzzles.check(first, [a]).reason == "game_goes_on")
    step = await puzzle_of(h, ana, "sarena")
    step = await tap(h, ana, step, labelled(step, move["from"]))
    done = await tap(h, ana, step, labelled(step, move["to"]))
    assert f"{move['from']}-{move['to']} does not end the game" in said(done)
    shown = await tap(h, ana, done, labelled(done, "Show the solution"))
    assert f"A winning turn: {first.solution[0]['from']}-{first.solution[0]['to']}" in said(shown)


async def test_a_lesson_button_for_a_piece_that_cannot_move_shows_the_pieces(harness, players):
    h = harness
    ana = players[0]
    step = ephemeral_reply(h, await h.command(ana, "sensei", "learn"))
    step = await tap(h, ana, step, ending(step, "n"))
    forged = ids(step)[0].rsplit(":", 1)[0] + ":.d4"
    again = await tap(h, ana, step, forged)
    assert "What moves?" in said(again) and "🟢" in {
        (c.get("emoji") or {}).get("name") for c in components_of(again)}


async def test_a_picture_slow_to_draw_defers_the_answer_in_time(harness, players, monkeypatch):
    """On a loaded machine a step's picture can take longer than Discord waits for an answer:
    the command or click is deferred first, then answered with the step all the same."""
    from bot.ui import drawing, replies
    from bot.ui.pictures import DrawnCache
    monkeypatch.setattr(replies, "PICTURE_WAIT", 0)
    # Nothing drawn is remembered: every picture is drawn, however often it was drawn before.
    monkeypatch.setattr(drawing, "DRAWN", DrawnCache(budget=0))
    h = harness
    ana = players[0]
    token = await h.command(ana, "sensei", "learn")
    assert h.fake.replies(token)[0]["type"] == 5, "deferred: thinking…"
    step = ephemeral_reply(h, token)
    assert "step 1 of 6" in said(step) and step["attachments"] and step["flags"] & 64
    click = await h.click(ana, step, ending(step, "n"))
    assert h.fake.replies(click)[0]["type"] == 6, "deferred: the clicked message is edited"
    step = h.fake.messages[int(step["id"])]
    assert "two stone moves" in said(step) and step["attachments"]
    token = await h.command(ana, "puzzle", "solve", game="sarena")
    puzzle = ephemeral_reply(h, token)
    assert "your colour is" in said(puzzle) and puzzle["attachments"]
    hinted = await tap(h, ana, puzzle, ending(puzzle, "ht"))
    assert said(hinted).splitlines()[-1].startswith("💡")
