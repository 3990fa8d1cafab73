"""The static facts of a table: what is fixed for every game of one ruleset at one table size.

`table_facts(rules, players)` compiles them once and keeps them beside the ruleset (`_TABLES`,
the engine's own: a Ruleset carries no cache); every game of that ruleset and size reads the
same object:

- the deck (its ranks and cards), the running values' start, the schedule expanded (and the
  tie-break hands), the trick rules chosen once (engine/tricks.py);
- the names the bidding limits and the scoring read, split by where their values come from
  (the hand, the seat, the other seats): the keys of the memos below;
- the seat orders for each dealer (`SeatOrders`), each hand's set-up and env, as games reach
  them;
- the memos of the bidding limits (legal bids) and of the scoring (points, bonus, running
  values), keyed by the values of the names those formulas read (`Memo`, the one mechanism a
  formula's own `Formula.cached` uses too).

Everything here is read-only once built; a game keeps its own position (engine/game.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

from ..language.catalogue import Stage, seat_facts_seen
from ..language.errors import EvalError
from ..language.program import Formula, Memo
from ..language.values import Number, Value
from ..rules.ruleset import HandSetup, LetError, PlannedHand, Remembered, Ruleset, start_running
from .cards import Card, deck
from .errors import RuleError
from .tricks import TrickPlay, trick_play

if TYPE_CHECKING:
    from .compiled import CompiledHand


class BidTests(NamedTuple):
    """The bidding limits of one kind of hand (`bidding.allowed` and the kind's `allowed`), and
    the names they read: of the hand (the memo key's first part), of the bidder, of other seats."""

    formulas: tuple[Formula, ...]
    hand_names: tuple[str, ...]
    seat_names: tuple[str, ...]
    sets: tuple[str, ...]


class ScoreReads(NamedTuple):
    """What the scoring formulas (points, bonus, running values) read besides a seat's bid and
    tricks: names of the hand, of the seat, the other seats' sets, and the formulas reading them."""

    hand_names: tuple[str, ...]
    seat_names: tuple[str, ...]
    sets: tuple[str, ...]
    by_sets: tuple[Formula, ...]


@dataclass(frozen=True)
class SeatOrders:
    """Who deals, bids and leads in which order, for one dealer (and whether the dealer sits out)."""

    sitting_out: tuple[int, ...]
    deal_order: tuple[int, ...]
    bidding_order: tuple[int, ...]
    position: dict[int, int]
    play_orders: dict[int, tuple[int, ...]]
    first_leader: int

    @staticmethod
    def build(rules: Ruleset, n: int, dealer: int, sits_out: bool, chosen: int | None = None) -> SeatOrders:
        """`chosen`: the first bidder, when `bidding.first` chose it."""
        out = (dealer,) if sits_out else ()

        def round_from(start: int, direction: int) -> tuple[int, ...]:
            return tuple(s for s in ((start + direction * i) % n for i in range(n)) if s not in out)

        first_bidder = dealer if rules.first_bidder == "dealer" else dealer + rules.bidding_direction
        if chosen is not None:
            first_bidder = chosen
        bidding_order = round_from(first_bidder, rules.bidding_direction)
        if rules.first_lead == "first_bidder":
            leader = bidding_order[0]
        else:
            start = dealer if rules.first_lead == "dealer" else dealer + rules.play_direction
            leader = round_from(start, rules.play_direction)[0]
        return SeatOrders(
            sitting_out=out,
            deal_order=round_from(dealer + rules.deal_direction, rules.deal_direction),
            bidding_order=bidding_order,
            position={s: i + 1 for i, s in enumerate(bidding_order)},
            play_orders={s: round_from(s, rules.play_direction) for s in bidding_order},
            first_leader=leader,
        )


#: the names of the scoring context that come from a seat's result, or from the seat itself
BY_RESULT = frozenset({"bid", "tricks", "made", "over", "under", "diff", "points", "bonus"})
BY_TURN = frozenset({"bids_so_far", "bids_made", "is_last", "is_first", "position"})
#: the seat's facts of the hand's decisions (the catalogue's SEAT_FACTS) the bidding and the scoring read
_BIDDING_CHOICES = frozenset(f.name for f in seat_facts_seen(Stage.BIDDING))
_SCORING_CHOICES = frozenset(f.name for f in seat_facts_seen(Stage.SCORING))


@dataclass(frozen=True, eq=False)
class TableFacts:
    """Everything fixed for the games of one ruleset at one table size (see the module's docstring)."""

    rules: Ruleset
    players: int
    ranks: tuple[str, ...]
    deck: tuple[Card, ...]
    running: dict[str, Number]  # each running value's start (copy it: it is shared)
    plan: tuple[PlannedHand, ...]  # the schedule expanded (with `end`: up to its cap)
    extra_hands: int  # the most tie-break hands
    extra_cards: int  # their size
    tricks: TrickPlay
    decides: bool  # a hand has decisions beyond number bids (language 2)
    specials: bool  # the deck has special cards
    score: ScoreReads
    bid_tests: dict[str, BidTests]  # per kind of hand
    # worked out as games reach them, then shared (read-only once built)
    orders: dict[tuple[int, bool, int | None], SeatOrders] = field(default_factory=dict)
    setups: dict[int, HandSetup] = field(default_factory=dict)  # per hand of the schedule
    hand_envs: dict[tuple[int, int], tuple[dict[str, Value], tuple, tuple]] = field(default_factory=dict)  # per (hand, trump)
    no_trump: dict[int, tuple[HandSetup, bool]] = field(default_factory=dict)  # per hand of the schedule: `trump.none_when` before the deal
    bid_memo: Memo = field(default_factory=lambda: Memo(4096))  # legal bids, by what the limits read
    score_memo: Memo = field(default_factory=lambda: Memo(8192))  # (points, bonus, running), by what the scoring reads

    @cached_property
    def compiled(self) -> CompiledHand:
        """This table's hand as generated Python (engine/compiled/), written the first time a
        game asks for it."""
        from .compiled import compiled_hand

        return compiled_hand(self)

    def seat_orders(self, dealer: int, sits_out: bool, first_bidder: int | None = None) -> SeatOrders:
        """The seat orders of a hand with this dealer; `first_bidder` when `bidding.first` chose it."""
        key = (dealer, sits_out, first_bidder)
        orders = self.orders.get(key)
        if orders is None:
            orders = self.orders[key] = SeatOrders.build(self.rules, self.players, dealer, sits_out, first_bidder)
        return orders


def table_facts(rules: Ruleset, players: int) -> TableFacts:
    """The static facts of `rules` at a table of `players`, compiled once (kept in `_TABLES`).
    Raises RuleError when the deck, the schedule, the running values' start or
    the tie-break hands cannot be worked out for this many players."""
    tables = _TABLES(rules)
    facts = tables.get(players)
    if facts is None:
        facts = tables[players] = _compile(rules, players)
    return facts


#: Per ruleset, by player count: its TableFacts.
_TABLES: Remembered[dict[int, TableFacts]] = Remembered(lambda rules: {})


def _compile(rules: Ruleset, n: int) -> TableFacts:
    with rule_errors_of_the_table(rules, n):
        ranks = rules.deck_ranks(n)
        cards = deck(rules.suits, ranks, rules.specials, rules.deck_copies(n))
        running = start_running(rules, n)
        plan = rules.planned_hands(n)
        extra_hands, extra_cards = rules.tiebreak_plan(n)
    return TableFacts(
        rules=rules,
        players=n,
        ranks=ranks,
        deck=cards,
        running=running,
        plan=plan,
        extra_hands=extra_hands,
        extra_cards=extra_cards,
        tricks=trick_play(rules),
        decides=rules.has_decisions,
        specials=bool(rules.specials),
        score=_score_reads(rules),
        bid_tests={name: _bid_tests(rules, kind.allowed) for name, kind in rules.kinds.items()},
    )


def _score_reads(rules: Ruleset) -> ScoreReads:
    formulas = [f for f in (rules.points, rules.bonus, *(r.after_hand for r in rules.running)) if f is not None]
    sets = {name for f in formulas for name, _ in f.seat_reads}
    reads = set().union(*(f.names for f in formulas)) - sets
    by_seat = {"total", "is_dealer", "position", *_SCORING_CHOICES, *rules.running_names}
    return ScoreReads(
        tuple(sorted(reads - BY_RESULT - by_seat)),  # read from the hand's env
        tuple(sorted(reads & by_seat)),
        tuple(sorted(sets)),  # the other seats
        tuple(f for f in formulas if f.seat_reads),
    )


def _bid_tests(rules: Ruleset, kind_allowed: Formula | None) -> BidTests:
    formulas = [f for f in (rules.allowed, kind_allowed) if f is not None]
    sets = {name for f in formulas for name, _ in f.seat_reads}
    reads = set().union(*(f.names for f in formulas)) - {"bid", "call"} - sets
    by_seat = {"total", "is_dealer", *_BIDDING_CHOICES, *rules.running_names}  # (`call` is the call tried, like `bid`)
    return BidTests(
        tuple(formulas),
        tuple(sorted(reads - BY_TURN - by_seat)),  # the hand's own
        tuple(sorted(reads & by_seat)),  # the bidder's own
        tuple(sorted(sets)),  # the other seats
    )


@contextmanager
def rule_errors_of_the_table(rules: Ruleset, players: int) -> Iterator[None]:
    """What is worked out once per table (deck, `let` values, schedule, running values' start):
    an EvalError there is a rule error of the whole table."""
    try:
        yield
    except LetError as e:
        origin = next((f.origin for name, f in rules.lets if name == e.name), "")
        raise RuleError(f"with {players} players: {e}", origin=origin) from None
    except EvalError as e:
        raise RuleError(f"with {players} players: {e}") from None
