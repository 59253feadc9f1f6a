"""Settings from the environment (and `.env`), validated before anything connects."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from .errors import ConfigError

DEFAULT_DATABASE_PATH = "data/tabletop.sqlite3"
_LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")
# Bot tokens are three base64url segments separated by dots; checking the shape catches
# pasted client secrets and quoted values before Discord rejects them at login.
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{20,}$")


DEFAULT_LOBBY_TTL_HOURS = 24.0
DEFAULT_AI_PAUSE = 2.0
DEFAULT_AI_THINK_LIMIT = 20.0
#: how AI searches share the CPU: (nice value, Linux idle scheduling). ``idle`` takes only time
#: nobody else wants, so clicks never wait on a search, but on a host kept busy by other
#: programs a search may get none at all (and the think limit plays a random move for it)
AI_PRIORITIES = {"idle": (10, True), "low": (10, False), "normal": (0, False)}


def default_ai_workers() -> int:
    # One core stays with the event loop, so clicks are answered while AIs think.
    return max(1, (os.cpu_count() or 2) - 1)


@dataclass(frozen=True)
class Settings:
    token: str
    database_path: Path
    dev_guild_id: int | None
    log_level: str
    #: a lobby nobody joins, leaves or starts for this long is closed
    lobby_ttl_hours: float = DEFAULT_LOBBY_TTL_HOURS
    #: finished and cancelled tables older than this are deleted (None: kept for ever)
    retention_days: float | None = None
    #: processes that run AI searches (default: one per core but one, at least one)
    ai_workers: int = field(default_factory=lambda: default_ai_workers())
    #: processes that draw board pictures and replay animations (0: a thread instead)
    render_workers: int = 1
    #: seconds an AI waits after the previous move before playing, so people can follow
    ai_pause_seconds: float = DEFAULT_AI_PAUSE
    #: a search still running after this many seconds is stopped (a random legal move is played)
    ai_think_limit: float = DEFAULT_AI_THINK_LIMIT
    #: one of :data:`AI_PRIORITIES`
    ai_priority: str = "idle"
    #: games a day between the same people that count for ratings
    rated_per_day: int = 3
    #: a ``postgresql://`` URL (None: the SQLite file at ``database_path``)
    database_url: str | None = None
    #: PostgreSQL connections this process may hold at once
    database_pool_size: int = 20
    #: shards of the whole bot (None: Discord's recommendation, all in this process)
    shard_count: int | None = None
    #: the shards this process runs (None: all of them)
    shard_ids: tuple[int, ...] | None = None
    #: calls per second the whole bot token allows itself, all processes together (Discord's
    #: limit is 50; interaction answers and follow-ups are not counted)
    rest_budget: float = 45.0
    #: processes sharing the token (None: worked out from the shards this one runs)
    processes: int | None = None
    #: CLUSTER_INDEX, when the shards were dealt out by cluster (the metrics' ``cluster`` label)
    cluster_index: int | None = None
    #: the port of the operator's console, ``/metrics`` and ``/healthz`` (None: no console;
    #: 0: any free port, logged)
    metrics_port: int | None = None
    #: the address the console listens on (loopback: only this machine can scrape it)
    metrics_host: str = "127.0.0.1"

    @property
    def cluster(self) -> str:
        """This process's name among the bot's processes, as the metrics label it: the
        cluster's index, the shards it runs (``shards-0-3``), or 0 for the only process."""
        if self.cluster_index is not None:
            return str(self.cluster_index)
        if self.shard_ids and self.shard_count and len(self.shard_ids) < self.shard_count:
            ids = self.shard_ids
            if list(ids) == list(range(ids[0], ids[-1] + 1)):
                return f"shards-{ids[0]}-{ids[-1]}" if len(ids) > 1 else f"shards-{ids[0]}"
            return "shards-" + ",".join(map(str, ids))
        return "0"

    #: the Activity's web server (None: no Activity, no Open board button, no Entry Point)
    activity_port: int | None = None
    activity_host: str = "127.0.0.1"
    #: the application's OAuth2 client id (None: the bot's application id)
    discord_client_id: int | None = None
    discord_client_secret: str | None = field(default=None, repr=False)
    #: signs the Activity's sessions (None: derived from the client secret)
    activity_session_secret: str | None = field(default=None, repr=False)
    activity_session_hours: float = 12.0
    #: sign-ins (``POST /api/session``) let in per minute from one address, and in total
    activity_signin_per_address: int = 10
    activity_signin_per_minute: int = 60
    #: OAuth2 code exchanges with Discord at once
    activity_signin_in_flight: int = 4
    #: a session's person is looked for in its activity instance at most this often (seconds)
    activity_recheck_seconds: float = 180.0

    @property
    def activity_enabled(self) -> bool:
        return self.activity_port is not None and bool(self.discord_client_secret)

    @property
    def rest_per_second(self) -> float:
        """This process's share of ``rest_budget``."""
        processes = self.processes
        if processes is None:
            processes = 1
            if self.shard_count and self.shard_ids:
                processes = -(-self.shard_count // len(self.shard_ids))
        return self.rest_budget / max(1, processes)

    @property
    def database(self) -> str | Path:
        """What ``Store.open`` opens."""
        return self.database_url or self.database_path

    @property
    def scope(self):
        """The servers whose tables this process owns."""
        from .store import EVERYTHING, ShardScope
        if self.shard_count is None:
            return EVERYTHING
        return ShardScope(self.shard_count, self.shard_ids or tuple(range(self.shard_count)))

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, require_token: bool = True) -> "Settings":
        env = os.environ if env is None else env
        token = env.get("DISCORD_TOKEN", "").strip()
        if require_token:
            if not token:
                raise ConfigError("DISCORD_TOKEN is not set: copy .env.example to .env and paste "
                                  "your bot token (Developer Portal → your app → Bot → Reset Token).")
            if not _TOKEN_SHAPE.match(token):
                raise ConfigError("DISCORD_TOKEN does not look like a bot token (three dot-separated "
                                  "parts): paste the token from the Bot page, not the client secret, "
                                  "without quotes or spaces.")
        guild = env.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ConfigError(f"DEV_GUILD_ID must be a server id (digits only), got {guild!r}: "
                              "right-click the server with Developer Mode on → Copy Server ID.")
        level = (env.get("LOG_LEVEL", "").strip() or "INFO").upper()
        if level not in _LOG_LEVELS:
            raise ConfigError(f"LOG_LEVEL must be one of {', '.join(_LOG_LEVELS)}, got {level!r}.")
        path, url = _database(env)
        shard_count, shard_ids = _shards(env)
        if shard_ids is not None and len(shard_ids) < (shard_count or 0) and url is None:
            raise ConfigError("SHARD_IDS / CLUSTER_INDEX run only some shards in this process, so "
                              "other processes run the rest: they must share one database. Set "
                              "DATABASE_URL=postgresql://… (see \"Running at scale\" in the README).")
        ttl = _positive(env, "LOBBY_TTL_HOURS", "hours, e.g. 24")
        retention = _positive(env, "RETENTION_DAYS", "days, e.g. 365, or leave it empty to keep "
                                                    "every finished game")
        workers = _number(env, "AI_WORKERS", "processes, e.g. 1", minimum=0)
        renderers = _number(env, "RENDER_WORKERS", "processes, e.g. 1", minimum=0)
        pool = _number(env, "DATABASE_POOL_SIZE", "connections, e.g. 20", minimum=1)
        pause = _number(env, "AI_PAUSE_SECONDS", "seconds, e.g. 2", minimum=0)
        limit = _positive(env, "AI_THINK_LIMIT_SECONDS", "seconds, e.g. 20")
        priority = env.get("AI_PRIORITY", "").strip().lower() or "idle"
        if priority not in AI_PRIORITIES:
            raise ConfigError(f"AI_PRIORITY must be one of {', '.join(AI_PRIORITIES)}, got "
                              f"{priority!r}.")
        per_day = _number(env, "RATED_PER_DAY", "games, e.g. 3", minimum=0)
        budget = _positive(env, "DISCORD_REST_BUDGET", "calls per second, e.g. 45")
        if budget is not None and budget > 50:
            raise ConfigError(f"DISCORD_REST_BUDGET must be at most 50 (Discord's limit per bot "
                              f"token), got {budget:g}.")
        processes = _number(env, "DISCORD_PROCESSES", "processes, e.g. 2", minimum=1)
        cluster_index = env.get("CLUSTER_INDEX", "").strip()
        metrics_port = _number(env, "METRICS_PORT", "a TCP port, e.g. 9108", minimum=0)
        if metrics_port is not None and (metrics_port > 65535 or metrics_port != int(metrics_port)):
            raise ConfigError(f"METRICS_PORT must be a TCP port (0-65535), got "
                              f"{env.get('METRICS_PORT', '').strip()!r}.")
        metrics_host = env.get("METRICS_HOST", "").strip() or "127.0.0.1"
        activity = _activity(env)
        return cls(**activity, token=token, database_path=path, dev_guild_id=int(guild) if guild else None,
                   log_level=level,
                   lobby_ttl_hours=DEFAULT_LOBBY_TTL_HOURS if ttl is None else ttl,
                   retention_days=retention,
                   ai_workers=default_ai_workers() if workers is None else int(workers),
                   render_workers=1 if renderers is None else int(renderers),
                   ai_pause_seconds=DEFAULT_AI_PAUSE if pause is None else pause,
                   ai_think_limit=DEFAULT_AI_THINK_LIMIT if limit is None else limit,
                   ai_priority=priority,
                   rated_per_day=3 if per_day is None else int(per_day),
                   database_url=url, shard_count=shard_count, shard_ids=shard_ids,
                   database_pool_size=20 if pool is None else int(pool),
                   rest_budget=45.0 if budget is None else budget,
                   processes=None if processes is None else int(processes),
                   cluster_index=int(cluster_index) if cluster_index else None,
                   metrics_port=None if metrics_port is None else int(metrics_port),
                   metrics_host=metrics_host)


