"""Lint's half of the contract: every formula tried on every case the engine can reach.

A formula whose inputs range over finite values (bid and tricks 0..hand size, every hand of the
schedule and the tie-break hands at every allowed player count, trump, kinds, positions, the
dealer) is evaluated over that whole domain: a case that cannot be evaluated is an error
finding that names it ("with 4 players in hand 7, bid 2 and tricks 2: division by zero").

What lint cannot enumerate (running values, `total`, and the `points` or `bonus` computed from
them) is tried at a spread of values instead: the start values, SPREAD, and for each division
the value that makes its divisor 0. A failure there is a warning (W407): the game may never get
there, and if it does the engine stops with a rule error. The one exception is the first hand,
which every game plays with the start values: a failure there is an error. A short run of whole
games per player count (`probe`, rules/probe.py) finds values that grow past the number cap hand
after hand.

Every evaluation is remembered by the values the formula reads (`Formula.names`), so a formula
is evaluated once per distinct case, and all of it is bounded by MAX_CASES evaluations.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..language.environment import bidding_env, result_facts, seat_row, seat_sets, trump_env, winner_env
from ..language.errors import EvalError
from ..language.limits import MAX_NUMBER
from ..language.program import Formula, divisors
from ..language.values import Number, Value
from .load import JsonPath
from .probe import WholeGames
from .ruleset import FirstBidder, HandSetup, Ruleset
from .targets import (
    CHOICE_NAMES,
    CHOICES,
    HAND_NAMES,
    RESULT_NAMES,
    SEAT_NAMES,
    Budget,
    Report,
    Target,
    case_words,
    hand_words,
    samples,
    when,
)

#: The facts of the hand's decisions (rules/targets.py CHOICES) whose values `_build_cases` tries
#: by the ruleset's own decisions; any other is tried at its default.
_AXES = frozenset({"blind", "is_declarer", "auction_bid", "excused", "declared", "auction_call"})


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")


class FormulaCases(WholeGames):
    """Tries the scoring formulas (points, bonus, running values) and the winner's keys."""

    def __init__(self, rules: Ruleset, report: Report, budget: Budget):
        self.rules = rules
        self.report = report
        self.budget = budget
        self.unknown = frozenset({"total", *rules.running_names})  # what lint cannot enumerate
        targets: list[Target] = []
        points = Target(rules.points, ("scoring", "points"), "points") if rules.points is not None else None
        bonus = None
        if points is not None:
            targets.append(points)
        if rules.bonus is not None:
            bonus = Target(rules.bonus, ("scoring", "bonus"), "bonus", self._before(rules.bonus, points, None))
            targets.append(bonus)
        for r in rules.running:
            targets.append(Target(r.after_hand, ("running", r.name, "after_hand"), r.name, self._before(r.after_hand, points, bonus)))
        self.scoring = targets
        self.points, self.bonus = points, bonus
        #: `bidding.first` and `play.first_lead` chosen by a formula: tried like the scoring
        self.choices = [
            Target(choice.formula, path, "")
            for choice, path in ((rules.first_bidder_choice, ("bidding", "first")), (rules.first_lead_choice, ("play", "first_lead")))
            if choice is not None
        ]
        if rules.skip is not None:  # a seat excused from bidding: tried like the scoring
            items = rules.source.get("decisions") or []
            at = next((i for i, d in enumerate(items) if isinstance(d, dict) and d.get("name") == "bid"), 0)
            self.choices.append(Target(rules.skip, ("decisions", at, "skip"), ""))
        self.ending: list[Target] = [
            Target(k.formula, ("winner", "rank", i) if "rank" in (rules.source.get("winner") or {}) else ("winner",), "")
            for i, k in enumerate(rules.rank)
        ]
        if rules.wins_outright is not None:
            self.ending.append(Target(rules.wins_outright, ("winner", "wins_outright"), ""))
        self.failed: set[int] = set()  # targets with an error: not tried again
        self.warned: set[int] = set()  # targets with a warning: not sampled again
        self.seen: set[tuple] = set()  # (target, phase, what the target reads of the hand)
        self.largest: dict[int, Number] = {}  # the largest size of a target's values (exact cases)
        self.denominators: dict[int, int] = {}  # the least common multiple of their denominators
        self.errors = 0
        #: what the scoring contexts hold that no formula computes: no `scoring.bonus` is a bonus of 0
        self.fixed: dict[str, Value] = {} if rules.bonus is not None else {"bonus": 0}
        self._case_lists: dict[tuple, list[dict[str, Value]]] = {}
        self.bids_warned = False  # the bidding check has warned once: it samples no more

    @staticmethod
    def _before(f: Formula, points: Target | None, bonus: Target | None) -> tuple[Target, ...]:
        out: list[Target] = []
        if points is not None and ("points" in f.names or (bonus is not None and "bonus" in f.names and "points" in bonus.formula.names)):
            out.append(points)
        if bonus is not None and "bonus" in f.names:
            out.append(bonus)
        return tuple(out)

    # ------------------------------------------------------------ evaluation

    def _value(self, t: Target, env: dict[str, Value]) -> tuple[bool, Any]:
        """(True, value) or (False, the error), remembered by the values `t` reads."""
        key = t.formula.memo_key(env)
        got = t.memo.get(key)
        if got is None:
            self.budget.spend(t.cost)
            try:
                got = (True, t.formula(env))
            except EvalError as e:
                got = (False, str(e))
            t.memo[key] = got
        return got

    def _try(self, t: Target, env: dict[str, Value]) -> str | None:
        """The error of `t` in `env`, or None (also when a formula it needs fails: that one is reported)."""
        return self._outcome(t, env)[1]

    def _outcome(self, t: Target, env: dict[str, Value]) -> tuple[Any, str | None]:
        """(its value, None), (None, its error), or (None, None) when a formula it needs fails."""
        for b in t.before:
            ok, v = self._value(b, env)
            if not ok:
                return None, None
            env[b.name] = v
        ok, v = self._value(t, env)
        return (v, None) if ok else (None, v)

    # ------------------------------------------------------------ the cases of a hand

    def _cases(self, setup: HandSetup, reads: frozenset[str]) -> list[dict[str, Value]]:
        """The distinct enumerated cases of a hand for a formula that reads `reads` (each a dict
        of the values of a whole case, one per distinct combination of the values read)."""
        key = (
            setup.plan.size if reads & RESULT_NAMES else None,
            (setup.playing, setup.dealer_sits_out) if reads & SEAT_NAMES else None,
            reads & (RESULT_NAMES | SEAT_NAMES | CHOICE_NAMES | {"trump"}),
        )
        cached = self._case_lists.get(key)
        if cached is None:
            cached = self._case_lists[key] = self._build_cases(setup, reads)
        return cached

    def _build_cases(self, setup: HandSetup, reads: frozenset[str]) -> list[dict[str, Value]]:
        rules = self.rules
        axes: list[list[dict[str, Value]]] = []
        res = sorted(reads & RESULT_NAMES)
        if res:
            size = setup.plan.size
            by: dict[tuple, dict[str, Value]] = {}
            bids = [(bid, "") for bid in range(size + 1)] + [(n, call) for call, n in rules.calls if n <= size]
            for bid, call in bids:
                for tricks in range(size + 1):
                    full = result_facts({"call": call}, bid, tricks)
                    by.setdefault(tuple(full[n] for n in res), full)
            axes.append(list(by.values()))
        seat = sorted(reads & SEAT_NAMES)
        if seat:
            dealer_at = 1 if rules.first_bidder == FirstBidder.DEALER else setup.playing
            by = {}
            for position in range(1, setup.playing + 1):
                full = {"position": position, "is_dealer": not setup.dealer_sits_out and position == dealer_at}
                by.setdefault(tuple(full[n] for n in seat), full)
            axes.append(list(by.values()))
        if "trump" in reads:
            axes.append([{"trump": t} for t in (*rules.suits, "none")])
        if "blind" in reads:
            axes.append([{"blind": False}, {"blind": True}] if rules.blind_bids else [{"blind": False}])
        if reads & {"is_declarer", "auction_bid"}:
            # the declarer, whose bid is the auction's winning bid, or another seat of that auction
            won = auction_bids(rules, setup)
            axes.append([{"is_declarer": False, "auction_bid": 0}] + [{"is_declarer": d, "auction_bid": b} for b in won for d in (False, True)])  # type: ignore[arg-type]  # seat facts of numbers and yes/no are Values (a dict is invariant)
        if "excused" in reads:
            axes.append([{"excused": False}, {"excused": True}] if rules.skip is not None else [{"excused": False}])
        if "declared" in reads:  # no declaration, or each one a seat may make and the hand is played with
            made = [name for name, _ in rules.declare.choices if name != "redeal"] if rules.declare is not None else []
            axes.append([{"declared": name} for name in ["", *made]])
        if "auction_call" in reads:  # no call in the auction, or each named call of the auction
            named = [call.name for call in rules.auction.calls] if rules.auction is not None else []
            axes.append([{"auction_call": name} for name in ["", *named]])
        # a seat's fact of the hand's decisions with no values of its own above: its default
        axes += [[{f.name: f.default}] for f in CHOICES if f.name in reads and f.name not in _AXES]
        cases = []
        for combo in itertools.product(*axes):
            case: dict[str, Value] = {}
            for part in combo:
                case.update(part)
            cases.append(case)
        return cases

    def _hand_key(self, t: Target, phase: str, setup: HandSetup) -> tuple:
        reads = t.reads
        fixed = tuple((n, setup.env[n]) for n in sorted(reads) if n in setup.env)
        return (
            id(t),
            phase,
            fixed,
            setup.plan.size if reads & RESULT_NAMES else None,
            (setup.playing, setup.dealer_sits_out) if reads & SEAT_NAMES else None,
        )

    def _first_time(self, t: Target, phase: str, setup: HandSetup) -> bool:
        key = self._hand_key(t, phase, setup)
        if key in self.seen:
            return False
        self.seen.add(key)
        return True

    def _paths(self, t: Target, entry: JsonPath, game: bool = False) -> list[JsonPath]:
        """What a case of `t` is about, the formula first: the schedule entry that made the hand
        when `t` reads the hand, or its bid and tricks (which the hand size bounds); in a whole
        game (`game`), the entry of the hand it reached and the running values it read, which
        the game made (their `after_hand`). A finding is reported at the one written in the most
        derived file of an `extends` chain, naming the others (`report_among`): a child that
        changes the schedule or a running value under its base's formula gets it on its own line."""
        paths = [t.path]
        if game or t.reads & (HAND_NAMES | RESULT_NAMES):
            paths.append(entry)
        if game:
            paths += [("running", r.name, "after_hand") for r in self.rules.running if r.name in t.reads and r.name != t.name]
        return paths

    #: How the other seats of a table did, for formulas that read them (aggregates): each gives
    #: the others' (bid, tricks) from the tricks `rest` left to them, `k` of them, and the hand size.
    TABLES: tuple[tuple[str, Callable[[int, int, int], list[tuple[int, int]]]], ...] = (
        ("the others all bid 0 and one takes the tricks left", lambda rest, k, size: [(0, rest)] + [(0, 0)] * (k - 1)),
        ("the others all make their bids", lambda rest, k, size: [(t, t) for t in _spread(rest, k)]),
        ("the others all bid one more than they take", lambda rest, k, size: [(min(t + 1, size), t) for t in _spread(rest, k)]),
        ("the others all bid every trick", lambda rest, k, size: [(size, t) for t in _spread(rest, k)]),
    )

    def _tables(self, t: Target, env: dict[str, Value], setup: HandSetup) -> Iterable[str]:
        """For a target that reads other seats: fill `env`'s seat sets with each table of TABLES
        around this seat's own case (positions in order, the dealer where the rules put it, the
        others' totals and running values as this seat's), yielding its description; otherwise
        yield "" once."""
        if not t.seat_sets:
            yield ""
            return
        size, playing = setup.plan.size, setup.playing
        me = env.get("position", 1)
        dealer_at = self._dealer_position(setup)
        running = {r.name: env[r.name] for r in self.rules.running if r.name in env}
        rest = size - int(env.get("tricks", 0))  # type: ignore[arg-type]  # the checker typed `tricks` a number
        for label, table in self.TABLES:
            others = iter(table(rest, playing - 1, size))
            rows = []
            for position in range(1, playing + 1):
                if position == me:
                    bid, tricks = env.get("bid", 0), env.get("tricks", 0)
                else:
                    bid, tricks = next(others)
                rows.append(
                    seat_row(total=env.get("total", 0), is_dealer=position == dealer_at, position=position, running=running, bid=bid, tricks=tricks)  # type: ignore[arg-type]  # the checker typed total, bid, tricks and the running values numbers
                )
            if t.score_reads and not self._score_rows(rows, env, t.score_reads):
                continue  # the others' points cannot be computed: the points formula's own check says why
            env.update(seat_sets(tuple(rows), me - 1))  # type: ignore[arg-type,operator]  # a seat's number is an int here
            yield label

    def _score_rows(self, rows: list[dict[str, Value]], env: dict[str, Value], needs: frozenset[str]) -> bool:
        """Give each seat's row of a table its points (and bonus, when `needs` it), computed by the
        ruleset's formulas for that seat, as the engine does before the bonus (points of every
        seat first, then the bonuses). False when one cannot be computed."""
        table = tuple(rows)
        for name, f in (("points", self.rules.points), ("bonus", self.rules.bonus)):
            if name == "bonus" and "bonus" not in needs:
                break
            values = []
            for index, row in enumerate(rows):
                seat_env = dict(env)
                seat_env.update(row)
                seat_env.update(seat_sets(table, index))
                self.budget.spend(1)
                try:
                    values.append(f(seat_env) if f is not None else 0)
                except EvalError:
                    return False
            for row, v in zip(rows, values):
                row[name] = v
        return True

    def _players(self, t: Target, env: dict[str, Value], players: int) -> None:
        """For a winner's key that reads the other players: every player as this one (`env`)."""
        if t.seat_sets:
            row = winner_env({}, env.get("total", 0), {r.name: env[r.name] for r in self.rules.running if r.name in env})  # type: ignore[arg-type,misc]  # running values are numbers
            env.update(seat_sets((row,) * players, 0, t.seat_sets))

    def _dealer_position(self, setup: HandSetup) -> int:
        """The dealer's place in the bidding order (0 when the dealer sits out)."""
        if setup.dealer_sits_out:
            return 0
        return 1 if self.rules.first_bidder == FirstBidder.DEALER and self.rules.first_bidder_choice is None else setup.playing

    def hand(self, players: int, setup: HandSetup, entry: JsonPath, start: dict[str, Number]) -> None:
        """Every scoring formula over every case of one hand; `start` holds `total` and the running
        values at their start values."""
        first = setup.plan.number == 1 and not setup.extra
        for t in self.scoring + self.choices:
            if id(t) in self.failed:
                continue
            reads = t.reads
            unknown = reads & self.unknown
            if not unknown:
                if self._first_time(t, "exact", setup):
                    self._exact(t, players, setup, entry, start)
                continue
            if first and self._first_time(t, "start", setup) and self._exact(t, players, setup, entry, start, show=unknown):
                continue
            if not first and t.can_fail and id(t) not in self.warned and self._first_time(t, "sampled", setup):
                self._sampled(t, players, setup, entry, start, unknown)

    def _exact(
        self, t: Target, players: int, setup: HandSetup, entry: JsonPath, start: dict[str, Number], show: frozenset[str] = frozenset()
    ) -> bool:
        """Every case at the start values: a failure is an error. True if one was reported."""
        env = dict(setup.env)
        env.update(start)
        env.update(self.fixed)
        largest = self.largest.get(id(t), 0)
        denominators = self.denominators.get(id(t), 1)
        for case in self._cases(setup, t.case_reads):
            env.update(case)
            for table in self._tables(t, env, setup):
                value, error = self._outcome(t, env)
                if error is not None:
                    words = case_words(case, t.case_reads) + ([table] if table else [])
                    shown = f", {when(env, show)}" if show else ""
                    self.report(
                        self._paths(t, entry), "W305", f"{hand_words(players, setup)}{', ' + _join(words) if words else ''}{shown}: {error}", "error"
                    )
                    self.failed.add(id(t))
                    self.errors += 1
                    return True
                if not show and isinstance(value, (int, Fraction)) and not isinstance(value, bool):
                    largest = max(largest, abs(value))  # type: ignore[call-overload]  # the checker typed the formula a number
                    if isinstance(value, Fraction):
                        denominators = min(math.lcm(denominators, value.denominator), MAX_NUMBER)  # past it, the bound says enough
        if not show:
            self.largest[id(t)] = largest
            self.denominators[id(t)] = denominators
        return False

    def _sampled(self, t: Target, players: int, setup: HandSetup, entry: JsonPath, start: dict[str, Number], unknown: frozenset[str]) -> None:
        """Every case at a spread of the unknown values: a failure is a warning."""
        env = dict(setup.env)
        env.update(start)
        env.update(self.fixed)
        tries = samples(unknown, start)
        parts = self._divisors(t)
        for case in self._cases(setup, t.case_reads):
            env.update(case)
            extra = self._zeros(t, env, parts, start, unknown) if parts else []
            for values in tries + extra:
                env.update(start)
                env.update(values)
                for table in self._tables(t, env, setup):
                    error = self._try(t, env)
                    if error is not None:
                        words = case_words(case, t.case_reads) + ([table] if table else [])
                        self.report(
                            self._paths(t, entry),
                            "W407",
                            f"{hand_words(players, setup)}{', ' + _join(words) if words else ''}, {when(env, unknown)}: {error} (lint cannot know these values; if a game reaches them, it stops with a rule error)",
                            "warning",
                        )
                        self.warned.add(id(t))
                        return

    def _divisors(self, t: Target) -> list[tuple[Callable, frozenset[str]]]:
        found = []
        for f in (t.formula, *(b.formula for b in t.before)):
            found += [(fn, reads) for fn, reads in divisors(f) if reads & (self.unknown | {"points", "bonus"})]
        return found

    def _zeros(
        self, t: Target, env: dict[str, Value], parts: list[tuple[Callable, frozenset[str]]], start: dict[str, Number], unknown: frozenset[str]
    ) -> list[dict[str, Number]]:
        """For each divisor and each unknown value: the value that makes the divisor 0, found
        from two evaluations when the divisor is a straight line in it (e.g. `total - 7`)."""
        out = []
        for fn, _ in parts:
            for name in sorted(unknown):
                at: list[Number] = []
                for x in (0, 1):
                    env.update(start)
                    env[name] = x
                    self.budget.spend(1)
                    try:
                        for b in t.before:
                            env[b.name] = b.formula(env)
                        v = fn(env)
                    except EvalError:
                        break
                    at.append(v)
                if len(at) == 2 and at[1] != at[0] and isinstance(at[0], (int, Fraction)):
                    root: Number = Fraction(-at[0]) / (at[1] - at[0])
                    root = int(root) if root.denominator == 1 else root
                    if abs(root.numerator if isinstance(root, Fraction) else root) < MAX_NUMBER:
                        out.append({name: root})
        return out

    # ------------------------------------------------------------ the winner

    def end_of_game(self, players: int, lets: dict[str, Value], start: dict[str, Number]) -> None:
        """The winner's keys at the end of a game: exact when they read only `players` and the
        `let` values, else tried at a spread of totals and running values (warnings)."""
        for t in self.ending:
            if id(t) in self.failed:
                continue
            env: dict[str, Value] = {**lets, "players": players, **start}
            self._players(t, env, players)
            unknown = t.reads & self.unknown
            if not unknown:
                error = self._try(t, env)
                if error is not None:
                    self.report([t.path], "W305", f"with {players} players, at the end of the game: {error}", "error")
                    self.failed.add(id(t))
                    self.errors += 1
                continue
            if id(t) in self.warned or not t.can_fail:
                continue
            tries = samples(unknown, start) + self._zeros(t, env, self._divisors(t), start, unknown)
            for values in tries:
                env.update(start)
                env.update(values)
                self._players(t, env, players)
                error = self._try(t, env)
                if error is not None:
                    case = when(env, unknown)
                    if all(self._try(t, {**env, **other}) is not None for other in tries):
                        case = f"whatever {' and '.join(sorted(unknown))} {'is' if len(unknown) == 1 else 'are'} (every value tried fails)"
                    self.report(
                        [t.path],
                        "W407",
                        f"with {players} players, at the end of the game, {case}: {error} "
                        "(lint cannot know these values; if a game reaches them, it stops with a rule error)",
                        "warning",
                    )
                    self.warned.add(id(t))
                    break


