"""The seat interface (whistdsl/engine/seat.py): a person's one way in. A seat is asked only on
its turn, with exactly the engine's legal answers; a refused answer changes nothing; the answers
it returns are a record's answers and play the same game again from the seed."""

from __future__ import annotations

import random

import pytest

from whistdsl import load_rules
from whistdsl.engine import Game, IllegalAction
from whistdsl.engine.cards import card_text
from whistdsl.engine.game import by_suit
from whistdsl.engine.seat import NotYourTurn, Seat, Spectator, spectator_view
from whistdsl.records.record import game_record

#: Rulesets with every kind of question: hooks, forehead and blind hands, named calls and
#: blind bids, bids made together, a trump named by a seat, Wizard's specials, an auction.
RULESETS = [
    "serbian",
    "romanian-forehead",
    "romanian-nv",
    "oh-hell-nil",
    "oh-hell-simultaneous",
    "oh-hell-highest-bidder-trump",
    "wizard",
    "estimation",
]


def play_through_seats(game: Game, rng: random.Random) -> list[dict]:
    """Play `game` to its end through its seats only, each answering one of its legal answers
    at random; the answers as `Seat.answer` returned them."""
    seats = [Seat(game, s) for s in range(game.players)]
    answers = []
    while not game.over:
        asked = [s for s in seats if s.question() is not None]
        assert [s.seat for s in asked] == [game.to_act], "only the seat to act is asked"
        question = asked[0].question()
        choices = question.answers()
        answers.append(asked[0].answer(choices[int(rng.random() * len(choices))]))
    return answers


@pytest.mark.parametrize("name", RULESETS)
def test_answers_given_through_seats_play_the_same_game_again_from_its_seed(name):
    rules = load_rules(name)
    game = Game(rules, seed=7)
    answers = play_through_seats(game, random.Random(1))
    again = Game(rules, seed=7)
    for answer in answers:
        seat = answer["seat"]
        returned = Seat(again, seat).answer({k: v for k, v in answer.items() if k != "seat"})
        assert returned == answer
    assert again.over
    assert game_record(again) == game_record(game)


@pytest.mark.parametrize("name", RULESETS)
def test_a_question_offers_exactly_the_engines_legal_answers(name):
    rules = load_rules(name)
    game = Game(rules, seed=3)
    rng = random.Random(5)
    asked = set()
    while not game.over:
        seat = Seat(game, game.to_act)
        question = seat.question()
        asked.add((question.ask, question.decision, question.unseen))
        if game.phase == "bidding":
            assert question.options == tuple(game.legal_bids())
            assert set(question.forbidden) == set(range(game.hand_size + 1)) - {b for b in game.legal_bids() if type(b) is int}
        elif game.phase == "decision":
            assert question.options == tuple(game.decision_options())
        elif game.can_see_own_hand(game.to_act):
            assert question.options == tuple(card_text(c, rules.specials) for c in by_suit(game.legal_cards()))
            assert list(question.options) == [card_text(c, rules.specials) for c in seat.view().legal]
        else:
            assert question.unseen and question.options == ()
        choices = question.answers()
        seat.answer(choices[int(rng.random() * len(choices))])
    assert ("bid", None, False) in asked and ("card", None, False) in asked
    if name == "romanian-forehead":
        assert ("card", None, True) in asked
    if name == "oh-hell-highest-bidder-trump":
        assert any(ask == "decision" and decision == "trump" for ask, decision, _ in asked)
    if name == "oh-hell-nil":
        assert any(decision == "blind" for _, decision, _ in asked)
    if name == "estimation":
        assert any(decision == "auction" for _, decision, _ in asked)


def test_a_seat_not_to_act_is_asked_nothing_and_its_answer_changes_nothing():
    game = Game(load_rules("serbian"), seed=1)
    other = next(s for s in range(game.players) if s != game.to_act)
    seat = Seat(game, other)
    before = game_record(game), game.to_act, list(game.bid_log)
    assert seat.question() is None
    with pytest.raises(NotYourTurn) as refused:
        seat.answer({"bid": 0})
    assert refused.value.reason == "not_your_turn"
    assert (game_record(game), game.to_act, list(game.bid_log)) == before


def test_the_hook_is_refused_with_the_engines_reason_and_changes_nothing():
    game = Game(load_rules("serbian"), seed=1)
    seats = [Seat(game, s) for s in range(game.players)]
    for _ in range(game.players - 1):
        seats[game.to_act].answer({"bid": 0})
    dealer = seats[game.to_act]
    hook = game.hand_size  # the bids so far are 0: the dealer may not make them add up
    assert hook in dealer.question().forbidden and hook not in dealer.question().options
    with pytest.raises(IllegalAction) as refused:
        dealer.answer({"bid": hook})
    assert refused.value.reason == "hook"
    assert game.phase == "bidding" and len(game.bid_log) == game.players - 1


