"""The scripted clients whose sessions are recorded (``record.py``), one per protocol. Each plays
deterministically: it waits for every answer it expects before it sends again, and decides only from
what it was sent (the first legal action, the drawn tile, a pass), so the same server sends the same
bytes on every run. The replay (``wire.replay``) does not run these: it sends what they sent."""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Awaitable, Callable
from typing import Any

from tests.wire.wire import Link, Recorder

Scenario = Callable[[Recorder], Awaitable[None]]
BAD_TOKEN = "0" * 64  # no such token


def kind(text: str) -> str:
    return json.loads(text).get("type", "")


# -- (1) the lobby protocol (seed 003) on /ws/bot/: an Acquire game with house bots ---------------


def acquire_params(legal: dict[str, Any]) -> list[Any]:
    """The parameters of the first choice ``legal`` (an entry of ``legal``) offers."""
    action = legal["type"]
    if action == "StartGame":
        return []
    if action == "PlayTile":
        return [legal["tiles"][0]]
    if action in ("SelectNewChain", "SelectMergerSurvivor", "SelectChainToDisposeOfNext"):
        return [legal["chains"][0]]
    if action == "DisposeOfShares":
        return [0, 0]  # keep them all
    if action == "PurchaseShares":
        affordable = sorted(int(chain) for chain in legal["affordable"])
        return [affordable[:1], 0]  # one share of the first chain one can afford
    raise AssertionError(f"no choice for {legal}")


async def lobby(rec: Recorder) -> None:
    tokens, game = rec.setup["tokens"], rec.setup["games"]["acquire"]
    # Refused log-ins: a bad token, a frame that is not JSON; each a FatalError, then the close.
    for name, frame in (("bad-token", json.dumps({"type": "Login", "version": 1, "token": BAD_TOKEN})),
                        ("not-json", "Login please")):
        bad = await rec.ws(name, "/ws/bot/")
        await bad.send(frame)
        await bad.recv()
        await bad.closed()

    ann = await rec.ws("ann", "/ws/bot/")
    await ann.send_json({"type": "Login", "version": 1, "token": tokens["ann"], "games": [{"game": game,
                                                                                              "history_size": 2}]})
    await ann.recv()  # Greetings
    bob = await rec.ws("bob", "/ws/bot/")
    await bob.send_json({"type": "Login", "version": 1, "username": "bob", "token": tokens["bob"], "history": False})
    await bob.recv()  # Greetings
    await ann.until(lambda m: kind(m) == "ClientConnected")

    # ann takes up her game; bob watches it.
    await ann.send_json({"type": "EnterGame", "game": game})
    snapshot = json.loads(await ann.until(lambda m: kind(m) == "Snapshot"))
    await ann.until(lambda m: kind(m) == "ClientEnteredGame")
    await bob.until(lambda m: kind(m) == "ClientEnteredGame")
    await bob.send_json({"type": "EnterGame", "game": game, "from": 3})
    await bob.until(lambda m: kind(m) == "Snapshot")
    await bob.until(lambda m: kind(m) == "ClientEnteredGame")
    await ann.until(lambda m: kind(m) == "ClientEnteredGame")

    me, v, legal = snapshot["position"], snapshot["v"], snapshot["legal"]
    # Refused: a tile that is not one, a move from the future, a move by someone not seated, a
    # frame that is not JSON, an unknown type; each an Error, and nothing changes.
    for who, frame in ((ann, {"type": "DoGameAction", "game": game, "v": v, "action": "PlayTile", "params": [200],
                              "ref": "bad-tile"}),
                       (ann, {"type": "DoGameAction", "game": game, "v": v + 50, "action": legal[0]["type"],
                              "params": acquire_params(legal[0]), "ref": "stale"}),
                       (bob, {"type": "DoGameAction", "game": game, "v": v, "action": "PlayTile", "params": [0]}),
                       (ann, {"type": "Resign", "game": game})):
        await who.send_json(frame)
        await who.recv()
    await ann.send("{not json")
    await ann.recv()

    # Normal play: ann's first legal choice each time, the bots between; bob sees every push.
    for turn in range(14):
        action = legal[0]
        move = {"type": "DoGameAction", "game": game, "v": v, "action": action["type"],
                "params": acquire_params(action), "seat": me, "ref": f"m{turn}"}
        await ann.send_json(move)
        await ann.until(lambda m: kind(m) == "ActionApplied")
        while True:
            push = json.loads(await ann.until(lambda m: kind(m) == "GameMessages"))
            if me in push["to_act"] or not push["to_act"]:
                break
        v, legal = push["v"], push["legal"]
        await bob.until(lambda m, v=v: kind(m) == "GameMessages" and json.loads(m)["v"] == v)
        if not legal:
            break
    # The last move again, answering a v ann answered already: DuplicateAction.
    await ann.send_json(move | {"ref": "again"})
    await ann.recv()

    # Chat at the table and in the lobby.
    await ann.send_json({"type": "Chat", "game": game, "text": "good luck, bots"})
    for link in (ann, bob):
        await link.until(lambda m: kind(m) == "Chat")
    await bob.send_json({"type": "Chat", "game": None, "text": "anyone for Acquire?"})
    for link in (bob, ann):
        await link.until(lambda m: kind(m) == "Chat")
    await bob.send_json({"type": "Chat", "game": None, "text": " "})
    await bob.recv()

    # bob sets a table up, changes it and leaves it: everyone hears of each change.
    await bob.send_json({"type": "CreateGame", "game_type": "acquire", "mode": 2})
    created = json.loads(await bob.until(lambda m: kind(m) == "GameCreated"))
    table = created["game"]
    for link in (bob, ann):
        await link.until(lambda m: kind(m) == "ClientEnteredGame")
    await ann.send_json({"type": "ChangeMode", "game": table, "mode": 3})
    await ann.recv()  # NotHost
    for frame, answer in (({"type": "ChangeMode", "game": table, "mode": 3}, "GameModeChanged"),
                          ({"type": "AddBot", "game": table}, "UserJoinedGame")):
        await bob.send_json(frame)
        for link in (bob, ann):
            joined = json.loads(await link.until(lambda m, answer=answer: kind(m) == answer))
    await bob.send_json({"type": "Kick", "game": table, "user": joined["user"]})
    for link in (bob, ann):
        await link.until(lambda m: kind(m) == "UserLeftGame")
    await bob.send_json({"type": "LeaveGame", "game": table})
    for link in (bob, ann):
        await link.until(lambda m: kind(m) == "GameInactive")

    # ann asks for what she missed from the tenth history message on.
    await ann.send_json({"type": "Resync", "game": game, "from": 10})
    await ann.until(lambda m: kind(m) == "Snapshot")
    await bob.close()
    await ann.until(lambda m: kind(m) == "ClientDisconnected")
    await ann.close()


