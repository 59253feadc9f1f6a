"""The Activity page's own files, read as files: what Discord's proxy and the strict CSP
require of them (nothing inline, nothing from another origin), the built SDK and its licence
committed with exact versions, and every word the page shows in the catalogs."""
from __future__ import annotations

import json
import re
from pathlib import Path

import bot.activity
from bot.i18n import catalogs

STATIC = Path(bot.activity.__file__).parent / "static"
SDK = Path(bot.activity.__file__).parent / "sdk"
SCRIPTS = sorted((STATIC / "js").glob("*.mjs"))


def test_the_page_has_nothing_inline_and_loads_only_its_own_files():
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "an inline script"
    assert not re.search(r"\sstyle=|\son[a-z]+=", html, re.I), "an inline style or handler"
    links = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert links and all(link.startswith("/static/") for link in links), links
    for link in links:
        assert (STATIC / link.removeprefix("/static/")).is_file(), link


def test_the_scripts_import_only_files_that_exist_and_reach_no_other_origin():
    assert SCRIPTS
    for script in SCRIPTS:
        text = script.read_text(encoding="utf-8")
        for target in re.findall(r'from\s+"(\.[^"]+)"', text):
            assert (script.parent / target).resolve().is_file(), (script.name, target)
        assert not re.search(r"\beval\(|new Function\(|innerHTML", text), script.name
        remote = [url for url in re.findall(r"https?://[^\s\"'`]+", text)
                  if url != "http://www.w3.org/2000/svg"]
        assert not remote, (script.name, remote)


def test_the_sdk_is_built_committed_pinned_and_licensed():
    bundle = (STATIC / "vendor" / "discord-sdk.mjs").read_text(encoding="utf-8")
    exported = re.search(r"export\s*\{([^}]*)\}\s*;?\s*$", bundle)
    assert exported, "the bundle is not one ES module"
    names = {part.split(" as ")[-1].strip() for part in exported.group(1).split(",")}
    assert {"DiscordSDK", "DiscordSDKMock"} <= names
    licence = (STATIC / "vendor" / "LICENSE-discord-embedded-app-sdk.txt").read_text(encoding="utf-8")
    assert "Discord Inc" in licence and "MIT License" in licence
    package = json.loads((SDK / "package.json").read_text(encoding="utf-8"))
    pins = {**package["dependencies"], **package["devDependencies"]}
    assert set(pins) == {"@discord/embedded-app-sdk", "esbuild"}
    assert all(re.fullmatch(r"\d+\.\d+\.\d+", version) for version in pins.values()), pins
    lock = json.loads((SDK / "package-lock.json").read_text(encoding="utf-8"))
    sdk = lock["packages"]["node_modules/@discord/embedded-app-sdk"]["version"]
    assert sdk == pins["@discord/embedded-app-sdk"] and sdk in licence


def _keys_in_scripts() -> tuple[set[str], set[str]]:
    """Catalog keys the page names whole, and the prefixes of those it builds from data."""
    whole, prefixes = set(), set()
    for script in SCRIPTS:
        text = script.read_text(encoding="utf-8")
        whole |= set(re.findall(r'\bt\("(activity\.[a-z_.]+)"', text))
        whole |= set(re.findall(r'"(activity\.[a-z_]+(?:\.[a-z_]+)+)"', text))
        prefixes |= set(re.findall(r"`(activity\.[a-z_.]+\.)\$\{", text))
    return whole, prefixes


def test_every_word_the_page_shows_is_in_the_catalogs_and_every_page_key_is_used():
    english = catalogs()["en"]
    page_keys = set(json.loads((Path(bot.__file__).parent / "locales" / "en.activity.json")
                               .read_text(encoding="utf-8")))
    whole, prefixes = _keys_in_scripts()
    assert whole and prefixes
    missing = {key for key in whole if key not in english}
    assert not missing, sorted(missing)
    for prefix in prefixes:
        assert any(key.startswith(prefix) for key in english), prefix
    unused = {key for key in page_keys
              if key not in whole and not any(key.startswith(p) for p in prefixes)}
    assert not unused, sorted(unused)