def _activity(env: Mapping[str, str]) -> dict[str, object]:
    """ACTIVITY_PORT and DISCORD_CLIENT_SECRET turn the Activity on (both or neither)."""
    port = _number(env, "ACTIVITY_PORT", "a TCP port, e.g. 8081", minimum=1)
    secret = env.get("DISCORD_CLIENT_SECRET", "").strip() or None
    if (port is None) != (secret is None):
        raise ConfigError("the Activity needs both ACTIVITY_PORT and DISCORD_CLIENT_SECRET "
                          "(Developer Portal → your app → OAuth2 → Client Secret), or neither.")
    if port is not None and (port != int(port) or port > 65535):
        raise ConfigError(f"ACTIVITY_PORT must be a TCP port (1-65535), got {port:g}.")
    client = env.get("DISCORD_CLIENT_ID", "").strip()
    if client and not client.isdigit():
        raise ConfigError(f"DISCORD_CLIENT_ID must be the application id (digits only), got "
                          f"{client!r}.")
    hours = _positive(env, "ACTIVITY_SESSION_HOURS", "hours, e.g. 12")
    door = {key: _number(env, name, unit, minimum=1)
            for key, name, unit in (
                ("activity_signin_per_address", "ACTIVITY_SIGNIN_PER_ADDRESS",
                 "sign-ins per minute, e.g. 10"),
                ("activity_signin_per_minute", "ACTIVITY_SIGNIN_PER_MINUTE",
                 "sign-ins per minute, e.g. 60"),
                ("activity_signin_in_flight", "ACTIVITY_SIGNIN_IN_FLIGHT",
                 "code exchanges at once, e.g. 4"))}
    recheck = _number(env, "ACTIVITY_RECHECK_SECONDS", "seconds, e.g. 180", minimum=10)
    return {"activity_port": None if port is None else int(port),
            "activity_host": env.get("ACTIVITY_HOST", "").strip() or "127.0.0.1",
            "discord_client_id": int(client) if client else None,
            "discord_client_secret": secret,
            "activity_session_secret": env.get("ACTIVITY_SESSION_SECRET", "").strip() or None,
            "activity_session_hours": 12.0 if hours is None else hours,
            **{key: int(value) for key, value in door.items() if value is not None},
            **({} if recheck is None else {"activity_recheck_seconds": recheck})}


