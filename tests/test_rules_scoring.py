"""Scoring by the published rules, with golden numbers worked out by hand.

Two things the engine's replay tests cannot show, since they compare the engine with itself:
- the memoised scoring must read a seat's running values: seats with the same bid and tricks
  but different running values score differently when the bonus reads a running value;
- a game record built by hand from RULES.md (tests/data/romanian-seed-sheet.json: the seed's
  worked Romanian score sheet, played out card by card) replays clean, and the same record with
  one wrong number is rejected at that number.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from test_rules_of_play import cards, ruleset_from_yaml

from whistdsl import load_rules
from whistdsl.engine import Game, PresetDeal
from whistdsl.records.replay import Disagreement, check_record_shape, replay

DATA = Path(__file__).resolve().parent / "data"

# ---------------------------------------------------------------- the memo reads running values

# The bonus reads a running value: 5 points for every contract made in an earlier hand, paid
# when this one is made too. Two 1-card hands, 3 players, seat 0 deals first (clockwise).
LOYALTY_YAML = """\
whistdsl: 1
name: loyalty bonus
description: A made contract earns 5 more points for every contract made in an earlier hand.
players: {min: 3, max: 3, default: 3}
direction: clockwise
deck:
  suits: [spades, hearts, diamonds, clubs]
  ranks: [A, K, Q, J, T, 9, 8, 7, 6, 5, 4, 3, 2]
dealer:
  first: 0
schedule:
  - repeat(1, 2)
trump:
  turn_up: true
scoring:
  points: if made then 10 + bid else 0
  bonus: if made then 5 * made_before else 0
running:
  made_before:
    start: 0
    after_hand: made_before + (if made then 1 else 0)
winner:
  rank: [highest total]
