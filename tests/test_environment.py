"""The one environment builder fills exactly the names the catalogue lists for each context.

The engine, lint and the bots all build formula environments with whistdsl.language.environment;
if a builder forgot a name a context promises (or filled one it does not), a formula would fail
at play time although lint passed it. Each builder is checked against its context's row of the
catalogue, and the engine's environments against the builders.
"""

from __future__ import annotations

from whistdsl import load_rules
from whistdsl.engine import Game
from whistdsl.language import environment as envs
from whistdsl.language.catalogue import CONTEXTS

LETS = {"bonus_per_trick": 5}
RUNNING = {"streak": 2}


def test_seat_sets_as_each_seat_sees_them():
    rows = ({"bid": 1}, {"bid": 2}, {"bid": 3})
    sets = envs.seat_sets(rows, 1)
    assert sets == {"seats": rows, "others": (rows[0], rows[2]), "earlier": (rows[0],), "later": (rows[2],)}
    assert set(envs.seat_sets(rows, 0, ("seats", "others"))) == {"seats", "others"}


def names(context: str) -> set[str]:
    return {v.name for v in CONTEXTS[context].variables if v.type.value != "set of seats"}


def hand() -> dict:
    game = envs.game_env(4, 52, LETS)
    h = envs.hand_env(game, 3, 5, 20, "normal", False)
    return h


def test_game_and_hand_layers():
    assert set(envs.game_env(4, 52)) == names("let") == names("schedule")
    assert set(envs.game_env(4)) == names("setup")
    assert set(hand()) == names("hand") | set(LETS)
    assert set(envs.deal_env(hand(), 4, 32)) == names("deal") | set(LETS)


def test_seat_contexts():
    trumped = envs.trump_env(envs.deal_env(hand(), 4, 32), "hearts")
    bidding = envs.bidding_env(trumped, total=10, is_dealer=False, bids_made=1, bids_so_far=2, bidders=4, running=RUNNING)
    assert set(bidding) | {"bid"} == names("bidding") | set(LETS) | set(RUNNING)
    scoring = envs.result_env(trumped, 2, 3, total=10, is_dealer=True, position=4, running=RUNNING)
    assert set(scoring) == names("scoring") | set(LETS) | set(RUNNING)
    assert scoring["diff"] == 1 and scoring["over"] and not scoring["made"]
    assert set(scoring) | {"points"} == names("bonus") | set(LETS) | set(RUNNING)
    assert set(scoring) | {"points", "bonus"} == names("running") | set(LETS) | set(RUNNING)
    first = envs.first_bidder_env(trumped, total=10, is_dealer=True, running=RUNNING)
    assert set(first) == names("first_bidder") | set(LETS) | set(RUNNING)
    row = envs.seat_row(total=10, is_dealer=False, position=2, running=RUNNING, bid=3)
    assert set(envs.first_lead_env(trumped, row)) == names("first_lead") | set(LETS) | set(RUNNING)
    assert set(row) == set(CONTEXTS["bidding"].per_seat) | set(RUNNING)
    result_row = envs.seat_row(total=10, is_dealer=False, position=2, running=RUNNING, bid=3, tricks=1)
    assert set(result_row) == set(CONTEXTS["scoring"].per_seat) | set(RUNNING)
    end = envs.winner_env(envs.game_env(4, lets=LETS), 80, RUNNING)
    assert set(end) == names("winner") | set(LETS) | set(RUNNING)
    assert set(envs.running_start_env(4, LETS)) == names("running_start") | set(LETS)
    # the cards dealt: one seat's own (`declare`), every seat's in a set (`redeal`)
    seat = envs.seat_env(dict(trumped), total=10, is_dealer=False, position=2, running=RUNNING)
    declare = envs.declare_env(seat, [3, 0, 2, 1], 0)
    assert set(declare) == names("declare") | set(LETS) | set(RUNNING)
    assert (declare["trumps"], declare["longest"], declare["shortest"]) == (0, 3, 0)
    dealt = envs.dealt_facts(envs.seat_env({}, total=10, is_dealer=True, position=1, running=RUNNING), [4, 3, 3, 3], 4)
    assert set(dealt) == set(CONTEXTS["redeal"].per_seat) | set(RUNNING)
    assert set(envs.redeal_env(trumped, (dealt,))) == names("redeal") | set(LETS) | {"seats"}


def test_the_engine_bids_with_the_builders_environment():
    rules = load_rules("oh-hell")
    game = Game(rules, players=4, seed=3)
    seat = game.to_act
    env = dict(game._bid_env(seat))
    expected = envs.bidding_env(
        game.hand_env, total=0, is_dealer=seat == game.dealer, bids_made=0, bids_so_far=0, bidders=4, running=game.running[seat]
    )
    assert env == expected
