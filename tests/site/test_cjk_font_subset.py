"""The served Japanese font (static/fonts/, built by tools/build_cjk_font.py) has every CJK
character the pages can show: a new yaku or rule name with a character the subset lacks would be
drawn as an empty box on a machine without CJK fonts, and fails here until the font is rebuilt.
The check reads only the committed fonts, not the source font, so it needs no system package."""

from __future__ import annotations

import re
from pathlib import Path

from tools import build_cjk_font as font


def test_the_committed_fonts_have_every_character_the_pages_use():
    needed = font.collect_chars()
    # The scan finds what it is for (so an empty scan cannot pass): yaku, winds, round and rule names.
    assert set("立直門前清自摸和東南西北局萬發中場数") <= set(needed)
    missing = font.check(needed=needed)
    assert missing == {name: {} for name in font.WEIGHTS.values()}, (
        f"{missing}: rebuild with .venv/bin/python tools/build_cjk_font.py")
    assert font.main(["--check"]) == 0


def test_the_check_fails_on_a_character_the_font_lacks(tmp_path: Path, capsys):
    present = font.font_chars(font.FONTS / font.WEIGHTS["NotoSansCJK-Regular.ttc"])
    # Characters no page uses today (else this test would prove nothing).
    assert not set("燕返人鑫") & present
    (tmp_path / "static" / "js").mkdir(parents=True)
    (tmp_path / "static" / "js" / "yaku.js").write_text('export const LOCAL = ["燕返し"];\n', encoding="utf-8")
    (tmp_path / "games").mkdir()
    # A Python string reaches a page; a Python comment never does, so 鑫 is not needed.
    (tmp_path / "games" / "yaku.py").write_text('# 鑫\nNAMES = {"renhou": "人和"}\n', encoding="utf-8")

    needed = font.collect_chars(tmp_path)
    assert set(needed) == set("燕返し人和")
    assert needed["人"] == ["games/yaku.py"]
    for name, missing in font.check(repo=tmp_path).items():
        assert set(missing) == set("燕返人"), name
    # A subset that is not there at all lacks everything.
    assert set(font.check(fonts=tmp_path, repo=tmp_path)["noto-sans-jp-subset.woff2"]) == set(needed)


def test_the_stylesheet_limits_the_face_to_the_scripts_ranges():
    """fonts.css's unicode-range is the script's CJK_RANGES: a character the script collects is
    within the face's range (else the page would never use the face for it), and no Latin one is."""
    css = (font.REPO / "static" / "css" / "fonts.css").read_text(encoding="utf-8")
    ranges = re.findall(r"unicode-range:\s*([^;]+);", css)
    assert ranges == [font.CSS_UNICODE_RANGE] * len(font.WEIGHTS)
    assert not any(font.is_cjk(c) for c in "Az09·…—×")
