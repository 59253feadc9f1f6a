"""The one door between AI players and a game (bot/ai.py), across all three games: a seat's
view is detached plain data holding no other seat's secret, the AI modules cannot reach the
clock, the OS, the store, Discord or global randomness, and choose_action only ever hands
back a legal action, the same one for the same view, level and seed."""
from __future__ import annotations

import ast
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

import bot.games.ai
from bot.games.ai import LEVELS, choose_action, seat_view
from bot.games import Game, game_class
from bot.games.narabi.deck import DECK as NARABI_DECK
from bot.games.sarena.chips import (B_UP, DOWN, DOWN_SEEN, SEEN_A, SEEN_B, UP, UP_SEEN,
                                    pile_chips)

ROOT = Path(bot.games.ai.__file__).resolve().parents[2]
AI_MODULES = sorted(ROOT.glob("bot/games/*/ai.py"))
GAME_KEYS = ("narabi", "sensei", "sarena")
TABLE_SIZES = {"narabi": (3, 4, 5), "sensei": (2,), "sarena": (2, 3, 4)}
OPTIONS = {
    "narabi": ({"advanced": False}, {"advanced": True}),
    "sensei": ({"version": "arashi", "setup": "standard", "board": "plain"},
               {"version": "shizukana", "setup": "crossed", "board": "storm"}),
    "sarena": ({"fair": False}, {"fair": True}),
}


def random_game(key: str, seats: int, options: dict[str, Any], seed: int, moves: int) -> Game:
    rnd = random.Random(seed)
    game = game_class(key).new(seats, options, seed)
    for _ in range(moves):
        if game.to_move is None:
            break
        game.apply(game.to_move, rnd.choice(game.legal_actions(game.to_move)))
    return game


def positions(key: str, count: int, seed: int) -> Iterator[Game]:
    """``count`` running positions of ``key`` at every table size and option set."""
    rnd = random.Random(seed)
    made = 0
    while made < count:
        seats = rnd.choice(TABLE_SIZES[key])
        game = random_game(key, seats, rnd.choice(OPTIONS[key]), rnd.randrange(2**32),
                           rnd.randint(0, 20))
        if game.to_move is not None:
            made += 1
            yield game


def seats_of(game: Game) -> int:
    # Sensei is for two and keeps no seat count.
    return getattr(game, "seats", type(game).max_seats)


def plain(data: Any) -> bool:
    """Only what JSON itself holds: dicts with string keys, lists, strings, numbers, None."""
    if isinstance(data, dict):
        return all(isinstance(k, str) and plain(v) for k, v in data.items())
    if isinstance(data, list):
        return all(plain(v) for v in data)
    return data is None or isinstance(data, (str, int, float, bool))


def strings_in(data: Any, found: set[str] | None = None) -> set[str]:
    found = set() if found is None else found
    if isinstance(data, dict):
        found.update(data)
        for value in data.values():
            strings_in(value, found)
    elif isinstance(data, list):
        for value in data:
            strings_in(value, found)
    elif isinstance(data, str):
        found.add(data)
    return found


def scramble(data: Any) -> None:
    """Change every list and dict inside ``data`` in place."""
    if isinstance(data, dict):
        for key in list(data):
            value = data[key]
            if isinstance(value, (dict, list)):
                scramble(value)
            else:
                data[key] = "changed"
        data["extra"] = 1
    elif isinstance(data, list):
        for value in data:
            scramble(value)
        data.append({"extra": 1})


# -- twins: the same game as one seat sees it, with other secrets -------------------------

def narabi_twin(game: Game, seat: int, rng: random.Random) -> Game:
    """Every condition ``seat`` does not hold now, dealt again from those conditions and the
    ones that left with the removed stones."""
    state = game.to_json()
    mine = set(state["rows"][seat])
    in_play = {card["condition"]["id"] for card in state["cards"]}
    pool = [dict(card["condition"]) for card in state["cards"] if card["id"] not in mine]
    pool += [dict(cond) for cond in NARABI_DECK.conditions if cond["id"] not in in_play]
    rng.shuffle(pool)
    for card in state["cards"]:
        if card["id"] not in mine:
            card["condition"] = pool.pop()
    return type(game).from_json(state)


def _chip(up: int, down: int, up_seen: bool, down_seen: bool) -> int:
    a, b = sorted((up, down))
    b_up = up == b
    seen_a, seen_b = (down_seen, up_seen) if b_up else (up_seen, down_seen)
    return a | b << 2 | (B_UP if b_up else 0) | (SEEN_A if seen_a else 0) | \
        (SEEN_B if seen_b else 0)


