"""The cache of drawn pictures (``bot.ui.pictures.DrawnCache``): a picture is drawn once per
view while it is remembered, never handed out for arguments a renderer could tell apart, and
never taken from a renderer a test replaced."""
from __future__ import annotations

import random

from bot.ui import drawing
from bot.ui.pictures import DrawnCache
from tests.helpers import board, start_table

SENSEI = "render.sensei:render"


def test_arguments_a_renderer_could_tell_apart_never_share_a_key():
    view = {"seats": 2, "pits": ("c3",), "scores": {0: 1}}
    key = DrawnCache.key(SENSEI, (view, ["Ana", "Ben"], "en"))
    assert key == DrawnCache.key(SENSEI, ({"seats": 2, "pits": ("c3",), "scores": {0: 1}},
                                          ["Ana", "Ben"], "en"))
    others = [
        ({"seats": 2, "pits": ["c3"], "scores": {0: 1}}, ["Ana", "Ben"], "en"),  # a list
        ({"seats": 2, "pits": ("c3",), "scores": {"0": 1}}, ["Ana", "Ben"], "en"),  # a str key
        ({"seats": 2, "pits": ("c3",), "scores": {0: 1.0}}, ["Ana", "Ben"], "en"),  # a float
        ({"seats": 2, "pits": ("c3",), "scores": {0: True}}, ["Ana", "Ben"], "en"),  # a bool
        (view, ["Ana", "Ben"], "fr"),
        (view, ["Ben", "Ana"], "en"),
    ]
    keys = {DrawnCache.key(SENSEI, args) for args in others}
    assert key not in keys and len(keys) == len(others)
    assert DrawnCache.key("render.narabi:render", (view, ["Ana", "Ben"], "en")) != key


def test_only_the_render_package_and_plain_data_are_remembered():
    assert DrawnCache.key(None, ({}, [], "en")) is None
    assert DrawnCache.key("tests.spy:render", ({}, [], "en")) is None
    assert DrawnCache.key(SENSEI, ({"f": lambda: 1}, [], "en")) is None
    cache = DrawnCache()
    cache.put(None, b"png")
    assert cache.get(None) is None and (cache.hits, cache.misses) == (0, 0)


def test_the_least_recently_used_go_first_within_the_budget():
    cache = DrawnCache(budget=10)
    a, b, c = (DrawnCache.key(SENSEI, (n,)) for n in "abc")
    cache.put(a, b"1234")
    cache.put(b, b"5678")
    assert cache.get(a) == b"1234"  # now b is the least recently used
    cache.put(c, b"90ab")
    assert cache.get(b) is None and cache.get(a) == b"1234" and cache.get(c) == b"90ab"
    cache.put(DrawnCache.key(SENSEI, ("big",)), b"x" * 11)  # more than the whole budget
    assert cache.get(DrawnCache.key(SENSEI, ("big",))) is None
    assert (cache.hits, cache.misses) == (3, 2)


async def test_a_board_drawn_again_from_the_same_view_is_not_drawn_twice(harness, players,
                                                                       monkeypatch):
    h = harness
    table = await start_table(h, "sensei", players[:2])
    await h.settle()
    cache = DrawnCache()  # forget the boards the start drew
    monkeypatch.setattr(drawing, "DRAWN", cache)
    drawn: list[tuple] = []
    cog = h.bot.router.cog("sensei")
    original = cog._draw_now

    async def counting(function, fallback, *args):
        drawn.append(args)
        return await original(function, fallback, *args)

    cog._draw_now = counting
    live = await h.bot.tables.with_game(table.id)
    first = await cog.board_png(live)
    again = await cog.board_png(live)
    assert first == again and first.alt == again.alt
    assert len(drawn) == 1 and (cache.hits, cache.misses) == (1, 1)
    # A move changes the view: its board is drawn (once, by the board's edit).
    seat = live.game.to_move
    await h.bot.tables.act(table.id, table.players[seat].id,
                           random.Random(1).choice(live.game.legal_actions(seat)))
    h.bot.reconciler.mark(table.id)
    await h.settle()
    after = await cog.board_png(await h.bot.tables.with_game(table.id))
    assert after != first and len(drawn) == 2
    assert board(h, table)["attachments"][0]["description"] == after.alt


async def test_a_renderer_replaced_on_the_cog_is_always_called(harness, players):
    h = harness
    table = await start_table(h, "narabi", players[:3])
    cog = h.bot.router.cog("narabi")
    calls = []
    real = cog.render

    def spy(view, names, locale="en"):
        calls.append(view)
        return real(view, names, locale)

    cog.render = spy
    live = await h.bot.tables.with_game(table.id)
    await cog.board_png(live)
    await cog.board_png(live)
    assert len(calls) == 2
    assert board(h, table)["attachments"]
