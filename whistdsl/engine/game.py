"""The engine: one generic game loop that plays any compiled ruleset.

schedule -> (dealer, who sits out) -> deck and deal -> trump -> bidding -> tricks -> scoring
-> running values and bonuses -> next hand -> end of game, winner, tie-break hands.

Seats are numbered 0..N-1 clockwise (seat i+1 sits to the left of seat i); a counter-clockwise
direction moves from seat i to seat i-1. A `Game` is its rules, the static facts of its table
(engine/table.py: the deck, the schedule, seat orders, trick rules, memos; shared by every game
of that ruleset and size) and one position (engine/state.py `State`: the hands, bids, tricks,
totals and the explicit `Phase`). It says whose turn it is, the legal actions, what each seat
may see (`view`, engine/observer.py), and `act` applies an action; an illegal action raises
`IllegalAction` and changes nothing. All randomness (the first dealer, the shuffles, and the
computer players' choices, which draw from `game.rng`) comes from one generator seeded by the
game's seed; its state at the end of each hand is kept so a game can be resumed exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping, NamedTuple, Sequence, Union

from ..language.environment import (
    auction_env,
    bidding_env,
    first_bidder_env,
    first_lead_env,
    game_env,
    seat_row,
    seat_sets,
    skip_env,
    trump_env,
    winner_env,
)
from ..language.expression import MAX_NUMBER, EvalError, Formula, Number, Value, value_text, within_limit
from ..rules.ruleset import HandKind, HandSetup, PlannedHand, Ruleset, SeatChoice, Special, hand_env, hand_setup
from .auction import Auction
from .cards import NO_TRUMP, SPECIAL, STRENGTH_OF, SUIT_OF, Card, card_words, new_hand, suit_name, suit_number, turn_up_facts
from .errors import IllegalAction, RuleError
from .observer import SeatView, look_ahead, seat_view
from .scoring import ScoreError, result_env, score_in_passes, score_seat
from .state import Phase, PlayedTricks, State, Trick
from .table import SeatOrders, table_facts
from .tricks import NO_SUIT, NoWinner, TrickPlay
from .trump import TrumpStep, trump_step

BIDDING = Phase.BIDDING
PLAY = Phase.PLAY
OVER = Phase.OVER
DECISION = Phase.DECISION
DEAL = Phase.DEAL
TRUMP = Phase.TRUMP

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


class Game(State):
    """One game of a ruleset: its rules and the table's static facts (`facts`), and its position
    (the State, engine/state.py). Drive it with `to_act`, `legal_actions`, `view` and `act`."""

    def __init__(
        self,
        rules: Ruleset,
        players: int | None = None,
        seed: int | None = None,
        first_dealer: int | None = None,
        names: list[str] | None = None,
        deals: Mapping[int, PresetDeal] | None = None,
        start_at: int = 1,
    ):
        """A new game. `deals` maps hand numbers to set-up deals played instead of shuffling;
        `start_at` begins at that hand of the schedule (for puzzles and tests; totals start at 0)."""
        n = players if players is not None else rules.players_default
        if not rules.players_min <= n <= rules.players_max:
            raise ValueError(f"{rules.name} is for {rules.players_min} to {rules.players_max} players, not {n}")
        if rules.parameters and rules.table_problem(n) is not None:
            raise ValueError(f"{rules.name} with {n} players: {rules.table_problem(n)}")
        self._setup_game(rules, n, seed if seed is not None else random.SystemRandom().randrange(2**32))
        self.names = list(names) if names else [f"Player {i + 1}" for i in range(n)]
        if len(self.names) != n:
            raise ValueError(f"{len(self.names)} names for {n} players")
        self.deals = dict(deals or {})
        self.extra_hands_left, self.extra_cards = self.facts.extra_hands, self.facts.extra_cards
        self.plan = list(self.facts.plan)
        #: hands of the schedule: with `end`, the cap until the game ends, then the hands played
        self.scheduled_hands = len(self.plan)
        self.hands_total = self.scheduled_hands  # what formulas read as `hands`
        self.first_dealer = self._choose_first_dealer(first_dealer)
        if not 1 <= start_at <= self.scheduled_hands:
            raise ValueError(f"start_at must be a hand from 1 to {self.scheduled_hands}")
        self.begin_hand(start_at - 1)

    def _setup_game(self, rules: Ruleset, n: int, seed: int | None, rng: random.Random | None = None) -> None:
        """What every game of `rules` with `n` players starts from (`rng`: a generator to draw
        from instead of one seeded by `seed`)."""
        self.rules = rules
        self.players = n
        self.seed = seed
        self.rng = rng if rng is not None else random.Random(seed)
        #: the static facts of this ruleset at this table size (engine/table.py), shared by its games
        self.facts = facts = table_facts(rules, n)
        self.ranks = facts.ranks
        self.full_deck = facts.deck
        self.tricks_play: TrickPlay = facts.tricks  # the trick rules, chosen once per ruleset
        self._specials = facts.specials
        self._trump_step: TrumpStep = trump_step(rules)  # the deal and trump steps, chosen once per ruleset
        self.turn_up_place = ""  # where the turned card is (engine/trump.py: table, dealer, pack)
        self.trump_from = ""  # which source of `trump.from` gave this hand's trump
        self.deck = list(self.full_deck)
        self.totals: list[Number] = [0] * n
        self.running: list[dict[str, Number]] = [dict(facts.running) for _ in range(n)]
        self.history: list[HandResult] = []
        self.result: GameResult | None = None
        self.first_dealer_draw: tuple[Card, ...] = ()
        self.deals: dict[int, PresetDeal] = {}
        self.stop_after_hand = False
        self.kind: HandKind | None = None  # this hand's kind, once a hand has begun
        self._hand_envs = facts.hand_envs
        self._bid_memo = facts.bid_memo
        self._setups = facts.setups
        #: the legal cards worked out last: (seat, cards in the trick, the cards); None once anything changed
        self.legal_cards_memo: tuple[int, int, list[Card]] | None = None
        self._decides = facts.decides  # the hand has decisions beyond number bids (language 2)
        self.calls: list[str] | tuple[str, ...] = ("",) * n  # replaced by lists when the hand has decisions
        self.blind: list[bool] | tuple[bool, ...] = (False,) * n
        self.choices: list[tuple[int, str, str]] = []
        self.decision: str | None = None
        self.trump_named_by: int | None = None
        self.excused: list[bool] | tuple[bool, ...] = (False,) * n
        self.declarer: int | None = None
        self.auction_bid = 0
        self._auction: Auction | None = None
        self._names_trump = False  # a seat names this hand's trump (the ruleset's trump decision)
        self._score_reads = facts.score

    @classmethod
    def from_view(cls, view: SeatView, hands: Mapping[int, Iterable[Card]], rng: random.Random) -> "Game":
        """A private game positioned where `view` is, with `hands` as every playing seat's cards
        now: for computer players that look ahead (engine/observer.py `look_ahead`, built
        through the same set-up as every game). It stops at the end of this hand."""
        return look_ahead(view, hands, rng)

    @classmethod
    def imagined(
        cls,
        rules: Ruleset,
        players: int,
        rng: random.Random,
        plan: list[PlannedHand],
        index: int,
        scheduled_hands: int,
        hands_total: int,
        totals: Sequence[Number],
        running: Sequence[Mapping[str, Number]],
        deal: PresetDeal,
    ) -> "Game":
        """A private game at the start of hand `index` of `plan`, dealt `deal` (its dealer and
        turned card too), with the totals and running values given: a position imagined from a
        seat's view, for look-ahead (engine/observer.py `look_ahead`). It draws from `rng`,
        counts `scheduled_hands` hands of the schedule and `hands_total` for formulas, plays
        no tie-break hand, and stops at the end of this hand."""
        game = cls.__new__(cls)
        game._setup_game(rules, players, None, rng)
        game.plan = list(plan)
        game.scheduled_hands = scheduled_hands
        game.hands_total = hands_total
        game.extra_hands_left, game.extra_cards = 0, 0
        game.names = [f"Player {i + 1}" for i in range(players)]
        game.stop_after_hand = True
        game.first_dealer = deal.dealer  # type: ignore[assignment]
        game.totals = list(totals)
        game.running = [dict(r) for r in running]
        game.deals = {plan[index].number: deal}
        game.begin_hand(index)
        return game

    # ------------------------------------------------------------ set-up

    def _seat_value(self, seat: int, name: str) -> Value:
        """A seat's own value of a scoring name other than its bid and tricks."""
        if name == "total":
            return self.totals[seat]
        if name == "is_dealer":
            return seat == self.dealer
        if name == "position":
            return self.position[seat]
        if name == "call":
            return self.calls[seat]
        if name == "blind":
            return self.blind[seat]
        if name == "is_declarer":
            return seat == self.declarer
        if name == "auction_bid":
            return self.auction_bid
        if name == "excused":
            return self.excused[seat]
        return self.running[seat][name]

    def _choose_first_dealer(self, given: int | None) -> int:
        n = self.players
        if given is not None:
            if not 0 <= given < n:
                raise ValueError(f"first dealer must be a seat from 0 to {n - 1}")
            return given
        how = self.rules.first_dealer
        if isinstance(how, int):
            return how % n
        if how == "highest_card":
            # one card to each player; the highest rank deals; players who tie draw again (from
            # the suited cards: a special card has no rank)
            contenders = list(range(n))
            draws: list[Card] = []
            suited = [c for c in self.deck if SUIT_OF[c] != SPECIAL] if self._specials else self.deck
            while True:
                cards = self.rng.sample(suited, len(contenders))
                draws.extend(cards)
                best = max(STRENGTH_OF[c] for c in cards)
                contenders = [s for s, c in zip(contenders, cards) if STRENGTH_OF[c] == best]
                if len(contenders) == 1:
                    self.first_dealer_draw = tuple(draws)
                    return contenders[0]
        return self.rng.randrange(n)

    def seat_orders(self, dealer: int, sits_out: bool, first_bidder: int | None = None) -> SeatOrders:
        """The seating orders for a hand with this dealer (shared by every game of this size);
        `first_bidder` when `bidding.first` chose it."""
        return self.facts.seat_orders(dealer, sits_out, first_bidder)

    def _choose_seat(self, choice: SeatChoice, env_of: Callable[[int, int], dict[str, Value]], order: Sequence[int]) -> int:
        """The seat of `order` whose value of the choice's formula is highest (lowest); ties go
        to the seat earliest in `order`. `env_of(index, seat)` is the formula's env for a seat."""
        best_seat, best = order[0], None
        f = choice.formula
        for index, seat in enumerate(order):
            env = env_of(index, seat)
            try:
                value = f.cached(env)
            except EvalError as e:
                raise _formula_error(e, (f,), env, hand=self.hand_number, seat=seat) from None
            if best is None or (value > best if choice.highest else value < best):  # type: ignore[operator]
                best_seat, best = seat, value
        return best_seat

    def _choose_first_bidder(self) -> None:
        """`bidding.first: {highest: ...}`: the first bidder, from the seats in bidding order after the dealer."""
        order = self.bidding_order
        envs = [first_bidder_env(self.hand_env, total=self.totals[s], is_dealer=s == self.dealer, running=self.running[s]) for s in order]
        if self.rules.first_bidder_choice.formula.seat_reads:  # type: ignore[union-attr]
            rows = tuple(first_bidder_env({}, total=self.totals[s], is_dealer=s == self.dealer, running=self.running[s]) for s in order)
            for index, env in enumerate(envs):
                env.update(seat_sets(rows, index, ("seats", "others")))

        def env_of(index: int, seat: int) -> dict[str, Value]:
            return envs[index]

        first = self._choose_seat(self.rules.first_bidder_choice, env_of, order)  # type: ignore[arg-type]
        self._seat_table(self.seat_orders(self.dealer, self.setup.dealer_sits_out, first))
        self.to_act = self.bidding_order[0]

    def _choose_first_leader(self) -> int:
        """`play.first_lead: {highest: ...}`: the first leader once every bid is made (ties to the earlier bidder)."""
        order = self.bidding_order
        rows = self._seat_rows()
        sets = self.rules.first_lead_choice.formula.seat_reads  # type: ignore[union-attr]

        def env_of(index: int, seat: int) -> dict[str, Value]:
            env = first_lead_env(self.hand_env, rows[index], self.auction_bid)
            if sets:
                env.update(seat_sets(rows, index))
            return env

        return self._choose_seat(self.rules.first_lead_choice, env_of, order)  # type: ignore[arg-type]

    def _begin_kind(self, kind: HandKind) -> None:
        self.kind = kind
        tests = self.facts.bid_tests[kind.name]
        self._bid_tests, self._bid_hand_names, self._bid_seat_names, self._bid_sets = tests

    def _keep_bid_hand_key(self) -> None:
        """What the bidding limits read of this hand: the first part of their memo's key."""
        #: what the bidding limits read of this hand: the first part of their memo's key
        self.bid_memo_key = (
            self.kind.name,
            self.hand_size,
            len(self.bidding_order),
            *[self.hand_env[n] for n in self._bid_hand_names],
        )

    def _seat_table(self, table: SeatOrders) -> None:
        self.sitting_out = table.sitting_out
        self.bidding_order = table.bidding_order
        self.position = table.position
        self.play_orders = table.play_orders
        self.leader = table.first_leader

    def begin_hand(self, index: int, reuse_hands: bool = False) -> None:
        """Set up hand `index` of the plan: its dealer and seat orders, the deal (a set-up deal,
        or shuffled), the trump, then its first decision or its bidding. `reuse_hands`: the
        hand lists of the hand before may be filled again (nothing else holds them)."""
        rules, n = self.rules, self.players
        plan = self.plan[index]
        self.index = index
        setup = self._setups.get(index)
        if setup is None or setup.plan is not plan:
            try:
                setup = hand_setup(rules, n, plan, self.hands_total, index >= self.scheduled_hands)
            except EvalError as e:
                env = hand_env(rules, n, plan, self.hands_total, index >= self.scheduled_hands)
                raise _formula_error(e, (rules.sits_out,), env, hand=plan.number) from None
            if setup.playing < 2:
                raise RuleError(
                    f"only {setup.playing} seat would play this hand; a hand needs at least 2",
                    hand=plan.number,
                    origin=rules.sits_out.origin if rules.sits_out is not None else "",
                )
            if index < self.scheduled_hands:
                self._setups[index] = setup
        self.setup = setup
        if self.kind is None or self.kind.name != plan.kind:
            self._begin_kind(rules.kinds[plan.kind])
        preset = self.deals.get(plan.number) if self.deals else None
        self.dealer = dealer = self.rotation_dealer = (self.first_dealer + rules.deal_direction * index) % n
        if preset is not None and preset.dealer is not None and preset.dealer != dealer:
            if not 0 <= preset.dealer < n:
                raise ValueError(f"hand {plan.number}: dealer {preset.dealer} is not a seat")
            # a set-up deal names its dealer: the deal passes on from there
            self.dealer = dealer = preset.dealer
            self.first_dealer = (dealer - rules.deal_direction * index) % n
        table = self.seat_orders(dealer, setup.dealer_sits_out)
        self._seat_table(table)
        size = plan.size
        # the deal step, then the trump step (engine/trump.py: chosen once per ruleset)
        self.phase = DEAL
        none_first = rules.trump_none_when is not None and not self._trump_step.none_reads_card and self._no_trump_before_deal(index, setup)
        turned, undealt = self._deal(preset, table, size, setup.playing, reuse_hands, none_first)
        self.phase = TRUMP
        trump = self._find_trump(preset, setup, turned, undealt, none_first)
        self.hand_size = size
        self.set_trump(trump)
        self.bids: list[int | None] = [None] * n
        self.bid_log: list[tuple[int, int]] = []
        self.bids_so_far = 0
        self.taken = [0] * n
        self.tricks: list[Trick] = []
        self.trick: list[tuple[int, Card]] = []
        self.phase = BIDDING
        self.to_act: int | None = self.bidding_order[0]
        if rules.first_bidder_choice is not None:
            self._choose_first_bidder()
        #: the legal bids worked out for this turn (`allowed_bids`); None once anything changed
        self.legal_bids_memo: list[int] | None = None
        self.legal_cards_memo = None
        if self._decides:
            self._begin_decisions(setup)

    def _deal(self, preset: PresetDeal | None, table: SeatOrders, size: int, playing: int, reuse_hands: bool, none_first: bool) -> tuple[Card | None, int]:
        """The deal step: shuffle and deal the hand (or lay out a set-up deal), turning a card
        before the deal when the trump step needs one. Returns the card turned (a set-up deal's
        recorded card) and where the undealt cards begin in `self.deck`."""
        d = self.deck = list(self.full_deck)  # every hand shuffles from the same order: a hand's
        # deal depends only on the generator's state (so a game can be resumed)
        # after a finished hand every suit list is empty again: deal into the same lists
        hands = self.hands if reuse_hands else [new_hand(self._specials) for _ in range(self.players)]
        if preset is None:
            dealt, turned, undealt = self._trump_step.deal(self.rng.random, d, table.deal_order, size, hands, none_first)
        else:
            dealt = self._check_preset(preset, table, size)
            suit_of = SUIT_OF
            for seat, cards in enumerate(dealt):
                for c in cards:
                    hands[seat][suit_of[c]].append(c)
            turned, undealt = preset.turn_up, size * playing
        self.hands = hands
        self.dealt = tuple(dealt)
        return turned, undealt

    def _find_trump(self, preset: PresetDeal | None, setup: HandSetup, turned: Card | None, undealt: int, none_first: bool) -> int:
        """The trump step: this hand's trump from the ruleset's sources (engine/trump.py), and
        what every seat sees of it (the turned card, where it is, which source gave it)."""
        step = self._trump_step
        self.turn_up: Card | None = None
        self.turn_up_place = ""
        self.trump_from = ""
        if preset is not None and preset.trump is not None and not step.random:
            self.turn_up = preset.turn_up
            return preset.trump
        if none_first:
            return NO_TRUMP
        found = step.find(setup.plan.number, self.dealer, self.dealt, turned, self.rng.random, self.deck, undealt, preset)
        self.turn_up, self.turn_up_place, self.trump_from = found.card, found.place, found.source
        if step.none_reads_card and self._no_trump(setup, found.card):
            return NO_TRUMP
        return found.trump

    def set_trump(self, trump: int) -> None:
        """This hand's trump, and the hand's env that formulas read from now on."""
        self.trump = trump
        index = self.index
        # the hand's env is read-only once built: shared by every game that reaches this hand
        cached = self._hand_envs.get((index, trump)) if index < self.scheduled_hands else None
        if cached is None:
            self.hand_env: dict[str, Value] = trump_env(self.setup.env, suit_name(trump))
            self._keep_bid_hand_key()
            #: what the scoring formulas read of this hand: the first part of their memo's key
            self.score_memo_key = tuple([self.hand_env[name] for name in self._score_reads.hand_names])
            if index < self.scheduled_hands:
                self._hand_envs[(index, trump)] = (self.hand_env, self.bid_memo_key, self.score_memo_key)
        else:
            self.hand_env, self.bid_memo_key, self.score_memo_key = cached
        #: the values the bidding limits read, filled in place turn by turn (None: built again)
        self.bid_scratch: dict[str, Value] | None = None
        self.legal_bids_memo = None

    # ------------------------------------------------------------ decisions (language 2)

    def _begin_decisions(self, setup: HandSetup) -> None:
        """The hand's own decisions before the bidding: a trump named by a seat, then each
        bidder's choice to bid blind or look (the `decisions` of the ruleset)."""
        n = self.players
        self.calls: list[str] = [""] * n
        self.blind: list[bool] = [False] * n
        self.looked: list[bool] = [not self.rules.blind_bids] * n
        self.choices: list[tuple[int, str, str]] = []
        self.trump_named_by: int | None = None
        self.decision: str | None = None
        self.excused = [False] * n
        self.declarer, self.auction_bid, self._auction = None, 0, None
        choice = self.rules.trump_choice
        self._names_trump = False
        if choice is not None:
            env = dict(setup.env, trump=suit_name(self.trump), **turn_up_facts(self.turn_up, self.rules.specials))
            if choice.when is None:
                self._names_trump = True
            else:
                try:
                    self._names_trump = bool(choice.when(env))
                except EvalError as e:
                    raise _formula_error(e, (choice.when,), env, hand=self.hand_number) from None
            if self._names_trump and not choice.after_bidding and choice.who != "declarer":
                self._ask(self._trump_chooser(), "trump")
                return
        if self.rules.auction is not None:
            self._begin_auction(setup)
            return
        self._next_bidder(self.bidding_order[0])

    def _begin_auction(self, setup: HandSetup) -> None:
        """The auction before the bidding (engine/auction.py): everyone bids looking at its cards."""
        rule = self.rules.auction
        low = rule.min  # type: ignore[union-attr]
        if isinstance(low, Formula):
            env = auction_env(setup.env)
            try:
                low = int(low(env))  # type: ignore[arg-type]
            except EvalError as e:
                raise _formula_error(e, (rule.min,), env, hand=self.hand_number) from None  # type: ignore[union-attr, arg-type]
        self._auction = Auction(self.bidding_order, low, self.hand_size, rule.suits)  # type: ignore[union-attr]
        self.looked = [True] * self.players
        if self._auction.done:  # cannot happen with 2 or more seats
            self._end_auction()
            return
        self._ask(self._auction.to_act, "auction")

    def _end_auction(self) -> None:
        """The declarer (if any) bids first, its winning bid made for it; its suit is trump, or
        it names trump (`who: declarer`)."""
        declarer, tricks, suit = self._auction.contract()  # type: ignore[union-attr]
        self.declarer, self.auction_bid = declarer, tricks
        self.decision = None
        if declarer is None:  # every seat passed: the trump rule stands, everyone bids
            self._next_bidder(self.bidding_order[0])
            return
        self._seat_table(self.seat_orders(self.dealer, self.setup.dealer_sits_out, declarer))
        self.bid_scratch = None
        self._keep_bid_hand_key()
        if suit is not None:
            self.trump_named_by = declarer
            self.set_trump(NO_TRUMP if suit == "none" else suit_number(suit))
        choice = self.rules.trump_choice
        if choice is not None and choice.who == "declarer" and self._names_trump and not choice.after_bidding:
            self._ask(declarer, "trump")
            return
        self._next_bidder(self.bidding_order[0])

    def _made_for(self, seat: int) -> int | None:
        """The bid made for `seat` at its turn: the declarer's contract, 0 for a seat excused
        from bidding (`skip`); None when the seat bids itself."""
        if seat == self.declarer:
            return self.auction_bid
        skip = self.rules.skip
        if skip is None:
            return None
        env = skip_env(
            self.hand_env,
            total=self.totals[seat],
            is_dealer=seat == self.dealer,
            position=len(self.bid_log) + 1,
            running=self.running[seat],
            is_declarer=False,
            auction_bid=self.auction_bid,
        )
        try:
            excused = bool(skip(env))
        except EvalError as e:
            raise _formula_error(e, (skip,), env, hand=self.hand_number, seat=seat) from None
        if excused:
            self.excused[seat] = True  # type: ignore[index]
            return 0
        return None

    def _trump_chooser(self) -> int:
        who = self.rules.trump_choice.who  # type: ignore[union-attr]
        if who == "dealer":
            return self.dealer
        if who == "highest_bidder":
            return self.highest_bidder()
        if who == "declarer" and self.declarer is not None:
            return self.declarer
        return self.bidding_order[0]

    def _ask(self, seat: int, decision: str) -> None:
        self.phase = DECISION
        self.decision = decision
        self.to_act = seat
        if decision == "trump":
            self.looked[seat] = True  # naming trump, the seat has looked at its cards

    def _next_bidder(self, seat: int) -> None:
        """`seat` bids next: first its choice to bid blind, when it has not looked yet; a bid
        made for it (the declarer's contract, an excused seat's 0) is made at once."""
        made = self._made_for(seat) if self.declarer is not None or self.rules.skip is not None else None
        if made is not None:
            self.phase = BIDDING
            self.decision = None
            self.to_act = seat
            self.commit_bid(made)
            return
        if not self.looked[seat]:
            self._ask(seat, "blind")
            return
        self.phase = BIDDING
        self.decision = None
        self.to_act = seat

    def decision_options(self) -> list[str]:
        """The options of the decision the seat to act makes now ([] out of the decision phase)."""
        if self.phase != DECISION:
            return []
        if self.decision == "trump":
            return list(self.rules.trump_choice.options)  # type: ignore[union-attr]
        if self.decision == "auction":
            return self._auction.options()  # type: ignore[union-attr]
        return ["look", "blind"]

    def decide(self, choice: str) -> None:
        """Make the decision of the seat to act: a trump's name (`none` for no trump), or
        `blind` / `look` before a bid. Raises IllegalAction (and changes nothing)."""
        if self.phase != DECISION:
            raise IllegalAction("there is no decision to make now", "not_your_turn", "made a decision when there was none to make")
        options = self.decision_options()
        if type(choice) is not str or choice not in options:
            what = {"trump": "trump", "auction": "a bid that outbids the highest so far, or pass"}.get(self.decision, "whether to bid blind")  # type: ignore[arg-type]
            return_text = f"choose {what}: one of {', '.join(options)}"
            raise IllegalAction(return_text, "not_an_option", f"the options were {', '.join(options)}")
        seat: int = self.to_act  # type: ignore[assignment]
        self.choices.append((seat, self.decision, choice))  # type: ignore[arg-type]
        if self.decision == "auction":
            auction = self._auction
            auction.apply(choice)  # type: ignore[union-attr]
            if auction.done:  # type: ignore[union-attr]
                self._end_auction()
            else:
                self.to_act = auction.to_act  # type: ignore[union-attr]
            return
        if self.decision == "trump":
            self.trump_named_by = seat
            self.set_trump(NO_TRUMP if choice == "none" else suit_number(choice))
            if self.rules.trump_choice.after_bidding:  # type: ignore[union-attr]
                self.begin_play()
            else:
                self._next_bidder(self.bidding_order[0])
            return
        self.looked[seat] = True
        self.blind[seat] = choice == "blind"
        self.legal_bids_memo = None
        self.phase = BIDDING
        self.decision = None

    def trump_to_be_named(self) -> str | None:
        """Who is still to name this hand's trump: `auction` (the auction's winning bid names
        it), or the `who` of the ruleset's trump decision (`dealer`, `first_bidder`,
        `highest_bidder`, `declarer`); None when trump is known (or shown later by its rule), and
        when there is no declarer to name it (every seat passed: the trump rule stands)."""
        if self.trump_named_by is not None:
            return None
        over = self._auction is None or self._auction.done
        if self.rules.auction is not None and self.rules.auction.suits and self.declarer is None and not over:
            return "auction"
        if self._names_trump:
            who = self.rules.trump_choice.who  # type: ignore[union-attr]
            return None if who == "declarer" and self.declarer is None and over else who
        return None

    def highest_bidder(self) -> int:
        """The seat with the highest bid (a tie goes to the one who bid first)."""
        best_seat, best = self.bid_log[0]
        for seat, bid in self.bid_log[1:]:
            if bid > best:
                best_seat, best = seat, bid
        return best_seat

    def begin_play(self) -> None:
        """The bidding (and the decisions after it) is over: the first leader leads."""
        self.phase = PLAY
        self.decision = None
        if self.rules.first_lead_choice is not None:
            self.leader = self._choose_first_leader()
        self.to_act = self.leader
        self.trick_order = self.play_orders[self.leader]

    def _no_trump_before_deal(self, index: int, setup: HandSetup) -> bool:
        """`trump.none_when` asked before the deal: the same answer for every game at this hand
        of the schedule (remembered per table), asked again for a tie-break hand."""
        kept = self.facts.no_trump.get(index)
        if kept is not None and kept[0] is setup:
            return kept[1]
        known = self._no_trump(setup, None)
        if index < self.scheduled_hands:
            self.facts.no_trump[index] = (setup, known)
        return known

    def _no_trump(self, setup: HandSetup, turned: Card | None) -> bool:
        """`trump.none_when`: before the deal, or, when it reads the turned card, once it is turned."""
        env = setup.env if not self._trump_step.none_reads_card else dict(setup.env, **turn_up_facts(turned, self.rules.specials))
        try:
            return bool(self.rules.trump_none_when.cached(env))  # type: ignore[union-attr]
        except EvalError as e:
            raise _formula_error(e, (self.rules.trump_none_when,), env, hand=setup.plan.number) from None

    def _check_preset(self, preset: PresetDeal, table: SeatOrders, size: int) -> list[tuple[Card, ...]]:
        """A set-up deal must fit the hand: the right seats, sizes and cards of this deck, once each."""
        n, number = self.players, self.plan[self.index].number
        if len(preset.deal) != n:
            raise ValueError(f"hand {number}: the deal lists {len(preset.deal)} seats, the game has {n}")
        left = Counter(self.deck)  # how many of each card the deck holds (copies: more than one)
        specials = self.rules.specials
        for seat, cards in enumerate(preset.deal):
            want = 0 if seat in table.sitting_out else size
            if len(cards) != want:
                raise ValueError(f"hand {number}: seat {seat} is dealt {len(cards)} cards; the hand needs {want}")
            for c in cards:
                if c not in left:
                    raise ValueError(f"hand {number}: {card_words(c, specials)} is not in this deck")
                if left[c] == 0:
                    held = self.deck.count(c)
                    raise ValueError(
                        f"hand {number}: {card_words(c, specials)} is dealt more often than the deck holds it ({held})"
                        if held > 1 else f"hand {number}: {card_words(c, specials)} is dealt twice"
                    )
                left[c] -= 1
        dealt = [tuple(cards) for cards in preset.deal]
        self._trump_step.check_preset(number, self.dealer, dealt, preset.turn_up, left)
        return dealt

    # ------------------------------------------------------------ queries

    def legal_actions(self) -> list[int]:
        """The legal bids (bidding) or cards (play) of the seat to act; [] when the game is over.

        Cards come by suit (spades, hearts, diamonds, clubs), high to low within a suit (`by_suit`).
        """
        if self.phase == BIDDING:
            return list(self.allowed_bids())
        if self.phase == PLAY:
            return by_suit(self._legal_cards(self.to_act))  # type: ignore[arg-type]
        if self.phase == DECISION:
            return self.decision_options()  # type: ignore[return-value]
        return []

    def _bid_env(self, seat: int) -> dict[str, Value]:
        """The `bidding` context for `seat` (one dict per hand, refilled for each bidder)."""
        env = self.bid_scratch
        if env is None:
            env = self.bid_scratch = dict(self.hand_env)
        return bidding_env(
            self.hand_env,
            total=self.totals[seat],
            is_dealer=seat == self.dealer,
            bids_made=len(self.bid_log),
            bids_so_far=self.bids_so_far,
            bidders=len(self.bidding_order),
            running=self.running[seat],
            into=env,
            blind=self.blind[seat],
            is_declarer=seat == self.declarer,
            auction_bid=self.auction_bid,
            excused=self.excused[seat],
        )

    def _seat_rows(self, results: bool = False) -> tuple[dict[str, Value], ...]:
        """Every playing seat's public facts, in bidding order, as aggregates read them: the bids
        made so far (during the bidding) or every bid and result (`results`, after the play)."""
        rows = []
        for i, s in enumerate(self.bidding_order):
            bid = self.bids[s]
            rows.append(
                seat_row(
                    total=self.totals[s],
                    is_dealer=s == self.dealer,
                    position=i + 1,
                    running=self.running[s],
                    bid=bid,
                    tricks=self.taken[s] if results else None,
                    call=self.calls[s],
                    blind=self.blind[s],
                    is_declarer=s == self.declarer,
                    excused=self.excused[s],
                )
            )
        return tuple(rows)

    def allowed_bids(self) -> list[int]:
        """The legal bids of the seat to act (numbers, then named calls), worked out from the
        bidding limits once a turn and kept in `legal_bids_memo`: the game's own list, not to be
        changed (`legal_bids` answers a copy). Raises RuleError when no bid is allowed."""
        if self.legal_bids_memo is None:
            tests = self._bid_tests
            size = self.hand_size
            if not tests:
                self.legal_bids_memo = list(range(size + 1)) + [name for name, _ in self.rules.calls]
            else:
                # the limits are pure formulas: remember the legal bids by the values they read
                # (the turn's values all follow from how many have bid and what they bid)
                seat: int = self.to_act  # type: ignore[assignment]
                key = (self.bid_memo_key, len(self.bid_log), self.bids_so_far)
                if self._bid_seat_names:
                    key += tuple([self._seat_value(seat, n) for n in self._bid_seat_names])
                if self._bid_sets:  # what the limits read of the other seats
                    env = self._bid_env(seat)
                    env.update(seat_sets(self._seat_rows(), len(self.bid_log), self._bid_sets))
                    key += tuple(t.seat_key(env) for t in tests)
                legal = self._bid_memo.get(key)
                if legal is None:
                    env = self._bid_env(seat)
                    legal = []
                    try:
                        for bid in range(size + 1):
                            env["bid"] = bid
                            if all(t(env) for t in tests):
                                legal.append(bid)
                        for name, counts_as in self.rules.calls:
                            env["bid"], env["call"] = counts_as, name
                            if all(t(env) for t in tests):
                                legal.append(name)  # type: ignore[arg-type]
                        env["call"] = ""
                    except EvalError as e:
                        raise _formula_error(e, tests, env, hand=self.hand_number, seat=seat) from None
                    if not legal:
                        env.pop("bid", None)
                        raise RuleError(
                            f"no bid from 0 to {size} is allowed: this seat has no legal bid",
                            hand=self.hand_number,
                            seat=seat,
                            origin=" and ".join(t.origin for t in tests),
                            values={n: env[n] for t in tests for n in t.names if n in env},
                        )
                    self._bid_memo.keep(key, legal)
                self.legal_bids_memo = legal
        return self.legal_bids_memo

    def legal_bids(self) -> list[int]:
        """The legal bids of the seat to act (read it, do not change it); [] out of the bidding."""
        return self.allowed_bids() if self.phase == BIDDING else []

    def legal_cards(self) -> list[Card]:
        """The legal cards of the seat to act, in the order its hand holds them (read it, do not
        change it); [] out of the play. `legal_actions` gives the same cards by suit, as a copy."""
        return self._legal_cards(self.to_act) if self.phase == PLAY else []  # type: ignore[arg-type]

    def play_legal(self, card: Card) -> None:
        """Play `card`, taken from `legal_cards()` of this very position, without checking it again
        (for computer players' look-ahead; `play` checks)."""
        self.commit_card(self.to_act, card)  # type: ignore[arg-type]

    def forbidden_bids(self) -> list[int]:
        """Bids in 0..hand size that the rules forbid the seat to act (the hook, forced bids)."""
        if self.phase != BIDDING:
            return []
        legal = set(self.allowed_bids())
        return [b for b in range(self.hand_size + 1) if b not in legal]

    def _legal_cards(self, seat: int) -> list[Card]:
        """The legal cards of `seat` now (remembered until the next card is played; do not modify)."""
        cached = self.legal_cards_memo
        if cached is not None and cached[0] == seat and cached[1] == len(self.trick):
            return cached[2]
        legal = list(self.tricks_play.legal(self.hands[seat], self.trick, self.trump, self.rules.when_void))
        self.legal_cards_memo = (seat, len(self.trick), legal)
        return legal

    def can_see_own_hand(self, seat: int) -> bool:
        view = self.kind.view
        if view == "forehead" or (view == "blind" and self.phase in (BIDDING, DECISION)):
            return False
        if self._decides and self.rules.blind_bids and self.phase in (BIDDING, DECISION):
            return self.looked[seat] and (not self.blind[seat] or self.bids[seat] is not None)  # a blind bidder looks once it has bid
        return True

    def view(self, seat: int) -> SeatView:
        """What `seat` may see now (engine/observer.py)."""
        return seat_view(self, seat)

    # ------------------------------------------------------------ actions

    def act(self, action: Action) -> None:
        """Apply the seat-to-act's bid or card. Raises IllegalAction (and changes nothing)."""
        if self.phase == BIDDING:
            self.bid(action)  # type: ignore[arg-type]
        elif self.phase == PLAY:
            self.play(action)
        elif self.phase == DECISION:
            self.decide(action)  # type: ignore[arg-type]
        else:
            raise IllegalAction("the game is over", "game_over")

    def bid(self, bid: int) -> None:
        if self.phase != BIDDING:
            raise IllegalAction("it is not time to bid", "not_your_turn", "bid when it was not time to bid")
        legal = self.allowed_bids()
        if type(bid) not in (int, str) or bid not in legal:
            raise self.bid_refusal(bid, legal)
        self.commit_bid(bid)

    def commit_bid(self, bid: int | str) -> None:
        """Record the bid of the seat to act, already known to be legal (a number, or a named
        call): nothing is checked. After the last one, the play begins (or the decisions that
        follow the bidding). `bid` checks first; look-ahead replays known bids with this."""
        seat = self.to_act
        if type(bid) is str:
            self.calls[seat] = bid  # type: ignore[index]
            bid = dict(self.rules.calls)[bid]
        self.bids[seat] = bid  # type: ignore[index]
        self.bid_log.append((seat, bid))  # type: ignore[arg-type]
        self.bids_so_far += bid  # type: ignore[operator]
        self.legal_bids_memo = None
        if len(self.bid_log) < len(self.bidding_order):
            if self._decides:
                self._next_bidder(self.bidding_order[len(self.bid_log)])
            else:
                self.to_act = self.bidding_order[len(self.bid_log)]
        elif self._decides and self._names_trump and self.rules.trump_choice.after_bidding:  # type: ignore[union-attr]
            self._ask(self._trump_chooser(), "trump")
        else:
            self.begin_play()

    def bid_refusal(self, bid: object, legal: list[int] | None = None) -> IllegalAction:
        """Why the seat to act may not bid `bid` (`legal`: its legal bids, when known), told from
        the formula that forbids it: its name and place in the file, and what it read. The hook (`reason` "hook") is named when that formula depends on
        the earlier bids (it would allow the bid after other earlier bids) and the bids would add
        up to the hand size; a bid that is the only one allowed is `forced_bid`."""
        if legal is None:
            legal = self.allowed_bids()
        size = self.plan[self.index].size
        calls = dict(self.rules.calls)
        if type(bid) is str and bid in calls:
            env = dict(self._bid_env(self.to_act), bid=calls[bid], call=bid)  # type: ignore[arg-type]
            formula = next((t for t in self._bid_tests if not t(env)), None)
            because = f": {formula.origin} is false for the call {bid}" if formula is not None else ""
            allowed = ", ".join(map(str, legal))
            return IllegalAction(f"you may not call {bid} now{because}; allowed: {allowed}", "bid_not_allowed", f"the allowed bids are {allowed}")
        if type(bid) is not int or not 0 <= bid <= size:
            named = f", or {' or '.join(calls)}" if calls else ""
            return IllegalAction(f"a bid is a whole number from 0 to {size}{named}", "bad_bid", f"a bid is a whole number from 0 to {size}{named}")
        seat: int = self.to_act  # type: ignore[assignment]
        env = dict(self._bid_env(seat), bid=bid)
        formula = next((t for t in self._bid_tests if not t(env)), None)
        if formula is None:  # not refused by a formula (cannot happen for a bid in 0..size)
            allowed = ", ".join(map(str, legal))
            return IllegalAction(f"you may not bid {bid} here; allowed: {allowed}", "bid_not_allowed", f"the allowed bids are {allowed}")
        read = ", ".join(f"{n}={value_text(env[n])}" for n in sorted(formula.names) if n in env and n != "bid")
        because = f"{formula.origin} is false for bid {bid}" + (f" with {read}" if read else "")
        so_far = self.bids_so_far
        if "bids_so_far" in formula.names and so_far + bid == size and _holds(formula, {**env, "bids_so_far": so_far + 1}):
            why = f"the bids would add up to {size}, the hand size"
            return IllegalAction(f"you may not bid {bid}: {why}; {because}", "hook", f"{why} (hook)")
        if len(legal) == 1:
            return IllegalAction(
                f"you may not bid {bid}: the only allowed bid is {legal[0]}; {because}", "forced_bid", f"the only allowed bid is {legal[0]}"
            )
        allowed = ", ".join(map(str, legal))
        return IllegalAction(f"you may not bid {bid}: {because}; allowed: {allowed}", "bid_not_allowed", f"{because}; the allowed bids are {allowed}")

    def play(self, card: Card | None) -> None:
        """Play a card; None plays the card a seat cannot see (forehead), chosen at random among its legal cards."""
        if self.phase != PLAY:
            raise IllegalAction("it is not time to play a card", "not_your_turn", "played a card during the bidding")
        seat: int = self.to_act  # type: ignore[assignment]
        legal = self._legal_cards(seat)
        if card is None:
            if self.can_see_own_hand(seat):
                raise IllegalAction("name the card to play")
            card = legal[int(self.rng.random() * len(legal))]
        elif card not in legal:
            raise self.card_refusal(seat, card)
        self.commit_card(seat, card)

    def commit_card(self, seat: int, card: Card) -> None:
        """Play `card` for `seat`, already known to be legal (nothing is checked): the trick, its
        winner, the end of the hand. `play` checks first; look-ahead replays known cards with this."""
        self.hands[seat][SUIT_OF[card]].remove(card)
        self.legal_cards_memo = None
        trick = self.trick
        trick.append((seat, card))
        order = self.trick_order
        if len(trick) < len(order):
            self.to_act = order[len(trick)]
            return
        win_seat = self.trick_winner(trick)
        self.tricks.append(Trick(order[0], tuple(trick), win_seat))
        self.taken[win_seat] += 1
        self.trick = []
        if len(self.tricks) < self.hand_size:
            self.trick_order = self.play_orders[win_seat]
            self.leader = self.to_act = win_seat
            return
        self.score_hand()

    def trick_winner(self, trick: list[tuple[int, Card]]) -> int:
        """The seat that wins the complete `trick`, by the ruleset's trick rules."""
        try:
            return self.tricks_play.winner(trick, self.trump)
        except NoWinner:
            cards = " ".join(card_words(c, self.rules.specials) for _, c in trick)
            raise RuleError(
                f"no rule of trick.winner picks a card of the trick {cards}",
                hand=self.hand_number,
                origin="trick.winner (" + ", ".join(r.text for r in self.rules.trick_winner) + ")",
            ) from None

    #: play hands with the compiled engine (engine/compiled.py) where it can; False: interpret every hand
    use_compiled = True

    def play_hand_unobserved(self, choose: list[Callable[[list[int]], int]] | None) -> None:
        """Bid and play the rest of this hand with players that see only their legal actions:
        `choose[seat](legal)` picks each action; None: every seat picks uniformly at random,
        drawing from `rng` as `uniform_chooser` does. A hand from its start, or from its first
        card, goes to the compiled engine when the ruleset's hands are compiled; the same draws
        give the same game."""
        if self.use_compiled and self.facts.compiled.play_hand is not None and self.kind.view != "forehead":
            while self.phase == DECISION:  # a trump named before the bidding
                options = self.decision_options()
                self.decide(options[int(self.rng.random() * len(options))] if choose is None else choose[self.to_act](options))  # type: ignore[index,arg-type]
            if self.phase == BIDDING and not self.bid_log:
                self.facts.compiled.play_hand(self, choose)
                return
            if self.phase == PLAY and not self.tricks and not self.trick and choose is not None:  # bid by players reading their views
                self.facts.compiled.play_tricks(self, choose)
                return
        if choose is None:
            choose = [uniform_chooser(self.rng)] * self.players
        if self.phase != PLAY:
            self.bid_unobserved(choose)
        self.play_tricks_unobserved(choose)

    def play_hands_random(self) -> None:
        """Bid and play the rest of this hand with every seat choosing uniformly at random (as
        `play_hand_unobserved(None)`), and go on with the next hands for as long as the compiled
        engine plays them whole: it returns at the end of the game or at a hand to be played
        another way (a forehead hand, a decision), set up as game.py sets it up."""
        loop = self.facts.compiled.play_game_random if self.use_compiled else None
        if loop is not None and self.phase == BIDDING and not self.bid_log and self.kind.view != "forehead":
            loop(self)
        else:
            self.play_hand_unobserved(None)

    def bid_unobserved(self, choose: list[Callable[[list[int]], int]]) -> None:
        """Finish this hand's bidding, asking `choose[seat](legal bids)` for each bid (see
        `play_tricks_unobserved`)."""
        while self.phase == BIDDING or self.phase == DECISION:
            if self.phase == DECISION:
                self.decide(choose[self.to_act](self.decision_options()))  # type: ignore[index,arg-type]
                continue
            legal = self.allowed_bids()
            bid = choose[self.to_act](legal)  # type: ignore[index]
            if type(bid) not in (int, str) or bid not in legal:
                raise self.bid_refusal(bid, legal)
            self.commit_bid(bid)

    def play_tricks_unobserved(self, choose: list[Callable[[list[Card]], Card]]) -> None:
        """Play this hand's tricks to the end, asking `choose[seat](legal cards)` for each card.

        For players that look at nothing but their legal cards (random play): the same rules as
        `play`, without building views, so thousands of games a second can be simulated.
        """
        if self.phase != PLAY or self.kind.view == "forehead":
            raise IllegalAction("play_tricks_unobserved needs a hand in play whose players see their cards")
        hands, trump, void_rule, play_orders = self.hands, self.trump, self.rules.when_void, self.play_orders
        legal_cards, trick_winner, suit_of = self.tricks_play.legal, self.tricks_play.winner, SUIT_OF
        if not self.tricks_play.standard:
            trick_winner = lambda trick, trump: self.trick_winner(trick)  # noqa: E731 (names the rule on failure)
        tricks, taken = self.tricks, self.taken
        trick = self.trick
        leader = trick[0][0] if trick else self.to_act  # a trick may be under way
        for _ in range(self.hand_size - len(tricks)):
            order = play_orders[leader]  # type: ignore[index]
            for seat in order[len(trick):]:
                hand = hands[seat]
                legal = legal_cards(hand, trick, trump, void_rule)
                card = choose[seat](legal)
                if card not in legal:
                    raise self.card_refusal(seat, card)
                hand[suit_of[card]].remove(card)
                trick.append((seat, card))
            leader = trick_winner(trick, trump)
            tricks.append(_new_trick(Trick, (order[0], tuple(trick), leader)))
            taken[leader] += 1
            trick = self.trick = []
        self.legal_cards_memo = None
        self.score_hand()

    def card_refusal(self, seat: int, card: object) -> IllegalAction:
        """Why `seat` may not play `card` now: not a card of the deck, not held, or the rule of
        the led suit it breaks (must follow, must trump, must over-trump)."""
        if type(card) is not int or card not in self.deck:
            return IllegalAction("that is not a card of this deck", "not_a_card", "that is not a card of this deck")
        text = card_words(card, self.rules.specials)  # type: ignore[arg-type]
        h = self.hands[seat]
        if card not in h[SUIT_OF[card]]:  # type: ignore[index]
            return IllegalAction(f"you do not hold {text}", "not_held", "does not hold it")
        led = self.tricks_play.led(self.trick, self.trump)
        if led == NO_SUIT:  # cannot happen: with nothing to follow every card is legal
            return IllegalAction(f"you may not play {text} now", "illegal", f"may not play {text}")
        if h[led]:
            return IllegalAction(
                f"you must follow suit: {suit_name(led)} were led and you hold {len(h[led])}",
                "must_follow",
                f"holds {_a_card_of(led)} (must follow)",
            )
        trump = suit_name(self.trump)
        best_trump = max((c for _, c in self.trick if SUIT_OF[c] == self.trump), default=-1)
        if self.rules.when_void == "must_overtrump" and any(c > best_trump for c in h[self.trump]):
            return IllegalAction(
                f"you must over-trump if you can, else trump: you are void in {suit_name(led)}",
                "must_overtrump",
                f"is void in {suit_name(led)} and holds a higher trump (must over-trump)",
            )
        return IllegalAction(
            f"you must trump: you are void in {suit_name(led)} and hold {trump}",
            "must_trump",
            f"is void in {suit_name(led)} and holds {_a_card_of(self.trump)} (must trump)",
        )

    # ------------------------------------------------------------ end of hand and game

    def points_if(self, taken: Sequence[int], bids: Sequence[int] | None = None, calls: Sequence[str] = ()) -> tuple[Number, ...]:
        """Each seat's points (bonus included) if this hand ended with `taken` tricks per seat
        (and `bids`, `calls` in place of the ones made): the hand scored by the ruleset's
        formulas on a copy of the game, which is left as it is (look-ahead players judge a
        finished hand so). Raises RuleError where the formulas cannot score it."""
        sim = self.clone()
        if bids is not None:
            sim.bids = list(bids)
        if calls:
            sim.calls = list(calls)
        sim.taken = list(taken)
        sim.stop_after_hand = True
        sim.score_hand()
        return sim.history[-1].points

    def score_hand(self) -> None:
        """Score the hand whose last trick is taken, by the ruleset's formulas (each seat's
        points, bonus and running values, remembered by the values they read), then close it
        (`close_hand`). Raises RuleError where a formula fails or a total passes the limit."""
        rules, n = self.rules, self.players
        points: list[Number] = [0] * n
        bonuses: list[Number] = [0] * n
        totals_after = list(self.totals)
        running_after = list(self.running)
        scratch: dict[str, Value] | None = None
        # the scoring formulas are pure: remember each seat's score by the values they read
        _, seat_names, set_names, by_sets = self._score_reads
        memo = self.facts.score_memo
        hand_key = self.score_memo_key
        rows = self._seat_rows(results=True) if set_names else ()
        passes = self._score_in_passes(rows, set_names) if rules.scores_in_passes else None
        for index, seat in enumerate(self.bidding_order):
            bid, tricks = self.bids[seat], self.taken[seat]
            key = (bid, tricks, hand_key, *[self._seat_value(seat, name) for name in seat_names]) if seat_names else (bid, tricks, hand_key)
            if set_names:  # what the scoring reads of the other seats
                sets = seat_sets(rows, index, set_names)
                key += tuple(f.seat_key(sets) for f in by_sets)
            scored = memo.get(key) if passes is None else passes[index]
            if scored is None:
                if scratch is None:
                    scratch = dict(self.hand_env)
                if set_names:
                    scratch.update(sets)
                env = result_env(
                    self.hand_env,
                    bid,  # type: ignore[arg-type]
                    tricks,
                    total=self.totals[seat],
                    is_dealer=seat == self.dealer,
                    position=self.position[seat],
                    running=self.running[seat],
                    into=scratch,
                    call=self.calls[seat],
                    blind=self.blind[seat],
                    is_declarer=seat == self.declarer,
                    auction_bid=self.auction_bid,
                    excused=self.excused[seat],
                )
                try:
                    scored = score_seat(rules, env)
                except EvalError as e:
                    formulas = (rules.points, rules.bonus, *(r.after_hand for r in rules.running))
                    raise _formula_error(e, formulas, env, hand=self.hand_number, seat=seat) from None
                memo.keep(key, scored)
            p, b, new_running = scored
            points[seat] = p + b
            bonuses[seat] = b
            total = self.totals[seat] + p + b
            if type(total) is int:
                if not -MAX_NUMBER < total < MAX_NUMBER:
                    raise self._total_too_large(seat, total)
            else:
                total = _exact(total)
                if not within_limit(total):
                    raise self._total_too_large(seat, total)
            totals_after[seat] = total
            if new_running:  # a fresh dict each hand: the history keeps the old ones
                running_after[seat] = dict(new_running)
        self.close_hand(points, bonuses, totals_after, running_after)

    def close_hand(self, points: list[Number], bonuses: list[Number], totals_after: list[Number], running_after: list[dict[str, Number]]) -> None:
        """The scored hand's end: the new totals and running values, the hand's result in the
        history, then the next hand or the end of the game (also called by engine/compiled.py's
        generated hands, which score by themselves)."""
        self.record_hand(points, bonuses, totals_after, running_after)
        self.next_hand()

    def next_hand(self) -> None:
        """After a hand's result is in the history and its totals are kept: the next hand, or the
        end of the game (also called by engine/compiled.py's game loop, which records hands itself)."""
        rules = self.rules
        if self.stop_after_hand:
            self.phase = OVER
            self.to_act = None
            return
        if self.index + 1 < len(self.plan):
            if rules.end is None or not self._game_ends():
                self.begin_hand(self.index + 1, reuse_hands=True)
                return
            del self.plan[self.index + 1 :]  # ended on its condition: the schedule is the hands played
            self.scheduled_hands = len(self.plan)
        winners = self.standings()
        if len(winners) > 1 and self.extra_hands_left > 0:
            self.extra_hands_left -= 1
            self.plan.append(PlannedHand(len(self.plan) + 1, self.extra_cards, rules.tiebreak.kind))  # type: ignore[union-attr]
            self.begin_hand(self.index + 1, reuse_hands=True)
            return
        self.phase = OVER
        self.to_act = None
        self.result = GameResult(tuple(self.totals), tuple(winners), tuple(dict(r) for r in self.running))

    def record_hand(self, points: list[Number], bonuses: list[Number], totals_after: list[Number], running_after: list[dict[str, Number]]) -> None:
        """The scored hand's new totals and running values, and its result in the history."""
        self.totals = totals_after
        self.running = running_after
        plan = self.plan[self.index]
        tricks = self.tricks
        decides = self._decides
        self.history.append(
            tuple.__new__(  # HandResult's fields in order, every one given (a hot path)
                HandResult,
                (
                    plan.number,
                    plan.size,
                    plan.kind,
                    self.kind.mark,
                    self.setup.extra,
                    self.dealer,
                    self.sitting_out,
                    self.trump,
                    self.turn_up,
                    self.dealt,
                    tuple(self.bid_log),
                    tricks if type(tricks) is PlayedTricks else tuple(tricks),  # the compiled engine's: read when asked
                    tuple(self.taken),
                    tuple(points),
                    tuple(bonuses),
                    tuple(totals_after),
                    tuple(running_after),
                    self.rng.getstate() if self.keep_rng_states else None,
                    self.rules.specials,
                    tuple(self.choices) if decides else (),
                    tuple(self.calls) if decides else (),
                    tuple(self.blind) if decides else (),
                    tuple(self.excused) if decides else (),
                    self.declarer if decides else None,
                    self.auction_bid if decides else 0,
                    self.trump_from,
                ),
            )
        )

    def _score_in_passes(self, rows: tuple[dict[str, Value], ...], set_names: tuple) -> list:
        """Every seat's (points, bonus, running values) when the bonus or a running value reads
        the other seats' points (engine/scoring.py `score_in_passes`)."""
        envs = []
        for index, seat in enumerate(self.bidding_order):
            env = result_env(
                self.hand_env,
                self.bids[seat],  # type: ignore[arg-type]
                self.taken[seat],
                total=self.totals[seat],
                is_dealer=seat == self.dealer,
                position=self.position[seat],
                running=self.running[seat],
                call=self.calls[seat],
                blind=self.blind[seat],
            )
            env.update(seat_sets(rows, index, set_names))
            envs.append(env)
        try:
            return score_in_passes(self.rules, envs, rows)
        except ScoreError as e:
            rules = self.rules
            formulas = (rules.points, rules.bonus, *(r.after_hand for r in rules.running))
            raise _formula_error(e, formulas, e.env, hand=self.hand_number, seat=self.bidding_order[e.index]) from None

    def _game_ends(self) -> bool:
        """`end.when` after this hand of the schedule (tie-break hands do not ask it)."""
        when = self.rules.end.when  # type: ignore[union-attr]
        env = dict(self.hand_env)
        if when.seat_reads:  # every player's total and running values after this hand
            rows = tuple(winner_env({}, self.totals[s], self.running[s]) for s in range(self.players))
            env.update(seat_sets(rows, 0, ("seats",)))
        try:
            return bool(when(env))
        except EvalError as e:
            raise _formula_error(e, (when,), env, hand=self.hand_number) from None

    #: keep the generator's state after each hand in the history (records set it, to resume)
    keep_rng_states = False

    def _total_too_large(self, seat: int, total: Number) -> RuleError:
        return RuleError(
            f"the total would pass the number limit of 10^{len(str(MAX_NUMBER)) - 1} in size",
            hand=self.hand_number,
            seat=seat,
            origin=self.rules.points.origin if self.rules.points is not None else "",
            values={"total": self.totals[seat]},
        )

    def standings(self) -> list[int]:
        """The seats that win now: `wins_outright` first, then each ranking key in turn."""
        rules = self.rules
        table = game_env(self.players, lets=rules.let_values(self.players))
        envs = [winner_env(table, self.totals[seat], self.running[seat]) for seat in range(self.players)]
        if rules.winner_sets:  # what the winner's keys read of every player
            rows = tuple(winner_env({}, self.totals[seat], self.running[seat]) for seat in range(self.players))
            for seat, env in enumerate(envs):
                env.update(seat_sets(rows, seat, rules.winner_sets))
        seats = list(range(self.players))
        if rules.wins_outright is not None:
            outright = [s for s in seats if self._winner_formula(rules.wins_outright, envs[s], s)]
            if outright:
                seats = outright
        for key in rules.rank:
            values = {s: self._winner_formula(key.formula, envs[s], s) for s in seats}
            best = max(values.values()) if key.highest else min(values.values())
            seats = [s for s in seats if values[s] == best]
            if len(seats) == 1:
                break
        return seats


    def _winner_formula(self, formula: Formula, env: dict[str, Value], seat: int) -> Value:
        try:
            return formula(env)
        except EvalError as e:
            hand = self.history[-1].number if self.history else None
            raise _formula_error(e, (formula,), env, hand=hand, seat=seat) from None


