"""The `heuristic` player: estimate tricks from the hand, bid for the best expected score, then
try to win tricks while it still needs them and to lose them once it has enough.

The estimate gives each card a chance to win a trick (higher cards of its suit still out,
trump or not, how many players hold cards), turns those chances into a distribution of trick
counts, and scores every legal bid with the ruleset's own scoring formula (and bonus).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from ..engine.cards import NO_TRUMP, SPECIAL, STRENGTH_OF, SUIT_OF, Card, strength, suit_number, suit_of, wild_held
from ..engine.game import by_suit
from ..engine.observer import SeatView
from ..engine.scoring import score_in_passes
from ..engine.table import TableFacts, table_facts
from ..engine.tricks import NoWinner, TrickPlay, hand_trick_play
from ..language.environment import bidding_env, result_env, result_facts, seat_row, seat_sets
from ..language.errors import EvalError
from ..language.program import Memo
from ..rules.ruleset import Ruleset

if TYPE_CHECKING:
    from .base import SeatWindow


def trick_distribution(chances: Sequence[float]) -> list[float]:
    """P(exactly t tricks) for t = 0..len(chances), each card winning independently."""
    dist = [1.0]
    for p in chances:
        q = 1 - p  # t tricks: t-1 before and this card wins, or t before and it loses
        dist = [a * p + b * q for a, b in zip([0.0, *dist], [*dist, 0.0])]
    return dist


@dataclass(eq=False)
class TableNotes:
    """What the heuristic works out once per ruleset and table size (kept per `TableFacts`)."""

    deck_size: int
    #: per card (indexed by it): how many cards of the deck of its suit rank above it, copies counted
    above: tuple[int, ...]
    #: what the scoring formulas (points, bonus) read besides the seat's result, bid and call
    score_names: tuple[str, ...]
    #: per (those names' values, call, bid, hand size + 1): each trick count's points + bonus
    rows: Memo = field(default_factory=lambda: Memo(8192))
    #: `hand_distribution`'s, by what it reads
    dists: Memo = field(default_factory=lambda: Memo(16384))


#: the notes per table, by the id of its `TableFacts` (kept with them, so an id is never reused
#: while its entry lives; forgotten all at once when many tables have come and gone)
_NOTES: dict[int, tuple[TableFacts, TableNotes]] = {}
_RESULT_NAMES = frozenset({"bid", "tricks", "made", "over", "under", "diff", "points", "call"})


def table_notes(rules: Ruleset, players: int) -> TableNotes:
    """The heuristic's notes of `rules` at a table of `players`, worked out once."""
    facts = table_facts(rules, players)
    kept = _NOTES.get(id(facts))
    if kept is not None:
        return kept[1]
    deck = facts.deck
    above = tuple(sum(1 for d in deck if d >> 4 == c >> 4 and d > c) for c in range((SPECIAL + 1) * 16))
    reads = [n for f in (rules.points, rules.bonus) if f is not None for n in f.key_names]
    names = tuple(dict.fromkeys(n for n in reads if n not in _RESULT_NAMES))
    notes = TableNotes(len(deck), above, names)
    if len(_NOTES) >= 256:
        _NOTES.clear()
    _NOTES[id(facts)] = (facts, notes)
    return notes


def set_aside(view: SeatView) -> tuple[Card, ...]:
    """The turned card when nobody holds it (turned up, set aside); a card turned before the deal
    and dealt as usual is somewhere unseen, and the dealer's shown card is in its hand."""
    if view.turn_up is None or view.turn_up_place not in ("table", ""):
        return ()
    return (view.turn_up,)


def known_held(view: SeatView) -> dict[int, tuple[Card, ...]]:
    """Cards every seat knows another seat holds: the dealer's last card, shown for trump
    (`trump.from: dealer_last_card`), until the dealer plays it."""
    if view.turn_up is None or view.turn_up_place != "dealer":
        return {}
    played = [c for t in view.tricks for s, c in t.cards if s == view.dealer] + [c for s, c in view.trick if s == view.dealer]
    return {} if view.turn_up in played else {view.dealer: (view.turn_up,)}


