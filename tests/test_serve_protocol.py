"""`whistdsl serve`'s protocol (docs/serve.md), driven as pages drive it through Starlette's test
client: every message kind, bad messages, wrong tokens, reconnecting, a server started again
mid-hand from its database, and whole games whose records replay clean."""

from __future__ import annotations

import json
import random
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from serve_client import Server, Socket, settled
from starlette.websockets import WebSocketDisconnect

from whistdsl.players.base import RandomPlayer
from whistdsl.players.bots import BOTS
from whistdsl.records.replay import check_record_shape, replay
from whistdsl.web.protocol import MAX_MESSAGE_BYTES, BadMessage, read_message
from whistdsl.web.tables import Limits


def play(sockets: dict[int, Socket], watchers: list[Socket], rng: random.Random, stop=None) -> dict:
    """Answer every person's question at random (a legal answer) until the game is over (or
    `stop(frame)`); every socket reads each settled state. The last settled frame."""
    humans = set(sockets)
    step = -1
    while True:
        frames = {seat: s.until(settled(humans, step)) for seat, s in sockets.items()}
        for w in watchers:
            w.until(settled(humans, step))
        frame = next(iter(frames.values()))
        assert len({f["step"] for f in frames.values()}) == 1
        if frame["over"] is not None or (stop is not None and stop(frame)):
            return frame
        step = frame["step"]
        seat = frame["view"]["to_act"]
        question = frames[seat]["question"]
        assert question is not None
        assert all(f["question"] is None for s, f in frames.items() if s != seat), "only the seat to act is asked"
        answer = {"card": None} if question["unseen"] else {question["ask"]: rng.choice(question["options"])}
        sockets[seat].answer(answer)


def people_at(server: Server, ruleset: str, kinds: list[str]):
    table, host = server.open_table(ruleset, kinds)
    tokens = {s: server.join(table, s, f"Person {s + 1}") for s, k in enumerate(kinds) if k == "human"}
    return table, host, tokens


def test_a_seat_is_sent_its_cards_and_question_a_spectator_no_hidden_card_the_host_the_links(tmp_path):
    with Server(tmp_path) as server:
        table, host, tokens = people_at(server, "oh-hell-picture-no-trump", ["human", "human", "heuristic", "random"])
        seats = {s: server.socket(table, t) for s, t in tokens.items()}
        watcher = server.socket(table, table.watch)
        hosting = server.socket(table, host)
        first = {s: sock.until(settled({0, 1}, -1)) for s, sock in seats.items()}
        for seat, frame in first.items():
            assert frame["you"] == seat and frame["role"] == "seat"
            assert len(frame["view"]["hand"]) == frame["view"]["hand_size"]
            assert [p["name"] for p in frame["table"]["seats"]][:2] == ["Person 1", "Person 2"]
        to_act = first[0]["view"]["to_act"]
        assert first[to_act]["question"]["ask"] == "bid"
        spectator = watcher.until(settled({0, 1}, -1))
        assert spectator["you"] is None and spectator["question"] is None
        assert spectator["view"]["hand"] is None and spectator["view"]["others"] == {}
        assert "links" not in spectator
        host_frame = hosting.until(settled({0, 1}, -1))
        assert host_frame["links"] == {"invite": f"/t/{table.id}/join/{table.invite}", "watch": f"/t/{table.id}/watch/{table.watch}"}
        assert host_frame["view"]["hand"] is None


def test_two_people_and_two_computer_players_play_a_whole_game_whose_record_replays_clean_and_a_rematch_keeps_the_spectators(tmp_path):
    with Server(tmp_path) as server:
        table, host, tokens = people_at(server, "oh-hell-picture-no-trump", ["human", "heuristic", "human", "random"])
        seats = {s: server.socket(table, t) for s, t in tokens.items()}
        watcher = server.socket(table, table.watch)
        last = play(seats, [watcher], random.Random(3))
        assert last["over"]["winners"] and len(last["sheet"]) == 7
        assert last["sheet"][-1]["totals"] == last["over"]["totals"]
        response = server.client.get(f"/t/{table.id}/record/1/{tokens[0]}")
        assert response.status_code == 200 and response.headers["content-type"].startswith("application/json")
        record = check_record_shape(json.loads(response.text))
        assert [p["name"] for p in record["players"]] == ["Person 1", "heuristic 2", "Person 3", "random 4"]
        assert [p["kind"] for p in record["players"]] == ["human", "heuristic", "human", "random"]
        result = replay(record)
        assert result.complete and result.hands == 7
        seats[2].send({"type": "rematch"})
        again = watcher.until(lambda f: f["game"] == 2)
        assert again["step"] == 0 and again["over"] is None and again["sheet"] == []
        assert seats[0].until(lambda f: f["game"] == 2)["view"]["hand"] is not None