def _formula_error(
    error: EvalError, formulas: Iterable[Formula | None], env: Mapping[str, Value], *, hand: int | None, seat: int | None = None
) -> RuleError:
    """A RuleError naming the formula of `formulas` that raised `error` in `env`, and what it read.

    The formulas are pure, so evaluating them again in order finds the one that fails.
    """
    for f in formulas:
        if f is None:
            continue
        try:
            f(env)  # type: ignore[arg-type]
        except EvalError as again:
            sets = {name for name, _ in f.seat_reads}
            values = {n: env[n] for n in f.names if n in env and n not in sets}
            return RuleError(str(again), hand=hand, seat=seat, origin=f.origin, values=values)
    return RuleError(str(error), hand=hand, seat=seat)


def uniform_chooser(rng: random.Random) -> Callable[[list], Any]:
    """A uniformly random pick from a list of legal actions, drawing once from `rng` (the random
    player's choice; the compiled engine draws the same way in place)."""
    rnd = rng.random
    return lambda legal: legal[int(rnd() * len(legal))]


_new_trick = tuple.__new__  # Trick(...) without its keyword handling: the hot path's constructor


def by_suit(cards: Iterable[Card]) -> list[Card]:
    """Cards in the order people read them: spades, hearts, diamonds, clubs, then the specials;
    high to low in a suit."""
    return sorted(cards, key=_by_suit_key)


def _by_suit_key(c: Card) -> tuple[int, int]:
    return (SUIT_OF[c], -c if c < SPECIAL * 16 else c)  # the specials in the deck's order


def _holds(formula: Formula, env: Mapping[str, Value]) -> bool:
    """Whether a yes/no formula is true in `env` (false when it cannot be evaluated there)."""
    try:
        return bool(formula(env))  # type: ignore[arg-type]
    except EvalError:
        return False


def _a_card_of(suit: int) -> str:
    return {"spades": "a spade", "hearts": "a heart", "diamonds": "a diamond", "clubs": "a club"}[suit_name(suit)]


def _exact(x: Number) -> Number:
    if isinstance(x, Fraction) and x.denominator == 1:
        return int(x)
    return x

