"""The message box reads slash commands as Discord's client does, from the commands the bot
registers; bad input gets a sentence, never a traceback."""
from __future__ import annotations

import pytest

from bot.playground.commands import CommandError, entries, parse
from bot.playground.people import clean_name, discord_locale, member_id

COMMANDS = [
    {"name": "sensei", "description": "Sensei", "options": [
        {"type": 1, "name": "start", "description": "Open a lobby", "options": [
            {"type": 3, "name": "ai", "description": "AI level", "required": False,
             "choices": [{"name": "Easy", "value": "easy"}, {"name": "Hard", "value": "hard"}]}]},
        {"type": 1, "name": "move", "description": "Move", "options": [
            {"type": 3, "name": "notation", "description": "A turn", "required": True,
             "min_length": 1, "max_length": 20}]}]},
    {"name": "narabi", "description": "Narabi", "options": [
        {"type": 1, "name": "start", "description": "Open a lobby", "options": [
            {"type": 5, "name": "advanced", "description": "Advanced", "required": False},
            {"type": 4, "name": "players", "description": "Players", "required": False,
             "min_value": 3, "max_value": 5}]}]},
    {"name": "stats", "description": "Stats", "options": [
        {"type": 6, "name": "member", "description": "Whose", "required": False}]},
]


def find_user(text: str):
    return {"ben": "BEN"}.get(text.lstrip("@").lower())


def test_a_command_with_its_options_is_read_with_their_types():
    parsed = parse("/sensei start ai:hard", COMMANDS, find_user)
    assert parsed.path == ["sensei", "start"] and parsed.options == {"ai": "hard"}
    parsed = parse("/narabi start players:4 advanced:true", COMMANDS, find_user)
    assert parsed.options == {"players": 4, "advanced": True}
    assert parse("/sensei move notation:c2-c5 *d1-c5", COMMANDS, find_user).options == {
        "notation": "c2-c5 *d1-c5"}
    assert parse("/sensei move c2-c5", COMMANDS, find_user).options == {"notation": "c2-c5"}
    assert parse("/stats member:@Ben", COMMANDS, find_user).options == {"member": "BEN"}
    assert parse("/sensei start ai:Hard", COMMANDS, find_user).options == {"ai": "hard"}


@pytest.mark.parametrize("text, answer", [
    ("/dance", "is not a command"),
    ("/", "Type a command"),
    ("/sensei", "needs one of"),
    ("/sensei fly", "needs one of"),
    ("/sensei start ai:godlike", "must be one of: easy, hard"),
    ("/sensei start colour:red", "has no option `colour`"),
    ("/sensei move", "is required"),
    ("/narabi start players:9", "between 3 and 5"),
    ("/narabi start players:three", "whole number"),
    ("/narabi start advanced:maybe", "True or False"),
    ("/stats member:@Nobody", "no member called"),
    ("/sensei move notation:" + "x" * 30, "1 to 20 characters"),
    ("/sensei start ai:hard ai:easy", "given twice"),
    ("/sensei " + "x" * 10_000, "Must be 2,000 or fewer in length"),
])
def test_bad_input_gets_the_sentence_discord_would_give(text, answer):
    with pytest.raises(CommandError) as raised:
        parse(text, COMMANDS, find_user)
    assert answer in str(raised.value)


def test_suggestions_list_every_invocable_path():
    paths = [e["path"] for e in entries(COMMANDS)]
    assert paths == ["sensei start", "sensei move", "narabi start", "stats"]


def test_the_browser_language_becomes_a_discord_locale():
    assert discord_locale("fr-FR,fr;q=0.9,en;q=0.8") == "fr"
    assert discord_locale("ja,es;q=0.5,de;q=0.7") == "de"
    assert discord_locale("es-MX") == "es-ES"
    assert discord_locale("pl") == "pl" and discord_locale("ru-RU") == "ru"
    assert discord_locale("nl-BE,it;q=0.9") == "nl"
    assert discord_locale("zh-CN") == discord_locale(None) == "en-US"
    assert discord_locale("en;q=0,it") == "it"


def test_names_are_cleaned_and_stable():
    assert clean_name(" Ben ") == "Ben" and clean_name("<script>") == "script"
    assert clean_name("") == clean_name(None) == "You"
    assert member_id("Ben") == member_id("ben") != member_id("Ana")