def sarena_twin(game: Game, seat: int, rng: random.Random) -> Game:
    """The other seats' colours drawn again among the colours ``seat`` does not hold, and
    every never-seen chip face drawn again (any colour but the chip's seen face)."""
    state = game.to_json()
    colours = list(state["colours"])
    others = [s for s in range(seats_of(game)) if s != seat]
    for s, colour in zip(others, rng.sample([c for c in range(4) if c != colours[seat]],
                                            len(others))):
        colours[s] = colour
    piles = []
    for pile, height in zip(state["piles"], state["heights"]):
        chips = []
        for c in pile_chips(pile, height):
            if UP_SEEN[c] and not DOWN_SEEN[c]:
                c = _chip(UP[c], rng.choice([k for k in range(4) if k != UP[c]]), True, False)
            elif DOWN_SEEN[c] and not UP_SEEN[c]:
                c = _chip(rng.choice([k for k in range(4) if k != DOWN[c]]), DOWN[c], False, True)
            chips.append(c)
        piles.append(int.from_bytes(bytes(chips), "little"))
    state.update(colours=colours, piles=piles)
    return type(game).from_json(state)


# -- seat_view: plain, detached data ------------------------------------------------------

@pytest.mark.parametrize("key", GAME_KEYS)
def test_seat_view_is_plain_json_data_for_every_seat(key):
    for game in positions(key, 12, seed=1):
        for seat in range(seats_of(game)):
            view = seat_view(game, seat)
            assert plain(view)
            assert json.loads(json.dumps(view)) == view
            assert set(view) == {"game", "seat", "public", "private", "legal", "history"}
            assert view["game"] == key and view["seat"] == seat
            assert view["legal"] == game.legal_actions(seat)
            assert (view["legal"] != []) == (seat == game.to_move)
            assert view["history"] == game.public_history()


@pytest.mark.parametrize("key", GAME_KEYS)
def test_changing_a_seat_view_changes_nothing_in_the_game(key):
    for game in positions(key, 8, seed=2):
        before = json.dumps(game.to_json(), sort_keys=True)
        seat = game.to_move
        views = [seat_view(game, s) for s in range(seats_of(game))]
        copies = json.loads(json.dumps(views))
        for view in views:
            scramble(view)
            view.clear()
        assert json.dumps(game.to_json(), sort_keys=True) == before
        assert [seat_view(game, s) for s in range(seats_of(game))] == copies
        # The game still plays on exactly as before.
        action = copies[seat]["legal"][0]
        game.apply(seat, action)


# -- nothing secret of another seat -------------------------------------------------------

def test_narabi_views_are_blind_to_other_seats_conditions():
    rnd = random.Random(3)
    conditions = {cond["id"] for cond in NARABI_DECK.conditions}
    colours = {"white", "dark"}
    checked = differing = 0
    for game in positions("narabi", 40, seed=3):
        state = game.to_json()
        condition_of = {card["id"]: card["condition"]["id"] for card in state["cards"]}
        for seat in range(seats_of(game)):
            view = seat_view(game, seat)
            # Exactly the seat's own cards carry a condition, and the true one.
            assert view["private"]["cards"] == [
                {"id": c, "number": game.cards[c]["number"], "colour": game.cards[c]["colour"],
                 "condition": condition_of[c]} for c in game.rows[seat]]
            assert all("condition" not in card for row in view["public"]["rows"] for card in row)
            # No other seat's condition appears anywhere as a value (the ids "white" and "dark"
            # are colour names too, and a condition the seat holds itself may be named).
            own = {condition_of[c] for c in game.rows[seat]}
            text = strings_in(view)
            assert not (text & (conditions - colours - own))
            # The stronger check: other conditions, same view.
            twin = narabi_twin(game, seat, rnd)
            differing += twin.to_json() != state
            assert seat_view(twin, seat) == view
            checked += 1
    assert checked >= 150 and differing >= 0.9 * checked


def test_narabi_reveals_conditions_only_once_the_game_is_over():
    game = random_game("narabi", 4, {"advanced": False}, 7, 40)
    assert game.to_move is None
    view = seat_view(game, 0)
    assert view["legal"] == []
    assert all("condition" in card for row in view["public"]["rows"] for card in row)


def test_sarena_views_are_blind_to_other_colours_and_unseen_faces():
    rnd = random.Random(4)
    checked = differing = 0
    for game in positions("sarena", 40, seed=4):
        state = game.to_json()
        for seat in range(seats_of(game)):
            view = seat_view(game, seat)
            assert view["private"] == {"colour": ("white", "black", "red", "yellow")[
                state["colours"][seat]]}
            text = json.dumps(view)
            assert '"colours"' not in text
            twin = sarena_twin(game, seat, rnd)
            differing += twin.to_json() != state
            assert seat_view(twin, seat) == view
            checked += 1
    assert checked >= 80 and differing >= 0.9 * checked


def test_sensei_hides_nothing_so_the_private_view_is_empty():
    for game in positions("sensei", 5, seed=5):
        for seat in range(2):
            assert seat_view(game, seat)["private"] == {}


