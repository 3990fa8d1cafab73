"""The scoring (`score_hand`): each seat's points, bonus and running values by the ruleset's
formulas, the new totals, the hand's result in the history; a finished hand judged on a copy.

A part of `Game` (engine/game.py), which mixes in every phase; its entry point is `score_hand`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ...language.environment import seat_sets
from ...language.errors import EvalError
from ...language.limits import MAX_NUMBER
from ...language.values import Number, Value, within_limit
from ..errors import RuleError, formula_error
from ..scoring import ScoreError, result_env, score_in_passes, score_seat
from ..state import HandResult, PlayedTricks
from . import Part


class Scoring(Part):
    """The part of `Game` that plays the scoring (entry point: `score_hand`)."""

    def points_if(self, taken: Sequence[int], bids: Sequence[int] | None = None, calls: Sequence[str] = ()) -> tuple[Number, ...]:
        """Each seat's points (bonus included) if this hand ended with `taken` tricks per seat
        (and `bids`, `calls` in place of the ones made): the hand scored by the ruleset's
        formulas on a copy of the game, which is left as it is (look-ahead players judge a
        finished hand so). Raises RuleError where the formulas cannot score it."""
        sim = self.clone()
        if bids is not None:
            sim.bids = list(bids)
        if calls:
            sim.calls = list(calls)
        sim.taken = list(taken)
        sim.stop_after_hand = True
        sim.score_hand()
        return sim.history[-1].points

    def score_hand(self) -> None:
        """Score the hand whose last trick is taken, by the ruleset's formulas (each seat's
        points, bonus and running values, remembered by the values they read), then close it
        (`close_hand`). Raises RuleError where a formula fails or a total passes the limit."""
        rules, n = self.rules, self.players
        points: list[Number] = [0] * n
        bonuses: list[Number] = [0] * n
        totals_after = list(self.totals)
        running_after = list(self.running)
        scratch: dict[str, Value] | None = None
        # the scoring formulas are pure: remember each seat's score by the values they read
        _, seat_names, set_names, by_sets = self._score_reads
        memo = self.facts.score_memo
        hand_key = self.score_memo_key
        rows = self._seat_rows(results=True) if set_names else ()
        passes = self._score_in_passes(rows, set_names) if rules.scores_in_passes else None
        for index, seat in enumerate(self.bidding_order):
            bid, tricks = self.bids[seat], self.taken[seat]
            key = (bid, tricks, hand_key, *[self._seat_value(seat, name) for name in seat_names]) if seat_names else (bid, tricks, hand_key)
            if set_names:  # what the scoring reads of the other seats
                sets = seat_sets(rows, index, set_names)
                key += tuple(f.seat_key(sets) for f in by_sets)
            scored = memo.get(key) if passes is None else passes[index]
            if scored is None:
                if scratch is None:
                    scratch = dict(self.hand_env)
                if set_names:
                    scratch.update(sets)
                env = result_env(
                    self.hand_env,
                    bid,  # type: ignore[arg-type]  # a seat's bid is made (not None) once the play or the scoring comes
                    tricks,
                    total=self.totals[seat],
                    is_dealer=seat == self.dealer,
                    position=self.position[seat],
                    running=self.running[seat],
                    into=scratch,
                    **self.seat_choices(seat),
                )
                try:
                    scored = score_seat(rules, env)
                except EvalError as e:
                    formulas = (rules.points, rules.bonus, *(r.after_hand for r in rules.running))
                    raise formula_error(e, formulas, env, hand=self.hand_number, seat=seat) from None
                memo.keep(key, scored)
            p, b, new_running = scored
            points[seat] = p + b
            bonuses[seat] = b
            total = self.totals[seat] + p + b
            if type(total) is int:
                if not -MAX_NUMBER < total < MAX_NUMBER:
                    raise self._total_too_large(seat, total)
            else:
                total = _exact(total)
                if not within_limit(total):
                    raise self._total_too_large(seat, total)
            totals_after[seat] = total
            if new_running:  # a fresh dict each hand: the history keeps the old ones
                running_after[seat] = dict(new_running)
        self.close_hand(points, bonuses, totals_after, running_after)

    def close_hand(self, points: list[Number], bonuses: list[Number], totals_after: list[Number], running_after: list[dict[str, Number]]) -> None:
        """The scored hand's end: the new totals and running values, the hand's result in the
        history, then the next hand or the end of the game (also called by the compiled engine's
        generated hands, engine/compiled/, which score by themselves)."""
        self.record_hand(points, bonuses, totals_after, running_after)
        self.next_hand()

    def record_hand(self, points: list[Number], bonuses: list[Number], totals_after: list[Number], running_after: list[dict[str, Number]]) -> None:
        """The scored hand's new totals and running values, and its result in the history."""
        self.totals = totals_after
        self.running = running_after
        plan = self.plan[self.index]
        tricks = self.tricks
        decides = self._decides
        self.history.append(
            tuple.__new__(  # HandResult's fields in order, every one given (a hot path)
                HandResult,
                (
                    plan.number,
                    plan.size,
                    plan.kind,
                    self.hand_kind.mark,
                    self.setup.extra,
                    self.dealer,
                    self.sitting_out,
                    self.trump,
                    self.turn_up,
                    self.dealt,
                    tuple(self.bid_log),
                    tricks if type(tricks) is PlayedTricks else tuple(tricks),  # type: ignore[comparison-overlap,redundant-expr]  # the compiled engine keeps PlayedTricks, not the declared list: read when asked
                    tuple(self.taken),
                    tuple(points),
                    tuple(bonuses),
                    tuple(totals_after),
                    tuple(running_after),
                    self.rng.getstate() if self.keep_rng_states else None,
                    self.rules.specials,
                    tuple(self.choices) if decides else (),
                    tuple(self.calls) if decides else (),
                    tuple(self.blind) if decides else (),
                    tuple(self.excused) if decides else (),
                    self.declarer if decides else None,
                    self.auction_bid if decides else 0,
                    self.trump_from,
                    tuple(self.redealt),
                ),
            )
        )

    def _score_in_passes(self, rows: tuple[dict[str, Value], ...], set_names: tuple) -> list:
        """Every seat's (points, bonus, running values) when the bonus or a running value reads
        the other seats' points (engine/scoring.py `score_in_passes`)."""
        envs = []
        for index, seat in enumerate(self.bidding_order):
            env = result_env(
                self.hand_env,
                self.bids[seat],  # type: ignore[arg-type]  # a seat's bid is made (not None) once the play or the scoring comes
                self.taken[seat],
                total=self.totals[seat],
                is_dealer=seat == self.dealer,
                position=self.position[seat],
                running=self.running[seat],
                into=None,  # a new env per seat (what fills `**` is SEAT_FACTS only)
                **self.seat_choices(seat),
            )
            env.update(seat_sets(rows, index, set_names))
            envs.append(env)
        try:
            return score_in_passes(self.rules, envs, rows)
        except ScoreError as e:
            rules = self.rules
            formulas = (rules.points, rules.bonus, *(r.after_hand for r in rules.running))
            raise formula_error(e, formulas, e.env, hand=self.hand_number, seat=self.bidding_order[e.index]) from None

    #: keep the generator's state after each hand in the history (records set it, to resume)
    keep_rng_states = False

    def _total_too_large(self, seat: int, total: Number) -> RuleError:
        return RuleError(
            f"the total would pass the number limit of 10^{len(str(MAX_NUMBER)) - 1} in size",
            hand=self.hand_number,
            seat=seat,
            origin=self.rules.points.origin if self.rules.points is not None else "",
            values={"total": self.totals[seat]},
        )


def _exact(x: Number) -> Number:
    if isinstance(x, Fraction) and x.denominator == 1:
        return int(x)
    return x
