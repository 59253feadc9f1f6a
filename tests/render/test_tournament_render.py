"""The standings picture, as a phone shows it (``render.legible``): every text's capitals at
least 9.5 px (the 8 px of every picture was too small to read standings by) and every text
contrasted 4.5:1, in every language, with long names, names in other
scripts, a dropped player and more rows than fit (the "and N more" line)."""
from __future__ import annotations

import pytest

from bot.i18n import LANGUAGES, catalogs
from render.legible import display_scale
from render.tournament import MAX_ROWS, Line, number, standings_png
from tests.render.legibility import Tracer, clear_render_caches, see

MIN_CAP_PX = 9.5
MIN_TEXT_CONTRAST = 4.5
NAMES = ["Ada", "Bartholomew the Magnificent, Keeper of Very Long Names", "李小龍",
         "Chloé 🌸", "Ευδοξία"] + [f"Player {i}" for i in range(30)]


def lines(count: int) -> list[Line]:
    return [Line(i + 1, NAMES[i], 6 - i * 0.5 if i < 12 else 0.0, 20.5 - i * 0.5,
                 14.25 - i * 0.25, 6, i == 7) for i in range(count)]


@pytest.fixture(scope="module")
def seen():
    clear_render_caches()
    pictures = []
    for language in [lang for lang in LANGUAGES if lang in catalogs()]:
        with Tracer() as tracer:
            standings_png("Friday night Swiss — Sensei", lines(35), language, round_no=3, rounds=6)
            standings_png("Knockout", lines(4), language, round_no=2, rounds=2, finished=True,
                          tie_breaks=False)
        pictures += [(language, img, list(see(img, placed))) for img, placed in tracer.pictures]
    return pictures


@pytest.mark.slow
def test_standings_read_on_a_phone(seen):
    checked = 0
    for language, img, things in seen:
        assert display_scale(img.size) >= 0.85, img.size  # 400 px wide, at most ~570 tall
        for thing in things:
            if thing.drawn.decor or thing.drawn.kind != "text":
                continue
            assert thing.cap_px >= MIN_CAP_PX, (language, thing.drawn.text, thing.cap_px)
            if thing.background is not None:
                assert thing.contrast() >= MIN_TEXT_CONTRAST, (language, thing.drawn.text)
            checked += 1
    assert checked > 600


@pytest.mark.slow
def test_more_rows_than_fit_are_counted_not_drawn(seen):
    texts = [t.drawn.text for language, _, things in seen if language == "en" for t in things
             if t.drawn.kind == "text"]
    assert f"and {35 - MAX_ROWS} more" in texts
    last_shown = MAX_ROWS - 1 - 5  # the first five names are not "Player n"
    assert f"Player {last_shown}" in texts and f"Player {last_shown + 1}" not in texts


def test_the_picture_names_the_tie_breaks_and_the_round_it_is_after(seen):
    texts = {t.drawn.text for language, _, things in seen if language == "en" for t in things
             if t.drawn.kind == "text"}
    assert "BH Buchholz · SB Sonneborn-Berger" in texts and "After round 3 of 6" in texts
    with Tracer() as tracer:
        standings_png("Cup", lines(3), "en", round_no=0, rounds=3)
    (img, placed), = tracer.pictures
    assert "No round over yet" in {t.drawn.text for t in see(img, placed)}


def test_numbers_are_written_as_people_write_them():
    assert [number(x) for x in (0, 0.5, 1, 2.5, 1.25)] == ["0", "½", "1", "2½", "1.25"]
