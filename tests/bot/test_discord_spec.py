"""The stand-in's judge: Discord's published API description, answered as Discord answers."""
from __future__ import annotations

import copy
import io

import discord
import pytest
from PIL import Image

from bot.testing.discord_spec import SPEC, DiscordSpec, http_exception
from bot.testing.attachments import image_size
from bot.testing.fake_discord import FakeDiscord
from bot.testing.harness import Harness

MESSAGE = {
    "content": "**Sensei #12** — Ana to move",
    "embeds": [{"title": "Sensei #12", "description": "Ana vs Ben", "color": 0x5865F2,
                "fields": [{"name": "Seats", "value": "Ana, Ben", "inline": False}]}],
    "components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "Move", "custom_id": "sensei:12:move:3"},
        {"type": 2, "style": 4, "label": "Resign", "custom_id": "sensei:12:resign",
         "emoji": {"name": "🏳️"}}]},
        {"type": 1, "components": [
            {"type": 3, "custom_id": "sensei:12:from:3", "placeholder": "A stone…",
             "min_values": 1, "max_values": 1,
             "options": [{"label": "c2", "value": "c2"}, {"label": "d1", "value": "d1"}]}]}],
    "allowed_mentions": {"parse": [], "users": [123]},
    "attachments": [{"id": 0, "filename": "board.png", "description": "the board"}],
}
CHANNEL = "/channels/700000000000000001/messages"


def errors_at(refusal, *path: str) -> list[dict]:
    status, body = refusal
    assert status == 400 and body["code"] == 50035 and body["message"] == "Invalid Form Body"
    node = body["errors"]
    for key in path:
        assert key in node, (key, body["errors"])
        node = node[key]
    return node["_errors"]


def test_a_good_message_passes_every_route_that_sends_one():
    assert SPEC.check("POST", CHANNEL, MESSAGE, uploads=1) is None
    assert SPEC.check("PATCH", CHANNEL + "/1000000000000000001", MESSAGE, uploads=1) is None
    assert SPEC.check("POST", "/interactions/1/tok/callback",
                      {"type": 4, "data": dict(MESSAGE, flags=64)}, uploads=1) is None
    assert SPEC.check("POST", "/interactions/1/tok/callback", {"type": 7, "data": MESSAGE},
                      uploads=1) is None
    assert SPEC.check("POST", "/interactions/1/tok/callback", {"type": 6}) is None
    assert SPEC.check("POST", "/interactions/1/tok/callback", {"type": 5, "data": {"flags": 64}}) is None
    assert SPEC.check("POST", "/webhooks/900000000000000001/tok", MESSAGE, uploads=1) is None
    assert SPEC.check("PATCH", "/webhooks/900000000000000001/tok/messages/@original", MESSAGE,
                      uploads=1) is None
    assert SPEC.check("GET", "/webhooks/900000000000000001/tok/messages/@original") is None
    assert SPEC.check("DELETE", CHANNEL + "/1000000000000000001") is None


def test_snowflakes_may_be_integers_as_discord_py_sends_them():
    assert SPEC.check("POST", "/users/@me/channels", {"recipient_id": 100}) is None
    assert SPEC.check("POST", "/users/@me/channels", {"recipient_id": "100"}) is None
    assert errors_at(SPEC.check("POST", "/users/@me/channels", {"recipient_id": "ana"}),
                     "recipient_id")[0]["code"] == "NUMBER_TYPE_COERCE"


def test_content_too_long():
    body = dict(MESSAGE, content="x" * 2001)
    [error] = errors_at(SPEC.check("POST", CHANNEL, body, uploads=1), "content")
    assert error == {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}
    # an interaction's message: the same limit, under data
    refusal = SPEC.check("POST", "/interactions/1/tok/callback", {"type": 4, "data": body}, uploads=1)
    assert errors_at(refusal, "data", "content")[0]["code"] == "BASE_TYPE_MAX_LENGTH"


