"""A build's full-text index, written on a thread of its own into a side file, then copied in.

Indexing is most of SQLite's share of a build: FTS5 tokenises ~3 KB per incident (100,000 of them
in the benchmark). SQLite does that without holding the GIL, so a second connection on a second
file (SQLite allows one writer per file) indexes while the main thread writes the rows and the
worker processes prepare the next incidents. FTS5 keeps its whole index in ordinary shadow
tables, so copying their rows over the empty index the migrations made gives the index that
inserting into it directly would hold (tests/test_indexing.py compares every token).

The side index keeps up to HASH_SIZE bytes of new entries in memory before writing a segment, and
merges no segments while it grows (FTS5's `hashsize` and `automerge`); one `optimize` at the end
merges them all into one segment, so each entry is rewritten once rather than once per merge
level. Those two settings stay in the side file: the copy leaves out the config table, and the
database's index keeps the settings the migrations gave it.
"""

import queue
import sqlite3
import threading
from pathlib import Path
from typing import Any

TABLE = "incident_fts"
HASH_SIZE = 64 * 1024 * 1024
CACHE_KIB = 64 * 1024
Rows = list[tuple[Any, ...]]


class FullTextWriter:
    """Rows (rowid, then one text per column) in, batch by batch; the finished index out."""

    def __init__(self, conn: sqlite3.Connection, path: Path, columns: tuple[str, ...]) -> None:
        """:raises ValueError: when `columns` are not the index's columns (a migration changed
        them and the build was not changed to match)."""
        found = tuple(row[1] for row in conn.execute(f"PRAGMA table_info({TABLE})"))
        if found != columns:
            raise ValueError(f"{TABLE} has columns {found}, the build writes {columns}")
        (create,) = conn.execute(
            "SELECT sql FROM sqlite_master WHERE name = ?", (TABLE,)
        ).fetchone()
        settings = conn.execute(f"SELECT k, v FROM {TABLE}_config WHERE k != 'version'").fetchall()
        self.path = path
        self.path.unlink(missing_ok=True)
        names = ", ".join(columns)
        self.insert = f"INSERT INTO {TABLE} (rowid, {names}) VALUES (?{', ?' * len(columns)})"
        self.queue: queue.Queue[Rows | None] = queue.Queue(maxsize=8)
        self.error: BaseException | None = None
        self.abandoned = False
        self.thread = threading.Thread(
            target=self._write, args=(create, settings), name="fulltext", daemon=True
        )
        self.thread.start()

    def add(self, rows: Rows) -> None:
        """Index these rows (on the thread); raises what the thread raised, if it failed."""
        self._raise()
        self.queue.put(rows)

    def finish(self) -> None:
        """No more rows: the thread merges the index into one segment and closes its file."""
        self.queue.put(None)

    def copy_into(self, conn: sqlite3.Connection) -> None:
        """Wait for the thread, then replace conn's (empty) index with the finished one.

        conn must not be inside a transaction (ATTACH cannot be).
        """
        self.thread.join()
        self._raise()
        conn.execute("ATTACH DATABASE ? AS fulltext", (str(self.path),))
        try:
            shadows = [
                name
                for (name,) in conn.execute(
                    "SELECT name FROM fulltext.sqlite_master WHERE type = 'table'"
                    " AND name LIKE ? ESCAPE '!' AND name != ?",
                    (f"{TABLE}!_%", f"{TABLE}_config"),
                )
            ]
            conn.execute("BEGIN")
            for name in shadows:
                conn.execute(f"DELETE FROM main.{name}")
                conn.execute(f"INSERT INTO main.{name} SELECT * FROM fulltext.{name}")
            conn.commit()
        finally:
            conn.execute("DETACH DATABASE fulltext")

    def close(self) -> None:
        """Stop the thread if it still runs (a failed build) and remove the side file."""
        self.abandoned = True
        while self.thread.is_alive():
            try:
                self.queue.put(None, timeout=0.1)
            except queue.Full:
                pass
            self.thread.join(timeout=0.1)
        self.path.unlink(missing_ok=True)

    def _raise(self) -> None:
        if self.error is not None:
            raise self.error

    def _write(self, create: str, settings: list[tuple[str, Any]]) -> None:
        try:
            side = sqlite3.connect(self.path, isolation_level=None)
            try:
                side.execute("PRAGMA journal_mode=OFF")
                side.execute("PRAGMA synchronous=OFF")
                side.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
                side.execute(create)
                command = f"INSERT INTO {TABLE} ({TABLE}, rank) VALUES (?, ?)"
                for key, value in (*settings, ("hashsize", HASH_SIZE), ("automerge", 0)):
                    side.execute(command, (key, value))
                side.execute("BEGIN")
                while (rows := self.queue.get()) is not None and not self.abandoned:
                    side.executemany(self.insert, rows)
                if not self.abandoned:
                    side.execute(f"INSERT INTO {TABLE} ({TABLE}) VALUES ('optimize')")
                    side.execute("COMMIT")
            finally:
                side.close()
        except BaseException as error:  # handed to the main thread by add() or copy_into()
            self.error = error
            while not self.abandoned and self.queue.get() is not None:
                pass  # let the main thread hand over what it has, so that it never blocks