def seen_cards(view: SeatView) -> list[Card]:
    """Cards this seat has seen: in its hand, played, turned up, on foreheads, shown by the dealer."""
    seen = list(view.hand or ())
    if view.tricks:
        seen += [c for t in view.tricks for _, c in t.cards]
    seen += [c for _, c in view.trick]
    if view.turn_up is not None:
        seen += set_aside(view)
        for seat, cards in known_held(view).items():
            if seat != view.seat or view.hand is None:
                seen += cards
    for cards in view.others.values():
        seen += cards
    if view.rules.wild_cards:  # a played wild card is its special card, seen
        specials = view.rules.specials
        return [wild_held(c, specials) for c in seen]
    return seen


def unseen_cards(view: SeatView) -> list[Card]:
    """Cards this seat has not seen: not in its hand, not played, not turned up, not on foreheads
    (with copies of the deck, each copy counts: a card seen once may still be unseen)."""
    seen = Counter(seen_cards(view))
    unseen = []
    for c in table_facts(view.rules, view.players).deck:
        if seen[c]:
            seen[c] -= 1
        else:
            unseen.append(c)
    return unseen


def card_chances(view: SeatView) -> list[float]:
    """Each card's chance to take a trick, for the cards this seat holds (or may hold)."""
    playing = view.players - len(view.sitting_out)
    size = view.hand_size
    if view.hand is None:
        if view.others and size == 1:
            return [_hidden_single_card_chance(view, unseen_cards(view))]
        return [1.0 / playing] * size
    hand = view.hand
    play = hand_trick_play(view.rules, view.players, view.turn_up)
    if not play.standard:
        unseen = unseen_cards(view)
        return [_sampled_chance(view, play, c, unseen) for c in hand]
    return _standard_chances(view, table_notes(view.rules, view.players), sorted(seen_cards(view)), playing)


def _standard_chances(view: SeatView, notes: TableNotes, seen: list[Card], playing: int) -> list[float]:
    """`card_chances` with the standard trick rules (`seen`: the cards this seat has seen, sorted)."""
    size = view.hand_size
    trump = view.trump
    hand: tuple[Card, ...] = view.hand  # type: ignore[assignment]  # called only when the view holds the seat's hand (card_chances, trick_distribution test it)
    # the unseen cards of a suit above a card: the deck's, less the ones this seat has seen
    held_out = (playing - 1) * size / max(notes.deck_size - len(seen), 1)  # chance an unseen card is in an opponent's hand
    free = 1 - min(held_out, 1.0)  # chance an unseen card is not
    above = notes.above
    by_suit = [0] * (SPECIAL + 1)
    for c in hand:
        by_suit[c >> 4] += 1
    ruff_floor = 0.25 if size > 2 else 0.0
    follows = size == 1 and bool(view.bidding_order) and view.bidding_order[0] != view.seat
    chances = []
    for c in hand:
        suit = c >> 4
        p = free ** (above[c] - bisect_right(seen, c | 15) + bisect_right(seen, c))  # no higher unseen card out
        if suit == trump:
            if p < ruff_floor:
                p = ruff_floor  # a small trump can still ruff
        else:
            if trump != NO_TRUMP:
                p *= 0.9 if by_suit[suit] <= 2 else 0.75  # long side suits get ruffed
            if follows:
                p *= 1.0 / 4  # in a 1-card hand it wins only if its suit is led (or it leads)
        chances.append(p)  # within 0..1 by construction
    return chances


def hand_distribution(view: SeatView) -> list[float]:
    """`trick_distribution(card_chances(view))`: the chances of taking 0, 1, ... tricks. With the
    standard trick rules it is a function of the cards seen, the hand, the trump and the table,
    so it is remembered per table by those (read it, do not change it)."""
    if view.hand is None or not hand_trick_play(view.rules, view.players, view.turn_up).standard:
        return trick_distribution(card_chances(view))
    playing = view.players - len(view.sitting_out)
    notes = table_notes(view.rules, view.players)
    seen = sorted(seen_cards(view))
    size = view.hand_size
    follows = size == 1 and bool(view.bidding_order) and view.bidding_order[0] != view.seat
    key = (tuple(seen), view.hand, view.trump, playing, size, follows)
    dist = notes.dists.get(key)
    if dist is None:
        dist = notes.dists.keep(key, trick_distribution(_standard_chances(view, notes, seen, playing)))
    return dist  # type: ignore[no-any-return]  # the dists memo keeps trick distributions: lists of floats


