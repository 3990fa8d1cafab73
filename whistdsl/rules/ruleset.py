"""The compiled ruleset: a frozen, typed description of one game, with ready-to-call formulas.

`check.compile_ruleset` builds it from validated data; the engine reads only this. Helpers here
answer per-game questions once (the deck and the schedule for a player count), so the engine
resolves rule choices once per game, not per card.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any, Generic, NamedTuple, TypedDict, TypeVar, cast

from ..language import environment
from ..language.errors import EvalError
from ..language.program import Formula
from ..language.suggestions import did_you_mean
from ..language.values import Number, Value, value_text

CLOCKWISE = 1
COUNTERCLOCKWISE = -1

#: Ranks from high to low as written on cards; `10` is accepted for `T` in rulesets.
STANDARD_RANKS = ("A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2")
NORMAL = "normal"


# The rule choices written as one word in a ruleset, as str-valued enums: a member is the very
# string the ruleset wrote (`WhenVoid.MUST_TRUMP == "must_trump"`), so data, records and JSON
# read the same, and code compares with a member rather than a literal it could misspell.


class Identical(StrEnum):
    """`trick.identical`: of two identical cards (copies of the deck) the earlier or the later wins."""

    EARLIER = "earlier"
    LATER = "later"


class TurnedCard(StrEnum):
    """`trump.turned`: the card turned before the deal is set aside, or dealt as usual."""

    SET_ASIDE = "set_aside"
    DEALT = "dealt"


class TrumpSeen(StrEnum):
    """`trump.seen`: the players see trump at once, or after the bidding."""

    AT_ONCE = "at_once"
    AFTER_BIDDING = "after_bidding"


class SpecialsWithoutTrump(StrEnum):
    """`trump.specials_without_trump`: those specials in a hand without trump (UNSAID: "", false)."""

    UNSAID = ""
    HIGHEST = "highest"
    LOWEST = "lowest"


class SuperRank(StrEnum):
    """`trump.super_trumps.rank`: the super trumps are the cards of the turned card's rank, or of
    the rank just above it in the deck (above the highest comes the lowest)."""

    SAME = "same"
    NEXT = "next"


class FirstBidder(StrEnum):
    """`bidding.first` as a word: the seat after the dealer, or the dealer."""

    AFTER_DEALER = "after_dealer"
    DEALER = "dealer"


class BidsTogether(StrEnum):
    """`decisions: - name: bid, together:`: which bids are made together, each hidden from the
    others until they are shown: every bid (`all`, also written `true`), or all but the last
    bidder's, who bids once they are shown, seeing them (`all_but_last`: the hook can be kept)."""

    ALL = "all"
    ALL_BUT_LAST = "all_but_last"


class WhenVoid(StrEnum):
    """`play.when_void`: what a player who cannot follow suit must play."""

    FREE = "free"
    MUST_TRUMP = "must_trump"
    MUST_OVERTRUMP = "must_overtrump"


class FirstLead(StrEnum):
    """`play.first_lead` as a word: who leads the first trick."""

    FIRST_BIDDER = "first_bidder"
    AFTER_DEALER = "after_dealer"
    DEALER = "dealer"


@dataclass(frozen=True)
class HandKind:
    name: str
    view: str  # normal | forehead | blind
    mark: str
    allowed: Formula | None = None
    description: str = ""


@dataclass(frozen=True)
class ScheduleEntry:
    cards: Formula  # a number or a list of numbers
    kind: str = NORMAL


@dataclass(frozen=True)
class RunningValue:
    name: str
    start: Formula
    after_hand: Formula
    description: str = ""


@dataclass(frozen=True)
class RankKey:
    highest: bool
    formula: Formula
    text: str


@dataclass(frozen=True)
class SeatChoice:
    """`{highest: FORMULA}` or `{lowest: FORMULA}`: the seat whose value is highest (lowest),
    ties going to the seat earliest in the order the choice is made in."""

    highest: bool
    formula: Formula


@dataclass(frozen=True)
class Tiebreak:
    hands: Formula
    cards: Formula
    kind: str = NORMAL


class WildSuits(StrEnum):
    """`deck.specials.<name>.wild`: the suits a wild card (a joker) may take when played: any
    suit of the deck, the trump suit (any without trump), or the suit led (any when it leads);
    NOT_WILD ("") for a special card that is not wild."""

    NOT_WILD = ""
    ANY = "any"
    TRUMP = "trump"
    LED = "led"


#: At most this many kinds of special card are wild: a played wild card is a card of its suit
#: above the ace, in the strength slots left free above it (engine/cards.py).
MAX_WILD_KINDS = 3


