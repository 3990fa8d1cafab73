"""A hand dealt again (`redeal`, language 2): on a condition over the dealt hands, or when every
seat passes in the auction; at most `limit` times a hand, then played as dealt. The deals dealt
again are in the record, and a record whose redeals the rules do not make is refused.

The deals here are set up by hand, and what each seat holds counted by hand.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from test_rules_of_play import ruleset_from_yaml

from whistdsl import load_rules
from whistdsl.engine import Game
from whistdsl.engine.cards import parse_card
from whistdsl.engine.state import PresetDeal
from whistdsl.language.environment import dealt_facts
from whistdsl.records.record import game_record
from whistdsl.records.replay import Disagreement, replay

NO_TRUMP_DEALT_AGAIN = """\
whistdsl: 2
name: A seat without trump is dealt again
players: {min: 4, max: 4}
dealer: {first: 0}
schedule: [3]
trump:
  cycle: [hearts]
redeal:
  when: trump != none and any(seats, trumps == 0)
  limit: 2
scoring:
  points: if made then 10 + bid else 0
"""

ESTIMATION_REDEAL = Path(__file__).parent.parent / "docs" / "examples" / "estimation-redeal.yaml"


def deal(*seats: str) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(parse_card(c) for c in seat.split()) for seat in seats)


# seat 2 holds no heart: dealt again
VOID = deal("AH KS QS", "KH 2S 3S", "AS KD QD", "QH 2D 3D")
# every seat holds a heart: played
EVERY_SEAT_A_HEART = deal("AH KS QS", "KH 2S 3S", "JH KD QD", "QH 2D 3D")
# seats 0 and 3 hold no heart
TWO_VOIDS = deal("AS KS QS", "KH AH 3S", "JH KD QD", "TS 2D 3D")


def test_what_the_redeal_formula_reads_of_a_seat_s_cards():
    # a hand of 3 spades, no heart, 2 diamonds, 1 club with hearts trump
    assert dealt_facts({}, [3, 0, 2, 1], 0) == {"trumps": 0, "longest": 3, "shortest": 0}
    assert dealt_facts({}, [1, 1, 1, 0], 1) == {"trumps": 1, "longest": 1, "shortest": 0}


def test_a_hand_with_a_seat_without_trump_is_dealt_again_and_the_next_deal_played(tmp_path):
    rules = ruleset_from_yaml(tmp_path, NO_TRUMP_DEALT_AGAIN)
    game = Game(rules, players=4, deals={1: PresetDeal(EVERY_SEAT_A_HEART, redeals=(PresetDeal(VOID),))})
    assert game.phase == "bidding" and game.dealt == EVERY_SEAT_A_HEART
    assert [(r.deal, r.why, r.choices) for r in game.redealt] == [(VOID, "when", ())]
    assert game.dealer == 0, "the same dealer deals again"
    while not game.over:
        game.act(game.legal_actions()[0])
    assert game.history[0].redeals == tuple(game.redealt) and len(game.history[0].redeals) == 1


def test_after_the_limit_the_hand_is_played_as_dealt(tmp_path):
    rules = ruleset_from_yaml(tmp_path, NO_TRUMP_DEALT_AGAIN)
    # limit 2: the void deal and the two voids are dealt again; the third deal (a void again) is played
    game = Game(rules, players=4, deals={1: PresetDeal(VOID, redeals=(PresetDeal(VOID), PresetDeal(TWO_VOIDS)))})
    assert game.phase == "bidding" and game.dealt == VOID and [r.why for r in game.redealt] == ["when", "when"]


def test_a_set_up_deal_the_rules_deal_again_is_refused(tmp_path):
    rules = ruleset_from_yaml(tmp_path, NO_TRUMP_DEALT_AGAIN)
    with pytest.raises(ValueError, match=r"hand 1: by the rules this deal is dealt again \(`redeal.when` holds of it\)"):
        Game(rules, players=4, deals={1: PresetDeal(VOID)})
    with pytest.raises(ValueError, match="hand 1: the deal given was dealt again 1 time, but by the rules the deal after 0 is played"):
        Game(rules, players=4, deals={1: PresetDeal(VOID, redeals=(PresetDeal(EVERY_SEAT_A_HEART),))})


def test_shuffled_hands_are_dealt_again_until_every_seat_holds_a_trump(tmp_path):
    rules = ruleset_from_yaml(tmp_path, NO_TRUMP_DEALT_AGAIN.replace("limit: 2", "limit: 100"))
    again = 0
    for seed in range(20):
        game = Game(rules, players=4, seed=seed)
        again += len(game.redealt)
        hearts = [sum(1 for c in cards if c >> 4 == game.trump) for cards in game.dealt]
        assert min(hearts) > 0 or len(game.redealt) == 100
        assert all(min(sum(1 for c in r.deal[s] if c >> 4 == game.trump) for s in range(4)) == 0 for r in game.redealt)
    assert again > 0


def passes(game: Game) -> None:
    """Every seat passes in the auction of this deal."""
    for _ in range(4):
        assert game.decision == "auction" and "pass" in game.decision_options()
        game.decide("pass")


def test_every_seat_passing_in_the_auction_deals_the_hand_again_up_to_the_limit():
    game = Game(load_rules(ESTIMATION_REDEAL), players=4, seed=7)
    dealer, first = game.dealer, game.to_act
    before = len(game.redealt)  # a void may have been dealt again already
    dealt = game.dealt
    passes(game)
    assert game.phase == "decision" and game.decision == "auction", "dealt again: a new auction"
    assert game.dealer == dealer and game.to_act == first and game.dealt != dealt
    last = game.redealt[-1]
    assert last.why == "passed_out" and last.deal == dealt
    assert [c[2] for c in last.choices] == ["pass"] * 4 and [c[0] for c in last.choices] == list(game.bidding_order)
    # limit 3: passed out again until the hand has been dealt again 3 times, then played without a declarer
    while len(game.redealt) < 3:
        passes(game)
    assert len(game.redealt) == 3 and before <= 3
    passes(game)
    assert game.phase == "bidding" and game.declarer is None and game.trump < 0


def played_record(seed: int) -> dict:
    """A game of the Estimation variant: every auction of hand 1 passed out, then the first legal action."""
    game = Game(load_rules(ESTIMATION_REDEAL), players=4, seed=seed)
    while not game.over and game.hand_number <= 2:
        if game.phase == "decision" and game.hand_number == 1:
            game.decide("pass")
        else:
            game.act(game.legal_actions()[0])
    return json.loads(json.dumps(game_record(game)))


def test_a_record_keeps_the_deals_dealt_again_and_replays():
    record = played_record(7)
    first = record["hands"][0]
    assert len(first["redeals"]) == 3 and first["redeals"][-1]["why"] == "passed_out"
    assert all(len(cards) == 13 for r in first["redeals"] for cards in r["deal"])
    assert [c["choice"] for c in first["redeals"][-1]["choices"]] == ["pass"] * 4
    replay(record)
    # a redeal the record says had another reason
    wrong = copy.deepcopy(record)
    wrong["hands"][0]["redeals"][-1]["why"] = "when"
    with pytest.raises(Disagreement, match="dealt again as `redeal.when` held of it; by the rules every seat passed"):
        replay(wrong)
    # a passed-out deal the record plays: the rules deal it again
    played = copy.deepcopy(record)
    played["hands"][0]["redeals"].pop()
    with pytest.raises(Disagreement, match="hand 1, deal"):
        replay(played)


DECLARATIONS = """\
whistdsl: 2
name: A void declared before the bidding, or a new deal asked for
players: {min: 4, max: 4}
dealer: {first: 0}
schedule: [3]
trump:
  cycle: [hearts]