def test_too_many_components():
    body = copy.deepcopy(MESSAGE)
    row = body["components"][0]
    row["components"] = [dict(row["components"][0], custom_id=f"sensei:12:b{i}") for i in range(6)]
    [error] = errors_at(SPEC.check("POST", CHANNEL, body, uploads=1), "components", "0", "components")
    assert error["code"] == "BASE_TYPE_BAD_LENGTH" and "between 1 and 5" in error["message"]
    body = copy.deepcopy(MESSAGE)
    body["components"] = [{"type": 1, "components": [dict(MESSAGE["components"][0]["components"][0],
                                                          custom_id=f"x:{i}")]} for i in range(6)]
    errors_at(SPEC.check("POST", CHANNEL, body, uploads=1), "components")
    body = copy.deepcopy(MESSAGE)
    body["components"][1]["components"][0]["options"] = [
        {"label": f"o{i}", "value": f"o{i}"} for i in range(26)]
    [error] = errors_at(SPEC.check("POST", CHANNEL, body, uploads=1),
                        "components", "1", "components", "0", "options")
    assert "25" in error["message"]


def test_labels_custom_ids_and_their_uniqueness():
    body = copy.deepcopy(MESSAGE)
    body["components"][0]["components"][0]["label"] = "L" * 81
    body["components"][0]["components"][1]["custom_id"] = "c" * 101
    refusal = SPEC.check("POST", CHANNEL, body, uploads=1)
    assert errors_at(refusal, "components", "0", "components", "0", "label")[0]["message"] == \
        "Must be 80 or fewer in length."
    assert errors_at(refusal, "components", "0", "components", "1", "custom_id")[0]["code"] == \
        "BASE_TYPE_BAD_LENGTH"
    body = copy.deepcopy(MESSAGE)
    body["components"][0]["components"][1]["custom_id"] = "sensei:12:move:3"
    [error] = errors_at(SPEC.check("POST", CHANNEL, body, uploads=1),
                        "components", "0", "components", "1", "custom_id")
    assert error["code"] == "COMPONENT_CUSTOM_ID_DUPLICATED"


def test_a_component_of_an_unknown_type_is_named_by_its_type():
    body = copy.deepcopy(MESSAGE)
    body["components"][0]["components"][0]["type"] = 42
    [error] = errors_at(SPEC.check("POST", CHANNEL, body, uploads=1),
                        "components", "0", "components", "0", "type")
    assert error["code"] == "UNION_TYPE_CHOICES"


def test_embeds_in_all_at_most_6000_characters():
    body = copy.deepcopy(MESSAGE)
    body["embeds"] = [{"title": "t", "description": "d" * 4000}, {"description": "e" * 2001}]
    [error] = errors_at(SPEC.check("POST", CHANNEL, body, uploads=1), "embeds")
    assert error["code"] == "MAX_EMBED_SIZE_EXCEEDED"


def test_attachments_refer_to_uploaded_files():
    refusal = SPEC.check("POST", CHANNEL, MESSAGE, uploads=0)
    assert errors_at(refusal, "attachments", "0", "id")[0]["code"] == "ATTACHMENT_NOT_FOUND"
    # an existing attachment (a snowflake) is kept without an upload
    kept = dict(MESSAGE, attachments=[{"id": "1000000000000000001"}])
    assert SPEC.check("PATCH", CHANNEL + "/1000000000000000001", kept) is None


def test_an_empty_message_is_refused():
    assert SPEC.check("POST", CHANNEL, {"content": ""}) == (
        400, {"message": "Cannot send an empty message", "code": 50006})


