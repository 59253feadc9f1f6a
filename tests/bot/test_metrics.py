"""The operator's console: the bot started with METRICS_PORT on a free port, scraped over HTTP
and read with Prometheus' own parser while games are played; its health answers; its labels."""
from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import re
import socket
from collections import deque
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.client import TabletopBot
from bot.config import ConfigError, Settings
from bot.games.registry import keys
from bot.games.sarena.chips import COLOURS
from bot.store import Store
from bot.testing.fake_discord import CHANNEL_ID, FakeDiscord, Member
from bot.testing.harness import Harness
from tests.conftest import TEST_POOL_SIZE
from tests.helpers import narabi_switch, start_table

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def metrics_bot(tmp_path: Path, fake: FakeDiscord | None = None, *, start: bool = True,
                      database_url: str = "") -> tuple[TabletopBot, Harness | None]:
    """The bot as ``python -m bot`` configures it from its environment, METRICS_PORT on a free
    port, behind the stand-in (``start=False``: constructed, not yet set up)."""
    db = database_url or tmp_path / "bot.sqlite3"
    settings = Settings.from_env({"DATABASE_PATH": str(db), "DATABASE_URL": database_url,
                                  "METRICS_PORT": str(free_port()),
                                  "AI_WORKERS": "1", "AI_PAUSE_SECONDS": "0",
                                  "AI_PRIORITY": "normal", "RENDER_WORKERS": "0"},
                                 require_token=False)
    # the stand-in's rate-limit windows pass faster (see tests/conftest.py): so does the budget
    settings = dataclasses.replace(settings, rest_budget=45.0 * 100)
    bot = TabletopBot(settings, await Store.open(db))
    bot.reviewer.reviewed = lambda game: False
    return bot, (await Harness.start(bot, fake) if start else None)