def test_every_bad_message_gets_an_error_and_changes_nothing(tmp_path):
    with Server(tmp_path) as server:
        table, host, tokens = people_at(server, "serbian", ["human", "human", "human", "human"])
        seats = {s: server.socket(table, t) for s, t in tokens.items()}
        frame = seats[0].until(settled({0, 1, 2, 3}, -1))
        to_act = frame["view"]["to_act"]
        other = (to_act + 1) % 4
        acting, waiting = seats[to_act], seats[other]
        cases = [
            (waiting, {"type": "answer", "step": 0, "answer": {"bid": 1}}, "not_your_turn"),
            (acting, {"type": "answer", "step": 0, "answer": {"bid": 14}}, "illegal"),
            (acting, {"type": "answer", "step": 0, "answer": {"bid": -1}}, "bad_message"),
            (acting, {"type": "answer", "step": 0, "answer": {"card": "AS"}}, "illegal"),
            (acting, {"type": "answer", "step": 5, "answer": {"bid": 1}}, "stale"),
            (acting, {"type": "answer", "step": 0, "answer": {"bid": 1}, "extra": 1}, "bad_message"),
            (acting, {"type": "answer", "step": 0, "answer": {"bid": 1, "card": "AS"}}, "bad_message"),
            (acting, {"type": "launch"}, "bad_message"),
            (acting, {"type": "hello", "token": tokens[to_act]}, "bad_message"),
            (acting, {"type": "hand_over", "seat": 1, "to": "random"}, "not_allowed"),
            (acting, {"type": "rematch"}, "not_allowed"),
            (acting, "[1, 2", "bad_message"),
            (acting, "[]", "bad_message"),
            (acting, '{"type": "rematch", "type": "rematch"}', "bad_message"),
            (acting, '{"type": "answer", "step": NaN, "answer": {"bid": 1}}', "bad_message"),
        ]
        for socket, message, code in cases:
            socket.send(message)
            error = socket.error()
            assert error["code"] == code, (message, error)
            assert error["message"]
        assert table.step == 0 and table.game.bid_log == []
        acting.answer({"bid": 1}, step=0)
        assert waiting.until(lambda f: f["step"] == 1)["view"]["bids"] == [[to_act, 1]]


def test_a_message_over_16_kib_is_refused_and_the_socket_closed(tmp_path):
    with Server(tmp_path) as server:
        table, host, tokens = people_at(server, "serbian", ["human", "random", "random", "random"])
        seat = server.socket(table, tokens[0])
        seat.send(json.dumps({"type": "rematch", "pad": "x" * MAX_MESSAGE_BYTES}))
        assert seat.error()["code"] == "too_big"
        with pytest.raises(WebSocketDisconnect) as closed:
            seat.read()
        assert closed.value.code == 1009


@pytest.mark.parametrize("hello", [{"type": "hello", "token": "wrong-token"}, {"type": "rematch"}, {"type": "hello", "token": "x" * 65}, "not json"])
def test_a_wrong_or_missing_token_is_sent_nothing_and_closed(tmp_path, hello):
    with Server(tmp_path) as server:
        table, host, tokens = people_at(server, "serbian", ["human", "random", "random", "random"])
        session = server.connect(table)
        session.send_text(hello if isinstance(hello, str) else json.dumps(hello))
        with pytest.raises(WebSocketDisconnect) as closed:
            session.receive_text()
        assert closed.value.code == 4403


