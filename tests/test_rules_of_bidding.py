"""RULES.md's worked bidding examples, each a test named for the rule it shows.

Every expected set of bids is read from RULES.md: the hook (the last bidder may not make the
bids add up to the hand size), the seed's forced bid, who bids first and last, the dead hand,
the "0" hand, and the 1-card hands that every player deals once so the hook falls on each.
"""

from __future__ import annotations

import pytest
import yaml
from test_rules_of_play import ruleset_from_yaml

from whistdsl import load_rules
from whistdsl.engine import Game, IllegalAction


def bid_all(game: Game, bids: list[int]) -> None:
    for bid in bids:
        game.act(bid)


def refused(game: Game, bid: int) -> IllegalAction:
    seat, made = game.to_act, list(game.bid_log)
    with pytest.raises(IllegalAction) as caught:
        game.act(bid)
    assert game.to_act == seat and game.bid_log == made, "a refused bid changed the game"
    return caught.value


def test_serbian_dealer_bidding_last_may_not_bid_what_makes_the_bids_add_up_to_the_hand_size():
    # RULES.md 1: "6-card hand, 4 players, bids 2, 0, 1: the dealer may not bid 3 and must bid
    # 0, 1, 2, 4, 5 or 6." Hand 8 of the Serbian schedule (13 .. 6) deals 6 cards.
    game = Game(load_rules("serbian"), players=4, seed=1, start_at=8)
    assert game.hand_size == 6
    dealer = game.dealer
    # the player to the right of the dealer bids first, counter-clockwise; the dealer bids last
    assert game.bidding_order == ((dealer - 1) % 4, (dealer - 2) % 4, (dealer - 3) % 4, dealer)
    bid_all(game, [2, 0, 1])
    assert game.to_act == dealer
    assert game.legal_actions() == [0, 1, 2, 4, 5, 6]
    assert refused(game, 3).reason == "hook"
    game.act(4)
    assert game.phase == "play"


def test_romanian_last_bidder_may_not_bid_what_makes_the_bids_add_up_to_the_hand_size():
    # RULES.md 2: "6-card hand, 3 players, bids 3 and 1: the last may not bid 2." Hand 8 of the
    # 3-player schedule (1, 1, 1, 2, 3, 4, 5, 6) deals 6 cards.
    game = Game(load_rules("romanian"), players=3, seed=1, start_at=8)
    assert game.hand_size == 6
    bid_all(game, [3, 1])
    assert game.legal_actions() == [0, 1, 3, 4, 5, 6]
    e = refused(game, 2)
    assert e.reason == "hook" and "add up to 6" in str(e)


def test_romanian_dealer_of_a_one_card_hand_is_forced_to_bid_1_after_bids_of_1_and_0():
    # RULES.md 2, the seed's sheet: "In hand 1 Paul was the dealer and was forced to bid 1 (0
    # would make the sum equal to 1)." Adrian (seat 0) bid 1, Mihai (seat 1) bid 0.
    game = Game(load_rules("romanian"), players=3, seed=1, first_dealer=2)
    assert game.hand_size == 1 and game.bidding_order == (0, 1, 2)  # left of the dealer first
    bid_all(game, [1, 0])
    assert game.to_act == 2 and game.legal_actions() == [1]
    assert refused(game, 0).reason == "hook"


@pytest.mark.parametrize("name, players", [("serbian", 4), ("romanian", 3), ("oh-hell", 4)])
def test_bidders_before_the_last_may_bid_anything_from_0_to_the_hand_size(name, players):
    # the hook restricts the last bidder only: earlier bidders may even reach the hand size
    game = Game(load_rules(name), players=players, seed=2)
    size = game.hand_size
    assert game.legal_actions() == list(range(size + 1))
    game.act(size)  # the first bid alone adds up to the hand size
    while game.to_act != game.bidding_order[-1]:
        assert game.legal_actions() == list(range(size + 1))
        game.act(0)
    # the last bidder alone is held back: size + 0 + ... + 0 already adds up to the hand size
    assert game.legal_actions() == list(range(1, size + 1))


