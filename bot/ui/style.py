"""How a table's messages look, shared by the lobby, the board and the turn lines: the colour of
each status, whom a message may ping, and how AI players, people and times are written."""
from __future__ import annotations

import discord

from ..i18n import t
from ..markdown import Markdown

MENTION_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
NO_MENTIONS = discord.AllowedMentions.none()
COLOUR = {"lobby": 0x5865F2, "playing": 0x57F287, "finished": 0xFEE75C, "cancelled": 0x99AAB5}
AI_EMOJI = "🤖"


def limit_text(seconds: float | None, locale: str) -> str:
    """A time per turn as people say it: "2 min", "24 h", "no time limit"."""
    if not seconds:
        return t("clock.off", locale)
    if seconds < 3600:
        return t("clock.minutes", locale, n=f"{seconds / 60:g}")
    return t("clock.hours", locale, n=f"{seconds / 3600:g}")


def when_text(deadline: float) -> Markdown:
    """A moment every reader sees in their own time zone, relative ("in 3 hours")."""
    return Markdown(f"<t:{int(deadline)}:R>")


def ai_name(level: str, locale: str) -> Markdown:
    """How an AI player is named at a table (in the server's language)."""
    return Markdown(t("ai.name", locale, level=t(f"ai.level.{level}", locale)))


def display_name(user: discord.abc.User) -> str:
    return (getattr(user, "display_name", None) or user.name)[:64]