@pytest.mark.parametrize("headers", [{}, {"origin": "http://evil.example"}, {"origin": "null"}])
def test_a_socket_from_another_origin_is_refused(tmp_path, headers):
    with Server(tmp_path) as server:
        table, host, tokens = people_at(server, "serbian", ["human", "random", "random", "random"])
        with pytest.raises(WebSocketDisconnect) as closed:
            session = server.connect(table, headers=headers)
            session.send_text(json.dumps({"type": "hello", "token": tokens[0]}))
            session.receive_text()
        assert closed.value.code == 4403


def test_a_wrong_link_shows_nothing_of_the_table(tmp_path):
    with Server(tmp_path) as server:
        table, host, tokens = people_at(server, "serbian", ["human", "human", "random", "random"])
        for path in (
            f"/t/{table.id}/seat/{table.watch}",
            f"/t/{table.id}/seat/nope",
            f"/t/{table.id}/watch/{tokens[0]}",
            f"/t/{table.id}/host/{table.invite}",
            f"/t/{table.id}/record/1/nope",
            f"/t/nope/seat/{tokens[0]}",
        ):
            response = server.client.get(path, follow_redirects=False)
            assert response.status_code == 404, path
            assert "Person" not in response.text
        assert server.client.get(f"/t/{table.id}/seat/{tokens[1]}").status_code == 200
        server.client.cookies.clear()
        assert server.client.get(f"/t/{table.id}", follow_redirects=False).status_code == 404  # no seat's cookie


def test_a_person_who_comes_back_by_the_link_or_the_cookie_has_the_same_seat_and_cards(tmp_path):
    with Server(tmp_path) as server:
        table, host, tokens = people_at(server, "serbian", ["human", "random", "random", "random"])
        first = server.socket(table, tokens[0])
        before = first.until(settled({0}, -1))
        first.session.close()
        again = server.socket(table, tokens[0])
        after = again.until(settled({0}, -1))
        assert after["view"] == before["view"] and after["question"] == before["question"] and after["you"] == 0
        response = server.client.get(f"/t/{table.id}", follow_redirects=False)  # the cookie set when the seat was taken
        assert response.status_code == 303 and response.headers["location"] == f"/t/{table.id}/seat/{tokens[0]}"


def test_a_server_started_again_mid_hand_has_every_table_where_it_was_and_plays_on_to_a_clean_record(tmp_path):
    rng = random.Random(8)
    with Server(tmp_path) as server:
        table, host, tokens = people_at(server, "oh-hell-picture-no-trump", ["human", "heuristic", "human", "mc"])
        seats = {s: server.socket(table, t) for s, t in tokens.items()}
        middle = play(seats, [], rng, stop=lambda f: f["view"]["phase"] == "play" and len(f["view"]["tricks"]) >= 1 and f["view"]["hand_number"] == 2)
        table_id, step = table.id, middle["step"]
        views = {s: sock.state for s, sock in seats.items()}
    with Server(tmp_path) as server:
        table = server.tables[table_id]
        assert table.step == step
        seats = {s: server.socket(table, t) for s, t in tokens.items()}
        for s, sock in seats.items():
            frame = sock.state
            assert frame["step"] == step
            assert frame["view"] == views[s]["view"] and frame["question"] == views[s]["question"] and frame["sheet"] == views[s]["sheet"]
        play(seats, [], rng)
        record = json.loads(server.client.get(f"/t/{table_id}/record/1/{host}").text)
        assert replay(check_record_shape(record)).complete


def test_the_host_hands_a_seat_to_a_computer_player_and_back(tmp_path):
    with Server(tmp_path) as server:
        table, host, tokens = people_at(server, "oh-hell-picture-no-trump", ["human", "human", "random", "random"])
        hosting = server.socket(table, host)
        seat1 = server.socket(table, tokens[1])
        seat0 = server.socket(table, tokens[0])
        hosting.send({"type": "hand_over", "seat": 1, "to": "heuristic"})
        handed = seat1.until(lambda f: f["table"]["seats"][1]["kind"] == "heuristic")
        assert handed["question"] is None and handed["view"]["hand"] is not None
        frame = seat0.until(settled({0}, -1))  # seat 1's computer player answers for it
        assert frame["view"]["to_act"] == 0 or frame["over"]
        hosting.send({"type": "hand_over", "seat": 1, "to": "person"})
        assert seat1.until(lambda f: f["table"]["seats"][1]["kind"] == "human")["table"]["seats"][1]["person"]
        hosting.send({"type": "hand_over", "seat": 2, "to": "person"})
        assert hosting.error()["code"] == "not_allowed"
        hosting.send({"type": "hand_over", "seat": 1, "to": "wizardly"})
        assert hosting.error()["code"] == "bad_message"


