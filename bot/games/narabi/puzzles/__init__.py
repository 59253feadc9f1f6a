"""Narabi par puzzles (data, made by ``bot/tools/puzzles_gen.py``)."""
