"""The statements every move makes, built once per database connection.

Every action is a locked read of its game row, an insert into the action log and an update of the
row (docs/architecture.md, "The live path"). The inserts of one transaction wait on the Game object
until its row is saved, and go as one multi-row INSERT; on PostgreSQL, whose driver binds the
parameters on the client here, in the same round trip as the row's UPDATE (a move's round trips:
BEGIN, the locked read, the writes, COMMIT). Through the ORM, building each statement (a QuerySet,
its compiler, its SQL) costs several times what running it does: 244, 144 and 179 µs against some
30 µs each on SQLite. Here each statement is built once per connection, by Django itself (the
compiler for the read, the model's fields and the backend's quoting for the writes), and then only
run: the SQL, the value conversions and the model instances are Django's, for whichever backend.

What the ORM would do besides, and these statements do not: send ``pre_save``/``post_save``
signals (no receiver listens for Game or Action saves) and return the new action's id (unused).
The unlocked read serves the Snapshots a client asks for after its moves.
"""

from __future__ import annotations

from typing import Any

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper

from games.models import Action, Game

# Built statements, per connection object (each database thread has its own connection).
_CACHE_ATTRIBUTE = "_move_sql"
# The actions a Game object's transaction has logged and not yet written (insert_action). On the
# object read in that transaction: if the transaction rolls back, the object and they go with it.
_UNSAVED_ATTRIBUTE = "_unsaved_actions"
ROWS_PER_INSERT = 500


class _Statements:
    def __init__(self, connection: BaseDatabaseWrapper) -> None:
        quote = connection.ops.quote_name
        # The reads of the row, locked and not: Django's own compiler, once each, when first
        # used (the locked one compiles only inside a transaction, as select_for_update requires).
        self._locked_read: _Read | None = None
        self._read: _Read | None = None
        # The insert into the log: every concrete field but the id, in the model's order.
        self.action_fields = [f for f in Action._meta.concrete_fields if not f.primary_key]
        self.insert_head = "INSERT INTO {} ({}) VALUES ".format(
            quote(Action._meta.db_table), ", ".join(quote(f.column) for f in self.action_fields))
        self.insert_row = "({})".format(", ".join(["%s"] * len(self.action_fields)))
        self.update_sql: dict[tuple[str, ...], tuple[str, list[Any]]] = {}
        self.connection = connection
        # Several statements in one execute: psycopg's client-side binding cursor (Django's unless
        # OPTIONS asks for server_side_binding) sends them as one query; sqlite3 refuses it.
        self.batches = (connection.vendor == "postgresql"
                        and not connection.settings_dict.get("OPTIONS", {}).get("server_side_binding"))

    def insert(self, rows: list[list[Any]]) -> tuple[str, list[Any]]:
        """One INSERT of ``rows`` (each the parameters of one action)."""
        return self.insert_head + ", ".join([self.insert_row] * len(rows)), [v for row in rows for v in row]

    @property
    def locked_read(self) -> _Read:
        if self._locked_read is None:
            self._locked_read = _Read(Game.objects.select_for_update().filter(id=0), self.connection)
        return self._locked_read

    @property
    def read(self) -> _Read:
        if self._read is None:
            self._read = _Read(Game.objects.filter(id=0), self.connection)
        return self._read

    def update(self, names: tuple[str, ...]) -> tuple[str, list[Any]]:
        built = self.update_sql.get(names)
        if built is None:
            quote = self.connection.ops.quote_name
            fields = [Game._meta.get_field(name) for name in names]
            sql = "UPDATE {} SET {} WHERE {} = %s".format(
                quote(Game._meta.db_table),
                ", ".join(f"{quote(f.column)} = %s" for f in fields),
                quote(Game._meta.pk.column),
            )
            built = self.update_sql[names] = (sql, fields)
        return built