def _sampled_chance(view: SeatView, play: TrickPlay, card: Card, unseen: list[Card], samples: int = 32) -> float:
    """How often `card` wins a trick of random unseen cards, by the ruleset's own trick rules
    (the card led, or played after a random number of others). Deterministic per card and hand."""
    playing = view.players - len(view.sitting_out)
    others = playing - 1
    if others < 1 or len(unseen) < others:
        return 1.0
    # the same hand is estimated again and again in look-ahead (mc's rollouts): remember it
    memo = _CHANCES.get(play)
    if memo is None:
        memo = _CHANCES[play] = Memo(8192)
    key = (view.hand_number, view.seat, card, view.trump, playing, samples, tuple(unseen))
    chance = memo.get(key)
    if chance is None:
        chance = memo.keep(key, _sample_chance(view, play, card, unseen, playing, samples))
    return chance  # type: ignore[no-any-return]  # the chances memo keeps floats


#: the chances worked out by `_sampled_chance`, per trick rules
_CHANCES: WeakKeyDictionary[TrickPlay, Memo] = WeakKeyDictionary()


def _sample_chance(view: SeatView, play: TrickPlay, card: Card, unseen: list[Card], playing: int, samples: int) -> float:
    others = playing - 1
    rng = random.Random(f"{view.hand_number}:{view.seat}:{card}")
    wins = 0
    for _ in range(samples):
        cards = rng.sample(unseen, others)
        at = rng.randrange(playing)
        trick = [(i + 1, c) for i, c in enumerate(cards)]
        trick.insert(at, (0, card))
        try:
            wins += play.winner(trick, view.trump) == 0
        except NoWinner:
            pass
    return wins / samples


def _hidden_single_card_chance(view: SeatView, unseen: list[Card]) -> float:
    """Forehead 1-card hand: over the cards this seat might hold, how often would it win?"""
    if not unseen:
        return 0.0
    order = list(view.bidding_order)  # the first bidder leads in these games
    wins = 0
    for mine in unseen:
        trick = [(s, mine if s == view.seat else view.others[s][0]) for s in order if s == view.seat or view.others.get(s)]
        try:
            wins += hand_trick_play(view.rules, view.players, view.turn_up).winner(trick, view.trump) == view.seat
        except NoWinner:
            pass
    return wins / len(unseen)


def expected_bid_value(view: SeatView, bid: int | str, dist: list[float], blind: bool | None = None) -> float:
    """The expected points (bonus included) of bidding `bid` (a number or a named call; `blind`:
    bid blind, by default as this seat chose), by the ruleset's own formulas."""
    return bid_values(view, (bid,), dist, blind)[0]


def bid_values(view: SeatView, bids: Sequence[int | str], dist: list[float], blind: bool | None = None) -> list[float]:
    """`expected_bid_value` of each of `bids`. A seat's points for a bid and a trick count are a
    pure function of what the formulas read, so each bid's row of points (one a trick count) is
    worked out once per table for the values read, and a bid's value is the row weighed by `dist`."""
    rules = view.rules
    seat = view.seat
    if blind is None:
        blind = bool(view.blind) and view.blind[seat]
    if any(f.seat_reads for f in (rules.points, rules.bonus) if f is not None):
        return [_value_with_the_table(view, b, dist, blind) for b in bids]
    notes = table_notes(rules, view.players)
    env = result_env(
        view.hand_env,
        0,
        0,
        total=view.totals[seat],
        is_dealer=seat == view.dealer,
        position=len(view.bids) + 1,
        running=view.running[seat],
        blind=blind,
    )
    key = tuple([env[n] for n in notes.score_names])
    rows = notes.rows
    count = len(dist)
    likely = [(t, p) for t, p in enumerate(dist) if p >= 1e-9]  # the trick counts worth weighing
    out = []
    for bid in bids:
        call = ""
        if type(bid) is str:
            call, bid = bid, dict(rules.calls)[bid]
        row_key = (key, call, bid, count)
        row = rows.get(row_key)
        if row is None:
            row = rows.keep(row_key, _points_row(rules, env, call, bid, count))  # type: ignore[arg-type]  # a bid that reaches the scoring is a number: a call counts as its number
        total = 0.0
        for t, p in likely:
            value = row[t]
            if value is not None:
                total += p * value
        out.append(total)
    return out