def test_integers_above_2_53_and_bad_command_names():
    command = {"name": "replay", "description": "Watch a finished game again", "options": [
        {"type": 4, "name": "game_id", "description": "The game's number", "required": True,
         "min_value": 1, "max_value": 2**53 - 1}]}
    assert SPEC.check("PUT", "/applications/900000000000000001/commands", [command]) is None
    too_big = copy.deepcopy(command)
    too_big["options"][0]["max_value"] = 10**17
    refusal = SPEC.check("PUT", "/applications/900000000000000001/commands", [{"name": "games",
                         "description": "The games"}, too_big])
    [error] = errors_at(refusal, "1", "options", "0", "max_value")
    assert error == {"code": "NUMBER_TYPE_MAX",
                     "message": "int value should be less than or equal to 9007199254740991."}
    named = copy.deepcopy(command)
    named["name_localizations"] = {"de": "Wiederholung", "pl": "powtórka", "ru": "повтор"}
    named["options"][0]["name_localizations"] = {"fr": "numéro de partie"}
    refusal = SPEC.check("PUT", "/applications/900000000000000001/guilds/1/commands", [named])
    assert errors_at(refusal, "0", "name_localizations", "de")[0]["code"] == \
        "APPLICATION_COMMAND_INVALID_NAME"  # capital letter
    assert errors_at(refusal, "0", "options", "0", "name_localizations", "fr")  # a space
    assert "pl" not in refusal[1]["errors"]["0"]["name_localizations"]


def test_a_command_of_more_than_4000_characters():
    command = {"name": "big", "description": "d" * 100, "options": [
        {"type": 3, "name": f"o{i}", "description": "d" * 100,
         "choices": [{"name": "n" * 100, "value": "v" * 100} for _ in range(25)]}
        for i in range(2)]}
    [error] = errors_at(SPEC.check("PUT", "/applications/1/commands", [command]), "0")
    assert error["code"] == "APPLICATION_COMMAND_TOO_LARGE"


def test_unknown_routes_and_methods():
    assert SPEC.check("POST", "/channels/1/dance", {}) == (404, {"message": "404: Not Found", "code": 0})
    assert SPEC.check("PUT", CHANNEL, MESSAGE) == (405, {"message": "405: Method Not Allowed", "code": 0})
    assert errors_at(SPEC.check("GET", "/channels/None/messages"), "channel_id")[0]["code"] == \
        "NUMBER_TYPE_COERCE"


def test_the_refusal_is_what_discord_py_raises():
    exc = http_exception(*SPEC.check("POST", CHANNEL, dict(MESSAGE, content="x" * 2001), uploads=1))
    assert isinstance(exc, discord.HTTPException) and exc.status == 400 and exc.code == 50035
    assert "In content: Must be 2000 or fewer in length." in exc.text
    assert isinstance(http_exception(404, {"message": "404: Not Found", "code": 0}), discord.NotFound)


async def test_the_stand_in_refuses_an_invalid_body_as_discord_does(tmp_path):
    """Through discord.py itself: the channel send raises what Discord's answer raises."""
    from tests.conftest import start_bot

    fake = FakeDiscord()
    h: Harness = await start_bot(tmp_path / "bot.sqlite3", fake)
    try:
        channel = h.bot.get_partial_messageable(700000000000000001)
        await channel.send("fine")
        with pytest.raises(discord.HTTPException) as info:
            await channel.send("x" * 2001)
        assert info.value.status == 400 and info.value.code == 50035
        assert "content" in info.value.text
        with pytest.raises(discord.HTTPException):
            await channel.send(view=discord.ui.View().add_item(
                discord.ui.Button(label="L" * 81, custom_id="x")))
        assert fake.sent("POST", "/messages")[-1].json["components"]  # it was sent, and judged
    finally:
        await h.bot.close()


def test_judging_is_quick():
    import time

    spec = DiscordSpec()
    spec.check("POST", CHANNEL, MESSAGE, uploads=1)  # load and compile once
    bodies = []
    for i in range(200):  # each body new: judged, not remembered
        body = copy.deepcopy(MESSAGE)
        body["content"] = f"turn {i}"
        bodies.append({"type": 7, "data": body})
    start = time.perf_counter()
    for body in bodies:
        assert spec.check("POST", "/interactions/1/tok/callback", body, uploads=1) is None
    per_request = (time.perf_counter() - start) / len(bodies)
    assert spec.cached == 0
    assert per_request < 0.01, per_request  # about half a millisecond here
    # the same body again is answered from memory
    assert spec.check("POST", "/interactions/1/tok/callback", bodies[0], uploads=1) is None
    assert spec.cached == 1