def turned_card_envs(rules: Ruleset, players: int) -> list[tuple[str, dict[str, str]]]:
    """Every card the deck can turn for trump, as the names a formula reads of it
    (`turn_up_suit`, `turn_up_rank`, `turn_up_special`), with the card in words; and no card
    turned (none left undealt, or a source that turns none), last."""
    out = [
        (f"{rank} of {suit}", {"turn_up_suit": suit, "turn_up_rank": "T" if rank == "10" else rank, "turn_up_special": ""})
        for suit in rules.suits
        for rank in rules.deck_ranks(players)
    ]
    out += [(s.name, {"turn_up_suit": "none", "turn_up_rank": "", "turn_up_special": s.name}) for s in rules.specials]
    out.append(("no card", {"turn_up_suit": "none", "turn_up_rank": "", "turn_up_special": ""}))
    return out


# ---------------------------------------------------------------- decisions.when


def auction_bids(rules: Ruleset, setup: HandSetup) -> list[int]:
    """The winning bids an auction can end with in this hand: its lowest bid to the hand size
    (none without an auction, or when its lowest bid cannot be evaluated: that is reported)."""
    if rules.auction is None:
        return []
    low = rules.auction.min
    if isinstance(low, Formula):
        try:
            low = int(low(setup.env))  # type: ignore[arg-type]  # the checker typed the auction's lowest bid a number
        except EvalError:
            return []
    return list(range(max(low, 0), setup.plan.size + 1))


