"""The playground's Markdown, run in Chromium, against Discord's documented behaviour (its
"Markdown Text 101" article and what its client shows): what becomes emphasis, code, a quote,
a header, a list, a link, and what stays literal."""
from __future__ import annotations

import pytest
import pytest_asyncio

from tests.playground.conftest import chromium
from tests.playground.markdown_page import markdown_page, shape

# One browser and page for the whole table of cases.
pytestmark = [pytest.mark.xdist_group("markdown-page"), pytest.mark.asyncio(loop_scope="module"),
              pytest.mark.slow]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def page():
    async with chromium() as browser:
        page = await markdown_page(browser)
        yield page
        assert not page.errors, page.errors


#: (typed, the DOM it becomes: <tag.class>…</tag>, text as it reads, <br> a line break)
CASES = [
    # emphasis
    ("*a*", "<em>a</em>"),
    ("_a_", "<em>a</em>"),
    ("**a**", "<strong>a</strong>"),
    ("__a__", "<u>a</u>"),
    ("***a***", "<em><strong>a</strong></em>"),
    ("__*a*__", "<u><em>a</em></u>"),
    ("~~a~~", "<s>a</s>"),
    ("||a||", "<span.spoiler>a</span>"),
    ("||a|| and ||b||", "<span.spoiler>a</span> and <span.spoiler>b</span>"),
    ("x *a b* y", "x <em>a b</em> y"),
    ("**a\nb**", "<strong>a<br>b</strong>"),
    # what stays literal
    ("snake_case", "snake_case"),
    ("snake_case_name", "snake_case_name"),
    ("a_b_", "a_b_"),
    ("*a", "*a"),
    ("a * b * c", "a * b * c"),
    ("*a *", "*a *"),
    ("2*3*4 = 24", "2<em>3</em>4 = 24"),
    ("\\*a\\*", "*a*"),
    ("\\_a\\_", "_a_"),
    ("\\~\\~a\\~\\~", "~~a~~"),
    ("\\|\\|a\\|\\|", "||a||"),
    ("\\`a\\`", "`a`"),
    ("\\\\*a*", "\\<em>a</em>"),
    ("\\# a", "# a"),
    ("\\> a", "> a"),
    ("\\-# a", "-# a"),
    ("\\- a", "- a"),
    ("1\\. a", "1. a"),
    ("\\[a](https://example.com)", "[a](<a.link>https://example.com</a>)"),
    ("\\<@1>", "&lt;@1&gt;"),
    # code
    ("`a`", "<code.inline>a</code>"),
    ("`*a* _b_ ||c||`", "<code.inline>*a* _b_ ||c||</code>"),
    ("``a ` b``", "<code.inline>a ` b</code>"),
    ("```\n**x** \\*y\n```", "<pre.codeblock><code>**x** \\*y</code></pre>"),
    ("```py\nprint(*a*)\n```", "<pre.codeblock><code>print(*a*)</code></pre>"),
    ("before ```x``` after", "before <pre.codeblock><code>x</code></pre> after"),
    ("```\nx\n```\nafter", "<pre.codeblock><code>x</code></pre>after"),
    # quotes: only at a line's start, with a space
    ("> q", "<blockquote>q</blockquote>"),
    ("> q\n> r\ns", "<blockquote>q<br>r</blockquote>s"),
    ("x\n> q\ny", "x<br><blockquote>q</blockquote>y"),
    ("a > q", "a > q"),
    (">q", ">q"),
    (">>> a\nb\n> c", "<blockquote>a<br>b<br>&gt; c</blockquote>"),
    ("x >>> a", "x >>> a"),
    # headers and subtext: at a line's start, with a space
    ("# h", "<div.h1>h</div>"),
    ("## h", "<div.h2>h</div>"),
    ("### h", "<div.h3>h</div>"),
    ("#### h", "#### h"),
    ("#h", "#h"),
    ("a # h", "a # h"),
    ("line\n# h\nnext", "line<br><div.h1>h</div>next"),
    ("# **bold** h", "<div.h1><strong>bold</strong> h</div>"),
    ("-# small", "<div.subtext>small</div>"),
    ("-#small", "-#small"),
    ("a -# b", "a -# b"),
    # lists
    ("- a\n- b", "<ul><li>a</li><li>b</li></ul>"),
    ("* a\n* b", "<ul><li>a</li><li>b</li></ul>"),
    ("1. a\n2. b", "<ol><li>a</li><li>b</li></ol>"),
    ("- a\n  - b", "<ul><li>a</li><li.depth1>b</li></ul>"),
    ("- *a*", "<ul><li><em>a</em></li></ul>"),
    ("x - a", "x - a"),
    ("-a", "-a"),
    # links
    ("[text](https://example.com)", "<a.link>text</a>"),
    ("[**b**](https://example.com)", "<a.link><strong>b</strong></a>"),
    ("[text](javascript:alert(1))", "[text](javascript:alert(1))"),
    ("see https://example.com/a_b_c.", "see <a.link>https://example.com/a_b_c</a>."),
    ("<https://example.com/*x*>", "<a.link>https://example.com/*x*</a>"),
    # what Discord draws itself
    ("<@1> <@!2>", "<span.mention.me>@Ana</span> <span.mention>@Ben</span>"),
    ("<@3>", "<span.mention>@unknown-user</span>"),
    ("<#5>", "<a.mention>#general</a>"),
    ("<:blob:123> <a:dance:456>", ":blob: :dance:"),
    # the turn line of issue 47, as it was (a lone * stays) and as it is now
    ("Turn 1 · <@1>: *d1-g1 Next: 🤖 **AI · Hard**.",
     "Turn 1 · <span.mention.me>@Ana</span>: *d1-g1 Next: 🤖 <strong>AI · Hard</strong>."),
    ("Turn 1 · <@1>: \\*d1-g1 Next: 🤖 **AI · Hard**.",
     "Turn 1 · <span.mention.me>@Ana</span>: *d1-g1 Next: 🤖 <strong>AI · Hard</strong>."),
    ("Turn 2 · <@1>: \\*d1-g1 Next: *Ben*", "Turn 2 · <span.mention.me>@Ana</span>: *d1-g1 Next: <em>Ben</em>"),
]