#: what each field is replaced by in ``test_the_quick_judge_takes_exactly_what_jsonschema_takes``
ODD_VALUES = [None, True, 0, -1, 2**64, 1.5, "", "x" * 4001, "12", [], {}, [None], {"type": 2}]


def variants(body):
    """``body``, then each field (at any depth) left out or replaced by each of ODD_VALUES."""
    yield body
    stack = [()]
    while stack:
        path = stack.pop()
        node = body
        for key in path:
            node = node[key]
        keys = range(len(node)) if isinstance(node, list) else list(node)
        for key in keys:
            if isinstance(node[key], (dict, list)):
                stack.append(path + (key,))
            for value in [..., *ODD_VALUES]:
                changed = copy.deepcopy(body)
                parent = changed
                for step in path:
                    parent = parent[step]
                if value is ...:
                    del parent[key]
                else:
                    parent[key] = value
                yield changed


@pytest.mark.slow
def test_the_quick_judge_takes_exactly_what_jsonschema_takes():
    """The compiled judge only says yes or no; a yes is never checked again. So over good
    bodies and thousands of broken ones (every field left out or given an odd value), it must
    agree with jsonschema, which names the fields."""
    pytest.importorskip("jsonschema_rs")
    spec = DiscordSpec()
    routes = [("POST", CHANNEL, MESSAGE),
              ("PATCH", "/webhooks/900000000000000001/tok/messages/@original", MESSAGE),
              ("POST", "/interactions/1/tok/callback", {"type": 7, "data": MESSAGE}),
              ("POST", "/interactions/1/tok/callback", {"type": 5, "data": {"flags": 64}}),
              ("POST", "/users/@me/channels", {"recipient_id": "100"})]
    taken = refused = 0
    for method, path, good in routes:
        assert spec.check(method, path, good, uploads=1) is None
        template, item, _ = spec._route(path)
        python = spec._validator(template, method, item[method.lower()])
        quick = spec._quick[(template, method)]
        for body in variants(good):
            expected = not any(True for _ in python.iter_errors(body))
            assert quick.is_valid(body) == expected, (path, body)
            taken, refused = taken + expected, refused + (not expected)
    print(f"\n{taken} bodies taken, {refused} refused, by both judges")
    assert taken > 100 and refused > 1000, (taken, refused)


def test_without_jsonschema_the_stand_in_says_so_instead_of_accepting(monkeypatch):
    import sys

    from bot.testing import discord_spec

    monkeypatch.setattr(discord_spec, "_VALIDATOR_CLASS", None)
    for name in [m for m in sys.modules if m == "jsonschema" or m.startswith("jsonschema.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "jsonschema", None)  # import jsonschema → ImportError
    with pytest.raises(discord_spec.SpecUnavailable, match=r"needs jsonschema .*\[test\]"):
        DiscordSpec().check("POST", CHANNEL, MESSAGE, uploads=1)


def test_an_uploaded_picture_s_attachment_carries_its_size_as_discord_s_does():
    pictures = {}
    for kind in ("PNG", "GIF"):
        out = io.BytesIO()
        Image.new("RGB", (321, 123), "white").save(out, kind)
        pictures[kind] = out.getvalue()
    assert image_size(pictures["PNG"]) == (321, 123)
    assert image_size(pictures["GIF"]) == (321, 123)
    assert image_size(b"moves: e2-e4\n") is None
    fake = FakeDiscord()
    message = fake._message(1, {"content": "x"}, [("board.png", pictures["PNG"]),
                                                 ("moves.txt", b"e2-e4")])
    board, moves = message["attachments"]
    assert (board["width"], board["height"]) == (321, 123)
    assert "width" not in moves and "height" not in moves
