"""Two packs shuffled together (`deck.copies`) and identical cards in one trick (`trick.identical`).

The bundled `oh-hell-two-decks` (8 to 10 players, 104 cards): every card of the deal is in the
deck at most twice; of two identical cards in a trick the later played wins; records of such
games, identical cards in one deal included, replay. The rules are checked by an independent
checker written from them (Oh Hell: follow suit, else any card; the highest trump, else the
highest of the suit led; the later of two identical cards beats the earlier; 10 + bid when
exact, else 0; the hook).
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from whistdsl import load_rules
from whistdsl.engine import Game, PresetDeal
from whistdsl.engine.cards import card_text, parse_card
from whistdsl.players import RandomPlayer, play_out
from whistdsl.records.record import game_record
from whistdsl.records.replay import replay

RULES = load_rules("oh-hell-two-decks")
RANKS = "23456789TJQKA"


def test_the_deck_is_two_packs():
    assert RULES.deck_count(8) == 104  # 2 x 52
    # the largest hand that leaves a card to turn: (104 - 1) // 8 = 12, // 9 = 11, // 10 = 10
    assert [RULES.planned_hands(n)[0].size for n in (8, 9, 10)] == [12, 11, 10]


def winner(cards: list[str], trump: str | None) -> int:
    """Index of the winning card; among equal best cards the later one (`identical: later`)."""
    best = 0
    for i, c in enumerate(cards):
        b = cards[best]
        if trump is not None and c[1] == trump and b[1] != trump or c[1] == b[1] and RANKS.index(c[0]) >= RANKS.index(b[0]):
            best = i
    return best


def check_game(game: Game) -> None:
    n = game.players
    totals = [0] * n
    for h in game.history:
        deal = [card_text(c) for cards in h.deal for c in cards]
        if h.turn_up is not None:
            deal.append(card_text(h.turn_up))
        assert max(Counter(deal).values()) <= 2
        trump = None if h.trump < 0 else "SHDC"[h.trump]
        assert trump == (card_text(h.turn_up)[1] if h.turn_up is not None else None)
        hands = [[card_text(c) for c in cards] for cards in h.deal]
        taken = [0] * n
        for trick in h.tricks:
            played: list[str] = []
            for seat, c in trick.cards:
                card = card_text(c)
                if played and any(x[1] == played[0][1] for x in hands[seat]):
                    assert card[1] == played[0][1]
                hands[seat].remove(card)
                played.append(card)
            assert trick.winner == trick.cards[winner(played, trump)][0], played
            taken[trick.winner] += 1
        bids = dict(h.bids)
        assert sum(bids.values()) != h.size  # the hook
        for seat in range(n):
            totals[seat] += 10 + bids[seat] if bids[seat] == taken[seat] else 0
        assert list(h.totals) == totals


@pytest.mark.parametrize("players", [8, 9, 10])
def test_whole_games_follow_the_rules(players):
    game = Game(RULES, players=players, seed=players)
    play_out(game, [RandomPlayer() for _ in range(players)])
    check_game(game)


def test_of_two_identical_cards_the_later_played_wins():
    # 8 players, hand 12 (1 card each), dealer 0: seat 1 leads the ace of spades, seat 4 holds the
    # other ace of spades and plays it later: by `identical: later` seat 4 wins. Turned: 2 of hearts.
    cards = ["8S", "AS", "KS", "QS", "AS", "TS", "9S", "JS"]  # by seat
    deal = tuple((parse_card(c),) for c in cards)
    game = Game(RULES, players=8, seed=3, deals={12: PresetDeal(deal, dealer=0, turn_up=parse_card("2H"))}, start_at=12)
    for _ in range(8):
        game.bid(game.legal_actions()[0])
    for seat in [1, 2, 3, 4, 5, 6, 7, 0]:
        game.play(deal[seat][0])
    assert game.history[-1].tricks[0].winner == 4


def test_a_record_with_identical_cards_in_one_deal_replays():
    game = Game(RULES, players=8, seed=11)
    play_out(game, [RandomPlayer() for _ in range(8)])
    record = json.loads(json.dumps(game_record(game)))
    first = record["hands"][0]["deal"]  # 12 cards to each of 8 seats: 96 of 104, so pairs
    assert max(Counter(c for cards in first for c in cards).values()) == 2
    assert replay(record, RULES).game.totals == game.totals


def test_a_set_up_deal_may_hold_a_card_twice_but_not_three_times():
    cards = ["AS", "AS", "AS", "JS", "KS", "TS", "9S", "8S"]
    deal = tuple((parse_card(c),) for c in cards)
    with pytest.raises(ValueError, match="more often than the deck holds it"):
        Game(RULES, players=8, seed=3, deals={12: PresetDeal(deal, dealer=0)}, start_at=12)
