"""Records can be trusted: replays recompute everything, tampering is caught exactly, resume is exact."""

from __future__ import annotations

import copy
import json

import pytest

from whistdsl import load_rules
from whistdsl.engine import Game, IllegalAction, PresetDeal
from whistdsl.engine.cards import parse_card
from whistdsl.players import BOTS, decide
from whistdsl.records.record import game_record
from whistdsl.records.replay import Disagreement, RecordError, check_record_shape, replay, resume, run_hand
from whistdsl.resources import bundled_rulesets

SUITS = {"S": "a spade", "H": "a heart", "D": "a diamond", "C": "a club"}


def recorded_game(name: str, players: int, seed: int, kinds=None) -> tuple[dict, Game]:
    rules = load_rules(name)
    kinds = kinds or ["heuristic", "random"] * 4
    kinds = kinds[:players]
    game = Game(rules, players=players, seed=seed)
    game.keep_rng_states = True
    bots = [BOTS[k]() for k in kinds]
    while not game.over:
        game.act(decide(game, bots[game.to_act]))
    return json.loads(json.dumps(game_record(game, kinds))), game


@pytest.mark.parametrize("name", sorted(bundled_rulesets()))
def test_records_of_every_bundled_ruleset_replay_clean(name):
    rules = load_rules(name)
    record, _ = recorded_game(name, rules.players_default, 3)
    check_record_shape(record)
    result = replay(record)
    assert result.complete and result.hands == len(record["hands"])


@pytest.fixture(scope="module")
def romanian_record():
    return recorded_game("romanian", 4, 17)[0]


def disagreement(record: dict) -> str:
    with pytest.raises(Disagreement) as caught:
        replay(record)
    return str(caught.value)


def test_a_card_moved_between_seats_is_caught_where_it_is_played(romanian_record):
    record = copy.deepcopy(romanian_record)
    # swap two cards of one suit between two seats: the deal still fits, the play does not
    hand, a, b, x, y = next(
        (h, a, b, x, y)
        for h in record["hands"]
        if h["cards"] >= 3
        for a, b in ((0, 1), (1, 2), (2, 3), (0, 2))
        for x in h["deal"][a]
        for y in h["deal"][b]
        if x[1] == y[1]
    )
    hand["deal"][a][hand["deal"][a].index(x)] = y
    hand["deal"][b][hand["deal"][b].index(y)] = x
    first = next(
        (t, c["seat"], c["card"])
        for t, trick in enumerate(hand["tricks"], start=1)
        for c in trick["cards"]
        if (c["seat"], c["card"]) in ((a, x), (b, y))
    )
    t, seat, card = first
    assert disagreement(record) == f"hand {hand['number']}, trick {t}: seat {seat} played {card} but does not hold it"


def test_an_illegal_card_is_caught_with_the_rule_it_breaks(romanian_record):
    record = copy.deepcopy(romanian_record)
    # find a seat that followed suit while holding another suit it played later in the hand
    for hand in record["hands"]:
        plays = [(t, c) for t, trick in enumerate(hand["tricks"], start=1) for c in trick["cards"]]
        for i, (t, c) in enumerate(plays):
            led = hand["tricks"][t - 1]["cards"][0]["card"][1]
            if c is hand["tricks"][t - 1]["cards"][0] or c["card"][1] != led:
                continue
            later = [(t2, c2) for t2, c2 in plays[i + 1 :] if c2["seat"] == c["seat"] and c2["card"][1] != led]
            if later:
                t2, c2 = later[0]
                c["card"], c2["card"] = c2["card"], c["card"]
                expected = f"hand {hand['number']}, trick {t}: seat {c['seat']} played {c['card']} but holds {SUITS[led]} (must follow)"
                assert disagreement(record) == expected
                return
    pytest.fail("no hand offered a follow-suit swap")


def test_a_forbidden_hook_bid_is_caught(romanian_record):
    record = copy.deepcopy(romanian_record)
    hand = next(h for h in record["hands"] if h["cards"] > 1 and 0 <= h["cards"] - sum(b["bid"] for b in h["bids"][:-1]) <= h["cards"])
    last = hand["bids"][-1]
    forbidden = hand["cards"] - sum(b["bid"] for b in hand["bids"][:-1])
    last["bid"] = forbidden
    assert disagreement(record) == (
        f"hand {hand['number']}, bidding: seat {last['seat']} bid {forbidden} but the bids would add up to {hand['cards']}, the hand size (hook)"
    )