# -- (2) Majiang's protocol (seed 001) on /ws/majiang/ ----------------------------------------------


def majiang_hand(text: str) -> set[str]:
    """The tiles of a Majiang hand string (``m123p055z1``; ``0`` a red five) as ``m1``, ``p5``, …"""
    tiles, suit = set(), ""
    for char in text:
        if char in "mpsz":
            suit = char
        elif char.isdigit() and suit:
            tiles.add(f"{suit}{char if char != '0' else '5'}")
    return tiles


def absent_tile(hand: set[str]) -> str:
    return next(f"{s}{n}" for s in "mpsz" for n in range(1, 8) if f"{s}{n}" not in hand)


class MajiangSeat:
    """The seat's side of seed 001, kept from its frames: the hand (to name a tile it lacks), and
    the reply it makes to every question: nothing (the default: tsumogiri after a draw, a pass on a
    discard, ready after a hand's end)."""

    def __init__(self) -> None:
        self.hand: set[str] = set()
        self.me = -1  # l of this seat in the hand

    def see(self, kind: str, data: Any) -> None:
        if kind == "qipai":
            [own] = [i for i, hand in enumerate(data["shoupai"]) if hand]
            self.me, self.hand = own, majiang_hand(data["shoupai"][own])
        elif kind in ("zimo", "gangzimo") and data["l"] == self.me and data["p"]:
            self.hand.add(data["p"][:2].replace("0", "5"))


