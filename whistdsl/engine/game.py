"""The engine: one generic game loop that plays any compiled ruleset.

schedule -> (dealer, who sits out) -> deck and deal -> trump -> bidding -> tricks -> scoring
-> running values and bonuses -> next hand -> end of game, winner, tie-break hands.

Seats are numbered 0..N-1 clockwise (seat i+1 sits to the left of seat i); a counter-clockwise
direction moves from seat i to seat i-1. A `Game` is its rules, the static facts of its table
(engine/table.py: the deck, the schedule, seat orders, trick rules, memos; shared by every game
of that ruleset and size) and one position (engine/state.py `State`: the hands, bids, tricks,
totals and the explicit `Phase`). It says whose turn it is, the legal actions, what each seat
may see (`view`, engine/observer.py), and `act` applies an action; an illegal action raises
`IllegalAction` and changes nothing. Each phase of a hand is played by a part of the Game in a
module of its own (engine/phases/: deal, trump, decisions, bidding, play, scoring, next hand),
which this class mixes in; here are the set-up of a game and what answers for the whole. All randomness (the first dealer, the shuffles, and the
computer players' choices, which draw from `game.rng`) comes from one generator seeded by the
game's seed; its state at the end of each hand is kept so a game can be resumed exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import attrgetter

from ..language.catalogue import SEAT_FACTS, Read, SeatFact
from ..language.environment import seat_row
from ..language.values import Number, Value
from ..rules.ruleset import HandKind, PlannedHand, Ruleset
from .auction import Auction
from .cards import NO_TRUMP, SPECIAL, STRENGTH_OF, SUIT_OF, Card, by_suit, suit_name, wild_held
from .errors import IllegalAction, RuleError
from .observer import SeatView, seat_view
from .phases.bidding import Bidding
from .phases.deal import Dealing
from .phases.decisions import Decisions
from .phases.next_hand import NextHand
from .phases.play import Play, uniform_chooser
from .phases.scoring import Scoring
from .phases.trump import FindingTrump
from .state import Action, GameResult, HandResult, Phase, PresetDeal, Redealt, State, Trick
from .table import table_facts
from .tricks import TrickPlay
from .trump import TrumpStep, trump_step

#: What other modules import from here: the game, its results and errors, and the phases by name.
__all__ = [
    "Action", "BIDDING", "DEAL", "DECISION", "OVER", "PLAY", "TRUMP", "Game", "GameResult", "HandResult", "IllegalAction",
    "PresetDeal", "RuleError", "SeatView", "Trick", "by_suit", "uniform_chooser",
]  # fmt: skip

BIDDING = Phase.BIDDING
PLAY = Phase.PLAY
OVER = Phase.OVER
DECISION = Phase.DECISION
DEAL = Phase.DEAL
TRUMP = Phase.TRUMP


def _reader(fact: SeatFact) -> Callable[[State, int], Value]:
    """How a seat's fact of the hand's decisions is read of the game (SEAT_FACTS' `state`, `read`)."""
    get = attrgetter(fact.state)
    if fact.read == Read.SEAT:
        return lambda game, seat: get(game)[seat]
    if fact.read == Read.IS_SEAT:
        return lambda game, seat: seat == get(game)
    return lambda game, seat: get(game)


#: Each of SEAT_FACTS by name: how it is read of the game.
_READERS: dict[str, Callable[[State, int], Value]] = {f.name: _reader(f) for f in SEAT_FACTS}
_READ_ALL = tuple(_READERS.items())


class Game(Dealing, FindingTrump, Decisions, Bidding, Play, Scoring, NextHand):
    """One game of a ruleset: its rules and the table's static facts (`facts`), and its position
    (the State, engine/state.py). Drive it with `to_act`, `legal_actions`, `view` and `act`.

    Each phase of a hand is played by a part of its own (engine/phases/), mixed in here: the
    deal (`begin_hand`), the trump (`set_trump`), the decisions (`decide`), the bidding
    (`bid`), the play (`play`), the scoring (`score_hand`) and the next hand (`next_hand`).
    This class sets a game up and answers for the whole: whose turn, the legal actions, a
    seat's view, an action applied."""

    # the game's own facts, fixed when it is made (the rules and the table's facts are State.SHARED)
    players: int
    seed: int | None
    names: list[str]
    _auction: Auction | None  # this hand's auction (the `auction` decision), under way or done
    _specials: bool
    _decides: bool
    _names_trump: bool
    _bid_tests: tuple
    _bid_hand_names: tuple
    _bid_seat_names: tuple
    _bid_sets: tuple

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
        self.calls: list[str] | tuple[str, ...] = ("",) * n  # type: ignore[assignment]  # replaced by lists when the hand has decisions (Decisions.begin_decisions)
        self.blind: list[bool] | tuple[bool, ...] = (False,) * n  # type: ignore[assignment]  # a tuple until the hand has decisions (Decisions.begin_decisions makes it a list)
        self.choices: list[tuple[int, str, str]] = []
        self.redealt: list[Redealt] = []  # this hand's deals dealt again (`redeal`; engine/phases/deal.py)
        self.decision: str | None = None
        self.trump_named_by: int | None = None
        self.excused: list[bool] | tuple[bool, ...] = (False,) * n
        self.declared: list[str] | tuple[str, ...] = ("",) * n  # replaced by a list when the hand has declarations
        self.auction_calls: list[str] = [""] * n  # per seat, the named call it made in the auction (begin_decisions)
        self.declarer: int | None = None
        self.auction_bid = 0
        self._auction: Auction | None = None
        self._names_trump = False  # a seat names this hand's trump (the ruleset's trump decision)
        self._score_reads = facts.score

    @classmethod
    def from_view(cls, view: SeatView, hands: Mapping[int, Iterable[Card]], rng: random.Random) -> Game:
        """A private game positioned where `view` is, with `hands` as every playing seat's cards
        now: for computer players that look ahead (`look_ahead` below, built
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
    ) -> Game:
        """A private game at the start of hand `index` of `plan`, dealt `deal` (its dealer and
        turned card too), with the totals and running values given: a position imagined from a
        seat's view, for look-ahead (`look_ahead`). It draws from `rng`,
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
        game.first_dealer = deal.dealer  # type: ignore[assignment]  # an imagined game's deal always names its dealer
        game.totals = list(totals)
        game.running = [dict(r) for r in running]
        game.deals = {plan[index].number: deal}
        game.begin_hand(index)
        return game

    # ------------------------------------------------------------ set-up, and the seats' facts formulas read

    def _seat_value(self, seat: int, name: str) -> Value:
        """A seat's own value of a scoring name other than its bid and tricks."""
        if name == "total":
            return self.totals[seat]
        if name == "is_dealer":
            return seat == self.dealer
        if name == "position":
            return self.position[seat]
        read = _READERS.get(name)
        if read is not None:
            return read(self, seat)
        return self.running[seat][name]

    def seat_choices(self, seat: int) -> dict[str, Value]:
        """The seat's facts of this hand's decisions (the catalogue's SEAT_FACTS), by name: what
        the environments' builders are given as `**choices`."""
        return {name: read(self, seat) for name, read in _READ_ALL}

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
                    **self.seat_choices(s),
                )
            )
        return tuple(rows)

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

    # ------------------------------------------------------------ queries

    def legal_actions(self) -> list[int]:
        """The legal bids (bidding) or cards (play) of the seat to act; [] when the game is over.

        Cards come by suit (spades, hearts, diamonds, clubs), high to low within a suit (`by_suit`).
        """
        if self.phase == BIDDING:
            return list(self.allowed_bids())  # type: ignore[arg-type]  # the legal actions are bids here: numbers, and calls' names
        if self.phase == PLAY:
            return by_suit(self._legal_cards(self.seat_to_act))
        if self.phase == DECISION:
            return self.decision_options()  # type: ignore[return-value]  # a decision's options are names; the legal actions are declared cards and bids
        return []

    def view(self, seat: int) -> SeatView:
        """What `seat` may see now (engine/observer.py)."""
        return seat_view(self, seat)

    # ------------------------------------------------------------ actions

    def act(self, action: Action) -> None:
        """Apply the seat-to-act's bid or card. Raises IllegalAction (and changes nothing)."""
        if self.phase == BIDDING:
            self.bid(action)  # type: ignore[arg-type]  # in the bidding an action is a bid; bid() refuses anything else
        elif self.phase == PLAY:
            self.play(action)  # type: ignore[arg-type]  # in the play an action is a card or None; play() refuses anything else
        elif self.phase == DECISION:
            self.decide(action)  # type: ignore[arg-type]  # in a decision an action is an option's name; decide() refuses anything else
        else:
            raise IllegalAction("the game is over", "game_over")


