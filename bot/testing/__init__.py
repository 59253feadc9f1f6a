"""Running the bot without Discord: a recorded fake HTTP layer and gateway-shaped payloads (tests, bench)."""
