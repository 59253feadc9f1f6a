"""The Activity's side of the tables: what the page may read and do, for the person its
session names. Moves are committed by the domain's own ``act_many`` (the same code as a
click), then the runtime is told as it is after an AI's move (``on_commit``: the reconciler
brings the thread's board and lines up to date; the AI players and the clock watch the
table's listeners), so nothing of the thread changes because the move came from here.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from ..domain.live import LiveTable, TableError
from ..domain.refusals import error_text
from ..domain.tables import TableService
from ..games import IllegalAction, game_class
from ..games.ai import seat_view
from ..games.registry import keys
from ..i18n import t
from ..store import SeatRow, StoreFailure
from . import views
from .sessions import Session

#: finished games stay in the channel's list this long (seconds)
FINISHED_LISTED = 3600.0
#: actions in one request (a Sensei plan of three and its end)
MAX_ACTIONS = 4
#: tables whose public part is kept built
PUBLIC_KEPT = 4096


class Refused(Exception):
    """A request the page is answered "no" to: HTTP ``status``, a stable ``code`` and the
    sentence for the person (already translated)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(code)
        self.status, self.code, self.message = status, code, message

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}


def own_refusal(status: int, code: str, lang: str, **params: Any) -> Refused:
    return Refused(status, code, t(f"activity.server.error.{code}", lang, **params))


#: TableError codes and the HTTP status they are answered with (others: 409)
_STATUS = {"no_table": 404, "not_seated": 403, "seat_ai_held": 403, "stale": 409,
           "lobby_exists": 409, "bad_options": 400,
           # the rules' own word for it (IllegalAction, 422), whoever checked it first
           "not_your_turn": 422}


def refusal(exc: TableError | IllegalAction | StoreFailure, game: str, lang: str) -> Refused:
    """The thread's own refusal sentence (``error_text``), with a status for the page."""
    if isinstance(exc, TableError) and exc.code == "stale":
        # The thread's sentence speaks of a button; the board has none.
        return own_refusal(409, "stale", lang)
    message = error_text(exc, game, lang)
    if isinstance(exc, StoreFailure):
        return Refused(503, "store_failed", message)
    if isinstance(exc, TableError):
        return Refused(_STATUS.get(exc.code, 409), exc.code, message)
    return Refused(422, exc.code, message)


@dataclass
class Runtime:
    """What the Activity needs of the running bot (given by the client, never imported)."""
    tables: TableService
    #: the thread's surfaces of a table are behind: bring them up to date (the reconciler)
    on_commit: Callable[[int], None]
    #: an AI may be waiting on something that is not a move (a Narabi answer)
    poke_ai: Callable[[int], None] = lambda table_id: None
    #: a person moved at a table from the Activity: they are watching it, so the line that
    #: hands the turn back to them needs no ping
    acted: Callable[[int, int], None] = lambda table_id, user_id: None


