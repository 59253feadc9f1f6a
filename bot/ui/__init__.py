"""Discord presentation shared by every game: routing, components, lobby, the GameCog base."""
