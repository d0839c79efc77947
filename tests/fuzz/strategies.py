"""Generated input for every parser: JSON values, lobby-protocol frames, REST bodies, CRIBBAGEBBER
lines and TCP byte streams. Values of the example's world (ids, tokens, names) appear as
``support.Sym`` and are resolved once the world exists."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from games.core.validation import is_encodable
from games.cribbage.transport.framing import MAX_LINE_BYTES
from games.riichi.engine.rule import DEFAULT_RULE as RIICHI_RULE
from games.transport.link import MAX_FRAME_BYTES, MAX_NESTING
from tests.fuzz.support import Legal, Sym


def weighted(*choices: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """One of the strategies, each with its weight (``one_of`` picks by position, not evenly); it
    shrinks towards the first."""
    total = sum(weight for weight, _ in choices)

    @st.composite
    def pick(draw: Any) -> Any:
        # Drawn wide and folded: hypothesis favours the ends of a small range.
        n = draw(st.integers(0, 2**32 - 1)) % total
        for weight, strategy in choices:
            if n < weight:
                return draw(strategy)
            n -= weight
        raise AssertionError("unreachable")

    return pick()


# -- JSON values ------------------------------------------------------------------------------------

EDGE_INTS = [0, 1, -1, 2, 3, 4, 5, 7, 2**15 - 1, 2**15, 2**31 - 1, 2**31, 2**53 - 1, 2**53, -(2**53) - 1,
             2**63 - 1, 2**63, -(2**63), 2**64, 10**30, -(10**30), 10**400, -(10**400)]
EDGE_FLOATS = [0.0, -0.0, 1.0, 2.0, 0.5, 1e16, 1e308, -1e308, 5e-324, 2.0**53]

integers = st.integers(min_value=-1000, max_value=1000) | st.sampled_from(EDGE_INTS)
numbers = integers | st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from(EDGE_FLOATS)
# Any character, lone surrogates included (JSON carries them as \ud800 escapes).
any_char = st.one_of(st.characters(), st.sampled_from(
    ["\x00", "\n", "\r", "\t", "\u2028", "\ufeff", "\U0001f600", "/", ":", ";", "\\", '"', "\ud800", "\udfff"]))
# Long text by repetition: (character, count), so a failing example prints short.
long_texts = st.builds(lambda c, n: c * n, st.sampled_from(["x", "é", "\U0001f600", " "]),
                       st.sampled_from([200, 500, 501, 2000]))
texts = st.text(any_char, max_size=16) | st.sampled_from(["", " "]) | long_texts
scalars = st.none() | st.booleans() | numbers | texts
json_values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4), max_leaves=12)


def nested(depth: int, kind: str = "list") -> str:
    """JSON nested ``depth`` deep, as text (built without recursion)."""
    if kind == "list":
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "1" + "}" * depth


nesting_depths = st.sampled_from([MAX_NESTING - 1, MAX_NESTING, MAX_NESTING + 1, 64, 200, 999, 1000, 1001, 5000,
                                  50_000])
moderate_depths = st.integers(min_value=1, max_value=100)


def dumps(value: Any, ascii_only: bool = True) -> str:
    return json.dumps(value, ensure_ascii=ascii_only)


# -- the lobby protocol (docs/protocols/lobby.md) -----------------------------------------------------

GAME_IDS = ["my_table", "their_table", "live", "cribbage_live", "aborted"]
USER_IDS = ["me_id", "friend_id", "stranger_id"]
ACTIONS = ["StartGame", "PlayTile", "SelectNewChain", "SelectMergerSurvivor", "SelectChainToDisposeOfNext",
           "DisposeOfShares", "PurchaseShares", "EndGame", "discard", "play", "count", "agree", "muggins", "vote",
           "pause", "unpause", "dapai", "zimo", "fulou", "hule", "pingju", "Deal", "Add", ""]


def sym(names: list[str]) -> st.SearchStrategy[Sym]:
    return st.sampled_from([Sym(n) for n in names])


game_refs = weighted((6, sym(GAME_IDS)), (1, integers))
user_refs = weighted((6, sym(USER_IDS)), (1, integers))
small_ints = st.integers(min_value=-2, max_value=8)


def wrong(good: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A field's value: a plausible one, or anything at all."""
    return weighted((10, good), (1, json_values), (1, st.sampled_from(["2", 2.0, True, False, None, [], {}, "", [2]])))


