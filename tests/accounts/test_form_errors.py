"""Each error of the sign-up and log-in forms sits under the field it concerns, in an element the
field's aria-describedby names (templates/accounts/_field.html, accounts/forms.py)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def fields(html: str) -> dict[str, str]:
    """Each form field's block (label, input, errors, help) by its input's name."""
    blocks = re.findall(r'<div class="field[^"]*">(.*?)\n</div>', html, re.S)
    named = {}
    for block in blocks:
        name = re.search(r'<input[^>]* name="([^"]+)"', block)
        if name:
            named[name.group(1)] = block
    return named


def describedby(block: str) -> list[str]:
    found = re.search(r'<input[^>]* aria-describedby="([^"]+)"', block)
    return found.group(1).split() if found else []


def sign_up(client, **data: str) -> dict[str, str]:
    response = client.post(reverse("signup"), data)
    assert response.status_code == 200  # refused: the form again
    return fields(response.content.decode())


def test_a_too_short_password_is_said_under_the_password(client):
    shown = sign_up(client, username="newcomer", password1="abc", password2="abc")
    password, confirmation = shown["password1"], shown["password2"]
    assert "This password is too short" in password
    assert 'data-testid="field-error"' not in confirmation
    # The error is the field's description, with its help, and the input says it is invalid.
    assert 'id="id_password1_error"' in password
    assert describedby(password) == ["id_password1_helptext", "id_password1_error"]
    assert 'aria-invalid="true"' in password
    # Under the input: before its help text.
    assert password.index("id_password1_error") < password.index('id="id_password1_helptext"')


def test_passwords_that_differ_are_said_under_the_confirmation(client):
    shown = sign_up(client, username="newcomer", password1="long-enough-1", password2="long-enough-2")
    assert "didn’t match" in shown["password2"]
    assert describedby(shown["password2"]) == ["id_password2_helptext", "id_password2_error"]
    assert 'data-testid="field-error"' not in shown["password1"]


def test_a_taken_username_is_said_under_the_username(client, make_user):
    make_user("taken")
    shown = sign_up(client, username="taken", password1="long-enough-1", password2="long-enough-1")
    assert "already exists" in shown["username"]
    assert "id_username_error" in describedby(shown["username"])
    assert all('data-testid="field-error"' not in shown[name] for name in ("password1", "password2"))


def test_a_field_without_error_names_no_error_element(client):
    shown = fields(client.get(reverse("signup")).content.decode())
    assert set(shown) == {"username", "password1", "password2"}
    for name, block in shown.items():
        assert f"id_{name}_error" not in block
        assert all(target.endswith("_helptext") for target in describedby(block)), name


def test_a_good_sign_up_still_signs_up(client):
    response = client.post(reverse("signup"), {"username": "newcomer", "password1": "long-enough-1",
                                               "password2": "long-enough-1"})
    assert response.status_code == 302