def test_a_wrong_trick_winner_is_caught(romanian_record):
    record = copy.deepcopy(romanian_record)
    hand = next(h for h in record["hands"] if h["cards"] == 3)
    trick = hand["tricks"][1]
    right = trick["winner"]
    wrong = next(c["seat"] for c in trick["cards"] if c["seat"] != right)
    trick["winner"] = wrong
    cards = " ".join(c["card"] for c in trick["cards"])
    assert disagreement(record) == f"hand {hand['number']}, trick 2: the record says seat {wrong} won; by the rules seat {right} wins ({cards})"


def test_a_wrong_point_is_caught(romanian_record):
    record = copy.deepcopy(romanian_record)
    hand = record["hands"][6]
    right = hand["points"][2]
    hand["points"][2] = right + 1
    assert disagreement(record) == f"hand 7, scoring: seat 2: the record says points {right + 1}; the rules say {right}"


def test_a_wrong_total_is_caught(romanian_record):
    record = copy.deepcopy(romanian_record)
    hand = record["hands"][9]
    right = hand["totals"][3]
    hand["totals"][3] = right - 5
    assert disagreement(record) == f"hand 10, scoring: seat 3: the record says totals {right - 5}; the rules say {right}"


def test_a_wrong_winner_is_caught(romanian_record):
    record = copy.deepcopy(romanian_record)
    right = record["final"]["winners"]
    wrong = [s for s in range(4) if s not in right][:1]
    record["final"]["winners"] = wrong
    last = record["hands"][-1]["number"]
    rules_say = " and ".join(f"seat {s}" for s in right)
    assert disagreement(record) == f"hand {last}, end: the record says the winner is seat {wrong[0]}; by the rules it is {rules_say}"


@pytest.mark.parametrize("stop_after", [1, 4, 11, 20])
def test_a_resumed_game_ends_exactly_as_the_uninterrupted_one(stop_after):
    kinds = ["heuristic", "random", "mc", "random"]
    rules = load_rules("romanian")

    def bots():
        return [BOTS[k]() if k != "mc" else BOTS[k](samples=4, time_budget=60) for k in kinds]

    whole = Game(rules, players=4, seed=42)
    whole.keep_rng_states = True
    players = bots()
    while not whole.over:
        whole.act(decide(whole, players[whole.to_act]))
    full = game_record(whole, kinds)
    # the record as it stood on disk after hand `stop_after`
    interrupted = Game(rules, players=4, seed=42)
    interrupted.keep_rng_states = True
    players = bots()
    while len(interrupted.history) < stop_after:
        interrupted.act(decide(interrupted, players[interrupted.to_act]))
    on_disk = json.loads(json.dumps(game_record(interrupted, kinds)))
    assert "final" not in on_disk and on_disk["resume"]["after_hand"] == stop_after
    resumed = resume(on_disk)
    players = bots()
    while not resumed.over:
        resumed.act(decide(resumed, players[resumed.to_act]))
    assert game_record(resumed, kinds)["hands"] == full["hands"]
    assert game_record(resumed, kinds)["final"] == full["final"]


def test_a_partial_deal_file_plays_the_given_cards():
    rules = load_rules("romanian")
    deal_file = {
        "format": "whistdsl-record/1",
        "hands": [{"number": 1, "dealer": 2, "deal": [["AS"], ["KS"], ["9H"]], "turn_up": "TS"}],
    }
    check_record_shape(deal_file)
    result = replay(deal_file, rules)  # nothing played yet: consistent so far
    assert not result.complete and result.hands == 0
    game = result.game
    assert game.dealer == 2 and game.trump == parse_card("TS") >> 4
    assert [c for s in game.hands[0] for c in s] == [parse_card("AS")]
    assert [c for s in game.hands[2] for c in s] == [parse_card("9H")]


def test_run_hand_returns_the_legal_actions_seen_at_each_step_and_the_result():
    rules = load_rules("romanian")
    c = parse_card
    deal = PresetDeal(deal=((c("AS"),), (c("KS"),), (c("9H"),)), dealer=2, turn_up=c("TS"))
    run = run_hand(rules, deal, [0, 1, 1, "AS", "KS", "9H"], players=3)
    assert [s.legal for s in run.steps[:3]] == [(0, 1), (0, 1), (1,)]  # the dealer may not bid 0: 0 + 1 + 0 = 1
    assert [s.seat for s in run.steps] == [0, 1, 2, 0, 1, 2]
    assert run.result.taken == (1, 0, 0)
    # seat 0 bid 0 and took 1, seat 1 bid 1 and took 0, seat 2 bid 1 and took 0: each misses by one
    assert run.result.points == (-1, -1, -1)
    with pytest.raises(IllegalAction) as refused:
        run_hand(rules, deal, [0, 1, 0], players=3)
    assert refused.value.reason == "hook"


