"""The bundled Oh Hell family rulesets of issue 10 (mine: nomination-whist, boerenbridge, kachuful).

For each: a score table worked out by hand from the published rules (the source is in the
ruleset's comments; the arithmetic is in the comments here), the schedule and trumps as the
rules state them, and whole seeded games between computer players checked hand by hand by the
independent checker of tests/independent.py, which knows only the rules written out below.
"""

from __future__ import annotations

import json

import pytest
from independent import Rules, check_record, suit
from typer.testing import CliRunner

from whistdsl import load_rules
from whistdsl.cli import app
from whistdsl.engine import Game
from whistdsl.players import BOTS, decide
from whistdsl.records.record import game_record
from whistdsl.records.replay import replay

runner = CliRunner()


def score_table(name: str, cards: int, players: int) -> list[list[int]]:
    """`whistdsl score NAME --cards N`: the points for every bid (rows) and tricks (columns)."""
    result = runner.invoke(app, ["score", name, "--cards", str(cards), "--players", str(players)])
    assert result.exit_code == 0, result.output
    rows = result.output.strip().splitlines()[1:]
    return [[int(x) for x in row.split()[1:]] for row in rows]


def sizes_of(name: str, players: int) -> list[int]:
    return [h.size for h in load_rules(name).planned_hands(players)]


def played(name: str, players: int, seed: int, kinds: tuple[str, ...] = ("heuristic", "random")) -> dict:
    """A whole game between computer players, as its record (JSON, as written to a file)."""
    game = Game(load_rules(name), players=players, seed=seed)
    game.keep_rng_states = True
    bots = [BOTS[kinds[i % len(kinds)]]() for i in range(players)]
    while not game.over:
        game.act(decide(game, bots[game.to_act]))
    return json.loads(json.dumps(game_record(game, [kinds[i % len(kinds)] for i in range(players)])))


# ---------------------------------------------------------------- Nomination Whist

# nommy.co.uk: "1 point per trick won, plus 10 point bonus if the number of tricks won exactly
# equals number bid". A 3-card hand, bid (rows) x tricks (columns):
#   bid 0: tricks 0 is exact: 0 + 10 = 10; tricks 1, 2, 3: 1, 2, 3
#   bid 1: 0; exact 1 + 10 = 11; 2; 3
#   bid 2: 0; 1; exact 2 + 10 = 12; 3
#   bid 3: 0; 1; 2; exact 3 + 10 = 13
NOMINATION_3 = [
    [10, 1, 2, 3],
    [0, 11, 2, 3],
    [0, 1, 12, 3],
    [0, 1, 2, 13],
]

NOMINATION = Rules(
    sizes=lambda players: [*range(8 if players == 6 else 10, 0, -1), *range(2, (8 if players == 6 else 10) + 1)],
    trump=lambda number, size, players, turn_up: ["spades", "hearts", "clubs", "diamonds", "none"][(number - 1) % 5],
    score=lambda bid, tricks, size: tricks + (10 if tricks == bid else 0),
)


def test_nomination_whist_scores_a_point_a_trick_and_ten_for_the_exact_bid():
    assert score_table("nomination-whist", 3, 4) == NOMINATION_3
    # the page's own examples: bid 1, win 2 scores 2; bid 3, win 3 scores 13 (10-card hand)
    table = score_table("nomination-whist", 10, 4)
    assert table[1][2] == 2 and table[3][3] == 13


def test_nomination_whist_deals_ten_down_to_one_and_back_eight_with_six_players():
    assert sizes_of("nomination-whist", 4) == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert sizes_of("nomination-whist", 6) == [8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8]
    assert load_rules("nomination-whist").trump_cycle == ("spades", "hearts", "clubs", "diamonds", "none")


@pytest.mark.parametrize("players, seed", [(3, 1), (4, 2), (6, 3)])
def test_nomination_whist_games_follow_the_rules(players, seed):
    record = played("nomination-whist", players, seed)
    check_record(record, NOMINATION)
    assert replay(record).complete


# ---------------------------------------------------------------- Boerenbridge

# kaartspeluitleg.nl: exact: 5 points and a point for each trick won; otherwise a minus point for
# each trick off. A 3-card hand:
#   bid 0: exact 5 + 0 = 5; tricks 1, 2, 3 are 1, 2, 3 off: -1, -2, -3
#   bid 1: 1 off: -1; exact 5 + 1 = 6; -1; -2
#   bid 2: -2; -1; exact 5 + 2 = 7; -1
#   bid 3: -3; -2; -1; exact 5 + 3 = 8
BOERENBRIDGE_3 = [
    [5, -1, -2, -3],
    [-1, 6, -1, -2],
    [-2, -1, 7, -1],
    [-3, -2, -1, 8],
]