def turned_cards(rules: Ruleset, setup: HandSetup, players: int) -> list[tuple[str, dict[str, Value]]]:
    """Every trump and turned card a hand can have, as `decisions.when` reads them (its
    `trump_choice` context): (how a finding names the case, the values). A turned-up trump
    turns any card of the deck that is not dealt (a special gives no trump); a cycle gives its
    suit; `trump.none_when` gives no trump and turns nothing."""
    nothing = {"turn_up_suit": "none", "turn_up_rank": "", "turn_up_special": ""}
    none_when = False
    if rules.trump_none_when is not None:
        try:
            none_when = bool(rules.trump_none_when(setup.env))
        except EvalError:
            none_when = False  # reported by the hand's own check
    if none_when:
        return [("no trump (trump.none_when)", {"trump": "none", **nothing})]
    if rules.trump_cycle:
        suit = rules.trump_cycle[(setup.plan.number - 1) % len(rules.trump_cycle)]
        return [(f"trump {suit}", {"trump": suit, **nothing})]
    if not rules.turn_up or setup.cards_left <= 0:
        return [("no card turned", {"trump": "none", **nothing})]
    cards = turned_card_envs(rules, players)[:-1]  # a card is turned: not the last case, "no card"
    return [(f"the turned card {words}", {"trump": facts["turn_up_suit"], **facts}) for words, facts in cards]


