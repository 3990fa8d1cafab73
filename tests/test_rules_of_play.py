"""The rule for a player who cannot follow suit (`play.when_void`), stated one case at a time.

docs/format.md, `play.when_void`: following suit is always required when possible; when a player cannot
follow, `free` allows any card, `must_trump` a trump if they hold one, and `must_overtrump` "a
trump higher than any trump already in the trick if they can, else any trump, else any card".
Each test below plays a set-up deal and checks the cards the engine offers at one moment and
the reason it gives for refusing the others. The expected cards are read off the deal by hand.

The same small ruleset is used with each of the three rules: 4 players, 52 cards, one 3-card
hand, seat 0 deals, so seat 1 bids first and leads; the play goes clockwise (1, 2, 3, 0).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from whistdsl import load_rules
from whistdsl.engine import IllegalAction, PresetDeal
from whistdsl.engine.cards import card_text, parse_card, suit_number
from whistdsl.records.replay import run_hand
from whistdsl.rules.ruleset import Ruleset

TABLE_YAML = """\
whistdsl: 1
name: when-void test table ({when_void})
description: Four players, one 3-card hand, seat 0 deals; only the rule for a void player varies.
players: {{min: 4, max: 4, default: 4}}
direction: clockwise
deck:
  suits: [spades, hearts, diamonds, clubs]
  ranks: [A, K, Q, J, T, 9, 8, 7, 6, 5, 4, 3, 2]
dealer:
  first: 0
schedule:
  - 3
trump:
  turn_up: true
play:
  when_void: {when_void}
scoring:
  points: if made then 10 + bid else 0
"""

RULES = ("free", "must_trump", "must_overtrump")


def ruleset_from_yaml(folder: Path, text: str, name: str = "table.yaml") -> Ruleset:
    """A ruleset written out as a file and loaded the way `whistdsl` loads one."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return load_rules(path)


@pytest.fixture(scope="module")
def tables(tmp_path_factory) -> dict[str, Ruleset]:
    folder = tmp_path_factory.mktemp("when_void")
    return {rule: ruleset_from_yaml(folder, TABLE_YAML.format(when_void=rule), f"{rule}.yaml") for rule in RULES}


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


def texts(legal) -> set[str]:
    return {card_text(c) for c in legal}


# Trump hearts. Seat 1 leads the ace of spades; nobody else holds a spade.
#   seat 1: AS 2C 3C      (the leader; later void in diamonds with no trump)
#   seat 2: 9H 4H 5D      (void in spades, two trumps, none in the trick yet)
#   seat 3: QH 5H KD      (void in spades, one trump above 9H and one below)
#   seat 0: 2H 3H KC      (void in spades, only trumps below QH)
HEARTS_DEAL = PresetDeal(deal=(cards("2H 3H KC"), cards("AS 2C 3C"), cards("9H 4H 5D"), cards("QH 5H KD")), dealer=0, trump=suit_number("hearts"))
BIDS = [0, 0, 0, 0]
# trick 1: 1 AS, 2 9H, 3 QH, 0 3H (3 wins with the queen of trumps)
# trick 2: 3 KD, 0 2H, 1 2C, 2 5D (0 wins with the two of trumps)
# trick 3: 0 KC, 1 3C, 2 4H, 3 5H (3 wins: 5H over 4H)
PLAY = ["AS", "9H", "QH", "3H", "KD", "2H", "2C", "5D", "KC", "3C", "4H", "5H"]

# (card number in PLAY, seat to play, its legal cards under free / must_trump / must_overtrump)
MOMENTS = [
    # the lead: any card
    (0, 1, {"AS", "2C", "3C"}, {"AS", "2C", "3C"}, {"AS", "2C", "3C"}),
    # void, no trump in the trick yet: any trump is "higher than any trump in the trick"
    (1, 2, {"9H", "4H", "5D"}, {"9H", "4H"}, {"9H", "4H"}),
    # void, 9H in the trick, holds QH (higher) and 5H (lower): over-trump with the queen
    (2, 3, {"QH", "5H", "KD"}, {"QH", "5H"}, {"QH"}),
    # void, QH in the trick, only lower trumps: must still trump (under-trump)
    (3, 0, {"2H", "3H", "KC"}, {"2H", "3H"}, {"2H", "3H"}),
    # void in diamonds, no trump in the trick, one trump left
    (5, 0, {"2H", "KC"}, {"2H"}, {"2H"}),
    # void in diamonds and holding no trump: any card, whatever the rule
    (6, 1, {"2C", "3C"}, {"2C", "3C"}, {"2C", "3C"}),
    # holds the led suit: follow it, whatever the rule (and whatever trumps are in the trick)
    (7, 2, {"5D"}, {"5D"}, {"5D"}),
    # void in clubs, holding only a trump: that trump
    (10, 2, {"4H"}, {"4H"}, {"4H"}),
]


