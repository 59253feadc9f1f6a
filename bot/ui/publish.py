"""What a table shows its channel, and the reconciler's side of it: the board message and its
picture, the turn lines, the private DMs, the outbox items a commit queued, and bringing
whatever fell behind up to date (``sync_surfaces``, which the reconciler calls).

Every public message goes out from here so that a lost thread, a missing permission or a
closed DM is handled once. Mixed into ``GameCog``: its hooks (``status_text``, ``describe``,
``private_text`` …) say what the messages read."""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Mapping

import discord

from ..i18n import t
from ..domain.tables import LiveTable, Outcome
from .dms import DmsClosed
from .drawing import DrawingMixin
from .launch import VERB as OPEN_BOARD, open_board_button
from .limits import clip, CONTENT, EMBED_DESCRIPTION, THREAD_NAME
from .permissions import missing_from_error, missing_in_channel
from .pictures import upload
from .relay import HELD_AT_MOST
from .reconcile import SurfaceBlocked
from .review import review_button
from .routing import button, view_of
from .style import COLOUR, MENTION_USERS, NO_MENTIONS, ai_name, when_text

log = logging.getLogger(__name__)

BOARD_FILE = "board.png"
#: Discord: "A thread has already been created for this message" (its id is the message's)
THREAD_EXISTS = 160004
UNKNOWN_CHANNEL = 10003
#: seconds the store's clock and Discord's may differ when matching a thread to an attempt
THREAD_CLOCK_SLACK = 30.0


