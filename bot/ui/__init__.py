"""The Discord surface every game shares: routing, components, lobby, the GameCog base, the
REST budget, board repair and turn lines.

May import everything below it (games, store, domain, runtime, config, i18n, render); never
``bot.client`` or the cogs: what it needs of the bot is described by a protocol here."""