LOBBY_FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "game": wrong(game_refs),
    "user": wrong(user_refs),
    "mode": wrong(small_ints),
    "version": wrong(small_ints),
    "arrangement": wrong(small_ints),
    "order": wrong(st.lists(user_refs, max_size=5)),
    "time_start": wrong(st.sampled_from([None, 0, 1, 60, 86_400, 86_401, -5])),
    "time_increment": wrong(st.sampled_from([None, 0, 1, 86_400, 86_401, -1])),
    # majiang-server's clock: good ones, each bound just off, a key missing, unknown or mistyped.
    "time_control": wrong(st.sampled_from([
        None, {"per_decision": 5, "bank": 20}, {"per_decision": 5}, {"per_decision": 1, "bank": 0},
        {"per_decision": 3600, "bank": 3600}, {"per_decision": 0}, {"per_decision": 3601},
        {"per_decision": 5, "bank": -1}, {"per_decision": 5, "bank": 3601}, {"bank": 20}, {},
        {"per_decision": 5, "extra": 1}, [5, 20]])
        | st.fixed_dictionaries({}, optional={"per_decision": wrong(small_ints), "bank": wrong(small_ints)})),
    "spectator_delay": wrong(st.sampled_from([None, 0, 1, 30, 900, 901, -1])),
    "rated": wrong(st.sampled_from([None, True, False, 0, 1])),
    "rated_people_only": wrong(st.sampled_from([None, True, False, 0, 1])),
    "rules": wrong(st.fixed_dictionaries({}, optional={
        "counting": st.sampled_from(["manual", "auto", "shouted", 1]),
        "variants": st.sampled_from(["", "D", "N", "DN", "X", None]),
        "tile_bag": json_values, "host_seat": json_values, "imported": json_values,
    }) | st.dictionaries(texts, json_values, max_size=3)),
    "game_type": wrong(st.sampled_from(["acquire", "riichi", "cribbage", "chess", "", "ACQUIRE"])),
    "action": wrong(st.sampled_from(ACTIONS) | texts),
    "params": wrong(st.lists(scalars | small_ints, max_size=4)),
    "v": wrong(small_ints | st.sampled_from([Sym("live_seq")])),
    "seat": wrong(small_ints),
    "text": wrong(texts | st.text(max_size=40)),
    "username": wrong(st.sampled_from([Sym("me"), Sym("friend")]) | texts),
    "password": wrong(st.sampled_from([Sym("password"), "wrong-pw"]) | texts),
    "token": wrong(st.sampled_from([Sym("me_token"), Sym("friend_token"), "0" * 40]) | texts),
    "games": wrong(st.lists(st.fixed_dictionaries({}, optional={"game": wrong(game_refs),
                                                                 "history_size": wrong(small_ints)}), max_size=3)),
    "rejoin": wrong(game_refs),
    "history": wrong(st.booleans()),
    "ref": weighted((3, st.text(max_size=8)), (3, integers), (1, json_values)),
    # Play now (docs/play-now.md) and AddBot's bot levels and registered bots.
    "preset": wrong(st.sampled_from(["tenhou", "majiang", "no-red", "tenhou-east", "east"])),
    "length": wrong(st.sampled_from(["east-south", "east", "south"])),
    "players": wrong(st.sampled_from([1, 2, 3, 4, 5, 6, 7])),
    "clock": wrong(st.sampled_from(["untimed", "fast", "normal", "bullet"])),
    "bots_after": wrong(st.sampled_from([None, 0, 15, 60, 600, 601, -1])),
    "bot_level": wrong(st.sampled_from(["beginner", "intermediate", "strong", "expert"])),
    "bot": wrong(st.sampled_from(["mjai:rulebase", "mjai:", "house", "", "beginner", "intermediate", "strong",
                                  "level:strong"]) | texts),
}