def _database(env: Mapping[str, str]) -> tuple[Path, str | None]:
    """DATABASE_URL (``sqlite:///path`` or ``postgresql://…``) or DATABASE_PATH."""
    url = env.get("DATABASE_URL", "").strip()
    if not url:
        return Path(env.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH), None
    if url.startswith("sqlite:///") and len(url) > len("sqlite:///"):
        return Path(url[len("sqlite:///"):]), None
    if url.startswith(("postgresql://", "postgres://")):
        return Path(DEFAULT_DATABASE_PATH), url
    raise ConfigError(f"DATABASE_URL must start with sqlite:/// (then a file path, e.g. "
                      f"sqlite:///data/tabletop.sqlite3) or postgresql:// (e.g. "
                      f"postgresql://bot:secret@localhost/tabletop), got {url.split(':')[0]!r}.")


def _int_list(text: str, name: str) -> list[int]:
    """``0,1,2`` or ``0-3`` or a mix."""
    out: list[int] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ConfigError(f"{name} must be shard numbers like 0,1,2 or 0-3, got {text!r}.")
        out += range(int(low), int(high) + 1) if dash else [int(low)]
    return out


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT with SHARD_IDS, or CLUSTER_COUNT and CLUSTER_INDEX (shards dealt out in
    turn: cluster i runs shards i, i + clusters, …)."""
    count_text = env.get("SHARD_COUNT", "").strip()
    ids_text = env.get("SHARD_IDS", "").strip()
    clusters_text = env.get("CLUSTER_COUNT", "").strip()
    index_text = env.get("CLUSTER_INDEX", "").strip()
    for name, text in (("SHARD_COUNT", count_text), ("CLUSTER_COUNT", clusters_text),
                       ("CLUSTER_INDEX", index_text)):
        if text and not text.isdigit():
            raise ConfigError(f"{name} must be a whole number, got {text!r}.")
    count = int(count_text) if count_text else None
    if count == 0:
        raise ConfigError("SHARD_COUNT must be at least 1.")
    if ids_text and (clusters_text or index_text):
        raise ConfigError("set SHARD_IDS, or CLUSTER_COUNT and CLUSTER_INDEX, not both.")
    if ids_text:
        if count is None:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT (the shards of all processes together).")
        ids = sorted(set(_int_list(ids_text, "SHARD_IDS")))
        if not ids or ids[-1] >= count:
            raise ConfigError(f"SHARD_IDS must be between 0 and {count - 1} (SHARD_COUNT={count}).")
        return count, tuple(ids)
    if clusters_text or index_text:
        if not (clusters_text and index_text):
            raise ConfigError("set both CLUSTER_COUNT and CLUSTER_INDEX (0 for the first process).")
        clusters, index = int(clusters_text), int(index_text)
        if clusters == 0 or index >= clusters:
            raise ConfigError(f"CLUSTER_INDEX must be between 0 and CLUSTER_COUNT - 1, got "
                              f"{index} of {clusters}.")
        count = count or clusters
        if count < clusters:
            raise ConfigError(f"SHARD_COUNT ({count}) must be at least CLUSTER_COUNT ({clusters}).")
        return count, tuple(range(index, count, clusters))
    return count, None


def _positive(env: Mapping[str, str], name: str, unit: str) -> float | None:
    return _number(env, name, unit, minimum=0.0, strict=True)


def _number(env: Mapping[str, str], name: str, unit: str, *, minimum: float,
            strict: bool = False) -> float | None:
    """A number from the environment (None when unset); refused, with a sentence, when it is
    not a number, below ``minimum``, or equal to it when ``strict``."""
    text = env.get(name, "").strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not (value > minimum if strict else value >= minimum):
        what = "a positive number" if strict and minimum == 0 else \
            f"a number (at least {minimum:g})"
        raise ConfigError(f"{name} must be {what} of {unit}; got {text!r}.")
    return value
