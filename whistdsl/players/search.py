"""The `search` player: determinized search, with an exact solver of the hand's end.

For each decision it samples deals of the cards it cannot see, consistent with its seat's view
(players/mc.py's `DealSampler`: cards seen, voids shown), keeping each with the chance that the
seats who have bid would have bid so with those cards (`LikelyDeals`). On every sampled deal,
with every hand open, it judges each candidate on a flat position (`Position`: hands as lists
by suit, as the compiled engine keeps them):

- a card, with 3 cards or fewer left in hand, exactly: max^n search (`solve`), every seat
  playing for its own best score by the ruleset's scoring, ties settled against this seat
  (paranoid), with a transposition table at trick boundaries and cards of one suit with
  nothing between them merged;
- a card earlier in the hand, by playing the hand out with every seat trying to make its bid
  (`play_on`: the heuristic's card rule, `standard_card` on the standard trick rules);
- a bid: the seats after this one bid by an estimate of their sampled hands (`TrickEstimate`,
  within the ruleset's own bidding limits), and the hand is played out with random cards, a
  measure of how many tricks the cards take that measured better than play-outs that try to
  make the bids (benchmarks/bench_search.py `--halves bids`).

The score of a finished hand is the ruleset's own (`Scorer`, the engine's `Game.points_if`:
points and bonus by the formulas, for the bids and tricks of every seat), so nil bids, named
calls, bonuses, running values and scores that read the table are the ruleset's. Every
candidate is judged on the same deals (common random numbers), and candidates clearly behind
the best are dropped as the deals come in (`Candidates.prune`).

How much it thinks is a fixed amount of work, so a game is the same for a seed: `samples`
deals a decision, or `think` seconds a decision turned into work units (cards played in the
search) by a measurement made once per process and table (`units_per_second`: bids, cards
played out and cards searched exactly apart, on decisions spread over a game of the ruleset
when it is known).
What it may see is only its `SeatView`: the deals are guessed from it alone. Decisions other
than bids (trump, blind, auction) are the heuristic's, and so are bids whose cards or whose
others' bids are not seen.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence

from ..engine.cards import SPECIAL, SUIT_OF, Card, wild_held
from ..engine.game import BIDDING, PLAY, Game, RuleError, look_ahead
from ..engine.observer import SeatView
from ..engine.tricks import NoWinner, TrickPlay, legal_cards, trick_play, trick_winner
from .heuristic import HeuristicPlayer, choose_bid, choose_card, hand_distribution, lowest_wins, table_notes
from .mc import SAMPLE, DealSampler, unsampled_answer, with_sampled_trump
from .mc import rollout as rollout_in_game

# ---------------------------------------------------------------- the flat position


class Scorer:
    """Each seat's score of a finished hand, by the ruleset's formulas, from the bids and the
    tricks taken: the hand of `game` (a private look-ahead position) scored by the engine
    itself, once per distinct outcome. Scores are signed so that more is better (`sign` -1
    where the lowest total wins); None where the rules cannot score the outcome."""

    def __init__(self, game: Game, sign: float):
        self.game = game
        self.sign = sign
        self.memo: dict[tuple, tuple[float, ...] | None] = {}

    def values(self, bids: Sequence[int], taken: Sequence[int], calls: Sequence[str] = ()) -> tuple[float, ...] | None:
        """Every seat's signed score when the seats bid `bids` (and made the named `calls`) and
        took `taken`."""
        key = (*bids, *taken, *calls)
        got = self.memo.get(key, False)
        if got is not False:
            return got  # type: ignore[return-value]  # the memo's False marks a value not yet worked out, tested just above
        try:
            sign = self.sign
            out: tuple[float, ...] | None = tuple(sign * float(p) for p in self.game.points_if(taken, bids, calls))
        except (RuleError, ArithmeticError, ValueError):
            out = None
        self.memo[key] = out
        return out


class Position:
    """The play of one hand with every hand open, kept flat: each seat's cards as lists by suit,
    the trick in play as (seat, card) pairs, the leader, the tricks taken, the bids. The fixed
    facts (seat orders, trump, trick rules, scorer) are shared by every copy."""

    __slots__ = ("hands", "trick", "leader", "taken", "bids", "facts")

    def __init__(self, hands: list[list[list[Card]]], trick: list, leader: int, taken: list[int], bids: list[int], facts: HandFacts):
        self.hands, self.trick, self.leader, self.taken, self.bids, self.facts = hands, trick, leader, taken, bids, facts

    def copy(self) -> Position:
        return Position([[list(s) for s in h] for h in self.hands], list(self.trick), self.leader, list(self.taken), self.bids, self.facts)

    def to_act(self) -> int:
        return self.facts.play_orders[self.leader][len(self.trick)]

    def legal(self, seat: int) -> list[Card]:
        f = self.facts
        if f.play is None:
            return legal_cards(self.hands[seat], self.trick, f.trump, f.when_void)
        return f.play.legal(self.hands[seat], self.trick, f.trump, f.when_void)

    def play(self, card: Card) -> None:
        """Play `card` (legal) for the seat to act; at a trick's end, its winner leads."""
        f = self.facts
        seat = f.play_orders[self.leader][len(self.trick)]
        held = card if f.specials is None else wild_held(card, f.specials)
        self.hands[seat][SUIT_OF[held]].remove(held)
        self.trick.append((seat, card))
        if len(self.trick) == f.playing:
            win = f.winner(self.trick)
            self.taken[win] += 1
            self.leader = win
            self.trick = []


