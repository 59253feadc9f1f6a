"""The schema: numbered, forward-only migrations shared by both backends, and one version table.

The migrations are written in SQLite's dialect; ``for_postgres`` maps their column types to
PostgreSQL's (64-bit integers for Discord ids, double precision for times, identity keys).
"""
from __future__ import annotations

import re

# Each entry moves the schema from version i to i + 1. Never edit a shipped entry: append.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE game_tables (
        id               INTEGER PRIMARY KEY AUTOINCREMENT,
        game             TEXT    NOT NULL,
        guild_id         INTEGER,
        channel_id       INTEGER NOT NULL,
        thread_id        INTEGER,
        lobby_message_id INTEGER,
        board_message_id INTEGER,
        host_id          INTEGER NOT NULL,
        status           TEXT    NOT NULL CHECK (status IN ('lobby','playing','finished','cancelled')),
        options          TEXT    NOT NULL,
        locale           TEXT    NOT NULL DEFAULT 'en-US',
        seed             INTEGER,
        version          INTEGER NOT NULL DEFAULT 0,
        state            TEXT,
        rematch_of       INTEGER REFERENCES game_tables(id),
        created_at       REAL    NOT NULL,
        updated_at       REAL    NOT NULL
    );
    CREATE UNIQUE INDEX one_lobby_per_channel ON game_tables(channel_id) WHERE status = 'lobby';
    CREATE INDEX unfinished_tables ON game_tables(status) WHERE status IN ('lobby','playing');
    CREATE TABLE seats (
        table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
        seat     INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        name     TEXT    NOT NULL,
        dm_open  INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (table_id, seat),
        UNIQUE (table_id, user_id)
    );
    CREATE TABLE actions (
        table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
        n        INTEGER NOT NULL,
        seat     INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        action   TEXT    NOT NULL,
        at       REAL    NOT NULL,
        PRIMARY KEY (table_id, n)
    );
    CREATE TABLE results (
        table_id    INTEGER PRIMARY KEY REFERENCES game_tables(id) ON DELETE CASCADE,
        game        TEXT    NOT NULL,
        guild_id    INTEGER,
        result      TEXT    NOT NULL,
        finished_at REAL    NOT NULL
    );
    CREATE TABLE result_seats (
        table_id INTEGER NOT NULL REFERENCES results(table_id) ON DELETE CASCADE,
        seat     INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        outcome  TEXT    NOT NULL CHECK (outcome IN ('win','loss','draw')),
        PRIMARY KEY (table_id, seat)
    );
    CREATE INDEX result_seats_user ON result_seats(user_id);
    CREATE INDEX results_guild ON results(guild_id, game);
    """,
    """
    CREATE TABLE questions (
        id        INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id  INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
        turn      INTEGER NOT NULL,
        asker     INTEGER NOT NULL,
        asked     INTEGER NOT NULL,
        payload   TEXT    NOT NULL,
        answer    INTEGER,
        created_at REAL   NOT NULL
    );
    CREATE INDEX questions_table ON questions(table_id);
    """,
    """
    ALTER TABLE game_tables ADD COLUMN invited_id INTEGER;
    """,
    # Surfaces (what the lobby and board messages show), an outbox of one-shot messages
    # written in the same transaction as the change they announce, and finished games kept as
    # seed + packed action log only.
    """
    ALTER TABLE game_tables ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE game_tables ADD COLUMN lobby_rev INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE game_tables ADD COLUMN board_version INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE game_tables ADD COLUMN packed_log BLOB;
    ALTER TABLE game_tables ADD COLUMN closed_reason TEXT;
    UPDATE game_tables SET board_version = version;
    UPDATE game_tables SET state = NULL WHERE status IN ('finished', 'cancelled');
    CREATE INDEX surfaces_behind ON game_tables(id)
        WHERE board_version < version OR lobby_rev < rev;
    CREATE INDEX closed_tables ON game_tables(updated_at) WHERE status IN ('finished','cancelled');
    CREATE INDEX open_lobbies ON game_tables(updated_at) WHERE status = 'lobby';
    CREATE TABLE outbox (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id   INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
        kind       TEXT    NOT NULL,
        payload    TEXT    NOT NULL,
        created_at REAL    NOT NULL
    );
    CREATE INDEX outbox_table ON outbox(table_id, id);
    """,
    # Seats held by AI players. ``ai`` is the level of the AI holding a seat now (NULL: its
    # person). A seat an AI was added to has a negative user_id (never a Discord id); a person's
    # seat an AI took over keeps the person's id. ``ai_played`` stays set once an AI has acted
    # for the seat, so the result is not rated for it.
    """
    ALTER TABLE seats ADD COLUMN ai TEXT;
    ALTER TABLE seats ADD COLUMN ai_played INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE result_seats ADD COLUMN ai_played INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX seats_ai ON seats(table_id) WHERE ai IS NOT NULL;
    """,
    # Turn clocks. ``deadline`` is when the seat ``deadline_seat`` runs out of time (NULL: no
    # clock running); ``reminded`` how many reminders of that turn were sent. The heartbeat
    # lets a restart give back the time the bot was down.
    """
    ALTER TABLE game_tables ADD COLUMN turn_limit REAL;
    ALTER TABLE game_tables ADD COLUMN timeout_policy TEXT NOT NULL DEFAULT 'ai';
    ALTER TABLE game_tables ADD COLUMN deadline REAL;
    ALTER TABLE game_tables ADD COLUMN deadline_seat INTEGER;
    ALTER TABLE game_tables ADD COLUMN reminded INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX deadlines ON game_tables(deadline) WHERE deadline IS NOT NULL;
    ALTER TABLE seats ADD COLUMN timed_out INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE result_seats ADD COLUMN timed_out INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE guild_settings (
        guild_id       INTEGER NOT NULL,
        game           TEXT    NOT NULL,
        turn_limit     REAL,
        timeout_policy TEXT,
        PRIMARY KEY (guild_id, game)
    );
    CREATE TABLE user_settings (
        user_id      INTEGER PRIMARY KEY,
        dm_reminders INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE seat_votes (
        table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
        seat     INTEGER NOT NULL,
        voter    INTEGER NOT NULL,
        version  INTEGER NOT NULL,
        PRIMARY KEY (table_id, seat, voter)
    );
    CREATE TABLE heartbeat (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        at REAL NOT NULL
    );
    """,
    # The language a server chose for its public messages and pictures.
    """
    CREATE TABLE guild_language (
        guild_id INTEGER PRIMARY KEY,
        locale   TEXT NOT NULL
    );
    ALTER TABLE seats ADD COLUMN locale TEXT;
    """,
    # Ratings per server and game (OpenSkill μ and σ), and each rated game's changes.
    """
    CREATE TABLE ratings (
        guild_id   INTEGER,
        game       TEXT    NOT NULL,
        user_id    INTEGER NOT NULL,
        mu         REAL    NOT NULL,
        sigma      REAL    NOT NULL,
        games      INTEGER NOT NULL,
        updated_at REAL    NOT NULL,
        PRIMARY KEY (guild_id, game, user_id)
    );
    CREATE INDEX ratings_board ON ratings(guild_id, game, mu);
    CREATE TABLE rating_changes (
        table_id INTEGER NOT NULL REFERENCES results(table_id) ON DELETE CASCADE,
        user_id  INTEGER NOT NULL,
        before   REAL    NOT NULL,
        after    REAL    NOT NULL,
        PRIMARY KEY (table_id, user_id)
    );
    ALTER TABLE results ADD COLUMN unrated TEXT;
    """,
    # A cooperative deal's par (fewest switches), once computed after its end.
    """
    ALTER TABLE results ADD COLUMN par INTEGER;
    """,

    # Heartbeats per shard: a process gives back its own tables' downtime only (several
    # processes share one database, each owning some shards).
    """
    CREATE TABLE shard_heartbeat (
        shard INTEGER PRIMARY KEY,
        at    REAL    NOT NULL
    );
    """,
    # A finished game's review (each turn graded by the game's expert), computed once after
    # its end; ``version`` is the stored form's (bot.games.review.VERSION).
    """
    CREATE TABLE reviews (
        table_id   INTEGER PRIMARY KEY REFERENCES game_tables(id) ON DELETE CASCADE,
        version    INTEGER NOT NULL,
        body       TEXT    NOT NULL,
        created_at REAL    NOT NULL
    );
    """,
    # Tournaments: a scheduler above ordinary tables. A round is paired once (its primary
    # key, and the tournament's version guard); a game's points are written by the same
    # transaction that ends its table (``points`` set once, from NULL). ``events`` keeps what
    # was announced in the tournament's channel (and the organizers' changes) for good.
    """
    CREATE TABLE tournaments (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id     INTEGER,
        channel_id   INTEGER NOT NULL,
        message_id   INTEGER,
        organizer_id INTEGER NOT NULL,
        name         TEXT    NOT NULL,
        game         TEXT    NOT NULL,
        options      TEXT    NOT NULL,
        format       TEXT    NOT NULL,
        rounds       INTEGER NOT NULL,
        per_table    INTEGER NOT NULL,
        turn_limit   REAL,
        timeout_policy TEXT  NOT NULL,
        rated        INTEGER NOT NULL,
        starts_at    REAL    NOT NULL,
        checkin      REAL,
        round_every  REAL,
        status       TEXT    NOT NULL CHECK (status IN ('open','running','paused','finished','cancelled')),
        round        INTEGER NOT NULL DEFAULT 0,
        version      INTEGER NOT NULL DEFAULT 0,
        seed         INTEGER NOT NULL,
        locale       TEXT    NOT NULL,
        next_at      REAL,
        winner_id    INTEGER,
        rev          INTEGER NOT NULL DEFAULT 1,
        shown_rev    INTEGER NOT NULL DEFAULT 0,
        created_at   REAL    NOT NULL,
        updated_at   REAL    NOT NULL
    );
    CREATE INDEX tournaments_due ON tournaments(next_at) WHERE next_at IS NOT NULL;
    CREATE TABLE tournament_entrants (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        user_id       INTEGER NOT NULL,
        name          TEXT    NOT NULL,
        rank          INTEGER NOT NULL,
        ai            TEXT,
        locale        TEXT,
        checked_in    INTEGER NOT NULL DEFAULT 0,
        dropped       INTEGER,
        PRIMARY KEY (tournament_id, user_id)
    );
    CREATE INDEX tournament_entrants_user ON tournament_entrants(user_id);
    CREATE TABLE tournament_rounds (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        number        INTEGER NOT NULL,
        seed          INTEGER NOT NULL,
        started_at    REAL    NOT NULL,
        ended_at      REAL,
        PRIMARY KEY (tournament_id, number)
    );
    CREATE TABLE tournament_games (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        round         INTEGER NOT NULL,
        board         INTEGER NOT NULL,
        table_id      INTEGER,
        seats         TEXT    NOT NULL,
        points        TEXT,
        detail        TEXT,
        manual        INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (tournament_id, round, board)
    );
    CREATE UNIQUE INDEX tournament_games_table ON tournament_games(table_id)
        WHERE table_id IS NOT NULL;
    CREATE TABLE tournament_events (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        kind          TEXT    NOT NULL,
        payload       TEXT    NOT NULL,
        delivered     INTEGER NOT NULL DEFAULT 0,
        at            REAL    NOT NULL
    );
    CREATE INDEX tournament_events_due ON tournament_events(tournament_id) WHERE delivered = 0;
    """,
    # Learning (issue 44): where each person is in each game's lesson, puzzle attempts and a
    # puzzle rating per person and game (OpenSkill μ and σ, with streaks), and the puzzles
    # cut from this server's own finished games (a turn that missed a forced win).
    """
    CREATE TABLE lessons (
        user_id    INTEGER NOT NULL,
        game       TEXT    NOT NULL,
        step       INTEGER NOT NULL,
        finished   INTEGER NOT NULL DEFAULT 0,
        updated_at REAL    NOT NULL,
        PRIMARY KEY (user_id, game)
    );
    CREATE TABLE puzzle_attempts (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id      INTEGER NOT NULL,
        game         TEXT    NOT NULL,
        puzzle_id    TEXT    NOT NULL,
        puzzle       TEXT    NOT NULL,
        status       TEXT    NOT NULL CHECK (status IN ('open','solved','failed')),
        hinted       INTEGER NOT NULL DEFAULT 0,
        rating_after REAL,
        created_at   REAL    NOT NULL,
        finished_at  REAL
    );
    CREATE INDEX puzzle_attempts_user ON puzzle_attempts(user_id, game, id);
    CREATE TABLE puzzle_ratings (
        user_id     INTEGER NOT NULL,
        game        TEXT    NOT NULL,
        mu          REAL    NOT NULL,
        sigma       REAL    NOT NULL,
        solved      INTEGER NOT NULL DEFAULT 0,
        failed      INTEGER NOT NULL DEFAULT 0,
        streak      INTEGER NOT NULL DEFAULT 0,
        best_streak INTEGER NOT NULL DEFAULT 0,
        updated_at  REAL    NOT NULL,
        PRIMARY KEY (user_id, game)
    );
    CREATE TABLE game_puzzles (
        puzzle_id  TEXT    PRIMARY KEY,
        game       TEXT    NOT NULL,
        guild_id   INTEGER,
        table_id   INTEGER NOT NULL,
        missed_by  INTEGER NOT NULL,
        body       TEXT    NOT NULL,
        created_at REAL    NOT NULL
    );
    CREATE INDEX game_puzzles_guild ON game_puzzles(guild_id, game);
    """,
    # A knockout game played again after a draw: the board of its match's first game.
    """
    ALTER TABLE tournament_games ADD COLUMN replay_of INTEGER;
    """,
    # Where a table is shown: NULL for a server that added the bot (lobby, thread, board);
    # 'remote' where the bot is not a member (one message kept current by interactions).
    """
    ALTER TABLE game_tables ADD COLUMN surface TEXT;
    """,
)

#: the single-row table that says which migrations were applied (a database made before it
#: existed keeps its number in SQLite's ``user_version``, read once to fill it)
VERSION_TABLE = ("CREATE TABLE IF NOT EXISTS schema_version ("
                 "id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)")


class SchemaTooNew(Exception):
    def __init__(self, found: int) -> None:
        super().__init__(f"schema version {found} is newer than this bot ({len(MIGRATIONS)})")
        self.found = found


def statements(version: int) -> list[str]:
    """The statements of migration ``version`` (0-based), in order."""
    return [s.strip() for s in MIGRATIONS[version].split(";") if s.strip()]


_PG_TYPES = (
    (re.compile(r"\bINTEGER PRIMARY KEY AUTOINCREMENT\b"),
     "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
    (re.compile(r"\bINTEGER\b"), "BIGINT"),
    (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
    (re.compile(r"\bBLOB\b"), "BYTEA"),
)


def for_postgres(statement: str) -> str:
    for pattern, replacement in _PG_TYPES:
        statement = pattern.sub(replacement, statement)
    return statement


#: tables with an identity key (their sequence follows copied rows)
IDENTITY_TABLES = ("game_tables", "questions", "outbox", "tournaments", "tournament_events",
                   "puzzle_attempts")
