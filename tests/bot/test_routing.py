"""custom_id format: what is routed, what is refused."""
from __future__ import annotations

import pytest

from bot.ui.routing import Route, route


def test_round_trip():
    cid = route("narabi", 12, "confirm", 7, 3, 11)
    assert cid == "narabi:12:confirm:7.3.11"
    parsed = Route.parse(cid)
    assert parsed == Route("narabi", 12, "confirm", "7.3.11")
    assert parsed.args() == ["7", "3", "11"] and parsed.custom_id == cid
    assert Route.parse("sensei:5:join") == Route("sensei", 5, "join", None)


@pytest.mark.parametrize("garbage", [
    "", "narabi", "narabi:1", "chess:1:join", "narabi:0:join", "narabi:-1:join",
    "narabi:01:join", "narabi:1:Join", "narabi:1:join:", "narabi:1:join:a b",
    "narabi:1:join:" + "x" * 65, "narabi:1:" + "v" * 17, "narabi:1:join:x:y",
])
def test_garbage_is_not_routed(garbage):
    assert Route.parse(garbage) is None


def test_route_refuses_to_build_garbage():
    with pytest.raises(ValueError):
        route("narabi", 1, "join", "a b")
    assert len(route("sarena", 10**17, "move", 10**9, "c3")) <= 100  # Discord's custom_id limit