@pytest.mark.parametrize(
    "answer",
    [{"card": "AS"}, {"bid": 1, "card": "AS"}, {}, {"bid": "1"}, {"bid": 1.0}, {"bid": None}, {"decision": "spades"}, "3", None],
)
def test_an_answer_of_the_wrong_shape_is_refused_and_changes_nothing(answer):
    game = Game(load_rules("serbian"), seed=1)
    seat = Seat(game, game.to_act)
    with pytest.raises(IllegalAction):
        seat.answer(answer)
    assert game.bid_log == [] and game.to_act == seat.seat


def test_a_card_not_held_or_not_a_card_is_refused_with_a_reason():
    game = Game(load_rules("serbian"), seed=1)
    while game.phase == "bidding":
        Seat(game, game.to_act).answer({"bid": game.legal_bids()[0]})
    seat = Seat(game, game.to_act)
    held = {card_text(c) for suit in game.hands[seat.seat] for c in suit}
    not_held = next(t for t in (r + s for r in "23456789TJQKA" for s in "SHDC") if t not in held)
    for answer, reason in (({"card": not_held}, "not_held"), ({"card": "ZZ"}, "not_a_card"), ({"card": None}, "not_an_answer")):
        with pytest.raises(IllegalAction) as refused:
            seat.answer(answer)
        assert refused.value.reason == reason, answer
    assert game.trick == []


def test_a_computer_players_action_becomes_the_answer_it_stands_for():
    game = Game(load_rules("wizard"), seed=4)
    while not game.over and len(game.history) < 2:
        seat = Seat(game, game.to_act)
        if game.phase == "play" and game.can_see_own_hand(seat.seat):
            card = game.legal_cards()[0]
            answer = seat.answer_of(card)
            assert answer == {"card": card_text(card, game.rules.specials)}
        else:
            answer = seat.question().answers()[0]
            assert seat.answer_of(next(iter(answer.values()))) == answer
        seat.answer(answer)
    assert len(game.history) == 2


# ---------------------------------------------------------------- what the whole table reads


def test_the_hands_played_are_the_games_without_the_generators_state_for_a_seat_and_a_spectator():
    game = Game(load_rules("romanian-forehead"), seed=2)
    game.keep_rng_states = True  # as a kept game keeps them, to say how to resume
    seat, spectator = Seat(game, 1), Spectator(game)
    rng = random.Random(3)
    while len(game.history) < 3:
        assert seat.hands_played() == spectator.hands_played() == tuple(h._replace(rng_state=None) for h in game.history)
        choices = Seat(game, game.to_act).question().answers()
        Seat(game, game.to_act).answer(choices[int(rng.random() * len(choices))])
    assert all(h.rng_state is not None for h in game.history)  # the game keeps them: the windows leave them out
    assert [h.rng_state for h in seat.hands_played()] == [None] * 3
    assert [h.tricks for h in seat.hands_played()] == [h.tricks for h in game.history]


def test_a_spectator_sees_the_view_of_no_seat_and_is_asked_nothing():
    game = Game(load_rules("romanian-forehead"), seed=2)
    spectator = Spectator(game)
    assert spectator.seat is None
    assert spectator.view() == spectator_view(game)
    assert not hasattr(spectator, "question") and not hasattr(spectator, "answer")


def test_who_is_to_name_trump_the_schedule_and_the_result_follow_the_game():
    # kachuful ends on a condition (fewer scheduled hands once it holds); highest-bidder names trump
    for name in ("kachuful", "oh-hell-highest-bidder-trump"):
        game = Game(load_rules(name), seed=5)
        seat = Seat(game, 0)
        scheduled = seat.scheduled_hands
        rng = random.Random(6)
        named = set()
        while not game.over:
            assert (seat.trump_to_be_named(), seat.scheduled_hands, seat.result()) == (game.trump_to_be_named(), game.scheduled_hands, None)
            named.add(seat.trump_to_be_named())
            choices = Seat(game, game.to_act).question().answers()
            Seat(game, game.to_act).answer(choices[int(rng.random() * len(choices))])
        assert seat.result() == game.result is not None and seat.scheduled_hands == game.scheduled_hands
        if name == "kachuful":
            assert seat.scheduled_hands == len(game.history) < scheduled  # the schedule was a cap
        else:
            assert named == {"highest_bidder", None}