def test_messages_beyond_the_rate_are_refused(tmp_path):
    limits = Limits(messages_per_second=0.001, burst=5)
    with Server(tmp_path, limits) as server:
        table, host, tokens = people_at(server, "serbian", ["human", "random", "random", "random"])
        watcher = server.socket(table, table.watch)
        for _ in range(8):
            watcher.send({"type": "rematch"})
        codes = [watcher.error()["code"] for _ in range(8)]
        assert codes == ["not_allowed"] * 5 + ["too_fast"] * 3


def test_connections_tables_and_names_are_bounded(tmp_path):
    limits = Limits(tables=1, connections_per_table=2)
    with Server(tmp_path, limits) as server:
        table, host = server.open_table("serbian", ["human", "random", "human", "random"])
        tokens = {0: server.join(table, 0, "Ana")}
        server.socket(table, tokens[0])
        server.socket(table, table.watch)
        with pytest.raises(WebSocketDisconnect) as closed:
            session = server.connect(table)
            session.send_text(json.dumps({"type": "hello", "token": host}))
            session.receive_text()
        assert closed.value.code == 4403
        response = server.client.post("/tables", data={"ruleset": "serbian", "text": "", "players": "4", **{f"seat{s}": "random" for s in range(4)}})
        assert response.status_code == 503 and "holds 1 tables" in response.text
    with Server(tmp_path) as server:
        table = next(iter(server.tables.values()))
        for name, why in (("", "name is needed"), ("x" * 41, "at most 40"), ("Ana\x1b[31m", "control characters")):
            response = server.client.post(f"/t/{table.id}/join/{table.invite}", data={"seat": "2", "name": name}, follow_redirects=False)
            assert response.status_code == 422 and why in response.text
        response = server.client.post(f"/t/{table.id}/join/{table.invite}", data={"seat": "0", "name": "Ana"}, follow_redirects=False)
        assert response.status_code == 422 and "taken" in response.text
        response = server.client.post(f"/t/{table.id}/join/{table.invite}", data={"seat": "1", "name": "Ana"}, follow_redirects=False)
        assert response.status_code == 422 and "not a person" in response.text


JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 1003),
    st.sampled_from([0.0, 3.0, 2.5, -1.0, 1e300]),
    st.sampled_from(
        ["", "hello", "answer", "QH", "nil", "spades", "random", "person", "Wizardly", "a-b_C9", "x" * 64, "x" * 65, "é", "ro-RO", "en_GB"]
    ),
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["type", "bid", "card", "x"]), inner, max_size=3),
    max_leaves=6,
)
#: Each field of each message: mostly a value the schema may accept (JSON_SCALARS holds some), else any JSON value.
FIELD_VALUES = {
    "token": st.one_of(st.text("aZ09_-", min_size=0, max_size=66), JSON_SCALARS),
    "lang": st.one_of(st.text("enRO-_", max_size=17), JSON_SCALARS),
    "step": st.one_of(st.integers(-2, 10**6), st.integers(0, 9), JSON_SCALARS),
    "seat": st.one_of(st.integers(-1, 11), JSON_SCALARS),
    "to": st.one_of(st.sampled_from(["random", "heuristic", "person", "Mc", "x" * 32, "x" * 33]), JSON_SCALARS),
    "answer": st.one_of(
        st.dictionaries(
            st.sampled_from(["bid", "card", "decision"]),
            st.integers(-1, 1001) | st.sampled_from(["nil", "QH", "x" * 64, "x" * 65, None, 2.0, 2.5, True]),
            min_size=1,
            max_size=1,
        ),
        st.dictionaries(st.sampled_from(["bid", "card", "decision", "seat"]), JSON_VALUES, max_size=2),
        JSON_SCALARS,
    ),
}
NAMED = {"hello": ["token", "lang"], "answer": ["step", "answer"], "rematch": [], "hand_over": ["seat", "to"]}


