"""The one place that builds formula environments: the names of each context of the catalogue.

A formula sees a dict of names (its context's variables, the `let` values, running values).
Every part of whistdsl that evaluates formulas builds those dicts here, layer on layer as the
game goes on: the table (`game_env`), the hand before the deal (`hand_env`), once it is known
who plays (`deal_env`), with trump (`trump_env`), and then per seat: a bidder's turn
(`bidding_env`), a seat's result (`result_env`), the end of the game (`winner_env`), and the
running values' start (`running_start_env`). The engine, lint (rules/domain.py, rules/check.py),
`whistdsl score` and the bots all call these, so the names they fill cannot drift apart from
the catalogue (tests/test_environment.py checks each builder against its context).

The per-seat builders refill a dict given as `into` (a copy of the layer below, kept by the
caller) instead of copying: the engine builds thousands of them a second. The facts a seat's
decisions make (`call`, `blind`, `is_declarer`, ...: the catalogue's SEAT_FACTS) are given to
them by name (`**choices`); each builder writes those its context sees, a fact not given at its
default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .catalogue import SEAT_FACTS, Row, SeatFact, Stage, seat_facts_in_rows, seat_facts_seen
from .values import Number, Value

Env = dict[str, Value]

#: The names of the facts a seat's decisions make (the catalogue's SEAT_FACTS).
CHOICES: frozenset[str] = frozenset(f.name for f in SEAT_FACTS)


def _pairs(facts: tuple[SeatFact, ...]) -> tuple[tuple[str, Value], ...]:
    return tuple((f.name, f.default) for f in facts)


#: (name, default) of the SEAT_FACTS each context sees, and each row holds (`seat_row`).
_SKIP = _pairs(seat_facts_seen(Stage.SKIP))
_BIDDING = _pairs(seat_facts_seen(Stage.BIDDING))
_SCORING = _pairs(seat_facts_seen(Stage.SCORING))
_FIRST_LEAD = tuple((n, d) for n, d in _BIDDING if n not in {f.name for f in seat_facts_in_rows(Row.BID)})  # not in the row
_ROW_BEFORE_BID = _pairs(seat_facts_in_rows(Row.ALWAYS))
_ROW_BID = _pairs(seat_facts_in_rows(Row.BID))
_ROW_RESULTS = _pairs(seat_facts_in_rows(Row.RESULTS))


def _choices(env: Env, facts: tuple[tuple[str, Value], ...], choices: Mapping[str, Value]) -> None:
    """The seat's `facts` (SEAT_FACTS, as (name, default)) written into `env`: from `choices`,
    else their default. Raises TypeError for a name of `choices` that is none of SEAT_FACTS."""
    if choices:
        if not CHOICES.issuperset(choices):
            raise TypeError(f"not a seat's fact: {', '.join(sorted(set(choices) - CHOICES))}")
        for name, default in facts:
            env[name] = choices.get(name, default)
    else:
        for name, default in facts:
            env[name] = default


def game_env(players: int, deck_size: int | None = None, lets: Mapping[str, Value] | None = None) -> Env:
    """The table: the parameters and `let` values (`lets`), then `players` and `deck_size` (where
    known), which a parameter of the same name does not hide."""
    env: Env = dict(lets) if lets else {}
    env["players"] = players
    if deck_size is not None:
        env["deck_size"] = deck_size
    return env


def hand_env(game: Mapping[str, Value], number: int, size: int, hands: int, kind: str, extra: bool) -> Env:
    """The `hand` context: the table and this hand's place in the schedule."""
    env = dict(game)
    env["hand_number"] = number
    env["hand_size"] = size
    env["hands"] = hands
    env["kind"] = kind
    env["extra"] = extra
    return env


#: What formulas read of the card turned for trump when none is turned (the `deal` context's
#: `turn_up_suit`, `turn_up_rank`, `turn_up_special`; engine/cards.turn_up_facts gives a card's).
NO_CARD_TURNED: dict[str, Value] = {"turn_up_suit": "none", "turn_up_rank": "", "turn_up_special": ""}


def deal_env(hand: Env, playing: int, cards_left: int, turned: Mapping[str, Value] | None = None) -> Env:
    """The `deal` context: the hand once it is known who plays, and the card turned for trump
    (`turned`: its facts; none turned by default) (extends `hand` in place)."""
    hand["playing"] = playing
    hand["cards_left"] = cards_left
    hand.update(NO_CARD_TURNED if turned is None else turned)
    return hand


