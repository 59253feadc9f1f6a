"""The quick tier (``pytest -m "not slow"``, docs/developers/testing.md): no test of it starts a
browser or a PostgreSQL server, whatever its own marks say (tests/conftest.py marks those)."""
from __future__ import annotations

import pytest

from tests.conftest import SLOW_FIXTURES


def test_the_slow_mark_is_registered(request):
    assert any(line.startswith("slow:") for line in request.config.getini("markers"))


def test_browser_and_postgresql_tests_are_marked_slow(request):
    """Over every test of this run: with ``-m "not slow"``, those that are left."""
    unmarked = [item.nodeid for item in request.session.items
                if item.get_closest_marker("slow") is None
                and (SLOW_FIXTURES & set(item.fixturenames)
                     or getattr(item, "callspec", None) is not None
                     and item.callspec.params.get("database") == "postgresql")]
    assert not unmarked, unmarked


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
def test_a_postgresql_test_is_marked_without_saying_so(request, database):
    assert request.node.get_closest_marker("slow") is not None