@st.composite
def messages(draw):
    """A message of each kind, with its own fields (each maybe left out or of another shape) and
    sometimes another's field; or any JSON value at all."""
    if draw(st.integers(0, 9)) == 0:
        return draw(JSON_VALUES)
    kind = draw(st.sampled_from([*NAMED, "launch"]))
    message = {"type": kind}
    for name in NAMED.get(kind, []):
        if draw(st.integers(0, 5)):
            message[name] = draw(FIELD_VALUES[name])
    if draw(st.integers(0, 5)) == 0:
        other = draw(st.sampled_from([*FIELD_VALUES, "extra"]))
        message[other] = draw(FIELD_VALUES.get(other, JSON_VALUES))
    return message


@settings(max_examples=2000, deadline=None, derandomize=True)
@given(messages())
def test_the_message_check_accepts_exactly_what_the_schema_accepts(message):
    import jsonschema

    from whistdsl.web.protocol import message_schema

    expected = jsonschema.Draft202012Validator(message_schema()).is_valid(message)
    try:
        read_message(json.dumps(message))
    except BadMessage:
        accepted = False
    else:
        accepted = True
    assert accepted == expected, message


def test_the_message_check_refuses_a_schema_keyword_it_does_not_know():
    from whistdsl.web.protocol import _check

    with pytest.raises(ValueError, match="patternProperties"):
        _check({"type": "object", "properties": {"x": {"patternProperties": {}}}})


@pytest.mark.parametrize("name", ["wizard", "romanian-forehead"])
def test_a_view_as_a_frame_holds_it_is_the_view_s_json(name):
    from whistdsl.engine.game import Game
    from whistdsl.players.bots import make_bot
    from whistdsl.rules.lint import load_rules
    from whistdsl.web.protocol import view_json, view_text

    game = Game(load_rules(name), 4, seed=5)
    bot, rng, compared = make_bot("random"), random.Random(5), 0
    while not game.over:
        for seat in range(4):
            view = game.view(seat)
            assert json.loads(view_text(view)) == view_json(view)
            compared += bool(view.tricks)
        game.act(bot.act(None, game.legal_actions(), rng))
    assert compared > 50  # views with finished tricks in them


def test_a_seat_handed_back_to_its_person_during_a_computer_player_s_pause_plays_on(tmp_path):
    """The host hands a seat back while the computer player holding it waits out its pause (1 s
    here): its person answers, and the next computer player still plays after its own pause."""
    with Server(tmp_path, bot_pause=1.0) as server:
        table, host, tokens = people_at(server, "oh-hell-picture-no-trump", ["human", "human", "random", "random"])
        hosting = server.socket(table, host)
        person = server.socket(table, tokens[1])
        hosting.send({"type": "hand_over", "seat": 0, "to": "random"})  # every seat but 1 plays by itself
        for _ in range(20):  # until the hand-back comes within the pause (at once, but for a very slow machine)
            hosting.send({"type": "hand_over", "seat": 1, "to": "random"})
            frame = person.until(lambda f: f["table"]["seats"][1]["kind"] == "random" and f["view"]["to_act"] == 1)
            hosting.send({"type": "hand_over", "seat": 1, "to": "person"})
            frame = person.until(lambda f: f["table"]["seats"][1]["kind"] == "human")
            if frame["view"]["to_act"] == 1 and frame["question"] is not None:
                break
        else:
            pytest.fail("the computer player always played before the seat was handed back")
        person.answer({frame["question"]["ask"]: frame["question"]["options"][0]})
        deadline = time.monotonic() + 60
        while table.step <= frame["step"] + 1:  # seat 1's answer, then seat 2's computer player's
            assert time.monotonic() < deadline, f"no computer player played after seat 1's answer (step {table.step})"
            time.sleep(0.05)


def test_a_rematch_after_a_restart_keeps_the_table_s_parameters(tmp_path):
    with Server(tmp_path) as server:
        table, host = server.open_table("openspiel", ["human", "random", "random", "random"], params={"tricks": "4"})
        token = server.join(table, 0, "Ana")
        table_id = table.id
    with Server(tmp_path) as server:
        table = server.tables[table_id]
        seat = server.socket(table, token)
        last = play({0: seat}, [], random.Random(2))
        assert len(last["sheet"]) == 1 and last["sheet"][0]["cards"] == 4
        seat.send({"type": "rematch"})
        again = seat.until(lambda f: f["game"] == 2)
        assert again["view"]["hand_size"] == 4
        head = json.loads(server.app.state.store.db.execute("SELECT head FROM games WHERE table_id = ? AND number = 2", (table_id,)).fetchone()[0])
        assert head["parameters"] == {"tricks": 4}


