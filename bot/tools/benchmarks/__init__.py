"""Per-game benchmark figures for `python -m bot bench` (they read the clock, so they live outside bot/games)."""
