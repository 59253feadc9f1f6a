"""Playing where the bot is not a member, as people do: a group DM (or a DM, or a server without
the bot) where one person installed the app, the table's one message, the private steps that
answer a click on it. Shared by the tests and the bench (``user_install``)."""
from __future__ import annotations

import random
from typing import Any

from .fake_discord import Member, components_of, find_component, snowflake
from .flows import choice_on
from .harness import Harness
from .places import Place


def open_place(h: Harness, kind: str, installer: Member, *others: Member,
               **options: Any) -> Place:
    """A group DM (``group_dm``), a DM between two people (``dm``), the bot's own DM
    (``bot_dm``) or a channel of a server that never added the bot (``foreign_guild``)."""
    people = [installer, *others]
    for person in people:
        h.names[person.id] = person.name
    if kind == "foreign_guild":
        options.setdefault("guild_id", snowflake())
    return h.fake.places.add(Place(snowflake(), kind, installer.id,
                                   recipients=[p.id for p in people], **options))


def table_message(h: Harness, place: Place) -> dict[str, Any]:
    """The table: the one public message of the place."""
    public = [m for m in h.fake.channel_messages(place.channel_id) if not m["flags"] & 64]
    assert len(public) == 1, [m["id"] for m in public]
    return public[0]


def table_id_of(message: dict[str, Any]) -> int:
    return int(components_of(message)[0]["custom_id"].split(":")[1])


def private_answer(h: Harness, token: str) -> dict[str, Any]:
    """The ephemeral message a click was answered with: the one it sent (a follow-up, after
    a click on the table's message) or the one it replaced (a click on an ephemeral step)."""
    record = h.fake.interactions[token]
    own = [h.fake.messages[m] for m in sorted(record.own) if m in h.fake.messages]
    original = h.fake._original.get(token)
    if original is not None and original in h.fake.messages \
            and h.fake.messages[original]["flags"] & 64:
        own.append(h.fake.messages[original])
    private = [m for m in own if m["flags"] & 64]
    assert private, "the click was not answered privately"
    return private[-1]


async def click_verb(h: Harness, member: Member, message: dict[str, Any], verb: str,
                     values: list[str] | None = None) -> str:
    return await h.click(member, message, find_component(message, verb)["custom_id"],
                         values=values)


async def sensei_turn(h: Harness, place: Place, player: Member,
                      turn: list[dict[str, Any]]) -> str:
    """Move (on the table) → per action its piece and its square → Send turn (all on the
    private steps). Returns the last click's token."""
    from cogs.sensei.cog import encode_plan

    token = await click_verb(h, player, table_message(h, place), "move")
    step = private_answer(h, token)
    for n, action in enumerate(turn, start=1):
        piece = "char" if action["type"] == "character" else action["from"]
        token = await h.click(player, step, _ending(step, "from", piece))
        step = private_answer(h, token)
        token = await h.click(player, step, _ending(step, "plan", encode_plan(turn[:n])))
        step = private_answer(h, token)
    return await click_verb(h, player, step, "send")


def _ending(message: dict[str, Any], verb: str, value: str) -> str:
    for c in components_of(message):
        parts = c.get("custom_id", "").split(":")
        if parts[2] == verb and parts[3].split(".")[-1] == value:
            return c["custom_id"]
    raise AssertionError(f"no {verb} {value} on {[c.get('custom_id') for c in components_of(message)]}")


def towards_goal(game: Any, rng: random.Random) -> list[dict[str, Any]]:
    """A Sensei turn that brings the mover's character closest to the far rank (a game
    played this way ends in some 20 turns)."""
    from bot.games.sensei.turns import legal_turns

    seat = game.to_move
    best, score = [], None
    for turn in legal_turns(game):
        trial = game.copy()
        for action in turn:
            trial.apply(seat, action)
        rank = int(trial.public_view()["characters"][seat][1])
        value = (rank if seat == 0 else 8 - rank, rng.random())
        if score is None or value > score:
            best, score = turn, value
    return best


async def narabi_switch(h: Harness, place: Place, player: Member,
                        action: dict[str, Any]) -> str:
    """Switch (on the table) → my card → the target (on the private steps)."""
    token = await click_verb(h, player, table_message(h, place), "switch")
    step = private_answer(h, token)
    for verb, value in (("pick", str(action["card"])), ("confirm", str(action["target"]))):
        component, values = choice_on(step, verb, value)
        token = await h.click(player, step, component["custom_id"], values=values)
        step = private_answer(h, token) if verb == "pick" else step
    return token


def bot_calls_into(h: Harness, place: Place) -> list[Any]:
    """Every bot-token request that touched the place's channel (Discord refuses them all)."""
    return [r for r in h.fake.requests
            if r.counted and place.channel_of_path(r.path) is not None]


async def tap_remote(h: Harness, player: Member, place: Place, path: list[tuple[str, Any]]) -> str:
    """Click ``path`` (``flows`` taps) from the table's message on: the first on the table,
    the rest on the private answer each click before left."""
    message, token = table_message(h, place), ""
    for verb, value in path:
        component, values = choice_on(message, verb, value)
        token = await h.click(player, message, component["custom_id"], values=values)
        message = private_answer(h, token)
    return token


async def timed_sensei(h: Harness, ana: Member, ben: Member, place: Place) -> int:
    """A Sensei table in ``place`` with 10 minutes a turn, Ana and Ben seated and started
    (Ana started it and set the clock; Ben joined by the button): its id."""
    await h.command(ana, "sensei", "start", channel_id=place.channel_id)
    table_id = table_id_of(table_message(h, place))
    await h.click(ana, table_message(h, place), f"sensei:{table_id}:clock", values=["600"])
    await click_verb(h, ben, table_message(h, place), "join")
    await click_verb(h, ana, table_message(h, place), "start")
    return table_id