def decision_when_failure(
    rules: Ruleset, when: Formula, setup: HandSetup, players: int, budget: Budget, answers: set[bool] | None = None
) -> str | None:
    """`decisions.when` (a seat names trump in this hand?) over every trump and turned card of
    one hand: the first case it cannot be evaluated in, described, with the error; or None.
    Each answer it gives is added to `answers`."""
    memo: set[tuple] = set()
    env = dict(setup.env)
    for words, case in turned_cards(rules, setup, players):
        env.update(case)
        key = when.memo_key(env)
        if key in memo:
            continue
        memo.add(key)
        budget.spend(1)
        try:
            holds = bool(when(env))
        except EvalError as e:
            return f"{hand_words(players, setup)}, {words}: {e}"
        if answers is not None:
            answers.add(holds)
    return None


# ---------------------------------------------------------------- bidding


class BidCheckError(Exception):
    """A bidding limit that cannot be evaluated in some case."""

    def __init__(self, path: JsonPath, error: EvalError, case: str):
        super().__init__(str(error))
        self.path = path
        self.error = error
        self.case = case


@dataclass
class BidTests:
    """The limits of one kind of hand: `bidding.allowed` and the kind's own `allowed`."""

    tests: list[tuple[Formula, JsonPath]]

    @property
    def reads(self) -> frozenset[str]:
        return frozenset().union(*(f.names for f, _ in self.tests))

    @property
    def seat_sets(self) -> tuple[str, ...]:
        """The seat sets the limits aggregate over (`earlier`, ...)."""
        return tuple(sorted({name for f, _ in self.tests for name, _ in f.seat_reads}))

    @property
    def seat_facts(self) -> frozenset[str]:
        """What the limits read of each seat of those sets."""
        return frozenset(n for f, _ in self.tests for _, facts in f.seat_reads for n in facts)