def look_ahead(view: SeatView, hands: Mapping[int, Iterable[Card]], rng: random.Random) -> Game:
    """A private game positioned where `view` is, with `hands` as every playing seat's cards now
    (the unseen ones guessed) in place of the real cards: what computer players that look ahead
    play on. It is built through the Game's own set-up path (the same static facts, the same
    hand set-up and env): the hand is dealt as a set-up deal (each seat's cards now with the
    cards it has played this hand), the rules find its trump, and every action the view shows
    is applied again in order (trump named, blind or look, bids and calls, cards). It stops at
    the end of the hand. Raises ValueError for a view that shows too little to be played on
    (bids made together and not yet shown)."""
    if view.bids_hidden:
        raise ValueError("the bids are hidden in this view: a position cannot be built from it")
    rules, n = view.rules, view.players
    facts = table_facts(rules, n)
    index = view.hand_number - 1
    if view.extra:  # a tie-break hand: after the schedule
        plan, scheduled = [*facts.plan[:index], PlannedHand(view.hand_number, view.hand_size, view.kind)], index
    else:  # the schedule's own hand: its set-up and env are the ones every game of the table shares
        plan, scheduled = list(facts.plan), len(facts.plan)
    # the deal: each seat's cards now and the cards it has played this hand (the dealer's own
    # last card, when it is the turned one, last)
    played = [pair for t in view.tricks for pair in t.cards] + list(view.trick)
    deal: list[list[Card]] = [[] for _ in range(n)]
    for seat, held in hands.items():
        deal[seat].extend(held)
    for seat, c in played:
        deal[seat].append(wild_held(c, rules.specials))  # a played wild card was dealt as its special card
    if view.turn_up_place == "dealer" and view.turn_up in deal[view.dealer]:
        deal[view.dealer].remove(view.turn_up)
        deal[view.dealer].append(view.turn_up)
    # a random trump is the one the view shows (the others the rules find again from the deal)
    trump = view.trump if view.trump_from == "random" else None
    # the hand as it is: not dealt again (`redeal`), whatever the cards guessed
    # the declarations made (`declare`), as the view shows them, not asked again of the cards guessed
    declared = view.declared if view.rules.declare is not None and view.decision != "declare" else None
    preset = PresetDeal(tuple(map(tuple, deal)), dealer=view.dealer, turn_up=view.turn_up, trump=trump, as_dealt=True, declared=declared)
    hands_total = int(view.hand_env.get("hands", scheduled))  # type: ignore[arg-type]  # a hand's `hands` is a whole number
    game = Game.imagined(rules, n, rng, plan, index, scheduled, hands_total, view.totals, view.running, preset)
    for hand in game.hands:  # each suit high to low
        for suit in hand:
            suit.sort(reverse=True)
    # every action the view shows, again, in order
    bids = view.bids
    named = "none" if view.trump == NO_TRUMP else suit_name(view.trump)
    cards = 0
    auction = list(view.auction)
    while not (
        game.phase == view.phase
        and game.to_act == view.to_act
        and game.decision == view.decision
        and len(game.bid_log) == len(bids)
        and cards == len(played)
    ):
        phase = game.phase
        if phase == DECISION and game.decision == "trump" and view.trump_named_by is not None:
            game.decide(named)
        elif phase == DECISION and game.decision == "auction" and auction:  # the auction's bids and passes, again
            game.decide(auction.pop(0)[1])
        elif phase == DECISION and game.decision == "blind":  # made before its bid, or before the bid it is to make
            game.decide("blind" if view.blind and view.blind[game.seat_to_act] else "look")
        elif phase == DECISION:
            raise ValueError(f"hand {view.hand_number}: the view's decisions cannot be made again")
        elif phase == PLAY and cards < len(played):
            seat, c = played[cards]
            game.commit_card(seat, c)
            cards += 1
        elif phase != PLAY and len(game.bid_log) < len(bids):
            seat, bid = bids[len(game.bid_log)]
            call = view.calls[seat] if view.calls else ""
            game.commit_bid(call or bid)
        else:
            raise ValueError(f"hand {view.hand_number}: the view's position cannot be reached again")
    return game