async def majiang(rec: Recorder) -> None:
    token, game = rec.setup["tokens"]["mia"], rec.setup["games"]["riichi"]
    # Refused before a log-in: a frame other than login, a bad token; each error, then the close.
    for name, frame in (("anon", {"type": "join", "game": game}), ("bad-token", {"type": "login", "token": BAD_TOKEN})):
        bad = await rec.ws(name, "/ws/majiang/")
        await bad.send_json(frame)
        await bad.recv()
        await bad.closed()

    mia = await rec.ws("mia", f"/ws/majiang/?token={token}")
    await mia.recv()  # welcome, listing her game in progress
    # Refused at no table; then a table opened and left again.
    for frame in ({"type": "dapai", "data": "m1", "seq": 1}, {"type": "join", "game": 999},
                  {"type": "join", "game": "x"}, {"type": "open", "rules": {"preset": "nope"}}, {"type": "leave"},
                  {"type": "hello"}, "[1, 2]"):
        await (mia.send(frame) if isinstance(frame, str) else mia.send_json(frame))
        await mia.recv()
    await mia.send_json({"type": "open", "rules": {"preset": "east"}})
    await mia.until(lambda m: kind(m) == "table")
    await mia.send_json({"type": "leave"})
    await mia.until(lambda m: kind(m) == "end")

    # Her game: kaiju, the hand so far, her question last.
    await mia.send_json({"type": "join", "game": game})
    await play_seed001(mia, json.loads, lambda reply: json.dumps(reply, ensure_ascii=False))
    await mia.close()


async def play_seed001(link: Link, frame_of: Callable[[str], dict[str, Any]],
                       text_of: Callable[[dict[str, Any]], str]) -> None:
    """Play seed 001 from a seat's first frame to the first question of the next hand: the default
    reply to every question, but at the seat's first draw a row of refused replies (each answered
    with the error and, when the reply itself was wrong, the question again), then the drawn tile
    and the same reply once more (DuplicateAction). ``frame_of`` reads a server message as a seed
    001 frame, ``text_of`` writes a reply in the dialect's form."""
    seat = MajiangSeat()
    refused = ended = False
    while True:
        frame = frame_of(await link.recv())
        seat.see(frame["type"], frame.get("data"))
        ended = ended or frame["type"] in ("hule", "pingju")
        if "seq" not in frame:
            continue
        if ended and frame["type"] not in ("hule", "pingju"):
            return
        seq = frame["seq"]
        if frame["type"] == "zimo" and not refused:
            tile = frame["data"]["p"]
            for reply in ({"type": "dapai", "data": "x9", "seq": seq},
                          {"type": "dapai", "data": absent_tile(seat.hand), "seq": seq},
                          {"type": "fulou", "data": "m1-23", "seq": seq},
                          {"type": "dapai", "data": tile},
                          {"type": "dapai", "data": tile, "seq": "x"},
                          {"type": "dapai", "data": tile, "seq": seq + 50}):
                await link.send(text_of(reply))
                await link.recv()  # the error
                if reply.get("seq") != seq + 50:
                    await link.recv()  # the question again
            reply = {"type": "dapai", "data": f"{tile}_", "seq": seq}
            await link.send(text_of(reply))
            frame = frame_of(await link.until(lambda m: "seq" in frame_of(m)))  # up to the next question
            await link.send(text_of(reply))
            await link.recv()  # DuplicateAction
            refused = True
        await link.send(text_of({"type": "", "data": None, "seq": frame["seq"]}))


# -- (3) majiang-server's socket.io dialect under /majiang, over Engine.IO's WebSocket transport -----

SIO = "/majiang/socket.io/?EIO=4&transport=websocket"


def sio_event(text: str) -> list[Any]:
    """A socket.io event packet (``42[name, args…]``) as its list."""
    assert text.startswith("42"), text
    return json.loads(text[2:])


def sio_frame(text: str) -> dict[str, Any]:
    """A ``GAME`` event (majiang-server's form, the type as the key) as a seed 001 frame; any other
    event as a frame of its own name."""
    name, *args = sio_event(text)
    if name != "GAME":
        return {"type": name}
    message = args[0]
    [key] = [k for k in message if k not in ("seq", "timer")]
    return {"type": key, "data": message[key]} | ({"seq": message["seq"]} if "seq" in message else {})


def sio_reply(reply: dict[str, Any]) -> str:
    message = ({reply["type"]: reply["data"]} if reply["type"] else {}) | ({"seq": reply["seq"]} if "seq" in reply
                                                                           else {})
    return "42" + json.dumps(["GAME", message], ensure_ascii=False)