@pytest.mark.parametrize(
    "text, needle",
    [
        ('{"format": "whistdsl-record/9", "hands": []}', "upgrade whistdsl"),
        ('{"format": "whistdsl-record/1", "hands": [', "truncated"),
        ("not json", "invalid JSON"),
        ('{"format": "whistdsl-record/1", "hands": [{"number": 0, "deal": []}]}', "not a valid record"),
    ],
)
def test_unreadable_records_get_a_clear_message(tmp_path, text, needle):
    from whistdsl.records.replay import read_record

    path = tmp_path / "game.json"
    path.write_text(text)
    with pytest.raises(RecordError, match=needle):
        read_record(path)


def test_replay_command_exit_codes_and_messages(tmp_path, romanian_record):
    from typer.testing import CliRunner

    from whistdsl.cli import app

    runner = CliRunner()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(romanian_record))
    result = runner.invoke(app, ["replay", str(good)])
    assert result.exit_code == 0, result.output
    assert "OK" in result.output and "the whole game agrees with the rules" in result.output
    shown = runner.invoke(app, ["replay", str(good), "--show", "--tricks"])
    assert shown.exit_code == 0 and "trick  1:" in shown.output and "Winner" in shown.output

    bad = copy.deepcopy(romanian_record)
    bad["hands"][2]["points"][0] = 99
    bad_path = tmp_path / "bad.json"
    bad_path.write_text(json.dumps(bad))
    result = runner.invoke(app, ["replay", str(bad_path)])
    assert result.exit_code == 1
    assert "hand 3, scoring: Player 1: the record says points 99" in result.output  # named as the table names it

    truncated = tmp_path / "cut.json"
    truncated.write_text(json.dumps(romanian_record)[:500])
    result = runner.invoke(app, ["replay", str(truncated)])
    assert result.exit_code == 2 and "truncated" in result.output and "Traceback" not in result.output

    result = runner.invoke(app, ["replay", str(tmp_path / "missing.json")])
    assert result.exit_code == 2 and "cannot be read" in result.output

    other = runner.invoke(app, ["replay", str(good), "--ruleset", "serbian"])
    assert other.exit_code == 1 and "the rules deal" in other.output


def test_play_resume_continues_a_watch_game_to_the_same_end(tmp_path):
    from typer.testing import CliRunner

    from whistdsl.cli import app

    runner = CliRunner()
    full = tmp_path / "full.json"
    assert runner.invoke(app, ["play", "romanian", "--watch", "--seed", "3", "--bots", "random", "--record", str(full)]).exit_code == 0
    # the record as it stood after hand 9 of the same game
    rules = load_rules("romanian")
    game = Game(rules, players=4, seed=3)
    game.keep_rng_states = True
    bots = [BOTS["random"]() for _ in range(4)]
    while len(game.history) < 9:
        game.act(decide(game, bots[game.to_act]))
    part = tmp_path / "part.json"
    part.write_text(json.dumps(game_record(game, ["random"] * 4)))
    result = runner.invoke(app, ["play", "--resume", str(part), "--watch"])
    assert result.exit_code == 0, result.output
    resumed, whole = json.loads(part.read_text()), json.loads(full.read_text())
    assert resumed["hands"] == whole["hands"] and resumed["final"] == whole["final"]
    assert runner.invoke(app, ["play", "--resume", str(part), "--watch"]).exit_code == 2  # already over


def test_play_deal_plays_the_given_cards(tmp_path):
    from typer.testing import CliRunner

    from whistdsl.cli import app

    deal = tmp_path / "deal.json"
    deal.write_text(
        json.dumps({"format": "whistdsl-record/1", "hands": [{"number": 1, "dealer": 2, "deal": [["AS"], ["KS"], ["9H"]], "turn_up": "TS"}]})
    )
    out = tmp_path / "game.json"
    result = CliRunner().invoke(app, ["play", "romanian", "--deal", str(deal), "--watch", "--bots", "random", "--record", str(out)])
    assert result.exit_code == 0, result.output
    first = json.loads(out.read_text())["hands"][0]
    assert first["deal"] == [["AS"], ["KS"], ["9H"]] and first["turn_up"] == "TS" and first["dealer"] == 2
    assert [t["winner"] for t in first["tricks"]] == [0]  # the ace of trumps wins
    second = json.loads(out.read_text())["hands"][1]
    assert second["dealer"] == 0  # the deal passes on clockwise from the set-up dealer
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "whistdsl-record/1", "hands": [{"number": 1, "deal": [["AS"], ["AS"], ["9H"]]}]}))
    result = CliRunner().invoke(app, ["play", "romanian", "--deal", str(bad), "--watch"])
    assert result.exit_code == 2 and "AS is dealt twice" in result.output


