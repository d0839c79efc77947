"""Japanese on a riichi table renders with the site's own font on a machine that has no CJK font:
Chromium runs under a fontconfig that knows only the Latin fonts (whatever the test machine has
installed), so without "Game Table JP" (static/css/fonts.css, tools/build_cjk_font.py) every kanji
and kana would be an empty box. The same page with the font's download refused shows those boxes,
so the test can tell the two apart."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.browser.pages import open_page, snap
from tests.browser.test_riichi_game import open_riichi_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FAMILY = "Game Table JP"
# Latin fonts only: Debian's DejaVu and Liberation, where installed. No CJK font, no user fonts.
LATIN_FONT_DIRS = ["/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/liberation"]
# Kanji and kana: no Latin font has them, so the fallback-only renderings below must be boxes.
KANJI_KANA = ((0x3040, 0x30FF), (0x4E00, 0x9FFF))


@pytest.fixture
def latin_only_browser(tmp_path: Path, monkeypatch):
    """Debian's Chromium, as the suite's `browser` fixture launches it, seeing only Latin fonts."""
    assert Path(CHROMIUM).exists(), f"no Chromium at {CHROMIUM}: run `make test`, which installs it"
    dirs = [d for d in LATIN_FONT_DIRS if Path(d).is_dir()]
    assert dirs, f"none of {LATIN_FONT_DIRS}: the test needs a Latin font to fall back to"
    config = tmp_path / "fonts.conf"
    config.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
        + "".join(f"  <dir>{d}</dir>\n" for d in dirs)
        + f"  <cachedir>{tmp_path / 'fontconfig-cache'}</cachedir>\n</fontconfig>\n",
        encoding="utf-8")
    from playwright import sync_api

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # as the conftest's fixture, for the ORM
    env = {**os.environ, "FONTCONFIG_FILE": str(config)}
    env.pop("FONTCONFIG_PATH", None)
    with sync_api.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS, env=env)
        try:
            yield instance
        finally:
            instance.close()


# The distinct CJK characters in the page's visible text, and the elements whose own text holds
# some, marked data-cjk-probe=<n> (with the characters each holds) for the DevTools query below.
_CJK_ON_PAGE = """() => {
  const cjk = /[\\u2E80-\\u33FF\\u3400-\\u4DBF\\u4E00-\\u9FFF\\uF900-\\uFAFF\\uFF00-\\uFFEF]/gu;
  const chars = [...new Set(document.body.innerText.match(cjk) || [])].sort();
  const probes = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!element || seen.has(element) || !element.checkVisibility()) continue;
    if (["OPTION", "SELECT", "TEXTAREA", "SCRIPT", "STYLE"].includes(element.tagName)) continue;
    const own = [...element.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.data).join("");
    const found = own.match(cjk);
    if (!found) continue;
    seen.add(element);
    element.dataset.cjkProbe = String(probes.length);
    probes.push({ text: own.trim(), cjk: found.length });
  }
  return { chars: chars.join(""), probes };
}"""

# Each character drawn on a canvas in the given font, beside the private-use U+E000, which no
# font here has: a character that falls to a box draws exactly as U+E000 does.
_RENDERS = """([chars, font]) => {
  const canvas = document.createElement("canvas");
  canvas.width = 48; canvas.height = 48;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  const draw = (c) => {
    ctx.clearRect(0, 0, 48, 48);
    ctx.font = font; ctx.textBaseline = "middle"; ctx.fillStyle = "#000";
    ctx.fillText(c, 4, 24);
    return { width: ctx.measureText(c).width, pixels: Array.from(ctx.getImageData(0, 0, 48, 48).data).join(",") };
  };
  const box = draw("\\uE000");
  return [...chars].map((c) => {
    const r = draw(c);
    return { char: c, width: r.width, box: r.pixels === box.pixels && r.width === box.width,
             inked: r.pixels.includes("255") };
  });
}"""

# The family's faces and their states, as an expression.
_FACES = f"""[...document.fonts].filter((f) => f.family.replace(/"/g, "") === "{FAMILY}")
  .map((f) => ({{ weight: f.weight, status: f.status }})).sort((a, b) => a.weight.localeCompare(b.weight))"""


def _kanji_or_kana(char: str) -> bool:
    return any(lo <= ord(char) <= hi for lo, hi in KANJI_KANA)


def _custom_glyphs(page, probes: list[dict]) -> list[tuple[str, int, int]]:
    """For each element _CJK_ON_PAGE marked: its text, its CJK characters and the glyphs a web font
    drew in it, as Chromium's DevTools reports the fonts it used for the element's own text."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    result = []
    for index, probe in enumerate(probes):
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": f'[data-cjk-probe="{index}"]'})["nodeId"]
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        result.append((probe["text"], probe["cjk"], sum(f["glyphCount"] for f in fonts if f["isCustomFont"])))
    cdp.detach()
    return result


def test_japanese_renders_with_the_served_font_without_cjk_system_fonts(live_server_url, latin_only_browser,
                                                                        artifacts):
    from playwright.sync_api import expect

    errors: list[str] = []
    page = open_page(latin_only_browser, errors)
    open_riichi_table(page, live_server_url, "tofu")
    # Wait for the player's own turn (nothing moves until they act), then open every rule.
    page.wait_for_function("""() => document.querySelector('[data-testid="riichi-bar"] button:not(:disabled), '
        + '[data-testid="my-hand"] button[data-testid="hand-tile"]:not(:disabled)')""")
    page.get_by_test_id("rules-all").locator("summary").click()
    expect(page.get_by_test_id("rules-all")).to_have_attribute("open", "")

    on_page = page.evaluate(_CJK_ON_PAGE)
    chars = on_page["chars"]
    # The table's Japanese: the preset (東風戦), the round (東1局), the seat winds, rule names.
    assert set("東風戦局南西北場数") <= set(chars), chars
    # Both faces, regular and bold (the round name and the rule chips are bold), loaded by the
    # page's own use of them, not asked for by the test.
    page.wait_for_function(f"""() => {{ const faces = {_FACES}; return document.fonts.status === "loaded"
        && faces.length === 2 && faces.every((f) => f.status === "loaded"); }}""", timeout=15_000)
    faces = page.evaluate(f"() => {_FACES}")
    assert faces == [{"weight": "400", "status": "loaded"}, {"weight": "700", "status": "loaded"}], faces
    for weight in ("", "bold "):
        assert page.evaluate(f"""async (text) => {{ await document.fonts.ready;
            return document.fonts.check('{weight}16px "{FAMILY}"', text); }}""", chars), weight

    # Every character on the page, drawn with the served face first: ink, and never the box.
    for weight in ("", "bold "):
        served = page.evaluate(_RENDERS, [chars, f'{weight}32px "{FAMILY}", sans-serif'])
        boxes = [r["char"] for r in served if r["box"] or not r["inked"]]
        assert boxes == [], f"drawn as boxes with {weight or 'regular '}{FAMILY}: {''.join(boxes)}"
    # The same characters with the fallback alone are boxes here: this browser has no CJK font, so
    # the check above can fail, and what draws them is the served font.
    fallback = page.evaluate(_RENDERS, [chars, "32px sans-serif"])
    drawn = [r["char"] for r in fallback if not r["box"] and _kanji_or_kana(r["char"])]
    assert drawn == [], f"a system font draws {''.join(drawn)}: the browser is not CJK-free"
    assert any(r["box"] for r in fallback)

    # The page's own elements (not only the canvas): every CJK character in them came from a web
    # font, as DevTools reports the fonts used for their text.
    elements = _custom_glyphs(page, on_page["probes"])
    assert len(elements) >= 10, elements
    short = [(text, cjk, custom) for text, cjk, custom in elements if custom < cjk]
    assert short == [], f"elements whose CJK is not all drawn by the served font: {short}"
    snap(page, artifacts / "cjk-font.png")

    # Without the font (its download refused) the same page draws boxes.
    page.route("**/*.woff2", lambda route: route.abort())
    page.reload()
    expect(page.get_by_test_id("riichi-table")).to_be_visible(timeout=15_000)
    page.wait_for_function(f"""() => document.fonts.status === "loaded"
        && {_FACES}.some((f) => f.status === "error")""", timeout=15_000)
    refused = page.evaluate(_RENDERS, [chars, f'32px "{FAMILY}", sans-serif'])
    drawn = [r["char"] for r in refused if not r["box"] and _kanji_or_kana(r["char"])]
    assert drawn == [], f"drawn without the served font: {''.join(drawn)}"
    refused_elements = _custom_glyphs(page, page.evaluate(_CJK_ON_PAGE)["probes"])
    assert refused_elements and all(custom == 0 for _, _, custom in refused_elements), refused_elements
    snap(page, artifacts / "cjk-font-refused.png")
    assert not errors, errors