BOERENBRIDGE = Rules(
    # 1 (the forehead hand), 2 up to the largest hand that leaves a card to turn, and down to 1
    sizes=lambda players: [1, *range(2, 51 // players + 1), *range(51 // players - 1, 0, -1)],
    trump=lambda number, size, players, turn_up: suit(turn_up),
    score=lambda bid, tricks, size: 5 + tricks if tricks == bid else -abs(bid - tricks),
    hooked=lambda size: size > 3,
)


def test_boerenbridge_scores_five_and_a_trick_or_minus_the_difference():
    assert score_table("boerenbridge", 3, 5) == BOERENBRIDGE_3
    assert score_table("boerenbridge", 7, 5)[7][2] == -5  # the page's example: bid 7, won 2


def test_boerenbridge_deals_one_on_the_forehead_then_up_to_ten_and_down_with_five_players():
    rules = load_rules("boerenbridge")
    plan = rules.planned_hands(5)
    assert [h.size for h in plan] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    assert [h.kind for h in plan[:2]] == ["forehead", "normal"]
    assert rules.kinds["forehead"].view == "forehead"
    assert len(sizes_of("boerenbridge", 4)) == 1 + 11 + 11  # up to 12 (51 // 4) and back


def test_boerenbridge_hooks_the_dealer_only_above_three_cards():
    allowed = load_rules("boerenbridge").allowed
    last = {"is_last": True, "bids_so_far": 2}
    assert allowed({**last, "hand_size": 3, "bid": 1})  # 2 + 1 == 3, but only 3 cards: allowed
    assert not allowed({**last, "hand_size": 4, "bid": 2})  # 2 + 2 == 4 with 4 cards: hooked


@pytest.mark.parametrize("players, seed", [(3, 4), (5, 5), (7, 6)])
def test_boerenbridge_games_follow_the_rules(players, seed):
    record = played("boerenbridge", players, seed)
    check_record(record, BOERENBRIDGE)
    assert replay(record).complete


def test_the_independent_checker_catches_a_wrong_score_a_wrong_winner_and_a_missed_hook():
    from independent import Wrong

    record = played("nomination-whist", 4, 2)
    wrong = json.loads(json.dumps(record))
    wrong["hands"][0]["points"][0] += 1
    with pytest.raises(Wrong, match="hand 1: points"):
        check_record(wrong, NOMINATION)
    wrong = json.loads(json.dumps(record))
    trick = wrong["hands"][0]["tricks"][0]
    trick["winner"] = (trick["winner"] + 1) % 4
    with pytest.raises(Wrong, match="hand 1: seat"):
        check_record(wrong, NOMINATION)
    # the right game against a misreading of the rules (a point a trick, no bonus): caught
    fewer_tricks = Rules(NOMINATION.sizes, NOMINATION.trump, lambda bid, tricks, size: tricks)
    with pytest.raises(Wrong, match="points"):
        check_record(record, fewer_tricks)


# ---------------------------------------------------------------- Kachuful, to a target

# Wikipedia: "each player that successfully takes the exact number of tricks that he declared
# receives ten plus the number of tricks declared/taken ... does not ... gets 0 points".
# A 3-card hand:
#   bid 0: exact 10 + 0 = 10; else 0, 0, 0
#   bid 1: 0; exact 10 + 1 = 11; 0; 0
#   bid 2: 0; 0; exact 10 + 2 = 12; 0
#   bid 3: 0; 0; 0; exact 10 + 3 = 13
KACHUFUL_3 = [
    [10, 0, 0, 0],
    [0, 11, 0, 0],
    [0, 0, 12, 0],
    [0, 0, 0, 13],
]

KACHUFUL = Rules(
    sizes=lambda players: range(1, 52 // players + 1),
    trump=lambda number, size, players, turn_up: ["spades", "diamonds", "clubs", "hearts"][(number - 1) % 4],
    score=lambda bid, tricks, size: 10 + bid if tricks == bid else 0,
    ends=lambda totals, number: max(totals) >= 100,
    cap=0,  # set per player count below: 10 passes of the rounds
)


def kachuful_rules(players: int) -> Rules:
    return Rules(KACHUFUL.sizes, KACHUFUL.trump, KACHUFUL.score, ends=KACHUFUL.ends, cap=10 * (52 // players))


def test_kachuful_scores_ten_and_the_bid_for_the_exact_bid_else_nothing():
    assert score_table("kachuful", 3, 4) == KACHUFUL_3


def test_kachuful_deals_one_card_more_each_round_as_the_deck_allows_and_cycles_four_trumps():
    rules = load_rules("kachuful")
    assert sizes_of("kachuful", 6)[:9] == [1, 2, 3, 4, 5, 6, 7, 8, 1]  # "for 6 players 8 rounds", then again
    assert sizes_of("kachuful", 4)[:14] == [*range(1, 14), 1]
    assert len(sizes_of("kachuful", 4)) == 130  # the cap: 10 passes of 13 rounds
    assert rules.trump_cycle == ("spades", "diamonds", "clubs", "hearts")


@pytest.mark.parametrize("players, seed", [(3, 7), (4, 8), (6, 9)])
def test_kachuful_games_end_after_the_round_someone_reaches_the_target(players, seed):
    record = played("kachuful", players, seed)
    totals = check_record(record, kachuful_rules(players))
    assert max(totals) >= 100
    before = [a - b for a, b in zip(totals, record["hands"][-1]["points"])]
    assert max(before) < 100  # nobody had reached it one round earlier
    assert replay(record).complete
