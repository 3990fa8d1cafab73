"""The table database: SQLite through the standard library (docs/serve.md, "The store").

Every table, its seats, its games (a game's `head` is a record's head, records/record.py) and
every answer, written when it is made and committed before anyone is shown it, so that a server
stopped in any way starts again with every table where it was. Writes join one transaction
until `commit()`: the table manager commits once a turn of the event loop, for every answer of
that turn together, and only then sends the frames that show them (web/tables.py `flush`).

It does not grow without end: a closed table (abandoned: nobody at it for a set time) keeps its
games' records, downloadable, and of the closed tables the newest are kept (`prune`); a table
keeps the newest of its finished games as rematches follow (`prune_games`). Times come from
`clock` (time.time; the tests give another). The schema's version is SQLite's `user_version`; the n-th
script of MIGRATIONS takes a database from version n to n+1, in one transaction. A database of
a newer version than this whistdsl knows is refused (StoreError), never changed.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The scripts that take the database from version n to n + 1 (MIGRATIONS[n]).
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        created REAL NOT NULL,
        touched REAL NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('open', 'closed')),
        host_hash TEXT NOT NULL,
        invite TEXT NOT NULL,
        watch TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        think REAL NOT NULL
    );
    CREATE TABLE seats (
        table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        person INTEGER NOT NULL,
        name TEXT NOT NULL,
        token_hash TEXT,
        PRIMARY KEY (table_id, seat)
    );
    CREATE TABLE games (
        table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        head TEXT NOT NULL,
        finished REAL,
        record TEXT,
        PRIMARY KEY (table_id, number)
    );
    CREATE TABLE answers (
        table_id TEXT NOT NULL,
        game INTEGER NOT NULL,
        step INTEGER NOT NULL,
        answer TEXT NOT NULL,
        PRIMARY KEY (table_id, game, step),
        FOREIGN KEY (table_id, game) REFERENCES games(table_id, number) ON DELETE CASCADE
    );
    CREATE INDEX tables_by_state ON tables (state, touched);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


class StoreError(Exception):
    """The database cannot be used (a newer version, not a database, cannot be opened)."""


@dataclass
class StoredSeat:
    seat: int
    kind: str  # "human", or a computer player's kind
    person: bool  # a person's seat (possibly handed to a computer player for now)
    name: str
    token_hash: str | None


@dataclass
class StoredKeys:
    """What says who may see a table, open or closed: its host's and seats' token hashes and its
    spectator token; its state, ruleset, and the games whose records are kept."""

    id: str
    state: str
    ruleset: str
    host_hash: str
    watch: str
    seat_hashes: list[str | None]
    records: list[int]  # numbers of its games with a record (finished, or kept when it closed)


@dataclass
class StoredTable:
    """One open table as the database holds it: what the server needs to play it again."""

    id: str
    created: float
    touched: float
    host_hash: str
    invite: str
    watch: str
    ruleset: str
    think: float
    seats: list[StoredSeat]
    game: int  # the number of its latest game
    head: dict[str, Any]  # that game's record head
    answers: list[dict[str, Any]]  # that game's answers, in order


class Store:
    """The database at `path` (made when absent), migrated to SCHEMA_VERSION."""

    def __init__(self, path: Path | str, clock: Callable[[], float] = time.time):
        self.path = str(path)
        self.clock = clock
        self._touched: set[str] = set()  # tables written to in the transaction open
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA foreign_keys = ON")
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = NORMAL")
            self.migrate()
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.path}: cannot use it as the table database: {e}") from None

    def version(self) -> int:
        return int(self.db.execute("PRAGMA user_version").fetchone()[0])

    def migrate(self) -> None:
        """Run the migrations this database has not had, each in one transaction."""
        version = self.version()
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: the table database is of version {version}, made by a newer whistdsl "
                f"(this one knows up to version {SCHEMA_VERSION}); it is left as it is"
            )
        for number in range(version, SCHEMA_VERSION):
            self.db.execute("BEGIN IMMEDIATE")
            try:
                for statement in MIGRATIONS[number].split(";"):
                    if statement.strip():
                        self.db.execute(statement)
                self.db.execute(f"PRAGMA user_version = {number + 1}")
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def close(self) -> None:
        self.commit()
        self.db.close()

    # -- writing: each joins the transaction open since the last commit

    def _write(self, sql: str, parameters: tuple = ()) -> None:
        if not self.db.in_transaction:
            self.db.execute("BEGIN")
        self.db.execute(sql, parameters)

    def commit(self) -> None:
        """Commit every write since the last commit, the tables touched marked so once each (a
        failed commit is rolled back and raised)."""
        if not self.db.in_transaction:
            return
        try:
            if self._touched:
                now = self.clock()
                self.db.executemany("UPDATE tables SET touched = ? WHERE id = ?", [(now, t) for t in self._touched])
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise
        finally:
            self._touched.clear()

    def new_table(
        self, table_id: str, host_hash: str, invite: str, watch: str, ruleset: str, think: float, seats: list[StoredSeat], head: dict[str, Any]
    ) -> None:
        now = self.clock()
        self._write("INSERT INTO tables VALUES (?, ?, ?, 'open', ?, ?, ?, ?, ?)", (table_id, now, now, host_hash, invite, watch, ruleset, think))
        for s in seats:
            self._write("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?)", (table_id, s.seat, s.kind, int(s.person), s.name, s.token_hash))
        self._write("INSERT INTO games (table_id, number, head) VALUES (?, 1, ?)", (table_id, json.dumps(head)))

    def new_game(self, table_id: str, number: int, head: dict[str, Any]) -> None:
        self._write("INSERT INTO games (table_id, number, head) VALUES (?, ?, ?)", (table_id, number, json.dumps(head)))
        self._touch(table_id)

    def answer(self, table_id: str, game: int, step: int, answer: dict[str, Any]) -> None:
        """Keep one answer (an answer for a step already kept raises sqlite3.IntegrityError)."""
        self._write("INSERT INTO answers VALUES (?, ?, ?, ?)", (table_id, game, step, json.dumps(answer)))
        self._touch(table_id)

    def finish_game(self, table_id: str, game: int, record: str) -> None:
        self._write("UPDATE games SET finished = ?, record = ? WHERE table_id = ? AND number = ?", (self.clock(), record, table_id, game))

    def set_seat(self, table_id: str, seat: StoredSeat) -> None:
        self._write(
            "UPDATE seats SET kind = ?, person = ?, name = ?, token_hash = ? WHERE table_id = ? AND seat = ?",
            (seat.kind, int(seat.person), seat.name, seat.token_hash, table_id, seat.seat),
        )

    def close_table(self, table_id: str, game: int, record: str | None) -> None:
        """The table is closed (it is not played on again); `record`: its game `game`'s record so
        far, kept when that game is not finished (a finished one's record is kept already)."""
        if record is not None:
            self._write("UPDATE games SET record = ? WHERE table_id = ? AND number = ? AND finished IS NULL", (record, table_id, game))
        self._write("UPDATE tables SET state = 'closed' WHERE id = ?", (table_id,))

    def prune(self, keep: int) -> int:
        """Remove the closed tables but the `keep` last played at (their seats, games and answers
        with them); how many were removed."""
        cursor = self.db.execute("SELECT id FROM tables WHERE state = 'closed' ORDER BY touched DESC, id LIMIT -1 OFFSET ?", (max(keep, 0),))
        old = [row[0] for row in cursor.fetchall()]
        for table_id in old:
            self._write("DELETE FROM tables WHERE id = ?", (table_id,))
        return len(old)

    def prune_games(self, table_id: str, keep: int) -> None:
        """Remove a table's games but its newest `keep` (the one being played among them)."""
        self._write(
            "DELETE FROM games WHERE table_id = ? AND number <= (SELECT MAX(number) FROM games WHERE table_id = ?) - ?",
            (table_id, table_id, max(keep, 1)),
        )

    def _touch(self, table_id: str) -> None:
        """The table was played at: its `touched` time is set when the transaction is committed."""
        self._touched.add(table_id)

    # -- reading

    def record(self, table_id: str, game: int) -> str | None:
        """A finished game's record, as written when it ended."""
        row = self.db.execute("SELECT record FROM games WHERE table_id = ? AND number = ?", (table_id, game)).fetchone()
        return row[0] if row else None

    def open_tables(self) -> list[StoredTable]:
        """Every open table with its latest game and that game's answers."""
        out = []
        for row in self.db.execute(
            "SELECT id, created, touched, host_hash, invite, watch, ruleset, think FROM tables WHERE state = 'open' ORDER BY created"
        ).fetchall():
            table_id = row[0]
            seats = [
                StoredSeat(seat, kind, bool(person), name, token)
                for seat, kind, person, name, token in self.db.execute(
                    "SELECT seat, kind, person, name, token_hash FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
                )
            ]
            number, head = self.db.execute("SELECT number, head FROM games WHERE table_id = ? ORDER BY number DESC LIMIT 1", (table_id,)).fetchone()
            answers = [
                json.loads(a)
                for (a,) in self.db.execute("SELECT answer FROM answers WHERE table_id = ? AND game = ? ORDER BY step", (table_id, number))
            ]
            out.append(StoredTable(*row, seats=seats, game=number, head=json.loads(head), answers=answers))  # type: ignore[misc]  # the row holds the table's own columns only; the rest are read apart
        return out

    def keys(self, table_id: str) -> StoredKeys | None:
        """The table's keys and kept records (open or closed), or None for no such table."""
        row = self.db.execute("SELECT id, state, ruleset, host_hash, watch FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            return None
        seats = [token for (token,) in self.db.execute("SELECT token_hash FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))]
        records = [n for (n,) in self.db.execute("SELECT number FROM games WHERE table_id = ? AND record IS NOT NULL ORDER BY number", (table_id,))]
        return StoredKeys(*row, seat_hashes=seats, records=records)  # type: ignore[misc]  # the row holds the table's own columns only; the seats and records are read apart
