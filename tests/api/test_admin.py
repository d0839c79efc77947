"""The staff admin: game list with filters and search, read-only pages, and service-backed actions."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Action, ChatMessage, Game, Status
from games.models import Client as Connection
from games.service import chat, lifecycle, lobby

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/games/game/"


@pytest.fixture
def admin_client(make_user) -> Client:
    client = Client()
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    return client


def result_ids(response) -> set[int]:
    assert response.status_code == 200
    return {g.id for g in response.context["cl"].result_list}


def test_changelist_and_filters(admin_client, alice, bob, carol):
    a = lobby.create_table(alice, "acquire", 2)
    b = lobby.create_table(bob, "acquire", 3)
    lobby.join(carol, b.id)
    lifecycle.abort(a.id)
    Game.objects.filter(id=a.id).update(created=timezone.now() - timedelta(days=30))

    response = admin_client.get(CHANGELIST)
    assert result_ids(response) == {a.id, b.id}
    content = response.content.decode()
    for sidebar in ("By game type", "By status", "By created", "By player"):
        assert sidebar in content
    assert "bob, carol" in content  # the players column

    assert result_ids(admin_client.get(CHANGELIST, {"status": "aborted"})) == {a.id}
    assert result_ids(admin_client.get(CHANGELIST, {"game_type": "acquire"})) == {a.id, b.id}
    assert result_ids(admin_client.get(CHANGELIST, {"player": "carol"})) == {b.id}
    assert result_ids(admin_client.get(CHANGELIST, {"player": "nobody"})) == set()
    # The parameters DateFieldListFilter's "Past 7 days" link sends.
    today = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
    assert result_ids(admin_client.get(CHANGELIST, {"created__gte": str(today - timedelta(days=7)),
                                                    "created__lt": str(today + timedelta(days=1))})) == {b.id}


@pytest.mark.parametrize(("term", "expected"), [("bob", "b"), ("carol", "b"), ("ali", "a"), ("zzz", ""),
                                                ("id", ""), ("nonsense 12", "")])
def test_changelist_search(admin_client, alice, bob, carol, term, expected):
    games = {"a": lobby.create_table(alice, "acquire", 2), "b": lobby.create_table(bob, "acquire", 3)}
    lobby.join(carol, games["b"].id)
    assert result_ids(admin_client.get(CHANGELIST, {"q": term})) == {games[k].id for k in expected}


def test_changelist_search_by_id(admin_client, alice):
    games = [lobby.create_table(alice, "acquire", 2) for _ in range(3)]
    assert result_ids(admin_client.get(CHANGELIST, {"q": str(games[1].id)})) == {games[1].id}


def test_change_page_of_a_table(admin_client, table, bob):
    lobby.join(bob, table.id)
    chat.post_chat(bob, table.id, "hello admins")
    response = admin_client.get(f"{CHANGELIST}{table.id}/change/")
    assert response.status_code == 200
    content = response.content.decode()
    for name in ("api-game", "api-game-history", "api-game-export", "api-game-snapshot", "api-game-chat"):
        assert reverse(name, args=[table.id]) in content
    assert reverse("api-game-replay", args=[table.id]) not in content  # nothing to replay yet
    assert reverse("admin:games_game_remove_player", args=[table.id]) in content
    assert "hello admins" in content
    # Read-only: no save buttons, no inline add or delete.
    assert 'name="_save"' not in content
    for prefix in ("seats", "chat"):  # no action log before the game is over
        assert f'name="{prefix}-MAX_NUM_FORMS" value="0"' in content  # no inline rows can be added
    assert "-DELETE" not in content


def test_change_page_of_a_started_game(admin_client, live):
    # Staff see of a live game what a spectator sees: no seed, no action log, no review link.
    # Once it is over (here: aborted), all of it.
    game = live.refresh()
    page = admin_client.get(f"{CHANGELIST}{game.id}/change/")
    content = page.content.decode()
    assert f"{reverse('api-game-replay', args=[game.id])}?step={game.seq}" in content
    inlines = {formset.opts.model for formset in page.context["inline_admin_formsets"]}
    assert Action not in inlines
    assert str(game.seed) not in content and "Seed" not in content
    assert reverse("api-game-review", args=[game.id]) not in content
    lifecycle.abort(game.id)
    page = admin_client.get(f"{CHANGELIST}{game.id}/change/")
    content = page.content.decode()
    assert Action in {formset.opts.model for formset in page.context["inline_admin_formsets"]}
    assert str(game.seed) in content
    assert all(t in content for t in set(game.actions.values_list("type", flat=True)))
    if game.game_type == "acquire":
        assert reverse("api-game-review", args=[game.id]) in content


def test_linked_downloads_work_for_staff(admin_client, live):
    game = live.refresh()
    for name in ("api-game", "api-game-history", "api-game-export", "api-game-snapshot", "api-game-chat"):
        assert admin_client.get(reverse(name, args=[game.id])).status_code == 200, name
    replay = admin_client.get(reverse("api-game-replay", args=[game.id]), {"step": game.seq})
    assert replay.status_code == 200


def test_no_add_delete_or_edit(admin_client, table):
    assert admin_client.get(f"{CHANGELIST}add/").status_code == 403
    assert admin_client.get(f"{CHANGELIST}{table.id}/delete/").status_code == 403
    assert admin_client.post(f"{CHANGELIST}{table.id}/change/", {"status": "finished"}).status_code == 403
    assert Game.objects.get(id=table.id).status == Status.SETUP


def test_abort_action(admin_client, alice, bob):
    a = lobby.create_table(alice, "acquire", 2)
    b = lobby.create_table(bob, "acquire", 2)
    lifecycle.abort(b.id)
    response = admin_client.post(CHANGELIST, {"action": "abort_games", "_selected_action": [a.id, b.id]},
                                 follow=True)
    assert response.status_code == 200
    assert Game.objects.get(id=a.id).status == Status.ABORTED
    text = [str(m) for m in response.context["messages"]]
    assert f"Aborted #{a.id}." in text
    assert any(f"Not aborted: #{b.id}" in m for m in text)


def test_abort_action_on_a_live_game(admin_client, live):
    admin_client.post(CHANGELIST, {"action": "abort_games", "_selected_action": [live.game.id]})
    assert live.refresh().status == Status.ABORTED


def test_remove_player_from_a_table(admin_client, table, bob):
    lobby.join(bob, table.id)
    url = reverse("admin:games_game_remove_player", args=[table.id])
    form = admin_client.get(url, {"user": bob.id})
    assert form.status_code == 200
    assert "bob" in form.content.decode() and "alice" in form.content.decode()
    response = admin_client.post(url, {"user": bob.id}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("admin:games_game_change", args=[table.id])
    assert list(table.seats.values_list("user__username", flat=True)) == ["alice"]
    assert any("Removed bob" in str(m) for m in response.context["messages"])


def test_remove_player_from_a_live_game_forfeits(admin_client, live):
    user = live.players[1]
    admin_client.post(reverse("admin:games_game_remove_player", args=[live.game.id]), {"user": user.id})
    assert live.game.seats.get(user=user).forfeited is True


def test_remove_player_refused_by_the_service(admin_client, table):
    lifecycle.abort(table.id)
    alice_id = table.host_id
    response = admin_client.post(reverse("admin:games_game_remove_player", args=[table.id]), {"user": alice_id},
                                 follow=True)
    assert any("GameNotInSetup" in str(m) for m in response.context["messages"])
    assert table.seats.filter(user_id=alice_id).exists()


def test_remove_player_rejects_someone_not_at_the_table(admin_client, table, carol):
    response = admin_client.post(reverse("admin:games_game_remove_player", args=[table.id]), {"user": carol.id})
    assert response.status_code == 200  # the form again, with an error
    assert response.context["form"].errors


def test_remove_player_unknown_game_redirects(admin_client):
    response = admin_client.get(reverse("admin:games_game_remove_player", args=[9999]))
    assert response.status_code == 302


def test_staff_without_change_permission(make_user, table, bob):
    viewer = make_user("viewer", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_game"))
    client = Client()
    client.force_login(viewer)
    lobby.join(bob, table.id)
    assert client.get(CHANGELIST).status_code == 200
    assert client.get(f"{CHANGELIST}{table.id}/change/").status_code == 200
    assert client.post(reverse("admin:games_game_remove_player", args=[table.id]),
                       {"user": bob.id}).status_code == 403
    response = client.post(CHANGELIST, {"action": "abort_games", "_selected_action": [table.id]})
    assert Game.objects.get(id=table.id).status == Status.SETUP
    assert response.status_code in (200, 302)
    assert table.seats.count() == 2


def test_anonymous_is_sent_to_login(table):
    response = Client().get(CHANGELIST)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_chat_and_client_admin_are_read_only(admin_client, table, alice):
    chat.post_chat(alice, table.id, "a message")
    message = ChatMessage.objects.get()
    connection = Connection.objects.create(user=alice, channel_name="specific.abc", game=table)
    for path in ("/admin/games/chatmessage/", f"/admin/games/chatmessage/{message.id}/change/",
                 "/admin/games/client/", f"/admin/games/client/{connection.id}/change/"):
        response = admin_client.get(path)
        assert response.status_code == 200, path
        assert 'name="_save"' not in response.content.decode()
    assert "a message" in admin_client.get("/admin/games/chatmessage/", {"q": "message"}).content.decode()
    assert admin_client.get("/admin/games/chatmessage/add/").status_code == 403
    assert admin_client.get(f"/admin/games/client/{connection.id}/delete/").status_code == 403
