"""The game registry: games are found by convention, and routing reads it."""
from __future__ import annotations

import logging
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import bot.games
from bot.games import registry
from bot.client import extensions
from bot.games import GAMES, game_class
from bot.games.narabi import Narabi
from bot.games.sarena import Sarena
from bot.games.sensei import Sensei
from bot.testing.fake_discord import CHANNEL_ID, Member
from bot.ui.routing import Route, route

ROOT = Path(__file__).resolve().parents[2]

# A whole game in one file: what a new game brings, with no shared file edited.
LUDO = '''
from bot.games.base import Game, Result


class Ludo(Game):
    key = "ludo"
    min_seats = 2
    max_seats = 4

    @classmethod
    def new(cls, seats, options, seed):
        return cls()

    to_move = property(lambda self: None)
    legal_actions = lambda self, seat: []
    apply = lambda self, seat, action: []
    public_view = lambda self: {}
    private_view = lambda self, seat: {}
    result = lambda self: Result((), "over", draw=True)
    to_json = lambda self: {}
    from_json = classmethod(lambda cls, data: cls())
'''


@pytest.fixture
def extra_games(tmp_path, monkeypatch):
    """A second folder of game packages: ``ludo`` (a game) and ``notes`` (a package with no
    Game in it). Nothing is visible until ``registry.refresh()``, which the test calls."""
    folder = tmp_path / "more_games"
    (folder / "ludo").mkdir(parents=True)
    (folder / "ludo" / "__init__.py").write_text(textwrap.dedent(LUDO))
    (folder / "notes").mkdir()
    (folder / "notes" / "__init__.py").write_text('"""Shared notes, not a game."""\n')
    monkeypatch.setattr(bot.games, "__path__", [*bot.games.__path__, str(folder)])
    yield
    monkeypatch.undo()
    for name in [m for m in sys.modules if m.startswith(("bot.games.ludo", "bot.games.notes"))]:
        del sys.modules[name]
    registry.refresh()


def test_the_three_games_and_their_parts():
    found = registry.games()
    assert list(found) == ["narabi", "sarena", "sensei"] == list(registry.keys())
    for key, rules in (("narabi", Narabi), ("sarena", Sarena), ("sensei", Sensei)):
        entry = found[key]
        assert entry == registry.entry(key)
        assert entry.key == key and entry.rules is rules
        assert entry.cog == f"cogs.{key}"
        assert entry.renderer == f"render.{key}"
        assert entry.ai == f"bot.games.{key}.ai"
        assert (entry.min_seats, entry.max_seats) == (rules.min_seats, rules.max_seats)
        assert game_class(key) is rules and GAMES[key] is rules
    assert dict(GAMES) == {key: e.rules for key, e in found.items()}


def test_every_game_cog_is_loaded():
    loaded = extensions()
    assert {e.cog for e in registry.games().values()} <= set(loaded)
    assert "cogs.general" in loaded


@pytest.mark.parametrize("key", ["chess", "base", "Narabi", "games", ""])
def test_unknown_keys_are_refused(key):
    assert not registry.is_game(key)
    with pytest.raises(KeyError):
        registry.entry(key)
    with pytest.raises(KeyError):
        game_class(key)
    assert key not in GAMES
    assert Route.parse(f"{key}:12:join") is None
    with pytest.raises(ValueError):
        route(key, 12, "join")


def test_registry_needs_neither_discord_nor_pillow():
    code = ("import sys; from bot.games import registry; assert registry.keys(); "
            "bad = {'discord', 'PIL'} & {m.split('.')[0] for m in sys.modules}; "
            "assert not bad, bad")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr


def test_a_new_game_package_is_routable_without_editing_shared_files(extra_games):
    assert Route.parse("ludo:12:join") is None  # not discovered yet
    registry.refresh()
    assert Route.parse("ludo:12:join") == Route("ludo", 12, "join")
    assert route("ludo", 12, "move", 3, "a1") == "ludo:12:move:3.a1"
    entry = registry.entry("ludo")
    assert entry.rules is game_class("ludo") and entry.rules.__name__ == "Ludo"
    assert (entry.cog, entry.renderer, entry.ai) == (None, None, None)
    assert registry.keys() == ("ludo", "narabi", "sarena", "sensei")
    # a package without a Game of its own key is not a game
    assert not registry.is_game("notes") and Route.parse("notes:12:join") is None


async def test_unknown_game_clicks_are_answered_as_garbage(harness, extra_games, caplog):
    h = harness
    member = Member(100, "Ana")

    async def click(custom_id: str) -> str:
        msg = h.fake._message(CHANNEL_ID, {"content": "", "components": [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}]}]}, [])
        return await h.click(member, msg, custom_id)

    for custom_id in ("chess:12:join", "ludo:12:join"):
        token = await click(custom_id)
        assert h.reply_text(token) == "That button is not valid any more: nothing was changed."
        assert len(h.fake.replies(token)) == 1 and h.reply_flags(token)[-1] & 64
    # once its package is discovered the same click is routed: to a cog that is not loaded
    registry.refresh()
    token = await click("ludo:12:join")
    assert h.reply_text(token) == "This game is not available right now."
    assert len(h.fake.replies(token)) == 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
