"""Who deals first with `dealer.first: highest_card` (Romanian whist), read from the draw itself.

RULES.md, Romanian whist: "one player deals a card to everyone; the highest card deals first".
docs/format.md (`dealer.first`): a card is dealt to each player; the highest deals first; and (engine
docstring) players who tie draw again. The draw is kept in `game.first_dealer_draw`, in order:
one card per seat (seat 0 first), then one card per tied seat (in seat order), until one seat's
card outranks the others. Only the rank counts: an ace of spades and an ace of hearts tie.
The checker below reads the draw as a person at the table would.
"""

from __future__ import annotations

import pytest

from whistdsl import load_rules
from whistdsl.engine import Game
from whistdsl.engine.cards import card_text
from whistdsl.records.record import game_record

RANKS = "23456789TJQKA"


def rank(card: int) -> int:
    return RANKS.index(card_text(card)[0])


def rounds_of_the_draw(draw: tuple[int, ...], players: int) -> list[list[tuple[int, int]]]:
    """The draw as rounds of (seat, card); each round is dealt to the seats that tied the one before."""
    contenders = list(range(players))
    rounds, pos = [], 0
    while True:
        cards = draw[pos : pos + len(contenders)]
        assert len(cards) == len(contenders), f"the draw ends in the middle of a round: {draw}"
        pos += len(contenders)
        rounds.append(list(zip(contenders, cards)))
        best = max(rank(c) for c in cards)
        contenders = [s for s, c in zip(contenders, cards) if rank(c) == best]
        if len(contenders) == 1:
            assert pos == len(draw), f"cards drawn after the dealer was found: {draw}"
            return rounds


def dealer_by_the_draw(draw: tuple[int, ...], players: int) -> int:
    last = rounds_of_the_draw(draw, players)[-1]
    return max(last, key=lambda sc: rank(sc[1]))[0]


@pytest.fixture(scope="module")
def romanian():
    return load_rules("romanian")


def test_with_no_tie_the_seat_with_the_highest_card_deals(romanian):
    game = Game(romanian, players=4, seed=2)
    # seed 2 draws JS 9S 7D QH: one card each, seat 3's queen is the highest
    assert [card_text(c) for c in game.first_dealer_draw] == ["JS", "9S", "7D", "QH"]
    assert game.first_dealer == 3 and game.dealer == 3


def test_seats_that_tie_on_rank_draw_again_whatever_the_suits(romanian):
    game = Game(romanian, players=4, seed=0)
    # seed 0 draws AC QC QS AD: seats 0 and 3 tie with aces (clubs and diamonds: suits do not
    # break the tie), so they alone draw again: 7C for seat 0, KC for seat 3, who deals
    assert [card_text(c) for c in game.first_dealer_draw] == ["AC", "QC", "QS", "AD", "7C", "KC"]
    assert game.first_dealer == 3 and game.dealer == 3


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_first_dealer_is_the_seat_the_recorded_draw_names(romanian, players):
    ties = 0
    for seed in range(40):
        game = Game(romanian, players=players, seed=seed)
        draw = game.first_dealer_draw
        rounds = rounds_of_the_draw(draw, players)
        for cards in rounds:
            assert len({c for _, c in cards}) == len(cards), "a card drawn twice in one round"
            assert all(c in game.full_deck for _, c in cards), "a card that is not in this deck"
        ties += len(rounds) > 1
        assert game.first_dealer == dealer_by_the_draw(draw, players), f"seed {seed}: {[card_text(c) for c in draw]}"
        assert game.dealer == game.first_dealer  # hand 1 is dealt by the winner of the draw
        assert game_record(game)["first_dealer_draw"] == [card_text(c) for c in draw]
    assert 0 < ties < 40, "the seeds should show draws with and without ties"


def test_a_three_way_tie_draws_again_among_the_three(romanian):
    for seed in range(300):
        game = Game(romanian, players=6, seed=seed)
        rounds = rounds_of_the_draw(game.first_dealer_draw, 6)
        first = rounds[0]
        top = max(rank(c) for _, c in first)
        tied = [s for s, c in first if rank(c) == top]
        if len(tied) >= 3:
            assert [s for s, _ in rounds[1]] == tied
            assert game.first_dealer == dealer_by_the_draw(game.first_dealer_draw, 6)
            return
    pytest.fail("no three-way tie in 300 seeds")


def test_a_named_first_dealer_or_a_random_one_draws_no_cards(romanian):
    assert load_rules("oh-hell").source["dealer"]["first"] == "random"
    assert Game(load_rules("oh-hell"), players=4, seed=3).first_dealer_draw == ()
    assert Game(romanian, players=4, seed=3, first_dealer=1).first_dealer_draw == ()