def trump_env(deal: Mapping[str, Value], trump: str) -> Env:
    """The hand with its trump suit (a suit name or "none"): the base of every per-seat context
    (which do not read the turned card)."""
    env = {k: v for k, v in deal.items() if k not in NO_CARD_TURNED}
    env["trump"] = trump
    return env


def seat_env(
    env: Env,
    *,
    total: Number,
    is_dealer: bool,
    position: int,
    running: Mapping[str, Number] | None = None,
) -> Env:
    """A seat's own facts (total before this hand, the dealer, the place in the bidding order,
    the running values before this hand), written into `env`."""
    if running:
        env.update(running)
    env["total"] = total
    env["is_dealer"] = is_dealer
    env["position"] = position
    return env


def bidding_env(
    hand: Mapping[str, Value],
    *,
    total: Number,
    is_dealer: bool,
    bids_made: int,
    bids_so_far: int,
    bidders: int,
    running: Mapping[str, Number] | None = None,
    into: Env | None = None,
    **choices: Value,
) -> Env:
    """The `bidding` context for the seat to bid, less `bid` (set per bid tried): `bids_made`
    seats have bid before it, their bids adding up to `bids_so_far`, of `bidders` in all;
    `choices`: the seat's facts of the hand's decisions (SEAT_FACTS) that the bidding sees, such
    as `blind` (`call` is "" until a named call is tried). A fact not given is the one the
    hand's env holds (lint's check of the limits sets `auction_bid` there), else its default."""
    env = dict(hand) if into is None else into
    seat_env(env, total=total, is_dealer=is_dealer, position=bids_made + 1, running=running)
    env["bids_so_far"] = bids_so_far
    env["bids_made"] = bids_made
    env["is_last"] = bids_made == bidders - 1
    env["is_first"] = bids_made == 0
    if choices and not CHOICES.issuperset(choices):
        raise TypeError(f"not a seat's fact: {', '.join(sorted(set(choices) - CHOICES))}")
    for name, default in _BIDDING:
        env[name] = choices[name] if name in choices else hand.get(name, default)
    env["call"] = ""  # the named call tried, set per bid like `bid`
    return env


def skip_env(
    hand: Mapping[str, Value],
    *,
    total: Number,
    is_dealer: bool,
    position: int,
    running: Mapping[str, Number] | None = None,
    **choices: Value,
) -> Env:
    """The `skip` context for one seat at its turn to bid (`decisions`, `skip`): is it excused?
    (`choices`: its facts of the hand's decisions, SEAT_FACTS, that the skip sees.)"""
    env = dict(hand)
    seat_env(env, total=total, is_dealer=is_dealer, position=position, running=running)
    _choices(env, _SKIP, choices)
    return env


def dealt_facts(row: Env, suit_counts: Sequence[int], trumps: int) -> Env:
    """What the `redeal` context reads of one seat's cards (written into `row`): `trumps`, the
    cards of the trump suit it holds (0 without trump), and the cards of its `longest` and
    `shortest` suit (of `suit_counts`, one count per suit of the deck: 0 for a void)."""
    row["trumps"] = trumps
    row["longest"] = max(suit_counts, default=0)
    row["shortest"] = min(suit_counts, default=0)
    return row


def declare_env(seat: Env, suit_counts: Sequence[int], trumps: int) -> Env:
    """The `declare` context for one seat (`decisions`, `declare`): the hand with its trump and
    the seat's own facts (`seat_env`), and its cards (`dealt_facts`)."""
    return dealt_facts(dict(seat), suit_counts, trumps)


def redeal_env(hand: Mapping[str, Value], rows: tuple[Env, ...]) -> Env:
    """The `redeal` context (`redeal.when`): the hand with its trump, and every playing seat's
    row (`seat_env` facts and `dealt_facts`), in bidding order, as `seats`."""
    env = dict(hand)
    env["seats"] = rows
    return env


def auction_env(hand: Mapping[str, Value]) -> Env:
    """The `auction` context: the hand once it is known who plays (`decisions.min`)."""
    return dict(hand)


