"""The one Markdown escape (bot.markdown): what it escapes, what it leaves, and md(), the
translation function that escapes parameters and keeps catalog text and Markdown values."""
from __future__ import annotations

import pytest

from bot import i18n
from bot.markdown import Markdown, escape, fill, in_code, markdown_join, md


@pytest.mark.parametrize(("text", "escaped"), [
    ("Ana", "Ana"),
    ("*d1-g1", "\\*d1-g1"),
    ("c2-c5 *d1-c5", "c2-c5 \\*d1-c5"),
    ("snake_case", "snake\\_case"),
    ("__a__", "\\_\\_a\\_\\_"),
    ("~~a~~", "\\~\\~a\\~\\~"),
    ("||a||", "\\|\\|a\\|\\|"),
    ("`a`", "\\`a\\`"),
    ("a\\b", "a\\\\b"),
    ("\\*", "\\\\\\*"),
    ("[a](https://example.com)", "\\[a\\](https\\://example.com)"),
    ("https://example.com/a_b", "https\\://example.com/a\\_b"),
    ("<@123>", "\\<@123>"),
    ("<t:0:R>", "\\<t:0:R>"),
    ("<:blob:1>", "\\<:blob:1>"),
    ("> a", "\\> a"),
    (">>> a", "\\>>> a"),
    ("a > b", "a > b"),
    ("# a", "\\# a"),
    ("### a", "\\### a"),
    ("a # b", "a # b"),
    ("-# a", "\\-# a"),
    ("- a", "\\- a"),
    ("a - b", "a - b"),
    ("1. a", "1\\. a"),
    ("2.5", "2\\.5"),
    ("a 1. b", "a 1. b"),
    ("  > a", "  \\> a"),
    ("a\n> b\n# c\n- d", "a\n\\> b\n\\# c\n\\- d"),
    ("Zoë 🤖 · ok", "Zoë 🤖 · ok"),
])
def test_escape(text: str, escaped: str) -> None:
    assert escape(text) == escaped
    assert isinstance(escape(text), Markdown)


def test_escape_leaves_markdown_as_it_is() -> None:
    mention = Markdown("<@1> **x**")
    assert escape(mention) is mention
    assert escape(escape("*a*")) == "\\*a\\*"  # escaped once, however often asked


def test_in_code_keeps_text_raw_and_the_span_closed() -> None:
    assert in_code("*d1-g1") == "*d1-g1"
    assert in_code("a`b") == "a\u02cbb"
    assert in_code("") == " "


@pytest.mark.parametrize(("template", "params", "filled"), [
    ("{player}: {actions}", {"player": "*Ana*", "actions": "*d1-g1"}, "\\*Ana\\*: \\*d1-g1"),
    ("**Turn {turn}** {player}", {"turn": 3, "player": Markdown("<@1>")}, "**Turn 3** <@1>"),
    ("Played: `{turn}`", {"turn": "*d1-g1 `x`"}, "Played: `*d1-g1 \u02cbx\u02cb`"),
    ("`{a}` then {a}", {"a": "*"}, "`*` then \\*"),
    ("a ` {b}", {"b": "_"}, "a ` \\_"),  # an unpaired backtick opens no code span
    ("{n:g} min", {"n": 2.0}, "2 min"),
])
def test_fill_escapes_each_parameter_for_where_it_lands(template, params, filled) -> None:
    assert fill(template, params) == filled


def test_md_is_the_catalog_text_with_escaped_parameters() -> None:
    line = md("sensei.log.turn_ended", "en", turn=1, player=escape("Ana_B"), actions="*d1-g1")
    assert line == "Turn 1 · Ana\\_B: \\*d1-g1"
    assert isinstance(line, Markdown)
    # The catalog's own Markdown stays; t() itself escapes nothing (pictures use it too).
    assert md("game.over", "en", summary=Markdown("**x**")) == "**Game over.** **x**"
    assert i18n.t("sensei.log.turn_ended", "en", turn=1, player="A", actions="*d1") == "Turn 1 · A: *d1"


def test_md_chooses_the_plural_form_like_t() -> None:
    forms = {md("review.count.blunder", "pl", count=count) for count in (1, 2, 5, 1.5)}
    assert forms == {i18n.t("review.count.blunder", "pl", count=count) for count in (1, 2, 5, 1.5)}
    assert len(forms) == 4


def test_md_of_a_missing_key_or_params_that_do_not_fit(caplog) -> None:
    assert md("no.such.key_x", "en") == "no.such.key\\_x"
    assert md("game.next", "en") == "Next: {player}."
    assert md("game.next", "en", other="x") == "Next: {player}."
    assert any("does not fit" in r.getMessage() for r in caplog.records)


def test_markdown_join_escapes_only_what_is_not_markdown() -> None:
    assert markdown_join(", ", [Markdown("**a**"), "*b*"]) == "**a**, \\*b\\*"