class ActivityService:
    def __init__(self, runtime: Runtime, clock: Callable[[], float] = time.time) -> None:
        self.runtime = runtime
        self.tables = runtime.tables
        self.store = runtime.tables.store
        self.clock = clock
        #: table id -> ((version, rev, questions), public state as JSON text, open at its end)
        self._public: dict[int, tuple[tuple[int, int, int], str]] = {}
        #: bumped when a Narabi table's questions change (they are not part of its version)
        self._asked: dict[int, int] = {}
        #: told of a change the table's version does not show (a question, an answer)
        self.on_change: Callable[[int], None] = lambda table_id: None
        #: the questions each Narabi table's public part was built with
        self._seen_questions: dict[int, tuple[int, int]] = {}

    # -- reading ------------------------------------------------------------------------------

    async def live(self, table_id: int, session: Session) -> LiveTable:
        live = await self.tables.with_game(table_id)
        if live is None:
            raise refusal(TableError("no_table"), "", session.lang)
        if session.channel_id not in (live.row.channel_id, live.row.thread_id) \
                and not await self._rematch_of_here(live, session):
            raise own_refusal(403, "other_channel", session.lang)
        return live

    async def _rematch_of_here(self, live: LiveTable, session: Session) -> bool:
        """A rematch asked for on a board of this channel opens on that board (its lobby is
        posted in the parent channel, its game in a thread of its own)."""
        if live.row.rematch_of is None:
            return False
        first = await self.tables.get(live.row.rematch_of)
        return first is not None and session.channel_id in (first.row.channel_id,
                                                            first.row.thread_id)

    async def public_json(self, live: LiveTable) -> str:
        """The table's public part as JSON text (open: ``…,`` follows), once per version."""
        stamp = self.stamp(live)
        kept = self._public.get(live.id)
        if kept is not None and kept[0] == stamp:
            return kept[1]
        questions = None
        if live.row.game == "narabi" and live.row.status == "playing":
            questions = [{k: q[k] for k in ("id", "turn", "asker", "asked", "card", "other",
                                            "answer")}
                         for q in await self.store.questions_of(live.id)]
            self._seen_questions[live.id] = _signature(questions)
        text = views.dumps(views.public_state(live, questions))[:-1]
        if len(self._public) >= PUBLIC_KEPT:
            self._public.clear()  # tables read once and never watched: built again on demand
        self._public[live.id] = (stamp, text)
        return text

    def stamp(self, live: LiveTable) -> tuple[int, int, int]:
        return (live.row.version, live.row.rev, self._asked.get(live.id, 0))

    def forget(self, table_id: int) -> None:
        self._public.pop(table_id, None)
        self._seen_questions.pop(table_id, None)

    async def questions_moved(self, table_id: int) -> bool:
        """Whether a Narabi table's questions changed since its public part was built (asked
        or answered with the thread's buttons, which tell nobody here): then it is rebuilt."""
        seen = self._seen_questions.get(table_id)
        if seen is None:
            return False
        now = _signature(await self.store.questions_of(table_id))
        if now == seen:
            return False
        self._asked_again(table_id)
        return True

    def _asked_again(self, table_id: int) -> None:
        self._asked[table_id] = self._asked.get(table_id, 0) + 1
        self.on_change(table_id)

    def state_json(self, live: LiveTable, public: str, user_id: int) -> str:
        """The whole state for one viewer: the shared public text plus their own part."""
        mine = views.viewer_part(live, user_id)
        return public + "," + views.dumps(mine)[1:]

    async def state(self, table_id: int, session: Session) -> str:
        live = await self.live(table_id, session)
        return self.state_json(live, await self.public_json(live), session.user_id)

    async def channel_tables(self, session: Session) -> dict[str, Any]:
        ids = await self.store.tables_in_channel(session.channel_id,
                                                 self.clock() - FINISHED_LISTED)
        listed = []
        for table_id in ids:
            live = await self.tables.get(table_id)
            if live is None:
                continue
            row = live.row
            listed.append({"id": row.id, "game": row.game, "status": row.status,
                           "version": row.version, "names": [s.name for s in row.seats],
                           "seat": row.seat_of(session.user_id),
                           "to_move": live.game.to_move if live.game is not None else None,
                           "channel_id": str(row.thread_id or row.channel_id)})
        playing = [e for e in listed if e["status"] == "playing"
                   and e["channel_id"] == str(session.channel_id)]
        # A DM or group DM (Discord's location kind "pc"): the bot may not post there, so a
        # game is started with its command in the chat, and the board lists and plays it.
        private = session.guild_id is None
        return {"channel_id": str(session.channel_id), "private": private,
                "games": [] if private else list(keys()),
                "tables": listed, "open": playing[0]["id"] if len(playing) == 1 else None}

    # -- playing ------------------------------------------------------------------------------

    def _seat(self, live: LiveTable, session: Session) -> int:
        seat = live.row.seat_of(session.user_id)
        if seat is None:
            raise refusal(TableError("not_seated"), live.row.game, session.lang)
        return seat

    async def plan(self, table_id: int, session: Session, version: int,
                   plan: list[Mapping[str, Any]]) -> dict[str, Any]:
        """Sensei: the board and the targets after a partial plan (nothing is committed)."""
        live = await self.live(table_id, session)
        if live.row.game != "sensei":
            raise own_refusal(400, "not_planned", session.lang)
        seat = self._seat(live, session)
        game = live.game
        try:
            if live.row.version != version:
                raise TableError("stale")
            if live.row.status != "playing" or game is None or game.to_move != seat:
                raise TableError("not_your_turn")
            trial = views.sensei_trial(game, seat, list(plan))
        except (TableError, IllegalAction) as exc:
            raise refusal(exc, live.row.game, session.lang) from None
        # The arrows are the table's own (its last turn, and actions of this turn already
        # played) plus the plan's, marked planned: a plan that fills the turn closes it on the
        # trial copy, and must not look sent (nor its turn number move on) before Send.
        real = game.public_view()
        planned = [{"from": a["from"], "to": a["to"], "kind": a["type"], "seat": seat,
                    "ongoing": True, "planned": True} for a in plan]
        return {"version": version, "public": trial.public_view(),
                "legal": views.sensei_legal(game, trial, seat, bool(plan)),
                "last": views.last_arrows("sensei", real) + planned,
                "turn": real["turn"], "planned": len(plan)}

    async def act(self, table_id: int, session: Session, version: int,
                  actions: list[Mapping[str, Any]]) -> LiveTable:
        """Commit the session user's actions for their own seat, as a click does."""
        live = await self.live(table_id, session)
        game_key = live.row.game
        seat = self._seat(live, session)
        if not actions or len(actions) > MAX_ACTIONS or not all(
                isinstance(a, Mapping) and isinstance(a.get("type"), str) for a in actions):
            raise own_refusal(400, "bad_request", session.lang)
        try:
            if game_key == "sensei" and live.game is not None and actions[0]["type"] in (
                    "stone", "character"):
                if live.row.version != version:
                    raise TableError("stale")
                if live.game.to_move != seat:
                    raise TableError("not_your_turn")
                actions = views.sensei_send(live.game, seat, list(actions))
            elif len(actions) != 1:
                raise own_refusal(400, "bad_request", session.lang)
            await self.tables.act_many(table_id, session.user_id, [dict(a) for a in actions],
                                       expected_version=version, game_key=game_key,
                                       mover_told=True)
        except (TableError, IllegalAction, StoreFailure) as exc:
            raise refusal(exc, game_key, session.lang) from None
        # As after an AI's move: the board message, the turn line and the DMs to the others
        # follow from the outbox this commit queued.
        self.runtime.acted(table_id, session.user_id)
        self.runtime.on_commit(table_id)
        live = await self.tables.with_game(table_id)
        assert live is not None
        return live

    # -- Narabi's questions -------------------------------------------------------------------

    async def ask(self, table_id: int, session: Session, card: Any, other: Any) -> dict[str, Any]:
        live = await self.live(table_id, session)
        lang = session.lang
        if live.row.game != "narabi":
            raise own_refusal(400, "not_asking", lang)
        seat = self._seat(live, session)
        game = live.game
        try:
            if live.row.status != "playing" or game is None:
                raise TableError("not_running")
            if not game_class("narabi").asking_allowed_for(live.row.options):  # type: ignore[attr-defined]
                raise TableError("narabi_no_asking")
        except TableError as exc:
            raise refusal(exc, "narabi", lang) from None
        owners = {c["id"]: s for s, row in enumerate(game.public_view()["rows"]) for c in row}
        if not (isinstance(card, int) and isinstance(other, int)):
            raise own_refusal(400, "bad_request", lang)
        asked = owners.get(card)
        if asked is None or asked == seat or owners.get(other) in (None, asked):
            raise refusal(TableError("stale"), "narabi", lang)
        question = {"card": card, "other": other}
        answer = None
        if live.row.seats[asked].ai is not None:
            # An AI teammate answers at once, truthfully, from its own conditions only.
            from ..games.narabi.ai import answer_question
            answer = answer_question(seat_view(game, asked), question)
        turn = game.public_view()["turn"]
        qid = await self.store.add_question(live.id, turn, seat, asked, question, answer)
        self._asked_again(live.id)
        self.runtime.on_commit(live.id)  # its line in the thread
        return {"id": qid, "turn": turn, "asker": seat, "asked": asked, "card": card,
                "other": other, "answer": answer}

    async def answer(self, table_id: int, session: Session, question_id: Any,
                     answer: Any) -> None:
        live = await self.live(table_id, session)
        lang = session.lang
        seat = self._seat(live, session)
        if not isinstance(question_id, int) or not isinstance(answer, bool):
            raise own_refusal(400, "bad_request", lang)
        question = await self.store.get_question(question_id)
        try:
            if question is None or question["table_id"] != live.id:
                raise TableError("stale")
            if question["asked"] != seat:
                raise TableError("narabi_not_asked")
            if live.row.status != "playing":
                raise TableError("not_running")
            if not await self.store.answer_question(question_id, answer):
                raise TableError("narabi_answered")
        except (TableError, StoreFailure) as exc:
            raise refusal(exc, "narabi", lang) from None
        self._asked_again(live.id)
        self.runtime.poke_ai(live.id)  # an AI teammate may be waiting for this answer
        # The thread learns it too: the question posted again with its answer (its first
        # message keeps its Yes/No buttons, which now say it was answered).
        try:
            await self.store.queue_outbox(live.id, [("question", {"id": question_id})])
        except StoreFailure:
            return  # the answer is stored and on the boards; only the thread's line is lost
        self.runtime.on_commit(live.id)

    # -- a new game ---------------------------------------------------------------------------

    async def open_lobby(self, session: Session, game: Any, name: str) -> LiveTable:
        if game not in keys():
            raise own_refusal(400, "bad_request", session.lang)
        if session.guild_id is None:
            raise own_refusal(409, "start_in_chat", session.lang)
        try:
            # The table's public language: the server's choice (/config language), else the
            # host's (the page knows no server language of Discord's).
            chosen = await self.store.guild_language(session.guild_id)
            live = await self.tables.open_lobby(
                game, guild_id=session.guild_id, channel_id=session.channel_id,
                host_id=session.user_id, host_name=name, options=None,
                locale=chosen or session.lang,
                seats=[SeatRow(0, session.user_id, name, locale=session.lang)])
        except (TableError, StoreFailure) as exc:
            raise refusal(exc, str(game), session.lang) from None
        self.runtime.on_commit(live.id)  # the reconciler posts the lobby message
        return live


