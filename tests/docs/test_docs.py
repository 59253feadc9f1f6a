"""The documentation against the code: the commands and settings it names exist, everything the
bot has is documented, the README stays a front door, and the site builds with --strict."""
from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import discord
import pytest
from PIL import Image

from bot.runtime import console
from bot.tools import docs_pictures, docs_site
from bot.ui.permissions import REQUIRED

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
PAGES = sorted(DOCS.rglob("*.md"))
#: Discord option types that are commands themselves (subcommand, subcommand group)
SLASH_OPTIONS = {1, 2}


@pytest.fixture(scope="module")
def payloads() -> list[dict]:
    return docs_site.command_payloads()


@pytest.fixture(scope="module")
def tree(payloads) -> dict[str, set[str]]:
    """Every command path people can type (``/sensei``, ``/sensei move``) -> its option names."""
    found: dict[str, set[str]] = {}

    def walk(node: dict, path: str) -> None:
        found[path] = set()
        for option in node.get("options") or ():
            if option.get("type") in SLASH_OPTIONS:
                walk(option, f"{path} {option['name']}")
            else:
                found[path].add(option["name"])

    for payload in payloads:
        if payload.get("type", 1) == 1:
            walk(payload, "/" + payload["name"])
    return found


def texts() -> dict[str, str]:
    return {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in [README, *PAGES]}


# -- commands ----------------------------------------------------------------------------------

_SPAN = re.compile(r"`(/[^`\n]+)`")
_WORD = re.compile(r"[a-z_]+")
_OPTION = re.compile(r"^(?:\[([a-z_]+)\]|<([a-z_]+)>|([a-z_]+):.*)$")


def mentions(text: str) -> list[tuple[str, list[str]]]:
    """Each slash command written in a code span: (command path as written, option names)."""
    found = []
    for span in _SPAN.findall(text):
        first, *rest = span.split()
        if not _WORD.fullmatch(first[1:]):
            continue  # a path (/dev/shm), an ellipsis (/… start)
        path, options = first, []
        for token in rest:
            option = _OPTION.match(token)
            if option:
                options.append(next(g for g in option.groups() if g))
            elif _WORD.fullmatch(token) and not options:
                path = f"{path} {token}"
        found.append((path, options))
    return found


def test_the_mention_reader_reads_what_the_pages_write():
    assert mentions("`/sensei move notation:c2-c5 *d1-c5` and `/dev/shm` and `/… start`") == [
        ("/sensei move", ["notation"])]
    assert mentions("`/config clock game:<game> limit:<time> [policy]`") == [
        ("/config clock", ["game", "limit", "policy"])]
    assert mentions("`/sarena move <notation>`") == [("/sarena move", ["notation"])]


#: the worked example of docs/developers/add-a-game.md is a game the bot does not have
EXAMPLE = ("docs/developers/add-a-game.md", "/nim")


#: web paths the bot serves, which the pages write like commands
WEB_PATHS = set(console.ROUTES)


def test_every_command_and_option_the_docs_mention_exists(tree, payloads):
    wrong = []
    # Discord shows the Entry Point command as /launch too (it takes no options).
    tree = {**tree, **{"/" + p["name"]: set() for p in payloads if p.get("type") == 4}}
    for name, text in texts().items():
        for path, options in mentions(text):
            if (name, path.split()[0]) == EXAMPLE or path in WEB_PATHS:
                continue
            if path not in tree:
                wrong.append(f"{name}: {path} is not a command")
                continue
            wrong += [f"{name}: {path} has no option {o}" for o in options if o not in tree[path]]
    assert not wrong, "\n".join(wrong)


def test_the_generated_command_table_lists_every_command_and_option(payloads, tree):
    table = docs_site.commands_markdown(docs_site.entries(payloads))
    rows = {line.split("|")[1].strip().strip("`"): line for line in table.splitlines()
            if line.startswith("| `/")}
    leaves = {path: options for path, options in tree.items()
              if not any(other.startswith(path + " ") for other in tree)}
    assert set(rows) == set(leaves)
    for path, options in leaves.items():
        for option in options:
            assert f"`{option}` (" in rows[path], f"{path}: option {option} missing"


def test_commands_of_other_types_are_listed_by_name_and_type():
    payloads = [{"name": "games", "description": "The games", "type": 1, "options": []},
                {"name": "Launch", "description": "", "type": 4},
                {"name": "Invite to a game", "description": "", "type": 2}]
    table = docs_site.commands_markdown(docs_site.entries(payloads))
    assert "| Launch | Activity entry point |" in table
    assert "| Invite to a game | user context menu |" in table
    assert "| `/games` | The games |" in table


def test_the_where_table_follows_each_command_s_declarations(payloads):
    found = docs_site.entries(payloads)
    table = docs_site.places_markdown(found)
    rows = {line.split("|")[1].strip().split()[0].strip("`"): [c.strip() for c in
                                                              line.split("|")[2:-1]]
            for line in table.splitlines()[2:]}
    assert set(rows) == {("/" if p.get("type", 1) == 1 else "") + p["name"] for p in payloads}
    for payload in payloads:
        name = ("/" if payload.get("type", 1) == 1 else "") + payload["name"]
        contexts, installs = payload["contexts"], payload["integration_types"]
        for (place, context, install), cell in zip(docs_site.PLACES, rows[name]):
            offered = context in contexts and int(install) in installs
            if not offered:
                assert cell == docs_site.ABSENT, (name, place)
            elif payload.get(docs_site.NEEDS_SERVER) and install == "1":
                assert cell == docs_site.SAYS_SO, (name, place)
            else:
                assert cell == docs_site.WORKS, (name, place)
    # the games are played everywhere; a server's own commands say so elsewhere
    for game in ("/narabi", "/sensei", "/sarena", "/replay", "/review", "/puzzle"):
        assert rows[game] == [docs_site.WORKS] * 4, game
    for own in ("/config", "/tournament", "/leaderboard", "/stats", "/history"):
        assert rows[own] == [docs_site.WORKS] + [docs_site.SAYS_SO] * 3, own
    page = (DOCS / "players" / "where.md").read_text(encoding="utf-8")
    assert "<!-- generated: places -->" in page