MESSAGES = {
    "CreateGame": ["game_type", "mode", "time_start", "time_increment", "time_control", "spectator_delay", "rules",
                   "rated", "rated_people_only"],
    "JoinGame": ["game"],
    "LeaveGame": ["game"],
    "AcceptSetup": ["game", "version"],
    "ChangeMode": ["game", "mode"],
    "ChangeArrangement": ["game", "arrangement", "order"],
    "Kick": ["game", "user"],
    "AddBot": ["game", "bot"],
    "PlayNow": ["game_type", "preset", "length", "bot_level", "players", "clock", "bots_after"],
    "LeavePlayNow": [],
    "EnterGame": ["game"],
    "DoGameAction": ["game", "v", "action", "params", "seat"],
    "Resync": ["game"],
    "Chat": ["game", "text"],
    "Login": ["version", "username", "password", "token", "games", "rejoin", "history"],
}
FIELDS = {**LOBBY_FIELDS, "version": wrong(st.just(1) | small_ints)}


# -- CreateGame that makes sense up to its rule options, which go to the engine as they are ------------

RULE_DEFAULTS: dict[str, dict[str, Any]] = {
    "acquire": {},
    "riichi": dict(RIICHI_RULE),
    "cribbage": {"counting": "auto", "variants": "", "first_dealer": 0},
}
MODES = {"acquire": list(range(2, 10)), "riichi": [4], "cribbage": [2, 3, 4]}
number_like = st.sampled_from(["20.0", "-10", "nan", "NaN", "inf", "-inf", "1e999", "1_0", " 5 ", "0x10", "",
                               "1" + "0" * 400])
huge = st.sampled_from([10**400, -(10**400), 10**4000, 2**63, 2**64])


def _replace(items: list[Any], index: int, value: Any) -> list[Any]:
    return [*items[:index], value, *items[index + 1:]]


def shaped_like(default: Any) -> st.SearchStrategy[Any]:
    """Values of the shape of a rule option's default, a little (one part changed) or a lot off."""
    if isinstance(default, bool):
        core = st.booleans() | st.sampled_from([0, 1, "true", None])
    elif isinstance(default, int):
        core = weighted((2, integers), (1, huge), (1, st.sampled_from([float(default), str(default), True])))
    elif isinstance(default, str):
        core = weighted((2, number_like), (1, texts), (1, numbers), (2, huge))
    elif isinstance(default, list) and default:
        one_off = st.tuples(st.integers(0, len(default) - 1), shaped_like(default[0])).map(
            lambda change: _replace(default, *change))
        core = weighted((3, one_off), (1, st.lists(shaped_like(default[0]), max_size=len(default) + 1)))
    elif isinstance(default, dict) and default:
        one_off = st.tuples(st.sampled_from(sorted(default)), st.deferred(lambda: scalars | huge)).map(
            lambda change: {**default, change[0]: change[1]})
        core = weighted((3, one_off), (1, st.dictionaries(texts, integers | huge, max_size=3)))
    else:
        core = json_values
    return weighted((5, core), (1, json_values))


def rule_options(game_type: str, min_size: int = 0, max_size: int = 3) -> st.SearchStrategy[dict[str, Any]]:
    """Options of the game's own keys (those taking more than true or false most often), the
    platform's reserved ones, or any key."""
    defaults = {**RULE_DEFAULTS[game_type], "tile_bag": [], "host_seat": 0, "imported": True}
    rich = sorted(k for k, v in defaults.items() if not isinstance(v, bool))
    flags = sorted(k for k, v in defaults.items() if isinstance(v, bool))
    key = weighted((8, st.sampled_from(rich)), *([(2, st.sampled_from(flags))] if flags else []), (1, texts))
    option = key.flatmap(lambda k: st.tuples(st.just(k), shaped_like(defaults.get(k))))
    return st.lists(option, min_size=min_size, max_size=max_size).map(dict)


