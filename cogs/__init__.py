"""Discord extensions: one cog package per game, plus the general cog."""
