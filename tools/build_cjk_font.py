"""Builds static/fonts/noto-sans-jp-subset.woff2 and -bold.woff2: Noto Sans CJK JP (regular and
bold) cut down to the CJK characters the pages can show, so Japanese (yaku, rule and preset names,
winds, round names, button subtitles) renders on a visitor's machine that has no CJK font, for a
few tens of kilobytes a weight. The bold is shipped because most Japanese on the riichi table is
set at weights 600-900, and a synthesised bold of a CJK face smears its strokes.

    .venv/bin/python tools/build_cjk_font.py            # rebuild (needs Debian's fonts-noto-cjk)
    .venv/bin/python tools/build_cjk_font.py --check    # exit 1 if a committed font lacks a character

Which characters: every CJK, kana and fullwidth character in templates/ and static/ (.html, .js,
.css: read whole, comments too, since telling a JS comment from a string needs a JS parser and a
stray glyph costs a few hundred bytes), and in the string literals of the Python sources that make
text for pages (games/, accounts/, config/: yaku, rule, preset and round names). Python comments
never reach a page, so they are left out. Latin letters and digits are not included: the site's
Latin fonts draw them, and static/css/fonts.css limits the face to CJK code points (its
unicode-range is CSS_UNICODE_RANGE below), so Latin text never downloads it.

The check reads only the committed subsets' cmaps, so it runs without the source font (CI has no
fonts-noto-cjk); tests/site/test_cjk_font_subset.py runs it with the suite.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FONTS = REPO / "static" / "fonts"
# Debian's fonts-noto-cjk, one collection per weight; member 0 of each is Noto Sans CJK JP
# (Japanese glyph forms, which differ from the Chinese ones for some of the kanji used here).
SOURCES = Path("/usr/share/fonts/opentype/noto")
SOURCE_FONT_NUMBER = 0
# Source collection -> committed subset, one per weight fonts.css declares.
WEIGHTS: dict[str, str] = {
    "NotoSansCJK-Regular.ttc": "noto-sans-jp-subset.woff2",
    "NotoSansCJK-Bold.ttc": "noto-sans-jp-subset-bold.woff2",
}

# The code points the face is for: CJK radicals, symbols and punctuation, kana, enclosed and
# compatibility forms, the unified ideographs (and extension A), compatibility ideographs and the
# halfwidth and fullwidth forms. fonts.css's unicode-range must say the same (a test compares).
CJK_RANGES: tuple[tuple[int, int], ...] = (
    (0x2E80, 0x33FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xF900, 0xFAFF),
    (0xFF00, 0xFFEF),
)
CSS_UNICODE_RANGE = ", ".join(f"U+{lo:X}-{hi:X}" for lo, hi in CJK_RANGES)
_CJK = re.compile("[" + "".join(f"\\u{lo:04x}-\\u{hi:04x}" for lo, hi in CJK_RANGES) + "]")

TEXT_ROOTS = ("templates", "static")
TEXT_SUFFIXES = (".html", ".js", ".css")
PYTHON_ROOTS = ("games", "accounts", "config")


def is_cjk(char: str) -> bool:
    return _CJK.fullmatch(char) is not None


def python_strings(source: str) -> Iterator[str]:
    """Every string literal in a Python module (f-strings' literal parts and docstrings included:
    the API docs page shows view docstrings), none of its comments."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value


def _files(repo: Path, roots: Iterable[str], suffixes: tuple[str, ...]) -> Iterator[Path]:
    for root in roots:
        # Sorted, so the report (and anything built from it) does not depend on the file system.
        for path in sorted((repo / root).rglob("*")):
            if path.suffix in suffixes and path.is_file() and "__pycache__" not in path.parts:
                yield path