def _replay_cli(tmp_path, record: dict, *args: str):
    from typer.testing import CliRunner

    from whistdsl.cli import app

    path = tmp_path / "r.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return CliRunner().invoke(app, ["replay", str(path), *args])


def test_an_unfinished_hand_may_not_list_results_the_rules_never_computed(tmp_path):
    record = {
        "format": "whistdsl-record/1",
        "hands": [
            {
                "number": 1,
                "dealer": 0,
                "deal": [["AS"], ["KS"], ["QS"]],
                "bids": [{"seat": 1, "bid": 0}, {"seat": 2, "bid": 0}, {"seat": 0, "bid": 0}],
                "taken": [1, 0, 0],
                "points": [99, 5, 5],
                "totals": [99, 5, 5],
            }
        ],
    }
    result = _replay_cli(tmp_path, record, "--ruleset", "romanian")
    assert result.exit_code == 1
    assert "hand 1, end of hand: the record lists the hand's taken, but the hand is not finished" in result.output


def test_a_set_up_file_of_deals_only_replays_as_far_as_it_goes_and_checks_every_deal(tmp_path):
    # Romanian at 3 players (24 cards, A to 9) starts with three 1-card hands: deals of the first two
    def hand(number, dealer, cards):
        return {"number": number, "dealer": dealer, "deal": cards, "turn_up": "9H"}

    record = {"format": "whistdsl-record/1", "hands": [hand(1, 0, [["AS"], ["KS"], ["QS"]]), hand(2, 1, [["AD"], ["KD"], ["QD"]])]}
    result = _replay_cli(tmp_path, record, "--ruleset", "romanian")
    assert result.exit_code == 0, result.output
    record["hands"][1]["deal"] = [["AD"], ["AD"], ["QD"]]
    result = _replay_cli(tmp_path, record, "--ruleset", "romanian")
    assert result.exit_code == 1
    assert "hand 2, deal:" in result.output and "AD" in result.output and "twice" in result.output


def test_the_command_names_the_players_as_the_table_does(romanian_record, tmp_path):
    """`seat 2` is `Player 3` at a table of default names: replay says the name (issue 12)."""
    from typer.testing import CliRunner

    from whistdsl.cli import app

    record = copy.deepcopy(romanian_record)
    assert [p["name"] for p in record["players"]] == ["Player 1", "Player 2", "Player 3", "Player 4"]
    right = record["hands"][6]["points"][2]
    record["hands"][6]["points"][2] = right + 1
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert f"hand 7, scoring: Player 3: the record says points {right + 1}; the rules say {right}" in result.output
    assert "seat 2" not in result.output
    record["players"][1]["name"] = "Player 3"  # two players of one name: the seat is said too
    path.write_text(json.dumps(record), encoding="utf-8")
    assert "Player 3 (seat 2): the record says points" in CliRunner().invoke(app, ["replay", str(path)]).output


def test_a_partial_record_is_said_in_words(romanian_record, tmp_path):
    from typer.testing import CliRunner

    from whistdsl.cli import app

    for kept, said in (
        (0, "the game so far (no hand finished yet) agrees"),
        (1, "the game so far (1 hand finished) agrees"),
        (3, "the game so far (3 hands finished) agrees"),
    ):
        record = copy.deepcopy(romanian_record)
        record["hands"] = record["hands"][:kept]
        record.pop("final", None)
        path = tmp_path / f"part{kept}.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        result = CliRunner().invoke(app, ["replay", str(path)])
        assert result.exit_code == 0 and said in result.output, result.output


def test_the_sheet_shown_into_a_pipe_has_no_spaces_at_line_ends(romanian_record, tmp_path):
    from typer.testing import CliRunner

    from whistdsl.cli import app

    path = tmp_path / "game.json"
    path.write_text(json.dumps(romanian_record), encoding="utf-8")
    for args in (["--show"], ["--show", "--tricks"]):
        result = CliRunner().invoke(app, ["replay", str(path), *args])
        lines = result.output.splitlines()
        assert result.exit_code == 0 and len(lines) > 10
        assert all(line == line.rstrip() for line in lines), [line for line in lines if line != line.rstrip()][:3]
