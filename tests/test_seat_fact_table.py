"""The facts of a seat made by the hand's decisions (`call`, `blind`, `excused`, `is_declarer`,
`auction_bid`, `declared`, `auction_call`) are declared once, in the catalogue's SEAT_FACTS, and
every part that reads them reads that table: the engine reads each of the attribute it names,
and every way of scoring a hand gives a formula the same facts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from whistdsl import load_rules
from whistdsl.engine import Game
from whistdsl.language import environment
from whistdsl.language.catalogue import CONTEXTS, SEAT_FACTS
from whistdsl.players import RandomPlayer, play_out

EXAMPLES = Path(__file__).parent.parent / "docs" / "examples"


def test_every_seat_fact_is_in_the_contexts_from_the_one_it_is_first_seen_in():
    first = {"skip": ("skip", "bidding", "first_lead", "scoring"), "bidding": ("bidding", "first_lead", "scoring"), "scoring": ("scoring",)}
    for fact in SEAT_FACTS:
        for name in ("skip", "bidding", "first_lead", "scoring", "bonus", "running"):
            seen = name in first[fact.seen_from] or (name in ("bonus", "running"))
            assert (CONTEXTS[name].variable(fact.name) is not None) is seen, (fact.name, name)


def test_every_seat_fact_is_read_of_an_attribute_a_game_has():
    game = Game(load_rules(EXAMPLES / "estimation-dash-and-double.yaml"), seed=3)
    choices = game.seat_choices(0)
    assert set(choices) == {f.name for f in SEAT_FACTS}
    for fact in SEAT_FACTS:
        held = getattr(game, fact.state)
        if fact.read == "seat":
            assert len(held) == game.players, fact.name
        assert choices[fact.name] == fact.default, fact.name  # nothing decided before the auction


def test_a_builder_refuses_a_name_that_is_no_seat_fact():
    with pytest.raises(TypeError, match="not a seat's fact: declarer"):
        environment.result_env({}, 1, 1, declarer=True)


def test_the_scoring_in_passes_gives_each_seat_its_facts_of_the_auction(tmp_path):
    # the bonus reads the other seats' points, so the hand is scored in passes (every seat's
    # points first): the declarer scores 10 + its winning bid, every other seat 0 points and a
    # bonus of 1 for the one seat of the others with points (the declarer); with no declarer
    # (every seat passed) every seat scores 0
    path = tmp_path / "passes.yaml"
    path.write_text(
        """whistdsl: 2
name: passes
players: {min: 4, max: 4}
deck:
  suits: [spades, hearts, diamonds, clubs]
  ranks: [A, K, Q, J, T, 9, 8, 7, 6, 5, 4, 3, 2]
schedule: [5, 5, 5, 5, 5, 5]
trump: {cycle: [none]}
decisions:
  - name: auction
    min: 1
scoring:
  points: if is_declarer then 10 + auction_bid else 0
  bonus: count(others, points > 0)
""",
        encoding="utf-8",
    )
    rules = load_rules(path)
    assert rules.scores_in_passes
    declarers = 0
    for seed in range(4):
        game = Game(rules, seed=seed)
        play_out(game, [RandomPlayer() for _ in range(4)])
        for hand in game.history:
            if hand.declarer is None:
                assert hand.points == (0, 0, 0, 0)
                continue
            declarers += 1
            expected = [1, 1, 1, 1]
            expected[hand.declarer] = 10 + hand.auction_bid
            assert list(hand.points) == expected, hand.number
    assert declarers > 0