class HandFacts:
    """What stays the same while one hand is searched."""

    __slots__ = ("play_orders", "trump", "when_void", "play", "playing", "scorer", "winner", "calls", "specials")

    def __init__(self, game: Game, scorer: Scorer, trump: int):
        self.play_orders = game.play_orders
        self.trump = trump
        self.when_void = game.rules.when_void
        play: TrickPlay = game.tricks_play
        self.play = None if play.standard else play
        self.playing = len(self.play_orders[game.leader if game.leader is not None else game.bidding_order[0]])  # type: ignore[redundant-expr]  # seats in a trick; a guard: State declares the leader an int
        self.scorer = scorer
        self.calls = tuple(game.calls) if any(game.calls) else ()  # the named calls made, for the scoring
        #: the deck's specials when some are wild (a played wild card leaves its special card's place), else None
        self.specials = game.rules.specials if game.rules.wild_cards else None
        if play.standard:
            self.winner: Callable[[list], int] = lambda trick, t=trump: trick_winner(trick, t)  # type: ignore[misc]  # trump bound as a default: the lambda's type is the annotated Callable
        else:
            self.winner = lambda trick, t=trump, w=play.winner: w(trick, t)  # type: ignore[misc]  # trump and the winner bound as defaults: the lambda's type is the annotated Callable


def flat_hands(hands: Mapping[int, Sequence[Card]], players: int, specials: bool) -> list[list[list[Card]]]:
    """Every seat's cards as lists by suit, each high to low (sitting-out seats hold none)."""
    out = []
    for seat in range(players):
        h: list[list[Card]] = [[] for _ in range(SPECIAL + 1 if specials else SPECIAL)]
        for c in hands.get(seat, ()):
            h[SUIT_OF[c]].append(c)
        for s in h:
            s.sort(reverse=True)
        out.append(h)
    return out


def view_position(view: SeatView, hands: Mapping[int, Sequence[Card]], sign: float, rng: random.Random) -> Position:
    """The flat position of the hand in play as `view` shows it, with every playing seat holding
    its cards in `hands` (a guess at what the seat cannot see): the trick in progress, its
    leader, the tricks taken and the bids are the view's; the seat orders, trump, trick rules and
    scoring those of the look-ahead game made of the view and `hands` (`look_ahead`; its
    RuleError or ValueError passes on). Scores signed by `sign`, as `Scorer`'s."""
    game = look_ahead(view, hands, rng)
    facts = HandFacts(game, Scorer(game, sign), game.trump)
    bids = [b if b is not None else 0 for b in game.bids]
    return Position(flat_hands(hands, view.players, bool(view.rules.specials)), list(view.trick), view.leader, list(view.taken), bids, facts)  # type: ignore[arg-type]  # the search looks at positions in the play, where the view has a leader


