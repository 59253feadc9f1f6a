"""Names in any script: the bundled font first, a font found on the host for what it lacks, the
seat's number always drawn, long names cut with an ellipsis.

Most tests point the search at a folder holding a font made on the spot (``tinyfont``), so they
mean the same on every machine."""
from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from render import fonts

from tests.render.legibility import clear_render_caches
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
