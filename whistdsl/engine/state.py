"""One position of a game: its explicit phase and everything that changes as the game goes on.

As OpenSpiel separates them: the static facts of a table (engine/table.py `TableFacts`: the
deck, the schedule, the seat orders, the trick rules, the memos) are fixed for every game of a
ruleset and table size; a `State` is one position of one game; what a seat may see of it is
the observer's (engine/observer.py). The Game (engine/game.py) is a State together with its
rules and facts, and the methods that move it on (`act`, `legal_actions`, ...; each phase's in
engine/phases/). The finished parts of a position are here too: a hand's result (`HandResult`,
in `history`), the game's (`GameResult`), and a set-up deal (`PresetDeal`).

A State is copied with `clone` (for look-ahead: a position played on in several ways): every
field of the position is copied, whatever its name; only the static facts it declares `SHARED`
are shared.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Iterator,
    NamedTuple,
    Sequence,
    TypeVar,
    Union,
)

from ..language.expression import Number, Value
from .cards import Card

if TYPE_CHECKING:
    from ..rules.ruleset import HandKind, HandSetup, PlannedHand, Special


_T = TypeVar("_T")


class Phase(StrEnum):
    """Where a hand is: its explicit phase (a `str`, so `game.phase == "bidding"` still reads).

    A hand runs deal -> trump -> decisions (the ruleset's own, e.g. a trump named by a seat) ->
    bidding -> play -> scoring, then the next hand's deal or the end of the game. The deal and
    trump steps (engine/trump.py, chosen once per ruleset) and the scoring take no action, so a
    game is never seen resting in them.
    """

    DEAL = "deal"  # the cards are dealt (engine/trump.py's deal step; no action)
    TRUMP = "trump"  # the trump is found from the ruleset's sources (its trump step; no action)
    DECISION = "decision"  # a seat makes one of the ruleset's `decisions` (not the bids)
    BIDDING = "bidding"
    PLAY = "play"
    OVER = "over"


class Trick(NamedTuple):
    leader: int
    cards: tuple[tuple[int, Card], ...]  # (seat, card) in playing order
    winner: int


class _BuiltWhenRead(Sequence[_T]):
    """A tuple the compiled engine keeps as flat data and builds the first time it is read
    (`_build`): it reads, compares, hashes and pickles as that tuple."""

    __slots__ = ("_built",)

    def _build(self) -> tuple[_T, ...]:
        raise NotImplementedError

    def built(self) -> tuple[_T, ...]:
        built = self._built
        if built is None:
            built = self._built = self._build()
        return built

    def __getitem__(self, index):  # type: ignore[override]  # noqa: ANN001, ANN204 (an index or a slice)
        return self.built()[index]

    def __iter__(self) -> Iterator[_T]:
        return iter(self.built())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _BuiltWhenRead):
            other = other.built()
        return self.built() == other if isinstance(other, tuple) else NotImplemented

    def __hash__(self) -> int:
        return hash(self.built())

    def __repr__(self) -> str:
        return repr(self.built())

    def __reduce__(self):  # noqa: ANN204 (pickled as the tuple it stands for)
        return (tuple, (self.built(),))


class PlayedTricks(_BuiltWhenRead[Trick]):
    """A hand's tricks as the compiled engine keeps it (engine/compiled.py): every card in
    playing order and each trick's winner, with the seat orders to read them by. The `Trick`
    tuples are built the first time they are read (a record, a replay, the table); until then a
    hand's play costs one list entry a card. Equal to the tuple of Tricks the interpreter keeps."""

    __slots__ = ("_leader", "_orders", "_cards", "_winners")

    def __init__(self, leader: int, orders: dict[int, tuple[int, ...]], cards: list[Card], winners: list[int]):
        self._leader, self._orders, self._cards, self._winners = leader, orders, cards, winners
        self._built: tuple[Trick, ...] | None = None

    def _build(self) -> tuple[Trick, ...]:
        out, leader, cards, at = [], self._leader, self._cards, 0
        for winner in self._winners:
            seats = self._orders[leader]
            out.append(Trick(leader, tuple(zip(seats, cards[at : at + len(seats)])), winner))
            at += len(seats)
            leader = winner
        return tuple(out)

    def __len__(self) -> int:
        return len(self._winners)


class DealtCards(_BuiltWhenRead[tuple[Card, ...]]):
    """A hand's deal as the compiled engine keeps it: the shuffled deck, whose first cards went
    to the seats of `deal_order`, `size` each. Every seat's cards, in the order dealt (() for a
    seat sitting out), are built the first time they are read, as `PlayedTricks` are. Equal to
    the tuple of tuples game.py keeps. The deck is the hand's own list: the next hand shuffles a
    new one, and nothing draws from its dealt part again."""

    __slots__ = ("_deck", "_order", "_size", "_players")

    def __init__(self, deck: list[Card], deal_order: tuple[int, ...], size: int, players: int):
        self._deck, self._order, self._size, self._players = deck, deal_order, size, players
        self._built: tuple[tuple[Card, ...], ...] | None = None

    def _build(self) -> tuple[tuple[Card, ...], ...]:
        out: list[tuple[Card, ...]] = [()] * self._players
        size, deck = self._size, self._deck
        for k, seat in enumerate(self._order):
            out[seat] = tuple(deck[k * size : (k + 1) * size])
        return tuple(out)

    def __len__(self) -> int:
        return self._players


Action = Union[int, None]  # a bid, a card, or None: "play the card I cannot see" (forehead)


@dataclass(frozen=True)
class PresetDeal:
    """A set-up deal for one hand: each seat's cards (empty for a seat sitting out), and
    optionally the dealer, the turned-up card and the trump (suit number or NO_TRUMP)."""

    deal: tuple[tuple[Card, ...], ...]
    dealer: int | None = None
    turn_up: Card | None = None
    trump: int | None = None


class HandResult(NamedTuple):
    """One finished hand, as raw numbers (see whistdsl.record for its JSON form)."""

    number: int
    size: int
    kind: str
    mark: str
    extra: bool
    dealer: int
    sitting_out: tuple[int, ...]
    trump: int  # suit number or NO_TRUMP
    turn_up: Card | None
    deal: tuple[tuple[Card, ...], ...]  # per seat, as dealt; () for a seat sitting out
    bids: tuple[tuple[int, int], ...]  # (seat, bid) in bidding order
    tricks: tuple[Trick, ...]
    taken: tuple[int, ...]
    points: tuple[Number, ...]  # points + bonus, per seat (0 for a seat sitting out)
    bonus: tuple[Number, ...]
    totals: tuple[Number, ...]
    running: tuple[dict[str, Number], ...]
    rng_state: Any = None  # the generator's state after this hand (to resume from here)
    specials: tuple[Special, ...] = ()  # the deck's special cards: what a card SPECIAL*16+i is
    choices: tuple[tuple[int, str, str], ...] = ()  # (seat, decision, choice): trump named, blind or look
    calls: tuple[str, ...] = ()  # per seat, the named call it made ("" for a number bid); () without calls
    blind: tuple[bool, ...] = ()  # per seat, whether it bid blind by choice; () without blind bids
    excused: tuple[bool, ...] = ()  # per seat, whether it was excused from bidding (`skip`); () without decisions
    declarer: int | None = None  # the seat that won the auction (`decisions`, `auction`)
    auction_bid: int = 0  # the declarer's winning bid (0: no declarer)
    trump_from: str = ""  # the source of `trump.from` that gave trump ("" for version 1's cycle and turn-up)


@dataclass(frozen=True)
class GameResult:
    totals: tuple[Number, ...]
    winners: tuple[int, ...]
    running: tuple[dict[str, Number], ...]


class State:
    """One position of a game (the Game sets these up: engine/game.py `_setup_game`, engine/phases/deal.py `begin_hand`).

    The game so far: `totals` and `running` (per seat), `history` (the finished hands),
    `result` (once over), the schedule being played (`plan`, `index` of this hand in it), the
    generator `rng`. This hand: its `setup` and `kind`, `dealer`, `sitting_out`, the seat orders
    (`bidding_order`, `position`, `play_orders`), `hands` (per seat, one list per suit),
    `dealt`, `turn_up`, `trump` and `hand_env`; the decisions (`choices`, `calls`, `blind`,
    `looked`, `decision`, `trump_named_by`); the bids (`bids` per seat, `bid_log` in order,
    `bids_so_far`); the play (`leader`, `trick_order`, `trick` under way, `tricks` done, `taken`
    per seat). And where it is: `phase` and the seat `to_act` (None when over).
    """

    phase: Phase
    to_act: int | None
    rng: random.Random
    totals: list[Number]
    running: list[dict[str, Number]]
    history: list[HandResult]
    result: GameResult | None
    plan: list[PlannedHand]
    index: int
    deals: dict[int, PresetDeal]
    setup: HandSetup
    kind: HandKind | None
    dealer: int
    sitting_out: tuple[int, ...]
    bidding_order: tuple[int, ...]
    position: dict[int, int]
    play_orders: dict[int, tuple[int, ...]]
    hands: list[list[list[Card]]]
    dealt: tuple[tuple[Card, ...], ...]
    deck: list[Card]
    turn_up: Card | None
    trump: int
    hand_env: dict[str, Value]
    hand_size: int
    choices: list[tuple[int, str, str]]
    calls: list[str] | tuple[str, ...]
    blind: list[bool] | tuple[bool, ...]
    decision: str | None
    trump_named_by: int | None
    bids: list[int | None]
    bid_log: list[tuple[int, int]]
    bids_so_far: int
    leader: int
    trick_order: tuple[int, ...]
    trick: list[tuple[int, Card]]
    tricks: list[Trick]
    taken: list[int]

    @property
    def over(self) -> bool:
        return self.phase == Phase.OVER

    @property
    def hand_number(self) -> int:
        return self.plan[self.index].number

    #: The fields of a game that `clone` shares with the copy: the rules, the static facts of the
    #: table and the memos every game of it shares (engine/table.py), the seat orders of this
    #: hand (the table's, never changed in place), this hand's values for formulas (a dict the
    #: table's memo keeps, never changed in place) and the generator. Nothing of the position.
    SHARED: ClassVar[frozenset[str]] = frozenset(
        {
            "rules", "facts", "ranks", "full_deck", "tricks_play", "rng",
            "_trump_step", "_bid_memo", "_hand_envs", "_setups", "_score_reads",
            "position", "play_orders", "hand_env",
        }
    )  # fmt: skip
    #: The fields worked out from the position and refilled in place (memos of the legal
    #: actions, the scratch values of the bidding limits): a copy works them out again.
    WORKED_OUT: ClassVar[dict[str, None]] = {"bid_scratch": None, "legal_cards_memo": None, "legal_bids_memo": None}

    def clone(self) -> "State":
        """A copy of this position to play on without changing this one.

        Every field of the position is copied, whatever its name: lists, dicts and sets (and
        what they hold, nested), dataclasses that are not frozen (the auction) field by field;
        other values are immutable (numbers, text, tuples, frozen dataclasses) and are shared. Only
        the fields declared in `SHARED` are shared as they are, and those in `WORKED_OUT` are
        left to be worked out again. So a new field of the position is copied without being
        listed anywhere (tests/test_engine.py checks every field of games in many positions)."""
        copy = object.__new__(type(self))
        shared = self.SHARED
        copy.__dict__.update({name: value if name in shared else _copied(value) for name, value in self.__dict__.items()})
        copy.__dict__.update(self.WORKED_OUT)
        return copy


#: The types `_copied` copies (what they hold is copied too).
_CONTAINERS = (list, dict, set)
#: Types of values that are immutable, shared without a closer look.
_IMMUTABLE = frozenset({int, str, bool, float, type(None), Phase})


def _copied(value: _T) -> _T:
    """`value` copied as a field of a position is (see `State.clone`): a list, dict or set with
    what it holds, nested; a dataclass that is not frozen (the auction) field by field; an object
    with a `clone` of its own by it; any other value (a number, text, a tuple, a frozen
    dataclass) is immutable and is the value itself."""
    kind = type(value)
    if kind in _IMMUTABLE:
        return value
    if kind is list:
        return [_copied(v) for v in value] if any(_holds_state(v) for v in value) else value.copy()  # type: ignore[attr-defined,return-value]
    if kind is dict:
        nested = any(_holds_state(v) for v in value.values())  # type: ignore[attr-defined]
        return {k: _copied(v) for k, v in value.items()} if nested else value.copy()  # type: ignore[attr-defined,return-value]
    if kind is set:
        return value.copy()  # type: ignore[attr-defined,no-any-return]
    if not _holds_state(value):
        return value
    params = getattr(value, "__dataclass_params__", None)
    if params is not None:
        copy = object.__new__(kind)
        for name in value.__dataclass_fields__:  # type: ignore[attr-defined]
            object.__setattr__(copy, name, _copied(getattr(value, name)))
        return copy  # type: ignore[no-any-return]
    return value.clone()  # type: ignore[attr-defined,no-any-return]


def _holds_state(value: object) -> bool:
    """Whether `value` is mutable, so that a copy of a position needs a copy of it."""
    kind = type(value)
    if kind in _IMMUTABLE or isinstance(value, (tuple, frozenset, _BuiltWhenRead)):
        return False
    if kind in _CONTAINERS:
        return True
    params = getattr(value, "__dataclass_params__", None)
    if params is not None:
        return not params.frozen
    return hasattr(value, "clone")
