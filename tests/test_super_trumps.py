"""Super trumps (`trump.super_trumps`): the cards the turned card makes trumps above the ace,
worked by hand, and whole games of docs/examples/oh-hell-manilhas.yaml checked by the
independent checker (tests/independent.py), replayed, and played legally by every bot."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from checked_games import checked_record
from independent import RANKS, Rules, check_record

from whistdsl import load_rules
from whistdsl.engine import Game
from whistdsl.engine.cards import NO_TRUMP, new_hand, parse_card, special_card
from whistdsl.engine.errors import IllegalAction
from whistdsl.engine.state import PresetDeal
from whistdsl.engine.tricks import hand_trick_play, super_trump_cards
from whistdsl.explain import explain
from whistdsl.records.replay import replay

MANILHAS = Path(__file__).resolve().parent.parent / "docs" / "examples" / "oh-hell-manilhas.yaml"
SPADES, HEARTS = 0, 1


def load_rules_text(text: str):
    """A ruleset from YAML text, through a file as a user's would be read."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "house.yaml"
        path.write_text(text, encoding="utf-8")
        return load_rules(str(path))


def cards(*texts: str) -> list[int]:
    return [parse_card(t) for t in texts]


def hand(*texts: str) -> list[list[int]]:
    h = new_hand()
    for c in cards(*texts):
        h[c >> 4].append(c)
    return h


def test_the_turned_card_names_the_next_rank_up_in_the_suit_order():
    rules = load_rules(str(MANILHAS))
    # a 7 turned: the four 8s, clubs, hearts, spades, diamonds; an ace turned: the four 2s
    assert super_trump_cards(rules, 4, parse_card("7S")) == tuple(cards("8C", "8H", "8S", "8D"))
    assert super_trump_cards(rules, 4, parse_card("AD")) == tuple(cards("2C", "2H", "2S", "2D"))
    assert super_trump_cards(rules, 4, parse_card("TH")) == tuple(cards("JC", "JH", "JS", "JD"))
    assert super_trump_cards(rules, 4, None) == ()  # no card turned (the last card dealt): none


SAME = """whistdsl: 2
name: Same rank
players: {min: 3, max: 4}
deck:
  ranks: [A, K, Q, J, T, 9]
  specials: {joker: {count: 1, mark: JK}}
schedule: [2]
trump:
  from: turn_up
  none_when: turn_up_rank == "9"
  super_trumps: {rank: same}
trick:
  winner: [highest trump, highest led, first joker]
scoring:
  points: tricks
"""


def test_the_same_rank_in_the_decks_suit_order_and_none_for_a_special_turned():
    rules = load_rules_text(SAME)
    assert super_trump_cards(rules, 3, parse_card("QH")) == tuple(cards("QS", "QH", "QD", "QC"))
    assert super_trump_cards(rules, 3, special_card(0)) == ()
    # `next` above the highest rank of a short deck is its lowest: an ace turned names the nines
    short = load_rules_text(SAME.replace("{rank: same}", "{rank: next}"))
    assert super_trump_cards(short, 3, parse_card("AS")) == tuple(cards("9S", "9H", "9D", "9C"))
    assert super_trump_cards(short, 3, parse_card("KS")) == tuple(cards("AS", "AH", "AD", "AC"))


def test_a_super_trump_follows_as_a_trump_and_beats_the_ace_of_trumps():
    rules = load_rules(str(MANILHAS))
    play = hand_trick_play(rules, 4, parse_card("7S"))  # spades trump; the 8s above the ace
    eight_h, eight_d, eight_c = cards("8H", "8D", "8C")
    # hearts led: the 8 of hearts is a trump, not a heart; the 3 of hearts must follow
    assert play.legal(hand("8H", "3H", "2C"), [(0, parse_card("KH"))], SPADES, "free") == cards("3H")
    # out of hearts but for the 8: free, every card; must trump: the 8, a trump
    assert sorted(play.legal(hand("8H", "2C"), [(0, parse_card("KH"))], SPADES, "free")) == sorted([eight_h, parse_card("2C")])
    assert play.legal(hand("8H", "2C"), [(0, parse_card("KH"))], SPADES, "must_trump") == [eight_h]
    # spades (trump) led: the 8 of diamonds follows as a trump
    assert play.legal(hand("8D", "4C"), [(0, parse_card("2S"))], SPADES, "free") == [eight_d]
    # a led super trump asks for trumps
    assert play.led([(0, eight_h)], SPADES) == SPADES
    # the 8 of diamonds (the weakest super trump) beats the ace of trumps; the 8 of clubs beats it
    assert play.winner([(0, parse_card("2H")), (1, parse_card("AS")), (2, eight_d)], SPADES) == 2
    assert play.winner([(0, eight_c), (1, parse_card("AS")), (2, eight_d)], SPADES) == 0
    # the 8 of spades, of the trump suit itself, ranks as a super trump too, above the ace
    assert play.winner([(0, parse_card("AS")), (1, parse_card("8S"))], SPADES) == 1
    # must over-trump: above the ace of trumps only a super trump will do
    assert play.legal(hand("8D", "KS", "4C"), [(0, parse_card("2H")), (1, parse_card("AS"))], SPADES, "must_overtrump") == [eight_d]