@pytest.mark.parametrize("secure", [False, True])
def test_the_seat_cookie_is_for_the_table_s_pages_only_and_secure_when_asked(tmp_path, secure):
    with Server(tmp_path, secure_cookies=secure) as server:
        table, host = server.open_table("serbian", ["human", "random", "random", "random"])
        response = server.client.post(f"/t/{table.id}/join/{table.invite}", data={"seat": "0", "name": "Ana"}, follow_redirects=False)
        token = response.headers["location"].split("/")[-1]
        for cookie in (response.headers["set-cookie"], server.client.get(f"/t/{table.id}/seat/{token}").headers["set-cookie"]):
            attributes = {part.strip().split("=")[0].lower() for part in cookie.split(";")}
            assert cookie.startswith(f"seat={token};") and f"Path=/t/{table.id}" in cookie
            assert {"httponly", "samesite"} <= attributes and "samesite=strict" in cookie.lower()
            assert ("secure" in attributes) == secure


class HeldPlayer(RandomPlayer):
    """A computer player that thinks until the test lets it answer (as a search player thinking
    for seconds, but with no clock): it runs in the server's thread pool, since it is not quick."""

    kind = "held"
    quick = False
    asked = threading.Event()
    release = threading.Event()

    def act(self, view, legal, rng):
        HeldPlayer.asked.set()
        assert HeldPlayer.release.wait(60), "the test never released the player"
        return super().act(view, legal, rng)


def test_a_computer_player_thinking_holds_up_neither_its_own_table_nor_another(tmp_path, monkeypatch):
    monkeypatch.setitem(BOTS, "held", HeldPlayer)
    HeldPlayer.asked.clear()
    HeldPlayer.release.clear()
    with Server(tmp_path) as server:
        thinking, _ = server.open_table("oh-hell-picture-no-trump", ["held"] * 4)
        assert HeldPlayer.asked.wait(30)  # its first seat to act is thinking, in a worker thread
        watcher = server.socket(thinking, thinking.watch)  # its own table answers a spectator meanwhile
        assert watcher.state["step"] == 0 and watcher.state["view"]["to_act"] is not None

        table, host, tokens = people_at(server, "oh-hell-picture-no-trump", ["human", "random", "random", "random"])
        last = play({0: server.socket(table, tokens[0])}, [], random.Random(3), stop=lambda f: f["view"]["hand_number"] == 3)
        assert len(last["sheet"]) == 2  # two whole hands at the other table while the first still thinks
        assert thinking.step == 0 and not HeldPlayer.release.is_set()

        HeldPlayer.release.set()
        assert watcher.until(lambda f: f["step"] >= 4)["step"] >= 4  # let go, it plays on


REDEALT_FIRST_HAND = """\
whistdsl: 2
name: The first hand dealt again twice
players: {min: 4, max: 4}
schedule: [3, 2]
trump: {turn_up: true}
redeal:
  when: hand_number == 1
  limit: 2
scoring:
  points: if made then 10 + bid else 0
lint: {ignore: [W446]}
"""


def test_a_hand_dealt_again_is_shown_and_played_at_the_web_table_and_its_record_keeps_the_deals(tmp_path):
    with Server(tmp_path) as server:
        table, host = server.open_table("", ["human", "random", "heuristic", "random"], text=REDEALT_FIRST_HAND)
        token = server.join(table, 0, "Person 1")
        seat = server.socket(table, token)
        first = seat.until(settled({0}, -1))
        assert first["view"]["hand_number"] == 1 and first["view"]["redeals"] == 2, "hand 1 is dealt again twice (its limit)"
        last = play({0: seat}, [], random.Random(1))
        assert last["over"] is not None
        record = check_record_shape(json.loads(server.client.get(f"/t/{table.id}/record/1/{token}").text))
        assert [len(h.get("redeals", ())) for h in record["hands"]] == [2, 0]
        assert all(r["why"] == "when" for r in record["hands"][0]["redeals"])
        assert replay(record).complete