def collect_chars(repo: Path = REPO) -> dict[str, list[str]]:
    """Each CJK character the pages can show, with the files (relative paths) it comes from."""
    found: dict[str, list[str]] = {}

    def add(text: str, path: Path) -> None:
        name = path.relative_to(repo).as_posix()
        for char in sorted(set(_CJK.findall(text))):
            found.setdefault(char, []).append(name)

    for path in _files(repo, TEXT_ROOTS, TEXT_SUFFIXES):
        add(path.read_text(encoding="utf-8"), path)
    for path in _files(repo, PYTHON_ROOTS, (".py",)):
        source = path.read_text(encoding="utf-8")
        if _CJK.search(source):  # parsing every module would take seconds; most have no CJK at all
            add("".join(python_strings(source)), path)
    return dict(sorted(found.items()))


def font_chars(font_path: Path) -> set[str]:
    """The characters a font file maps to glyphs (its best cmap): all the check needs."""
    from fontTools.ttLib import TTFont

    with TTFont(str(font_path), lazy=True) as font:
        return {chr(code) for code in font.getBestCmap()}


def missing_chars(needed: dict[str, list[str]], present: set[str]) -> dict[str, list[str]]:
    """The needed characters a font lacks, each with where it is used."""
    return {char: files for char, files in needed.items() if char not in present}


def build(chars: Iterable[str], source: Path, output: Path, font_number: int = SOURCE_FONT_NUMBER) -> None:
    """Subset ``source`` to ``chars`` and write it as WOFF2. Deterministic: the same characters
    and source font give the same bytes (no build time is written into the font)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.flavor = "woff2"
    # No layout features: the pages set these characters horizontally with default forms, and
    # the font's substitutions (other locales' forms, vertical and proportional alternates) would
    # pull in ~200 more glyphs, nearly doubling the file. Vertical metrics go for the same reason.
    options.layout_features = []
    options.drop_tables += ["vhea", "vmtx", "VORG"]
    # CFF subroutines undone: Brotli compresses the plain charstrings better than the subroutinised ones.
    options.desubroutinize = True
    # Keeps the copyright, licence and font name records (nameIDs 0-6, 13, 14) the OFL asks to ship.
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    options.name_languages = [0x409]
    font = TTFont(str(source), fontNumber=font_number, lazy=False)
    font.recalcTimestamp = False  # else `head.modified` becomes the build time and every build differs
    subsetter = subset.Subsetter(options=options)
    subsetter.populate(unicodes=sorted(ord(c) for c in chars))
    subsetter.subset(font)
    output.parent.mkdir(parents=True, exist_ok=True)
    font.flavor = "woff2"
    font.save(str(output))
    font.close()


def check(fonts: Path = FONTS, repo: Path = REPO, needed: dict[str, list[str]] | None = None,
          ) -> dict[str, dict[str, list[str]]]:
    """For each committed subset, the characters the sources use (``needed``, else scanned) that
    it lacks (a missing file lacks them all)."""
    if needed is None:
        needed = collect_chars(repo)
    result = {}
    for name in WEIGHTS.values():
        path = fonts / name
        result[name] = missing_chars(needed, font_chars(path) if path.exists() else set())
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="only check that the committed fonts have every character the sources use")
    parser.add_argument("--sources", type=Path, default=SOURCES,
                        help=f"the folder holding {' and '.join(WEIGHTS)} (Debian's fonts-noto-cjk)")
    args = parser.parse_args(argv)

    needed = collect_chars()
    if args.check:
        failed = False
        for name, missing in check(needed=needed).items():
            for char, files in missing.items():
                print(f"{name}: missing {char} (U+{ord(char):04X}), used in {', '.join(files)}", file=sys.stderr)
            failed = failed or bool(missing)
        if failed:
            print("rebuild the fonts: .venv/bin/python tools/build_cjk_font.py", file=sys.stderr)
            return 1
        print(f"{' and '.join(WEIGHTS.values())} have all {len(needed)} characters the pages use")
        return 0

    for source_name, output_name in WEIGHTS.items():
        source = args.sources / source_name
        if not source.exists():
            print(f"no source font at {source}: apt-get install fonts-noto-cjk, or pass --sources", file=sys.stderr)
            return 1
        output = FONTS / output_name
        build(needed, source, output)
        print(f"{output.relative_to(REPO)}: {len(needed)} characters, {output.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
