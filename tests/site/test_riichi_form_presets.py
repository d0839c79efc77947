"""The lobby's riichi create form: it starts on the recommended preset (Tenhou's rules, not the
engine's default) and says what each preset plays; every preset stays offered under its own name,
and the engine's default for a table naming none is unchanged (games/site/pages.py)."""

from __future__ import annotations

import html
import re

import pytest

from games.riichi.engine import presets
from games.site import pages

pytestmark = pytest.mark.django_db


def options(page: str) -> dict[str, dict[str, str]]:
    """The preset list's options by value: their text, line of help and whether chosen."""
    select = re.search(r'<select id="create-preset"(.*?)</select>', page, re.S)
    assert select is not None
    found = {}
    for attrs, text in re.findall(r"<option ([^>]*)>([^<]*)</option>", select.group(1)):
        value = re.search(r'value="([^"]*)"', attrs).group(1)
        line = re.search(r'data-help="([^"]*)"', attrs).group(1)
        found[value] = {"text": html.unescape(text), "help": html.unescape(line), "selected": " selected" in attrs}
    return found


def test_the_form_starts_on_tenhou_and_explains_every_preset(client, make_user):
    client.force_login(make_user())
    page = client.get("/").content.decode()
    shown = options(page)
    assert list(shown) == list(presets.PRESETS)  # every id still offered, in the same order
    assert [name for name, o in shown.items() if o["selected"]] == ["tenhou"] == [pages.RIICHI_FORM_PRESET]
    assert shown["tenhou"]["text"] == "Tenhou-like (東南戦) (recommended)"
    for name, option in shown.items():
        assert option["help"].startswith(presets.PRESETS[name].description), name
    assert "start here if unsure" in shown["tenhou"]["help"]
    # The chosen one's line is on the page itself, not only in the options' attributes.
    line = re.search(r'<p id="create-preset-help"[^>]*>([^<]*)</p>', page)
    assert line is not None and html.unescape(line.group(1)) == shown["tenhou"]["help"]
    # The page omits a preset only when it is the engine's own default, which stays Majiang's.
    assert 'data-omit="majiang"' in page
    assert presets.DEFAULT_PRESET == "majiang"
    assert presets.preset_name({}) == "majiang"
