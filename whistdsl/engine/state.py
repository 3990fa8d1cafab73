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
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, Self, TypeVar

from ..language.values import Number, Value
from .cards import Card
from .errors import IllegalAction

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
    _built: tuple[_T, ...] | None

    def _build(self) -> tuple[_T, ...]:
        raise NotImplementedError

    def built(self) -> tuple[_T, ...]:
        built = self._built
        if built is None:
            built = self._built = self._build()
        return built

    def __getitem__(self, index):
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

    def __reduce__(self):
        return (tuple, (self.built(),))


class PlayedTricks(_BuiltWhenRead[Trick]):
    """A hand's tricks as the compiled engine keeps it (engine/compiled/): every card in
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


#: A bid as a seat makes it: a number of tricks, or the name of a call beside the numbers (the
#: ruleset's `calls`, e.g. Estimation's "dash"), which the bids then keep as the number it counts as.
Bid = int | str
Action = int | str | None  # a bid (a number or a call), a decision's option, a card, or None: "play the card I cannot see" (forehead)


@dataclass(frozen=True)
class PresetDeal:
    """A set-up deal for one hand: each seat's cards (empty for a seat sitting out), and
    optionally the dealer, the turned-up card and the trump (suit number or NO_TRUMP); and the
    deals of this hand dealt again before it (`redeal`), in order, each a set-up deal itself."""

    deal: tuple[tuple[Card, ...], ...]
    dealer: int | None = None
    turn_up: Card | None = None
    trump: int | None = None
    redeals: tuple[PresetDeal, ...] = ()
    as_dealt: bool = False  # played as dealt whatever `redeal` says (a position imagined for look-ahead)
    declared: tuple[str, ...] | None = None  # each seat's declaration, made already (look-ahead); None: asked


class Redealt(NamedTuple):
    """A deal of a hand dealt again (`redeal`): each seat's cards, the card turned, the choices
    made on it (the auction's passes, the declarations), and why: `when` (`redeal.when` held of
    it), `passed_out` (every seat passed in the auction) or `declared` (a seat declared `redeal`)."""

    deal: tuple[tuple[Card, ...], ...]
    turn_up: Card | None
    choices: tuple[tuple[int, str, str], ...]
    why: str


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
    redeals: tuple[Redealt, ...] = ()  # the deals of this hand dealt again before the one played (`redeal`)


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
    auction_calls: list[str]  # per seat, the named call it made in this hand's auction ("" none)
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
    # the game's course beyond this hand: the schedule's length and the tie-break hands left,
    # the first dealer (and the cards drawn for it), the dealer the deal rotates from
    scheduled_hands: int
    hands_total: int
    extra_hands_left: int
    extra_cards: int
    first_dealer: int
    first_dealer_draw: tuple[Card, ...]
    rotation_dealer: int
    stop_after_hand: bool
    # this hand's trump source, its decisions' outcome, and what its memos are keyed by
    turn_up_place: str
    trump_from: str
    declarer: int | None
    auction_bid: int
    excused: list[bool] | tuple[bool, ...]
    declared: list[str] | tuple[str, ...]
    redealt: list[Redealt]
    bid_memo_key: tuple
    score_memo_key: tuple

    @property
    def over(self) -> bool:
        return self.phase == Phase.OVER

    @property
    def hand_number(self) -> int:
        return self.plan[self.index].number

    @property
    def seat_to_act(self) -> int:
        """The seat to act, for code that runs while the game is under way (`to_act` is None
        once it is over). Raises IllegalAction ("the game is over") then."""
        seat = self.to_act
        if seat is None:
            raise IllegalAction("the game is over", "game_over")
        return seat

    @property
    def hand_kind(self) -> HandKind:
        """This hand's kind (`rules.kinds`), for code that runs once a hand has begun (`kind`
        is None before the first). Raises IllegalAction ("no hand has begun") then."""
        kind = self.kind
        if kind is None:
            raise IllegalAction("no hand has begun", "no_hand")
        return kind

    @property
    def game_result(self) -> GameResult:
        """The result, for code that runs once the game is over (`result` is None until then).
        Raises IllegalAction ("the game is not over") before."""
        result = self.result
        if result is None:
            raise IllegalAction("the game is not over", "not_over")
        return result

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

    def clone(self) -> Self:
        """A copy of this position to play on without changing this one.

        Every field of the position is copied, whatever its name: lists, dicts and sets (and
        what they hold, nested), dataclasses that are not frozen (the auction) field by field;
        other values are immutable (numbers, text, tuples, frozen dataclasses) and are shared. Only
        the fields declared in `SHARED` are shared as they are, and those in `WORKED_OUT` are
        left to be worked out again. So a new field of the position is copied without being
        listed anywhere (tests/test_state.py checks every field of games in many positions).

        The annotations of the class (State's and Game's) make it quick, not safe: a field they
        declare of immutable types is not looked at, one declared a list or dict of immutable
        values is copied by a line written out for it (`_declared_copier`); every other field's
        value is looked at."""
        copy = object.__new__(type(self))
        fields = copy.__dict__
        fields.update(self.__dict__)
        kind = type(self)
        _declared_copier(kind)(fields)  # type: ignore[arg-type]  # a class is hashable; mypy checks its instances' __hash__; the fields declared lists or dicts of immutable values
        looked = _not_looked_at(kind)  # type: ignore[arg-type]  # a class is hashable; mypy checks its instances' __hash__
        if not fields.keys() <= looked:  # the others: each value looked at, replaced in place
            for name in fields.keys() - looked:
                value = fields[name]
                if type(value) not in _IMMUTABLE:
                    fields[name] = _copied(value)
        fields.update(self.WORKED_OUT)
        return copy


@cache
def _not_looked_at(kind: type[State]) -> frozenset[str]:
    """The fields `clone` leaves without a look: the shared ones, those worked out again, and
    those `kind`'s annotations declare of immutable types only (`Phase`, `int | None`,
    `tuple[int, ...]`, ...; a field not declared is looked at)."""
    declared = set()
    for klass in kind.__mro__:
        for name, annotation in getattr(klass, "__annotations__", {}).items():
            if (
                isinstance(annotation, str)
                and not annotation.startswith("ClassVar")
                and set(re.findall(r"\w+", annotation)) <= _IMMUTABLE_NAMES | _IMMUTABLE_CLASSES
            ):
                declared.add(name)
    return kind.SHARED | frozenset(kind.WORKED_OUT) | frozenset(declared) | frozenset(_copiers(kind))  # type: ignore[arg-type]  # a class is hashable; mypy checks its instances' __hash__


#: Classes of the position that are immutable (frozen dataclasses, an enum), by name.
_IMMUTABLE_CLASSES = frozenset({"Phase", "HandSetup", "HandKind", "GameResult"})


@cache
def _declared_copier(kind: type[State]) -> Callable[[dict[str, Any]], None]:
    """A function that copies, in a game's fields, every field `kind` declares a list or dict of
    immutable values (`_copiers`), written out once per class: one straight line a field."""
    lines = ["def copy_declared(f):"]
    for name, (held, copy) in sorted(_copiers(kind).items()):  # type: ignore[arg-type]  # a class is hashable; mypy checks its instances' __hash__
        lines += [f"    v = f.get({name!r}, ABSENT)"]
        if held is not None:
            lines += [
                f"    if type(v) is {held.__name__}:",
                f"        f[{name!r}] = {copy}",
                "    elif v is not ABSENT and type(v) not in IMMUTABLE:",
            ]
        else:
            lines += ["    if v is not ABSENT and type(v) not in IMMUTABLE:"]
        lines += [f"        f[{name!r}] = copied(v)"]
    namespace: dict[str, Any] = {"ABSENT": object(), "IMMUTABLE": _IMMUTABLE, "copied": _copied}
    exec("\n".join(lines + ["    return None", ""]), namespace)  # our own source, from the class's annotations
    return namespace["copy_declared"]  # type: ignore[no-any-return]  # what exec defined in the namespace


#: Names of immutable types, as the State's annotations write them (see `_copiers`).
_IMMUTABLE_NAMES = frozenset({"int", "str", "bool", "float", "None", "Number", "Card", "HandResult", "PlannedHand", "PresetDeal", "Trick", "tuple"})
_LEAF = r"(tuple\[[^\[\]]*\]|[\w |]+)"
#: The shapes of a field's annotation that have a copier of their own (anything else is copied
#: by `_copied`, which looks at the values): a regular expression over the annotation, with the
#: immutable leaf as its group, the type it holds, and the copy of `v` as Python.
_SHAPES: tuple[tuple[re.Pattern[str], type, str], ...] = (
    (re.compile(rf"list\[list\[list\[{_LEAF}\]\]\]"), list, "[[s.copy() for s in h] for h in v]"),
    (re.compile(rf"list\[list\[{_LEAF}\]\]"), list, "[s.copy() for s in v]"),
    (re.compile(rf"list\[dict\[\w+, {_LEAF}\]\]"), list, "[d.copy() for d in v]"),
    (re.compile(rf"list\[{_LEAF}\]"), list, "v.copy()"),
    (re.compile(rf"list\[{_LEAF}\] \| tuple\[[^\[\]]*\]"), list, "v.copy()"),  # a tuple is left as it is
    (re.compile(rf"dict\[\w+, {_LEAF}\]"), dict, "v.copy()"),
)


@cache
def _copiers(kind: type[State]) -> dict[str, tuple[type | None, str]]:
    """For each field of `kind` that its annotations declare a list or a dict of immutable
    values (nested lists, or dicts, of numbers, cards, tuples, ...): the type it holds and a
    copy of it as Python (`v` the value) that copies it without looking at each value
    (`clone`'s fast way; a value of another type is copied by `_copied`)."""
    out: dict[str, tuple[type | None, str]] = {}
    for klass in reversed(kind.__mro__):
        for name, annotation in getattr(klass, "__annotations__", {}).items():
            if not isinstance(annotation, str) or annotation.startswith("ClassVar") or name in kind.SHARED or name in kind.WORKED_OUT:
                continue
            for shape, held, copier in _SHAPES:
                match = shape.fullmatch(annotation)
                if match and set(re.findall(r"\w+", match.group(1))) <= _IMMUTABLE_NAMES:
                    out[name] = (held, copier)
                    break
            else:
                if not set(re.findall(r"\w+", annotation)) <= _IMMUTABLE_NAMES | _IMMUTABLE_CLASSES:
                    out[name] = (None, "copied(v)")  # declared, of another shape: looked at by `_copied`
    return out


#: The types `_copied` copies (what they hold is copied too).
_CONTAINERS = (list, dict, set)
#: Types whose values are immutable, shared without a closer look: these, and each type
#: `_holds_state` finds immutable the first time it meets one (a tuple's kind, a frozen
#: dataclass), added here once.
_IMMUTABLE = {int, str, bool, float, type(None), Phase, tuple, frozenset}


def _copied(value: _T) -> _T:
    """`value` copied as a field of a position is (see `State.clone`): a list, dict or set with
    what it holds, nested; a dataclass that is not frozen (the auction) field by field; an object
    with a `clone` of its own by it; any other value (a number, text, a tuple, a frozen
    dataclass) is immutable and is the value itself."""
    kind = type(value)
    if kind is list:
        if _IMMUTABLE.issuperset(map(type, value)) or not any(_holds_state(v) for v in value):  # type: ignore[attr-defined,call-overload]  # `kind is list` does not narrow `value`
            return value.copy()  # type: ignore[attr-defined,no-any-return]  # `kind is ...` does not narrow `value`
        return [_copied(v) for v in value]  # type: ignore[attr-defined,return-value]  # `kind is ...` does not narrow `value`
    if kind is dict:
        if _IMMUTABLE.issuperset(map(type, value.values())) or not any(_holds_state(v) for v in value.values()):  # type: ignore[attr-defined]  # `kind is ...` does not narrow `value`
            return value.copy()  # type: ignore[attr-defined,no-any-return]  # `kind is ...` does not narrow `value`
        return {k: _copied(v) for k, v in value.items()}  # type: ignore[attr-defined,return-value]  # `kind is ...` does not narrow `value`
    if kind is set:
        return value.copy()  # type: ignore[attr-defined,no-any-return]  # `kind is ...` does not narrow `value`
    if not _holds_state(value):
        return value
    if getattr(value, "__dataclass_params__", None) is not None:
        copy = object.__new__(kind)
        for name in value.__dataclass_fields__:  # type: ignore[attr-defined]  # `kind is ...` does not narrow `value`
            object.__setattr__(copy, name, _copied(getattr(value, name)))
        return copy
    return value.clone()  # type: ignore[attr-defined,no-any-return]  # `kind is ...` does not narrow `value`


def _holds_state(value: object) -> bool:
    """Whether `value` is mutable, so that a copy of a position needs a copy of it. Mutability
    is the type's: a type found immutable is remembered in `_IMMUTABLE`."""
    kind = type(value)
    if kind in _IMMUTABLE:
        return False
    if kind in _CONTAINERS:
        return True
    params = getattr(kind, "__dataclass_params__", None)
    if params is not None:
        mutable = not params.frozen
    else:
        mutable = not issubclass(kind, (tuple, frozenset, _BuiltWhenRead)) and hasattr(kind, "clone")
    if not mutable:
        _IMMUTABLE.add(kind)
    return mutable
