"""Every picture the bot posts, as a phone shows it (``render.legible``): text big enough, marks
that stand out from what surrounds them, and player colours told by a letter or shape too.

Measured on what was drawn: the tracer records each text and shape as the renderers draw it and
follows it through cached layers, supersampled sprites and pastes into the encoded picture; the
checks then read that picture's pixels around each one. Positions cover the start, the middle
and the end of games of every player count, a resignation, a replay that reveals secrets, long
names and names in scripts the bundled font lacks, in every language of the catalogs.
"""
from __future__ import annotations

import random
from collections import Counter, defaultdict
from typing import Any, Callable, Iterator

import pytest

from bot.games import game_class
from bot.i18n import LANGUAGES, catalogs, t
from render import chart, narabi, sarena, sensei

from tests.render.legibility import Seen, Tracer, clear_render_caches, see

# The module's fixtures trace every picture once (tens of CPU seconds): under pytest-xdist
# (--dist loadgroup) the module's tests stay in one worker instead of each worker tracing again.
pytestmark = [pytest.mark.xdist_group("phone_legibility"), pytest.mark.slow]

MIN_CAP_PX = 8.0  # capitals of an 11 px DejaVu Sans
MIN_MARK_CONTRAST = 3.0
MIN_TEXT_CONTRAST = 4.5
MIN_STROKE_PX = 1.5  # a line thinner than this on the phone reads as faint whatever its colour

SPEAKING = [lang for lang in LANGUAGES if lang in catalogs()]
NAMES = ["Ada", "Bartholomew the Magnificent, Keeper of Very Long Names", "李小龍",
         "Chloé 🌸", "Ευδοξία"]
RENDERERS: dict[str, Callable[[dict, list[str], str], bytes]] = {
    "narabi": narabi.render, "sensei": sensei.render, "sarena": sarena.render}
SEATS = {"narabi": (3, 4, 5), "sensei": (2,), "sarena": (2, 3, 4)}


#: what the table adds to a game's public view at times: Narabi's par once a game is over, a
#: Sensei draw offer (the random games below never offer one)
EXTRAS = {"narabi": {"fewest_switches": 6}, "sensei": {"draw_offer": 1}, "sarena": {}}


def sensei_choices(game: Any) -> Iterator[dict[str, Any]]:
    seat = game.to_move
    stone = game.movable_stones(seat)[0]
    yield {"from": stone, "to": game.stone_destinations(seat, stone)}
    yield {"from": game.public_view()["characters"][seat], "to": game.character_targets(seat)}


def narabi_choices(game: Any) -> Iterator[dict[str, Any]]:
    actions = game.legal_actions(game.to_move)
    card = actions[0]["card"]
    yield {"card": card, "targets": [a["target"] for a in actions if a["card"] == card]}


def sarena_choices(game: Any) -> Iterator[dict[str, Any]]:
    actions = game.legal_actions(game.to_move)
    yield {"to": sorted({a["from"] for a in actions})}
    pile = actions[0]["from"]
    yield {"from": pile, "to": [a["to"] for a in actions if a["from"] == pile]}


#: what a private step highlights mid-game: a piece and where it may go
CHOICES: dict[str, Callable[[Any], Iterator[dict[str, Any]]]] = {
    "sensei": sensei_choices, "narabi": narabi_choices, "sarena": sarena_choices}


def positions(key: str, counts: tuple[int, ...]) -> Iterator[dict[str, Any]]:
    """Start, middle (with what a private step highlights) and end of a seeded random game per
    player count in ``counts``, and a resignation."""
    for seats in counts:
        rnd = random.Random(seats)
        game = game_class(key).new(seats, {}, seats)
        yield game.public_view()
        moves = 0
        while game.result() is None and moves < 400:
            game.apply(game.to_move, rnd.choice(game.legal_actions(game.to_move)))
            moves += 1
            if moves == 9:
                # Mid-game; Narabi's as a replay shows it, its secrets face up.
                yield dict(game.public_view(), reveal=True) if key == "narabi" else \
                    game.public_view()
            if moves == 10:
                yield dict(game.public_view(), **EXTRAS[key])
                for choice in CHOICES.get(key, lambda _: iter(()))(game):
                    yield dict(game.public_view(), choice=choice)
        yield game.public_view()
        yield dict(game.public_view(), **EXTRAS[key])
    game = game_class(key).new(SEATS[key][-1], {}, 99)
    game.apply(game.to_move, {"type": "resign"})
    yield game.public_view()


