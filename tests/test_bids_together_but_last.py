"""Bids made together but for the last (`together: all_but_last`): the others bid unseen, their
bids shown together once all of them have bid, then the last bidder (the dealer) bids seeing
them, under the hook. What each seat sees, in its view and in the web table's frames, worked by
hand from the rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_rules_of_play import ruleset_from_yaml

from whistdsl import load_rules
from whistdsl.engine import Game, IllegalAction
from whistdsl.engine.seat import Seat, Spectator
from whistdsl.web.protocol import view_json

EXAMPLE = Path(__file__).parent.parent / "docs" / "examples" / "oh-hell-dealer-bids-last.yaml"


def test_the_others_bid_unseen_then_the_dealer_bids_seeing_them_under_the_hook():
    game = Game(load_rules(EXAMPLE), players=4, seed=5, first_dealer=0)
    assert game.bidding_order == (1, 2, 3, 0) and game.hand_size == 12  # (52 - 1) // 4
    game.act(2)
    assert game.view(2).bids_hidden and game.view(2).bids == () and game.view(1).bids == ((1, 2),)
    game.act(1)
    assert game.legal_actions() == list(range(13)), "no hook for seat 3: it is not the last bidder"
    assert game.view(3).bids == () and game.view(0).bids == () and game.view(0).bids_hidden
    game.act(0)
    # the three bids are shown now, to everyone, and the dealer bids seeing them: 2 + 1 + 0 = 3
    for seat in range(4):
        view = game.view(seat)
        assert not view.bids_hidden and view.bids == ((1, 2), (2, 1), (3, 0))
    assert game.to_act == 0 and game.legal_actions() == [b for b in range(13) if b != 9], "the hook: 3 + 9 = 12"
    with pytest.raises(IllegalAction) as refused:
        game.act(9)
    assert refused.value.reason == "hook"
    game.act(4)
    assert game.phase == "play" and [b for _, b in game.bid_log] == [2, 1, 0, 4]


LIMIT_READS_THE_BIDS = """\
whistdsl: 2
name: A limit that reads the bids
players: {min: 4, max: 4}
dealer: {first: 0}
schedule: [3]
trump: {cycle: [none]}
decisions:
  - name: bid
    together: all_but_last
bidding:
  allowed: bids_so_far + bid <= 2 * hand_size and (count(earlier, bid == 3) == 0 or bid < 3)
scoring:
  points: if made then 10 + bid else 0
"""


def test_a_seat_that_bids_unseen_is_limited_only_by_what_it_sees(tmp_path):
    # hand size 3: the limit allows at most 6 in all, and no 3 after an earlier 3. Seats 1 and 2
    # bid 3 and 3 (hidden): seat 3 sees no bids (bids_so_far 0, no earlier 3), so it may bid 0 to 3;
    # had it seen them (6 so far, a 3 before it) it could bid only 0. The dealer sees them all.
    game = Game(ruleset_from_yaml(tmp_path, LIMIT_READS_THE_BIDS), players=4, seed=1)
    game.act(3)
    game.act(3)
    assert game.to_act == 3 and game.legal_actions() == [0, 1, 2, 3]
    assert game.view(3).legal == (0, 1, 2, 3)
    game.act(0)
    assert game.to_act == 0 and game.legal_actions() == [0]


def test_no_frame_of_the_web_table_shows_a_hidden_bid_to_another_seat():
    game = Game(load_rules(EXAMPLE), players=4, seed=7, first_dealer=0)
    shown: list[list[str]] = []
    for bid in (3, 5, 1):
        game.act(bid)
        shown.append([json.dumps(view_json(Seat(game, s).view())) for s in range(4)] + [json.dumps(view_json(Spectator(game).view()))])
    # after seat 1's 3 and seat 2's 5: only the bidder's own bid, in its own frame
    for frames, made in zip(shown[:2], ([(1, 3)], [(1, 3), (2, 5)]), strict=True):
        for receiver, frame in enumerate(frames):
            bids = json.loads(frame)["bids"]
            assert bids == [[s, b] for s, b in made if s == receiver]
    # after seat 3's 1: every frame shows the three bids, the dealer's question too
    assert all(json.loads(f)["bids"] == [[1, 3], [2, 5], [3, 1]] and not json.loads(f)["bids_hidden"] for f in shown[2])
