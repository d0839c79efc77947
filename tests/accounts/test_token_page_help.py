"""The token page's "Using your token": each protocol's address on this server (the TCP ports from
the settings) and its log-in line, which a bot can send as shown with its key put in."""

from __future__ import annotations

import html
import re

import pytest

from games.riichi.protocols import mmj

pytestmark = pytest.mark.django_db


def help_text(client, user) -> str:
    client.force_login(user)
    page = client.get("/accounts/token/")
    assert page.status_code == 200
    body = page.content.decode()
    start = body.index('id="using-token"')
    return html.unescape(re.sub(r"<[^>]+>", "", body[start:body.index("</ul>", start)]))


def test_each_protocol_has_its_address_and_log_in_line(client, make_user, settings):
    settings.CRIBBAGE_PORT, settings.UMP_PORT, settings.MMJ_PORT, settings.MJAI_PORT = 7400, 7401, 7402, 7403
    text = help_text(client, make_user("alice"))
    assert 'testserver:7403' in text and '{"type":"join","name":"alice","room":"alice:<key>"}' in text
    assert 'ws://testserver/ws/bot/' in text
    assert '{"type": "Login", "version": 1, "token": "<key>"}' in text
    assert "testserver:7400" in text and "IM:alice/<key>" in text
    assert "testserver:7401" in text and "1 hello ump=1 name=alice user=alice password=<key>" in text
    assert "testserver:7402" in text
    assert "ws://testserver/ws/majiang/?token=<key>" in text
    assert "Authorization: Token <key>" in text


def test_the_mmj_line_as_shown_logs_in_with_a_real_key(client, make_user):
    text = help_text(client, make_user("bertrand"))
    shown = re.search(r"mmj1c \d+:bertrand/<key>", text)
    assert shown is not None, text
    key = "9f" * 32  # an API token's shape: 64 hex digits
    sent = shown.group(0).replace("<key>", key).encode() + b"\n"
    assert mmj.Reader("server").feed(sent) == [mmj.ClientHello(name=f"bertrand/{key}".encode())]


def test_a_port_turned_off_is_said_to_be_off(client, make_user, settings):
    settings.CRIBBAGE_PORT, settings.UMP_PORT, settings.MMJ_PORT, settings.MJAI_PORT = 0, 0, 0, 0
    text = help_text(client, make_user("carol"))
    assert "IM:carol" not in text and "1 hello" not in text and "mmj1c" not in text and '"join"' not in text
    assert "the TCP port is off on this server" in text
    assert "the UMP port is off on this server" in text
    assert "the mmj port is off on this server" in text
    assert "ws://testserver/ws/cribbage/?token=<key>" in text
