"""Calls inside the auction (`decisions: - name: auction, calls:`): Estimation's dash (out of the
auction, its estimate of no tricks made for it, at most two a hand) and a double (on another
seat's highest bid, once a hand, the caller staying in), seen by every seat and read by the
scoring formula (docs/examples/estimation-dash-and-double.yaml: every score doubled once a seat
called double). The numbers are worked by hand from the rules."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from whistdsl import load_rules
from whistdsl.engine import Game, IllegalAction
from whistdsl.engine.seat import Seat, Spectator
from whistdsl.players import BOTS, play_out
from whistdsl.records.record import game_record
from whistdsl.records.replay import Disagreement, check_record_shape, replay
from whistdsl.web.protocol import view_json

EXAMPLE = Path(__file__).parent.parent / "docs" / "examples" / "estimation-dash-and-double.yaml"


def auction_game() -> Game:
    """Dealer 0, counterclockwise: the auction goes 3, 2, 1, 0."""
    game = Game(load_rules(EXAMPLE), players=4, seed=1, first_dealer=0)
    assert game.bidding_order == (3, 2, 1, 0) and game.decision == "auction" and game.hand_size == 13
    return game


def calls_among(options: list[str]) -> list[str]:
    return [o for o in options if not o[:1].isdigit()]


def test_a_dash_leaves_the_auction_a_double_stays_in_and_each_has_its_limit():
    game = auction_game()
    assert calls_among(game.legal_actions()) == ["pass", "dash"], "no double before there is a bid to double"
    game.act("dash")  # seat 3: out, its estimate 0 made for it
    assert calls_among(game.legal_actions()) == ["pass", "dash"]
    game.act("4 hearts")  # seat 2: the highest bid
    assert calls_among(game.legal_actions()) == ["pass", "dash", "double"]
    game.act("double")  # seat 1 doubles and stays in
    assert calls_among(game.legal_actions()) == ["pass", "dash"], "a double once a hand"
    game.act("dash")  # seat 0: the second dash
    assert game.to_act == 2 and calls_among(game.legal_actions()) == ["pass"], "two dashes made; the highest bidder may not double itself"
    with pytest.raises(IllegalAction):
        game.act("dash")
    game.act("pass")  # seat 2: its 4 hearts stands
    assert game.to_act == 1 and calls_among(game.legal_actions()) == ["pass"], "seat 1, in after its double, may outbid or pass"
    game.act("pass")
    assert (game.declarer, game.auction_bid, game.trump) == (2, 4, 1), "seat 2 declares 4 in hearts"
    assert game.auction_calls == ["dash", "double", "", "dash"]
    # the bidding: the declarer's 4 and the dashes' 0s are made; only seat 1 estimates
    assert game.bidding_order == (2, 1, 0, 3) and game.to_act == 1
    game.act(3)
    assert game.phase == "play" and game.bid_log == [(2, 4), (1, 3), (0, 0), (3, 0)]
    assert game.calls == ["dash", "", "", "dash"]
    # every seat sees the calls: the auction's log is public
    for seat in range(4):
        assert [c for _, c in game.view(seat).auction] == ["dash", "4 hearts", "double", "dash", "pass", "pass"]


def test_the_double_doubles_every_score_of_the_hand():
    # taken 0, 3, 6, 4 by seats 0..3, against 0 (dash), 3, 4 (declarer), 0 (dash); seat 1 exact,
    # so the hand scores: seat 0 made its dash (+0), seat 1 +3, seat 2 two over (-2), seat 3
    # four over its dash (-4); doubled: 0, +6, -4, -8
    game = auction_game()
    for action in ("dash", "4 hearts", "double", "dash", "pass", "pass", 3):
        game.act(action)
    assert game.points_if([0, 3, 6, 4]) == (0, 6, -4, -8)
    # the same hand without the double
    plain = auction_game()
    for action in ("dash", "4 hearts", "pass", "dash", 3):  # seat 0's dash leaves only seat 2 in: it declares
        plain.act(action)
    assert plain.declarer == 2 and plain.auction_calls == ["dash", "", "", "dash"]
    assert plain.points_if([0, 3, 6, 4]) == (0, 3, -2, -4)


def test_the_calls_are_recorded_the_dashes_bids_made_for_them_and_replay_checks_them():
    game = auction_game()
    for action in ("dash", "4 hearts", "double", "dash", "pass", "pass", 3):
        game.act(action)
    play_out(game, [BOTS["heuristic"]() for _ in range(4)])
    record = json.loads(json.dumps(game_record(game)))
    check_record_shape(record)
    first = record["hands"][0]
    assert [c["choice"] for c in first["choices"]] == ["dash", "4 hearts", "double", "dash", "pass", "pass"]
    assert [b for b in first["bids"] if b.get("made_for") == "auction_call"] == [
        {"seat": 0, "bid": 0, "call": "dash", "made_for": "auction_call"},
        {"seat": 3, "bid": 0, "call": "dash", "made_for": "auction_call"},
    ]
    assert replay(record).complete
    changed = copy.deepcopy(record)
    dash = next(b for b in changed["hands"][0]["bids"] if b["seat"] == 0)
    del dash["made_for"]  # as if seat 0 had estimated 0 itself
    with pytest.raises(Disagreement) as caught:
        replay(changed)
    assert "hand 1" in str(caught.value)


def test_every_seat_and_a_spectator_are_sent_the_calls():
    game = auction_game()
    for action in ("dash", "4 hearts", "double"):
        game.act(action)
    for window in [Seat(game, s) for s in range(4)] + [Spectator(game)]:
        assert json.loads(json.dumps(view_json(window.view())))["auction"] == [[3, "dash"], [2, "4 hearts"], [1, "double"]]