def _points_row(rules: Ruleset, env: dict, call: str, bid: int, count: int) -> tuple[float | None, ...]:
    """Points + bonus of bidding `bid` (`call`) and taking 0 .. count-1 tricks (None: the
    formulas cannot be evaluated there)."""
    env = dict(env, call=call)
    row: list[float | None] = []
    for tricks in range(count):
        result_facts(env, bid, tricks)
        try:
            points = rules.points.cached(env)  # type: ignore[union-attr]  # the bots score only with a ruleset that has a points formula
            env["points"] = points
            bonus = rules.bonus.cached(env) if rules.bonus is not None else 0
        except EvalError:
            row.append(None)
            continue
        row.append(float(points + bonus))  # type: ignore[arg-type,operator]  # the checker typed the points and bonus formulas numbers
    return tuple(row)


def _value_with_the_table(view: SeatView, bid: int | str, dist: list[float], blind: bool) -> float:
    """`expected_bid_value` when the scoring reads the other seats: each trick count scored with
    a guess at the whole table's rows."""
    rules = view.rules
    seat = view.seat
    call = ""
    if isinstance(bid, str):
        call, bid = bid, dict(rules.calls)[bid]
    total = 0.0
    for tricks, p in enumerate(dist):
        if p < 1e-9:
            continue
        env = result_env(
            view.hand_env,
            bid,
            tricks,
            total=view.totals[seat],
            is_dealer=seat == view.dealer,
            position=len(view.bids) + 1,
            running=view.running[seat],
            call=call,
            blind=blind,
        )
        rows, index = _guessed_rows(view, bid, tricks)
        env.update(seat_sets(rows, index))
        if rules.scores_in_passes:  # the bonus reads every seat's points: score the whole table
            try:
                points, bonus, _ = score_in_passes(rules, _table_envs(view, rows, index, env), rows)[index]
            except EvalError:
                continue
            total += p * float(points + bonus)
            continue
        try:
            points = rules.points.cached(env)  # type: ignore[assignment,union-attr]  # the checker typed the points formula a number
            env["points"] = points
            bonus = rules.bonus.cached(env) if rules.bonus is not None else 0  # type: ignore[assignment]  # the checker typed the bonus formula a number
        except EvalError:
            continue
        total += p * float(points + bonus)
    return total


def _guessed_rows(view: SeatView, bid: int, tricks: int) -> tuple[tuple[dict, ...], int]:
    """Every seat's row for scoring a bid before the hand is played, and this seat's index: the
    seats that have bid are guessed to make their bids, those still to bid to bid and take 0 (a
    rough guess, enough to weigh a bonus that depends on the others)."""
    made = dict(view.bids)
    rows = []
    for position, s in enumerate(view.bidding_order, 1):
        b, t = (bid, tricks) if s == view.seat else (made.get(s, 0), made.get(s, 0))
        rows.append(seat_row(total=view.totals[s], is_dealer=s == view.dealer, position=position, running=view.running[s], bid=b, tricks=t))
    return tuple(rows), view.bidding_order.index(view.seat)


def _table_envs(view: SeatView, rows: tuple[dict, ...], index: int, mine: dict) -> list[dict]:
    """The scoring env of every seat of the guessed table (`mine` at `index`)."""
    envs = []
    for i, (s, row) in enumerate(zip(view.bidding_order, rows)):
        if i == index:
            envs.append(mine)
            continue
        env = result_env(
            view.hand_env, row["bid"], row["tricks"], total=view.totals[s], is_dealer=row["is_dealer"], position=i + 1, running=view.running[s]
        )
        env.update(seat_sets(rows, i))
        envs.append(env)
    return envs


def lowest_wins(view: SeatView) -> bool:
    """True when the ruleset's first ranking key prefers low values (e.g. `lowest total`)."""
    return bool(view.rules.rank) and not view.rules.rank[0].highest


def choose_bid(view: SeatView, legal: Sequence[int | str]) -> int | str:
    """The legal bid (or named call) of the best expected score, by the estimate of the hand."""
    dist = hand_distribution(view)
    sign = -1.0 if lowest_wins(view) else 1.0
    calls = dict(view.rules.calls)
    mean = _mean(dist)
    values = bid_values(view, legal, dist)
    best = max(range(len(legal)), key=lambda i: (sign * values[i], -abs(calls.get(legal[i], legal[i]) - mean)))  # type: ignore[arg-type]  # a legal bid is a number or a call's name: calls.get gives the number either way
    return legal[best]