@pytest.mark.parametrize("rule", RULES)
def test_the_legal_cards_of_a_void_player_follow_the_rulesets_when_void_rule(tables, rule):
    run = run_hand(tables[rule], HEARTS_DEAL, BIDS + PLAY, players=4)
    plays = [s for s in run.steps if s.phase == "play"]
    column = RULES.index(rule)
    for number, seat, *legal in MOMENTS:
        step = plays[number]
        assert step.seat == seat, f"card {number + 1}: seat {step.seat} plays, expected seat {seat}"
        assert texts(step.legal) == legal[column], f"card {number + 1} ({PLAY[number]}) under {rule}"


@pytest.mark.parametrize("rule", RULES)
def test_who_wins_the_tricks_of_the_hearts_deal(tables, rule):
    # the highest trump wins; a trump of any rank beats the led suit
    result = run_hand(tables[rule], HEARTS_DEAL, BIDS + PLAY, players=4).result
    assert [t.winner for t in result.tricks] == [3, 0, 3]
    assert list(result.taken) == [1, 0, 0, 2]


def refusal(rules: Ruleset, played: int, card: str) -> IllegalAction:
    """The refusal of `card` after the first `played` cards of PLAY; the position is unchanged."""
    run = run_hand(rules, HEARTS_DEAL, BIDS + PLAY[:played], players=4)
    game = run.game
    seat, trick = game.to_act, list(game.trick)
    with pytest.raises(IllegalAction) as caught:
        game.act(parse_card(card))
    assert game.to_act == seat and game.trick == trick, "a refused card changed the game"
    return caught.value


def test_must_overtrump_refuses_a_lower_trump_from_a_player_holding_a_higher_one(tables):
    e = refusal(tables["must_overtrump"], 2, "5H")  # seat 3 holds QH over the 9H in the trick
    assert e.reason == "must_overtrump"
    assert "void in spades" in e.detail


def test_must_overtrump_refuses_a_side_card_from_a_player_holding_a_higher_trump(tables):
    assert refusal(tables["must_overtrump"], 2, "KD").reason == "must_overtrump"


def test_must_overtrump_refuses_a_side_card_from_a_player_holding_only_lower_trumps(tables):
    # seat 0 holds 2H and 3H under the QH in the trick: it must still trump, so KC is refused,
    # and the refusal may not claim that seat 0 holds a higher trump: it holds none
    e = refusal(tables["must_overtrump"], 3, "KC")
    assert e.reason in ("must_overtrump", "must_trump")
    assert "higher trump" not in e.detail, e.detail
    assert "void in spades" in e.detail


def test_must_trump_refuses_a_side_card_from_a_void_player_holding_a_trump(tables):
    e = refusal(tables["must_trump"], 1, "5D")  # seat 2 holds 9H and 4H
    assert e.reason == "must_trump"
    assert e.detail == "is void in spades and holds a heart (must trump)"


def test_must_trump_lets_a_void_player_play_a_trump_lower_than_the_one_in_the_trick(tables):
    run = run_hand(tables["must_trump"], HEARTS_DEAL, BIDS + PLAY[:2] + ["5H"], players=4)
    assert run.game.trick[-1] == (3, parse_card("5H"))


def test_free_lets_a_void_player_holding_trumps_play_a_side_card(tables):
    run = run_hand(tables["free"], HEARTS_DEAL, BIDS + PLAY[:2] + ["KD"], players=4)
    assert run.game.trick[-1] == (3, parse_card("KD"))


@pytest.mark.parametrize("rule", RULES)
def test_a_player_holding_the_led_suit_must_follow_it_under_every_rule(tables, rule):
    e = refusal(tables[rule], 7, "4H")  # seat 2 holds 5D, diamonds were led, 2H is in the trick
    assert e.reason == "must_follow"


# Trumps led. Seat 1 leads the king of hearts (trump); seat 2 follows with a low heart although
# it holds the ace: following suit is all that is asked, over-trumping is only for void players.
TRUMP_LEAD = PresetDeal(deal=(cards("2S 3S 4S"), cards("KH 2C 3C"), cards("AH 2H 5D"), cards("5S 6S 7S")), dealer=0, trump=suit_number("hearts"))


@pytest.mark.parametrize("rule", RULES)
def test_following_a_trump_lead_needs_no_higher_trump(tables, rule):
    run = run_hand(tables[rule], TRUMP_LEAD, BIDS + ["KH", "2H"], players=4)
    assert texts(run.steps[-1].legal) == {"AH", "2H"}
    assert run.game.trick[-1] == (2, parse_card("2H"))


# No trump: a void player may play any card under every rule.
NO_TRUMP_DEAL = PresetDeal(deal=(cards("2S 3S 4S"), cards("AS 2C 3C"), cards("9H 4H 5D"), cards("5S 6S 7S")), dealer=0, trump=-1)


@pytest.mark.parametrize("rule", RULES)
def test_in_a_hand_without_trump_a_void_player_may_play_any_card(tables, rule):
    run = run_hand(tables[rule], NO_TRUMP_DEAL, BIDS + ["AS", "5D"], players=4)
    assert texts(run.steps[-1].legal) == {"9H", "4H", "5D"}