create_game = st.sampled_from(list(MODES)).flatmap(lambda game_type: st.fixed_dictionaries(
    {"game_type": st.just(game_type), "mode": st.sampled_from(MODES[game_type])},
    optional={"rules": rule_options(game_type), "time_start": LOBBY_FIELDS["time_start"],
              "time_increment": LOBBY_FIELDS["time_increment"], "time_control": LOBBY_FIELDS["time_control"],
              "spectator_delay": LOBBY_FIELDS["spectator_delay"], "rated": LOBBY_FIELDS["rated"],
              "rated_people_only": LOBBY_FIELDS["rated_people_only"]}))


@st.composite
def protocol_message(draw: Any, types: list[str] | None = None) -> dict[str, Any]:
    """A message of the protocol with some of its fields, each plausible or of any type, and maybe
    fields of other messages or none at all."""
    if types is None:
        kind = draw(weighted((9, st.sampled_from(list(MESSAGES))), (1, texts)))
    else:
        kind = draw(st.sampled_from(types))
    names = MESSAGES.get(kind, [])
    message: dict[str, Any] = {"type": kind}
    for name in names:
        if draw(st.integers(0, 2**32 - 1)) % 10 != 9:  # mostly present (hypothesis favours 0)
            message[name] = draw(FIELDS[name])
    if draw(st.integers(0, 2**32 - 1)) % 3 == 2:
        message["ref"] = draw(FIELDS["ref"])
    if draw(st.integers(0, 2**32 - 1)) % 4 == 3:  # sometimes fields of other messages
        for name in draw(st.lists(st.sampled_from(sorted(FIELDS)), min_size=1, max_size=2)):
            message[name] = draw(FIELDS[name])
    if kind == "CreateGame" and draw(st.integers(0, 2**32 - 1)) % 2 == 0:
        message.update(draw(create_game))
    if kind == "DoGameAction" and draw(st.integers(0, 2**32 - 1)) % 2 == 0:
        message["move"] = draw(st.integers(0, 40).map(Legal))  # resolved into action and params
    return message


@dataclass(frozen=True)
class Frame:
    """A WebSocket frame: a message (with symbols) to encode as JSON, raw text, or binary."""

    message: Any = None
    text: str | None = None
    data: bytes | None = None
    ascii_only: bool = True
    binary: bool = False  # the message encoded as JSON but sent as a binary frame

    def __repr__(self) -> str:
        if self.binary:
            return f"Frame(binary json={self.message!r})"
        if self.data is not None:
            return f"Frame(bytes={self.data[:80]!r}{'...' if len(self.data) > 80 else ''})"
        if self.text is not None:
            shown = self.text if len(self.text) <= 120 else self.text[:120] + f"... ({len(self.text)} chars)"
            return f"Frame(text={shown!r})"
        return f"Frame(json={self.message!r})"


def encode_frame(frame: Frame, world: Any) -> str | bytes:
    if frame.data is not None:
        return frame.data
    if frame.text is not None:
        return frame.text
    message = world.resolve(frame.message)
    if isinstance(message, dict) and "move" in message:
        move = message.pop("move")
        message["action"], message["params"] = move
    text = dumps(message, frame.ascii_only)
    if not frame.ascii_only and not is_encodable(text):
        # A lone surrogate reaches a server only as a \u escape: a WebSocket text frame is UTF-8.
        text = dumps(message)
    if frame.binary:
        return text.encode("utf-8", "surrogatepass")
    return text


def _nested_frame(depth: int, kind: str, where: str) -> Frame:
    inner = nested(depth, kind)
    if where == "top":
        return Frame(text=inner)
    return Frame(text='{"type": "Chat", "game": null, "text": "x", "nested": ' + inner + "}")


def _huge_frame(size: int) -> Frame:
    return Frame(text=dumps({"type": "Chat", "game": None, "text": "x" * size}))


odd_texts = st.sampled_from([
    "", " ", "null", "[]", "{}", '"Login"', "1", '{"type": null}', '{"type": 1}', '{"type": ""}',
    '{"type": "Chat", "text": NaN}', '{"type": "Chat", "text": "x", "ref": Infinity}', '{"type": "Chat"',
    '{"type": "Chat", "text": "hi"} trailing', '{"type": "Chat", "text": "\\ud800"}',
    '{"type": "Chat", "text": "\\udfff\\ud800", "game": null}', '{"type": "Login", "version": 1e999}',
    '{"type": "Chat", "text": "x", "game": 1e400}', '{"type": "Kick", "game": 1, "user": -1e999}',
    "\ufeff{}", '{"type": "Chat", "type": "Kick"}', "[" * 10,
])

