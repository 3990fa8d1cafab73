"""Scoring one player's hand: points, then bonus, then running values, in that order.

The one place that fills the scoring contexts of the catalogue, for the engine and for
`whistdsl score` alike. Running values are read as they were before the hand; the new ones
are returned, not stored.
"""

from __future__ import annotations

from typing import Mapping

from ..language.expression import Number, Value
from ..rules.ruleset import Ruleset


def result_env(
    hand_env: Mapping[str, Value],
    bid: int,
    tricks: int,
    *,
    total: Number = 0,
    is_dealer: bool = False,
    position: int = 1,
    running: Mapping[str, Number] | None = None,
    into: dict[str, Value] | None = None,
) -> dict[str, Value]:
    """The `scoring` context for one seat: the hand's env (with `trump`) plus this seat's result.

    `into`, when given, is a copy of `hand_env` to refill (saves a copy per seat).
    """
    env = dict(hand_env) if into is None else into
    if running:
        env.update(running)
    env["total"] = total
    env["is_dealer"] = is_dealer
    env["position"] = position
    env["bid"] = bid
    env["tricks"] = tricks
    env["made"] = tricks == bid
    env["over"] = tricks > bid
    env["under"] = tricks < bid
    env["diff"] = abs(bid - tricks)
    return env


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
    env = {"players": players, **rules.let_values(players)}
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