def test_the_user_install_link_is_in_the_readme_and_the_docs():
    link = ("https://discord.com/oauth2/authorize?client_id=YOUR_APP_ID&integration_type=1"
            "&scope=applications.commands")
    for page in (README, DOCS / "owners" / "invite.md", DOCS / "players" / "where.md"):
        assert link in page.read_text(encoding="utf-8"), page.name
    assert "## Play anywhere" in README.read_text(encoding="utf-8")


# -- settings ----------------------------------------------------------------------------------

_NAME = re.compile(r"`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`")


def read_by_config() -> set[str]:
    source = (ROOT / "bot" / "config.py").read_text(encoding="utf-8")
    return set(re.findall(r'"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)"', source))


def test_the_settings_reader_reads_env_example():
    found = {s.name: s for s in docs_site.settings()}
    assert found["LOG_LEVEL"].default == "INFO"
    assert "CRITICAL, ERROR" in found["LOG_LEVEL"].comment
    assert found["SHARD_IDS"].comment == found["SHARD_COUNT"].comment  # one comment, four names
    assert set(found) >= read_by_config()


def test_every_variable_of_env_example_is_documented_on_a_page():
    written = "\n".join(p.read_text(encoding="utf-8") for p in PAGES)
    missing = [s.name for s in docs_site.settings() if f"`{s.name}`" not in written]
    assert not missing, f"not named on any page under docs/: {missing}"


def test_every_variable_a_settings_table_names_is_in_env_example():
    known = {s.name for s in docs_site.settings()}
    pages = [DOCS / "owners" / "settings.md", *sorted((DOCS / "operators").glob("*.md"))]
    named = set()
    for page in pages:
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.startswith("|"):
                named.update(_NAME.findall(line.split("|")[1]))
    assert named, "no settings table found"
    assert not named - known, f"documented but not in .env.example: {sorted(named - known)}"


def test_every_variable_the_bot_reads_is_in_env_example():
    known = {s.name for s in docs_site.settings()}
    assert not read_by_config() - known


# -- the front door ------------------------------------------------------------------------------

def test_the_readme_is_a_front_door():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200
    first_screen = "\n".join(lines[:40])
    assert "python -m bot play" in first_screen
    assert re.search(r"https://discord\.com/oauth2/authorize\?client_id=\S+&scope=bot%20"
                     r"applications\.commands&permissions=\d+", first_screen)


def test_the_invite_asks_for_exactly_the_permissions_the_bot_checks():
    needed = discord.Permissions(**{name: True for name in REQUIRED},
                                 create_public_threads=True, send_messages_in_threads=True)
    for page in (README, DOCS / "owners" / "invite.md"):
        integers = set(re.findall(r"permissions=(\d+)", page.read_text(encoding="utf-8")))
        assert integers == {str(needed.value)}, page.name


def test_the_readme_installs_and_tests_as_ci_does():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    readme = README.read_text(encoding="utf-8")
    install = re.search(r'pip install --quiet (-e "\.\[[a-z,]+\]")', ci)[1]
    test = re.search(r"^(python -m pytest .*)$", ci, re.M)[1]
    assert f"pip install {install} && {test}" in readme
    assert re.search(r"^mkdocs build --strict", ci, re.M)


# -- pictures and the build -----------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("example", docs_pictures.EXAMPLES, ids=lambda e: e.game)
def test_the_docs_pictures_are_a_whole_game_drawn_by_the_renderer(example):
    views = docs_pictures.played(example)
    assert views[-1]["result"] is not None and views[0] != views[-1]
    pictures = docs_pictures.pictures(example)
    assert set(pictures) == {"start", "middle", "end"}
    sizes = {Image.open(io.BytesIO(data)).size for data in pictures.values()}
    assert len(sizes) == 1 and min(next(iter(sizes))) >= 400


@pytest.mark.slow
def test_the_site_builds_strictly(tmp_path):
    mkdocs = shutil.which("mkdocs", path=str(Path(sys.executable).parent)) or shutil.which("mkdocs")
    if mkdocs is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI must build the documentation: install the docs extra")
        pytest.skip("mkdocs is not installed (pip install -e \".[docs]\")")
    run = subprocess.run([mkdocs, "build", "--strict", "--site-dir", str(tmp_path / "site")],
                         cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert run.returncode == 0, run.stderr[-3000:]
    for game in ("narabi", "sensei", "sarena"):
        assert (tmp_path / "site" / "assets" / "boards" / f"{game}-end.png").stat().st_size > 1000
    commands = (tmp_path / "site" / "players" / "commands.html").read_text(encoding="utf-8")
    assert "generated:" not in commands and "/sensei move" in commands
    where = (tmp_path / "site" / "players" / "where.html").read_text(encoding="utf-8")
    assert "generated:" not in where and "server without the bot" in where
    settings = (tmp_path / "site" / "operators" / "configuration.html").read_text(encoding="utf-8")
    assert "RETENTION_DAYS" in settings and "generated:" not in settings


def test_the_readme_links_to_files_that_exist():
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\((?!https?://)([^)#\s]+)", text) + re.findall(r'src="([^"]+)"', text)
    assert targets
    missing = [target for target in targets if not (ROOT / target).exists()]
    assert not missing, missing