json_objects = st.dictionaries(texts, json_values, min_size=1, max_size=4)
frames = weighted(
    (60, protocol_message().map(lambda m: Frame(message=m))),
    (5, st.builds(Frame, message=protocol_message(), ascii_only=st.just(False))),
    (4, json_values.map(lambda v: Frame(message=v))),
    (3, st.text(any_char.filter(lambda c: not 0xD800 <= ord(c) <= 0xDFFF), max_size=40).map(lambda t: Frame(text=t))),
    (5, odd_texts.map(lambda t: Frame(text=t))),
    (3, st.builds(lambda v, k: Frame(text=dumps(v)[:k]), json_objects, st.integers(1, 60))),
    (6, st.builds(_nested_frame, nesting_depths | moderate_depths, st.sampled_from(["list", "dict"]),
                  st.sampled_from(["top", "field"]))),
    (3, st.sampled_from([MAX_FRAME_BYTES - 200, MAX_FRAME_BYTES + 1, 200_000]).map(_huge_frame)),
    (3, st.binary(max_size=64).filter(bool).map(lambda b: Frame(data=b))),
    (3, st.builds(Frame, message=protocol_message(), binary=st.just(True))),
)


def _credentials(session: bool) -> st.SearchStrategy[dict[str, Any]]:
    options = [
        st.just({"username": Sym("me"), "password": Sym("password")}),
        st.just({"token": Sym("me_token")}),
        st.just({"token": Sym("me_token"), "username": Sym("me")}),
    ]
    if session:
        options.append(st.just({}))  # the browser's session cookie logs it in
    return st.one_of(options)


def good_login(*, session: bool) -> st.SearchStrategy[dict[str, Any]]:
    """A Login that logs in: right credentials, and optional fields of the right types."""
    extras = st.fixed_dictionaries({}, optional={
        "games": st.lists(st.fixed_dictionaries({"game": sym(GAME_IDS),
                                                 "history_size": st.integers(0, 6)}), max_size=3),
        "rejoin": sym(GAME_IDS) | st.integers(1, 2**53 - 1),
        "history": st.booleans(),
        # A ref the server can echo: no NUL, no lone surrogate (those refuse the frame itself).
        "ref": st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=8)
        | st.integers(-1000, 1000),
    })
    return st.builds(lambda c, e: {"type": "Login", "version": 1, **c, **e}, _credentials(session), extras)