def standard_card(h: list[list[Card]], trick: list[tuple[int, Card]], trump: int, when_void: str, need: int, last: bool) -> Card:  # noqa: C901 the bot's card rules in order, in its inner loop
    """The heuristic's card (players/heuristic.py `choose_card`) under the standard trick rules,
    read off the hand's lists by suit (each high to low) without building the legal cards when
    the seat leads or follows suit: the rollouts' hot path. A seat void in the led suit goes
    through `choose_card` itself."""
    if not trick:
        best = -1
        if need > 0:  # the highest side-suit card, else the highest trump
            for s in (0, 1, 2, 3):
                if s != trump and h[s]:
                    c = h[s][0]
                    if best < 0 or (c & 15) > (best & 15):
                        best = c
            return best if best >= 0 else h[trump][0]
        for s in (0, 1, 2, 3):  # the lowest side-suit card, else the lowest trump
            if s != trump and h[s]:
                c = h[s][-1]
                if best < 0 or (c & 15) < (best & 15):
                    best = c
        return best if best >= 0 else h[trump][-1]
    led = trick[0][1] >> 4
    cards = h[led]
    if not cards:  # void: the ruleset's rule, then the heuristic
        return choose_card(legal_cards(h, trick, trump, when_void), trick, trump, need, last)
    if len(cards) == 1:
        return cards[0]
    best = trick[0][1]
    win_suit = led
    for _, c in trick:
        s = c >> 4
        if (s == win_suit and c > best) or (s == trump and win_suit != trump):
            best, win_suit = c, s
    if win_suit != led:  # trumped: no card of the led suit wins
        return cards[-1] if need > 0 else cards[0]
    if cards[0] > best:  # some win
        if need > 0:
            if not last:
                return cards[0]
            for c in reversed(cards):  # the cheapest winner
                if c > best:
                    return c
        if cards[-1] > best:  # every card wins: spend the highest
            return cards[0]
    if need > 0:
        return cards[-1]
    for c in cards:  # the highest card that loses
        if c <= best:
            return c
    return cards[0]  # not reached: a losing card exists


def play_on(pos: Position, budget: list[int], chance: Callable[[], float] | None = None) -> tuple[float, ...] | None:
    """The hand's scores after playing `pos` on to its end with the heuristic's cards (with
    `chance`, a generator's `random`: every seat plays uniformly random cards).
    `budget[0]` counts the work done (cards played)."""
    hands, facts = pos.hands, pos.facts
    orders, trump, when_void, play, playing = facts.play_orders, facts.trump, facts.when_void, facts.play, facts.playing
    trick, leader, taken, bids = pos.trick, pos.leader, pos.taken, pos.bids
    try:
        while True:
            if not trick and not any(hands[leader]):
                break
            seats = orders[leader]
            for seat in seats[len(trick) :]:
                h = hands[seat]
                if play is None and chance is None:
                    c = standard_card(h, trick, trump, when_void, bids[seat] - taken[seat], len(trick) == playing - 1)
                else:
                    legal = legal_cards(h, trick, trump, when_void) if play is None else play.legal(h, trick, trump, when_void)
                    if len(legal) == 1:
                        c = legal[0]
                    elif chance is not None:
                        c = legal[int(chance() * len(legal))]
                    elif play is None:
                        c = standard_card(h, trick, trump, when_void, bids[seat] - taken[seat], len(trick) == playing - 1)
                    else:
                        c = choose_card(legal, trick, trump, bids[seat] - taken[seat], len(trick) == playing - 1, play)
                held = c if facts.specials is None else wild_held(c, facts.specials)
                h[SUIT_OF[held]].remove(held)
                trick.append((seat, c))
            budget[0] += playing
            win = facts.winner(trick)
            taken[win] += 1
            leader = win
            trick = []
    except NoWinner:
        return None
    return facts.scorer.values(bids, taken, facts.calls)


def distinct_cards(legal: Sequence[Card], pos: Position) -> list[Card]:
    """`legal` with cards that are worth the same merged: of a run of one suit's cards held by
    one seat with no card between them still held by anyone, only the highest (specials and
    cards of decks with copies are never merged)."""
    if len(legal) <= 1 or pos.facts.play is not None:
        return list(legal)
    out: list[Card] = []
    prev = -1
    for c in sorted(legal, reverse=True):
        if prev >= 0 and SUIT_OF[c] == SUIT_OF[prev]:
            suit = SUIT_OF[c]
            between = any(c < x < prev for h in pos.hands for x in h[suit]) or any(c < x < prev for _, x in pos.trick)
            if not between:
                prev = c
                continue
        out.append(c)
        prev = c
    return out


def solve(pos: Position, budget: list[int], me: int | None = None) -> tuple[float, ...] | None:
    """The exact value of the rest of the hand (max^n: each seat plays for its own score; of
    cards worth the same to the seat playing, the one worst for the first seat to act, then the
    smallest value vector, so the answer does not depend on the order cards are tried in).
    `me`: the seat the ties go against (by default the seat to act)."""
    if me is None:
        me = pos.to_act()
    table: dict = {}
    try:
        return _solve(pos, me, table, budget)
    except NoWinner:
        return None


