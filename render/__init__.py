"""Board pictures: a game's PUBLIC view in, PNG bytes out. Never imports discord."""
