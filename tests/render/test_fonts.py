"""Names in any script: the bundled font first, a font found on the host for what it lacks, the
seat's number always drawn, long names cut with an ellipsis.

Most tests point the search at a folder holding a font made on the spot (``tinyfont``), so they
mean the same on every machine; one looks at the host's own fonts, whatever they are."""
from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from bot.games import game_class
from render import fonts, narabi, sarena, sensei

from tests.render.legibility import Tracer, clear_render_caches
from tests.render.tinyfont import make_font

HAN = "李小龍"


def use_font_dirs(monkeypatch, *folders: Path) -> None:
    """Fonts for missing characters come from ``folders`` only, from now on."""
    monkeypatch.setattr(fonts, "FONT_DIRS", folders)
    clear_render_caches()


@pytest.fixture(autouse=True)
def fresh_caches():
    clear_render_caches()
    yield
    clear_render_caches()


@pytest.fixture
def tiny(tmp_path, monkeypatch) -> Path:
    """A font with the Han characters of ``HAN`` as the only font on the host."""
    folder = tmp_path / "fonts"
    folder.mkdir()
    path = make_font(folder / "TinyHan-Regular.ttf", HAN)
    use_font_dirs(monkeypatch, folder)
    return path


def drawn_texts(render, view, names, locale="en") -> list[tuple[str, str]]:
    """(text, path of its font) of every text the picture draws."""
    with Tracer() as tracer:
        render(view, names, locale)
    (_, placed), = tracer.pictures
    return [(p.drawn.text, p.drawn.font.path) for p in placed if p.drawn.kind == "text"]


def start(key: str, seats: int) -> dict:
    return game_class(key).new(seats, {}, 5).public_view()


def finished(key: str, seats: int) -> dict:
    game = game_class(key).new(seats, {}, 5)
    rnd = random.Random(5)
    while game.result() is None:
        game.apply(game.to_move, rnd.choice(game.legal_actions(game.to_move)))
    return game.public_view()


def test_characters_the_bundled_font_lacks_come_from_a_host_font(tiny):
    parts = fonts.runs(f"1 · {HAN} wins", 24, True)
    assert [run for run, _ in parts] == ["1 · ", HAN, " wins"]
    assert [Path(face.path).name for _, face in parts] == \
        ["DejaVuSans-Bold.ttf", tiny.name, "DejaVuSans-Bold.ttf"]
    assert fonts.text_width(f"1 · {HAN}", 24, True) == pytest.approx(
        sum(face.getlength(run) for run, face in parts[:2]))
    # What no font has is left out rather than drawn as empty boxes.
    assert fonts.printable("Chloé 🌸 李", True) == "Chloé 李"


def test_a_bold_name_uses_the_family_s_bold_face_when_installed(tiny):
    bold = make_font(tiny.with_name("TinyHan-Bold.ttf"), HAN, weight=160)
    clear_render_caches()
    assert Path(fonts.runs(HAN, 24, True)[0][1].path) == bold
    assert Path(fonts.runs(HAN, 24, False)[0][1].path) == tiny


def test_a_file_that_is_not_a_usable_font_is_passed_over(tiny):
    (tiny.parent / "Broken.ttf").write_bytes(b"not a font")
    clear_render_caches()
    assert Path(fonts.runs(HAN, 24)[0][1].path) == tiny


def test_mixed_fonts_share_the_anchor_of_the_bundled_font(tiny):
    img = Image.new("L", (400, 100))
    fonts.draw_text(ImageDraw.Draw(img), (200, 50), f"H{HAN}H", 40, anchor="mm", fill=255)
    left, top, right, bottom = img.getbbox()
    assert abs((left + right) / 2 - 200) <= 2
    # Every run stands on one baseline: the capitals' feet and the bars' feet line up.
    assert img.getpixel((left + 1, bottom - 1)) == img.getpixel((right - 2, bottom - 1)) == 255


@pytest.mark.slow
@pytest.mark.parametrize("key, seats", [("narabi", 3), ("sarena", 3), ("sensei", 2)])
def test_a_han_name_is_drawn_in_every_picture_with_a_font_that_has_it(tiny, key, seats):
    render = {"narabi": narabi.render, "sarena": sarena.render, "sensei": sensei.render}[key]
    names = ["Ada", HAN, "Cleo"][:seats]
    for view in (start(key, seats), finished(key, seats)):
        texts = drawn_texts(render, view, names)
        han = [path for text, path in texts if HAN in text]
        assert han and all(Path(path) == tiny for path in han), texts
        # ... and next to the seat's number, drawn with the bundled font.
        assert any(text.startswith("2 · ") for text, _ in texts)


@pytest.mark.slow
@pytest.mark.parametrize("key, seats, unnamed", [
    ("narabi", 3, {"Player 1", "Player 2", "Player 3"}),
    ("sarena", 3, {"Seat 1", "Seat 2", "Seat 3"}),
    ("sensei", 2, {"1 · Green to move", "2 · Red to move"}),
])
def test_names_no_font_can_draw_still_show_their_seat_number(monkeypatch, key, seats, unnamed):
    use_font_dirs(monkeypatch)  # no font on the host at all
    render = {"narabi": narabi.render, "sarena": sarena.render, "sensei": sensei.render}[key]
    view = start(key, seats)
    texts = {text for text, _ in drawn_texts(render, view, [HAN, "龍李", "🫨"])}
    if key == "sensei":  # its picture names only the seat to move
        unnamed = {label for label in unnamed if label.startswith(f"{view['to_move'] + 1} ")}
    assert unnamed <= texts, texts
    assert not any(HAN[0] in text or "🫨" in text for text in texts)


