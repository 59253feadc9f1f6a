"""MkDocs hooks (``hooks:`` in mkdocs.yml): what the site generates while it is built.

- Board pictures: every game of ``bot.tools.docs_pictures`` is played by its rules from its
  fixed seed and drawn by ``render/`` into ``assets/boards/<game>-<moment>.png`` of the built
  site (nothing is written into ``docs/``), so the rules pages always show today's pictures.
- Tables: a page line ``<!-- generated: commands -->`` becomes the command table, read from the
  bot's command tree; ``<!-- generated: places -->`` the table of what works where, from the
  same tree; ``<!-- generated: settings -->`` the settings table of ``.env.example``.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from mkdocs.structure.files import File, Files

from bot.tools import docs_pictures, docs_site

BOARDS = "assets/boards"


@lru_cache(maxsize=1)
def _tables() -> dict[str, str]:
    found = docs_site.entries(docs_site.command_payloads())
    return {"commands": docs_site.commands_markdown(found),
            "places": docs_site.places_markdown(found),
            "settings": docs_site.settings_markdown(docs_site.settings())}


def on_files(files: Files, config: Any) -> Files:
    for example in docs_pictures.EXAMPLES:
        for moment, data in docs_pictures.pictures(example).items():
            files.append(File.generated(config, f"{BOARDS}/{example.game}-{moment}.png",
                                        content=data))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    for name, table in _tables().items():
        markdown = markdown.replace(f"<!-- generated: {name} -->", table)
    return markdown
