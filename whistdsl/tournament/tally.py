"""Exact statistics of a tournament's games, mergeable in any order: final scores (count, sum
and sum of squares, as ints and Fractions), wins, a histogram of scores with bins that only
widen, and every contract counted by its circumstances (bot, seat, bidding position, hand size,
dealer). A chunk of games played anywhere returns its `Tally`; merged, the numbers do not depend
on how the games were split nor on the order the chunks came back.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..language.values import Number

if TYPE_CHECKING:
    from ..engine.game import Game

#: At most this many bins in a score histogram (bins get wider, never more numerous).
MAX_BINS = 128


@dataclass
class Moments:
    """Count, sum and sum of squares of a sample of final scores, exactly."""

    n: int = 0
    total: Number = 0
    squares: Number = 0

    def add(self, x: Number) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x

    def merge(self, other: Moments) -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares

    def mean(self) -> float | None:
        return float(Fraction(self.total) / self.n) if self.n else None

    def sd(self) -> float | None:
        """The sample standard deviation (n - 1 in the denominator)."""
        if self.n < 2:
            return None
        variance = Fraction(self.squares * self.n - self.total * self.total) / (self.n * (self.n - 1))
        return math.sqrt(variance)

    def ci95(self) -> float | None:
        """The half-width of the 95% confidence interval of the mean: 1.96 sd / sqrt(n)."""
        sd = self.sd()
        return None if sd is None else 1.96 * sd / math.sqrt(self.n)


@dataclass
class Histogram:
    """Counts of scores in bins [k * width, (k + 1) * width), width = 2**shift. When there would be
    more than MAX_BINS bins the width doubles, so the histogram stays small; since the width only
    ever grows to the least that fits, merging in any order gives the same histogram."""

    shift: int = 0
    counts: Counter = field(default_factory=Counter)

    @property
    def width(self) -> int:
        return 1 << self.shift

    def add(self, x: Number) -> None:
        self.counts[x.numerator // (x.denominator << self.shift)] += 1
        if len(self.counts) > MAX_BINS:
            self._coarsen(self.shift + 1)

    def merge(self, other: Histogram) -> None:
        if other.shift > self.shift:
            self._coarsen(other.shift)
        step = self.shift - other.shift
        for k, count in other.counts.items():
            self.counts[k >> step] += count
        if len(self.counts) > MAX_BINS:
            self._coarsen(self.shift + 1)

    def _coarsen(self, shift: int) -> None:
        while True:
            step = shift - self.shift
            counts: Counter = Counter()
            for k, count in self.counts.items():
                counts[k >> step] += count
            if len(counts) <= MAX_BINS:
                self.shift, self.counts = shift, counts
                return
            shift += 1

    def bins(self) -> list[tuple[int, int]]:
        """(lower edge, count) of each non-empty bin, lowest first."""
        return [(k * self.width, self.counts[k]) for k in sorted(self.counts)]


@dataclass
class Line:
    """One bot kind's (or one seat's) games: final scores, wins (a tie between k winners gives each
    1/k) and a histogram of final scores."""

    scores: Moments = field(default_factory=Moments)
    wins: Fraction = Fraction(0)
    histogram: Histogram = field(default_factory=Histogram)

    def merge(self, other: Line) -> None:
        self.scores.merge(other.scores)
        self.wins += other.wins
        self.histogram.merge(other.histogram)


#: A contract's circumstances: (bot kind, seat, bidding position (1 = bids first), hand size, is the dealer)
ContractKey = tuple[str, int, int, int, bool]


@dataclass
class Tally:
    """Exact statistics of some games, mergeable in any order: per bot kind and per seat the final
    scores and wins, and every contract counted by its circumstances (a bounded table whose margins
    are the made shares by bot, seat, bidding position and hand size)."""

    games: int = 0
    bots: dict[str, Line] = field(default_factory=dict)
    seats: dict[int, Line] = field(default_factory=dict)
    contracts: Counter[ContractKey] = field(default_factory=Counter)  # bids
    made: Counter[ContractKey] = field(default_factory=Counter)  # contracts made

    def add_game(self, game: Game, seat_bots: tuple[str, ...]) -> None:
        result = game.result
        assert result is not None, "the game is not over"
        self.games += 1
        for seat, bot in enumerate(seat_bots):
            score = result.totals[seat]
            for line in (self._line(self.bots, bot), self._line(self.seats, seat)):
                line.scores.add(score)
                line.histogram.add(score)
        share = Fraction(1, len(result.winners))
        for seat in result.winners:
            self.bots[seat_bots[seat]].wins += share
            self.seats[seat].wins += share
        contracts, made = self.contracts, self.made
        for hand in game.history:
            taken, size, dealer = hand.taken, hand.size, hand.dealer
            for position, (seat, bid) in enumerate(hand.bids, 1):
                key = (seat_bots[seat], seat, position, size, seat == dealer)
                contracts[key] += 1
                if taken[seat] == bid:
                    made[key] += 1

    @staticmethod
    def _line(lines: dict, key: Any) -> Line:
        line = lines.get(key)
        if line is None:
            line = lines[key] = Line()
        return line

    def merge(self, other: Tally) -> None:
        self.games += other.games
        for mine, theirs in ((self.bots, other.bots), (self.seats, other.seats)):
            for key, line in theirs.items():
                self._line(mine, key).merge(line)
        self.contracts.update(other.contracts)
        self.made.update(other.made)

    def made_by(self, part: int) -> dict[Any, tuple[int, int]]:
        """(contracts, made) by one part of the contract key (0 bot, 1 seat, 2 position, 3 size, 4 dealer)."""
        out: dict[Any, list[int]] = {}
        for key, bids in self.contracts.items():
            row = out.setdefault(key[part], [0, 0])
            row[0] += bids
            row[1] += self.made[key]
        return {k: (row[0], row[1]) for k, row in sorted(out.items())}

    def made_by_pair(self, first: int, second: int) -> dict[tuple[Any, Any], tuple[int, int]]:
        """(contracts, made) by two parts of the contract key."""
        out: dict[tuple[Any, Any], list[int]] = {}
        for key, bids in self.contracts.items():
            row = out.setdefault((key[first], key[second]), [0, 0])
            row[0] += bids
            row[1] += self.made[key]
        return {k: (row[0], row[1]) for k, row in sorted(out.items())}
