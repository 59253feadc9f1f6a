"""Every message the bot can send, in every language, within Discord's limits.

The real cogs are driven through the Harness in each of the eight languages, by players with
the longest names Discord allows (32 characters, Latin, Cyrillic and CJK): every command, the
lobbies, boards, step menus, private cards and colours, refusals, results, replays, ratings,
history and settings. Every request the stand-in saw is then judged again by Discord's
published description (``bot/testing/discord_spec.py``): none may be refused, and there must
be many of every kind. In three languages each game is also played to its end, one against
the AI."""
from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

import pytest

from bot.games.sensei import legal_turns
from bot.testing.discord_spec import SPEC
from bot.testing.fake_discord import (ALL_PERMISSIONS, CHANNEL_ID, Member, components_of,
                                      find_component)
from bot.testing.harness import Harness
from tests.conftest import start_bot
from tests.helpers import (Table, deal_with, ephemeral_reply, narabi_path, sarena_path,
                           start_table, tap_through)

pytestmark = pytest.mark.usefixtures("no_missing_text")

#: the Discord locale of each of the bot's languages
DISCORD_LOCALE = {"en": "en-US", "pl": "pl", "fr": "fr", "de": "de", "nl": "nl", "es": "es-ES",
                  "ru": "ru", "it": "it"}
#: display names as long as Discord allows (32 characters)
LONG_NAMES = ["Maximiliane Wolkenstein-Ørbækkø", "Конста́нтин Константинопольский",
              "山田太郎山田太郎山田太郎山田太郎山田太郎山田太郎山田太郎山田太郎", "W" * 32,
              "Ðóñå Ëñçýçłøpædîå Ŵïķîpëđîåñøß"]
#: the languages in which every game is played to its end (one of them against the AI)
TO_THE_END = ("en", "de", "pl")
#: the deals (every table of a run starts from its language's seed)
SEEDS = {language: 1000 + i for i, language in enumerate(DISCORD_LOCALE)}


def people(language: str) -> tuple[Member, list[Member]]:
    locale = DISCORD_LOCALE[language]
    owner = Member(50, LONG_NAMES[0], permissions=ALL_PERMISSIONS, locale=locale)
    return owner, [Member(100 + i, name.ljust(32, "·")[:32], locale=locale)
                   for i, name in enumerate(LONG_NAMES)]


def board(h: Harness, table: Table) -> dict[str, Any]:
    """The table's board: its public message with a picture (after /… board, the new one)."""
    return [m for m in h.fake.channel_messages(table.thread)
            if m["attachments"] and not m["flags"] & 64][-1]


def judged(h: Harness) -> Counter:
    """Judge again every request the stand-in saw; the kinds of request seen."""
    refused = []
    kinds: Counter = Counter()
    for r in h.fake.requests:
        refusal = SPEC.check(r.method, r.path, r.json, uploads=len(r.files))
        if refusal is not None:
            refused.append((r.method, r.path, refusal[1]))
        parts = r.path.strip("/").split("/")
        kind = f"{r.method} {parts[0]}"
        if parts[0] == "interactions":
            kind += f" {r.json.get('type')}"
        elif parts[0] == "channels":
            kind += " " + "/".join(p for p in parts[2:] if not p.isdigit())
        kinds[kind] += 1
    assert not refused, refused[:3]
    return kinds


async def press(h: Harness, member: Member, message: dict[str, Any], verb: str) -> str:
    return await h.click(member, message, find_component(message, verb)["custom_id"])


async def first_choice(h: Harness, member: Member, message: dict[str, Any]) -> str:
    """Choose the first option of the first select on ``message``."""
    select = next(c for c in components_of(message) if c["type"] == 3)
    return await h.click(member, message, select["custom_id"],
                         values=[select["options"][0]["value"]])


async def every_command(h: Harness, owner: Member, player: Member, language: str) -> None:
    await h.command(owner, "games")
    await h.command(player, "games")
    for game in ("narabi", "sensei", "sarena"):
        await h.command(player, game, "rules")
    await h.command(owner, "config", "show")
    await h.command(owner, "config", "clock", game="sensei", limit=600, policy="forfeit")
    await h.command(player, "config", "clock", game="sensei", limit=600)  # refused: not staff
    await h.command(owner, "config", "language", language=language)
    await h.command(player, "reminders", dm=True)
    await h.command(player, "reminders", dm=False)
    await h.command(player, "stats")
    await h.command(player, "history")
    await h.command(player, "leaderboard", game="sensei")
    await h.command(player, "replay", game_id=2**53 - 1)  # no such game
    await h.command(player, "sensei", "challenge", opponent=player)  # refused: yourself
    await h.command(player, "sensei", "move", notation="z9-z9")  # refused: no game here