async def sio(rec: Recorder) -> None:
    token, game = rec.setup["tokens"]["sol"], rec.setup["games"]["riichi"]
    # Log-ins refused (a bare name, a bad token), then the cookie.
    for name in ("sol", f"sol:{BAD_TOKEN}", f"sol:{token}"):
        await rec.http("POST", "/majiang/auth/", form=urllib.parse.urlencode({"name": name, "passwd": "*"}))
    # Without the cookie: HELLO null, ERROR, the disconnect and the close.
    anon = await rec.ws("anon", SIO)
    await anon.recv()  # Engine.IO's open packet
    await anon.send("40")  # socket.io's connect
    await anon.until(lambda m: m == "1")  # ... Engine.IO's close
    await anon.closed()

    sol = await rec.ws("sol", SIO, {"Cookie": "MAJIANG={cookie}"})
    await sol.recv()
    await sol.send("40")
    await sol.recv()  # connected
    await sol.recv()  # HELLO
    for packet in ('42["ROOM","999999"]', '42["START"]', '42["HELLO"]', '42["GAME","dapai"]', '42["ROOM","one"]'):
        await sol.send(packet)
        await sol.recv()
    await sol.send("42" + json.dumps(["ROOM", str(game)]))
    await sol.recv()  # START
    await play_seed001(sol, sio_frame, sio_reply)
    # Logging out ends the cookie's session and disconnects its links.
    await rec.http("POST", "/majiang/logout", cookie=True)
    await sol.until(lambda m: m == "1")
    await sol.closed()


# -- (4) UMP (seed 004) over TCP -----------------------------------------------------------------

UMP_TILES = [f"{n}{suit}" for suit in "mpsz" for n in range(1, 10 if suit != "z" else 8)]


def ump_tiles(hand: str) -> set[str]:
    """The tiles of a UMP hand (``4m4m6m5M<5z5z5z>``; a red five as a five)."""
    return {hand[i:i + 2].lower() for i in range(0, len(hand) - 1) if hand[i].isdigit() and hand[i + 1] in "mpszMPS"}


async def ump(rec: Recorder) -> None:
    token, game = rec.setup["tokens"]["uma"], rec.setup["games"]["riichi"]
    # Refused log-ins: a bad token; a line before the hello. Each one error line, then the close.
    for name, line in (("bad-token", f"1 hello ump=1 user=uma password={BAD_TOKEN}\r\n"), ("no-hello", "1 no\r\n")):
        bad = await rec.tcp(name, "ump")
        await bad.recv()  # the server's hello
        await bad.send(line)
        await bad.recv()
        await bad.closed()

    uma = await rec.tcp("uma", "ump")
    await uma.recv()
    await uma.send(f"1 hello ump=1 name=uma user=uma password={token} _game={game}\r\n")
    me, hand, drawn = "", set(), ""
    refused = ended = False
    while True:
        serial, command, *args = (await uma.recv()).rstrip("\r\n").split(" ")
        if command == "seat":
            me = args[1]
        elif command == "haipai" and args[0] == me:
            hand = ump_tiles(args[1])
        elif command == "tsumo" and args[0] == me:
            drawn = args[2]
            hand.add(drawn.lower())
        elif command == "kyokuend":
            ended = True
        elif command == "sutehai?" and ended:
            break  # the next hand's first question: enough
        elif command == "sutehai?":
            if not refused:
                # Refused answers, each an error and (but for the wrong serial) the question again
                # under a new serial; then the drawn tile, tsumogiri.
                absent = next(tile for tile in UMP_TILES if tile not in hand)
                for answer in ("sutehai 9x", "no", f"sutehai {absent}", "sutehai", "tsumo"):
                    await uma.send(f"{serial} {answer}\r\n")
                    await uma.recv()  # the error
                    serial = (await uma.recv()).split(" ")[0]  # asked again
                await uma.send(f"{int(serial) - 1} sutehai {drawn} tsumogiri\r\n")
                await uma.recv()  # WrongSerial: the question stands
                refused = True
            await uma.send(f"{serial} sutehai {drawn} tsumogiri\r\n")
        elif command == "naki?":
            await uma.send(f"{serial} no\r\n")
        elif command == "tenpai?":
            await uma.send(f"{serial} tenpai\r\n")
    await uma.close()


