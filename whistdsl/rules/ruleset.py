"""The compiled ruleset: a frozen, typed description of one game, with ready-to-call formulas.

`check.compile_ruleset` builds it from validated data; the engine reads only this. Helpers here
answer per-game questions once (the deck and the schedule for a player count), so the engine
resolves rule choices once per game, not per card.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..language.expression import EvalError, Formula, Value

CLOCKWISE = 1
COUNTERCLOCKWISE = -1

#: Ranks from high to low as written on cards; `10` is accepted for `T` in rulesets.
STANDARD_RANKS = ("A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2")
NORMAL = "normal"


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
class Tiebreak:
    hands: Formula
    cards: Formula
    kind: str = NORMAL


class Special(NamedTuple):
    """A special card of the deck (`deck.specials`): its name in the rules, its mark on the
    table (how it is typed and shown), and how many are in one pack."""

    name: str
    mark: str
    count: int


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
#: What a special card led asks of the others (`play.special_led`): nothing to follow (`free`),
#: or the next card sets the suit (`pass`).
SPECIAL_LED = ("free", "pass")


@dataclass(frozen=True)
class PlannedHand:
    """One hand of the schedule: its 1-based number, size and kind."""

    number: int
    size: int
    kind: str


@dataclass(frozen=True)
class Ruleset:
    name: str
    description: str
    version: int
    source: dict[str, Any] = field(repr=False, compare=False)  # the merged data
    lets: tuple[tuple[str, Formula], ...] = ()  # named values, in order
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
    identical: str = "earlier"  # two copies of one card in a trick: the earlier or the later played wins
    first_dealer: str | int = "random"
    sits_out: Formula | None = None
    kinds: dict[str, HandKind] = field(default_factory=dict)
    schedule: tuple[ScheduleEntry, ...] = ()
    trump_cycle: tuple[str, ...] | None = None
    turn_up: bool = False
    trump_none_when: Formula | None = None
    first_bidder: str = "after_dealer"
    allowed: Formula | None = None
    when_void: str = "free"
    first_lead: str = "first_bidder"
    points: Formula | None = None
    bonus: Formula | None = None
    running: tuple[RunningValue, ...] = ()
    rank: tuple[RankKey, ...] = ()
    wins_outright: Formula | None = None
    tiebreak: Tiebreak | None = None
    #: per-player-count facts the engine works out once and reuses across games
    cache: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(canonical_json(self.source).encode("utf-8")).hexdigest()

    @property
    def running_names(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.running)

    # -- per-game facts, computed once per player count

    def deck_ranks(self, players: int) -> tuple[str, ...]:
        """The ranks kept for `players`, high to low (the lowest go first)."""
        twice = sorted({r for r in self.ranks if self.ranks.count(r) > 1})
        if twice:
            raise EvalError(f"deck.ranks names {', '.join(twice)} more than once (10 and T are one rank)")
        if self.deck_size is None:
            return self.ranks
        size = self.deck_size({"players": players})
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
    def standard_tricks(self) -> bool:
        """Whether tricks are played as in version 1 (follow suit; the highest trump, else the
        highest of the led suit; of two identical cards the earlier wins): the engine's fast path."""
        return not self.specials and self.trick_winner == STANDARD_WINNER and self.identical == "earlier"

    def special_index(self, name: str) -> int | None:
        return next((i for i, s in enumerate(self.specials) if s.name == name), None)

    def let_values(self, players: int) -> dict[str, Value]:
        """The `let` values for `players` (each sees `players`, `deck_size` and the ones before).
        Raises LetError naming the value that cannot be evaluated."""
        key = ("let", players)
        values = self.cache.get(key)
        if values is None:
            env: dict[str, Value] = {"players": players, "deck_size": self.deck_count(players)} if self.lets else {}
            values = {}
            for name, f in self.lets:
                try:
                    env[name] = values[name] = f(env)
                except EvalError as e:
                    raise LetError(name, str(e)) from None
            self.cache[key] = values
        return dict(values)

    def game_env(self, players: int) -> dict[str, Value]:
        """What every hand's formulas see of the game: `players`, `deck_size` and the `let` values."""
        return {"players": players, "deck_size": self.deck_count(players), **self.let_values(players)}

    def planned_hands(self, players: int) -> tuple[PlannedHand, ...]:
        """The schedule for `players`: every hand's number, size and kind.
        Raises ScheduleError (naming the entry) for a bad entry or a schedule past MAX_HANDS."""
        key = ("plan", players)
        plan = self.cache.get(key)
        if plan is None:
            plan = self.cache[key] = tuple(hand for hand, _ in self.schedule_entries(players))
        return plan

    def schedule_entries(self, players: int) -> list[tuple[PlannedHand, int]]:
        """Each hand of the schedule for `players`, with the index of the entry it comes from.

        Expanding stops as soon as the hands pass MAX_HANDS, so a schedule of many long entries
        is never built whole. Raises ScheduleError."""
        env = self.game_env(players)
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
        return hands

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


class LetError(EvalError):
    """A `let` value that cannot be evaluated for some player count."""

    def __init__(self, name: str, message: str):
        super().__init__(f"let {name}: {message}")
        self.name = name


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
    env = rules.game_env(players)
    env.update({
        "hand_number": plan.number,
        "hand_size": plan.size,
        "hands": hands_total,
        "kind": plan.kind,
        "extra": extra,
    })
    return env


def hand_setup(rules: Ruleset, players: int, plan: PlannedHand, hands_total: int, extra: bool = False) -> HandSetup:
    """Evaluate the per-hand rules that come before the deal (the dead hand, the trump rule's env)."""
    env = hand_env(rules, players, plan, hands_total, extra)
    deck = env["deck_size"]
    sits_out = bool(rules.sits_out(env)) if rules.sits_out is not None else False
    playing = players - 1 if sits_out else players
    cards_left = deck - plan.size * playing
    env["playing"] = playing
    env["cards_left"] = cards_left
    return HandSetup(plan, extra, sits_out, playing, cards_left, env)
