"""`python -m bot.tools.fit_beliefs`: how surely each reading of moves gives the true colours."""
from __future__ import annotations

from bot.tools import fit_beliefs

SHARP = ((0.5, 1.0, 2.0, 3.0), 0.01, 0.05)
LOOSE = (1.0, 0.5, 0.1)


def test_a_game_is_judged_at_every_turn_after_the_first_move_for_every_reading():
    totals = fit_beliefs.judge(0, "easy", 2, [SHARP, LOOSE])
    turns = totals[0][3]
    assert turns >= 10
    for logs, ps, tops, judged in totals:
        assert judged == turns
        assert logs <= 0 and 0 < ps <= turns and 0 <= tops <= turns


def test_the_grid_holds_the_readings_in_use():
    params = fit_beliefs.grid()
    assert set(fit_beliefs.IN_USE.values()) <= set(params)
    assert len(params) == len(set(params))


def test_the_command_prints_the_best_readings_beside_the_ones_in_use(capsys, monkeypatch):
    monkeypatch.setattr(fit_beliefs, "RATIONALITIES", (1.0, 2.0))
    monkeypatch.setattr(fit_beliefs, "CARELESS", (0.01,))
    monkeypatch.setattr(fit_beliefs, "SLIPS", (0.05,))
    assert fit_beliefs.main(["--level", "easy", "--games", "1", "--top", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("from 1 games (easy, 2 players)")
    assert len(out) == 2 + 2 + 2
    assert out[-2].endswith("(hard)") and out[-1].endswith("(expert)")
