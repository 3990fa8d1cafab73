"""A position copied (engine/state.py `State.clone`) shares nothing that changes with the original.

Look-ahead players copy a position and play each copy on in its own way: a field of the position
left shared would let one copy's moves leak into the others (and into the game). `clone` copies
every field whatever its name, sharing only the static facts the State declares; these tests
walk every field of games of several rulesets in every kind of position, and add new fields of
their own, as a change of the engine would.
"""

from __future__ import annotations

import random

import pytest

from whistdsl import load_rules
from whistdsl.engine import Game
from whistdsl.engine.state import State
from whistdsl.players import decide
from whistdsl.players.bots import make_bot

#: Rulesets whose positions hold every kind of field: decisions and named calls, an auction,
#: bids made together, cards on the foreheads, Wizard's special cards, a running value.
RULESETS = ("romanian", "estimation", "oh-hell-nil", "oh-hell-simultaneous", "oh-hell-highest-bidder-trump",
            "romanian-forehead-both", "wizard", "romanian-streak-players")  # fmt: skip


def mutable(value: object) -> bool:
    """Whether `value` can be changed in place (by this test's own reckoning, not the engine's)."""
    if isinstance(value, (list, dict, set, bytearray)):
        return True
    params = getattr(value, "__dataclass_params__", None)
    return params is not None and not params.frozen


def shared_parts(ours: object, theirs: object, where: str) -> list[str]:
    """Where the copy `theirs` holds the very same mutable object as `ours`, walking into lists,
    dicts and dataclasses (a tuple is a finished fact, a hand's result: never changed, shared)."""
    if mutable(ours) and ours is theirs:
        return [where]
    out = []
    if isinstance(ours, list) and isinstance(theirs, list):
        for i, (a, b) in enumerate(zip(ours, theirs)):
            out += shared_parts(a, b, f"{where}[{i}]")
    elif isinstance(ours, dict) and isinstance(theirs, dict):
        for k in ours:
            if k in theirs:
                out += shared_parts(ours[k], theirs[k], f"{where}[{k!r}]")
    elif getattr(ours, "__dataclass_fields__", None) and type(ours) is type(theirs) and mutable(ours):
        for name in ours.__dataclass_fields__:  # type: ignore[union-attr]
            out += shared_parts(getattr(ours, name), getattr(theirs, name), f"{where}.{name}")
    return out


def positions(name: str, seed: int = 3, steps: int = 80):
    """A game of `name` between heuristic players, at each of its first `steps` actions."""
    rules = load_rules(name)
    game = Game(rules, rules.players_default, seed=seed)
    players = [make_bot("heuristic") for _ in range(game.players)]
    for _ in range(steps):
        if game.over:
            return
        yield game
        game.act(decide(game, players[game.to_act]))  # type: ignore[index]
    yield game


@pytest.mark.parametrize("name", RULESETS)
def test_a_copy_of_a_position_shares_nothing_that_changes_but_the_declared_static_facts(name):
    fields = set()
    for game in positions(name):
        copy = game.clone()
        assert type(copy) is type(game)
        assert set(vars(copy)) == set(vars(game))
        for field, value in vars(game).items():
            fields.add(field)
            if field in State.SHARED:
                assert getattr(copy, field) is value, field  # the static facts: one for every copy
                continue
            if field in State.WORKED_OUT:
                assert getattr(copy, field) is None, field
                continue
            assert getattr(copy, field) == value or field == "rng", field
            assert not shared_parts(value, getattr(copy, field), field)
    assert fields >= State.SHARED  # every name declared shared is a field of a game


def test_a_field_added_to_the_position_is_copied_without_being_listed():
    # what a change of the engine would add: no list of names to keep up to date
    game = Game(load_rules("romanian"), 4, seed=1)
    game.discards = [[12, 13], [14]]  # type: ignore[attr-defined]
    game.declarations = {2: ["void in hearts"]}  # type: ignore[attr-defined]
    game.seen = {3, 4}  # type: ignore[attr-defined]
    copy = game.clone()
    copy.discards[0].append(15)  # type: ignore[attr-defined]
    copy.declarations[2].append("redeal")  # type: ignore[attr-defined]
    copy.seen.add(5)  # type: ignore[attr-defined]
    assert game.discards == [[12, 13], [14]] and game.declarations == {2: ["void in hearts"]} and game.seen == {3, 4}  # type: ignore[attr-defined]


def test_copies_played_on_leave_the_game_and_each_other_as_they_were():
    # an auction (estimation) under way: each copy makes a different bid or passes
    *_, game = positions("estimation", seed=5, steps=1)
    assert game.phase == "decision" and game.decision == "auction"
    before = game.clone()
    legal = game.legal_actions()
    assert len(legal) > 1
    copies = [game.clone() for _ in legal]
    for copy, action in zip(copies, legal):
        copy.rng = random.Random(0)
        copy.act(action)
    assert len({repr(vars(c)["_auction"]) for c in copies} | {repr(vars(game)["_auction"])}) == len(copies) + 1
    for field in vars(game):
        if field not in State.WORKED_OUT and field != "rng":
            assert getattr(game, field) == getattr(before, field), field


def test_the_seat_to_act_the_hands_kind_and_the_result_are_read_only_when_they_exist() -> None:
    """`seat_to_act`, `hand_kind` and `game_result`: the typed reads of `to_act`, `kind` and
    `result` for code that runs while they are set; asked at the wrong time, each says so."""
    from whistdsl.engine.errors import IllegalAction
    from whistdsl.players.base import RandomPlayer, play_out

    game = Game(load_rules("romanian"), players=3, seed=1)
    assert game.seat_to_act == game.to_act and game.hand_kind is game.kind and game.hand_kind.name
    with pytest.raises(IllegalAction, match="the game is not over") as not_over:
        game.game_result  # noqa: B018  # the read is the test
    assert not_over.value.reason == "not_over"
    play_out(game, [RandomPlayer() for _ in range(3)])
    assert game.game_result is game.result and game.to_act is None
    with pytest.raises(IllegalAction, match="the game is over") as over:
        game.seat_to_act  # noqa: B018  # the read is the test
    assert over.value.reason == "game_over"
    game.kind = None  # as before the first hand is set up
    with pytest.raises(IllegalAction, match="no hand has begun"):
        game.hand_kind  # noqa: B018  # the read is the test