def test_long_names_are_cut_with_an_ellipsis_and_keep_the_number(tiny):
    label = fonts.seat_label(3, "Bartholomew the Magnificent", 260, 24, True)
    assert label.startswith("3 · Bartholomew") and label.endswith("…")
    assert fonts.text_width(label, 24, True) <= 260
    # Mixed fonts are measured run by run.
    label = fonts.seat_label(12, HAN * 8, 150, 24)
    assert label.startswith(f"12 · {HAN}") and label.endswith("…")
    assert 120 < fonts.text_width(label, 24) <= 150
    # A name that fits is left whole; the number stays even when nothing of the name can show.
    assert fonts.seat_label(1, f"Ada {HAN}", 400, 24) == f"1 · Ada {HAN}"
    assert fonts.seat_label(4, "🫨", 400, 24) == "4"
    assert fonts.seat_label(4, "🫨", 400, 24, unnamed="Green") == "4 · Green"
    assert fonts.seat_label(4, "🫨", 400, 24, unnamed="Player 4") == "Player 4"


def test_the_host_s_own_fonts_draw_a_han_name_or_leave_it_out():
    """With Debian's fonts-noto-cjk (or fonts-wqy-zenhei) installed the name shows in real
    glyphs; without, the seat's label stands alone. Either way no empty box is drawn."""
    path = fonts.source(HAN[0], bold=True)  # name pills are bold
    texts = drawn_texts(narabi.render, start("narabi", 3), ["Ada", HAN, "Cleo"])
    if path is None:
        assert "Player 2" in [text for text, _ in texts]
        return
    face = fonts._face(path, 40)
    for ch in HAN:
        glyph = face.getmask(ch)
        assert glyph.getbbox() and bytes(glyph) != bytes(face.getmask("\U0010fffd"))
    assert any(HAN in text and font_path == path for text, font_path in texts)


@pytest.fixture
def emoji(monkeypatch) -> Path:
    """The host's colour emoji font as the only font found (Debian's fonts-noto-color-emoji,
    which CI installs)."""
    found = sorted(Path("/usr/share/fonts").rglob("NotoColorEmoji*.ttf"))
    if not found:
        if os.environ.get("CI"):
            raise AssertionError("CI installs fonts-noto-color-emoji; it is missing")
        pytest.skip("no colour emoji font on this host (Debian: fonts-noto-color-emoji)")
    use_font_dirs(monkeypatch, found[0].parent)
    return found[0]


def test_emoji_are_drawn_in_colour_from_the_emoji_font(emoji):
    name = "Chloé 🌸 👩‍💻 🇫🇷 ❤️ 1️⃣"
    parts = fonts.runs(name, 24)
    assert [run for run, face in parts if isinstance(face, fonts.EmojiFace)] == \
        ["🌸", "👩\u200d💻", "🇫🇷", "❤️", "1️⃣"]  # a sequence stays one picture
    assert fonts.printable(name) == name
    assert fonts.seat_label(2, "🫨", 400, 24) == "2 · 🫨"
    size = 40
    img = Image.new("RGB", (420, 80), (255, 255, 255))
    fonts.draw_text(ImageDraw.Draw(img), (10, 10), "H🌸H", size, fill=(0, 0, 0))
    base = fonts.font(size)
    h = base.getlength("H")
    # The flower is pink, between the two black capitals, scaled to the text's size.
    flower = img.crop((round(10 + h), 0, round(10 + h + fonts.text_width("🌸", size)), 80))
    pinks = [p for p in flower.getdata() if p[0] > 200 and p[1] < 190 and p[2] > 150]
    assert len(pinks) > 100
    assert fonts.text_width("H🌸H", size) == pytest.approx(2 * h + size / fonts.EMOJI_STRIKE
                                                          * fonts.emoji_font().getlength("🌸"))
    left, top, right, bottom = flower.convert("L").point(lambda v: v < 250 and 255).getbbox()
    assert 0.8 * size < bottom - top < 1.3 * size
    # It stands on the capitals' baseline: its foot within the descent below their feet.
    ascent, descent = base.getmetrics()
    assert 10 + ascent - 2 <= bottom <= 10 + ascent + descent
    # On a transparent layer (a card, a pill) it is composited, not cut out.
    layer = Image.new("RGBA", (120, 60), (0, 0, 0, 0))
    fonts.draw_text(ImageDraw.Draw(layer), (5, 5), "🌸", size)
    assert layer.getbbox() is not None and layer.getpixel((5 + size // 2, 5 + size // 2))[3] > 0
    # Partly off the picture (a name at a pill's edge), on every kind of picture: cut, drawn.
    for mode in ("RGBA", "RGB", "L"):
        edge = Image.new(mode, (30, 20))
        fonts.draw_text(ImageDraw.Draw(edge), (-6, -12), "🌸🌸", size)
        assert edge.getbbox() is not None


def test_without_an_emoji_font_emoji_are_left_out_whole(tiny):
    assert fonts.emoji_font() is None
    assert fonts.printable("Ada 👩‍💻 1️⃣") == "Ada 1"
