"""The playground's Markdown renderer alone in a blank Chromium page: the scripts and style the
page loads (simple-markdown, markdown.js, style.css), a few known people and channels, and a
compact form of the DOM it builds, for tests to compare."""
from __future__ import annotations

from pathlib import Path
from typing import Any

STATIC = Path(__file__).resolve().parents[2] / "bot" / "playground" / "static"
SCRIPTS = (STATIC / "vendor" / "simple-markdown.js", STATIC / "markdown.js")

#: the DOM as tags and text: <tag.class>children</tag>, a text as it is, <br> for a line break
SHAPE_JS = """
(function () {
  function shape(node) {
    if (node.nodeType === Node.TEXT_NODE) return node.data;
    const tag = node.tagName.toLowerCase();
    if (tag === "br") return "<br>";
    const cls = node.className ? "." + String(node.className).split(" ").join(".") : "";
    return "<" + tag + cls + ">" + Array.from(node.childNodes).map(shape).join("") + "</" + tag + ">";
  }
  window.mdShape = (text) => Array.from(PG.md(text).childNodes).map(shape).join("");
  window.mdShapeInline = (text) => PG.mdInline(text).map(shape).join("");
})();
"""


async def markdown_page(browser: Any, users: dict[str, str] | None = None) -> Any:
    """A blank page with the renderer loaded."""
    page = await (await browser.new_context()).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    await page.set_content("<!doctype html><html><body></body></html>")
    for script in SCRIPTS:
        await page.add_script_tag(path=str(script))
    await page.add_script_tag(content=SHAPE_JS)
    await page.add_style_tag(path=str(STATIC / "style.css"))
    await page.evaluate("""(users) => {
        PG.users = users; PG.myId = "1";
        PG.channelName = (id) => "general"; PG.jump = () => {};
    }""", users or {"1": "Ana", "2": "Ben"})
    return page


async def shape(page: Any, text: str) -> str:
    return await page.evaluate("(t) => mdShape(t)", text)