class Traced(dict):
    """Per game: (language, everything drawn in one picture) for each picture, traced on first
    use. Every player count in English; the largest in the other languages, whose words are
    what differs."""

    def __missing__(self, key: str) -> list[tuple[str, list[Seen]]]:
        clear_render_caches()
        draw = RENDERERS[key]
        every, largest = list(positions(key, SEATS[key])), list(positions(key, SEATS[key][-1:]))
        pictures: list[tuple[str, list[Seen]]] = []
        for language in SPEAKING:
            with Tracer() as tracer:
                for view in every if language == "en" else largest:
                    draw(view, NAMES[:view.get("seats") or 2], language)
            pictures += [(language, list(see(img, placed))) for img, placed in tracer.pictures]
        clear_render_caches()
        self[key] = pictures
        return pictures


@pytest.fixture(scope="session")
def seen() -> Traced:
    # Session-wide: pytest-xdist may run this module's tests between other modules' tests,
    # and a module-scoped fixture was then traced again (four times a run, a minute each).
    return Traced()


def marks(pictures: list[tuple[str, list[Seen]]]) -> Iterator[tuple[str, Seen]]:
    for language, things in pictures:
        for thing in things:
            if not thing.drawn.decor:
                yield language, thing


@pytest.mark.parametrize("key", sorted(RENDERERS))
def test_every_text_is_big_enough_on_a_phone(seen, key):
    sizes = [(thing.cap_px, language, thing.drawn.text) for language, thing in marks(seen[key])
             if thing.drawn.kind == "text"]
    assert len(sizes) > 50
    small = sorted(s for s in sizes if s[0] < MIN_CAP_PX)
    assert not small, small[:10]


@pytest.mark.parametrize("key", sorted(RENDERERS))
def test_every_mark_stands_out_from_its_background(seen, key):
    measured, faint, thin = 0, [], []
    for language, thing in marks(seen[key]):
        if thing.background is None:
            continue  # covered by what was drawn after it, which is measured itself
        measured += 1
        drawn = thing.drawn
        least = MIN_TEXT_CONTRAST if drawn.kind == "text" else MIN_MARK_CONTRAST
        if thing.contrast() < least:
            faint.append((round(thing.contrast(), 2), language, drawn.kind, drawn.text,
                          drawn.outline, drawn.fill, thing.background))
        if thing.is_stroke and thing.stroke_px < MIN_STROKE_PX:
            thin.append((round(thing.stroke_px, 2), drawn.kind, drawn.outline, drawn.fill))
    assert measured > 200
    assert not faint, sorted(faint, key=lambda f: f[0])[:10]
    assert not thin, thin[:10]


@pytest.mark.parametrize("key", sorted(RENDERERS))
def test_texts_do_not_overlap(seen, key):
    for language, things in seen[key]:
        texts = [t for t in things if t.drawn.kind == "text" and not t.drawn.decor
                 and t.background is not None]
        for i, a in enumerate(texts):
            for b in texts[i + 1:]:
                assert not a.overlaps(b), (language, a.drawn.text, b.drawn.text)


def inside(thing: Seen, box: tuple[int, int, int, int]) -> bool:
    x, y = thing.centre
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def test_every_sarena_colour_carries_its_letter(seen):
    fills = {fill: colour for colour, (fill, _) in sarena.FACES.items()}
    checked = 0
    for language, things in seen["sarena"]:
        letters = [t for t in things if t.drawn.kind == "text"]
        for thing in things:
            colour = fills.get((thing.drawn.fill or ())[:3])
            if colour is None or thing.background is None:
                continue
            letter = t(f"render.sarena.mark.{colour}", language)
            assert any(l.drawn.text == letter and inside(l, thing.box) for l in letters), \
                (language, colour, thing.box)
            checked += 1
        assert len({t(f"render.sarena.mark.{c}", language) for c in sarena.FACES}) == 4
    assert checked > 100