def _all_bids(view: SeatView) -> list[int | str]:
    return [*range(view.hand_size + 1), *(name for name, n in view.rules.calls if n <= view.hand_size)]


def choose_trump(view: SeatView, options: Sequence[str]) -> str:
    """The trump (or `none`) under which this seat expects to score best: with its bid, when it
    has bid already; otherwise with the best bid it could make under that trump."""
    sign = -1.0 if lowest_wins(view) else 1.0
    own = [b for s, b in view.bids if s == view.seat]
    call = view.calls[view.seat] if view.calls else ""

    def value(option: str) -> float:
        trump = NO_TRUMP if option == "none" else suit_number(option)
        v = replace(view, trump=trump, hand_env=dict(view.hand_env, trump=option))
        dist = hand_distribution(v)
        if own:
            return sign * expected_bid_value(v, call or own[0], dist)
        return max(sign * expected_bid_value(v, b, dist) for b in _all_bids(v))

    return max(options, key=value)


def allowed_bids(view: SeatView, blind: bool) -> list[int | str]:
    """The bids (numbers and named calls) the ruleset's limits would allow this seat at its turn
    if it bid blind (`blind`) or after looking, by the ruleset's own formulas (`bidding.allowed`
    and the hand kind's `allowed`) in the one bidding environment."""
    rules = view.rules
    tests = [f for f in (rules.allowed, rules.kinds[view.kind].allowed) if f is not None]
    bids = _all_bids(view)
    if not tests:
        return bids
    seat = view.seat
    made = len(view.bids)
    env = bidding_env(
        view.hand_env,
        total=view.totals[seat],
        is_dealer=seat == view.dealer,
        bids_made=made,
        bids_so_far=sum(b for _, b in view.bids),
        bidders=len(view.bidding_order),
        running=view.running[seat],
        blind=blind,
    )
    if any(f.seat_reads for f in tests):
        by_seat = dict(view.bids)
        rows = []
        for position, s in enumerate(view.bidding_order, 1):
            bid = by_seat.get(s)
            call = view.calls[s] if view.calls and bid is not None else ""
            was_blind = bool(view.blind) and view.blind[s] and bid is not None
            rows.append(
                seat_row(
                    total=view.totals[s], is_dealer=s == view.dealer, position=position, running=view.running[s], bid=bid, call=call, blind=was_blind
                )
            )
        env.update(seat_sets(tuple(rows), view.bidding_order.index(seat)))
    calls = dict(rules.calls)
    out: list[int | str] = []
    for b in bids:
        env["bid"], env["call"] = (calls[b], b) if isinstance(b, str) else (b, "")
        try:
            if all(f(env) for f in tests):
                out.append(b)
        except EvalError:
            continue
    return out


def choose_auction(view: SeatView, options: Sequence[str]) -> str:
    """In an auction: the lowest bid that outbids, in the suit (or with the trump as it stands,
    in an auction of numbers) where this seat expects the most tricks, when it expects at least
    that many tricks there; otherwise a named call that makes a bid (a dash) when the tricks it
    expects with the trump as it stands round to that bid, else `pass`. It makes no call on
    the highest bid (a double)."""
    calls = {c.name: c.bid for c in view.rules.auction.calls} if view.rules.auction is not None else {}
    bid = _auction_bid(view, [o for o in options if o not in calls])
    if bid != "pass":
        return bid
    made = [name for name in options if calls.get(name) is not None]
    if made:
        here = _mean(hand_distribution(view))
        for name in made:
            if abs(here - calls[name]) < 0.5:  # type: ignore[operator]  # a call that makes a bid
                return name
    return "pass"


def _auction_bid(view: SeatView, options: Sequence[str]) -> str:
    """The heuristic's bid among the auction's `pass` and bids (see `choose_auction`)."""
    expected: dict[str | None, float] = {}
    for option in options:
        parts = option.split()
        if len(parts) != 2 or parts[1] in expected:
            continue
        trump = NO_TRUMP if parts[1] == "none" else suit_number(parts[1])
        v = replace(view, trump=trump, hand_env=dict(view.hand_env, trump=parts[1]))
        expected[parts[1]] = _mean(hand_distribution(v))
    if not expected:  # numbers only: the trump as it stands (the declarer names it later)
        expected[None] = _mean(hand_distribution(view))
    best = max(expected.values())
    for option in options:  # lowest first
        parts = option.split()
        if parts[0] == "pass":
            continue
        suit = parts[1] if len(parts) == 2 else None
        if int(parts[0]) <= best and expected.get(suit) == best:
            return option
    return "pass"


