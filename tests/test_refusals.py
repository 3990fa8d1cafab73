"""Refused bids are explained from the ruleset's own formulas, and players reach the game only
through its public methods.

A refusal names the formula that forbids the bid (its key and place in the file) and what it
read; the hook is named only when that formula depends on the earlier bids and they would add
up to the hand size, so a ruleset whose only limit is `bid <= 1` is never told about a hook.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from test_rules_of_play import ruleset_from_yaml

from whistdsl import load_rules
from whistdsl.engine import Game, IllegalAction

ONLY_A_LIMIT = """\
whistdsl: 1
name: At most one
extends: oh-hell
bidding:
  allowed: bid <= 1
"""


def refusal(game: Game, bid: int) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        game.act(bid)
    return caught.value


def test_a_limit_that_is_not_the_hook_is_named_as_the_formula_it_is(tmp_path):
    game = Game(ruleset_from_yaml(tmp_path, ONLY_A_LIMIT, "house.yaml"), players=4, seed=5, first_dealer=1)
    for bid in (1, 1, 1):  # 1 + 1 + 1 + 2 would not be the hand size of 12 anyway
        game.act(bid)
    e = refusal(game, 2)
    assert e.reason == "bid_not_allowed"
    assert "hook" not in str(e) and "add up" not in str(e)
    assert f"bidding.allowed ({tmp_path / 'house.yaml'}:5:12) is false for bid 2" in str(e)
    assert str(e).endswith("allowed: 0, 1")


def test_the_hook_names_its_formula_and_what_it_read():
    game = Game(load_rules("oh-hell"), players=4, seed=5, first_dealer=1)
    for bid in (3, 3, 3):
        game.act(bid)
    e = refusal(game, 3)  # 3 + 3 + 3 + 3 = 12, the hand size
    assert e.reason == "hook"
    assert "the bids would add up to 12, the hand size" in str(e)
    assert "bidding.allowed (" in str(e) and "oh-hell.yaml:" in str(e)
    assert "bids_so_far=9" in str(e) and "is_last=true" in str(e)


def test_a_hook_that_leaves_one_bid_is_still_the_hook_and_a_lone_limit_is_forced():
    # Romanian hand 1 (1 card), bids 1 and 0: the dealer may not bid 0 (the hook), only 1
    game = Game(load_rules("romanian"), players=3, seed=1, first_dealer=2)
    game.act(1)
    game.act(0)
    assert game.legal_bids() == [1]
    assert refusal(game, 0).reason == "hook"


def test_players_reach_the_game_only_through_its_public_methods():
    # no module of players/ calls a private method or reads a private field of a Game
    folder = Path(__file__).resolve().parent.parent / "whistdsl" / "players"
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in ("game", "sim")
                and node.attr.startswith("_")
            ):
                pytest.fail(f"{path.name}:{node.lineno}: {node.value.id}.{node.attr}")


def test_the_public_legal_actions_agree_with_legal_actions():
    game = Game(load_rules("oh-hell"), players=4, seed=3)
    assert game.legal_bids() == game.legal_actions() and game.legal_cards() == []
    while game.phase == "bidding":
        game.act(game.legal_bids()[0])
    assert game.legal_bids() == []
    assert sorted(game.legal_cards()) == sorted(game.legal_actions())
    card = game.legal_cards()[0]
    game.play_legal(card)
    assert game.tricks == [] and game.trick[-1][1] == card