async def finish(h: Harness, table_id: int, players: list[Member], *, to_the_end: bool,
                 rng: random.Random) -> None:
    """Play random legal moves (to the end, or a few), then resign what is left."""
    for _ in range(400 if to_the_end else 4):
        live = await h.bot.tables.get(table_id)
        if live.row.status != "playing":
            return
        seat = live.game.to_move
        if live.row.seats[seat].ai is not None:
            await h.settle()
            continue
        await h.bot.tables.act(table_id, players[seat].id, rng.choice(live.game.legal_actions(seat)))
        h.bot.reconciler.mark(table_id)  # what a click's publishing does
        await h.settle()
    for _ in range(20):
        live = await h.bot.tables.get(table_id)
        if live.row.status != "playing":
            break
        seat = live.game.to_move
        if live.row.seats[seat].ai is None:
            await h.bot.tables.act(table_id, players[seat].id, {"type": "resign"})
            h.bot.reconciler.mark(table_id)
        await h.settle()  # an AI to move plays


async def after_the_end(h: Harness, table, member: Member, download: bool) -> None:
    """The finished board's Replay (stepping, the last step, Download) and Rematch."""
    b = board(h, table)
    token = await press(h, member, b, "replay")
    viewer = ephemeral_reply(h, token)
    first, back, forward, last, download, *extra = components_of(viewer)
    review = [c for c in extra if c["custom_id"].split(":")[2] == "review"]
    own = [c for c in extra if c not in review]
    if review:  # a game with a review: its button answers (here: being prepared)
        await h.click(member, viewer, review[0]["custom_id"])
        viewer = h.fake.messages[int(viewer["id"])]
    for extra_button in own:  # Narabi's par line: its first page, the next, the last, back
        await h.click(member, viewer, extra_button["custom_id"])
        for index in (2, 3, 4):
            page = h.fake.messages[int(viewer["id"])]
            await h.click(member, page, components_of(page)[index]["custom_id"])
        viewer = h.fake.messages[int(viewer["id"])]
    await h.click(member, viewer, forward["custom_id"])
    viewer = h.fake.messages[int(viewer["id"])]
    await h.click(member, viewer, components_of(viewer)[3]["custom_id"])
    viewer = h.fake.messages[int(viewer["id"])]
    if download:  # the whole game as an animated picture and its moves as text
        await h.click(member, viewer, components_of(viewer)[4]["custom_id"])
    await h.command(member, "replay", game_id=table.id)
    await press(h, member, board(h, table), "rematch")