def _solve(pos: Position, me: int, table: dict, budget: list[int]) -> tuple[float, ...] | None:
    trick = pos.trick
    facts = pos.facts
    key = None
    if not trick:
        hands = pos.hands
        leader = pos.leader
        left = sum(len(s) for s in hands[leader])
        if left == 0 or (left == 1 and facts.specials is None):  # the last trick plays itself (a wild card's suit is still to be said)
            if left == 1:
                last = [(seat, next(c for s in hands[seat] for c in s)) for seat in facts.play_orders[leader]]
                won = facts.winner(last)
                budget[0] += facts.playing
                pos.taken[won] += 1
                value = facts.scorer.values(pos.bids, pos.taken, facts.calls)
                pos.taken[won] -= 1
                return value
            return facts.scorer.values(pos.bids, pos.taken, facts.calls)
        if left > 2:  # transpositions happen only with more tricks left
            key = (leader, tuple(pos.taken), tuple(tuple(s) for h in hands for s in h))
            if key in table:
                return table[key]  # type: ignore[no-any-return]  # the transposition table keeps the values of positions
    seat = facts.play_orders[pos.leader][len(trick)]
    best: tuple[float, ...] | None = None
    hand = pos.hands[seat]
    for c in distinct_cards(pos.legal(seat), pos):
        budget[0] += NODE_UNITS
        # play c, search, take it back
        saved_leader = pos.leader
        held = c if facts.specials is None else wild_held(c, facts.specials)
        cards = hand[SUIT_OF[held]]
        at = cards.index(held)
        del cards[at]
        pos.trick = trick + [(seat, c)]
        won = -1
        if len(pos.trick) == facts.playing:
            won = facts.winner(pos.trick)
            pos.taken[won] += 1
            pos.leader = won
            pos.trick = []
        value = _solve(pos, me, table, budget)
        if won >= 0:
            pos.taken[won] -= 1
        pos.trick, pos.leader = trick, saved_leader
        cards.insert(at, held)
        if value is None:
            continue
        if best is None or value[seat] > best[seat] or (value[seat] == best[seat] and (value[me], value) < (best[me], best)):
            best = value  # of equal ones: the worst for `me`, then the first of the vectors in order
    if key is not None:
        table[key] = best
    return best


# ---------------------------------------------------------------- thinking time

#: the kinds of decision whose work is measured apart, in the order of a record's `work`: a bid,
#: a card judged by play-outs, a card judged by the exact search (a unit of each costs its own time)
KINDS = ("bid", "card", "exact")

#: what `think` seconds buy, measured once per process: work units a second, for each of KINDS
_RATES: dict[str, float] = {}

#: the same measured on a ruleset's own table: (the rules, kept so their id is not reused, the rates)
_TABLE_RATES: dict[tuple[int, int], tuple[object, dict[str, float]]] = {}

#: CPU seconds of measured decisions enough for a kind's rate, and the most a measurement plays
MEASURE_SECONDS, MEASURE_MOST = 0.3, 2.0

#: a measurement spends at most 1/MEASURE_HANDS of MEASURE_SECONDS on a kind in one hand (the
#: heuristic makes that hand's other decisions of the kind), so its rate is of the mix of hand
#: sizes a game has, not only of its first hand's; and it plays at most MEASURE_HANDS_MOST hands
MEASURE_HANDS, MEASURE_HANDS_MOST = 4, 40