def _holds_or_raise(
    test: Formula, env: dict[str, Value], path: JsonPath, position: int, bid: int, so_far: int, trump: str, uses_sum: bool, used: frozenset[str]
) -> bool:
    try:
        return bool(test(env))
    except EvalError as e:
        case = f"the player bidding {_ordinal(position)}, the call {env['call']}" + (f", the bids so far adding up to {so_far}" if uses_sum else "")
        raise BidCheckError(path, e, case + (f", trump {trump}" if "trump" in used else "")) from None


def no_legal_bid(  # noqa: C901 one case per bidding rule
    rules: Ruleset,
    setup: HandSetup,
    limits: BidTests,
    values: dict[str, Number],
    budget: Budget,
) -> str | None:
    """Whether some player can be left without a legal bid in this hand, whatever legal bids
    came before, with every seat's running values and total as in `values`: a description of the
    first such case, or None. Raises BidCheckError when a limit cannot be evaluated.

    A quick pass tries every sum of earlier bids that the hand size allows; a case that fails
    there counts only if the earlier players can really reach that sum with bids their own
    rules allow (a "0" hand where everyone must bid 0 never has bids adding up to 3).
    """
    if limits.seat_sets:
        return _no_legal_bid_after_bids(rules, setup, limits, values, budget)
    tests = limits.tests
    used = limits.reads
    size = setup.plan.size
    uses_sum = "bids_so_far" in used
    trumps = [*rules.suits, "none"] if "trump" in used else ["none"]
    hands = {trump: trump_env(setup.env, trump) for trump in trumps}
    running = {n: v for n, v in values.items() if n != "total"}
    blinds = [False, True] if rules.blind_bids and "blind" in used else [False]
    calls = [(name, n) for name, n in rules.calls if n <= size]

    def legal_bids(position: int, so_far: int, trump: str, first_only: bool, blind: bool = False) -> list[int]:
        dealer_bids_first = rules.first_bidder == FirstBidder.DEALER
        env = bidding_env(
            hands[trump],
            total=values.get("total", 0),
            is_dealer=not setup.dealer_sits_out and position == (1 if dealer_bids_first else setup.playing),
            bids_made=position - 1,
            bids_so_far=so_far,
            bidders=setup.playing,
            running=running,
            blind=blind,
        )
        legal = []
        budget.spend(len(tests) * (size + 1))  # at most this many evaluations
        for bid in range(size + 1):
            env["bid"] = bid
            for test, path in tests:
                try:
                    if not test(env):
                        break
                except EvalError as e:
                    case = f"the player bidding {_ordinal(position)}, bid {bid}" + (f", the bids so far adding up to {so_far}" if uses_sum else "")
                    raise BidCheckError(path, e, case + (f", trump {trump}" if "trump" in used else "")) from None
            else:
                legal.append(bid)
                if first_only:
                    break
        for name, bid in calls if not (first_only and legal) else ():
            env["bid"], env["call"] = bid, name
            if all(_holds_or_raise(test, env, path, position, bid, so_far, trump, uses_sum, used) for test, path in tests):
                legal.append(bid)  # a named call adds to the bids so far as the number it counts as
                if first_only:
                    break
        return legal

    reachable: dict[tuple[int, str], set[int]] = {}

    def reachable_sums(position: int, trump: str) -> set[int]:
        """The sums the bids of the players before `position` can add up to."""
        if (position, trump) not in reachable:
            sums = (
                {0}
                if position == 1
                else {s + b for s in sorted(reachable_sums(position - 1, trump)) for b in legal_bids(position - 1, s, trump, False)}
            )
            reachable[(position, trump)] = sums
        return reachable[(position, trump)]

    for position in range(1, setup.playing + 1):
        for trump in trumps:
            for so_far in range(size * (position - 1) + 1) if uses_sum else [0]:
                failing = [blind for blind in blinds if not legal_bids(position, so_far, trump, True, blind)]
                if not failing:
                    continue
                if uses_sum and so_far not in reachable_sums(position, trump):
                    continue
                return (
                    f"the player bidding {_ordinal(position)} has no legal bid"
                    + (" once it has chosen to bid blind" if failing[0] else "")
                    + (f" when the bids so far add up to {so_far}" if uses_sum else "")
                    + (f" and trump is {trump}" if "trump" in used else "")
                )
    return None


