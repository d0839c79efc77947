"""Django's SQLite backend, with writers queued in the process.

SQLite allows one writer at a time. Transactions here begin with BEGIN IMMEDIATE (settings), so a
second writer waits for the file lock in SQLite's busy handler, which sleeps and polls (1 ms, then
2, 5, 10, ... up to 100 ms between tries): a writer may sleep long after the lock came free, and
the order is luck. With database work on a pool of threads (games/core/db.py) that cost lands on every
move. So a transaction first takes this process's writer lock, which hands over at once and in
order; the busy handler is then only for another process (a management command beside the
server).
"""

from __future__ import annotations

import threading

from django.db.backends.sqlite3 import base

_writer = threading.Lock()


class DatabaseWrapper(base.DatabaseWrapper):
    _holds_writer = False

    def _start_transaction_under_autocommit(self) -> None:
        if self.is_in_memory_db():
            # One shared in-memory database (tests): its connections never wait on each other here.
            super()._start_transaction_under_autocommit()
            return
        _writer.acquire()
        self._holds_writer = True
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_writer()
            raise

    def _release_writer(self) -> None:
        if self._holds_writer:
            self._holds_writer = False
            _writer.release()

    def _commit(self) -> None:
        try:
            super()._commit()
        finally:
            self._release_writer()

    def _rollback(self) -> None:
        try:
            super()._rollback()
        finally:
            self._release_writer()

    def _close(self) -> None:
        try:
            super()._close()
        finally:
            self._release_writer()