DECLARED_VOIDS = """\
whistdsl: 2
name: A void declared before the bidding
players: {min: 4, max: 4}
dealer: {first: 0}
schedule: [3]
trump: {turn_up: true}
decisions:
  - name: declare
    choices:
      void: shortest == 0
scoring:
  points: 'if made then 10 + bid + (if declared == "void" then 5 else 0) else 0'
"""


def test_a_person_declares_at_the_web_table_from_the_options_offered_and_the_record_keeps_it(tmp_path):
    with Server(tmp_path) as server:
        table, _ = server.open_table("", ["human", "random", "random", "random"], text=DECLARED_VOIDS)
        token = server.join(table, 0, "Person 1")
        seat = server.socket(table, token)
        first = seat.until(settled({0}, -1))
        # dealer 0: seats 1, 2, 3 declare first; 3 cards of 4 suits leave every seat a void, so each is asked
        question = first["question"]
        assert first["view"]["to_act"] == 0 and question["ask"] == "decision" and question["decision"] == "declare"
        assert question["options"] == ["no", "void"]
        assert len(first["view"]["declared"]) == 4 and first["view"]["declared"][0] == ""
        seat.answer({"decision": "void"})
        after = seat.until(lambda f: f["view"]["phase"] != "decision")
        assert after["view"]["declared"][0] == "void"
        last = play({0: seat}, [], random.Random(2))
        record = check_record_shape(json.loads(server.client.get(f"/t/{table.id}/record/1/{token}").text))
        assert {"seat": 0, "decision": "declare", "choice": "void"} in record["hands"][0]["choices"]
        assert last["over"] is not None and replay(record).complete


def test_a_table_with_super_trumps_sends_each_hands_super_trumps_and_plays_to_a_clean_record(tmp_path):
    # docs/examples/oh-hell-manilhas.yaml, shortened: the four cards one rank above the turned card
    from pathlib import Path

    manilhas = (Path(__file__).resolve().parent.parent / "docs" / "examples" / "oh-hell-manilhas.yaml").read_text(encoding="utf-8")
    text = manilhas.replace("extends: oh-hell", "extends: oh-hell\nschedule: [3, 2, 1]")
    with Server(tmp_path) as server:
        table, _ = server.open_table("", ["human", "heuristic", "human", "random"], text=text)
        tokens = {s: server.join(table, s, f"Person {s + 1}") for s in (0, 2)}
        seats = {s: server.socket(table, t) for s, t in tokens.items()}
        first = seats[0].until(settled({0, 2}, -1))["view"]
        rank = "23456789TJQKA"[("23456789TJQKA".index(first["turn_up"][0]) + 1) % 13]
        assert first["super_trumps"] == [rank + "C", rank + "H", rank + "S", rank + "D"]
        last = play(seats, [], random.Random(4))
        assert last["over"]["winners"]
        record = check_record_shape(json.loads(server.client.get(f"/t/{table.id}/record/1/{tokens[0]}").text))
        assert replay(record).complete


def test_the_view_says_the_auctions_calls_the_trump_it_names_and_which_bids_are_made_together(tmp_path):
    """What the page words a call, the trump still to come and the hidden bids by: the calls of
    the auction with the bid each makes for its caller (docs/examples/estimation-dash-and-double.yaml:
    dash 0, double none), trump named by the auction while it runs, and `together` (all but the
    last bidder's, docs/examples/oh-hell-dealer-bids-last.yaml); none of them for a ruleset
    without those rules."""
    from pathlib import Path

    examples = Path(__file__).resolve().parent.parent / "docs" / "examples"
    calls = (examples / "estimation-dash-and-double.yaml").read_text(encoding="utf-8") + '\nschedule: ["repeat(13, 1)"]\ndealer: {first: 3}\n'
    with Server(tmp_path) as server:
        table, _ = server.open_table("", ["human", "random", "random", "random"], text=calls)
        seat = server.socket(table, server.join(table, 0, "Person 1"))
        first = seat.until(settled({0}, -1))
        # dealer 3, counter-clockwise: seat 2 then 1 bid in the auction; seat 0 is asked third
        assert first["question"]["decision"] == "auction" and "dash" in first["question"]["options"]
        assert first["view"]["auction_calls"] == {"dash": 0, "double": None}
        assert first["view"]["trump_by_auction"] is True
        seat.answer({"decision": "dash"})
        after = seat.until(lambda f: f["view"]["phase"] != "decision")
        assert after["view"]["trump_by_auction"] is False and [0, "dash"] in after["view"]["auction"]
    last = (examples / "oh-hell-dealer-bids-last.yaml").read_text(encoding="utf-8") + "\nschedule: [2]\ndealer: {first: 0}\n"
    (tmp_path / "last").mkdir()
    with Server(tmp_path / "last") as server:
        table, _ = server.open_table("", ["random", "human", "random", "random"], text=last)
        seat = server.socket(table, server.join(table, 1, "Person 2"))
        view = seat.until(settled({1}, -1))["view"]
        assert view["together"] == "all_but_last" and view["bids_hidden"] is True
        assert "auction_calls" not in view and "trump_by_auction" not in view


