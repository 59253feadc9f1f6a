"""Two players with different Discord languages at a server speaking a third: each reads their
own replies and DMs in their language; the lobby, thread and board speak the server's."""
from __future__ import annotations

import pytest

from bot.i18n import t
from bot.testing.fake_discord import CHANNEL_ID, Member, components_of, find_component
from tests.helpers import board, start_table

pytestmark = pytest.mark.usefixtures("no_missing_text")


def labels(message) -> list[str]:
    return [c.get("label") for c in components_of(message) if c.get("label")]


async def test_each_player_in_their_language_and_the_table_in_the_servers(harness):
    h = harness
    h.fake.guild_locale = "de"
    ana, ben = Member(100, "Ana", locale="fr"), Member(101, "Ben", locale="ru")
    table = await start_table(h, "sarena", [ana, ben])
    live = await h.bot.tables.get(table.id)
    assert live.row.locale == "de"
    cog = h.bot.router.cog("sarena")

    # Public: the board's buttons and the start announcement in German.
    b = board(h, table)
    assert t("sarena.button.mine", "de") in labels(b)
    assert t("sarena.button.mine", "de") != t("sarena.button.mine", "en")
    announce = next(m["content"] for m in h.fake.channel_messages(table.thread) if m["content"])
    assert announce.startswith(t("game.started", "de", players="", first="")[:8])

    # Private, on a click: each in their own language.
    for member, seat, language in ((ana, 0, "fr"), (ben, 1, "ru")):
        token = await h.click(member, b, find_component(b, "mine")["custom_id"])
        text = h.reply_text(token)
        assert text == cog.private_text(live, seat, live.game.private_view(seat), language)
        assert text != cog.private_text(live, seat, live.game.private_view(seat), "de")

    # Private, by DM at the start: in the language each player clicked in.
    for member, seat, language in ((ana, 0, "fr"), (ben, 1, "ru")):
        dms = [m["content"] for m in h.fake.dms_to(member.id)]
        assert cog.private_text(live, seat, live.game.private_view(seat), language) in dms

    # A refusal is in the clicker's language too.
    other = 1 - live.game.to_move
    member = (ana, ben)[other]
    token = await h.click(member, b, find_component(b, "move")["custom_id"])
    language = ("fr", "ru")[other]
    assert t("error.not_your_turn", language) in h.reply_text(token) or \
        t("illegal.not_your_turn", language) in h.reply_text(token)


async def test_a_server_can_choose_its_language(harness, players):
    h = harness
    admin = players[0]
    admin.permissions = str(int(admin.permissions) | 1 << 5)  # Manage Server
    token = await h.command(admin, "config", "language", language="pl")
    assert h.reply_text(token) == t("config.language_saved", "pl", language="Polski")
    await h.command(admin, "narabi", "start")
    lobby = next(m for m in reversed(h.fake.channel_messages(CHANNEL_ID)) if m["embeds"])
    assert t("button.join", "pl") in labels(lobby)
    row = await h.bot.store.get_table(int(find_component(lobby, "join")["custom_id"].split(":")[1]))
    assert row.locale == "pl"
    token = await h.command(admin, "config", "language", language="discord")
    await h.command(admin, "narabi", "start", channel_id=CHANNEL_ID + 1)
    lobby = next(m for m in reversed(h.fake.channel_messages(CHANNEL_ID + 1)) if m["embeds"])
    assert t("button.join", "en") in labels(lobby)
