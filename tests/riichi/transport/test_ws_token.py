"""A revoked API token ends the /ws/majiang/ link that logged in with it, in the protocol's terms
(``error TokenRevoked``, close 4000), as on every other transport
(tests/transport/test_token_revocation.py); its seat in a game is then played by the server until the user comes
back. In process: the full ASGI app on the test's loop."""

from __future__ import annotations

import pytest

from accounts.tokens import create_token, revoke
from games.models import Client, Seat
from games.service import lobby

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("on_the_url", [True, False], ids=["token-on-url", "login-frame"])
async def test_a_revoked_token_ends_its_link_and_the_seat_is_away(clients, db_call, make_user, on_the_url):
    user = await db_call(make_user)
    token, key = await db_call(create_token, user)
    client = await clients(path=f"/ws/majiang/?token={key}" if on_the_url else "/ws/majiang/")
    await client.connect()
    if not on_the_url:
        await client.send({"type": "login", "token": key})
    assert (await client.expect("welcome"))["username"] == user.username
    await client.send({"type": "open", "rules": {"preset": "east"}, "bots": 2})
    game_id = (await client.expect("table"))["game"]
    # A second person, who plays elsewhere: the game waits for them, so it is still on later.
    other = await db_call(make_user)
    await db_call(lobby.join, other, game_id)
    await db_call(lobby.accept, other, game_id)
    await client.expect("kaiju")  # read past the table frames of the join and the accepts
    await db_call(revoke, user, token.id)
    assert await client.expect("error") == {"type": "error", "code": "TokenRevoked", "seq": None,
                                            "reason": "the API token this connection logged in with was revoked"}
    assert await client.comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 4000}
    assert not await db_call(lambda: Client.objects.filter(user=user).exists())
    seat = await db_call(lambda: Seat.objects.get(game_id=game_id, user=user))
    assert seat.away and not seat.forfeited
    # The user comes back with a new token and takes the seat up again.
    _, fresh = await db_call(create_token, user)
    back = await clients(path=f"/ws/majiang/?token={fresh}")
    await back.connect()
    assert {"game": game_id, "status": "active"} in (await back.expect("welcome"))["games"]
    await back.send({"type": "join", "game": game_id})
    kaiju = await back.expect("kaiju")
    assert kaiju["data"]["id"] == seat.position
    assert not (await db_call(lambda: Seat.objects.get(game_id=game_id, user=user))).away
    await db_call(lobby.leave, user, game_id)
    await db_call(lobby.leave, other, game_id)
