"""Scoring one player's hand: points, then bonus, then running values, in that order.

The scoring formulas, for the engine and for `whistdsl score` alike; their environments come
from language/environment.py (`result_env` is re-exported here). Running values are read as
they were before the hand; the new ones are returned, not stored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..language.environment import result_env
from ..language.errors import EvalError
from ..language.program import Formula
from ..language.values import Number, Value
from ..rules.ruleset import Ruleset, start_running

__all__ = ["hand_points", "result_env", "score_in_passes", "score_seat", "ScoreError"]


def score_seat(rules: Ruleset, env: dict[str, Value]) -> tuple[Number, Number, dict[str, Number]]:
    """(points, bonus, new running values) for one seat; `env` is its result_env (extended in place)."""
    points = rules.points.cached(env)  # type: ignore[union-attr]  # a game is scored only by a ruleset with a points formula
    env["points"] = points
    bonus = rules.bonus.cached(env) if rules.bonus is not None else 0
    env["bonus"] = bonus
    running = {r.name: r.after_hand.cached(env) for r in rules.running}
    return points, bonus, running  # type: ignore[return-value]  # the checker typed the points, bonus and running formulas numbers


class ScoreError(EvalError):
    """A scoring formula failed for the seat at `index` (of the bidding order), in `env`."""

    def __init__(self, error: EvalError, index: int, env: dict[str, Value]):
        super().__init__(str(error))
        self.index, self.env = index, env


def score_in_passes(
    rules: Ruleset, envs: Sequence[dict[str, Value]], rows: Sequence[dict[str, Value]]
) -> list[tuple[Number, Number, dict[str, Number]]]:
    """(points, bonus, new running values) for every seat at once, when the bonus or a running
    value reads the other seats' points or bonus (`Ruleset.scores_in_passes`): the points of every
    seat first, then every seat's bonus, then the running values. `envs` are the seats' result
    envs (in bidding order), whose seat sets hold `rows` (each seat's row, given its points and
    bonus here as they are computed). Raises ScoreError naming the seat."""

    def each(formula: Formula | None, name: str) -> list[Number]:
        values: list[Number] = []
        for index, (env, _row) in enumerate(zip(envs, rows)):
            try:
                value = formula.cached(env) if formula is not None else 0
            except EvalError as e:
                raise ScoreError(e, index, env) from None
            values.append(value)  # type: ignore[arg-type]  # the checker typed the points and bonus formulas numbers
        for env, row, value in zip(envs, rows, values):
            env[name] = row[name] = value
        return values

    points = each(rules.points, "points")
    bonus = each(rules.bonus, "bonus")
    out = []
    for index, env in enumerate(envs):
        try:
            running = {r.name: r.after_hand.cached(env) for r in rules.running}
        except EvalError as e:
            raise ScoreError(e, index, env) from None
        out.append((points[index], bonus[index], running))
    return out  # type: ignore[return-value]  # the checker typed the running formulas numbers


def hand_points(
    rules: Ruleset,
    hand_env: Mapping[str, Value],
    bid: int,
    tricks: int,
    given: Mapping[str, Value] | None = None,
    call: str = "",
    blind: bool = False,
) -> Number:
    """The scoring formula's points for one bid (a named `call`, bid `blind`) and result, with
    running values at their start; `given` sets any other names of the scoring context (`total`,
    a running value, `is_dealer`)."""
    env = result_env(hand_env, bid, tricks, running=start_running(rules, int(hand_env["players"])), call=call, blind=blind)  # type: ignore[arg-type]  # `players` is a whole number
    if given:
        env.update(given)
    return rules.points(env)  # type: ignore[misc,return-value]  # asked only of a ruleset with a points formula, which the checker typed a number
