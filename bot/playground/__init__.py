"""The playground: `python -m bot play` runs the real bot against the built-in Discord
stand-in (`bot.testing.fake_discord`) and shows its messages in a web page that works like a
Discord client. No game rule and no game state lives here: the page sends slash commands and
component clicks as interactions through the stand-in's Harness to the real cogs, and shows
the messages the bot posted, edited and deleted.

Modules, each by job:
- ``people``   players by name (stable ids), Accept-Language → Discord locale.
- ``words``    the page's own words in the browser's language (``playground.*`` catalog keys).
- ``commands`` parse a typed slash command against the bot's registered commands, with the
  answers Discord's client gives to bad input.
- ``uploads``  the bytes of the pictures and files the bot attached, served by id.
- ``host``     the bot, the stand-in and the Harness; who sees which message; live feeds.
- ``shape``    a message as one viewer's client shows it (attachments as upload URLs).
- ``server``   the aiohttp app: the page, its static assets, uploads, the JSON API, SSE.
- ``run``      the `play` command (temporary SQLite, browser opening).
- ``static/``  the page (HTML, CSS, JS); it renders every text with textContent.

May import: ``bot`` (client, config, store, testing.fake_discord), ``discord``, ``aiohttp``.
Nothing in ``bot``, ``cogs`` or ``render`` imports this package.
"""