class _Read:
    """One compiled read of a Game row by id: its SQL takes the id as its one parameter; its
    converters turn the backend's values into the fields' Python values."""

    def __init__(self, queryset: Any, connection: BaseDatabaseWrapper) -> None:
        compiler = queryset.query.get_compiler(connection=connection)
        self.sql, params = compiler.as_sql()
        if list(params) != [0]:
            raise RuntimeError(f"unexpected parameters of the game read: {params!r}")
        expressions = [column for column, _, _ in compiler.select]
        self.compiler = compiler
        self.converters = compiler.get_converters(expressions)
        self.names = [column.target.attname for column in expressions]

    def __call__(self, connection: BaseDatabaseWrapper, game_id: int) -> Game | None:
        # An id the column cannot hold names no game (the ORM's lookup says the same; the driver
        # would raise OverflowError instead).
        low, high = connection.ops.integer_field_range(Game._meta.pk.get_internal_type())
        if not low <= game_id <= high:
            return None
        with connection.cursor() as cursor:
            cursor.execute(self.sql, [game_id])
            row = cursor.fetchone()
        if row is None:
            return None
        if self.converters:
            row = next(iter(self.compiler.apply_converters([row], self.converters)))
        return Game.from_db(connection.alias, self.names, row)


def _statements(using: str = "default") -> tuple[BaseDatabaseWrapper, _Statements]:
    connection = connections[using]
    statements = getattr(connection, _CACHE_ATTRIBUTE, None)
    if statements is None or statements.connection is not connection:
        statements = _Statements(connection)
        setattr(connection, _CACHE_ATTRIBUTE, statements)
    return connection, statements


def locked_game(game_id: int) -> Game | None:
    """``Game.objects.select_for_update().get(id=game_id)``, or None if there is no such game.
    Call it inside a transaction, as select_for_update requires."""
    if not connections["default"].in_atomic_block:
        raise RuntimeError("locked_game() needs a transaction, as select_for_update does")
    connection, s = _statements()
    return s.locked_read(connection, game_id)


def game(game_id: int) -> Game | None:
    """``Game.objects.filter(id=game_id).first()``: the row as it is, for a read (a Snapshot)."""
    connection, s = _statements()
    return s.read(connection, game_id)


def insert_action(game: Game, **values: Any) -> None:
    """``Action.objects.create(game=game, **values)``, written with the game's row by the next
    ``save_game`` (or ``write_actions``) of this transaction, without returning the new row's id;
    every field not given takes its default."""
    connection, s = _statements()
    values["game_id"] = game.pk
    params = []
    for field in s.action_fields:
        value = values[field.attname] if field.attname in values else field.get_default()
        params.append(field.get_db_prep_save(value, connection))
    unknown = set(values) - {f.attname for f in s.action_fields}
    if unknown:
        raise TypeError(f"Action has no fields {sorted(unknown)}")
    game.__dict__.setdefault(_UNSAVED_ATTRIBUTE, []).append(params)


def write_actions(game: Game) -> None:
    """Write the actions ``insert_action`` holds for ``game`` now: for a read of the log before the
    row is saved (a finished game's record, checked against its log)."""
    rows = game.__dict__.pop(_UNSAVED_ATTRIBUTE, None)
    if rows:
        connection, s = _statements()
        with connection.cursor() as cursor:
            _insert(cursor, s, rows)


def _insert(cursor: Any, s: _Statements, rows: list[list[Any]]) -> None:
    # In pieces that stay far below SQLite's limit on a statement's parameters (32,766).
    for at in range(0, len(rows), ROWS_PER_INSERT):
        cursor.execute(*s.insert(rows[at:at + ROWS_PER_INSERT]))


def save_game(game: Game, update_fields: tuple[str, ...]) -> None:
    """``game.save(update_fields=update_fields)`` for a row that exists, after the actions logged
    for it (``insert_action``)."""
    connection, s = _statements()
    sql, fields = s.update(update_fields)
    params = [field.get_db_prep_save(getattr(game, field.attname), connection) for field in fields]
    params.append(game.pk)
    rows = game.__dict__.pop(_UNSAVED_ATTRIBUTE, None)
    with connection.cursor() as cursor:
        if rows and s.batches:
            last = (len(rows) - 1) // ROWS_PER_INSERT * ROWS_PER_INSERT  # the last piece goes with the UPDATE
            _insert(cursor, s, rows[:last])
            insert_sql, insert_params = s.insert(rows[last:])
            cursor.execute(f"{insert_sql}; {sql}", insert_params + params)
            return
        if rows:
            _insert(cursor, s, rows)
        cursor.execute(sql, params)