def test_every_sensei_colour_is_told_by_its_shape(seen):
    """Each seat's colour comes with one shape of its own: a piece of that colour has it, and
    anything else of that colour (the status bar) holds a piece."""
    kinds: dict[tuple[int, ...], Counter] = defaultdict(Counter)
    coloured = []
    for _, things in seen["sensei"]:
        for thing in things:
            fill = (thing.drawn.fill or ())[:3]
            if fill in sensei.SEAT_FILL and thing.background is not None:
                kinds[fill][thing.drawn.kind] += 1
                coloured.append((fill, thing, things))
    shape = {fill: counts.most_common(1)[0][0] for fill, counts in kinds.items()}
    assert len(set(shape.values())) == len(sensei.SEAT_FILL) == len(shape)
    for fill, thing, things in coloured:
        if thing.drawn.kind != shape[fill]:
            assert any(o.drawn.kind == shape[fill] and (o.drawn.fill or ())[:3] == fill
                       and inside(o, thing.box) for o in things), (fill, thing.drawn.kind)


def test_this_module_s_tests_stay_in_one_worker(request):
    """Under ``-n 4 --dist loadgroup`` (the README's command) pytest-xdist keeps a group in one
    worker by a suffix on its tests' ids. A pytest release can silently undo that (pytest 9.2
    with pytest-xdist 3.8: pytest-xdist#1386): then every worker traces every picture again."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not run by pytest-xdist with --dist loadgroup")
    assert request.node.nodeid.endswith("@phone_legibility"), request.node.nodeid


# ----------------------------------------------------------------------------- the ratings chart

SERIES = [("Narabi", [25.0, 26.5, 27.1, 26.0]), ("Sensei", [25.0, 24.2, 23.5]),
          ("Sàréná", [25.0, 25.4]), ("李小龍", [30.0])]


@pytest.fixture(scope="module")
def chart_seen() -> list[tuple[str, list[Seen]]]:
    clear_render_caches()
    pictures = []
    for language in SPEAKING:
        with Tracer() as tracer:
            chart.rating_chart(SERIES, language)
            chart.rating_chart(SERIES[:1], language)
        pictures += [(language, list(see(img, placed))) for img, placed in tracer.pictures]
    return pictures


def test_chart_text_and_marks_read_on_a_phone(chart_seen):
    small = [(t.cap_px, t.drawn.text) for _, t in marks(chart_seen)
             if t.drawn.kind == "text" and t.cap_px < MIN_CAP_PX]
    assert not small, small
    faint = [(round(t.contrast(), 2), t.drawn.kind, t.drawn.text, t.drawn.fill)
             for _, t in marks(chart_seen) if t.background is not None
             and t.contrast() < (MIN_TEXT_CONTRAST if t.drawn.kind == "text"
                                 else MIN_MARK_CONTRAST)]
    assert not faint, faint


def test_every_chart_line_has_its_own_marker_in_the_legend_too(chart_seen):
    """A line's colour is told by a marker shape too: each series has a shape no other series
    has, on its last point and before its name in the legend."""
    for _, things in chart_seen:
        lines = {(t.drawn.fill or ())[:3] for t in things if t.drawn.kind == "line"
                 and not t.drawn.decor}
        shapes: dict[tuple[int, ...], Counter] = defaultdict(Counter)
        for thing in things:
            fill = (thing.drawn.fill or ())[:3]
            if thing.drawn.kind != "line" and fill in lines:
                shapes[fill][thing.shape] += 1
        assert set(shapes) == lines
        signs = {fill: counts.most_common(1)[0] for fill, counts in shapes.items()}
        assert all(count >= 2 for _, count in signs.values()), signs
        assert len({shape for shape, _ in signs.values()}) == len(signs)