class Clock:
    """The store's clock, moved by hand."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def lobby_of(h: Harness) -> dict[str, Any]:
    return next(m for m in reversed(h.fake.channel_messages(CHANNEL_ID))
                if m["embeds"] and not m["flags"] & 64)


async def clock_tour(h: Harness, players: list[Member], rng: random.Random) -> None:
    """A timed Sàréná table: the deadline on the board, a reminder (by DM too), a timeout,
    the vote that hands the seat to an AI, and the absent player coming back."""
    clock = Clock(time.time())
    h.bot.store.clock = clock
    members = players[2:5]
    for member in members:
        await h.command(member, "reminders", dm=True)
    host = members[0]
    await h.command(host, "sarena", "start")
    table_id = int(find_component(lobby_of(h), "join")["custom_id"].split(":")[1])
    await h.click(host, lobby_of(h), f"sarena:{table_id}:clock", values=["3600"])
    await h.click(host, lobby_of(h), f"sarena:{table_id}:policy", values=["wait"])
    for member in members[1:]:
        await press(h, member, lobby_of(h), "join")
    await press(h, host, lobby_of(h), "start")
    live = await h.bot.tables.get(table_id)
    table = Table(table_id, {}, live.row.game_channel_id, members)
    absent = live.game.to_move
    for _ in range(3):  # the reminder, then the timeout
        clock.now += 1800
        await h.bot.turnclock.run_due()
        await h.settle()
    assert h.bot.turnclock.fired["reminders"] and h.bot.turnclock.fired["timeouts"] == 1
    for i, member in enumerate(members):
        if i != absent:
            await h.click(member, board(h, table), f"sarena:{table_id}:absent")
    await h.click(members[absent], board(h, table), f"sarena:{table_id}:back")
    await finish(h, table_id, members, to_the_end=False, rng=rng)


async def narabi_tour(h: Harness, players: list[Member], rng: random.Random, end: bool) -> Any:
    h.fake.closed_dms.add(players[4].id)  # the thread says so, once, and points to the button
    table = await start_table(h, "narabi", players[:5])
    b = board(h, table)
    for p in players[:5]:
        await press(h, p, b, "mine")  # the private cards
    live = await h.bot.tables.get(table.id)
    mover = table.players[live.game.to_move]
    other = next(p for p in table.players if p is not mover)
    await press(h, other, b, "switch")  # refused: not your turn
    # Ask: a card, a second card, the question; the asked player answers.
    if any(c.get("custom_id", "").split(":")[2] == "ask" for c in components_of(b)):
        step = ephemeral_reply(h, await press(h, mover, b, "ask"))
        step = ephemeral_reply(h, await first_choice(h, mover, step))
        await first_choice(h, mover, step)
        for message in list(h.fake.channel_messages(table.thread)):
            answers = [c for c in components_of(message)
                       if c.get("custom_id", "").split(":")[2:3] == ["answer"]]
            for member in table.players:
                if answers:
                    await h.click(member, message, answers[0]["custom_id"])
    for _ in range(2):  # switches through the three taps
        live = await h.bot.tables.get(table.id)
        seat = live.game.to_move
        action = rng.choice([a for a in live.game.legal_actions(seat) if a["type"] == "switch"])
        b = board(h, table)
        await tap_through(h, table.players[seat], b, narabi_path(b, action))
    b = board(h, table)
    step = ephemeral_reply(h, await press(h, players[0], b, "resign"))  # asked, then not
    await finish(h, table.id, table.players, to_the_end=end, rng=rng)
    return table


async def sensei_tour(h: Harness, players: list[Member], rng: random.Random, end: bool) -> Any:
    table = await start_table(h, "sensei", players[1:3], first="green")
    b = board(h, table)
    for _ in range(3):  # typed turns
        live = await h.bot.tables.get(table.id)
        if live.row.status != "playing":
            break
        turn = rng.choice(legal_turns(live.game))
        text = " ".join(("*" if a["type"] == "character" else "") + f"{a['from']}-{a['to']}"
                        for a in turn)
        await h.command(table.players[live.game.to_move], "sensei", "move",
                        channel_id=table.thread, notation=text)
    live = await h.bot.tables.get(table.id)
    mover = table.players[live.game.to_move]
    b = board(h, table)
    token = await press(h, mover, b, "move")  # the step menu: the stones …
    step = ephemeral_reply(h, token)
    picks = [c for c in components_of(step) if c.get("custom_id", "").count(":") >= 3]
    if picks:
        await h.click(mover, step, picks[0]["custom_id"],
                      values=[picks[0]["options"][0]["value"]] if picks[0]["type"] == 3 else None)
    await press(h, table.players[1 - live.game.to_move], b, "move")  # refused: not your turn
    await h.command(mover, "sensei", "move", channel_id=table.thread, notation="a1-a1 a1-a1")
    await h.command(mover, "sensei", "board", channel_id=table.thread)
    await finish(h, table.id, table.players, to_the_end=False, rng=rng)
    return table


async def solo_table(h: Harness, host: Member, game: str, **options: Any) -> Table:
    """A table against AI players, started by its command."""
    await h.command(host, game, "start", **options)
    lobby = next(m for m in reversed(h.fake.channel_messages(CHANNEL_ID)) if m["embeds"])
    table_id = int(lobby["embeds"][0]["title"].rsplit("#", 1)[1])
    live = await h.bot.tables.get(table_id)
    return Table(table_id, lobby, live.row.game_channel_id, [host])


async def sensei_ai_tour(h: Harness, player: Member, rng: random.Random) -> Any:
    """A whole Sensei game against the easy AI."""
    table = await solo_table(h, player, "sensei", ai="easy", first="green")
    await finish(h, table.id, [player, player], to_the_end=True, rng=rng)
    return table


async def sarena_tour(h: Harness, owner: Member, players: list[Member], rng: random.Random,
                      end: bool, ai: bool) -> Any:
    if ai:
        table = await solo_table(h, players[3], "sarena", ai="easy", players=3)
    else:
        # A lobby of people and an AI the host adds, another removed, the clock changed.
        lobby_players = [players[3], players[4]]
        await h.command(players[3], "sarena", "start", fair=True)
        lobby = next(m for m in reversed(h.fake.channel_messages(CHANNEL_ID)) if m["embeds"])
        await press(h, players[4], lobby, "join")
        await press(h, players[2], lobby, "join")
        lobby = h.fake.messages[int(lobby["id"])]
        await press(h, players[2], lobby, "leave")
        lobby = h.fake.messages[int(lobby["id"])]
        for c in components_of(lobby):
            if c["type"] == 3:  # the host's menus: AI players (an easy one), time per turn, policy
                option = c["options"][0 if c["custom_id"].split(":")[2] == "addai" else -1]
                await h.click(players[3], lobby, c["custom_id"], values=[option["value"]])
                lobby = h.fake.messages[int(lobby["id"])]
        await press(h, players[4], lobby, "start")  # refused: only the host starts
        lobby = h.fake.messages[int(lobby["id"])]
        table_id = int(find_component(lobby, "start")["custom_id"].split(":")[1])
        await press(h, players[3], lobby, "start")
        live = await h.bot.tables.get(table_id)
        table = Table(table_id, lobby, live.row.game_channel_id, lobby_players)
        if live.row.status != "playing":
            return table
    b = board(h, table)
    await press(h, table.players[0], b, "mine")  # the private colour
    for _ in range(2):  # moves through the three taps
        live = await h.bot.tables.get(table.id)
        if live.row.status != "playing":
            break
        seat = live.game.to_move
        if live.row.seats[seat].ai is not None:
            await h.settle()
            continue
        player = next((p for p in table.players if live.row.seats[seat].user_id == p.id), None)
        if player is None:
            break
        b = board(h, table)
        action = rng.choice(live.game.legal_actions(seat))
        await tap_through(h, player, b, sarena_path(b, action))
    seated = {s.user_id: s for s in (await h.bot.tables.get(table.id)).row.seats}
    movers = [next((p for p in table.players if p.id == s.user_id), owner)
              for s in (await h.bot.tables.get(table.id)).row.seats]
    assert seated
    await finish(h, table.id, movers, to_the_end=end, rng=rng)
    return table


@pytest.mark.slow
@pytest.mark.parametrize("language", list(DISCORD_LOCALE))
async def test_every_message_in_every_language_is_valid_for_discord(tmp_path, monkeypatch,
                                                                    language):
    deal_with(monkeypatch, SEEDS.get(language, 7))
    h = await start_bot(tmp_path / "bot.sqlite3")
    refused_before = len(SPEC.refused)
    try:
        h.fake.guild_locale = DISCORD_LOCALE[language]
        owner, players = people(language)
        rng = random.Random(language)
        end = language in TO_THE_END
        await every_command(h, owner, players[0], language)
        await clock_tour(h, players, rng)
        narabi = await narabi_tour(h, players, rng, end)
        sensei = await sensei_tour(h, players, rng, end)
        await sarena_tour(h, owner, players, rng, end, ai=False)
        finished = [(narabi, players[0]), (sensei, players[1])]
        if end:  # every game to its end, against the AI too
            finished.append((await sarena_tour(h, owner, players, rng, end, ai=True), players[3]))
            finished.append((await sensei_ai_tour(h, players[2], rng), players[2]))
        for table, member in finished:
            assert (await h.bot.store.get_table(table.id)).status == "finished"
        for table, member in finished[:2]:
            await after_the_end(h, table, member, download=end)
        # Results, ratings and history now have something to say.
        await h.command(players[1], "stats")
        await h.command(players[1], "stats", member=players[2])
        await h.command(players[1], "leaderboard", game="sensei")
        await h.command(players[1], "leaderboard", game="sarena")
        token = await h.command(players[1], "history")
        page = ephemeral_reply(h, token)
        await first_choice(h, players[1], page)  # the history's "Replay a game…" menu
        await h.command(players[1], "history", game="sensei", member=players[2])

        kinds = judged(h)
        assert len(SPEC.refused) == refused_before, SPEC.refused[refused_before:][:3]
        assert sum(kinds.values()) >= 150, kinds
        for kind in ("PUT applications", "POST channels messages", "PATCH channels messages",
                     "POST channels messages/threads", "POST users", "POST interactions 4",
                     "POST interactions 7", "POST webhooks"):
            assert kinds[kind], (kind, kinds)
    finally:
        await h.bot.close()
