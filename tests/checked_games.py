"""Whole games by computer players with every action checked legal before it is made, and their
records as a file would hold them: shared by the tests of the bots and of each rule kind."""

from __future__ import annotations

import json

from whistdsl.engine import Game
from whistdsl.players import BOTS, decide
from whistdsl.records.record import game_record


def play_checked(rules, players: int, seed: int, bots) -> Game:
    """Play a game, asserting before each action that the bot's choice is legal."""
    game = Game(rules, players=players, seed=seed)
    while not game.over:
        seat = game.to_act
        legal = game.legal_actions()
        action = decide(game, bots[seat])
        if action is None:
            assert not game.can_see_own_hand(seat), "only a seat that cannot see its cards may play blind"
        else:
            assert action in legal, f"{bots[seat].kind} chose {action}, not in {legal}"
        game.act(action)
    return game


def checked_record(rules, players: int, seed: int, kinds: tuple[str, ...]) -> dict:
    """The record of a game by `kinds` of bots in turn round the table (each action checked
    legal), through JSON as a file holds it."""
    names = [kinds[i % len(kinds)] for i in range(players)]
    game = play_checked(rules, players, seed, [BOTS[name]() for name in names])
    return json.loads(json.dumps(game_record(game, names)))
