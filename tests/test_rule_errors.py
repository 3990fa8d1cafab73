"""Rule errors: when the rules cannot go on, the engine stops with a RuleError that names the
hand, the seat, the formula (file:line:col) and the values it read, and leaves the game as it was.

Each ruleset here reads values lint cannot enumerate (running values, totals), so lint lets it
through (at most with a warning) and the engine is the one that must say what went wrong.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from whistdsl import load_rules
from whistdsl.engine import Game, RuleError
from whistdsl.players import RandomPlayer, play_out
from whistdsl.players.mc import MonteCarloPlayer


def ruleset(tmp_path: Path, text: str, name: str = "house.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_rules(path), path


def stopped(rules, seed: int, players: int = 4) -> tuple[Game, RuleError]:
    """Play a game with random players, which must stop with a rule error: the game and the error."""
    game = Game(rules, players=players, seed=seed)
    with pytest.raises(RuleError) as caught:
        play_out(game, [RandomPlayer() for _ in range(players)])
    return game, caught.value


# a counter of hands played: 0 in hand 1, 1 in hand 2, 2 in hand 3
COUNTER = """\
running:
  played: {start: 0, after_hand: played + 1}
"""


def test_a_scoring_formula_that_divides_by_zero_in_hand_3_names_hand_seat_formula_and_values(tmp_path):
    rules, path = ruleset(
        tmp_path,
        "whistdsl: 1\nextends: romanian\n" + COUNTER + "scoring:\n  points: 10 / (played - 2)\n",
    )
    game, e = stopped(rules, seed=3)
    assert e.hand == 3
    assert e.seat == game.bidding_order[0]  # the first seat scored
    assert e.origin == f"scoring.points ({path}:6:11)"
    assert e.values == {"played": 2}
    assert "division by zero" in str(e)
    assert str(e).startswith(f"rule error in hand 3, seat {e.seat}: scoring.points ({path}:6:11): division by zero")
    # the two finished hands are kept, scored as the rules say (10 / -2 = -5, then 10 / -1 = -10)
    assert len(game.history) == 2
    assert [h.points for h in game.history] == [(-5,) * 4, (-10,) * 4]
    assert game.totals == [-15] * 4


def test_a_failed_hand_changes_no_total_or_running_value(tmp_path):
    # seat order matters: the failure comes at the second seat scored, after the first was scored
    rules, _ = ruleset(
        tmp_path,
        "whistdsl: 1\nextends: romanian\n" + COUNTER + "scoring:\n  points: if position == 2 and played == 1 then 1 / (played - 1) else 1\n",
    )
    game, e = stopped(rules, seed=5)
    assert e.hand == 2
    assert len(game.history) == 1
    assert game.totals == [1, 1, 1, 1]
    assert [r["played"] for r in game.running] == [1, 1, 1, 1]


def test_a_bidding_limit_that_leaves_no_legal_bid_is_a_rule_error_not_an_index_error(tmp_path):
    # only a seat whose total is 0 or more may bid; a seat that missed goes below 0 (-1 a trick off)
    rules, path = ruleset(tmp_path, "whistdsl: 1\nextends: romanian\nbidding:\n  allowed: total >= 0\n")
    game, e = stopped(rules, seed=2)
    assert e.seat is not None and game.totals[e.seat] < 0
    assert e.hand == len(game.history) + 1
    assert "no legal bid" in e.message
    assert e.origin == f"bidding.allowed ({path}:4:12)"
    assert e.values == {"total": game.totals[e.seat]}
    assert game.to_act == e.seat  # the game waits where it stopped
    with pytest.raises(RuleError):
        game.legal_actions()


def test_a_running_value_that_grows_past_the_number_cap_is_a_rule_error(tmp_path):
    # 2, 4, 16, 256, 65536, 2^32, 2^64, 2^128 > 10^30: the 7th hand's after_hand fails
    rules, path = ruleset(tmp_path, "whistdsl: 1\nextends: romanian\nrunning:\n  g: {start: 2, after_hand: g * g}\n")
    game, e = stopped(rules, seed=1)
    assert e.hand == 7
    assert e.origin.startswith("running.g.after_hand")
    assert e.values == {"g": 2**64}
    assert "10^30" in e.message
    assert len(game.history) == 6


def test_totals_are_held_to_the_number_cap_as_they_grow(tmp_path):
    # every seat scores 4 x 10^29 a hand: the third hand would bring a total to 1.2 x 10^30
    rules, _ = ruleset(tmp_path, "whistdsl: 1\nextends: romanian\nscoring:\n  points: 4 * 10 ^ 29\n")
    game, e = stopped(rules, seed=1)
    assert e.hand == 3
    assert "total" in e.message
    assert e.values == {"total": 8 * 10**29}
    assert len(game.history) == 2


def test_a_winner_key_that_divides_by_zero_is_a_rule_error_after_the_last_hand(tmp_path):
    rules, path = ruleset(
        tmp_path,
        "whistdsl: 1\nextends: romanian\nwinner:\n  rank: [highest total / (total - total)]\n",
    )
    game, e = stopped(rules, seed=1)
    assert e.hand == len(rules.planned_hands(4)) == len(game.history)
    assert e.origin == f"winner.rank[0] ({path}:4:10)"
    assert "division by zero" in e.message


def test_a_computer_player_looking_ahead_survives_imagined_deals_the_rules_cannot_finish(tmp_path):
    # scoring fails only when a seat takes exactly 3 tricks in hand 8 (8 cards): mc imagines it
    # often while choosing cards; the real game need not get there
    rules, _ = ruleset(
        tmp_path,
        "whistdsl: 1\nextends: romanian\n" + COUNTER + "scoring:\n  points: if played == 7 and tricks == 3 then 1 / (played - 7) else tricks\n",
    )
    game = Game(rules, players=3, seed=4)
    players = [MonteCarloPlayer(samples=4), RandomPlayer(), RandomPlayer()]
    try:
        play_out(game, players)
    except RuleError as e:  # the real game may reach it too: then it is that hand's rule error
        assert e.hand == 8 and e.values["tricks"] == 3
    else:
        assert game.over


def test_describe_names_the_seat_by_its_players_name():
    e = RuleError("no legal bid", hand=9, seat=2, origin="bidding.allowed (h.yaml:4:12)", values={"total": -3, "is_last": True})
    assert e.describe(["Ana", "Ben", "Cy", "Dee"]) == (
        "rule error in hand 9, seat 2 (Cy): bidding.allowed (h.yaml:4:12): no legal bid (it read is_last=true, total=-3)"
    )
