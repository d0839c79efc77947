import pytest

pytestmark = pytest.mark.django_db(transaction=True)


async def test_login_and_create(make_user, clients, db_call):
    alice = await db_call(make_user, "alice")
    bob = await db_call(make_user, "bob")
    a = await clients(alice)
    b = await clients(bob)
    await a.send({"type": "CreateGame", "game_type": "acquire", "mode": 2})
    created = await b.expect("GameCreated")
    assert created["mode"] == 2
    entered = await b.expect("ClientEnteredGame")
    assert entered["game"] == created["game"]
