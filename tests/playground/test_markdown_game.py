"""Sensei games, typed and clicked, by players whose names are full of Markdown, read as a
person reads them: every message the stand-in holds goes through the playground's renderer (the
one the page uses, in Chromium), and what shows is compared with what was played. A character
move shows as typed (``*d1-g1``), whole, with no emphasis, no stray ``*`` or ``\\``."""
from __future__ import annotations

import copy

import re
from pathlib import Path
from typing import Any

import pytest

from bot.games.sensei import Sensei, format_turn, legal_turns
from bot.testing.fake_discord import CHANNEL_ID, Member, find_component
from tests.cogs.test_sensei_cog import open_move_menu, refreshed, send, ui_action
from tests.conftest import start_bot
from tests.helpers import ephemeral_reply, start_table
from tests.playground.markdown_page import markdown_page

#: the ``browser`` (one Chromium per worker, started once) and ``playground`` fixtures live
#: in the session's event loop, and so do these tests
pytestmark = pytest.mark.asyncio(loop_scope="session")

#: what the renderer made of a message: the text a person reads (innerText) of its content
#: and its embeds' parts, and the elements that change how text reads
READ_JS = """(message) => {
  const box = document.createElement("div");
  document.body.append(box);
  const parts = [];
  const add = (nodes) => { const d = document.createElement("div"); d.append(...nodes); box.append(d); parts.push(d); };
  if (message.content) add([PG.md(message.content)]);
  for (const e of message.embeds || []) {
    if (e.title) add(PG.mdInline(e.title));
    if (e.description) add([PG.md(e.description)]);
    for (const f of e.fields || []) { add(PG.mdInline(f.name || "")); add([PG.md(f.value || "")]); }
  }
  const styled = Array.from(box.querySelectorAll("em, u, s, .spoiler, strong, code"))
    .map(e => [e.tagName.toLowerCase() + (e.classList.contains("spoiler") ? ".spoiler" : ""), e.textContent]);
  const read = parts.map(p => p.innerText);
  box.remove();
  return {read, styled};
}"""


