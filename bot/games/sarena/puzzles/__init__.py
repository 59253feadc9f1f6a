"""Sàréná two-player final-move puzzles (data, made by ``bot/tools/puzzles_gen.py``)."""
