"""`whistdsl serve` does not grow without end (docs/serve.md, "Security", the limits): a table
nobody is at and nothing has happened at for `close_after` is closed, leaves memory and keeps
its records, downloadable by its links; of the closed tables only the newest are kept; a table
keeps only its newest games as rematches follow; a flood of new tables meets the bound on open
tables. Time is a clock the test moves: nothing sleeps."""

from __future__ import annotations

import json
import random
import sqlite3

from serve_client import Server
from test_serve_protocol import play

from whistdsl.records.replay import check_record_shape, replay
from whistdsl.web.store import Store, StoredSeat
from whistdsl.web.tables import Limits

HOUR = 3600.0


class Clock:
    """A clock that moves only when the test moves it."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def counts(db) -> dict[str, int]:
    """Rows of each of the database's tables (read by a connection of its own)."""
    with sqlite3.connect(db) as reader:
        return {name: reader.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0] for name in ("tables", "seats", "games", "answers")}


def test_a_table_nobody_is_at_closes_after_the_set_time_and_its_record_stays_downloadable_and_replays(tmp_path):
    clock = Clock()
    limits = Limits(messages_per_second=1000, burst=1000, close_after=24 * HOUR)
    with Server(tmp_path, limits, clock=clock) as server:
        table, host = server.open_table("oh-hell-picture-no-trump", ["human", "random", "random", "random"])
        token = server.join(table, 0, "Ana")
        seat = server.socket(table, token)
        middle = play({0: seat}, [], random.Random(4), stop=lambda f: f["view"]["hand_number"] == 2)
        assert len(middle["sheet"]) == 1
        manager = server.app.state.tables

        clock.now += 48 * HOUR
        assert server.on_loop(manager.close_abandoned) == []  # Ana is at the table: it stays open
        seat.session.close()
        seat.session.__exit__(None, None, None)
        server.on_loop(lambda: None)  # the socket's end is handled
        clock.now += 24 * HOUR - 1
        assert server.on_loop(manager.close_abandoned) == []  # a second short of the time since she left
        clock.now += 1
        assert server.on_loop(manager.close_abandoned) == [table.id]
        assert table.id not in server.tables

        for link in (f"/t/{table.id}/seat/{token}", f"/t/{table.id}/watch/{table.watch}", f"/t/{table.id}/host/{host}"):
            page = server.client.get(link)
            assert page.status_code == 200 and "This table was closed" in page.text and "24 hours" in page.text
            assert f"/t/{table.id}/record/1/" in page.text
        assert server.client.get(f"/t/{table.id}/seat/{table.watch}").status_code == 404  # a wrong link still shows nothing
        assert server.client.get(f"/t/{table.id}/join/{table.invite}").status_code == 404  # nobody joins a closed table
        response = server.client.get(f"/t/{table.id}/record/1/{token}")
        assert response.status_code == 200
        assert server.client.get(f"/t/{table.id}/record/1/not-a-token").status_code == 404
    record = check_record_shape(json.loads(response.text))
    result = replay(record)
    assert result.hands == 1 and not result.complete  # its finished hand checks clean; the game was not over
    assert [p["name"] for p in record["players"]][0] == "Ana"
    with Server(tmp_path, limits, clock=clock) as server:  # a closed table is not played again
        assert table.id not in server.tables
        assert server.client.get(f"/t/{table.id}/record/1/{table.watch}").status_code == 200


def test_a_server_started_again_closes_the_tables_abandoned_meanwhile(tmp_path):
    clock = Clock()
    limits = Limits(close_after=2 * HOUR)
    with Server(tmp_path, limits, clock=clock) as server:
        old, _ = server.open_table("serbian", ["human", "random", "random", "random"])
        clock.now += HOUR
        new, _ = server.open_table("serbian", ["human", "random", "random", "random"])
    clock.now += HOUR + 1
    with Server(tmp_path, limits, clock=clock) as server:
        assert old.id not in server.tables and new.id in server.tables


def test_only_the_newest_closed_tables_are_kept_and_a_flood_of_tables_meets_the_bound(tmp_path):
    clock = Clock()
    limits = Limits(tables=3, closed_tables=4, close_after=HOUR)
    with Server(tmp_path, limits, clock=clock) as server:
        manager = server.app.state.tables
        opened = []
        for wave in range(5):
            for _ in range(3):
                opened.append(server.open_table("serbian", ["human", "random", "random", "random"])[0].id)
                clock.now += 1
            form = {"ruleset": "serbian", "text": "", "players": "4", **{f"seat{s}": "random" for s in range(4)}}
            assert server.client.post("/tables", data=form).status_code == 503  # full
            assert len(server.tables) == 3
            clock.now += HOUR
            server.on_loop(manager.close_abandoned)
            assert server.tables == {}
            rows = counts(server.db)
            assert rows["tables"] == min(3 * (wave + 1), 4)  # the closed ones kept, no more
            assert rows["games"] == rows["tables"] and rows["seats"] == 4 * rows["tables"]
        with sqlite3.connect(server.db) as reader:
            kept = {row[0] for row in reader.execute("SELECT id FROM tables")}
        assert kept == set(opened[-4:])  # the newest