# -- the AI modules are pure --------------------------------------------------------------

#: modules no AI code may import (itself or a submodule)
FORBIDDEN_MODULES = ("bot.store", "discord", "PIL", "time", "datetime", "os", "sys",
                     "subprocess", "socket", "pathlib", "threading", "asyncio", "aiosqlite",
                     "secrets", "uuid", "multiprocessing", "io", "shutil", "tempfile")
FORBIDDEN_CALLS = ("open", "eval", "exec", "compile", "__import__", "input", "print",
                   "breakpoint", "globals", "vars")


def _resolve(path: Path, node: ast.ImportFrom) -> str:
    """The absolute module an ``import from`` names, relative imports included."""
    if not node.level:
        return node.module or ""
    package = list(path.relative_to(ROOT).with_suffix("").parts[:-1])
    base = package[:len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(path: Path, tree: ast.AST) -> list[tuple[str, list[str]]]:
    """(module, names imported from it) for every import in the file."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = _resolve(path, node)
            names = [alias.name for alias in node.names]
            out.append((module, names))
            # ``from bot import store`` imports the module bot.store.
            out += [(f"{module}.{name}", []) for name in names]
    return out


def _forbidden(module: str) -> bool:
    return any(module == bad or module.startswith(bad + ".") for bad in FORBIDDEN_MODULES)


def _ai_sources() -> list[Path]:
    return [ROOT / "bot" / "games" / "ai.py", *AI_MODULES]


def test_there_is_an_ai_module_for_every_game():
    assert {path.parent.name for path in AI_MODULES} >= set(GAME_KEYS)


@pytest.mark.parametrize("path", _ai_sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_ai_modules_import_nothing_impure(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for module, names in _imports(path, tree):
        assert not _forbidden(module), f"{path.name} imports {module}"
        if module == "random":
            assert set(names) <= {"Random"}, f"{path.name}: from random import {names}"
        if module == "importlib":
            # Only the entry point loads a game's AI module by name.
            assert path == ROOT / "bot" / "games" / "ai.py"
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, f"{path.name} calls {node.func.id}()"
        if isinstance(node, ast.Global):
            raise AssertionError(f"{path.name} rebinds module state: global {node.names}")


@pytest.mark.parametrize("path", _ai_sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_ai_modules_use_only_seeded_random_instances(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    names = {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
             for alias in node.names if alias.name == "random"}
    for node in ast.walk(tree):
        # random.X for anything but the class: the module-level functions share one global,
        # unseeded generator (random.random(), random.choice(), random.seed() ...).
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in names:
            assert node.attr == "Random", f"{path.name} uses random.{node.attr}"
        # An instance seeded from nothing draws its seed from the OS.
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name in ("Random", "SystemRandom"):
                assert name == "Random" and (node.args or node.keywords), \
                    f"{path.name}:{node.lineno} creates an unseeded generator"


def test_the_entry_point_reads_a_game_through_its_public_surface_only():
    path = ROOT / "bot" / "games" / "ai.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    read = {node.attr for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id == "game"}
    assert read <= {"key", "public_view", "private_view", "legal_actions", "public_history"}
    assert {"public_view", "private_view", "legal_actions", "public_history"} <= read


def test_loading_the_ai_pulls_in_neither_the_store_nor_discord_nor_pillow():
    code = ("import sys, bot.games.ai, bot.games.narabi.ai, bot.games.sensei.ai, "
            "bot.games.sarena.ai\n"
            "bad = sorted(m for m in sys.modules if m == 'bot.store' or m.split('.')[0] in "
            "('discord', 'PIL', 'aiosqlite'))\n"
            "print(' '.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == ""


# -- choose_action ------------------------------------------------------------------------

@pytest.mark.parametrize("level", ["", "HARD", "master", "Random", None, 3])
def test_unknown_levels_are_rejected(level):
    for key in GAME_KEYS:
        game = next(positions(key, 1, seed=6))
        with pytest.raises(ValueError, match="unknown AI level"):
            choose_action(key, seat_view(game, game.to_move), level)  # type: ignore[arg-type]


def test_a_seat_with_no_legal_action_is_refused():
    for key in GAME_KEYS:
        game = next(positions(key, 1, seed=6))
        idle = next(s for s in range(seats_of(game)) if s != game.to_move)
        with pytest.raises(ValueError, match="no legal action"):
            choose_action(key, seat_view(game, idle), "hard")


@pytest.mark.parametrize("key", GAME_KEYS)
def test_an_illegal_choice_by_the_ai_is_caught(key, monkeypatch):
    module = __import__(f"bot.games.{key}.ai", fromlist=["choose"])
    game = next(g for g in positions(key, 20, seed=7) if len(g.legal_actions(g.to_move)) > 1)
    view = seat_view(game, game.to_move)
    legal = view["legal"][0]
    wrong = [{"type": "nonsense"}, {**legal, "extra": 1}, None, "pass",
             # a bare type names no particular action
             {"type": legal["type"]}]
    for bad in wrong:
        monkeypatch.setattr(module, "choose", lambda view, level, rng, bad=bad: bad)
        for level in ("easy", "medium", "hard"):
            with pytest.raises(RuntimeError, match="not legal"):
                choose_action(key, view, level, 1)
    # "random" never asks the module, and a legal answer goes through (as a copy).
    monkeypatch.setattr(module, "choose", lambda view, level, rng: view["legal"][-1])
    assert choose_action(key, view, "random", 1) in view["legal"]
    chosen = choose_action(key, view, "hard", 1)
    assert chosen == view["legal"][-1]
    chosen["mutated"] = True
    assert "mutated" not in view["legal"][-1]


# -- determinism --------------------------------------------------------------------------

def _fixed_positions() -> list[tuple[str, Game]]:
    out = []
    for key in GAME_KEYS:
        sizes = TABLE_SIZES[key]
        for i, moves in enumerate((0, 5, 11)):
            game = random_game(key, sizes[i % len(sizes)], OPTIONS[key][i % 2], 500 + i, moves)
            assert game.to_move is not None
            out.append((key, game))
    return out


@pytest.fixture
def small_searches(monkeypatch):
    """Every searching level on a small budget (searches count work, never time, so determinism
    and legality hold at any budget): at the shipped budgets the experts alone cost this test
    about 6 s of CPU. The shipped budgets are held to the same property, across processes, by
    test_choices_do_not_depend_on_the_process_hash_seed below, and each game's tests play whole
    games at every shipped level. The Sensei expert's memo of decided turns is emptied before
    every choice, so that the second call searches again instead of reading the first's answer;
    so is hard's memo of wins in two (nor does either keep answers found on small budgets for
    later tests)."""
    from bot.games.sarena import ai as sarena_ai, expert as sarena_expert
    from bot.games.sensei import expert as sensei_expert, search as sensei_search
    from bot.games.sensei import wintwo as sensei_wintwo
    monkeypatch.setattr(sarena_ai, "BUDGETS", {"medium": 300, "hard": 600})
    monkeypatch.setattr(sarena_expert, "BUDGET", 1_500)
    monkeypatch.setattr(sensei_expert, "EXPERT_NODES", 3_000)
    monkeypatch.setattr(sensei_search, "HARD_BUDGET", 3_000)
    monkeypatch.setattr(sensei_wintwo, "HARD_WIN_POSITIONS", 2_000)

    def forget() -> None:
        sensei_expert._DECIDED.clear()
        sensei_wintwo._WIN_IN_TWO.clear()

    forget()
    yield forget
    forget()


@pytest.mark.slow
def test_same_view_level_and_seed_give_the_same_action_in_every_game(small_searches):
    for key, game in _fixed_positions():
        state = game.to_json()
        view = seat_view(game, game.to_move)
        rebuilt = type(game).from_json(json.loads(json.dumps(state)))
        for level in LEVELS:
            small_searches()
            first = choose_action(key, view, level, 42)
            assert first in view["legal"]
            small_searches()
            assert choose_action(key, seat_view(rebuilt, rebuilt.to_move), level, 42) == first
        assert game.to_json() == state  # choosing did not touch the game


_CHOICES = """
import json, random, sys
from bot.games.ai import LEVELS, choose_action, seat_view
from bot.games import game_class
out = []
for key, seats, options, seed in json.loads(sys.argv[1]):
    rnd = random.Random(seed)
    game = game_class(key).new(seats, options, seed)
    for _ in range(4):
        game.apply(game.to_move, rnd.choice(game.legal_actions(game.to_move)))
    view = seat_view(game, game.to_move)
    out.append([choose_action(key, view, level, 9) for level in LEVELS])
print(json.dumps(out))
"""


@pytest.mark.slow
def test_choices_do_not_depend_on_the_process_hash_seed():
    # Set and dict order of strings changes with PYTHONHASHSEED; the choices must not.
    tables = json.dumps([["narabi", 4, {}, 1], ["sensei", 2, {}, 2], ["sarena", 3, {}, 3]])
    runs = []
    for hash_seed in ("1", "2"):
        env = {"PYTHONHASHSEED": hash_seed, "PATH": "/usr/bin:/bin"}
        done = subprocess.run([sys.executable, "-c", _CHOICES, tables], cwd=ROOT, env=env,
                              capture_output=True, text=True, check=True)
        runs.append(json.loads(done.stdout))
    assert runs[0] == runs[1]
    assert len(runs[0]) == 3 and all(len(choices) == len(LEVELS) for choices in runs[0])