def test_without_trump_a_super_trump_beats_every_card_and_follows_its_own_suit():
    rules = load_rules_text(SAME)  # a nine turned: no trump, but the nines are super trumps
    play = hand_trick_play(rules, 3, parse_card("9D"))
    nine_s, nine_h = cards("9S", "9H")
    assert play.winner([(0, parse_card("AH")), (1, parse_card("KH")), (2, nine_s)], NO_TRUMP) == 2
    assert play.winner([(0, nine_h), (1, nine_s), (2, parse_card("AH"))], NO_TRUMP) == 1  # spades first in the deck's order
    assert play.legal(hand("9H", "AS"), [(0, parse_card("KH"))], NO_TRUMP, "free") == [nine_h]


def test_a_hand_worked_by_hand():
    # three players, the 2-card hand (16 of 17..1); seat 0 deals, the 7 of spades is turned:
    # spades trump, the 8s super trumps (clubs, hearts, spades, diamonds)
    rules = load_rules(str(MANILHAS))
    deal = PresetDeal(deal=(tuple(cards("8D", "2C")), tuple(cards("AS", "KH")), tuple(cards("8H", "3H"))), dealer=0, turn_up=parse_card("7S"))
    game = Game(rules, players=3, seed=1, deals={16: deal}, start_at=16)
    for bid in (0, 1, 0):  # seats 1, 2, 0 (the dealer, hooked: not 1)
        game.act(bid)
    game.act(parse_card("KH"))  # seat 1 leads hearts
    with pytest.raises(IllegalAction, match="must follow suit: hearts were led and you hold 1"):
        game.act(parse_card("8H"))  # seat 2's 8 of hearts is a trump: its 3 must follow
    game.act(parse_card("3H"))
    game.act(parse_card("8D"))  # seat 0, out of hearts: the weakest super trump wins the trick
    assert game.tricks[-1].winner == 0
    game.act(parse_card("2C"))  # seat 0 leads
    game.act(parse_card("AS"))  # the ace of trumps ...
    game.act(parse_card("8H"))  # ... lost to a super trump
    result = game.history[-1]
    assert result.taken == (1, 0, 1)
    # 10 + bid when made: seat 0 bid 0 took 1 (0), seat 1 bid 0 took 0 (10), seat 2 bid 1 took 1 (11)
    assert result.points == (0, 10, 11)


def _manilhas(turn_up: str | None) -> tuple[str, ...]:
    if turn_up is None:
        return ()
    above = RANKS[(RANKS.index(turn_up[0]) + 1) % len(RANKS)]
    return tuple(above + s for s in "CHSD")


@pytest.mark.parametrize("seed", range(4))
def test_whole_games_agree_with_the_independent_checker_and_replay(seed):
    rules = load_rules(str(MANILHAS))
    checker = Rules(
        sizes=lambda players: list(range((52 - 1) // players, 0, -1)),
        trump=lambda number, size, players, turn_up: (
            "none" if turn_up is None else {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[turn_up[1]]
        ),
        score=lambda bid, tricks, size: 10 + bid if tricks == bid else 0,
        turned_tops=_manilhas,
    )
    record = checked_record(rules, 4, seed, ("heuristic", "random"))
    check_record(record, checker)
    assert replay(record).complete
    won_by_a_low_manilha = 0
    for h in record["hands"]:
        tops = _manilhas(h["turn_up"])
        for t in h["tricks"]:
            winning = next(c["card"] for c in t["cards"] if c["seat"] == t["winner"])
            won_by_a_low_manilha += winning in tops and winning[0] in "2345678"
    assert won_by_a_low_manilha > 0  # the rule decided tricks


@pytest.mark.parametrize("kinds", [("mc", "heuristic", "random", "search")])
def test_every_bot_plays_legally(kinds):
    rules = load_rules_text(MANILHAS.read_text(encoding="utf-8").replace("extends: oh-hell", "extends: oh-hell\nschedule: [3, 2, 1]"))
    checked_record(rules, 4, 7, kinds)


def test_explain_says_the_super_trumps():
    text = "\n".join(explain(load_rules(str(MANILHAS))).section("trump").lines)
    assert "The cards of the rank just above the turned card's" in text
    assert "clubs, hearts, spades then diamonds" in text
