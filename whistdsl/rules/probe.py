"""Lint's whole games: the scoring played through every hand of a game with each player
following one pattern (`PATTERNS`: bidding all the tricks or none, taking them or not), so
that running values and totals grow as they would; a formula that fails there, or a total past
the number cap, is a warning (W407), and `end.when` that never holds is one (W417).

A part of `FormulaCases` (rules/domain.py), which tries the formulas case by case and mixes
this in.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from ..language.environment import result_env, seat_sets, trump_env, winner_env
from ..language.errors import EvalError
from ..language.limits import MAX_NUMBER
from ..language.values import Number, Value
from .load import JsonPath
from .ruleset import FirstBidder, HandSetup, Ruleset
from .targets import LIST_COST, Budget, Report, Target, a_trump, game_state_words


class WholeGames:
    """The part of `FormulaCases` that plays whole games (entry points: `needs_probe`, `probe`,
    `end_probe`)."""

    # what it reads of FormulaCases (rules/domain.py), which sets them
    rules: Ruleset
    report: Report
    budget: Budget
    unknown: frozenset[str]
    scoring: list[Target]
    points: Target | None
    ending: list[Target]
    failed: set[int]
    warned: set[int]
    seen: set[tuple]
    largest: dict[int, Number]
    denominators: dict[int, int]
    errors: int
    fixed: dict[str, Value]

    if TYPE_CHECKING:  # FormulaCases's own

        def _paths(self, t: Target, entry: JsonPath, game: bool = False) -> list[JsonPath]: ...
        def _players(self, t: Target, env: dict[str, Value], players: int) -> None: ...
        def _dealer_position(self, setup: HandSetup) -> int: ...

    #: (what one player does in every hand, its bid and tricks for a hand size)
    PATTERNS: tuple[tuple[str, Callable[[int], tuple[int, int]]], ...] = (
        ("bids all the tricks and takes them", lambda size: (size, size)),
        ("bids 0 and takes no trick", lambda size: (0, 0)),
        ("bids all the tricks and takes none", lambda size: (size, 0)),
        ("bids 0 and takes all the tricks", lambda size: (0, size)),
        ("bids 1 and takes 1 trick", lambda size: (1, 1)),
    )

    def needs_probe(self, hands: int) -> bool:
        """Whether whole games can say more than single cases: running values carry over from
        hand to hand, and totals add up, past the number cap if the points are large or are
        fractions whose denominators add up. A total's denominator divides the least common
        multiple of the denominators of the points and bonuses it adds; its numerator is at
        most its size times that."""
        if self.rules.running:
            return True
        if any(t.reads & self.unknown for t in self.scoring):
            return True
        added = [t for t in self.scoring if t.name in ("points", "bonus")]
        most = sum(self.largest.get(id(t), 0) for t in added)
        denominator = math.lcm(*(self.denominators.get(id(t), 1) for t in added))
        return max(most * hands, 1) * denominator >= MAX_NUMBER

    def probe(self, players: int, setups: Sequence[tuple[HandSetup, JsonPath]], lets: dict[str, Value], start: dict[str, Number]) -> None:
        """Play each PATTERN for one player through every hand (the schedule, then every
        tie-break hand): running values and the total as they grow. A failure is a warning."""
        for label, pattern in self.PATTERNS:
            state: dict[str, Number] = dict(start)
            for _ in self._play(players, setups, label, pattern, state):
                pass
            if state.get("failed"):
                continue
            env = {**lets, "players": players, **state}
            for t in self.ending:
                if id(t) in self.warned or id(t) in self.failed:
                    continue
                self._players(t, env, players)
                self.budget.spend(t.cost)
                try:
                    t.formula(env)
                except EvalError as e:
                    self.report(
                        [t.path],
                        "W407",
                        f"with {players} players, if a player {label} in every hand, at the end of the game"
                        f"{game_state_words(env, t.formula, self.unknown)}: {e} (if a game gets there, it stops with a rule error)",
                        "warning",
                    )
                    self.warned.add(id(t))

    def _play(
        self,
        players: int,
        setups: Sequence[tuple[HandSetup, JsonPath]],
        label: str,
        pattern: Callable[[int], tuple[int, int]],
        state: dict[str, Number],
    ) -> Iterable[tuple[HandSetup, dict[str, Value]]]:
        """One whole game in which every player follows `pattern`: after each hand, its setup and
        the env of the hand with the new total and running values. `state` (the total and the
        running values) is updated in place; a failure is a warning and sets `state["failed"]`."""
        rules = self.rules
        for setup, entry in setups:
            bid, tricks = pattern(setup.plan.size)
            running = {r.name: state[r.name] for r in rules.running}
            env = result_env(
                trump_env(setup.env, a_trump(rules, setup)),
                bid,
                tricks,
                total=state["total"],
                is_dealer=rules.first_bidder == FirstBidder.DEALER and not setup.dealer_sits_out,
                position=1,
                running=running,
            )
            env.update(self.fixed)
            rows: tuple[dict[str, Value], ...] = ()
            if any(t.seat_sets for t in self.scoring):  # every seat plays as this one, each in its place
                dealer_at = self._dealer_position(setup)
                rows = tuple(
                    result_env({}, bid, tricks, total=state["total"], is_dealer=p == dealer_at, position=p, running=running)
                    for p in range(1, setup.playing + 1)
                )
                env.update(seat_sets(rows, 0))
            values: dict[str, Number] = {}
            for t in self.scoring:
                self.budget.spend(t.cost)
                try:
                    values[t.name] = v = t.formula.cached(env)  # type: ignore[assignment]  # the checker typed this formula a number
                except EvalError as e:
                    self._probe_warning(self._paths(t, entry, game=True), players, setup, label, str(e))
                    state["failed"] = True
                    return
                if t.name in ("points", "bonus"):
                    env[t.name] = v
                    for row in rows:  # every seat scored as this one
                        row[t.name] = v
            total = state["total"] + values.get("points", 0) + values.get("bonus", 0)
            if abs(total.numerator if isinstance(total, Fraction) else total) >= MAX_NUMBER or (
                isinstance(total, Fraction) and total.denominator >= MAX_NUMBER
            ):
                points = self.points.path if self.points is not None else ("scoring", "points")
                self._probe_warning([points, entry], players, setup, label, "the total exceeds the limit of 10^30 in size")
                state["failed"] = True
                return
            state["total"] = total
            for r in rules.running:
                state[r.name] = values[r.name]
            env.update(state)
            yield setup, env

    def end_probe(self, players: int, setups: Sequence[tuple[HandSetup, JsonPath]], start: dict[str, Number]) -> None:
        """`end.when` in whole games: evaluated after each hand of the schedule (in its loop up to
        the cap) while each PATTERN is played. A `when` that never holds in any of these games is
        a warning (W417): every game would run to the cap. A `when` that cannot be evaluated is
        an error when it reads only what lint knows exactly (the hand), else a warning."""
        end = self.rules.end
        if end is None:
            return
        scheduled = [(setup, entry) for setup, entry in setups if not setup.extra]
        exact = not (end.when.names & self.unknown) and not end.when.seat_reads  # totals, of any seat, are not known exactly
        held = False
        for label, pattern in self.PATTERNS if not exact else self.PATTERNS[:1]:
            state: dict[str, Number] = dict(start)
            for setup, env in self._play(players, scheduled, label, pattern, state):
                self.budget.spend(max(1, end.when.list_ops * LIST_COST))
                if end.when.seat_reads:  # every player plays as this one
                    row = winner_env({}, state["total"], {r.name: state[r.name] for r in self.rules.running})
                    env.update(seat_sets((row,) * players, 0, ("seats",)))
                try:
                    holds = end.when.cached(env)
                except EvalError as e:
                    if exact:
                        self.report([("end", "when")], "W305", f"with {players} players, after hand {setup.plan.number}: {e}", "error")
                        self.errors += 1
                    elif ("end", "warned") not in self.seen:
                        self.seen.add(("end", "warned"))
                        self.report(
                            [("end", "when")],
                            "W407",
                            f"with {players} players, if a player {label} in every hand, after hand {setup.plan.number}"
                            f"{game_state_words(env, end.when, self.unknown)}: {e} (if a game gets there, it stops with a rule error)",
                            "warning",
                        )
                    return
                if holds:
                    held = True
                    break
            if held or state.get("failed"):
                return
        if ("end", "never") in self.seen or not scheduled:
            return
        self.seen.add(("end", "never"))
        cap = len(scheduled)
        how = "after any hand" if exact else "in any of the games lint plays (every player bidding 0, or all the tricks, taking them or not)"
        self.report(
            [("end", "when"), ("end", "hands")],
            "W417",
            f"with {players} players, end.when never holds within the cap of {cap} hand{'s' if cap != 1 else ''} {how}: "
            "every game would be played to the cap",
            "warning",
        )

    def _probe_warning(self, paths: list[JsonPath], players: int, setup: HandSetup, label: str, error: str) -> None:
        key = ("probe", paths[0])
        if key in self.seen:
            return
        self.seen.add(key)
        self.report(
            paths,
            "W407",
            f"with {players} players, if a player {label} in every hand, in hand {setup.plan.number}: {error} "
            "(if a game gets there, it stops with a rule error)",
            "warning",
        )