# -- (5) mmj (seed 000) over TCP ------------------------------------------------------------------

MMJ_TILES = [f"{suit}{n}" for suit in "cdb" for n in range(1, 10)] + ["we", "ws", "ww", "wn", "dw", "dg", "dr"]


def counted(text: str) -> str:
    return f"{len(text.encode())}:{text}"


async def mmj(rec: Recorder) -> None:
    token, game = rec.setup["tokens"]["moe"], rec.setup["games"]["riichi"]
    bad = await rec.tcp("bad-token", "mmj")
    await bad.send(f"mmj1c {counted(f'moe/{BAD_TOKEN}')}\n")
    await bad.recv()  # reject
    await bad.closed()

    moe = await rec.tcp("moe", "mmj")
    await moe.send(f"mmj1c {counted(f'moe/{token}/{game}')}\n")
    me, hand, drawn = "", [], ""
    refused = ended = False
    while True:
        command, *args = (await moe.recv()).rstrip("\n").split(" ")
        if command == "game":
            me = args[0]
        elif command == "move" and args[2] == f"h{me}" and args[0] != "?" and args[1] != args[2]:
            hand.append(args[0])
            drawn = args[0]
        elif command == "move" and args[1] == f"h{me}" and args[1] != args[2]:
            hand.remove(args[0])
        elif command in ("win", "draw"):
            ended = True
        elif command == "play" and ended:
            break  # the next hand's first question: enough
        elif command == "play":
            if not refused:
                # Refused operations, each a reject and the question again.
                absent = next(tile for tile in MMJ_TILES if tile not in hand)
                for operation in (f"discard {absent}", "swap c1", "out", "pass", f"ckong {drawn}"):
                    await moe.send(f"{operation}\n")
                    await moe.recv()  # reject
                    await moe.recv()  # play
                await moe.send(f"chat 234 . {counted('nice tiles')}\n")
                refused = True
            await moe.send(f"discard {drawn}\n")
        elif command == "claim":
            await moe.send("pass\n")
        elif command == "ack":
            await moe.send("ack\n")
    await moe.close()


# -- (6) CRIBBAGEBBER (seed 002) over TCP and over WebSocket ------------------------------------

CARD_VALUES = {"A": 1, "0": 10, "J": 10, "Q": 10, "K": 10} | {str(n): n for n in range(2, 10)}


async def play_cribbage(link: Link, me: str, end: str) -> None:
    """Play from the deal to the next deal: lay away the first two cards, play the first card that
    keeps the count within 31; a few refused commands on the way. ``end`` ends a line sent."""
    hand: list[str] = []  # "19H": the card's number, rank, suit
    count, deals, refused = 0, 0, False
    while True:
        line = (await link.recv()).rstrip("\r\n")
        command, _, rest = line.partition(":")
        if command == "SE":
            deals += 1
            if deals == 2:
                return  # the house bot's laying away follows
            cards = rest.split(";")[2]
            hand = [cards[i:i + 3] for i in range(0, len(cards), 3)]
            await link.until(lambda line: line.startswith("UD:"))  # the house bot lays away at the deal
            for bad in ("CR:1", "CR:17", "PL:1", "NP:3", "XX:"):  # one card; no card 7; not the play yet; ...
                await link.send(bad + end)
                await link.recv()
            await link.send("CR:12" + end)
        elif command == "DI":
            hand = [card for card in hand if card[0] not in rest]
        elif command == "RS":
            count = 0
        elif command == "PL":
            who, card, _, now = rest.split("/")
            count = int(now)
            hand = [c for c in hand if not (who == me and c[1:] == card[1:])]
        elif command == "AC" and rest == me:
            playable = [c for c in hand if count + CARD_VALUES[c[1]] <= 31]
            if not refused:
                for bad in ("PL:9", "CR:34", "PA:", "UP:"):
                    await link.send(bad + end)
                    await link.recv()
                refused = True
            await link.send(f"PL:{playable[0][0]}" + end)