def choose_blind(view: SeatView, rng: random.Random, samples: int = 16) -> str:
    """`blind` only when bidding blind pays on expectation: the best blind bid the limits allow,
    scored on what this seat can expect of an unseen hand, must beat the best bid it could choose
    after looking (the average over a few hands dealt at random from the cards it has not seen)
    by more than that average's own sampling error. A seat far behind (the leader ahead by more
    than this hand could make up on expectation) takes the risk when blind is worth at least
    about as much as looking."""
    sign = -1.0 if lowest_wins(view) else 1.0
    unseen = unseen_cards(view)
    size = view.hand_size
    if len(unseen) < size:
        return "look"
    blind_bids = allowed_bids(view, True)
    look_bids = allowed_bids(view, False)
    if not blind_bids or not look_bids:
        return "look" if look_bids else "blind"
    dists = []
    looks = []
    for _ in range(samples):
        v = replace(view, hand=tuple(rng.sample(unseen, size)))
        dist = hand_distribution(v)
        dists.append(dist)
        looks.append(max(sign * expected_bid_value(v, b, dist, blind=False) for b in look_bids))
    average = [sum(d[t] for d in dists) / samples for t in range(size + 1)]
    blind = max(sign * expected_bid_value(view, b, average, blind=True) for b in blind_bids)
    look = sum(looks) / samples
    error = (sum((x - look) ** 2 for x in looks) / (samples - 1)) ** 0.5 / samples**0.5 if samples > 1 else 0.0
    seat = view.seat
    best = min(view.totals) if lowest_wins(view) else max(view.totals)
    behind = sign * (best - view.totals[seat])
    if behind > 0 and behind > abs(look) * 2:
        return "blind" if blind >= look - error else "look"
    return "blind" if blind > look + error else "look"


def _mean(dist: list[float]) -> float:
    return sum(t * p for t, p in enumerate(dist))


def choose_card(
    legal: Sequence[Card],
    trick: Sequence[tuple[int, Card]],
    trump: int,
    need: int,
    last_to_play: bool,
    play: TrickPlay | None = None,
) -> Card:
    """Win while tricks are still needed (cheaply), otherwise duck; shed high cards when safe.

    With trick rules other than the standard ones (`play`), whether a card wins is asked of
    the ruleset's own `trick.winner` rules, and cards are ranked by `power`."""
    if play is not None and not play.standard:
        return _choose_by_rules(legal, trick, trump, need, last_to_play, play)
    if len(legal) == 1:
        return legal[0]
    # the keys (suit != trump, strength) and (suit == trump, strength), looked up by the card
    side_first, trump_first = _CARD_KEYS[trump + 1]
    if not trick:  # leading
        if need > 0:
            return max(legal, key=side_first.__getitem__)  # the highest side-suit card first
        return min(legal, key=trump_first.__getitem__)
    best = trick[0][1]  # the card winning so far, and its suit
    led = best >> 4
    for _, c in trick:
        suit = c >> 4
        if (suit == led and c > best) or (suit == trump and led != trump):
            best, led = c, suit
    if led == trump:
        winners = [c for c in legal if c > best and c >> 4 == led]
        losers = [c for c in legal if c <= best or c >> 4 != led] if winners else legal
    else:
        winners = [c for c in legal if (c > best and c >> 4 == led) or c >> 4 == trump]
        losers = [c for c in legal if (c <= best or c >> 4 != led) and c >> 4 != trump] if winners else legal
    if need > 0 and winners:
        pick = min if last_to_play else max
        return pick(winners, key=trump_first.__getitem__)
    if losers:
        if need > 0:
            return min(losers, key=trump_first.__getitem__)
        return max(losers, key=side_first.__getitem__)  # duck with the highest safe card
    return max(winners, key=STRENGTH_OF.__getitem__)  # must win: spend the highest