def _spread(tricks: int, seats: int) -> list[int]:
    """`tricks` shared as evenly as can be among `seats` seats, the earlier ones taking the rest."""
    share, rest = divmod(tricks, seats) if seats else (0, 0)
    return [share + (i < rest) for i in range(seats)]


def _no_legal_bid_after_bids(rules: Ruleset, setup: HandSetup, limits: BidTests, values: dict[str, Number], budget: Budget) -> str | None:
    """`no_legal_bid` for limits that read the other seats' bids (`max(earlier, bid)`,
    `count(earlier, call == "dash")`): every sequence of legal bids is followed, player after
    player, each bid a number or a named call, made blind or after looking (when a seat may
    choose to bid blind and the limits read it: each choice must leave a legal bid). An
    aggregate does not depend on the order of its seats, so when the limits read nothing of a
    seat but its bid, call and blind choice (and totals and running values, the same for every
    seat here), the bids so far count as a multiset and each is tried once."""
    tests = limits.tests
    used = limits.reads
    size, playing = setup.plan.size, setup.playing
    trumps = [*rules.suits, "none"] if "trump" in used else ["none"]
    running = {n: v for n, v in values.items() if n != "total"}
    total = values.get("total", 0)
    dealer_at = 0 if setup.dealer_sits_out else (1 if rules.first_bidder == FirstBidder.DEALER and rules.first_bidder_choice is None else playing)
    by_multiset = limits.seat_facts <= {"bid", "call", "blind", "total", *rules.running_names}
    calls = [(name, n) for name, n in rules.calls if n <= size]
    blinds = [False, True] if rules.blind_bids and ("blind" in used or "blind" in limits.seat_facts) else [False]

    def legal_bids(bids: tuple[_Made, ...], hand: dict[str, Value], trump: str, blind: bool) -> list[tuple[int, str]]:
        position = len(bids) + 1
        env = bidding_env(
            hand,
            total=total,
            is_dealer=position == dealer_at,
            bids_made=len(bids),
            bids_so_far=sum(b for b, _, _ in bids),
            bidders=playing,
            running=running,
            blind=blind,
        )
        rows = tuple(
            seat_row(
                total=total, is_dealer=p == dealer_at, position=p, running=running, bid=bids[p - 1][0], call=bids[p - 1][1], blind=bids[p - 1][2]
            )
            if p <= len(bids)
            else seat_row(total=total, is_dealer=p == dealer_at, position=p, running=running)
            for p in range(1, playing + 1)
        )
        env.update(seat_sets(rows, position - 1, limits.seat_sets))
        budget.spend(len(tests) * (size + 1 + len(calls)))
        legal = []
        for bid, call in [(b, "") for b in range(size + 1)] + [(n, name) for name, n in calls]:
            env["bid"], env["call"] = bid, call
            for test, path in tests:
                try:
                    if not test(env):
                        break
                except EvalError as e:
                    what = f"the call {call}" if call else f"bid {bid}"
                    case = f"the player bidding {_ordinal(position)}{' blind' if blind else ''}, {what}, after the bids {_bids_words(bids)}"
                    raise BidCheckError(path, e, case + (f", trump {trump}" if "trump" in used else "")) from None
            else:
                legal.append((bid, call))
        return legal

    for trump in trumps:  # player after player: the first to be left without a bid is reported
        hand = trump_env(setup.env, trump)
        level: list[tuple[_Made, ...]] = [()]
        for position in range(1, playing + 1):
            following: dict[tuple[_Made, ...], tuple[_Made, ...]] = {}
            for bids in level:
                for blind in blinds:
                    legal = legal_bids(bids, hand, trump, blind)
                    if not legal:
                        return (
                            f"the player bidding {_ordinal(position)} has no legal bid"
                            + (" once it has chosen to bid blind" if blind else "")
                            + f" after the bids {_bids_words(bids)}"
                            + (f" and trump is {trump}" if "trump" in used else "")
                        )
                    if position < playing:
                        for bid, call in legal:
                            after = bids + ((bid, call, blind),)
                            following.setdefault(tuple(sorted(after)) if by_multiset else after, after)
            level = list(following.values())
    return None


#: One bid made, as the search through earlier bids keeps it: (the number, the named call or "", blind).
_Made = tuple[int, str, bool]


def _bids_words(bids: tuple[_Made, ...]) -> str:
    words = [(call or str(bid)) + (" blind" if blind else "") for bid, call, blind in bids]
    return ", ".join(words) if words else "(none yet)"