async def rematch(service: ActivityService, table_id: int, session: Session) -> LiveTable:
    """The thread's Rematch, from the board: the same seats (AI players kept), hosted by the
    person asking; against AI players only, it starts at once."""
    live = await service.live(table_id, session)
    row = live.row
    service._seat(live, session)
    if session.guild_id is None:
        raise own_refusal(409, "start_in_chat", session.lang)
    seats = [SeatRow(s.seat, s.user_id, s.name, ai=None if s.person else s.ai, locale=s.locale)
             for s in row.seats]
    try:
        if row.status != "finished":
            raise TableError("rematch_unfinished")
        new = await service.tables.open_lobby(
            row.game, guild_id=row.guild_id, channel_id=row.channel_id, host_id=session.user_id,
            host_name=session.name or str(session.user_id), options=row.options,
            locale=row.locale, rematch_of=row.id, seats=seats,
            clock=(row.turn_limit, row.timeout_policy))
        if all(s.ai is not None or s.user_id == session.user_id for s in seats):
            new = await service.tables.start(new.id, session.user_id, use_thread=True)
    except (TableError, StoreFailure) as exc:
        raise refusal(exc, row.game, session.lang) from None
    service.runtime.on_commit(new.id)  # the lobby (or the started game) is posted
    return new


def _signature(questions: list[dict[str, Any]]) -> tuple[int, int]:
    """How many questions, and how many answered: what a new question or answer changes."""
    return len(questions), sum(1 for q in questions if q.get("answer") is not None)
