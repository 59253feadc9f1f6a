"""Text the bot did not write itself, made safe for Discord's Markdown.

Anything a person typed or chose (names, nicknames, typed moves, refused input) and anything a
game writes (move notation such as ``*d1-g1``, condition texts, squares) reads as it is only
once escaped: a ``*`` of a move must not pair with the ``*`` of a name in italics. Catalog texts
are Markdown on purpose (``**Game over.**``), and so are mentions, timestamps and links.

``md(key, locale, **params)`` is the translation function for Discord text: the catalog text
stays as written and every parameter is escaped, except a number or a ``Markdown`` value (a
mention, a timestamp, a link, a line ``md`` made, a name already escaped). A parameter inside
a code span of the catalog text (``Played: `{turn}```) is shown raw there, so it is only kept
from closing the span. ``escape`` is the one escaping function; it returns ``Markdown``.
"""
from __future__ import annotations

import logging
import re
from typing import Any

from . import i18n

log = logging.getLogger(__name__)


class Markdown(str):
    """Text already in Discord's Markdown: it goes into a message as it is."""

    __slots__ = ()


#: characters that open or close something wherever they are: emphasis (* _), strike (~),
#: spoiler (|), code (`), masked links ([ ]), mentions, timestamps and custom emoji (<), and
#: the backslash that escapes them
_ANYWHERE = re.compile(r"([\\*_~|`\[\]<])")
#: what opens a quote (>), a header (#), subtext (-#) or a list item (- or "1.") at a line's start
_LINE_START = re.compile(r"^( *)([>#-]|\d+\.)", re.MULTILINE)
#: a link Discord would make of "https://…"
_URL = re.compile(r"(?<=[A-Za-z0-9])(:)(?=//)")
#: U+02CB MODIFIER LETTER GRAVE ACCENT, which looks like ` but cannot close a code span
_GRAVE = "\u02cb"


def escape(text: Any) -> Markdown:
    """``text`` as Discord shows it literally: every character its parser would read as Markdown
    is escaped with a backslash. A value is taken to start a line, as it may."""
    if isinstance(text, Markdown):
        return text
    escaped = _ANYWHERE.sub(r"\\\1", str(text))
    escaped = _LINE_START.sub(lambda m: m.group(1) + _dot(m.group(2)), escaped)
    return Markdown(_URL.sub(r"\\\1", escaped))


def _dot(opener: str) -> str:
    return opener[:-1] + "\\." if opener.endswith(".") else "\\" + opener


def in_code(text: Any) -> Markdown:
    """``text`` for the inside of a code span, where Discord shows everything raw: only a
    backtick (which would close the span) is replaced by a look-alike, a line break by a space."""
    plain = str(text).replace("`", _GRAVE).replace("\n", " ")
    return Markdown(plain or " ")


def _param(value: Any, code: bool) -> Any:
    if isinstance(value, Markdown) or (isinstance(value, (int, float)) and not isinstance(value, bool)):
        return value
    return in_code(value) if code else escape(value)


def fill(text: str, params: dict[str, Any]) -> Markdown:
    """Catalog ``text`` with ``params`` put in, each escaped for where it lands."""
    parts = text.split("`")
    filled = []
    for i, part in enumerate(parts):
        code = i % 2 == 1 and i < len(parts) - 1  # an unpaired last ` opens no span
        names = {k: _param(v, code) for k, v in params.items()}
        filled.append(part.format(**names))
    return Markdown("`".join(filled))


def md(key: str, locale: Any = None, /, **params: Any) -> Markdown:
    """``i18n.t`` for text that goes into a Discord message: the parameters escaped (see the
    module's docstring)."""
    text = i18n.template(key, locale, **params)
    if text is None:
        return Markdown(escape(key))
    if not params:
        return Markdown(text)
    try:
        return fill(text, params)
    except (KeyError, IndexError, ValueError):
        log.warning("catalog key %s does not fit params %s", key, sorted(params))
        return Markdown(text)


def markdown_join(separator: str, items: Any) -> Markdown:
    """Pieces already in Markdown, joined (a join of ``Markdown`` values is a plain ``str``)."""
    return Markdown(separator.join(escape(item) for item in items))