def first_bidder_env(hand: Mapping[str, Value], *, total: Number, is_dealer: bool, running: Mapping[str, Number] | None = None) -> Env:
    """The `first_bidder` context for one seat (`bidding.first: {highest: ...}`): what is known of
    it before the bidding, with no place in the bidding order yet."""
    env = dict(hand)
    if running:
        env.update(running)
    env["total"] = total
    env["is_dealer"] = is_dealer
    return env


def first_lead_env(hand: Mapping[str, Value], row: Mapping[str, Value], **choices: Value) -> Env:
    """The `first_lead` context for one seat once every bid is made: the hand and the seat's row
    (`seat_row` with its bid), and those of its facts of the hand's decisions (`choices`) that
    the bidding sees and its row does not hold (the auction's winning bid)."""
    env = dict(hand)
    env.update(row)
    _choices(env, _FIRST_LEAD, choices)
    return env


def result_facts(env: Env, bid: int, tricks: int) -> Env:
    """A seat's result: its bid, its tricks, and what follows from them (written into `env`)."""
    env["bid"] = bid
    env["tricks"] = tricks
    env["made"] = tricks == bid
    env["over"] = tricks > bid
    env["under"] = tricks < bid
    env["diff"] = abs(bid - tricks)
    return env


def result_env(
    hand: Mapping[str, Value],
    bid: int,
    tricks: int,
    *,
    total: Number = 0,
    is_dealer: bool = False,
    position: int = 1,
    running: Mapping[str, Number] | None = None,
    into: Env | None = None,
    **choices: Value,
) -> Env:
    """The `scoring` context for one seat: the hand (with `trump`) plus this seat's result and
    its facts of the hand's decisions (`choices`, SEAT_FACTS: `call`, the named call it made, ""
    for a number bid; `blind`; `is_declarer` and `auction_bid`; ...).

    `into`, when given, is a copy of `hand` to refill (saves a copy per seat). The `bonus` and
    `running` contexts add `points` and `bonus` to it as they are computed.
    """
    env = dict(hand) if into is None else into
    seat_env(env, total=total, is_dealer=is_dealer, position=position, running=running)
    _choices(env, _SCORING, choices)
    return result_facts(env, bid, tricks)


def winner_env(game: Mapping[str, Value], total: Number, running: Mapping[str, Number] | None = None) -> Env:
    """The `winner` context for one player at the end of the game: the table, the final total
    and running values."""
    env = dict(game)
    env["total"] = total
    if running:
        env.update(running)
    return env


def running_start_env(players: int, lets: Mapping[str, Value] | None = None) -> Env:
    """The `running_start` context: what a running value's start reads."""
    return game_env(players, lets=lets)


# ---------------------------------------------------------------- the other seats (aggregates)


def seat_row(
    *,
    total: Number,
    is_dealer: bool,
    position: int,
    running: Mapping[str, Number] | None = None,
    bid: int | None = None,
    tricks: int | None = None,
    **choices: Value,
) -> Env:
    """One seat's public facts, as an aggregate reads them of every seat of a set: its total and
    running values, whether it deals, its place in the bidding order, its bid (once made) and
    result (once the hand is played), and its facts of the hand's decisions (`choices`) that a
    row holds by then (SEAT_FACTS' `row`: the auction's, always; the named call made and a
    blind bid once it has bid; the declaration with the results)."""
    row: Env = {}
    seat_env(row, total=total, is_dealer=is_dealer, position=position, running=running)
    if bid is None:
        _choices(row, _ROW_BEFORE_BID, choices)
    elif tricks is None:
        _choices(row, _ROW_BID, choices)
        row["bid"] = bid
    else:
        _choices(row, _ROW_RESULTS, choices)
        result_facts(row, bid, tricks)
    return row


#: The seat sets, as the seat at `index` of the bidding order sees them.
SET_NAMES = ("seats", "others", "earlier", "later")


def seat_sets(rows: tuple[Env, ...], index: int, names: tuple[str, ...] = SET_NAMES) -> Env:
    """The seat sets of the seat at `index` of `rows` (every playing seat's row, in bidding order,
    or in seat order at the end of the game): `seats` all of them, `others` all but this one,
    `earlier` those before it, `later` those after it. Only `names` are filled."""
    out: Env = {}
    for name in names:
        if name == "seats":
            out[name] = rows
        elif name == "others":
            out[name] = rows[:index] + rows[index + 1 :]
        elif name == "earlier":
            out[name] = rows[:index]
        elif name == "later":
            out[name] = rows[index + 1 :]
    return out