def _readable(expected: str) -> str:
    return expected.replace("&lt;", "<").replace("&gt;", ">")


@pytest.mark.parametrize(("typed", "expected"), CASES, ids=[c[0] for c in CASES])
async def test_markdown_renders_as_discord_does(page, typed: str, expected: str) -> None:
    assert await shape(page, typed) == _readable(expected)


@pytest.mark.parametrize("typed", ["<b>x</b>", "<img src=x onerror=alert(1)>", "&amp; <script>1</script>",
                                   "**<i>a</i>**"])
async def test_markup_in_a_message_stays_text(page, typed: str) -> None:
    made = await page.evaluate("""(t) => { const box = PG.md(t);
        return [box.textContent, Array.from(box.querySelectorAll("*")).map(e => e.tagName)]; }""", typed)
    text, tags = made
    assert text == typed.replace("**", "")
    assert set(tags) <= {"STRONG"}


async def test_a_code_block_keeps_its_language_and_its_text(page) -> None:
    lang, text = await page.evaluate("""() => { const c = PG.md("```py\\n  x = *a*\\n\\n  y\\n```").querySelector("pre code");
        return [c.dataset.lang, c.textContent]; }""")
    assert (lang, text) == ("py", "  x = *a*\n\n  y")


async def test_a_masked_link_points_where_it_says(page) -> None:
    href, rel = await page.evaluate("""() => { const a = PG.md("[site](https://example.com/x)").querySelector("a");
        return [a.getAttribute("href"), a.rel]; }""")
    assert href == "https://example.com/x" and "noopener" in rel


async def test_a_numbered_list_keeps_its_first_number(page) -> None:
    assert await page.evaluate("() => PG.md('3. c\\n4. d').querySelector('ol').start") == 3


async def test_a_spoiler_is_hidden_until_clicked(page) -> None:
    await page.evaluate("""() => { const box = PG.md("secret: ||**42**||"); box.id = "spoiled";
        document.body.append(box); }""")
    spoiler = page.locator("#spoiled .spoiler")
    hidden = await spoiler.evaluate("s => getComputedStyle(s.querySelector('strong')).visibility")
    await spoiler.click()
    shown = await spoiler.evaluate("s => getComputedStyle(s.querySelector('strong')).visibility")
    assert (hidden, shown) == ("hidden", "visible")
    assert "revealed" in await spoiler.get_attribute("class")


async def test_embed_titles_take_inline_markdown_only(page) -> None:
    shapes = await page.evaluate("""() => ["# **t**", "- a", "> q"].map(t => mdShapeInline(t))""")
    assert shapes == ["# <strong>t</strong>", "- a", "> q"]