def _measure(rules, players: int, seeds: range, spent: dict[str, float], rates: dict[str, list[float]]) -> None:
    """Play games of `rules` at `players`, one for each of `seeds` while the time lasts, a
    fixed-deals search player deciding at every seat until it has spent a kind's share of the
    hand (the heuristic decides the rest), adding each kind's CPU seconds to `spent` and each
    decision's work units a second to `rates`, until every kind has MEASURE_SECONDS, or
    MEASURE_MOST seconds are spent, or MEASURE_HANDS_MOST hands are played."""
    from .base import decide
    from .heuristic import HeuristicPlayer

    player, quick = SearchPlayer(samples=24), HeuristicPlayer()
    share, hands = MEASURE_SECONDS / MEASURE_HANDS, 0
    for seed in seeds:
        game = Game(rules, players=players, seed=seed)
        hand = None
        try:
            while not game.over:
                if game.hand_number != hand:
                    hand, here, hands = game.hand_number, dict.fromkeys(KINDS, 0.0), hands + 1
                    if hands > MEASURE_HANDS_MOST:
                        return
                view = game.view(game.seat_to_act)
                legal = list(view.legal) if view.legal is not None else None
                which = player.kind_of(view)
                if here[which] >= share or unsampled_answer(view, legal, random.Random(0)) is not SAMPLE:
                    game.act(decide(game, quick))
                    continue
                before, start = player.work, time.process_time()
                game.act(decide(game, player))
                took = time.process_time() - start
                spent[which] += took
                here[which] += took
                if took > 0:
                    rates[which].append((player.work - before) / took)
                if min(spent.values()) >= MEASURE_SECONDS or sum(spent.values()) >= MEASURE_MOST:
                    return
        except RuleError:  # the game itself will say it, in its turn; the measure goes on with the next
            continue


def units_per_second(kind: str, rules=None, players: int | None = None) -> float:
    """Work units (cards played in the search) this process does a second in deciding a bid
    (`kind` "bid"), a card by play-outs ("card") or a card by the exact search ("exact"),
    measured once by the process's CPU clock: on the hands of `rules` at `players` when given
    (a kind the ruleset never searches takes the general rate), else on OpenSpiel's game (a
    bundled ruleset) of 6 to 8 cards. The rate is the median of the measured decisions' (not
    their total work over their total time, which the slow decisions pull down): `--think`
    promises the median decision its seconds, and a decision of the median rate takes them."""
    if rules is not None and players is not None:
        key = (id(rules), players)
        if key not in _TABLE_RATES:
            spent = dict.fromkeys(KINDS, 0.0)
            rates: dict[str, list[float]] = {k: [] for k in KINDS}
            _measure(rules, players, range(40), spent, rates)
            _TABLE_RATES[key] = (rules, {k: statistics.median(rates[k]) for k in KINDS if spent[k] >= MEASURE_SECONDS / 3 and rates[k]})
        table = _TABLE_RATES[key][1]
        if kind in table:
            return table[kind]
    if not _RATES:
        from ..rules.lint import load_rules

        spent = dict.fromkeys(KINDS, 0.0)
        rates = {k: [] for k in KINDS}
        for hand in range(40):
            _measure(load_rules("openspiel", settings=[f"tricks={6 + hand % 3}"]), 4, range(hand, hand + 1), spent, rates)
            if min(spent.values()) >= MEASURE_SECONDS:
                break
        # (every kind comes up in OpenSpiel's game; 1000 units a second stands in if one did not)
        _RATES.update({k: statistics.median(rates[k]) if rates[k] else 1000.0 for k in KINDS})
    return _RATES[kind]


def work_units(think: float, rules=None, players: int | None = None) -> tuple[int, ...]:
    """The work of `think` seconds a decision on this machine (at the table of `rules` and
    `players` when given): the units of each of KINDS."""
    return tuple(max(1, int(think * units_per_second(k, rules, players))) for k in KINDS)


# ---------------------------------------------------------------- the player

#: seconds a decision when nothing else is said
DEFAULT_THINK = 0.05

#: work units a card tried in the exact search costs (a card played on costs 1)
NODE_UNITS = 3

#: work units a deal costs besides its cards and its guesses (laying it out, copying it)
DEAL_UNITS = 12

#: work units a guess at a deal costs (a shuffle and share, and reading the bids into it: about
#: as long as playing 12 cards; `LikelyDeals` may guess several times for one deal)
GUESS_UNITS = 12


