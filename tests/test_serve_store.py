"""The table database (whistdsl/web/store.py): a schema version from day one, migrations run in
order, and a database it does not know (newer, or not a database) refused without a change."""

from __future__ import annotations

import sqlite3

import pytest

from whistdsl.web.store import MIGRATIONS, SCHEMA_VERSION, Store, StoredSeat, StoreError


def test_a_new_database_is_made_at_the_newest_version_with_every_table(tmp_path):
    store = Store(tmp_path / "t.sqlite3")
    assert store.version() == SCHEMA_VERSION == len(MIGRATIONS)
    names = {row[0] for row in store.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"tables", "seats", "games", "answers"} <= names


def test_a_database_opened_again_keeps_its_tables_and_answers_in_order(tmp_path):
    path = tmp_path / "t.sqlite3"
    store = Store(path)
    store.new_table(
        "T1", "h", "inv", "w", "serbian", 0.5, [StoredSeat(0, "human", True, "Ana", None), StoredSeat(1, "random", False, "r", None)], {"seed": 1}
    )
    for step in range(1, 4):
        store.answer("T1", 1, step, {"seat": step % 2, "bid": step})
    store.close()
    again = Store(path)
    (table,) = again.open_tables()
    assert table.id == "T1" and table.game == 1 and table.head == {"seed": 1}
    assert [a["bid"] for a in table.answers] == [1, 2, 3]
    assert [(s.seat, s.kind, s.person, s.name) for s in table.seats] == [(0, "human", True, "Ana"), (1, "random", False, "r")]
    again.close_table("T1", 1, None)
    assert again.open_tables() == []


def test_an_answer_kept_twice_for_one_step_is_refused(tmp_path):
    store = Store(tmp_path / "t.sqlite3")
    store.new_table("T1", "h", "inv", "w", "serbian", 0.5, [StoredSeat(0, "human", True, "Ana", None)], {})
    store.answer("T1", 1, 1, {"seat": 0, "bid": 1})
    with pytest.raises(sqlite3.IntegrityError):
        store.answer("T1", 1, 1, {"seat": 0, "bid": 2})
    assert [a["bid"] for a in store.open_tables()[0].answers] == [1]


def test_a_database_of_a_newer_version_is_refused_and_left_as_it_is(tmp_path):
    path = tmp_path / "t.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE future (x)")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match=f"version {SCHEMA_VERSION + 1}, made by a newer whistdsl"):
        Store(path)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
    assert [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")] == ["future"]


def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    path = tmp_path / "t.sqlite3"
    path.write_bytes(b"this is not a database, it is a note\n" * 20)
    with pytest.raises(StoreError, match="cannot use it as the table database"):
        Store(path)
    assert path.read_bytes().startswith(b"this is not a database")