def _card_keys(trump: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    cards = range((SPECIAL + 1) * 16)
    return (
        tuple((SUIT_OF[c] != trump) * 16 + STRENGTH_OF[c] for c in cards),
        tuple((SUIT_OF[c] == trump) * 16 + STRENGTH_OF[c] for c in cards),
    )


#: choose_card's sort keys per trump (indexed by trump + 1: no trump first)
_CARD_KEYS = [_card_keys(trump) for trump in range(NO_TRUMP, 4)]


def power(c: Card, trump: int, play: TrickPlay) -> tuple[int, int]:
    """How strong a card is by the trick rules: a special ranks by the first `trick.winner` rule
    that names it (before the trump rule: above every trump; after it: below every card); a
    trump special or a super trump above every trump."""
    found = play.special_power.get(c)  # a special card, or a super trump
    if found is not None:
        return found
    if suit_of(c) != SPECIAL:
        return (1 if suit_of(c) == trump else 0, strength(c))
    return (-1, 0)


def _choose_by_rules(legal: Sequence[Card], trick: Sequence[tuple[int, Card]], trump: int, need: int, last_to_play: bool, play: TrickPlay) -> Card:
    if not trick:
        if need > 0:
            return max(legal, key=lambda c: power(c, trump, play))
        return min(legal, key=lambda c: power(c, trump, play))
    me = -1  # a seat number no one has

    def wins(c: Card) -> bool:
        try:
            return play.winner([*trick, (me, c)], trump) == me
        except NoWinner:
            return False

    winners = [c for c in legal if wins(c)]
    losers = [c for c in legal if c not in winners]
    key = lambda c: power(c, trump, play)  # noqa: E731
    if need > 0 and winners:
        return (min if last_to_play else max)(winners, key=key)
    if losers:
        return (min if need > 0 else max)(losers, key=key)
    return max(winners, key=key)


class HeuristicPlayer:
    """Bids for the best expected score of its estimate; plays to make exactly its bid."""

    kind = "heuristic"
    observes = True
    quick = True  # answers at once (players/base.py `quick`)

    def act(self, view: SeatView | None, legal: list[int] | None, rng: random.Random) -> int | None:
        assert view is not None
        if view.phase == "decision":
            if view.decision == "trump":
                return choose_trump(view, legal or ["none"])  # type: ignore[return-value,arg-type]  # a decision's options are names; the legal actions are declared cards and bids
            if view.decision == "auction":
                return choose_auction(view, legal or ["pass"])  # type: ignore[return-value,arg-type]  # a decision's options are names; the legal actions are declared cards and bids
            if view.decision == "declare":
                return "no"  # type: ignore[return-value]  # declares nothing (always an option): its estimate cannot weigh a declaration
            return choose_blind(view, rng)  # type: ignore[return-value]  # an Action is an option's name here
        if view.phase == "bidding":
            return choose_bid(view, legal or [0])  # type: ignore[return-value]  # an Action is a bid here: a number or a call's name
        if legal is None:
            return None  # a card this seat cannot see
        bid = next(b for s, b in view.bids if s == view.seat)
        need = bid - view.taken[view.seat]
        playing = view.players - len(view.sitting_out)
        return choose_card(
            legal, view.trick, view.trump, need, len(view.trick) == playing - 1, hand_trick_play(view.rules, view.players, view.turn_up)
        )

    def seat_chooser(self, window: SeatWindow, rng: random.Random) -> Callable[[list], int | str]:
        """The same choices as `act`, as one call given the legal actions (for playing games out
        inside the engine's loop, `play_out`): bids and decisions from the seat's whole view, as
        `decide` gives it; cards from the few facts of the trick the card play reads."""
        act = self.act
        standard = window.tricks_play.standard
        trick_facts = window.trick_facts

        def choose(legal: list) -> int | str:
            facts = trick_facts()
            if facts is None:  # bids and decisions
                view = window.view()
                return act(view, list(view.legal) if view.legal is not None else None, rng)  # type: ignore[return-value]  # an Action is a card or None here
            trick, trump, need, playing = facts
            if standard:
                return choose_card(legal, trick, trump, need, len(trick) == playing - 1)
            if SUIT_OF[legal[-1]] == SPECIAL:
                legal = by_suit(legal)  # ties go to the first card, in the order the view gives them
            return choose_card(legal, trick, trump, need, len(trick) == playing - 1, window.tricks_play)  # this hand's (super trumps)

        return choose