def test_oh_hell_bidding_starts_left_of_the_dealer_and_the_dealer_carries_the_hook():
    # RULES.md 3: "Bidding starts left of the dealer, clockwise; the dealer may not make the bids
    # add up to the hand size". Hand 1 with 4 players deals 12 cards.
    game = Game(load_rules("oh-hell"), players=4, seed=5, first_dealer=1)
    assert game.hand_size == 12
    assert game.bidding_order == (2, 3, 0, 1)
    bid_all(game, [3, 3, 3])
    assert game.to_act == 1
    assert game.legal_actions() == [b for b in range(13) if b != 3]
    assert refused(game, 3).reason == "hook"


def test_with_six_romanian_players_the_dealer_sits_out_and_does_not_bid():
    # RULES.md 2: "With 6 players the dealer is a dead hand: the dealer does not play that hand."
    # The hook then falls on the last of the five who bid (the ruleset's `is_last`).
    # hand 9 deals 4 cards; seat 4 deals hand 1, so (clockwise) seat 0 deals hand 9
    game = Game(load_rules("romanian"), players=6, seed=3, first_dealer=4, start_at=9)
    assert game.dealer == 0 and game.sitting_out == (0,) and game.hand_size == 4
    assert game.bidding_order == (1, 2, 3, 4, 5)
    bid_all(game, [1, 1, 1, 0])
    assert game.to_act == 5 and game.legal_actions() == [0, 2, 3, 4]
    assert refused(game, 1).reason == "hook"


def test_in_a_zero_hand_every_player_must_bid_0(tmp_path):
    # RULES.md 2, "0" and "NV" hands: "in a "0" hand every player must bid 0". The tie-break
    # ruleset's "0" kind, put in the schedule so the hand is reached without a tie.
    data = dict(load_rules("romanian-tiebreak").source)
    data["schedule"] = [{"cards": 8, "kind": "zero"}]
    rules = ruleset_from_yaml(tmp_path, yaml.safe_dump(data, sort_keys=False))
    game = Game(rules, players=4, seed=4)
    assert game.kind.name == "zero" and game.hand_size == 8
    for _ in range(4):
        assert game.legal_actions() == [0]
        e = refused(game, 1)
        assert e.reason == "forced_bid" and "the only allowed bid is 0" in str(e)
        game.act(0)  # 0 + 0 + 0 + 0 is not 8: the hook never bites here
    assert game.phase == "play"


@pytest.mark.parametrize("name, players", [("serbian", 4), ("serbian", 5), ("serbian", 6), *[("romanian", n) for n in (3, 4, 5, 6)]])
def test_every_player_deals_one_of_each_run_of_one_card_hands(name, players):
    # RULES.md 1: the hook "hurts the dealer most in 1-card hands, [so] there are as many 1-card
    # hands as players", each dealt by another player; RULES.md 2: "hands of 1 card until every
    # player has dealt one" (and 8-card hands likewise), at both ends of the Romanian game.
    game = Game(load_rules(name), players=players, seed=6)
    runs: list[list[int]] = []  # the dealers of each run of 1-card (or 8-card) hands
    previous = None
    while not game.over:
        size = game.hand_size
        if game.phase == "bidding" and not game.bid_log and size in (1, 8 if name == "romanian" else 1):
            if size != previous:
                runs.append([])
            runs[-1].append(game.dealer)
        if game.phase == "bidding" and not game.bid_log:
            previous = size
        game.act(game.legal_actions()[0])
    expected_runs = 3 if name == "romanian" else 1  # Romanian: 1-card, 8-card, 1-card runs
    assert len(runs) == expected_runs
    for dealers in runs:
        assert sorted(dealers) == list(range(players))