"""

# Hand 1: seat 0 deals, seat 1 leads AS and wins; bids 1 (seat 1), 1 (seat 2), 0 (seat 0).
#   seat 0: bid 0, took 0, made: 10 + 0, bonus 5 x 0 -> 10
#   seat 1: bid 1, took 1, made: 10 + 1, bonus 5 x 0 -> 11
#   seat 2: bid 1, took 0, missed -> 0
#   made_before after hand 1: 1, 1, 0
# Hand 2: seat 1 deals, seat 2 leads KH, seat 1's AH wins; bids 0 (seat 2), 0 (seat 0), 1 (seat 1).
#   seat 2: bid 0, took 0, made: 10 + 0, bonus 5 x 0 -> 10
#   seat 0: bid 0, took 0, made: 10 + 0, bonus 5 x 1 -> 15   (seat 2's bid and tricks, another bonus)
#   seat 1: bid 1, took 1, made: 10 + 1, bonus 5 x 1 -> 16
LOYALTY_DEALS = {
    1: PresetDeal(deal=(cards("QS"), cards("AS"), cards("KS")), dealer=0, trump=-1),
    2: PresetDeal(deal=(cards("QH"), cards("AH"), cards("KH")), dealer=1, trump=-1),
}
LOYALTY_ACTIONS = [1, 1, 0, "AS", "KS", "QS", 0, 0, 1, "KH", "QH", "AH"]


def play_loyalty(rules) -> Game:
    game = Game(rules, players=3, seed=0, deals=LOYALTY_DEALS)
    for action in LOYALTY_ACTIONS:
        game.act(cards(action)[0] if isinstance(action, str) else action)
    return game


@pytest.fixture(scope="module")
def loyalty(tmp_path_factory):
    return ruleset_from_yaml(tmp_path_factory.mktemp("loyalty"), LOYALTY_YAML)


def test_seats_with_the_same_bid_and_tricks_score_by_their_own_running_values(loyalty):
    game = play_loyalty(loyalty)
    first, second = game.history
    assert list(first.points) == [10, 11, 0] and list(first.bonus) == [0, 0, 0]
    assert [r["made_before"] for r in first.running] == [1, 1, 0]
    assert list(second.bonus) == [5, 5, 0]
    assert list(second.points) == [15, 16, 10]
    assert list(second.totals) == [25, 27, 10]
    assert game.result.totals == (25, 27, 10) and game.result.winners == (1,)


def test_a_second_game_of_the_same_ruleset_scores_by_its_own_running_values(loyalty):
    # the memo is shared by every game of a ruleset: the second game must not reuse the first's
    assert play_loyalty(loyalty).result.totals == play_loyalty(loyalty).result.totals == (25, 27, 10)


# ---------------------------------------------------------------- a golden record from RULES.md

# RULES.md section 2, the seed's worked score sheet (3 players, Romanian scoring: made -> 5 +
# tricks; otherwise minus 1 a trick of difference). Seats: Adrian 0, Mihai 1, Paul 2; Paul deals
# hand 1 ("Paul was the dealer and was forced to bid 1"); the deal passes clockwise and the
# player left of the dealer bids first and leads. The deals are made up so that the tricks fall
# as the sheet implies; every point and total was worked out by hand:
#   hand 1 (Paul deals)   bids 1, 0, 1   taken 1, 0, 0   points  6,  5, -1   totals  6,  5, -1
#   hand 2 (Adrian deals) bids 0, 0, 0   taken 0, 0, 1   points  5,  5, -1   totals 11, 10, -2
#   hand 3 (Mihai deals)  bids 1, 1, 0   taken 0, 1, 0   points -1,  6,  5   totals 10, 16,  3
#   hand 4 (Paul deals)   bids 0, 2, 2   taken 0, 0, 2   points  5, -2,  7   totals 15, 14, 10
#   hand 5 (Adrian deals) bids 1, 0, 1   taken 2, 0, 1   points -1,  5,  6   totals 14, 19, 16
# (bids and taken listed by seat: Adrian, Mihai, Paul.)
SHEET_TOTALS = [[6, 5, -1], [11, 10, -2], [10, 16, 3], [15, 14, 10], [14, 19, 16]]


@pytest.fixture(scope="module")
def golden() -> dict:
    return json.loads((DATA / "romanian-seed-sheet.json").read_text(encoding="utf-8"))


def test_the_golden_record_is_the_score_sheet_of_rules_md(golden):
    # the data file says what the sheet says (so the file itself is checked against RULES.md)
    assert [p["name"] for p in golden["players"]] == ["Adrian", "Mihai", "Paul"]
    assert [h["totals"] for h in golden["hands"]] == SHEET_TOTALS
    assert [h["cards"] for h in golden["hands"]] == [1, 1, 1, 2, 3]
    for hand in golden["hands"]:
        assert [sum(row) for row in zip(*(h["points"] for h in golden["hands"][: hand["number"]]))] == hand["totals"]


def test_the_romanian_seed_sheet_played_out_replays_clean(golden):
    check_record_shape(golden)
    result = replay(golden, load_rules("romanian"))
    assert result.hands == 5 and not result.complete
    assert [list(h.totals) for h in result.game.history] == SHEET_TOTALS


def wrong(record: dict, hand: int, key: str, seat: int, value) -> dict:
    changed = copy.deepcopy(record)
    changed["hands"][hand - 1][key][seat] = value
    return changed


@pytest.mark.parametrize(
    "hand, key, seat, value, message",
    [
        # a made contract worth the Serbian premium (10 + tricks) instead of 5 + tricks
        (1, "points", 0, 11, "hand 1, scoring: seat 0: the record says points 11; the rules say 6"),
        # a miss by 2 costs 2, not 1
        (4, "points", 1, -1, "hand 4, scoring: seat 1: the record says points -1; the rules say -2"),
        # a running total one off
        (3, "totals", 2, 4, "hand 3, scoring: seat 2: the record says totals 4; the rules say 3"),
        # one trick moved in the count of tricks taken
        (5, "taken", 0, 1, "hand 5, scoring: seat 0: the record says tricks taken 1; the rules say 2"),
    ],
)
def test_the_golden_record_with_one_wrong_number_is_rejected_at_that_number(golden, hand, key, seat, value, message):
    with pytest.raises(Disagreement) as caught:
        replay(wrong(golden, hand, key, seat, value), load_rules("romanian"))
    assert str(caught.value) == message


def test_the_golden_record_with_a_wrong_trick_winner_is_rejected(golden):
    changed = copy.deepcopy(golden)
    changed["hands"][2]["tricks"][0]["winner"] = 0  # Mihai's trump 9H won hand 3, not Adrian's QD
    with pytest.raises(Disagreement, match=r"^hand 3, trick 1: the record says seat 0 won; by the rules seat 1 wins"):
        replay(changed, load_rules("romanian"))