def test_a_table_keeps_only_its_newest_games_as_rematches_follow(tmp_path):
    limits = Limits(messages_per_second=1000, burst=1000, games_per_table=2)
    with Server(tmp_path, limits) as server:
        table, host = server.open_table("openspiel", ["human", "random", "random", "random"], params={"tricks": "1"})
        seat = server.socket(table, server.join(table, 0, "Ana"))
        rng = random.Random(6)
        for number in range(1, 5):
            last = play({0: seat}, [], rng, stop=lambda f, n=number: f["game"] == n and f["over"] is not None)
            assert last["game"] == number
            seat.send({"type": "rematch"})
            seat.until(lambda f, n=number: f["game"] == n + 1)
        with sqlite3.connect(server.db) as reader:
            games = [row[0] for row in reader.execute("SELECT number FROM games WHERE table_id = ? ORDER BY number", (table.id,))]
            answered = {row[0] for row in reader.execute("SELECT DISTINCT game FROM answers WHERE table_id = ?", (table.id,))}
        assert games == [4, 5] and answered <= {4, 5}
        assert server.client.get(f"/t/{table.id}/record/4/{host}").status_code == 200
        assert server.client.get(f"/t/{table.id}/record/3/{host}").status_code == 404


def test_the_store_prunes_closed_tables_by_when_they_were_last_played_at(tmp_path):
    clock = Clock()
    store = Store(tmp_path / "t.sqlite3", clock)
    for name in ("A", "B", "C", "D"):
        store.new_table(name, "h", "i", "w", "serbian", 0.5, [StoredSeat(0, "human", True, "Ana", None)], {})
        store.commit()
        clock.now += 10
    store.answer("A", 1, 1, {"seat": 0, "bid": 1})  # A is played at last
    store.commit()
    for name in ("A", "B", "C"):
        store.close_table(name, 1, '{"hands": []}')
    assert store.prune(2) == 1
    store.commit()
    assert {t.id for t in store.open_tables()} == {"D"}
    assert [store.keys(n) is not None for n in "ABCD"] == [True, False, True, True]
    assert store.keys("A").records == [1] and store.record("A", 1) == '{"hands": []}'
    assert counts(tmp_path / "t.sqlite3") == {"tables": 3, "seats": 3, "games": 3, "answers": 1}


def test_one_address_opens_tables_and_has_rulesets_checked_at_a_bounded_rate_and_other_addresses_are_not_held_up(tmp_path):
    clock = Clock()
    limits = Limits(tables_per_hour=2, tables_burst=2, rulesets_per_minute=3, rulesets_burst=3, addresses=2)
    form = {"ruleset": "serbian", "text": "", "players": "4", **{f"seat{s}": "random" for s in range(4)}}
    with Server(tmp_path, limits, clock=clock) as server:
        assert [server.client.post("/tables", data=form, follow_redirects=False).status_code for _ in range(3)] == [303, 303, 429]
        refused = server.client.post("/tables", data=form, follow_redirects=False)
        assert refused.status_code == 429 and refused.headers["retry-after"] == "60" and "Too many tables opened" in refused.text
        assert len(server.tables) == 2  # nothing was opened nor linted for the refused ones
        assert server.client.post("/setup", data={"ruleset": "serbian", "text": ""}).status_code == 200  # the third of 3 a minute
        assert server.client.post("/setup", data={"ruleset": "serbian", "text": ""}).status_code == 429

        # another address has allowances of its own (asked on the server's loop, as a request
        # from that address asks: a second test client would be a second loop at the same store)
        manager = server.app.state.tables
        assert server.on_loop(manager.opening.allow, "192.0.2.7") and server.on_loop(manager.linting.allow, "192.0.2.7")

        clock.now += HOUR / 2  # half an hour: one table (2 an hour) and every lint (3 a minute) again
        assert server.client.post("/tables", data=form, follow_redirects=False).status_code == 303
        assert server.client.post("/tables", data=form, follow_redirects=False).status_code == 429
        for n in range(5):  # a flood of addresses: only the newest `addresses` are remembered
            server.on_loop(manager.linting.allow, f"192.0.2.{100 + n}")
            server.on_loop(manager.opening.allow, f"192.0.2.{100 + n}")
        assert len(manager.linting) == 2 and len(manager.opening) == 2
