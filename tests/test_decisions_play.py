"""`whistdsl play` at a terminal: a person makes every kind of decision of language 2 - names
trump, chooses to bid blind, calls nil, bids without seeing the others' bids - with prompts that
say the options, and answers that are not an option are refused with a reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_play_cli import Terminal

DECIDING = """\
whistdsl: 2
name: Tiny decisions
description: two short hands; the dealer names trump, nil beside 0, blind bids, bids together
players: {min: 4, max: 4}
dealer: {first: 0}
schedule: [3, 2]
trump:
  turn_up: true
decisions:
  - name: trump
    who: dealer
    options: [hearts, spades, none]
  - name: bid
    calls: {nil: 0}
    blind: may
    together: true
scoring:
  points: if call == "nil" then (if tricks == 0 then 30 else -30) else (if made then 10 + bid else 0) * (if blind then 2 else 1)
"""


@pytest.fixture
def deciding(tmp_path: Path) -> Path:
    path = tmp_path / "deciding.yaml"
    path.write_text(DECIDING, encoding="utf-8")
    return path


def test_a_person_names_trump_from_the_options_said(deciding: Path) -> None:
    # you are seat 0, the first dealer: you name trump before the bidding
    t = Terminal(str(deciding), "--seat", "0", "--bots", "random", "--seed", "3", cwd=deciding.parent)
    try:
        shown = t.expect("Trump: ")
        assert "You name trump for this hand: one of hearts, spades, none" in shown
        assert "Your hand: " in shown
        t.type("clubs")
        assert "'clubs' is not an option: type one of hearts, spades, none" in t.expect("Trump: ")
        t.type("sp")  # a unique beginning is enough
        shown = t.expect("Your bid: ")
        assert "You named spades as trump." in shown
        assert "(trump)" in shown, "your hand is shown with the trump you named"
        assert "has bid (hidden until the bids are shown together)" in shown
        assert not any(f"bid {n}." in shown for n in range(4)), "a bot's hidden bid was shown"
        assert "You may bid 0 to 3; or call nil." in shown
    finally:
        t.close()


def test_a_person_chooses_to_bid_blind_and_calls_nil_without_seeing_the_others_bids(deciding: Path) -> None:
    # you are seat 1: the dealer (seat 0, a computer player) names trump, then you bid first
    t = Terminal(str(deciding), "--seat", "1", "--bots", "random", "--seed", "3", cwd=deciding.parent)
    try:
        shown = t.expect("Blind or look: ")
        assert "named" in shown, "the table is told the trump the dealer named"
        assert "type blind or look" in shown
        assert "Your hand: " not in shown, "before choosing, your cards are not shown"
        t.type("peek")
        assert "'peek' is not an option: type one of look, blind" in t.expect("Blind or look: ")
        t.type("blind")
        shown = t.expect("Your bid: ")
        assert "You bid blind" in shown and "Your hand: " not in shown
        assert "they are shown together once all have bid" in shown
        assert "or call nil" in shown
        t.type("many")
        assert "'many' is not a bid: type a whole number from 0 to 3, or nil" in t.expect("Your bid: ")
        t.type("nil")
        shown = t.expect("Your card: ")
        assert "You called nil blind (it counts as 0)." in shown
        assert "Bids: You nil blind" in shown, "all the bids are shown together once all have bid"
        assert "Your hand: " in shown, "a blind bidder sees its cards once it has bid"
    finally:
        t.close()


EXAMPLES = Path(__file__).parent.parent / "docs" / "examples"


def test_a_person_bidding_last_sees_the_bids_made_together_shown_before_its_own() -> None:
    # you are seat 0, the first dealer: the three others bid unseen, then you bid seeing them
    t = Terminal(str(EXAMPLES / "oh-hell-dealer-bids-last.yaml"), "--seat", "0", "--first-dealer", "0", "--seed", "3", cwd=EXAMPLES)
    try:
        shown = t.expect("Your bid: ")
        assert shown.count("has bid (hidden until the bids are shown together).") == 3
        assert "The bids, shown together: " in shown and "Bids so far: " in shown
        assert "Everyone but the last bidder bids without seeing" not in shown, "the last bidder's bids are not hidden"
    finally:
        t.close()


def test_a_person_calls_a_dash_in_the_auction() -> None:
    # seat 0 bids first in the auction when seat 1 deals (counterclockwise: the dealer's right)
    t = Terminal(str(EXAMPLES / "estimation-dash-and-double.yaml"), "--seat", "0", "--first-dealer", "1", "--seed", "3", cwd=EXAMPLES)
    try:
        shown = t.expect("Auction bid or pass: ")
        assert "Or call: dash.\n" in shown, "no double before there is a bid"
        t.type("dash")
        shown = t.expect("Your card: ")
        assert "You called dash in the auction." in shown
        assert "You called dash (it counts as 0)." in shown, "the dash's bid is made for you"
    finally:
        t.close()