class Special(NamedTuple):
    """A special card of the deck (`deck.specials`): its name in the rules, its mark on the
    table (how it is typed and shown), how many are in one pack, and, for a wild card (a joker),
    the suits it may take when played (`wild`)."""

    name: str
    mark: str
    count: int  # type: ignore[assignment]  # the schema's word; it hides tuple.count, which nothing calls
    wild: WildSuits = WildSuits.NOT_WILD


#: A suited card as written: rank, then suit (`TS`, `ts`, `10s`, `10♠`; the suit symbols too).
_SUIT_SYMBOL_LETTERS = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C"}
_CARD_TEXT = re.compile(r"^\s*(10|[2-9tjqka])\s*([shdc])\s*$", re.I)


def suited_card_text(text: str) -> re.Match[str] | None:
    """`text` read as a suited card (groups: the rank, `10` or a letter, and the suit letter), or
    None. engine/cards.py reads cards with it; a special's mark must not read so (rules/check.py)."""
    return _CARD_TEXT.match("".join(_SUIT_SYMBOL_LETTERS.get(ch, ch) for ch in text))


class WinnerRule(NamedTuple):
    """One rule of `trick.winner`: `pick` (first, last, highest, lowest) among the trick's cards
    of `among` (a special's name, `trump`, `led` or `suited`)."""

    pick: str
    among: str

    @property
    def text(self) -> str:
        return f"{self.pick} {self.among}"


#: The trick winner of version 1, written as rules: the highest trump, else the highest card of
#: the led suit.
STANDARD_WINNER = (WinnerRule("highest", "trump"), WinnerRule("highest", "led"))


@dataclass(frozen=True)
class SuperTrumps:
    """`trump.super_trumps`: the cards ranked by the turned card (of its rank, or the next one),
    trumps above the ace of trumps, strongest first by the suit order `order`."""

    rank: SuperRank
    order: tuple[str, ...]  # suit names, strongest first


@dataclass(frozen=True)
class TrumpChoice:
    """A trump named by a seat (`decisions: - name: trump`): who, in which hands, the options,
    and whether it comes after the bidding (it is written after the `bid` decision)."""

    who: str  # dealer | first_bidder | highest_bidder | declarer
    options: tuple[str, ...]  # suit names and "none"
    when: Formula | None = None  # None: every hand
    after_bidding: bool = False


@dataclass(frozen=True)
class Auction:
    """An auction before the bidding (`decisions: - name: auction`): bids from `min` to the hand
    size that outbid each other, each naming one of `suits` (lowest first) when they are given;
    the highest bidder, once all the others have passed, is the declarer."""

    min: Formula | int = 1  # a formula of the `auction` context, or a number
    suits: tuple[str, ...] = ()  # () : the bids are numbers only
    calls: tuple[AuctionCall, ...] = ()  # named calls a seat may make at its turn instead of a bid or a pass


@dataclass(frozen=True)
class AuctionCall:
    """A named call of the auction (`decisions: - name: auction, calls:`), seen by all and read
    by formulas as the caller's `auction_call`. With `bid` (Estimation's dash: no tricks) the
    caller leaves the auction and its bid in the bidding is made for it, counting as `bid`
    tricks, with its `call` the call's name; without `bid` it is a call on the highest bid so
    far, open only to another seat (a double), and the caller stays in the auction. `most`: the
    most times the seats together may make it in a hand (None: no limit; a call without `bid`
    is made at most once unless `most` says otherwise)."""

    name: str
    bid: int | None = None
    most: int | None = None


@dataclass(frozen=True)
class Declare:
    """Declarations before the bidding (`decisions: - name: declare`): each seat in bidding order
    may make one of `choices` whose condition (a formula of the `declare` context, over its own
    cards) holds, or none (`no`); the choice named `redeal` deals the hand again."""

    choices: tuple[tuple[str, Formula], ...]


@dataclass(frozen=True)
class Redeal:
    """A hand dealt again by the same dealer (`redeal`): when `when` holds of the cards dealt
    (a formula of the `redeal` context), or when every seat passes in the auction
    (`passed_out`); at most `limit` times a hand, after which the hand is played as dealt."""

    when: Formula | None = None
    passed_out: bool = False
    limit: int = 10