def turn_with_character(game: Sensei, length: int | None = None) -> list[dict[str, Any]]:
    """A legal turn of the player to move with a character move (of ``length`` actions) after
    which the game goes on."""
    turns = [t for t in legal_turns(game) if any(a["type"] == "character" for a in t)
             and (length is None or len([a for a in t if a["type"] != "end_turn"]) == length)
             and _goes_on(game, t)]
    return turns[len(turns) // 2]


def _goes_on(game: Sensei, actions: list[dict[str, Any]]) -> bool:
    trial = game.copy()
    for action in actions:
        trial.apply(trial.to_move, action)
    if trial.to_move is not None and trial.active == game.active:
        trial.apply(trial.to_move, {"type": "end_turn"})
    return trial.result() is None


async def click_turn(h, table, player: Member, actions: list[dict[str, Any]]) -> None:
    step = await open_move_menu(h, table, player)
    for action in actions:
        if action["type"] != "end_turn":
            step = await ui_action(h, step, player, action)
    if find_component(step, "send").get("disabled") is not True:
        await send(h, step, player)


@pytest.mark.slow
async def test_a_sensei_game_reads_in_discord_markdown_as_it_was_played(browser, tmp_path: Path):
    ana, ben = Member(100, "*Ana*_b"), Member(101, "Ben ||x|| ~~y~~ `z` > q")
    names = {ana.id: ana.name, ben.id: ben.name}
    h = await start_bot(tmp_path / "bot.sqlite3")
    played: list[tuple[int, Member, str, Member]] = []  # turn, who, notation, who is next
    try:
        table = await start_table(h, "sensei", [ana, ben], first="green")
        people = [ana, ben]
        for turn in range(1, 7):
            live = await h.bot.tables.get(table.id)
            game = live.game
            seat = game.to_move
            player, other = people[seat], people[1 - seat]
            if turn % 3 == 0:  # every third turn by the buttons, the others typed
                actions = turn_with_character(game, length=2)
                await click_turn(h, table, player, actions)
            else:
                actions = turn_with_character(game)
                await h.command(player, "sensei", "move", channel_id=table.thread,
                                notation=format_turn(actions))
            played.append((game.turn, player, format_turn(actions), other))
            live = await h.bot.tables.get(table.id)
            assert live.game.result() is None and live.game.turn == game.turn + 1, turn
        # A typed move that cannot be read is quoted back, as typed, in code.
        refused = await h.command(ana if live.game.to_move == 0 else ben, "sensei", "move",
                                  channel_id=table.thread, notation="*zz-q9_")
        token = await h.click(ben, refreshed(h, board_of(h, table)),
                              find_component(board_of(h, table), "resign")["custom_id"])
        await h.click(ben, ephemeral_reply(h, token),
                      find_component(ephemeral_reply(h, token), "resign_ok")["custom_id"])
        messages = list(h.fake.messages.values())
        refusal = h.fake.messages[h.fake._original[refused]]
    finally:
        await h.bot.close()

    page = await markdown_page(browser, {str(k): v for k, v in names.items()})
    shown = [await page.evaluate(READ_JS, m) for m in messages]
    assert not page.errors, page.errors
    everything = "\n".join(r for s in shown for r in s["read"])

    # Each turn line reads exactly as the turn was played, names and notation literal.
    for turn, who, notation, nxt in played:
        line = f"Turn {turn} · {who.name}: {notation} Next: @{nxt.name}. · ↑ board"
        assert line in everything.split("\n"), (line, [x for x in everything.split("\n")
                                                       if x.startswith(f"Turn {turn} ")])
    assert any("*" in notation for _, _, notation, _ in played)
    # The end names both players as they are.
    assert f"Game over. {ben.name} (red) resigned; {ana.name} (green) wins." in everything.split("\n")
    # The refusal quotes the typed text in code, whole.
    read = await page.evaluate(READ_JS, refusal)
    assert ["code", "*zz-q9_"] in read["styled"], read
    # No backslash shows, and nothing the players wrote or played is styled: the only styling
    # is the catalog's bold and code, and it holds no name and no move.
    assert "\\" not in everything
    styled = [s for message in shown for s in message["styled"]]
    assert {tag for tag, _ in styled} <= {"strong", "code"}, styled
    for tag, text in styled:
        for _, who, notation, _ in played:
            assert notation not in text and who.name not in text, (tag, text)
    # The names appear whole on the board, too.
    board = await page.evaluate(READ_JS, board_of_messages(messages, table.thread))
    assert ana.name in "\n".join(board["read"]) and ben.name in "\n".join(board["read"])


def board_of(h, table) -> dict[str, Any]:
    return board_of_messages(list(h.fake.messages.values()), table.thread)


def board_of_messages(messages: list[dict[str, Any]], thread: int) -> dict[str, Any]:
    return next(m for m in messages if int(m["channel_id"]) == thread and m.get("attachments")
                and m.get("embeds"))


async def test_a_game_against_the_ai_reads_as_played(browser, tmp_path: Path):
    """Issue 47's line: a character move, then the AI's name in bold, on one line."""
    you = Member(100, "_You_*")
    h = await start_bot(tmp_path / "bot.sqlite3")
    mine: list[tuple[int, str]] = []
    # every text a message showed: the AI's line is the board's text until the next turn's edit
    seen: list[dict[str, Any]] = []
    h.fake.listeners.append(lambda event, m: seen.append(copy.deepcopy(m))
                            if event in ("create", "edit") else None)
    try:
        await h.command(you, "sensei", "start", ai="hard", first="green")
        lobby = next(m for m in reversed(h.fake.channel_messages(CHANNEL_ID)) if m["embeds"])
        table_id = int(lobby["embeds"][0]["title"].rsplit("#", 1)[1])
        for _ in range(3):  # Hard may win before: every turn of ours is answered
            live = await h.bot.tables.get(table_id)
            if live.game.result() is not None:
                break
            assert live.game.to_move == 0
            actions = turn_with_character(live.game)
            mine.append((live.game.turn, format_turn(actions)))
            await h.command(you, "sensei", "move", channel_id=live.row.game_channel_id,
                            notation=format_turn(actions))
        messages = seen
    finally:
        await h.bot.close()

    page = await markdown_page(browser, {str(you.id): you.name})
    shown = [await page.evaluate(READ_JS, m) for m in messages]
    lines = list(dict.fromkeys(line for s in shown for r in s["read"] for line in r.split("\n")))
    for turn, notation in mine:
        assert f"Turn {turn} · {you.name}: {notation} Next: 🤖 AI · Hard. · ↑ board" in lines
    move = r"\*?[a-g][1-7]-[a-g][1-7]"
    # The AI's turns: as many as ours; a winning one names nobody next. (On the board's text,
    # under the bot's name: no link to the board it is on.)
    ai_line = re.compile(rf"Turn \d+ · AI · Hard: {move}( {move})*( Next: @_You_\*\.)?")
    assert sum(bool(ai_line.fullmatch(line)) for line in lines) == len(mine), lines
    assert not any("\\" in line for line in lines)
    styled = [s for message in shown for s in message["styled"]]
    assert {tag for tag, _ in styled} <= {"strong", "code"}, styled
    assert all(you.name not in text and "-" not in text for tag, text in styled if tag == "strong")