async def cribbage(rec: Recorder) -> None:
    tokens, games = rec.setup["tokens"], rec.setup["games"]
    # Over TCP: refused log-ins (a bad token; another's name), then cat's game in progress.
    bad = await rec.tcp("bad-token", "cribbage")
    await bad.recv()  # P:
    await bad.send(f"IM:cat/{BAD_TOKEN}\n")
    await bad.recv()
    await bad.closed()
    cat = await rec.tcp("cat", "cribbage")
    await cat.recv()
    await cat.send(f"IM:cyd/{tokens['cat']}\n")
    await cat.recv()  # BADNICK: try again
    await cat.send(f"IM:cat/{tokens['cat']}\n")
    await play_cribbage(cat, "cat", "\n")
    await cat.send("ME:well played\n")
    await cat.until(lambda line: line.startswith("ME:"))
    await cat.send("QU:\n")
    await cat.recv()
    await cat.closed()

    # Over WebSocket: a table that is not there, then cyd's game by its address, the token on the URL.
    gone = await rec.ws("no-game", f"/ws/cribbage/999/?token={tokens['cyd']}")
    await gone.recv()  # E:GAME
    await gone.closed()
    cyd = await rec.ws("cyd", f"/ws/cribbage/{games['ws']}/?token={tokens['cyd']}")
    await cyd.recv()
    await cyd.send("IM:cyd")
    await play_cribbage(cyd, "cyd", "")
    await cyd.send("ME:well played")
    await cyd.until(lambda line: line.startswith("ME:"))
    await cyd.send("QU:")
    await cyd.recv()
    await cyd.closed()


# -- (7) REST ---------------------------------------------------------------------------------------


async def rest(rec: Recorder) -> None:
    tokens, game, cribbage = rec.setup["tokens"], rec.setup["games"]["acquire"], rec.setup["games"]["cribbage"]
    rae, ray = tokens["rae"], tokens["ray"]
    await rec.http("GET", "/api/game-types/")
    await rec.http("GET", "/api/games/")
    await rec.http("GET", "/api/games/?game_type=cribbage&status=active&player=rae")
    await rec.http("GET", f"/api/games/{game}/")
    await rec.http("GET", "/api/games/999/")
    await rec.http("GET", f"/api/games/{game}/history/?start=2")
    await rec.http("GET", f"/api/games/{game}/snapshot/", token=ray)  # a spectator's
    status, text = await rec.http("GET", f"/api/games/{game}/snapshot/", token=rae)
    snapshot = json.loads(text)
    v, legal = snapshot["v"], snapshot["legal"]
    # Refused: no token, a bad token, a tile that is not one, another's seat, a move from the future.
    move = {"action": legal[0]["type"], "params": acquire_params(legal[0]), "v": v}
    await rec.http("POST", f"/api/games/{game}/moves/", body=move)
    await rec.http("POST", f"/api/games/{game}/moves/", token=BAD_TOKEN, body=move)
    await rec.http("POST", f"/api/games/{game}/moves/", token=rae, body={"action": "PlayTile", "params": [500], "v": v})
    await rec.http("POST", f"/api/games/{game}/moves/", token=rae, body=move | {"seat": snapshot["position"] + 1})
    await rec.http("POST", f"/api/games/{game}/moves/", token=rae, body=move | {"v": v + 40})
    await rec.http("POST", f"/api/games/{game}/moves/", token=ray, body=move)
    # Three moves of rae's.
    for _ in range(3):
        await rec.http("POST", f"/api/games/{game}/moves/", token=rae, body=move)
        status, text = await rec.http("GET", f"/api/games/{game}/snapshot/", token=rae)
        snapshot = json.loads(text)
        if not snapshot["legal"]:
            break
        v, legal = snapshot["v"], snapshot["legal"]
        move = {"action": legal[0]["type"], "params": acquire_params(legal[0]), "v": v}
    await rec.http("POST", f"/api/games/{game}/moves/", token=rae, body={"action": "PlayTile"})
    await rec.http("GET", f"/api/games/{game}/history/?start=0", token=rae)
    await rec.http("GET", f"/api/games/{game}/replay/?step=3", token=rae)
    await rec.http("GET", f"/api/games/{cribbage}/snapshot/", token=rae)
    await rec.http("GET", "/api/players/rae/")


SCENARIOS: dict[str, Scenario] = {"lobby": lobby, "majiang": majiang, "sio": sio, "ump": ump, "mmj": mmj,
                                  "cribbage": cribbage, "rest": rest}
