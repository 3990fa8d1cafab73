"""Scoring one player's hand: points, then bonus, then running values, in that order.

The scoring formulas, for the engine and for `whistdsl score` alike; their environments come
from language/environment.py (`result_env` is re-exported here). Running values are read as
they were before the hand; the new ones are returned, not stored.
"""

from __future__ import annotations

from typing import Mapping

from ..language.environment import result_env, running_start_env
from ..language.expression import Number, Value
from ..rules.ruleset import Ruleset

__all__ = ["hand_points", "result_env", "score_seat", "start_running"]


def score_seat(rules: Ruleset, env: dict[str, Value]) -> tuple[Number, Number, dict[str, Number]]:
    """(points, bonus, new running values) for one seat; `env` is its result_env (extended in place)."""
    points = rules.points.cached(env)  # type: ignore[union-attr]
    env["points"] = points
    bonus = rules.bonus.cached(env) if rules.bonus is not None else 0
    env["bonus"] = bonus
    running = {r.name: r.after_hand.cached(env) for r in rules.running}
    return points, bonus, running  # type: ignore[return-value]


def start_running(rules: Ruleset, players: int) -> dict[str, Number]:
    """Each running value's value before the first hand."""
    env = running_start_env(players, rules.let_values(players))
    return {r.name: r.start(env) for r in rules.running}  # type: ignore[misc]


def hand_points(
    rules: Ruleset, hand_env: Mapping[str, Value], bid: int, tricks: int, given: Mapping[str, Value] | None = None
) -> Number:
    """The scoring formula's points for one bid and result, with running values at their start;
    `given` sets any other names of the scoring context (`total`, a running value, `is_dealer`)."""
    env = result_env(hand_env, bid, tricks, running=start_running(rules, int(hand_env["players"])))  # type: ignore[arg-type]
    if given:
        env.update(given)
    return rules.points(env)  # type: ignore[misc,return-value]
