"""The three statements every move makes, built once per database connection.

Every action is a locked read of its game row, an insert into the action log and an update of the
row (docs/architecture.md, "The live path"). Through the ORM, building each statement (a QuerySet,
its compiler, its SQL) costs several times what running it does: 244, 144 and 179 µs against some
30 µs each on SQLite. Here each statement is built once per connection, by Django itself (the
compiler for the read, the model's fields and the backend's quoting for the writes), and then only
run: the SQL, the value conversions and the model instances are Django's, for whichever backend.

What the ORM would do besides, and these statements do not: send ``pre_save``/``post_save``
signals (no receiver listens for Game or Action saves) and return the new action's id (unused).
"""

from __future__ import annotations

from typing import Any

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper

from .models import Action, Game

# Built statements, per connection object (each database thread has its own connection).
_CACHE_ATTRIBUTE = "_move_sql"


class _Statements:
    def __init__(self, connection: BaseDatabaseWrapper) -> None:
        quote = connection.ops.quote_name
        # The locked read: Django's own compiler, once. Its SQL takes the game id as its one
        # parameter; its converters turn the backend's values into the fields' Python values.
        compiler = Game.objects.select_for_update().filter(id=0).query.get_compiler(connection=connection)
        self.read_sql, params = compiler.as_sql()
        if list(params) != [0]:
            raise RuntimeError(f"unexpected parameters of the game read: {params!r}")
        expressions = [column for column, _, _ in compiler.select]
        self.read_compiler = compiler
        self.read_converters = compiler.get_converters(expressions)
        self.read_names = [column.target.attname for column in expressions]
        # The insert into the log: every concrete field but the id, in the model's order.
        self.action_fields = [f for f in Action._meta.concrete_fields if not f.primary_key]
        self.insert_sql = "INSERT INTO {} ({}) VALUES ({})".format(
            quote(Action._meta.db_table),
            ", ".join(quote(f.column) for f in self.action_fields),
            ", ".join(["%s"] * len(self.action_fields)),
        )
        self.update_sql: dict[tuple[str, ...], tuple[str, list[Any]]] = {}
        self.connection = connection

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
    with connection.cursor() as cursor:
        cursor.execute(s.read_sql, [game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    if s.read_converters:
        row = next(iter(s.read_compiler.apply_converters([row], s.read_converters)))
    return Game.from_db(connection.alias, s.read_names, row)


def insert_action(**values: Any) -> None:
    """``Action.objects.create(**values)`` without returning the new row's id; every field not
    given takes its default."""
    connection, s = _statements()
    params = []
    for field in s.action_fields:
        value = values[field.attname] if field.attname in values else field.get_default()
        params.append(field.get_db_prep_save(value, connection))
    unknown = set(values) - {f.attname for f in s.action_fields}
    if unknown:
        raise TypeError(f"Action has no fields {sorted(unknown)}")
    with connection.cursor() as cursor:
        cursor.execute(s.insert_sql, params)


def save_game(game: Game, update_fields: tuple[str, ...]) -> None:
    """``game.save(update_fields=update_fields)`` for a row that exists."""
    connection, s = _statements()
    sql, fields = s.update(update_fields)
    params = [field.get_db_prep_save(getattr(game, field.attname), connection) for field in fields]
    params.append(game.pk)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
