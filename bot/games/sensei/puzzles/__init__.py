"""Sensei win-in-two puzzles and the test set the bench measures on (data, made by ``bot/tools/puzzles_gen.py``)."""