decisions:
  - name: declare
    choices:
      void: shortest == 0
      redeal: trumps == 0
scoring:
  points: 'if made then 10 + bid + (if declared == "void" then 5 else 0) else 0'
"""


def test_each_seat_may_declare_what_its_cards_allow_and_the_scoring_reads_it(tmp_path):
    rules = ruleset_from_yaml(tmp_path, DECLARATIONS)
    game = Game(rules, players=4, deals={1: PresetDeal(VOID)})
    # dealer 0: seat 1 declares first; with 3 cards of 4 suits every seat has a void; seat 2 holds no heart
    assert game.phase == "decision" and game.decision == "declare" and game.to_act == 1
    assert game.decision_options() == ["no", "void"]
    game.decide("void")
    assert game.to_act == 2 and game.decision_options() == ["no", "void", "redeal"]
    game.decide("no")
    assert game.view(0).declared == ("", "void", "", "")
    game.decide("no")
    game.decide("no")
    assert game.phase == "bidding" and game.to_act == 1
    for bid in (0, 0, 0, 3):
        game.act(bid)
    # seat 1 leads KH, AS (seat 2 has no heart), QH, AH: seat 0's; then KS and QS win for seat 0
    for card in ("KH", "AS", "QH", "AH", "KS", "2S", "KD", "2D", "QS", "3S", "QD", "3D"):
        game.act(parse_card(card))
    hand = game.history[0]
    assert hand.taken == (3, 0, 0, 0)
    # made 3: 10 + 3; seat 1 made 0 with a void declared: 10 + 0 + 5; seats 2 and 3 made 0: 10
    assert hand.points == (13, 15, 10, 10)
    assert list(hand.choices) == [(1, "declare", "void"), (2, "declare", "no"), (3, "declare", "no"), (0, "declare", "no")]


def test_a_seat_that_declares_redeal_has_the_hand_dealt_again(tmp_path):
    rules = ruleset_from_yaml(tmp_path, DECLARATIONS)
    game = Game(rules, players=4, deals={1: PresetDeal(EVERY_SEAT_A_HEART, redeals=(PresetDeal(VOID),))})
    game.decide("void")  # seat 1
    game.decide("redeal")  # seat 2, which holds no heart
    assert [(r.deal, r.why, r.choices) for r in game.redealt] == [(VOID, "declared", ((1, "declare", "void"), (2, "declare", "redeal")))]
    assert game.dealt == EVERY_SEAT_A_HEART and game.declared == ["", "", "", ""]
    # the declarations start again on the new deal: seat 2 holds a heart now
    assert game.to_act == 1 and game.decision == "declare"
    game.decide("no")
    assert game.to_act == 2 and game.decision_options() == ["no", "void"]


def declared_record(tmp_path, seed: int) -> dict:
    """A game where every seat makes the first declaration it may, then plays the first legal action."""
    game = Game(ruleset_from_yaml(tmp_path, DECLARATIONS), players=4, seed=seed)
    while not game.over:
        if game.phase == "decision":
            game.decide(game.decision_options()[-1])
        else:
            game.act(game.legal_actions()[0])
    return json.loads(json.dumps(game_record(game)))


def test_a_record_of_declarations_replays_and_a_declaration_the_cards_do_not_allow_is_refused(tmp_path):
    record = declared_record(tmp_path, 2)
    assert replay(record).complete
    hand = record["hands"][0]
    decided = [c for r in hand.get("redeals", ()) for c in r.get("choices", ())] + hand["choices"]
    assert decided and all(c["decision"] == "declare" for c in decided)
    wrong = copy.deepcopy(record)
    last = wrong["hands"][0]["choices"][-1]
    last["choice"] = "bonus"
    with pytest.raises(Disagreement, match=f"seat {last['seat']} chose bonus but"):
        replay(wrong)
