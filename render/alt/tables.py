"""The pictures that are not a board, in words: a tournament's standings and a chart of
ratings. Public facts only, as the pictures show them."""
from __future__ import annotations

from typing import Any, Sequence

from bot.i18n import t

from ..numbers import number
from . import fit, name_of


def standings(title: str, lines: Sequence[Any], locale: Any, *, round_no: int, rounds: int,
              finished: bool = False) -> str:
    """``lines``: the picture's rows (rank, name, score, games, dropped), best first."""
    state = (t("render.tournament.final", locale) if finished else
             t("render.tournament.round", locale, round=round_no, rounds=rounds or "?"))
    parts = [t("alt.standings.head", locale, name=name_of([title], 0, locale), state=state)]
    for line in lines:
        key = "alt.standings.dropped" if line.dropped else "alt.standings.line"
        parts.append(t(key, locale, rank=line.rank, player=name_of([line.name], 0, locale),
                       count=number(line.score), games=line.games))
    return fit(parts)


def chart(series: Sequence[tuple[str, Sequence[float]]], locale: Any,
          title: str = "render.chart.title") -> str:
    """A chart of ratings: per game, where it began and where it is now, over how many games
    (``title``: the catalog key of the chart's own title, which the words repeat)."""
    parts = [t(title, locale) + "."]
    for name, points in series:
        if not points:
            continue
        line = "alt.chart.line_puzzles" if title.endswith(".puzzles") else "alt.chart.line"
        parts.append(t(line, locale, game=name, first=f"{points[0]:.1f}",
                       last=f"{points[-1]:.1f}", high=f"{max(points):.1f}",
                       count=len(points)))
    return fit(parts)