class PublishMixin(DrawingMixin):
    # == the reconciler's side: bringing a table's messages up to date =====================

    async def sync_surfaces(self, table_id: int) -> bool:
        """Deliver the table's outbox and re-render whatever shows an older version. Each step
        is recorded as soon as it is done, so a stop anywhere resumes where it was. True when
        anything was behind."""
        live = await self.tables.with_game(table_id)
        if live is None:
            return False
        items = await self.bot.store.outbox(table_id)
        if any(kind == "over" for _, kind, _ in items) and (
                live.game is None or live.game.result() is None):
            # Another process ended the game: this copy is older than the outbox read just
            # now. Read the table again; until it shows the end, its end is not told.
            row = await self.bot.store.get_table(table_id)
            if row is not None:
                self.tables.forget_older(table_id, row.version, row.rev)
            live = await self.tables.with_game(table_id)
            if live is None:
                return False
        lobby_behind = live.row.lobby_behind or (live.row.status == "lobby"
                                                 and live.row.lobby_message_id is None)
        board_behind = live.game is not None and live.row.board_behind
        # The board first, then the turn lines: the one counted call a move makes is the one
        # people wait for (a line through an interaction is not held back by the budget).
        before_board = [i for i in items if i[1] in ("thread", "announce", "question")]
        # A person's line whose click is not answered yet waits for the answer (the click's
        # end publishes again), rather than riding on the board where the next edit drops it.
        waiting = [i for i in items if i[1] == "log" and self.bot.relay.awaiting_answer(
            live.id, int(i[2].get("version", -1)), live.user_of(int(i[2]["seat"])))]
        if waiting:
            asyncio.get_running_loop().call_later(HELD_AT_MOST, self.bot.reconciler.mark, live.id)
        after_board = [i for i in items if i not in before_board and i not in waiting]
        for item in before_board:
            await self._deliver_item(live, item)
        # What the bot says in its own name (an AI's move, the end) rides on the board's edit,
        # its one counted call; only a person's own move goes out through their interaction.
        folded = [(item, line) for item in after_board
                  if (line := self.folded_line(live, item, before_board)) is not None]
        lines = [line for _, line in folded if line]
        if live.game is not None and (live.row.board_behind or lines):
            await self.refresh_board(live, lines=lines)
        for item, _ in folded:
            await self.bot.store.outbox_done(item[0])
        for item in after_board:
            if all(item is not done for done, _ in folded):
                await self._deliver_item(live, item)
        if live.row.lobby_behind or (live.row.status == "lobby" and live.row.lobby_message_id is None):
            await self.refresh_lobby(live)
        return bool(items) or lobby_behind or board_behind

    def folded_line(self, live: LiveTable, item: tuple[int, str, dict[str, Any]],
                    before: list[tuple[int, str, dict[str, Any]]]) -> str | None:
        """The line an outbox item adds to the board message's edit ("" for none), or None
        when it goes out as a message of its own: a person's move through their own
        interaction, the clock's notices (rare, and they ping), or a line whose next player
        must be pinged (an edit pings nobody)."""
        _, kind, payload = item
        locale = live.row.locale
        if live.game is None or live.row.status == "lobby":
            return None
        if kind == "over":
            if live.game.result() is None:
                # An end the state cannot tell (not in the game rebuilt from its log): the
                # board shows where it stopped; nothing is made up about how it ended.
                log.info("table %s: its end is queued but not in its state", live.id)
                return ""
            return t("game.over", locale, summary=self.result_text(live, locale))
        if kind != "log":
            return None
        if self.bot.relay.mover_of(live.id, int(payload.get("version", -1)),
                                   live.row.game_channel_id) is not None:
            return None
        nxt = payload.get("next")
        if nxt is not None and nxt != int(payload["seat"]) and live.row.status == "playing":
            seat = live.row.seats[nxt]
            pinged = any(k == "announce" for _, k, _ in before)  # the start pinged them
            if (seat.person and seat.ai is None and not pinged
                    and not self.bot.relay.watching(live.id, seat.user_id)):
                return None
        return self.log_line(live, payload) or ""

    async def _deliver_item(self, live: LiveTable, item: tuple[int, str, dict[str, Any]]) -> None:
        item_id, kind, payload = item
        if kind == "thread" and payload.get("round") is not None and live.row.thread_id is None:
            # A thread without a starter message gets a new id each time it is made: noting
            # the attempt first lets a restart find the one a stop left unrecorded.
            if "tried" in payload:
                payload = dict(payload, retry=True)
            else:
                # Wall time, not the store's clock: it is compared with Discord's ids.
                await self.bot.store.outbox_note(item_id, dict(payload, tried=time.time()))
        try:
            await self.deliver(live, kind, payload)
        except discord.Forbidden as exc:
            if exc.code == 50007:  # the user's DMs are closed: handled, nothing to retry
                pass
            else:
                await self._lost_permission(live, exc)
        await self.bot.store.outbox_done(item_id)

    async def _lost_permission(self, live: LiveTable, exc: discord.Forbidden) -> None:
        """Say where it can still be said that the bot cannot post in the game's channel,
        then keep the item for later (raises SurfaceBlocked)."""
        missing = (missing_in_channel(self.bot, live.row.guild_id, live.row.game_channel_id)
                   or missing_from_error(exc))
        if self.bot.reconciler.blocked.get(live.id) is None and live.row.thread_id is not None:
            try:
                await self.channel(live.row.channel_id).send(
                    t("notice.blocked", live.row.locale, table=live.id,
                      problem=self.blocked_text(missing, live.row.locale)),
                    allowed_mentions=NO_MENTIONS)
            except discord.HTTPException:
                pass  # the parent channel refuses too: clicks will tell the players
        raise SurfaceBlocked(live.id, missing) from None

    async def deliver(self, live: LiveTable, kind: str, payload: Mapping[str, Any]) -> None:
        """Post one outbox item. Games add their own kinds through ``deliver_extra``."""
        locale = live.row.locale
        if kind == "thread":
            await self._open_thread(live, bool(payload.get("use")), payload)
        elif kind == "announce":
            await self._announce_start(live, payload.get("first", self.game(live).to_move))
        elif kind == "log":
            await self._post_log(live, payload)
        elif kind == "dm":
            seat = int(payload["seat"])
            game = self.game(live)
            # A DM is read by its player alone: in their language when the bot knows it.
            locale = live.row.seats[seat].locale or locale
            if payload.get("hand"):
                text = self.private_text(live, seat, game.private_view(seat), locale)
            else:
                text = self.private_update_text(live, seat, payload["before"], payload["after"],
                                                locale)
            if text and live.row.status == "playing":
                await self.send_private(live, seat, text)
        elif kind == "over":
            if self.game(live).result() is not None:  # (see folded_line)
                await self.post(live, t("game.over", locale,
                                        summary=self.result_text(live, locale)))
        elif kind == "after":
            self.bot.reviewer.queue(live.id)  # a game with a review module gets one computed
            await self.after_finish(live)
        elif kind in ("timeout", "remind", "remind_dm", "handed", "back"):
            await self._deliver_clock(live, kind, payload)
        else:
            await self.deliver_extra(live, kind, payload)

    def seat_notice(self, live: LiveTable, kind: str, payload: Mapping[str, Any]) -> str:
        """A seat timing out, handed to an AI, or taken back: the bot's own words."""
        locale, person = live.row.locale, f"<@{live.user_of(int(payload['seat']))}>"
        if kind == "timeout":
            return t(f"clock.timeout.{payload.get('policy', 'ai')}", locale, player=person,
                     ai=ai_name("medium", locale))
        if kind == "handed":
            return t("clock.handed", locale, player=person, ai=ai_name("medium", locale))
        return t("clock.back", locale, player=person)

    async def _deliver_clock(self, live: LiveTable, kind: str, payload: Mapping[str, Any]) -> None:
        """What the turn clock and seats changing hands tell the table, with the bot's own
        call: never through the interaction of someone else."""
        locale, seat = live.row.locale, int(payload["seat"])
        person = f"<@{live.user_of(seat)}>"
        if kind in ("timeout", "handed", "back"):
            await self.post(live, self.seat_notice(live, kind, payload), mentions=kind != "back")
        elif live.row.status == "playing" and live.row.deadline == payload.get("deadline"):
            when = when_text(float(payload["deadline"]))
            if kind == "remind":
                await self.post(live, t(f"clock.remind.{int(payload['stage'])}", locale,
                                        player=person, when=when), mentions=True)
            else:
                mine = live.row.seats[seat].locale or locale
                text = t("clock.remind_dm", mine, game=t(f"{self.game_key}.name", mine),
                         table=live.id, when=when, link=self.board_link(live))
                try:
                    await self.bot.dms.send(live.user_of(seat), clip(text, CONTENT))
                except (DmsClosed, discord.HTTPException):
                    pass  # DMs closed: the ping in the thread is the reminder
                return
        if live.game is not None and live.row.status == "playing":
            # Who plays, the time left and the buttons changed with it.
            await self.refresh_board(live)

    async def deliver_extra(self, live: LiveTable, kind: str, payload: Mapping[str, Any]) -> None:
        log.warning("table %s: unknown outbox item %r dropped", live.id, kind)

    async def post(self, live: LiveTable, text: str, *, mentions: bool = False,
                   view: discord.ui.View | None = None) -> discord.Message:
        """A message in the game's channel, within Discord's limits. A deleted thread sends
        the game back to its channel rather than leaving it without a place to be played."""
        kwargs: dict[str, Any] = {"allowed_mentions": MENTION_USERS if mentions else NO_MENTIONS}
        if view is not None:
            kwargs["view"] = view
        try:
            return await self.channel(live.row.game_channel_id).send(clip(text, CONTENT), **kwargs)
        except discord.NotFound as exc:
            if exc.code != UNKNOWN_CHANNEL or live.row.thread_id is None:
                raise
            log.warning("table %s: its thread is gone; the game goes on in the channel", live.id)
            await self.tables.set_surface(live, thread_id=None, board_message_id=None)
            return await self.channel(live.row.game_channel_id).send(clip(text, CONTENT), **kwargs)

    async def _open_thread(self, live: LiveTable, use: bool,
                           payload: Mapping[str, Any] | None = None) -> None:
        payload = payload or {}
        # A table started without a lobby (a tournament's round) opens a thread of its own:
        # no message in the channel first, whose 5 posts per 5 s would hold a round's start.
        standalone = payload.get("round") is not None
        if not use or live.row.thread_id is not None or (
                live.row.lobby_message_id is None and not standalone):
            return
        locale = live.row.locale
        if standalone:
            key = "tournament.thread_playoff" if payload.get("replay") else "tournament.thread"
            name = clip(t(key, locale, name=str(payload.get("name", "")), round=payload["round"],
                          board=payload.get("board", 1), playoff=payload.get("replay", 0)),
                        THREAD_NAME)
        else:
            name = clip(t("thread.name", locale, game=t(f"{self.game_key}.name", locale),
                          table=live.id), THREAD_NAME)
        if standalone and payload.get("retry"):
            found = await self._thread_made_before(live, name, float(payload["tried"]))
            if found is not None:
                await self.tables.set_surface(live, thread_id=found)
                return
        try:
            # The REST call itself: a partial lobby message carries no guild to build a Thread.
            if live.row.lobby_message_id is None:
                data = await self.bot.http.start_thread_without_message(
                    live.row.channel_id, name=name, auto_archive_duration=1440, type=11)
            else:
                data = await self.bot.http.start_thread_with_message(
                    live.row.channel_id, live.row.lobby_message_id, name=name,
                    auto_archive_duration=1440)
            thread_id = int(data["id"])
        except discord.HTTPException as exc:
            if exc.code == THREAD_EXISTS:
                # Made before a stop that came ahead of recording it: a thread opened from a
                # message has that message's id, so it is found, not left orphaned.
                thread_id = live.row.lobby_message_id
            else:
                log.info("table %s: no thread (%s), playing in the channel", live.id, exc.status)
                return
        await self.tables.set_surface(live, thread_id=thread_id)

    async def _thread_made_before(self, live: LiveTable, name: str, tried: float) -> int | None:
        """The thread an interrupted attempt made: this bot's, in the table's channel, with
        the table's name, created since the attempt began (its id says when)."""
        if live.row.guild_id is None:
            return None
        try:
            data = await self.bot.http.get_active_threads(live.row.guild_id)
        except discord.HTTPException as exc:
            log.info("table %s: could not list threads (%s)", live.id, exc.status)
            return None
        me = self.bot.user.id if self.bot.user is not None else None
        since = tried - THREAD_CLOCK_SLACK
        for thread in data.get("threads", []):
            made = discord.utils.snowflake_time(int(thread["id"])).timestamp()
            if (str(thread.get("parent_id")) == str(live.row.channel_id)
                    and thread.get("name") == name and made >= since
                    and (me is None or str(thread.get("owner_id")) == str(me))):
                return int(thread["id"])
        return None

    async def _announce_start(self, live: LiveTable, first: int | None) -> None:
        locale = live.row.locale
        for seat in live.row.seats:  # the start's message pings every person at the table
            if seat.person:
                self.bot.relay.told(live.id, seat.user_id)
        players = " ".join(self.mention(live, s.seat) for s in live.row.seats)
        await self.post(live, t("game.started", locale, players=players,
                                first=self.mention(live, first) if first is not None else "—"),
                        mentions=True)

    def log_line(self, live: LiveTable, payload: Mapping[str, Any], *,
                 jump: bool = False) -> str | None:
        locale = live.row.locale
        outcome = Outcome(live, int(payload["seat"]), dict(payload["action"]),
                          list(payload["events"]), None)
        line = self.describe(outcome, locale)
        if not line:
            return None
        nxt = payload.get("next")
        if nxt is not None and nxt != outcome.seat:
            line += " " + t("game.next", locale, player=self.mention(live, nxt))
        if jump and live.row.board_message_id is not None and live.row.status == "playing" \
                and not live.row.remote:  # a remote table's line sits on the board itself
            # However far the board has scrolled up, it is one tap away from the last turn.
            line += " · " + t("game.jump", locale, link=self.board_link(live))
        return line

    async def _post_log(self, live: LiveTable, payload: Mapping[str, Any]) -> None:
        line = self.log_line(live, payload, jump=True)
        if not line:
            return
        if live.row.remote:  # the table is one message: its lines sit on the board itself
            await self.post(live, line, mentions=True)
            return
        sent = await self.bot.relay.send_own_line(
            live.id, int(payload.get("version", -1)), live.row.game_channel_id,
            clip(line, CONTENT), MENTION_USERS)
        if sent is None:
            await self.post(live, line, mentions=True)

    # == the board message =================================================================

    def board_view(self, live: LiveTable, locale: str) -> discord.ui.View:
        tid = live.id
        if live.row.status == "finished":
            return view_of(button(self.cid(tid, "rematch"), t("button.rematch", locale),
                                  style=discord.ButtonStyle.primary, emoji="🔁"),
                           button(self.cid(tid, "replay", 0, 9), t("button.replay", locale),
                                  emoji="🎞️"),
                           review_button(self.game_key, tid, locale))
        items = list(self.game_components(live, locale))
        opener = open_board_button(self.bot, self.cid(tid, OPEN_BOARD), locale)
        if opener is not None:
            items.append(opener)
        if self.private_button:
            items.append(button(self.cid(tid, "mine"), t(self.private_button, locale), emoji="🔒"))
        items.append(button(self.cid(tid, "resign"), t(f"{self.game_key}.button.resign", locale),
                            style=discord.ButtonStyle.danger))
        seats = live.row.seats
        if any(s.person and s.ai is not None for s in seats):
            items.append(button(self.cid(tid, "back"), t("button.im_back", locale), emoji="👋",
                                style=discord.ButtonStyle.success))
        if self.absent_vote_open(live):
            items.append(button(self.cid(tid, "absent"), t("button.absent", locale), emoji="🗳️"))
        return view_of(*items)

    def board_embed(self, live: LiveTable, locale: str) -> discord.Embed:
        title = t("lobby.title", locale, game=t(f"{self.game_key}.name", locale), table=live.id)
        if live.row.status == "finished":
            description = self.result_text(live, locale)
        else:
            description = self.status_text(live, locale)
            row = live.row
            if row.deadline is not None and row.deadline_seat is not None:
                description += "\n" + t("board.deadline", locale,
                                        player=self.mention(live, row.deadline_seat),
                                        when=when_text(row.deadline))
        embed = discord.Embed(title=clip(title, 256), description=clip(description, EMBED_DESCRIPTION),
                              colour=COLOUR.get(live.row.status, 0))
        embed.set_image(url=f"attachment://{BOARD_FILE}")
        return embed

    async def refresh_board(self, live: LiveTable, *, repost: bool = False,
                            lines: list[str] | None = None) -> None:
        """Make the board message show the stored version: edit it, or post a new one (and
        retire the old) when it cannot be edited or ``repost`` asks for the board to become
        the newest message. Records the version it now shows. ``lines`` (the bot's own: an
        AI's move, the end) become the message's text; a new version without any clears
        the last, a repaint of the same version keeps it."""
        version, locale = live.row.version, live.row.locale
        # Text and buttons from the same moment as the picture: a move committed while the
        # picture is drawn changes ``live`` in place, and a board whose words say "your turn"
        # over the position before it is a board that lies (the next edit shows that move).
        embed = self.board_embed(live, locale)
        view = self.board_view(live, locale)
        png = await self.board_png(live)
        text: dict[str, Any] = {}
        if lines:
            text["content"] = clip("\n".join(lines), CONTENT)
        elif live.row.board_version != version:
            text["content"] = None
        old = live.row.board_message_id
        if old is not None and not repost:
            try:
                await self.channel(live.row.game_channel_id).get_partial_message(old).edit(
                    embed=embed, attachments=[upload(png, BOARD_FILE)],
                    view=view, **text)
                await self.tables.set_surface(live, board_version=version)
                return
            except discord.NotFound:
                log.info("table %s: board message gone, posting a new one", live.id)
                old = None
            except discord.Forbidden as exc:
                if exc.code != 50005:  # "cannot edit a message authored by another user"
                    await self._lost_permission(live, exc)
            except discord.HTTPException as exc:
                log.info("table %s: board edit refused (%s), posting a new one", live.id, exc.status)
        try:
            message = await self.channel(live.row.game_channel_id).send(
                text.get("content"), embed=embed, file=upload(png, BOARD_FILE), view=view,
                allowed_mentions=NO_MENTIONS)
        except discord.Forbidden as exc:
            await self._lost_permission(live, exc)
            raise  # unreachable: _lost_permission raises
        await self.tables.set_surface(live, board_message_id=message.id, board_version=version)
        if old is not None:
            try:  # retire the board that could not be edited: its buttons would mislead
                await self.channel(live.row.game_channel_id).get_partial_message(old).delete()
            except discord.HTTPException:
                pass

    # == private information ===============================================================

    async def send_private(self, live: LiveTable, seat: int, text: str) -> None:
        """DM a player their private state; say so in the game channel when DMs are closed."""
        if not text or not live.row.seats[seat].person:
            return
        user_id = live.user_of(seat)
        try:
            await self.bot.dms.send(user_id, clip(text, CONTENT))
        except (DmsClosed, discord.Forbidden):
            if await self.tables.set_dm_open(live, seat, False):
                label = t(self.private_button or "button.mine", live.row.locale)
                await self.post(live, t("dm.closed", live.row.locale,
                                        player=self.mention(live, seat), button=label),
                                mentions=True)
        except discord.HTTPException as exc:
            log.warning("table %s: DM to seat %s failed: %s", live.id, seat, exc.status)
        else:
            await self.tables.set_dm_open(live, seat, True)