def fuzzed_login(*, session: bool) -> st.SearchStrategy[dict[str, Any]]:
    """A Login with right credentials and one field or more of any kind, or fields of any kind."""
    def spoil(message: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
        return {**message, **fields}

    spoilt = st.dictionaries(st.sampled_from(MESSAGES["Login"] + ["ref", "type"]), st.deferred(lambda: FIELDS["ref"])
                             | st.sampled_from([Sym("me"), Sym("friend"), Sym("me_token"), Sym("friend_token")]),
                             min_size=1, max_size=3)
    return st.one_of(st.builds(spoil, good_login(session=session), spoilt), protocol_message(["Login"]))


first_frames = {
    session: st.one_of(
        good_login(session=session).map(lambda m: Frame(message=m)),
        fuzzed_login(session=session).map(lambda m: Frame(message=m)),
        fuzzed_login(session=session).map(lambda m: Frame(message=m)),
        frames,
    )
    for session in (False, True)
}


# -- REST bodies (docs/api.md) -----------------------------------------------------------------------

# The fields of each write's body, by URL name (games/api/urls.py); a write not listed takes none.
REST_FIELDS = {
    "api-games": ["game_type", "mode", "time_start", "time_increment", "time_control", "spectator_delay", "rules",
                  "rated", "rated_people_only"],
    "api-game-accept": ["version"],
    "api-game-mode": ["mode"],
    "api-game-arrangement": ["arrangement", "order"],
    "api-game-kick": ["user"],
    "api-game-moves": ["action", "params", "seat", "v"],
    "api-game-chat": ["text"],
    "api-game-add-bot": ["bot"],
    "api-play-now": ["game_type", "preset", "length", "bot_level", "players", "clock", "bots_after"],
}

CONTENT_TYPES = [
    "application/json", "application/json; charset=utf-8", "application/json; charset=latin-1", "text/plain",
    "application/x-www-form-urlencoded", "multipart/form-data; boundary=B", "multipart/form-data",
    "application/xml", "application/octet-stream", "", "application/vnd.api+json", "application/*",
]


@dataclass(frozen=True)
class Body:
    """A request body: a value (with symbols) to send as JSON, or raw bytes; and its content type."""

    value: Any = None
    raw: bytes | None = None
    content_type: str = "application/json"

    def __repr__(self) -> str:
        if self.raw is not None:
            shown = self.raw if len(self.raw) <= 120 else self.raw[:120] + b"..."
            return f"Body(raw={shown!r} ({len(self.raw)} bytes), content_type={self.content_type!r})"
        return f"Body(json={self.value!r}, content_type={self.content_type!r})"


def encode_body(body: Body, world: Any) -> bytes:
    if body.raw is not None:
        return body.raw
    value = world.resolve(body.value)
    if isinstance(value, dict) and "move" in value:
        value["action"], value["params"] = value.pop("move")
    return dumps(value).encode("utf-8")


@st.composite
def shaped_body(draw: Any, operation: str) -> dict[str, Any]:
    names = REST_FIELDS.get(operation, [])
    body: dict[str, Any] = {}
    for name in names:
        if draw(st.integers(0, 2**32 - 1)) % 10 != 9:  # mostly present (hypothesis favours 0)
            body[name] = draw(LOBBY_FIELDS[name])
    if draw(st.integers(0, 2**32 - 1)) % 4 == 3:
        for name in draw(st.lists(st.sampled_from(sorted(LOBBY_FIELDS)), min_size=1, max_size=2)):
            body[name] = draw(LOBBY_FIELDS[name])
    if operation == "api-games" and draw(st.integers(0, 2**32 - 1)) % 2 == 0:
        body.update(draw(create_game))
    if operation == "api-game-moves" and draw(st.integers(0, 2**32 - 1)) % 2 == 0:
        body["move"] = draw(st.integers(0, 40).map(Legal))
    return body


def _form(fields: dict[str, str]) -> bytes:
    from urllib.parse import urlencode

    return urlencode(fields).encode()


def _multipart(fields: dict[str, str]) -> bytes:
    parts = [f'--B\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n' for k, v in fields.items()]
    return ("".join(parts) + "--B--\r\n").encode("utf-8", "surrogatepass")


form_fields = st.dictionaries(st.sampled_from(sorted(LOBBY_FIELDS)), st.text(max_size=10) | integers.map(str),
                              max_size=4)
raw_bytes = st.one_of(
    st.binary(max_size=80),
    st.sampled_from([b"", b"{", b"null", b"[]", b"1", b'"x"', b'{"text": "\xff\xfe"}', b"\xef\xbb\xbf{}",
                     b'{"text": NaN}', b'{"mode": Infinity}', b'{"mode": 1e999}', b'{"text": "\\ud800"}',
                     b'{"text": "hi"} trailing', b'{"a": 1, "a": 2}', b"\x00", b'{"text": "a\\u0000b"}']),
    form_fields.map(_form),
    form_fields.map(_multipart),
)


def rest_bodies(operation: str, *, deep: bool) -> st.SearchStrategy[Body]:
    """Bodies for one operation. ``deep``: only JSON nested far beyond any real request."""
    content_types = st.sampled_from(CONTENT_TYPES)
    if deep:
        def deep_body(depth: int, kind: str, where: str, content_type: str) -> Body:
            inner = nested(depth, kind)
            if where == "top":
                return Body(raw=inner.encode(), content_type=content_type)
            fields = REST_FIELDS.get(operation) or ["text"]
            return Body(raw=("{" + ", ".join(f'"{f}": {inner}' for f in fields) + "}").encode(),
                        content_type=content_type)

        return st.builds(deep_body, st.sampled_from([200, 999, 1000, 1001, 5000, 100_000]),
                         st.sampled_from(["list", "dict"]), st.sampled_from(["top", "field"]),
                         st.sampled_from(["application/json", "application/json; charset=utf-8"]))
    shaped = shaped_body(operation)
    return weighted(
        (8, st.builds(Body, value=shaped)),
        (2, st.builds(Body, value=shaped, content_type=content_types)),
        (2, st.builds(Body, value=json_values)),
        (1, st.builds(Body, value=json_values, content_type=content_types)),
        (3, st.builds(Body, raw=raw_bytes, content_type=content_types)),
        (1, st.builds(lambda d, k: Body(raw=nested(d, k).encode()), moderate_depths,
                      st.sampled_from(["list", "dict"]))),
    )


# -- CRIBBAGEBBER lines (docs/protocols/cribbage.md) ---------------------------------------------------------

CODES = ["ME", "NP", "YE", "NO", "CR", "PL", "CN", "AG", "MU", "PA", "UP", "IM", "EJ", "N", "QU"]
NICKS = [Sym("nick"), Sym("other_nick"), "nobody", "", "a/b", "a b", "x" * 65, "é" * 33]
line_chars = st.characters(exclude_categories=["Cs"], exclude_characters="\x00\n\r")
spaces = st.sampled_from(["", "", " ", "  ", "\t"])
card_ref = st.builds(lambda n, r, s: f"{n}{r}{s}", st.sampled_from("0123456789"),
                     st.sampled_from(["", "", "A", "0", "K", "Q", "J", "2", "X", "k"]),
                     st.sampled_from(["", "H", "D", "C", "S", "x"]))
number_text = st.sampled_from(["0", "1", "2", "5", "31", "121", "999", "1000", "-1", "", "٣", "1.0", "0x1", " 2"])


@st.composite
def command_line(draw: Any) -> list[Any]:
    """A client line as pieces (strings and symbols), mostly of a real command."""
    code = draw(st.sampled_from(CODES) | st.sampled_from(["im", "XX", "", "ME ", "P", "E", "WA", "SE"]))
    pad = draw(spaces)
    if code == "IM":
        args: list[Any] = [draw(st.sampled_from(NICKS) | st.text(line_chars, max_size=8))]
        if draw(st.booleans()):
            args += ["/", draw(st.sampled_from([Sym("token"), Sym("other_token"), "0" * 40, "abc!", ""])
                               | st.text(line_chars, max_size=8))]
    elif code == "NP":
        args = [draw(st.sampled_from(["2", "3", "4", "1", "5", "0", "22", ""]) | number_text)]
        if draw(st.booleans()):
            args += ["/", draw(st.text(st.sampled_from("DNMX"), max_size=4))]
    elif code in ("CR", "PL"):
        args = [draw(st.lists(card_ref, min_size=0, max_size=3).map("".join))]
        if code == "PL" and draw(st.booleans()):
            args += ["/", draw(number_text)]
    elif code in ("CN",):
        args = [draw(number_text)]
    elif code == "MU":
        args = ([draw(st.sampled_from(NICKS)), "/"] if draw(st.booleans()) else []) + [draw(number_text)]
    elif code == "ME":
        args = [draw(st.text(line_chars, max_size=30) | st.sampled_from(["", " ", "x" * 500, "x" * 501,
                                                                         "\U0001f600" * 500]))]
        pad = ""
    elif code == "EJ":
        args = [draw(st.sampled_from(NICKS))]
    else:
        args = [draw(st.sampled_from(["", "", "x", " ", "/"]) | st.text(line_chars, max_size=6))]
    return [code, ":", pad, *args, draw(spaces)]


garbage_line = st.text(line_chars, max_size=40).map(lambda t: [t])
lines = weighted((5, command_line()), (1, garbage_line))


@dataclass(frozen=True)
class LineFrame:
    """One WebSocket frame of the line protocol: a line (pieces with symbols) with a terminator, or
    a raw text frame, or a binary frame."""

    pieces: tuple[Any, ...] = ()
    end: str = ""
    raw: str | None = None
    data: bytes | None = None

    def __repr__(self) -> str:
        if self.data is not None:
            return f"LineFrame(bytes={self.data[:60]!r})"
        if self.raw is not None:
            shown = self.raw if len(self.raw) <= 100 else self.raw[:100] + f"... ({len(self.raw)} chars)"
            return f"LineFrame(raw={shown!r})"
        return f"LineFrame({list(self.pieces)!r} + {self.end!r})"


def encode_line_frame(frame: LineFrame, world: Any) -> str | bytes:
    if frame.data is not None:
        return frame.data
    if frame.raw is not None:
        return frame.raw
    return world.text(list(frame.pieces)) + frame.end


# Frames that break the link (binary, NUL, over-long) are rarer than lines, or few steps would
# ever reach a table.
long_line = st.builds(lambda c, n: "ME:" + c * n, st.sampled_from(["x", "é", "\U0001f600"]),
                      st.sampled_from([500, 501, 1001, MAX_LINE_BYTES - 3, MAX_LINE_BYTES - 2]))
line_frames = weighted(
    (30, st.builds(lambda p, e: LineFrame(tuple(p), e), lines, st.sampled_from(["", "", "\n", "\r\n", "\r", "\n\n"]))),
    (3, st.sampled_from(["", "\n", "\r\n", "ME:a\nME:b", "NP:2\rNP:3", "QU:\n"]).map(lambda t: LineFrame(raw=t))),
    (1, st.sampled_from(["ME:a\x00b", "\x00", "IM:\x00"]).map(lambda t: LineFrame(raw=t))),
    (1, long_line.map(lambda t: LineFrame(raw=t))),
    (1, st.binary(max_size=40).filter(bool).map(lambda b: LineFrame(data=b))),
)

# TCP: a step is bytes ending with a newline (so the probe after it is a line of its own); the
# pieces are lines, raw bytes and breaches, cut into writes at arbitrary points.


@dataclass(frozen=True)
class Chunk:
    pieces: tuple[Any, ...] = ()
    end: bytes = b"\n"
    raw: bytes | None = None

    def __repr__(self) -> str:
        if self.raw is not None:
            shown = self.raw if len(self.raw) <= 80 else self.raw[:80] + b"..."
            return f"Chunk(raw={shown!r} ({len(self.raw)} bytes))"
        return f"Chunk({list(self.pieces)!r} + {self.end!r})"


def encode_chunk(chunk: Chunk, world: Any) -> bytes:
    if chunk.raw is not None:
        return chunk.raw
    return world.text(list(chunk.pieces)).encode("utf-8") + chunk.end


long_bytes = st.builds(lambda c, n, end: b"ME:" + c * n + end, st.sampled_from([b"x", "\U0001f600".encode()]),
                      st.sampled_from([500, 501, MAX_LINE_BYTES - 3, MAX_LINE_BYTES - 2]),
                      st.sampled_from([b"\n", b"\r\n"]))
chunks = weighted(
    (30, st.builds(lambda p, e: Chunk(tuple(p), e), lines, st.sampled_from([b"\n", b"\n", b"\r\n", b"\r\r\n"]))),
    (3, st.sampled_from([b"\n", b"\r\n", b"ME:a\rb\n", b"ME:\xc3\xa9\n", b"ME:a\nME:b\nME:c\n", b"\n\n\n"]).map(
        lambda b: Chunk(raw=b))),
    (1, st.sampled_from([b"\xff\n", b"ME:\xc3\n", b"ME:\xed\xa0\x80\n", b"ME:a\x00b\n", b"\x00"]).map(
        lambda b: Chunk(raw=b))),
    (1, long_bytes.map(lambda b: Chunk(raw=b))),
    (1, st.builds(lambda n: Chunk(raw=b"x" * n), st.sampled_from([MAX_LINE_BYTES + 1, 10_000]))),
    (1, st.binary(max_size=30).map(lambda b: Chunk(raw=b + b"\n"))),
)