async def get(bot: TabletopBot, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{bot.settings.metrics_port}{path}") as r:
            return r.status, await r.text()


async def scrape(bot: TabletopBot) -> dict[str, dict[tuple, float]]:
    """``/metrics`` parsed by Prometheus' parser: sample name -> labels (sorted) -> value."""
    status, text = await get(bot, "/metrics")
    assert status == 200
    out: dict[str, dict[tuple, float]] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out.setdefault(sample.name, {})[tuple(sorted(sample.labels.items()))] = sample.value
    return out


def total(figures: dict[str, dict[tuple, float]], name: str, **labels: str) -> float:
    return sum(value for key, value in figures.get(name, {}).items()
               if all((k, v) in key for k, v in labels.items()))


@pytest.mark.slow
async def test_the_figures_move_when_games_are_played(tmp_path, players):
    bot, h = await metrics_bot(tmp_path)
    try:
        assert bot.console.port == bot.settings.metrics_port
        before = await scrape(bot)
        assert total(before, "tabletop_tables") == 0
        assert total(before, "tabletop_moves_total") == 0

        table = await start_table(h, "narabi", players[:3])
        rng = random.Random(4)
        for _ in range(3):
            await narabi_switch(h, table, rng)
        # a Sensei table against an AI: a typed move, the AI's answer thought in the pool
        await h.command(players[3], "sensei", "start", channel_id=CHANNEL_ID + 1, ai="easy",
                        first="green")
        sensei = next(live for live in bot.tables._cache.values() if live.row.game == "sensei")
        from bot.games.sensei import legal_turns
        turn = random.Random(1).choice(legal_turns(sensei.game))
        await h.command(players[3], "sensei", "move", channel_id=sensei.row.game_channel_id,
                        notation=" ".join(("*" if a["type"] == "character" else "")
                                          + f"{a['from']}-{a['to']}" for a in turn))
        await h.settle()
        after = await scrape(bot)
    finally:
        await bot.close()

    answered = "tabletop_interaction_answer_seconds_count"
    assert total(after, answered, kind="component", game="narabi") >= 3 * 3  # three taps a move
    assert total(after, answered, kind="command", game="narabi") == 1
    assert total(after, answered, kind="command", game="sensei") == 2
    # every interaction received was answered, and the histogram holds each answer once
    assert total(after, answered) == total(after, "tabletop_interactions_received_total")
    assert total(after, "tabletop_interaction_answer_seconds_bucket", le="+Inf") == \
        total(after, answered)
    assert total(after, "tabletop_moves_total", game="narabi", by="person") == 3
    assert total(after, "tabletop_moves_total", game="sensei", by="person") == len(turn)
    assert total(after, "tabletop_moves_total", game="sensei", by="ai") >= 1
    assert total(after, "tabletop_ai_think_seconds_count", game="sensei", level="easy") >= 1
    assert total(after, "tabletop_tables", game="narabi", status="playing") == 1
    assert total(after, "tabletop_tables", game="sensei", status="playing") == 1
    counted = total(after, "tabletop_discord_requests_total", counted="yes")
    assert counted > total(before, "tabletop_discord_requests_total", counted="yes")
    # the stand-in saw exactly the bot-token calls the bot counted
    assert counted == sum(1 for r in h.fake.requests if not r.path.startswith(
        ("/interactions/", "/webhooks/")))
    assert total(after, "tabletop_discord_requests_total", counted="no") >= total(after, answered)
    assert total(after, "tabletop_reconcile_lag_seconds_count") >= 1
    assert total(after, "tabletop_boards_behind") == 0
    assert total(after, "tabletop_db_connections", state="max", backend="sqlite") == 1
    assert total(after, "tabletop_store_commits_total") > 0
    assert {dict(k)["cluster"] for samples in after.values() for k in samples} == {"0"}


async def test_429s_and_invalid_requests_are_counted_by_scope(tmp_path, players):
    """Discord's global limit, reached on purpose: the stand-in answers 429 "global", which the
    bot counts (and towards the invalid-request limit)."""
    fake = FakeDiscord()
    bot, h = await metrics_bot(tmp_path, fake)
    try:
        stuffed: list[str] = []

        def fill_the_second(method: str, path: str) -> None:
            # the token's second already full once: the next counted call is refused
            if not stuffed:
                stuffed.append(path)
                limits = fake.limits
                limits.counted.setdefault("Bot " + fake.token, deque()).extend(
                    [limits.window_clock()] * limits.global_per_second)
        fake.before_request = fill_the_second
        await start_table(h, "narabi", players[:3])
        figures = await scrape(bot)
    finally:
        await bot.close()
    refused = fake.limits.throttles("global")
    assert refused, "the stand-in refused nothing: the test did not reach the limit"
    assert total(figures, "tabletop_discord_rate_limited_total", scope="global") == len(refused)
    assert total(figures, "tabletop_discord_invalid_requests_total", status="429") == len(refused)
    assert total(figures, "tabletop_discord_requests_total", status="4xx") == len(refused)


async def test_healthz_is_live_and_readyz_follows_start_gateway_and_shutdown(tmp_path):
    bot, _ = await metrics_bot(tmp_path, start=False)
    fake = FakeDiscord()
    try:
        await bot.console.start()  # as the bot's setup does first
        assert (await get(bot, "/healthz"))[0] == 200
        status, body = await get(bot, "/readyz")
        assert status == 503 and json.loads(body) == {
            "status": "not ready", "reason": "starting: commands not synced yet"}

        h = await Harness.start(bot, fake)  # store opened, commands synced, no gateway yet
        status, body = await get(bot, "/readyz")
        assert status == 503 and json.loads(body)["reason"] == "gateway not connected"
        assert total(await scrape(bot), "tabletop_ready") == 0

        bot.dispatch("shard_connect", 0)  # what discord.py dispatches as the gateway connects
        bot.dispatch("ready")
        await h.settle()
        assert await get(bot, "/readyz") == (200, json.dumps({"status": "ready"}))
        assert total(await scrape(bot), "tabletop_ready") == 1

        bot.dispatch("shard_disconnect", 0)
        await h.settle()
        status, body = await get(bot, "/readyz")
        assert status == 503 and json.loads(body)["reason"] == "gateway disconnected on shards 0"
        assert (await get(bot, "/healthz"))[0] == 200  # alive all along

        bot.dispatch("shard_resumed", 0)
        await h.settle()
        assert (await get(bot, "/readyz"))[0] == 200
    finally:
        await bot.close()
    assert bot.console.health.not_ready() == "shutting down"
    with pytest.raises(aiohttp.ClientConnectionError):
        await get(bot, "/healthz")  # the port is given back


@pytest.mark.slow
async def test_no_label_carries_a_name_an_id_a_message_or_a_secret(tmp_path):
    names = ["Zephyrine Quaglia", "Bartholomew Xu", "Ottoline Vark"]
    people = [Member(987_654_321_000 + i, name) for i, name in enumerate(names)]
    bot, h = await metrics_bot(tmp_path)
    try:
        narabi = await start_table(h, "narabi", people)
        rng = random.Random(9)
        for _ in range(4):
            await narabi_switch(h, narabi, rng)
        sarena = await start_table(h, "sarena", people[:2], CHANNEL_ID + 7)
        live = await bot.tables.get(sarena.id)
        action = live.game.legal_actions(live.game.to_move)[0]
        await h.command(people[live.game.to_move], "sarena", "move", channel_id=sarena.thread,
                        move=f"{action['from']}-{action['to']}")
        await h.settle()
        status, text = await get(bot, "/metrics")
        secrets = {json.dumps(live.game.private_view(seat)) for seat in range(2)}
        said = [m["content"] for m in h.fake.messages.values() if m.get("content")]
        tokens = list(h.fake.interactions)
        table_ids = {narabi.id, sarena.id}
    finally:
        await bot.close()
    assert status == 200
    for forbidden in [*names, *(str(p.id) for p in people), *tokens, h.fake.token]:
        assert forbidden not in text
    values = {v for family in text_string_to_metric_families(text) if family.name.startswith(
        "tabletop_") for s in family.samples for k, v in s.labels.items() if k != "le"}
    # every label value is one of a few fixed words: no table, person, text or secret
    allowed = {*keys(), "none", "command", "component", "modal", "autocomplete", "ping", "other",
               "yes", "no", "2xx", "3xx", "4xx", "5xx", "error", "global", "route", "shared",
               "cloudflare", "401", "403", "429", "person", "ai", "timeout", "easy", "medium",
               "hard", "expert", "lobby", "playing", "running", "waiting", "render", "in_use",
               "max", "sqlite", "postgresql", "0", *bot.store.failures}
    assert values <= allowed, values - allowed
    assert not {str(t) for t in table_ids} & values
    for colour in COLOURS:
        assert not any(colour.lower() in v.lower() for v in values)
    assert not any(line and line in text for line in said if len(line) > 3)
    assert not any(secret in text for secret in secrets)


async def test_a_storage_failure_is_counted_by_cause(tmp_path, players):
    bot, h = await metrics_bot(tmp_path)
    try:
        table = await start_table(h, "narabi", players[:3])
        await bot.store.run_on_writer("PRAGMA query_only=1")
        await narabi_switch(h, table, random.Random(2))  # answered "nothing was saved"
        figures = await scrape(bot)
    finally:
        await bot.close()
    assert total(figures, "tabletop_storage_errors_total", cause="read_only") >= 1


async def test_the_postgresql_pool_in_use_is_reported(tmp_path, players, postgres_url):
    bot, h = await metrics_bot(tmp_path, database_url=postgres_url)
    try:
        await start_table(h, "narabi", players[:3])
        async with bot.store.backend._pool.acquire():  # one connection held, as a write does
            # The bot's own background work (a table's clock, a repair) may hold another for a
            # moment: the held one shows in every reading, and alone once that work is done.
            in_use = []
            for _ in range(100):
                figures = await scrape(bot)
                in_use.append(total(figures, "tabletop_db_connections", backend="postgresql",
                                    state="in_use"))
                if in_use[-1] == 1:
                    break
                await h.settle()  # the bot's own work under way (a board, an AI move) ends
                await asyncio.sleep(0.05)
    finally:
        await bot.close()
    pool = bot.settings.database_pool_size
    assert total(figures, "tabletop_db_connections", backend="postgresql", state="max") == \
        min(pool, TEST_POOL_SIZE)
    assert min(in_use) >= 1 and in_use[-1] == 1, in_use
    assert total(figures, "tabletop_tables", game="narabi", status="playing") == 1


async def test_the_observed_session_wraps_a_real_aiohttp_session(tmp_path):
    """In production discord.py's session is aiohttp's own (the stand-in's elsewhere): each
    answer through it is counted, and the rest of the session is aiohttp's."""
    from bot.runtime.console import _ObservedSession

    bot, _ = await metrics_bot(tmp_path)
    try:
        before = total(await scrape(bot), "tabletop_discord_requests_total", counted="yes")
        async with aiohttp.ClientSession() as real:
            observed = _ObservedSession(real, bot.console.metrics)
            url = f"http://127.0.0.1:{bot.settings.metrics_port}/readyz"
            async with observed.request("GET", url, headers={"Authorization": "Bot x"}) as r:
                assert r.status == 503 and (await r.json())["status"] == "not ready"
            assert observed.closed is False and observed.cookie_jar is real.cookie_jar
        after = await scrape(bot)
    finally:
        await bot.close()
    assert total(after, "tabletop_discord_requests_total", counted="yes", status="5xx") == 1
    assert total(after, "tabletop_discord_requests_total", counted="yes") == before + 1


def test_metrics_settings():
    assert Settings.from_env({}, require_token=False).metrics_port is None
    s = Settings.from_env({"METRICS_PORT": "9108"}, require_token=False)
    assert (s.metrics_port, s.metrics_host, s.cluster) == (9108, "127.0.0.1", "0")
    s = Settings.from_env({"METRICS_PORT": "9108", "METRICS_HOST": "0.0.0.0",
                           "DATABASE_URL": "postgresql://x@h/db", "CLUSTER_COUNT": "3",
                           "CLUSTER_INDEX": "2"}, require_token=False)
    assert (s.metrics_host, s.cluster) == ("0.0.0.0", "2")
    s = Settings.from_env({"DATABASE_URL": "postgresql://x@h/db", "SHARD_COUNT": "8",
                           "SHARD_IDS": "4-7"}, require_token=False)
    assert s.cluster == "shards-4-7"
    for bad in ("x", "-1", "70000", "80.5"):
        with pytest.raises(ConfigError, match="METRICS_PORT"):
            Settings.from_env({"METRICS_PORT": bad}, require_token=False)


def test_env_example_names_the_metrics_settings():
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    for name in ("METRICS_PORT", "METRICS_HOST"):
        line = text.index(f"\n{name}=")
        assert text[:line].rstrip().splitlines()[-1].startswith("#")  # a comment says what


def test_the_metrics_module_stays_in_the_runtime():
    for path in (ROOT / "bot" / "games").rglob("*.py"):
        assert not re.search(r"metrics|prometheus", path.read_text(encoding="utf-8")), path