def test_a_person_plays_the_joker_as_a_suit_declared_and_no_seat_sees_anothers_joker(tmp_path):
    # docs/examples/oh-hell-joker.yaml, one hand of 13 cards for four people: 52 of the 53 cards
    # are dealt and one turned, so the joker is in someone's hand or turned for trump
    from pathlib import Path

    joker = (Path(__file__).resolve().parent.parent / "docs" / "examples" / "oh-hell-joker.yaml").read_text(encoding="utf-8")
    text = joker.replace("extends: oh-hell", "extends: oh-hell\nplayers: {min: 4, max: 4, default: 4}\nschedule: [13]")
    with Server(tmp_path) as server:
        table, _ = server.open_table("", ["human"] * 4, text=text)
        tokens = {s: server.join(table, s, f"Person {s + 1}") for s in range(4)}
        seats = {s: server.socket(table, t) for s, t in tokens.items()}
        humans = set(seats)
        frames = {s: sock.until(settled(humans, -1)) for s, sock in seats.items()}
        assert all(f["view"]["specials"] == {"JK": "joker"} for f in frames.values())  # the page reads "joker" for JK
        holder = next((s for s, f in frames.items() if "JK" in f["view"]["hand"]), None)
        if holder is None:  # turned for trump: no trump, and nobody holds it
            assert frames[0]["view"]["turn_up"] == "JK" and frames[0]["view"]["trump"] == "none"
        for s, f in frames.items():  # a seat's view shows its own cards only
            assert ("JK" in f["view"]["hand"]) == (s == holder)
            assert f["view"]["others"] == {}
        rng = random.Random(3)
        step, played_as = -1, None
        while True:
            frames = {s: sock.until(settled(humans, step)) for s, sock in seats.items()}
            frame = frames[0]
            if frame["over"] is not None:
                break
            step = frame["step"]
            seat = frame["view"]["to_act"]
            question = frames[seat]["question"]
            forms = [o for o in question["options"] if isinstance(o, str) and o.startswith("JK=")]
            if forms and played_as is None:
                assert seat == holder and "JK" not in question["options"]  # only with a suit
                seats[seat].answer({"card": "JK"})
                error = seats[seat].error()
                assert error["code"] == "illegal" and "say the suit the joker takes: JK=" in error["message"], error
                played_as = forms[-1]
                seats[seat].answer({"card": played_as})
                after = {s: sock.until(lambda f, step=step: f["step"] > step) for s, sock in seats.items()}
                for f in after.values():  # the suit declared is public once played: every seat sees it
                    cards = f["view"]["trick"] or f["view"]["tricks"][-1]["cards"]
                    assert [seat, played_as] in cards
                continue
            answer = rng.choice([o for o in question["options"] if not (isinstance(o, str) and o.startswith("JK="))] or question["options"])
            seats[seat].answer({question["ask"]: answer})
        assert (played_as is None) == (holder is None)
        record = check_record_shape(json.loads(server.client.get(f"/t/{table.id}/record/1/{tokens[0]}").text))
        assert replay(record).complete
        if played_as is not None:
            assert played_as in [c["card"] for h in record["hands"] for t in h["tricks"] for c in t["cards"]]
