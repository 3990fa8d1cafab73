"""The game ends on a condition (`end`): the schedule in a loop, `end.when` after each hand, the cap.

Language version 2 (docs/language.md section 6). The numbers here are the rules' own: a schedule
of 3, 2, 1 repeated; a game that ends after the hand that makes `end.when` true.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from whistdsl import load_rules
from whistdsl.engine import Game
from whistdsl.players import BOTS, decide
from whistdsl.records.record import game_record
from whistdsl.records.replay import Disagreement, replay

BASE = """\
whistdsl: 2
name: end test
players: {min: 3, max: 5}
schedule: [3 .. 1]
trump: {cycle: [spades, hearts, none]}
scoring:
  points: if made then 10 + tricks else 0
"""


def rules_with(tmp_path: Path, text: str):
    path = tmp_path / "house.yaml"
    path.write_text(BASE + text, encoding="utf-8")
    return load_rules(path)


def play_out(rules, players: int = 4, seed: int = 7) -> Game:
    game = Game(rules, players=players, seed=seed)
    game.keep_rng_states = True
    rng = random.Random(seed)
    while not game.over:
        game.act(rng.choice(game.legal_actions()))
    return game


def test_the_schedule_is_played_in_a_loop_up_to_the_cap(tmp_path):
    rules = rules_with(tmp_path, "end: {when: hand_number >= 100, hands: 8}\n")
    # 3 .. 1 is 3, 2, 1; in a loop: 3, 2, 1, 3, 2, 1, 3, 2 and the cap of 8 stops it
    assert [h.size for h in rules.planned_hands(4)] == [3, 2, 1, 3, 2, 1, 3, 2]
    game = play_out(rules)
    assert [h.size for h in game.history] == [3, 2, 1, 3, 2, 1, 3, 2]
    assert [h.number for h in game.history] == list(range(1, 9))
    assert game.result is not None


def test_the_game_ends_after_the_first_hand_after_which_when_holds(tmp_path):
    rules = rules_with(tmp_path, "end: {when: hand_number >= 5 and hand_size == 1, hands: 30}\n")
    # hands 1..6 are 3, 2, 1, 3, 2, 1: hand 5 has 2 cards, hand 6 is the first >= 5 with 1 card
    game = play_out(rules)
    assert len(game.history) == 6
    assert game.over and game.result.winners


def test_when_reads_the_hand_just_played_and_let_values(tmp_path):
    rules = rules_with(tmp_path, "let: {rounds: players - 1}\nend: {when: hand_number == 3 * rounds, hands: 100}\n")
    assert len(play_out(rules, players=3).history) == 6  # 3 * (3 - 1)
    assert len(play_out(rules, players=5).history) == 12  # 3 * (5 - 1)


def test_hands_reads_the_cap(tmp_path):
    rules = rules_with(tmp_path, "end: {when: hand_number == hands - 1, hands: 2 * players}\n")
    assert len(play_out(rules, players=4).history) == 7  # the cap is 8; it ends after hand 7


def test_tie_break_hands_follow_the_end_and_do_not_ask_when(tmp_path):
    # every hand scores 0 (points: 0): the totals are tied at the end, so every tie-break hand is
    # played; `when` would hold after each of them, but the game has ended: only the tie decides
    text = BASE.replace("if made then 10 + tricks else 0", "0") + ("tiebreak: {hands: 2, cards: 1}\nend: {when: hand_number >= 4, hands: 10}\n")
    path = tmp_path / "tied.yaml"
    path.write_text(text, encoding="utf-8")
    game = play_out(load_rules(path))
    assert [h.extra for h in game.history] == [False] * 4 + [True, True]
    assert len(game.result.winners) == 4


def test_a_record_of_a_game_that_ended_on_its_condition_replays(tmp_path):
    rules = rules_with(tmp_path, "end: {when: hand_number >= 5 and hand_size == 1, hands: 30}\n")
    game = Game(rules, players=4, seed=3)
    game.keep_rng_states = True
    bots = [BOTS["heuristic"]() for _ in range(4)]
    while not game.over:
        game.act(decide(game, bots[game.to_act]))
    record = json.loads(json.dumps(game_record(game, ["heuristic"] * 4)))
    result = replay(record)
    assert result.complete and result.hands == 6
    # a record that goes on after the end is caught: the rules end the game after hand 6
    short = json.loads(json.dumps(record))
    short["hands"] = short["hands"][:5]
    with pytest.raises(Disagreement, match="hand 6"):
        replay(short)


def test_a_version_1_ruleset_still_ends_with_its_schedule():
    rules = load_rules("oh-hell")
    assert rules.end is None
    assert [h.size for h in rules.planned_hands(4)] == list(range(12, 0, -1))