class Candidates:
    """The candidates of one decision and their values deal by deal (the same deals for all):
    the ones clearly worse than the best are dropped as the evidence comes in, so the work
    goes to telling the close ones apart."""

    def __init__(self, legal: list):
        self.alive = list(legal)
        self.values: dict[object, list[float]] = {a: [] for a in legal}
        self.deals = 0

    def add(self, values: dict) -> None:
        """One deal's values (None: the rules could not go on in that deal for that candidate)."""
        for a in self.alive:
            v = values.get(a)
            self.values[a].append(v if v is not None else float("nan"))
        self.deals += 1

    def mean(self, a: object) -> float | None:
        got = [v for v in self.values[a] if v == v]
        return sum(got) / len(got) if got else None

    def prune(self) -> None:
        """Drop each candidate whose deal-by-deal shortfall against the best is well outside
        its noise (3 standard errors and half a point)."""
        means = {a: self.mean(a) for a in self.alive}
        scored = [a for a in self.alive if means[a] is not None]
        if len(scored) < 2:
            return
        best = max(scored, key=lambda a: means[a])  # type: ignore[arg-type,return-value]  # the means that are None were left out of `scored`
        keep = []
        for a in self.alive:
            if a == best or means[a] is None:
                keep.append(a)
                continue
            diffs = [x - y for x, y in zip(self.values[best], self.values[a]) if x == x and y == y]
            n = len(diffs)
            if n < 4:
                keep.append(a)
                continue
            m = sum(diffs) / n
            var = sum((d - m) ** 2 for d in diffs) / (n - 1)
            if m <= 0.5 + 3.0 * (var / n) ** 0.5:
                keep.append(a)
        self.alive = keep

    def best(self, legal: list, fallback: Callable[[], object]) -> object:
        """The candidate of the best mean; the heuristic's choice among candidates that tie."""
        means = {a: self.mean(a) for a in self.alive}
        means = {a: m for a, m in means.items() if m is not None}
        if not means:
            return fallback()
        top = max(means.values())  # type: ignore[type-var]  # the means that are None were just left out
        tied = [a for a in legal if a in means and means[a] >= top - 1e-9]  # type: ignore[operator]  # the means that are None were left out
        if len(tied) == 1:
            return tied[0]
        pick = fallback()
        return pick if pick in tied else tied[0]


