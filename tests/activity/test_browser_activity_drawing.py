"""How the Activity's board draws what is hard to see: a character's jump to a neighbouring
square (a hop, not a tiny triangle), and Narabi's last switch crossing the rows on a phone
(under the seats' names, never over them). The page's own drawing code, in Chromium, on the
Activity's origin (opened by the Entry Point command in the playground)."""
from __future__ import annotations

import pytest

from ..playground.conftest import browser, playground, shots  # noqa: F401  (fixtures)
from ..playground.driver import open_page, screenshot, send
from .browser_kit import PANE

#: the ``browser`` (one Chromium per worker, started once) and ``playground`` fixtures live
#: in the session's event loop, and so do these tests
pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _activity(browser, playground, width: int = 1280):
    ana = await open_page(browser, playground.url, "Ana", width=width)
    await send(ana, "/launch")
    await ana.locator(PANE).wait_for(timeout=30_000)
    frame = await (await ana.locator(PANE).element_handle()).content_frame()
    await frame.wait_for_selector("body[data-ready='1']", timeout=30_000)
    return ana, frame


async def test_a_one_square_character_jump_is_a_hop_you_can_see(browser, playground, shots):  # noqa: F811
    ana, frame = await _activity(browser, playground)
    view = await frame.evaluate("""async () => {
      const sensei = await import('/static/js/sensei.mjs');
      const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
      svg.setAttribute('width', '580'); svg.setAttribute('height', '580');
      document.body.appendChild(svg);
      const board = {d1: {seat: 0, character: false}, e1: {seat: 0, character: true},
                     a1: {seat: 0, character: false}, a4: {seat: 0, character: false}};
      sensei.draw(svg, {board, characters: ['e1', 'd7'], pits: [], options: {board: 'plain'}},
                  {last: [{from: 'd1', to: 'e1', kind: 'character', seat: 0},
                          {from: 'a1', to: 'a4', kind: 'character', seat: 0}]});
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const boxes = [...svg.querySelectorAll("g[data-kind='character']")].map((g) => {
        const r = g.getBBox(); return [r.width, r.height];
      });
      svg.remove();
      return {boxes, cell: sensei.CELL};
    }""")
    assert len(view["boxes"]) == 2, view
    hop, far = view["boxes"]
    cell = view["cell"]
    # a neighbour's jump hops over the edge it crosses: about as large as a square, where a
    # straight arrow between the two pieces' rims was its head alone (34 × 26 px)
    assert max(hop) >= 0.7 * cell and min(hop) >= 0.45 * cell, view
    assert max(far) >= 1.5 * cell, view
    # the playground's pane is in the page's language (here English)
    assert await ana.locator("#activity-pane header span").inner_text() == "Activity"
    assert await ana.locator("#activity-pane .close").get_attribute("aria-label") == "Close the Activity"
    assert not ana.errors



async def test_narabis_last_switch_goes_under_the_seats_names(browser, playground, shots):  # noqa: F811
    ana, frame = await _activity(browser, playground, width=400)
    found = await frame.evaluate("""async () => {
      const narabi = await import('/static/js/narabi.mjs');
      const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
      svg.setAttribute('width', '360');
      document.body.prepend(svg);
      const row = (base) => [0, 1, 2].map((k) => ({id: base + k, number: base + k, colour: 'white'}));
      const view = {rows: [row(0), row(3), row(6)], to_move: 1, finished: false,
                    last_switch: {card: 2, target: 6, seat: 0, index: 2, target_seat: 2, target_index: 0}};
      narabi.draw(svg, view, {names: ['1 · Ana', '2 · Ben', '3 · AI · Easy'], mine: new Map(), sources: new Map()});
      const arrow = svg.querySelector("[data-switch='1']");
      const names = [...svg.querySelectorAll('[data-seat-name]')];
      // painted in document order: each name after the arrow is painted over it
      const over = names.map((n) => Boolean(arrow.compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING));
      const box = (n) => { const r = n.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
      const crossing = names.map((n) => {
        const [l, t, r, b] = box(n), [al, at, ar, ab] = box(arrow);
        return l < ar && al < r && t < ab && at < b;
      });
      return {over, crossing};
    }""")
    assert any(found["crossing"]), found  # the arrow does cross a name's place here...
    assert all(found["over"]), found  # ...and every name is drawn over it
    await screenshot(ana, shots, "activity-narabi-switch-under-names", 400)
    assert not ana.errors
