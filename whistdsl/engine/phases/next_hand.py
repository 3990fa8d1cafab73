"""The next hand (`next_hand`): after a hand is recorded, the next hand of the schedule, a
tie-break hand, or the end of the game with its standings.

A part of `Game` (engine/game.py), which mixes in every phase; its entry point is `next_hand`.
"""

from __future__ import annotations

from ...language.environment import game_env, seat_sets, winner_env
from ...language.errors import EvalError
from ...language.program import Formula
from ...language.values import Value
from ...rules.ruleset import PlannedHand
from ..errors import formula_error
from ..state import GameResult, Phase
from . import Part

OVER = Phase.OVER


class NextHand(Part):
    """The part of `Game` that plays the next hand (entry point: `next_hand`)."""

    def next_hand(self) -> None:
        """After a hand's result is in the history and its totals are kept: the next hand, or the
        end of the game (also called by the compiled game loop, engine/compiled/, which records hands itself)."""
        rules = self.rules
        if self.stop_after_hand:
            self.phase = OVER
            self.to_act = None
            return
        if self.index + 1 < len(self.plan):
            if rules.end is None or not self._game_ends():
                self.begin_hand(self.index + 1, reuse_hands=True)
                return
            del self.plan[self.index + 1 :]  # ended on its condition: the schedule is the hands played
            self.scheduled_hands = len(self.plan)
        winners = self.standings()
        if len(winners) > 1 and self.extra_hands_left > 0:
            self.extra_hands_left -= 1
            self.plan.append(PlannedHand(len(self.plan) + 1, self.extra_cards, rules.tiebreak.kind))  # type: ignore[union-attr]  # extra hands are left only when the ruleset has a tie-break
            self.begin_hand(self.index + 1, reuse_hands=True)
            return
        self.phase = OVER
        self.to_act = None
        self.result = GameResult(tuple(self.totals), tuple(winners), tuple(dict(r) for r in self.running))

    def _game_ends(self) -> bool:
        """`end.when` after this hand of the schedule (tie-break hands do not ask it)."""
        when = self.rules.end.when  # type: ignore[union-attr]  # asked only when the ruleset has end.when
        env = dict(self.hand_env)
        if when.seat_reads:  # every player's total and running values after this hand
            rows = tuple(winner_env({}, self.totals[s], self.running[s]) for s in range(self.players))
            env.update(seat_sets(rows, 0, ("seats",)))
        try:
            return bool(when(env))
        except EvalError as e:
            raise formula_error(e, (when,), env, hand=self.hand_number) from None

    def standings(self) -> list[int]:
        """The seats that win now: `wins_outright` first, then each ranking key in turn."""
        rules = self.rules
        table = game_env(self.players, lets=rules.let_values(self.players))
        envs = [winner_env(table, self.totals[seat], self.running[seat]) for seat in range(self.players)]
        if rules.winner_sets:  # what the winner's keys read of every player
            rows = tuple(winner_env({}, self.totals[seat], self.running[seat]) for seat in range(self.players))
            for seat, env in enumerate(envs):
                env.update(seat_sets(rows, seat, rules.winner_sets))
        seats = list(range(self.players))
        if rules.wins_outright is not None:
            outright = [s for s in seats if self._winner_formula(rules.wins_outright, envs[s], s)]
            if outright:
                seats = outright
        for key in rules.rank:
            values = {s: self._winner_formula(key.formula, envs[s], s) for s in seats}
            best = max(values.values()) if key.highest else min(values.values())
            seats = [s for s in seats if values[s] == best]
            if len(seats) == 1:
                break
        return seats

    def _winner_formula(self, formula: Formula, env: dict[str, Value], seat: int) -> Value:
        try:
            return formula(env)
        except EvalError as e:
            hand = self.history[-1].number if self.history else None
            raise formula_error(e, (formula,), env, hand=hand, seat=seat) from None