@dataclass(frozen=True)
class Parameter:
    """A table option the ruleset declares (`parameters:`): set per game, fixed during it.

    A number is a multiple of `step` (1: whole numbers; `step: 0.5` allows 1.5) from `minimum` to
    `maximum`, exact (a Fraction where not whole). A bound may be a formula (`max: 52 // players`,
    context `parameter_range`): then `minimum`/`maximum` are the widest bounds it gives at any
    table (what `--set` checks first), and `range_at` the bounds once the table is known."""

    name: str
    type: str  # "number" (multiples of step, min..max), "yes/no", or "text" (one of `choices`)
    default: Value
    minimum: Number | None = None
    maximum: Number | None = None
    choices: tuple[str, ...] = ()
    description: str = ""
    step: Number = 1
    #: the bounds written as formulas (None: the constant `minimum`/`maximum`)
    min_formula: Formula | None = None
    max_formula: Formula | None = None

    def values(self) -> tuple[Value, ...]:
        """Every value the parameter can take (at some table), in order."""
        if self.type == "number":
            first, last = self._grid(self.minimum, self.maximum)  # type: ignore[arg-type]  # a number parameter has a minimum and a maximum
            return tuple(_whole(self.step * k) for k in range(first, last + 1))
        if self.type == "yes/no":
            return (False, True)
        return self.choices

    def _grid(self, low: Number, high: Number) -> tuple[int, int]:
        """The multiples of `step` within low..high, as the first and last multiplier."""
        return -((-Fraction(low)) // self.step), Fraction(high) // self.step

    def count(self) -> int:
        if self.type == "number":
            first, last = self._grid(self.minimum, self.maximum)  # type: ignore[arg-type]  # a number parameter has a minimum and a maximum
            return max(0, int(last - first + 1))
        return len(self.values())

    def edges(self) -> tuple[Value, ...]:
        """The values lint tries when the whole range is too many: the ends and the default."""
        if self.type != "number":
            return self.values()
        first, last = self._grid(self.minimum, self.maximum)  # type: ignore[arg-type]  # a number parameter has a minimum and a maximum
        return tuple(sorted({_whole(self.step * first), _whole(self.step * last), self.default}))

    @property
    def ranged(self) -> bool:
        """Whether a bound is a formula (checked once the table is known: `range_at`)."""
        return self.min_formula is not None or self.max_formula is not None

    def range_words(self) -> str:
        low = self.min_formula.source if self.min_formula is not None else value_text(self.minimum)  # type: ignore[arg-type]  # a number parameter has a minimum or a min formula
        high = self.max_formula.source if self.max_formula is not None else value_text(self.maximum)  # type: ignore[arg-type]  # a number parameter has a maximum or a max formula
        return f"from {low} to {high}"

    def domain_words(self) -> str:
        if self.type == "number":
            kind = "a whole number" if self.step == 1 else f"a multiple of {value_text(self.step)}"
            return f"{kind} {self.range_words()}"
        if self.type == "yes/no":
            return "yes or no (true/false)"
        return "one of " + ", ".join(self.choices)

    def read(self, text: str) -> Value:
        """A value written on the command line (`--set NAME=TEXT`: `5`, `1.5`, `3/2`). Raises
        ValueError saying why not."""
        if self.type == "number":
            written = text.strip()
            try:
                if len(written) > 40 or not _NUMBER_TEXT.fullmatch(written):
                    raise ValueError
                value = _whole(Fraction(written))
            except (ValueError, ZeroDivisionError):
                raise ValueError(f"`{self.name}` is {self.domain_words()}, not `{text}`") from None
            return self.check(value)
        if self.type == "yes/no":
            words = {"yes": True, "true": True, "no": False, "false": False}
            if text.strip().lower() not in words:
                raise ValueError(f"`{self.name}` is yes or no (true/false), not `{text}`")
            return words[text.strip().lower()]
        return self.check(text)

    def check(self, value: Value) -> Value:
        """`value` if the parameter can take it (at some table); else ValueError saying what it can be."""
        if self.type == "number":
            ok = (
                isinstance(value, (int, Fraction))
                and not isinstance(value, bool)
                and self.minimum <= value <= self.maximum  # type: ignore[operator]  # a number parameter has a minimum and a maximum
                and (Fraction(value) / self.step).denominator == 1
            )
        elif self.type == "yes/no":
            ok = isinstance(value, bool)
        else:
            ok = value in self.choices
        if not ok:
            raise ValueError(f"`{self.name}` is {self.domain_words()}, not {value_text(value)}")
        return value

    def range_at(self, env: Mapping[str, Value]) -> tuple[Number, Number]:
        """Its bounds at a table: `env` holds `players` and the parameters' values. Raises EvalError."""
        low = self.min_formula(dict(env)) if self.min_formula is not None else self.minimum
        high = self.max_formula(dict(env)) if self.max_formula is not None else self.maximum
        return low, high  # type: ignore[return-value]  # the checker typed the range's formulas numbers; a ranged parameter has its bounds


#: How a number parameter's value is written on the command line: 5, -2, 1.5, 3/2.
_NUMBER_TEXT = re.compile(r"-?[0-9]+(\.[0-9]+)?(/[0-9]+)?")


def _whole(v: Number) -> Number:
    v = Fraction(v)
    return v.numerator if v.denominator == 1 else v


@dataclass(frozen=True)
class End:
    """`end`: the game ends after the first hand after which `when` holds, or after `hands` hands.

    The schedule is played in a loop until then; `hands` (a formula of the schedule context) is
    the cap, at most MAX_GAME_HANDS with the tie-break hands."""

    when: Formula
    hands: Formula


@dataclass(frozen=True)
class PlannedHand:
    """One hand of the schedule: its 1-based number, size and kind."""

    number: int
    size: int
    kind: str


#: How many rulesets' worked-out values each `Remembered` keeps (the oldest are forgotten first).
MAX_REMEMBERED = 64

T = TypeVar("T")


class Remembered(Generic[T]):
    """What is worked out from a ruleset once and then reused, never part of its meaning, kept
    beside the ruleset rather than in it (a `Ruleset` is frozen data and carries no cache). Each
    kind has its owner: the `let` values and the schedule here, the static facts of a table, the
    trick rules and the trump steps in engine/. `remembered(rules)` is `make(rules)`, worked out
    at the first call for that ruleset object.

    An entry is found by the ruleset's identity and holds the ruleset, so its id is not reused
    while the entry lives (and a value that refers back to its ruleset keeps nothing alive
    longer than the entry). The values of the MAX_REMEMBERED rulesets remembered last are kept;
    an older one is forgotten, and worked out again if it is asked for."""

    def __init__(self, make: Callable[[Ruleset], T]) -> None:
        self._make = make
        self._kept: dict[int, tuple[Ruleset, T]] = {}
        self._lock = threading.Lock()  # the web table's players think in threads

    def __call__(self, rules: Ruleset) -> T:
        kept = self._kept.get(id(rules))
        if kept is not None and kept[0] is rules:
            return kept[1]
        value = self._make(rules)
        with self._lock:
            kept = self._kept.get(id(rules))
            if kept is not None and kept[0] is rules:
                return kept[1]  # worked out meanwhile: every caller gets the same value
            while len(self._kept) >= MAX_REMEMBERED:
                del self._kept[next(iter(self._kept))]
            self._kept[id(rules)] = (rules, value)
        return value


@dataclass(frozen=True)
class Ruleset:
    name: str
    description: str
    version: int
    source: dict[str, Any] = field(repr=False, compare=False)  # the merged data
    lets: tuple[tuple[str, Formula], ...] = ()  # named values, in order
    parameters: tuple[Parameter, ...] = ()  # the declared table options
    #: the value of every parameter in this game (its default unless set): see `with_parameters`
    parameter_values: dict[str, Value] = field(default_factory=dict)
    #: players.min, .max, .default as written: numbers, or formulas of the parameters
    players_range: tuple[int | Formula, int | Formula, int | Formula] | None = field(default=None, repr=False, compare=False)
    #: the player range for `parameter_values`
    players_min: int = 4
    players_max: int = 4
    players_default: int = 4
    deal_direction: int = CLOCKWISE
    bidding_direction: int = CLOCKWISE
    play_direction: int = CLOCKWISE
    suits: tuple[str, ...] = ("spades", "hearts", "diamonds", "clubs")
    ranks: tuple[str, ...] = STANDARD_RANKS
    deck_size: Formula | None = None
    specials: tuple[Special, ...] = ()
    copies: Formula | None = None  # packs shuffled together (a formula of players); None: 1
    always_playable: tuple[str, ...] = ()  # specials that may be played even when holding the led suit
    special_led: tuple[tuple[str, str], ...] = ()  # (special, free|pass): what it asks of the others when led
    trick_winner: tuple[WinnerRule, ...] = STANDARD_WINNER
    identical: Identical = Identical.EARLIER  # two copies of one card in a trick: the earlier or the later played wins
    first_dealer: str | int = "random"
    sits_out: Formula | None = None
    kinds: dict[str, HandKind] = field(default_factory=dict)
    schedule: tuple[ScheduleEntry, ...] = ()
    trump_cycle: tuple[str, ...] | None = None
    turn_up: bool = False
    trump_none_when: Formula | None = None
    #: `trump.from` (language 2): the trump sources tried in order (engine/trump.py); () for
    #: version 1's `cycle` or `turn_up: true`
    trump_from: tuple[str, ...] = ()
    #: `trump.weights` (language 2, with the `random` source): each outcome of the draw, every
    #: suit of the deck then "none" (no trump), with its whole-number weight; () when not written
    #: (each suit as likely, never no trump)
    trump_weights: tuple[tuple[str, int], ...] = ()
    trump_turned: TurnedCard = TurnedCard.SET_ASIDE  # a card turned before the deal: set aside, or dealt (stays in the pack)
    trump_seen: TrumpSeen = TrumpSeen.AT_ONCE  # or after the bidding (bidders do not see trump)
    #: `trump.specials`: special cards that belong to the trump suit, strongest first, above its ace
    trump_specials: tuple[str, ...] = ()
    trump_specials_without: SpecialsWithoutTrump = SpecialsWithoutTrump.UNSAID  # what they are without trump
    #: `trump.super_trumps`: the cards the turned card makes trumps above the ace (None: none)
    super_trumps: SuperTrumps | None = None
    first_bidder: FirstBidder = FirstBidder.AFTER_DEALER
    #: `bidding.first: {highest: ...}`: chosen each hand before the bidding (then first_bidder is
    #: "after_dealer", the order ties are broken in)
    first_bidder_choice: SeatChoice | None = None
    allowed: Formula | None = None
    trump_choice: TrumpChoice | None = None
    calls: tuple[tuple[str, int], ...] = ()  # named calls beside the number bids, and what each counts as
    blind_bids: bool = False  # a bidder may choose to bid blind, before looking (`blind: may`)
    bids_together: bool = False  # bids are hidden until all have bid
    #: with `bids_together`: every bid together, or all but the last bidder's (who sees them)
    bids_together_who: BidsTogether = BidsTogether.ALL
    auction: Auction | None = None  # bids that outbid each other before the bidding (a declarer)
    skip: Formula | None = None  # a seat excused from bidding at its turn (`decisions`, `skip`)
    redeal: Redeal | None = None  # a hand dealt again on a condition, or when passed out (`redeal`)
    declare: Declare | None = None  # declarations each seat may make before the bidding (`decisions`, `declare`)
    when_void: WhenVoid = WhenVoid.FREE
    first_lead: FirstLead = FirstLead.FIRST_BIDDER
    #: `play.first_lead: {highest: ...}`: chosen once every bid is made (ties to the earlier bidder)
    first_lead_choice: SeatChoice | None = None
    points: Formula | None = None
    bonus: Formula | None = None
    running: tuple[RunningValue, ...] = ()
    rank: tuple[RankKey, ...] = ()
    wins_outright: Formula | None = None
    tiebreak: Tiebreak | None = None
    end: End | None = None

    @property
    def sha256(self) -> str:
        return hashlib.sha256(canonical_json(self.source).encode("utf-8")).hexdigest()

    @property
    def has_decisions(self) -> bool:
        """Whether a hand has more to decide than version 1's number bids (`decisions`)."""
        return (
            self.trump_choice is not None
            or bool(self.calls)
            or self.blind_bids
            or self.bids_together
            or self.auction is not None
            or self.skip is not None
            or self.declare is not None
        )

    def bidders_together(self, bidders: int) -> int:
        """How many of a hand's `bidders` (first in the bidding order) bid together, each bid
        hidden from the others until all of them are made (`together`): every bidder, all but
        the last, or none."""
        if not self.bids_together:
            return 0
        return bidders - (1 if self.bids_together_who == BidsTogether.ALL_BUT_LAST else 0)

    @property
    def winner_sets(self) -> tuple[str, ...]:
        """The seat sets the winner's keys aggregate over (`seats`, `others`)."""
        formulas = [k.formula for k in self.rank] + ([self.wins_outright] if self.wins_outright is not None else [])
        return tuple(sorted({name for f in formulas for name, _ in f.seat_reads}))

    @property
    def scores_in_passes(self) -> bool:
        """Whether the bonus or a running value reads the other seats' points or bonus: then every
        seat's points are computed first, then the bonuses, then the running values
        (engine/scoring.py `score_in_passes`); otherwise each seat is scored on its own."""
        formulas = [f for f in (self.bonus, *(r.after_hand for r in self.running)) if f is not None]
        return any({"points", "bonus"} & set(facts) for f in formulas for _, facts in f.seat_reads)

    @property
    def running_names(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.running)

    def parameter(self, name: str) -> Parameter | None:
        for p in self.parameters:
            if p.name == name:
                return p
        return None

    def with_parameters(self, values: Mapping[str, Value]) -> Ruleset:
        """This ruleset with some parameters set (the others keep their value here). Raises
        ValueError for an unknown name or a value the parameter cannot take, and EvalError for
        a players.min/max/default formula that cannot be evaluated with these values."""
        chosen = dict(self.parameter_values)
        for name, value in values.items():
            p = self.parameter(name)
            if p is None:
                raise SettingError(unknown_parameter(self, name))
            chosen[name] = p.check(value)
        return replace(self, parameter_values=chosen, **players_for(self.players_range, chosen))

    def table_problem(self, players: int) -> str | None:
        """Why a table of `players` cannot be set up with these parameter values (a value outside
        a range that is a formula: `max: 52 // players`), or None."""
        for p in self.parameters:
            if not p.ranged:
                continue
            value = self.parameter_values[p.name]
            try:
                low, high = p.range_at({**self.parameter_values, "players": players})
            except EvalError as e:
                return f"the range of parameter `{p.name}` ({p.range_words()}) cannot be worked out with {players} players: {e}"
            if not low <= value <= high:  # type: ignore[operator]  # a ranged parameter is a number, and so are its bounds
                return (
                    f"parameter `{p.name}` = {value_text(value)} is outside its range with {players} players: "
                    f"{p.range_words()} is {value_text(low)} to {value_text(high)} there"
                )
        return None

    # -- per-game facts, computed once per player count

    def deck_ranks(self, players: int) -> tuple[str, ...]:
        """The ranks kept for `players`, high to low (the lowest go first)."""
        twice = sorted({r for r in self.ranks if self.ranks.count(r) > 1})
        if twice:
            raise EvalError(f"deck.ranks names {', '.join(twice)} more than once (10 and T are one rank)")
        if self.deck_size is None:
            return self.ranks
        size = self.deck_size(environment.game_env(players, lets=self.parameter_values))
        per_suit, rest = divmod(size, len(self.suits)) if isinstance(size, int) else (0, 1)
        if rest or not 1 <= per_suit <= len(self.ranks):
            raise EvalError(
                f"deck.size gives {size} cards with {players} players: it must be a whole multiple "
                f"of {len(self.suits)} (the suits) between {len(self.suits)} and {len(self.suits) * len(self.ranks)}"
            )
        return self.ranks[:per_suit]

    def deck_copies(self, players: int) -> int:
        """How many packs are shuffled together for `players` (`deck.copies`, 1 by default)."""
        if self.copies is None:
            return 1
        copies = self.copies({"players": players})
        if not isinstance(copies, int) or isinstance(copies, bool) or not 1 <= copies <= MAX_COPIES:
            raise EvalError(f"deck.copies gives {copies} with {players} players: it must be a whole number from 1 to {MAX_COPIES}")
        return copies

    def deck_count(self, players: int) -> int:
        """The cards of the deck for `players`: every pack's suited cards and specials."""
        one_pack = len(self.suits) * len(self.deck_ranks(players)) + sum(s.count for s in self.specials)
        return one_pack * self.deck_copies(players)

    @property
    def wild_cards(self) -> tuple[Special, ...]:
        """The deck's wild cards (jokers that take a declared suit), strongest first."""
        return tuple(s for s in self.specials if s.wild)

    @property
    def standard_tricks(self) -> bool:
        """Whether tricks are played as in version 1 (follow suit; the highest trump, else the
        highest of the led suit; of two identical cards the earlier wins): the engine's fast path."""
        return not self.specials and self.trick_winner == STANDARD_WINNER and self.identical == Identical.EARLIER and self.super_trumps is None

    def let_values(self, players: int) -> dict[str, Value]:
        """The values fixed for the whole game with `players`: the parameters, then the `let`
        values (each sees `players`, `deck_size`, the parameters and the ones before it).
        Raises LetError naming the value that cannot be evaluated.

        The parameters come first, so an env that adds a context's own names after these never
        lets a parameter hide a built-in name (`tricks` in scoring is the tricks taken)."""
        values = _LETS(self).get(players)
        if values is None:
            values = dict(self.parameter_values)
            env = environment.game_env(players, self.deck_count(players), values) if self.lets else {}
            for name, f in self.lets:
                try:
                    env[name] = values[name] = f(env)
                except EvalError as e:
                    raise LetError(name, str(e)) from None
            _LETS(self)[players] = values
        return dict(values)

    def game_env(self, players: int) -> dict[str, Value]:
        """What every hand's formulas see of the game: `players`, `deck_size` and the `let` values."""
        return environment.game_env(players, self.deck_count(players), self.let_values(players))

    def planned_hands(self, players: int) -> tuple[PlannedHand, ...]:
        """The schedule for `players`: every hand's number, size and kind.
        Raises ScheduleError (naming the entry) for a bad entry or a schedule past MAX_HANDS."""
        plans = _PLANS(self)
        plan = plans.get(players)
        if plan is None:
            plan = plans[players] = tuple(hand for hand, _ in self.schedule_entries(players))
        return plan

    def schedule_entries(self, players: int) -> list[tuple[PlannedHand, int]]:
        """Each hand of the schedule for `players`, with the index of the entry it comes from.

        Expanding stops as soon as the hands pass MAX_HANDS, so a schedule of many long entries
        is never built whole. With `end`, the schedule is played in a loop up to the cap
        (`end.hands`; fewer hands when `end.when` holds earlier). Raises ScheduleError, or
        EndError for a cap that is not a hand count."""
        env = self.game_env(players)
        cap = self.end_cap(players) if self.end is not None else None
        hands: list[tuple[PlannedHand, int]] = []
        for i, entry in enumerate(self.schedule):
            try:
                sizes = as_sizes(entry.cards(env), "this entry")
            except EvalError as e:
                raise ScheduleError(str(e), i) from None
            for size in sizes:
                hands.append((PlannedHand(len(hands) + 1, size, entry.kind), i))
            if len(hands) > MAX_HANDS:
                raise ScheduleError(
                    f"the schedule has more than {MAX_HANDS} hands (its entries up to this one give {len(hands)}); "
                    f"the limit is {MAX_HANDS} hands in a game",
                    i,
                )
        if cap is not None and hands:
            once = len(hands)
            while len(hands) < cap:
                hand, i = hands[len(hands) % once]
                hands.append((PlannedHand(len(hands) + 1, hand.size, hand.kind), i))
            del hands[cap:]
        return hands

    def end_cap(self, players: int) -> int:
        """The most hands of a game with `end` for `players`: `end.hands`. Raises EndError."""
        assert self.end is not None
        cap = self.end.hands(self.game_env(players))
        if not isinstance(cap, int) or isinstance(cap, bool) or not 1 <= cap <= MAX_GAME_HANDS:
            raise EndError(f"end.hands gives {value_text(cap)}; it must be a whole number from 1 to {MAX_GAME_HANDS}")
        return cap

    def tiebreak_plan(self, players: int) -> tuple[int, int]:
        """(most extra hands, their size) for `players`; (0, 0) without tie-break hands.

        The schedule and the most extra hands together stay within MAX_GAME_HANDS."""
        if self.tiebreak is None:
            return 0, 0
        env = self.game_env(players)
        hands, cards = self.tiebreak.hands(env), self.tiebreak.cards(env)
        if not isinstance(hands, int) or not 0 <= hands <= MAX_GAME_HANDS:
            raise EvalError(f"tiebreak.hands gives {hands}; it must be a whole number from 0 to {MAX_GAME_HANDS}")
        if not isinstance(cards, int) or cards < 1:
            raise EvalError(f"tiebreak.cards gives {cards}; it must be a whole number, 1 or more")
        scheduled = len(self.planned_hands(players))
        if scheduled + hands > MAX_GAME_HANDS:
            raise EvalError(
                f"a game can have {scheduled + hands} hands ({scheduled} in the schedule and up to {hands} "
                f"tie-break hands); the limit is {MAX_GAME_HANDS} hands in a game"
            )
        return hands, cards


#: Per ruleset, by player count: the `let` values (`let_values`) and the schedule (`planned_hands`).
_LETS: Remembered[dict[int, dict[str, Value]]] = Remembered(lambda rules: {})
_PLANS: Remembered[dict[int, tuple[PlannedHand, ...]]] = Remembered(lambda rules: {})


def start_running(rules: Ruleset, players: int) -> dict[str, Number]:
    """Each running value's value before the first hand."""
    env = environment.running_start_env(players, rules.let_values(players))
    return {r.name: r.start(env) for r in rules.running}  # type: ignore[misc]  # the checker typed the running values' start formulas numbers


#: The most packs shuffled together.
MAX_COPIES = 8

#: The most hands of one game: the schedule, and the schedule with the most tie-break hands.
MAX_HANDS = 1000
MAX_GAME_HANDS = MAX_HANDS


class ScheduleError(EvalError):
    """A schedule that cannot be expanded for some player count; `entry` is the entry's index."""

    def __init__(self, message: str, entry: int):
        super().__init__(message)
        self.entry = entry


class EndError(EvalError):
    """An `end.hands` cap that is not a hand count for some player count."""


class LetError(EvalError):
    """A `let` value that cannot be evaluated for some player count."""

    def __init__(self, name: str, message: str):
        super().__init__(f"let {name}: {message}")
        self.name = name


class SettingError(ValueError):
    """A `--set NAME=VALUE` that names no parameter, or a value the parameter cannot take."""


def split_setting(text: str) -> tuple[str, str]:
    """`NAME=VALUE` -> (NAME, VALUE). Raises SettingError."""
    name, equals, value = text.partition("=")
    if not equals or not name.strip():
        raise SettingError(f"--set {text}: write --set NAME=VALUE, e.g. --set tricks=5")
    return name.strip(), value.strip()


def read_settings(rules: Ruleset, texts: Sequence[str]) -> dict[str, Value]:
    """The parameter values of `--set NAME=VALUE` options, each read by its parameter's type.
    Raises SettingError: an unknown name (with a did-you-mean), a wrong type, out of range."""
    values: dict[str, Value] = {}
    for text in texts:
        name, value = split_setting(text)
        p = rules.parameter(name)
        if p is None:
            raise SettingError(f"--set {text}: {unknown_parameter(rules, name)}")
        if name in values:
            raise SettingError(f"--set {name} is given twice")
        try:
            values[name] = p.read(value)
        except ValueError as e:
            raise SettingError(f"--set {text}: {e}") from None
    return values


def unknown_parameter(rules: Ruleset, name: str, others: Sequence[str] = ()) -> str:
    """`ruleset has no parameter `trick`; did you mean `tricks`? (its parameters: tricks, hook)`."""
    known = [p.name for p in rules.parameters]
    close = did_you_mean(name, [*known, *others])
    hint = f"; {close}" if close else ""
    listed = f" (its parameters: {', '.join(known)})" if known else " (it declares no parameters)"
    return f"{rules.name or 'the ruleset'} has no parameter `{name}`{hint}{listed}"


#: The most players at a table (the schema says the same for players.min and .max).
MAX_PLAYERS = 10


class PlayerCounts(TypedDict, total=False):
    """The fields of a Ruleset that `players_for` works out (none when they are not formulas)."""

    players_min: int
    players_max: int
    players_default: int


def players_for(written: tuple[int | Formula, int | Formula, int | Formula] | None, values: Mapping[str, Value]) -> PlayerCounts:
    """players_min, players_max and players_default for these parameter values (EvalError if a
    formula cannot be evaluated, or gives something other than a whole number)."""
    if written is None:
        return {}
    counts: list[int] = []
    for key, value in zip(("min", "max", "default"), written):
        if not isinstance(value, int):
            got = value(dict(values))
            if not isinstance(got, int) or isinstance(got, bool):
                raise EvalError(f"players.{key} gives {got}; it must be a whole number")
            value = got
        counts.append(value)
    return {"players_min": counts[0], "players_max": counts[1], "players_default": counts[2]}


def as_sizes(value: Value, where: str) -> tuple[int, ...]:
    """A schedule entry's value (a number or a list) as hand sizes, each a whole number >= 1."""
    sizes = value if isinstance(value, tuple) else (value,)
    for s in sizes:
        if not isinstance(s, int) or isinstance(s, bool) or s < 1:
            raise EvalError(f"{where} gives a hand size of {s}; every hand size is a whole number, 1 or more")
    return sizes


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class HandSetup:
    """What is fixed about one hand before the cards are dealt."""

    plan: PlannedHand
    extra: bool
    dealer_sits_out: bool
    playing: int
    cards_left: int
    env: dict[str, Value]  # the `deal` context: for trump.none_when and as the base of later ones


def hand_env(rules: Ruleset, players: int, plan: PlannedHand, hands_total: int, extra: bool = False) -> dict[str, Value]:
    """The `hand` context of one hand: what `dealer.sits_out` reads."""
    return environment.hand_env(rules.game_env(players), plan.number, plan.size, hands_total, plan.kind, extra)


def hand_setup(rules: Ruleset, players: int, plan: PlannedHand, hands_total: int, extra: bool = False) -> HandSetup:
    """Evaluate the per-hand rules that come before the deal (the dead hand, the trump rule's env)."""
    env = hand_env(rules, players, plan, hands_total, extra)
    deck = cast(int, env["deck_size"])  # a whole number (language/environment.py `hand_env`)
    sits_out = bool(rules.sits_out(env)) if rules.sits_out is not None else False
    playing = players - 1 if sits_out else players
    cards_left = deck - plan.size * playing
    environment.deal_env(env, playing, cards_left)
    return HandSetup(plan, extra, sits_out, playing, cards_left, env)
