"""Parameters: declared table options, read by every formula, set per game, checked by lint."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from whistdsl import lint_path, load_rules
from whistdsl.engine import Game
from whistdsl.players import RandomPlayer, play_out
from whistdsl.records.record import game_record

ONE_HAND = """
whistdsl: 2
name: One hand of a chosen size
parameters:
  tricks: {type: number, min: 1, max: 17, default: 7, description: cards in the one hand}
  hook: {type: yes/no, default: true, description: the last bidder may not make the bids add up}
  bonus_style: {type: text, choices: [ten, none], default: ten}
players:
  min: 3
  max: min(7, 51 // tricks)
schedule: [tricks]
trump:
  turn_up: true
bidding:
  allowed: not hook or not (is_last and bids_so_far + bid == hand_size)
scoring:
  # `tricks` here is the tricks the player took (the built-in name hides the parameter)
  points: if made then (if bonus_style == "ten" then 10 else 0) + tricks else -diff
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


@pytest.fixture
def one_hand(tmp_path):
    result = lint_path(write(tmp_path, ONE_HAND))
    assert result.findings == [] and result.ruleset is not None
    return result.ruleset


def test_defaults_are_the_values_of_a_game(one_hand):
    assert one_hand.parameter_values == {"tricks": 7, "hook": True, "bonus_style": "ten"}
    # players.max is min(7, 51 // 7) = min(7, 7) = 7
    assert (one_hand.players_min, one_hand.players_max, one_hand.players_default) == (3, 7, 3)
    assert one_hand.planned_hands(4)[0].size == 7


def test_setting_a_parameter_changes_the_player_range_and_the_schedule(one_hand):
    rules = one_hand.with_parameters({"tricks": 13})
    # 51 // 13 = 3: only 3 players can each have 13 cards and a card to turn up
    assert (rules.players_min, rules.players_max) == (3, 3)
    assert [h.size for h in rules.planned_hands(3)] == [13]
    assert rules.sha256 == one_hand.sha256  # the same rules, another table option
    assert one_hand.parameter_values["tricks"] == 7  # the original is unchanged
    rules = one_hand.with_parameters({"tricks": 10})
    assert rules.players_max == 5  # min(7, 51 // 10) = 5


@pytest.mark.parametrize(
    "values, words",
    [
        ({"trick": 5}, "has no parameter `trick`"),
        ({"tricks": 0}, "`tricks` is a whole number from 1 to 17, not 0"),
        ({"tricks": 18}, "`tricks` is a whole number from 1 to 17, not 18"),
        ({"hook": 1}, "`hook` is yes or no (true/false), not 1"),
        ({"bonus_style": "five"}, "`bonus_style` is one of ten, none"),
    ],
)
def test_a_value_a_parameter_cannot_take_is_refused(one_hand, values, words):
    with pytest.raises(ValueError) as e:
        one_hand.with_parameters(values)
    assert words in str(e.value)


def test_command_line_text_is_read_by_the_parameter_type(one_hand):
    tricks, hook, style = one_hand.parameters
    assert tricks.read("5") == 5 and hook.read("no") is False and hook.read("true") is True
    assert style.read("none") == "none"
    for p, text in ((tricks, "five"), (tricks, "1.5"), (hook, "maybe"), (style, "TEN")):
        with pytest.raises(ValueError):
            p.read(text)


def test_parameters_reach_the_bidding_and_the_scoring_of_a_game(one_hand):
    for values in ({"tricks": 5, "hook": True}, {"tricks": 5, "hook": False, "bonus_style": "none"}):
        rules = one_hand.with_parameters(values)
        hooked_somewhere = False
        for seed in range(30):
            game = Game(rules, players=4, seed=seed)
            play_out(game, [RandomPlayer()] * 4)
            (hand,) = game_record(game)["hands"]
            assert hand["cards"] == 5
            bids = [b["bid"] for b in hand["bids"]]
            hooked_somewhere |= sum(bids) == 5
            if values["hook"]:
                assert sum(bids) != 5  # the dealer is hooked
            for b in hand["bids"]:
                took = hand["taken"][b["seat"]]
                ten = 10 if values.get("bonus_style", "ten") == "ten" else 0
                # made: 10 (or 0) + the tricks taken (not the parameter); missed: minus the difference
                want = ten + took if took == b["bid"] else -abs(took - b["bid"])
                assert hand["points"][b["seat"]] == want
        assert hooked_somewhere == (not values["hook"])


def test_lint_checks_every_value_of_a_parameter(tmp_path):
    text = ONE_HAND.replace("max: min(7, 51 // tricks)", "max: 7")
    (f,) = [f for f in lint_path(write(tmp_path, text)).findings if f.severity == "error"]
    # tricks = 8 is the first value for which 7 players need more than 52 cards (7 x 8 = 56)
    assert f.code == "W402" and f.message.startswith("when tricks = 8: with 7 players, hand 1 deals 8 cards")
    assert "56 cards, but the deck has 52" in f.message


def test_the_player_range_formula_must_give_a_range(tmp_path):
    text = ONE_HAND.replace("max: min(7, 51 // tricks)", "max: 51 // tricks - 4")
    (f,) = lint_path(write(tmp_path, text)).findings
    # lint tries each parameter alone first, from its smallest value: 51 // 1 - 4 = 47 players
    assert f.code == "W406" and f.message == "when tricks = 1: players.max gives 47: a table has 2 to 10 players"


def test_a_player_range_formula_sees_only_parameters(tmp_path):
    text = ONE_HAND.replace("max: min(7, 51 // tricks)", "max: deck_size // 7")
    (f,) = lint_path(write(tmp_path, text)).findings
    assert f.code == "W303" and "not available in players.min, players.max, players.default" in f.message


# ------------------------------------------------------------------ --set on every command

import json  # noqa: E402

from typer.testing import CliRunner  # noqa: E402

from whistdsl.cli import app  # noqa: E402
from whistdsl.players import BOTS, decide  # noqa: E402
from whistdsl.records.replay import replay, resume  # noqa: E402
from whistdsl.rules.ruleset import SettingError  # noqa: E402

runner = CliRunner()

TWO_HANDS = ONE_HAND.replace("schedule: [tricks]", "schedule: [tricks, tricks]").replace(
    'points: if made then (if bonus_style == "ten" then 10 else 0) + tricks else -diff',
    'points: total // 100 + (if made then (if bonus_style == "ten" then 10 else 0) + tricks else -diff)',
)


def run(*args: str):
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_lint_set_checks_that_value_and_refuses_a_wrong_one(tmp_path):
    path = str(write(tmp_path, ONE_HAND.replace("max: min(7, 51 // tricks)", "max: 7")))
    assert run("lint", path).exit_code == 1  # some value of tricks (8 and more) does not fit 7 players
    assert run("lint", path, "--set", "tricks=7").exit_code == 0  # 7 x 7 = 49 cards + 1 turned up
    result = run("lint", path, "--set", "tricks=8")
    assert result.exit_code == 1 and "W402" in result.output and "when tricks = 8" in result.output
    for setting, words in (
        ("trick=5", "has no parameter `trick`; did you mean `tricks`?"),
        ("tricks=0", "`tricks` is a whole number from 1 to 17, not 0"),
        ("tricks=five", "`tricks` is a whole number from 1 to 17, not `five`"),
        ("hook=maybe", "`hook` is yes or no (true/false), not `maybe`"),
        ("tricks", "write --set NAME=VALUE"),
    ):
        result = run("lint", path, "--set", setting)
        assert result.exit_code == 2 and words in result.output and "Traceback" not in result.output


def test_simulate_and_play_take_set_and_the_player_range_follows(tmp_path):
    path = str(write(tmp_path, ONE_HAND))
    result = run("simulate", path, "--set", "tricks=5", "--players", "4", "--games", "20", "--workers", "1", "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["parameters"] == {"tricks": 5, "hook": True, "bonus_style": "ten"} and report["games"] == 20
    result = run("simulate", path, "--set", "tricks=13", "--players", "4", "--games", "2")
    assert result.exit_code == 2 and "3..3" in result.output and "tricks = 13" in result.output
    result = run("play", path, "--set", "tricks=13", "--players", "4", "--watch")
    assert result.exit_code == 2 and "3 to 3 players with tricks = 13" in result.output


def test_score_set_sets_parameters_and_every_name_the_scoring_context_sees(tmp_path):
    path = str(write(tmp_path, TWO_HANDS))
    assert "total // 100" in TWO_HANDS
    # points: total // 100 + (if made then 10 + tricks else -diff)
    assert run("score", path, "--cards", "3", "--bid", "2", "--tricks", "2").stdout.strip() == "12"  # 0 + 10 + 2
    assert run("score", path, "--cards", "3", "--bid", "2", "--tricks", "2", "--set", "total=250").stdout.strip() == "14"  # 2 + 12
    assert run("score", path, "--cards", "3", "--bid", "2", "--tricks", "0", "--set", "total=-150").stdout.strip() == "-4"  # -2 - 2
    out = run("score", path, "--cards", "3", "--bid", "1", "--tricks", "1", "--set", "bonus_style=none").stdout
    assert out.strip() == "1"  # 0 + 0 + 1
    for setting, words in (
        ("totl=3", "did you mean `total`?"),
        ("bid=3", "give `bid` with --bid"),
        ("total=lots", "`total` is a number"),
        ("is_dealer=maybe", "`is_dealer` is yes or no"),
    ):
        result = run("score", path, "--cards", "3", "--set", setting)
        assert result.exit_code == 2 and words in result.output, result.output


def test_records_keep_the_parameters_and_replay_reads_them(tmp_path):
    path = str(write(tmp_path, ONE_HAND))
    record = tmp_path / "game.json"
    result = run("play", path, "--set", "tricks=4", "--players", "5", "--watch", "--seed", "3", "--record", str(record))
    assert result.exit_code == 0, result.output
    data = json.loads(record.read_text())
    assert data["format"] == "whistdsl-record/2"
    assert data["parameters"] == {"tricks": 4, "hook": True, "bonus_style": "ten"}
    assert [h["cards"] for h in data["hands"]] == [4]
    assert run("replay", str(record)).exit_code == 0  # no --set: the record says tricks = 4
    assert run("replay", str(record), "--set", "tricks=4").exit_code == 0  # agreeing is fine
    result = run("replay", str(record), "--set", "tricks=5")
    assert result.exit_code == 2 and "the record was played with tricks = 4" in result.output
    result = run("replay", str(record), "--ruleset", "oh-hell")
    assert result.exit_code == 1 and "parameter tricks = 4" in result.output
    # a record whose parameter values the rules cannot take
    data["parameters"]["tricks"] = 40
    with pytest.raises(Exception) as e:
        replay(data)
    assert "`tricks` is a whole number from 1 to 17, not 40" in str(e.value)


def test_a_format_1_record_without_parameters_still_replays():
    saved = Path(__file__).parent / "data" / "romanian-seed-sheet.json"
    data = json.loads(saved.read_text())
    assert data["format"] == "whistdsl-record/1" and "parameters" not in data
    assert replay(data, load_rules("romanian")).hands == 5
    result = run("replay", str(saved), "--ruleset", "romanian")
    assert result.exit_code == 0 and "the game so far (5 hands finished) agrees" in result.output


def test_a_setup_without_recorded_parameters_takes_them_from_set(one_hand):
    game = Game(one_hand.with_parameters({"tricks": 3}), players=4, seed=1)
    play_out(game, [RandomPlayer()] * 4)
    data = json.loads(json.dumps(game_record(game)))
    del data["parameters"]  # as a set-up deal file or an old record would be
    data["format"] = "whistdsl-record/1"
    with pytest.raises(Exception):  # noqa: B017 any refusal will do; by default tricks = 7: the record's 3-card hand disagrees
        replay(data, one_hand)
    assert replay(data, one_hand, settings=["tricks=3"]).complete
    with pytest.raises(SettingError):
        replay(data, one_hand, settings=["tricks=x"])


def test_resume_keeps_the_parameters_of_the_record(tmp_path):
    result = lint_path(write(tmp_path, TWO_HANDS))
    assert result.findings == [] and result.ruleset is not None
    rules = result.ruleset.with_parameters({"tricks": 6, "hook": False})
    whole = Game(rules, players=4, seed=11)
    whole.keep_rng_states = True
    players = [BOTS["random"]() for _ in range(4)]
    while not whole.over:
        whole.act(decide(whole, players[whole.to_act]))
    interrupted = Game(rules, players=4, seed=11)
    interrupted.keep_rng_states = True
    players = [BOTS["random"]() for _ in range(4)]
    while len(interrupted.history) < 1:
        interrupted.act(decide(interrupted, players[interrupted.to_act]))
    on_disk = json.loads(json.dumps(game_record(interrupted)))
    resumed = resume(on_disk)  # its own ruleset, at its defaults (tricks 7), then the record's values
    assert resumed.rules.parameter_values == {"tricks": 6, "hook": False, "bonus_style": "ten"}
    players = [BOTS["random"]() for _ in range(4)]
    while not resumed.over:
        resumed.act(decide(resumed, players[resumed.to_act]))
    assert game_record(resumed)["hands"] == game_record(whole)["hands"]
    assert game_record(resumed)["parameters"] == {"tricks": 6, "hook": False, "bonus_style": "ten"}
    with pytest.raises(SettingError):
        resume(on_disk, settings=["hook=true"])
