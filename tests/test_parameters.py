"""Parameters: declared table options, read by every formula, set per game, checked by lint."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from whistdsl import lint_path
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
