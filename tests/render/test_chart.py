"""The rating chart: titled for what a point is, values on its axes, the first point marked."""
from __future__ import annotations

import io

from PIL import Image

from render import chart
from tests.render.legibility import Tracer

SERIES = [("Sensei", [-1.7, 0.4, 2.3, 1.9]), ("Sàréná", [-1.7, -3.1])]


def drawn(series, locale="en", **kwargs):
    with Tracer() as tracer:
        png = chart.rating_chart(series, locale, **kwargs)
    assert Image.open(io.BytesIO(png)).width == chart.WIDTH
    return [thing.drawn for _, placed in tracer.pictures for thing in placed]


def texts(things) -> list[str]:
    return [thing.text for thing in things if thing.kind == "text"]


def test_a_puzzle_chart_is_titled_for_puzzles():
    words = texts(drawn(SERIES, title="render.chart.title.puzzles"))
    assert "Puzzle rating after each puzzle" in words
    assert "Rating after each rated game" not in words
    assert "Rating after each rated game" in texts(drawn(SERIES))
    assert "Ranking zagadek po każdej zagadce" in texts(
        drawn(SERIES, "pl", title="render.chart.title.puzzles"))


def test_both_axes_have_values():
    words = texts(drawn(SERIES))
    # the grid's lines, top to bottom, from the highest rating to the lowest
    assert ["2.3", "0.5", "-1.3", "-3.1"] == [w for w in words if w in
                                              ("2.3", "0.5", "-1.3", "-3.1")]
    # the first and the last puzzle's numbers under the plot
    assert "1" in words and "4" in words


def test_the_first_point_of_each_line_is_marked_hollow():
    hollow = [thing for thing in drawn(SERIES) if thing.kind in ("ellipse", "rectangle", "polygon")
              and thing.fill is not None and thing.fill[:3] == chart.BACK
              and thing.outline is not None]
    assert sorted(thing.outline[:3] for thing in hollow) == sorted(chart.LINES[:2])
