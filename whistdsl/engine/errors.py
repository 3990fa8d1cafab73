"""The engine's two errors: an action the rules refuse (`IllegalAction`, the game unchanged), and
rules that cannot go on (`RuleError`, naming hand, seat and formula)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..language.errors import EvalError
from ..language.program import Formula
from ..language.values import Value, value_text


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the game is unchanged.

    `str(e)` speaks to the player ("you must follow suit: ..."); `reason` is a stable code
    (`not_your_turn`, `bad_bid`, `hook`, `forced_bid`, `bid_not_allowed`, `not_a_card`,
    `not_held`, `must_follow`, `must_trump`, `must_overtrump`, `wild_suit`, `game_over`; `not_over` and
    `no_hand` for `State.game_result` and `State.hand_kind` read too early) and `detail` says
    the same about a seat in the third person ("holds a spade (must follow)"), for replays.
    """

    def __init__(self, message: str, reason: str = "illegal", detail: str | None = None):
        super().__init__(message)
        self.reason = reason
        self.detail = detail if detail is not None else message


class RuleError(Exception):
    """The rules cannot go on: a formula cannot be evaluated here, or leaves a seat no legal action.

    Raised by the engine with everything a ruleset's author needs to find the cause: the hand,
    the seat (None for what concerns the whole table), the formula's origin (`scoring.points
    (house.yaml:12:11)`, through the extends chain) and the values it read. The game is left as
    it was before the failing step; every hand finished before it is in `history`.
    """

    def __init__(
        self,
        message: str,
        *,
        hand: int | None = None,
        seat: int | None = None,
        origin: str = "",
        values: Mapping[str, Value] | None = None,
    ):
        self.message = message
        self.hand = hand
        self.seat = seat
        self.origin = origin
        self.values = dict(values or {})
        super().__init__(self.describe())

    def describe(self, names: Sequence[str] | None = None) -> str:
        """`rule error in hand 9, seat 2 (Ana): bidding.allowed (house.yaml:7:12) ...: why (read: ...)`."""
        where = []
        if self.hand is not None:
            where.append(f"hand {self.hand}")
        if self.seat is not None:
            who = f" ({names[self.seat]})" if names is not None and 0 <= self.seat < len(names) else ""
            where.append(f"seat {self.seat}{who}")
        text = "rule error" + (f" in {', '.join(where)}" if where else "")
        if self.origin:
            text += f": {self.origin}"
        text += f": {self.message}"
        if self.values:
            shown = ", ".join(f"{k}={value_text(v)}" for k, v in sorted(self.values.items()))
            text += f" (it read {shown})"
        return text


def formula_error(
    error: EvalError, formulas: Iterable[Formula | None], env: Mapping[str, Value], *, hand: int | None, seat: int | None = None
) -> RuleError:
    """A RuleError naming the formula of `formulas` that raised `error` in `env`, and what it read.

    The formulas are pure, so evaluating them again in order finds the one that fails.
    """
    for f in formulas:
        if f is None:
            continue
        try:
            f(env)
        except EvalError as again:
            sets = {name for name, _ in f.seat_reads}
            values = {n: env[n] for n in f.names if n in env and n not in sets}
            return RuleError(str(again), hand=hand, seat=seat, origin=f.origin, values=values)
    return RuleError(str(error), hand=hand, seat=seat)