class SearchPlayer:
    """Samples deals, searches each with every hand open, keeps the best mean score."""

    kind = "search"
    observes = True
    thinks = True  # takes `think` seconds a decision (players/bots.py `make_bot`)

    def __init__(self, samples: int | None = None, think: float | None = None, units: Sequence[int] | None = None, exact_from: int = 3):
        """`samples` deals a decision; or `units` of work a decision of each of KINDS (what a
        record keeps, `work_units`; a record of two, from before the exact search's own
        measure, gives it the play-outs' units); or `think` seconds a decision, as the work
        this machine does in that time; by default DEFAULT_THINK. With `exact_from` cards or
        fewer in hand, cards are judged by the exact search."""
        self.samples = samples
        self.units = units
        self.think = think if think is not None or samples is not None or units is not None else DEFAULT_THINK
        self.exact_from = exact_from
        self.work = 0  # work units done so far (cards played in the search)

    def kind_of(self, view: SeatView) -> str:
        """Which of KINDS the decision of `view` is."""
        if view.phase == BIDDING:
            return "bid"
        return "exact" if len(view.hand or ()) <= self.exact_from else "card"

    def _judge(self, kind: str, legal: list, one_deal: Callable[[list, list[int]], dict | None], fallback: Callable[[], object]) -> object:
        """Judge `legal` deal by deal (`one_deal(candidates, budget)` -> their values, None
        for a deal that cannot be played): `samples` deals, or deals until the work of
        `think` seconds is done (at least 4); weak candidates dropped at 1/4 and 1/2 of it."""
        cands = Candidates(legal)
        budget = [0]
        if self.samples is not None:
            limit, checks = self.samples, {max(4, self.samples // 4), max(8, self.samples // 2)}
        else:
            if self.units is not None:
                units = self.units[min(KINDS.index(kind), len(self.units) - 1)]
            else:
                units = int(self.think * units_per_second(kind))  # type: ignore[operator]  # a searching player has units or think (make_bot gives one)
            limit, checks = None, {units // 4, units // 2}
        checked: set[int] = set()
        tries = 0
        while True:
            if limit is not None:
                if cands.deals >= limit or tries >= 4 * limit:
                    break
                due = [c for c in checks if c not in checked and cands.deals >= c]
            else:
                if (budget[0] >= units and cands.deals >= 4) or tries - cands.deals >= 1000:  # or a thousand deals the rules could not play
                    break
                due = [c for c in checks if c not in checked and budget[0] >= c and cands.deals >= 8]
            if due and len(cands.alive) > 1:
                checked.update(due)
                cands.prune()
            tries += 1
            budget[0] += DEAL_UNITS
            values = one_deal(cands.alive, budget)
            if values is not None:
                cands.add(values)
        self.work += budget[0]
        return cands.best(legal, fallback)

    def act(self, view: SeatView | None, legal: list[int] | None, rng: random.Random) -> int | str | None:
        assert view is not None
        answer = unsampled_answer(view, legal, rng)
        if answer is not SAMPLE:
            return answer  # type: ignore[return-value]  # an answer other than SAMPLE is an action
        assert legal is not None
        if view.phase == BIDDING:
            return self._bid(view, legal, rng)
        return self._card(view, legal, rng)

    # ------------------------------------------------------------ cards

    def _card(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        sign = -1.0 if lowest_wins(view) else 1.0
        left = len(view.hand or ())
        specials = bool(view.rules.specials)
        seat = view.seat
        exact = left <= self.exact_from
        deals = LikelyDeals(view)
        kept: list[Position] = []  # the position of the view, once its facts are known

        def one_deal(cands: list, budget: list[int]) -> dict | None:
            hands = deals.sample(rng, budget)
            if not kept:
                try:
                    kept.append(view_position(view, hands, sign, rng))
                except (RuleError, ValueError):
                    return None
            else:
                kept[0].hands = flat_hands(hands, view.players, specials)
            base = kept[0]
            out = {}
            for c in cands:
                pos = base.copy()
                try:
                    pos.play(c)
                except NoWinner:
                    continue
                v = solve(pos, budget, seat) if exact else play_on(pos, budget)
                if v is not None:
                    out[c] = v[seat]
            return out

        return self._judge("exact" if exact else "card", legal, one_deal, lambda: HeuristicPlayer().act(view, legal, rng))  # type: ignore[return-value]  # _judge answers one of the legal cards

    # ------------------------------------------------------------ bids

    def _bid(self, view: SeatView, legal: list[int], rng: random.Random) -> int | str:
        sign = -1.0 if lowest_wins(view) else 1.0
        seat = view.seat
        size = view.hand_size
        playing = view.players - len(view.sitting_out)
        specials = bool(view.rules.specials)
        scorers: dict[int, Scorer] = {}
        deals = LikelyDeals(view)

        def one_deal(cands: list, budget: list[int]) -> dict | None:
            hands = deals.sample(rng, budget)
            seen = with_sampled_trump(view, hands, rng) if view.trump_hidden else view
            try:
                game = look_ahead(seen, hands, rng)
            except (RuleError, ValueError):
                return None
            scorer = scorers.get(game.trump)
            if scorer is None or view.trump_hidden:
                scorer = scorers[game.trump] = Scorer(game, sign)
            out = {}
            for b in cands:
                sim = game.clone()
                try:
                    sim.act(b)
                    while sim.phase == BIDDING:
                        sim.act(self._their_bid(sim, hands))
                    if sim.phase != PLAY:  # decisions after the bidding: played out in the engine
                        rollout_in_game(sim, rng)
                        budget[0] += size * playing
                        out[b] = sign * float(sim.history[-1].points[seat])
                        continue
                except RuleError:
                    continue
                facts = HandFacts(sim, scorer, sim.trump)
                bids = [x if x is not None else 0 for x in sim.bids]
                pos = Position(flat_hands(hands, view.players, specials), [], sim.leader, [0] * view.players, bids, facts)
                v = play_on(pos, budget, rng.random)  # random cards: see the module's docstring
                if v is not None:
                    out[b] = v[seat]
            return out

        return self._judge("bid", plausible_bids(view, legal), one_deal, lambda: choose_bid(view, legal))  # type: ignore[return-value]  # _judge answers one of the legal bids

    @staticmethod
    def _their_bid(sim: Game, hands: Mapping[int, Sequence[Card]]) -> int | str:
        """A later seat's bid in a sampled deal: the legal bid nearest the tricks its cards are
        expected to take (each card's chance: no higher card of its suit out, trumps ruff)."""
        seat = sim.seat_to_act
        legal = sim.legal_bids()
        expected = _expected_tricks(sim, list(hands.get(seat, ())))
        calls = dict(sim.rules.calls)
        return min(legal, key=lambda b: (abs(calls.get(b, b) - expected), calls.get(b, b)))  # type: ignore[arg-type,operator]  # a legal bid is a number or a call's name: calls.get gives the number either way


#: how far (in tricks) a seat's bid strays from the estimate of its hand, for reading bids
BID_SPREAD = 1.0


class LikelyDeals:
    """Sampled deals of one decision (mc.py's `DealSampler`), each kept with the chance that
    the seats who have bid would have bid so with those cards: a bid's distance from the
    estimate of the hand it was made with (the seat's cards now and those it has played this
    hand), as a normal spread of `BID_SPREAD` tricks. After `tries` rejections the likeliest
    deal seen is taken."""

    def __init__(self, view: SeatView, tries: int = 12):
        self.sampler = DealSampler(view)
        self.tries = tries
        rules = view.rules
        calls = dict(rules.calls)
        self.bids = [(seat, calls.get(bid, bid)) for seat, bid in view.bids if seat != view.seat and seat not in view.others]  # type: ignore[call-overload]  # a bid the view shows is a number or a call's name: calls.get gives the number either way
        if view.trump_hidden or BID_SPREAD <= 0:
            self.bids = []
        self.played: dict[int, list[Card]] = {}
        for t in view.tricks:
            for seat, c in t.cards:
                self.played.setdefault(seat, []).append(c)
        for seat, c in view.trick:
            self.played.setdefault(seat, []).append(c)
        self.estimate = TrickEstimate(rules, view.players, view.players - len(view.sitting_out), view.trump, trick_play(rules).standard)

    def sample(self, rng: random.Random, budget: list[int]) -> dict[int, list[Card]]:
        """A deal; `budget[0]` counts the work of each guess (GUESS_UNITS)."""
        budget[0] += GUESS_UNITS
        if not self.bids:
            return self.sampler.sample(rng)
        best, best_w = None, -1.0
        estimate, played = self.estimate, self.played
        for tried in range(self.tries):
            if tried:
                budget[0] += GUESS_UNITS
            hands = self.sampler.sample(rng)
            w = 1.0
            for seat, bid in self.bids:
                d = (bid - estimate.tricks([*hands.get(seat, ()), *played.get(seat, ())])) / BID_SPREAD
                w *= math.exp(-0.5 * d * d)
            if rng.random() < w:
                return hands
            if w > best_w:
                best, best_w = hands, w
        return best  # type: ignore[return-value]  # the first deal tried is kept (any weight is above -1)


class TrickEstimate:
    """A quick estimate of the tricks a whole hand takes, for guessing the others' bids and
    reading the bids they made: each card wins if no higher card of its suit is out (its chance
    falls with each one unseen), long side suits get ruffed, small trumps may ruff."""

    def __init__(self, rules, players: int, playing: int, trump: int, standard: bool):
        self.trump, self.standard, self.playing = trump, standard, playing
        notes = table_notes(rules, players)
        self.above, self.deck_size = notes.above, notes.deck_size

    def tricks(self, hand: list[Card]) -> float:
        if not hand:
            return 0.0
        trump = self.trump
        if not self.standard:
            return sum(1.0 for c in hand if SUIT_OF[c] == SPECIAL) + 0.3 * sum(1 for c in hand if SUIT_OF[c] == trump)
        size = len(hand)
        free = 1 - min((self.playing - 1) * size / max(self.deck_size - size, 1), 1.0)
        by_suit: list[list[Card]] = [[], [], [], [], []]
        for c in hand:
            by_suit[c >> 4].append(c)
        above = self.above
        floor = 0.25 if size > 2 else 0.0
        total = 0.0
        for suit, cards in enumerate(by_suit):
            if not cards:
                continue
            cards.sort(reverse=True)
            ruffed = 1.0 if suit == trump or trump < 0 else (0.9 if len(cards) <= 2 else 0.75)
            for k, c in enumerate(cards):
                p = free ** (above[c] - k)  # the higher cards of the suit not in this hand
                if suit == trump:
                    total += p if p > floor else floor
                else:
                    total += p * ruffed
        return total


def plausible_bids(view: SeatView, legal: list) -> list:
    """The legal bids worth searching: those whose trick count the heuristic's estimate of the
    hand gives a fair chance (the middle 96% of its distribution, widened by one trick each
    way), and its own choice; every named call is kept."""
    dist = hand_distribution(view)
    low, high, acc = 0, len(dist) - 1, 0.0
    for t, p in enumerate(dist):
        acc += p
        if acc < 0.02:
            low = t + 1
        if acc >= 0.98:
            high = t
            break
    keep = [b for b in legal if type(b) is str or low - 1 <= b <= high + 1]
    pick = choose_bid(view, legal)
    if pick not in keep:
        keep.append(pick)
    return keep if len(keep) >= 2 else list(legal)


def _expected_tricks(sim: Game, hand: list[Card]) -> float:
    """`TrickEstimate` of `hand` at the table of `sim`."""
    return TrickEstimate(sim.rules, sim.players, sim.players - len(sim.sitting_out), sim.trump, sim.tricks_play.standard).tricks(hand)
