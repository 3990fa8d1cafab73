"""The deal: a hand set up (`begin_hand`): its kind, dealer and seat orders, the cards dealt
(shuffled, or a set-up deal checked), the trump found, then its first decision or its bidding.

A part of `Game` (engine/game.py), which mixes in every phase; its entry point is `begin_hand`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from ...language.environment import dealt_facts, first_bidder_env, first_lead_env, redeal_env, seat_env, seat_sets
from ...language.errors import EvalError
from ...language.program import Formula
from ...language.values import Value
from ...rules.ruleset import HandKind, HandSetup, Redeal, SeatChoice, hand_env, hand_setup
from ..cards import SUIT_OF, Card, card_words, new_hand, suit_number
from ..errors import RuleError, formula_error
from ..state import Bid, Phase, PresetDeal, Redealt, Trick
from ..table import SeatOrders
from . import Part

BIDDING = Phase.BIDDING
DEAL = Phase.DEAL
TRUMP = Phase.TRUMP


class Dealing(Part):
    """The part of `Game` that plays the deal (entry point: `begin_hand`)."""

    def seat_orders(self, dealer: int, sits_out: bool, first_bidder: int | None = None) -> SeatOrders:
        """The seating orders for a hand with this dealer (shared by every game of this size);
        `first_bidder` when `bidding.first` chose it."""
        return self.facts.seat_orders(dealer, sits_out, first_bidder)  # type: ignore[no-any-return]  # the table facts are Any to the phases (see Part): seat_orders answers SeatOrders

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
                raise formula_error(e, (f,), env, hand=self.hand_number, seat=seat) from None
            if best is None or (value > best if choice.highest else value < best):  # type: ignore[operator]  # the checker typed the choice's formula a number
                best_seat, best = seat, value
        return best_seat

    def _choose_first_bidder(self) -> None:
        """`bidding.first: {highest: ...}`: the first bidder, from the seats in bidding order after the dealer."""
        order = self.bidding_order
        envs = [first_bidder_env(self.hand_env, total=self.totals[s], is_dealer=s == self.dealer, running=self.running[s]) for s in order]
        if self.rules.first_bidder_choice.formula.seat_reads:  # type: ignore[union-attr]  # called only when the ruleset has bidding.first: {highest: ...}
            rows = tuple(first_bidder_env({}, total=self.totals[s], is_dealer=s == self.dealer, running=self.running[s]) for s in order)
            for index, env in enumerate(envs):
                env.update(seat_sets(rows, index, ("seats", "others")))

        def env_of(index: int, seat: int) -> dict[str, Value]:
            return envs[index]

        first = self._choose_seat(self.rules.first_bidder_choice, env_of, order)  # type: ignore[arg-type]  # called only when the ruleset has bidding.first: {highest: ...}
        self._seat_table(self.seat_orders(self.dealer, self.setup.dealer_sits_out, first))
        self.to_act = self.bidding_order[0]

    def _choose_first_leader(self) -> int:
        """`play.first_lead: {highest: ...}`: the first leader once every bid is made (ties to the earlier bidder)."""
        order = self.bidding_order
        rows = self._seat_rows()
        sets = self.rules.first_lead_choice.formula.seat_reads  # type: ignore[union-attr]  # called only when the ruleset has play.first_lead: {highest: ...}

        def env_of(index: int, seat: int) -> dict[str, Value]:
            env = first_lead_env(self.hand_env, rows[index], **self.seat_choices(seat))
            if sets:
                env.update(seat_sets(rows, index))
            return env

        return self._choose_seat(self.rules.first_lead_choice, env_of, order)  # type: ignore[arg-type]  # called only when the ruleset has play.first_lead: {highest: ...}

    def _begin_kind(self, kind: HandKind) -> None:
        self.kind = kind
        tests = self.facts.bid_tests[kind.name]
        self._bid_tests, self._bid_hand_names, self._bid_seat_names, self._bid_sets = tests

    def _keep_bid_hand_key(self) -> None:
        """What the bidding limits read of this hand: the first part of their memo's key."""
        #: what the bidding limits read of this hand: the first part of their memo's key
        self.bid_memo_key = (
            self.kind.name,  # type: ignore[union-attr]  # a hand has begun: its kind is set
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

    def begin_hand(self, index: int, reuse_hands: bool = False, again: bool = False) -> None:
        """Set up hand `index` of the plan: its dealer and seat orders, the deal (a set-up deal,
        or shuffled), the trump, then its first decision or its bidding. `reuse_hands`: the
        hand lists of the hand before may be filled again (nothing else holds them); `again`:
        the hand is dealt again (`redeal`), the deals before kept in `redealt`."""
        rules, n = self.rules, self.players
        plan = self.plan[index]
        self.index = index
        if not again:
            #: this hand's deals dealt again (`redeal`), in order: the one played is `dealt`
            self.redealt: list[Redealt] = []
        setup = self._setups.get(index)
        if setup is None or setup.plan is not plan:
            try:
                setup = hand_setup(rules, n, plan, self.hands_total, index >= self.scheduled_hands)
            except EvalError as e:
                env = hand_env(rules, n, plan, self.hands_total, index >= self.scheduled_hands)
                raise formula_error(e, (rules.sits_out,), env, hand=plan.number) from None
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
        preset = given = self.deals.get(plan.number) if self.deals else None
        if preset is not None and preset.redeals:  # a set-up deal dealt again: its deals in order
            k = len(self.redealt)
            preset = preset.redeals[k] if k < len(preset.redeals) else preset
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
        self.legal_bids_memo: list[Bid] | None = None
        self.legal_cards_memo = None
        redeal = self.redeal_rule()
        if redeal is not None or (given is not None and given.redeals):
            if redeal is not None and redeal.when is not None and self._deals_again_when(redeal.when, redeal.limit):
                self.deal_again("when")
                return
            if not self.may_deal_again_later():
                self.played_as_dealt()
        if self._decides:
            self.begin_decisions(setup)

    def redeal_rule(self) -> Redeal | None:
        """The ruleset's `redeal`, or None when this hand is played as dealt whatever it says (a
        set-up deal `as_dealt`: a position imagined for look-ahead)."""
        given = self.deals.get(self.hand_number) if self.deals else None
        return None if given is not None and given.as_dealt else self.rules.redeal

    def _deals_again_when(self, when: Formula, limit: int) -> bool:
        """`redeal.when`, asked of the cards dealt once trump is known (false once the hand has
        been dealt again `limit` times). Raises the rule error naming the formula when it
        cannot be evaluated."""
        if len(self.redealt) >= limit:
            return False
        suits = [suit_number(s) for s in self.rules.suits]
        trump = self.trump
        rows = []
        for index, seat in enumerate(self.bidding_order):
            held = self.hands[seat]
            row = seat_env({}, total=self.totals[seat], is_dealer=seat == self.dealer, position=index + 1, running=self.running[seat])
            rows.append(dealt_facts(row, [len(held[s]) for s in suits], len(held[trump]) if trump >= 0 else 0))
        env = redeal_env(self.hand_env, tuple(rows))
        try:
            return bool(when(env))
        except EvalError as e:
            raise formula_error(e, (when,), env, hand=self.hand_number) from None

    def deal_again(self, why: str) -> None:
        """The hand dealt again by the same dealer (`redeal`; `why`: `when` or `passed_out`):
        the deal so far kept in `redealt` with the choices made on it, then the deal, the trump
        and the decisions begin again. A set-up deal must give the deal dealt next (a record
        keeps every deal of a hand): raises ValueError when it does not."""
        given = self.deals.get(self.hand_number) if self.deals else None
        if given is not None and len(given.redeals) <= len(self.redealt):
            rule = {
                "when": "`redeal.when` holds of it",
                "passed_out": "every seat passed in the auction (`redeal.passed_out`)",
                "declared": "a seat declared `redeal`",
            }[why]
            raise ValueError(f"hand {self.hand_number}: by the rules this deal is dealt again ({rule}), but the deal given is played")
        self.redealt.append(Redealt(tuple(self.dealt), self.turn_up, tuple(self.choices) if why != "when" else (), why))
        self.begin_hand(self.index, again=True)

    def may_deal_again_later(self) -> bool:
        """Whether this hand may still be dealt again after the deal: when every seat passes in
        the auction (`redeal.passed_out`), or when a seat declares `redeal` (`declare`)."""
        redeal, rules = self.redeal_rule(), self.rules
        if redeal is not None and redeal.passed_out and rules.auction is not None:
            return True
        return rules.declare is not None and any(name == "redeal" for name, _ in rules.declare.choices)

    def played_as_dealt(self) -> None:
        """The hand is played as dealt: a set-up deal that says it was dealt again more often is
        refused (ValueError)."""
        given = self.deals.get(self.hand_number) if self.deals else None
        if given is not None and len(given.redeals) > len(self.redealt):
            raise ValueError(
                f"hand {self.hand_number}: the deal given was dealt again {len(given.redeals)} time{'s' if len(given.redeals) > 1 else ''}, "
                f"but by the rules the deal after {len(self.redealt)} is played"
            )

    def _deal(
        self, preset: PresetDeal | None, table: SeatOrders, size: int, playing: int, reuse_hands: bool, none_first: bool
    ) -> tuple[Card | None, int]:
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
                        if held > 1
                        else f"hand {number}: {card_words(c, specials)} is dealt twice"
                    )
                left[c] -= 1
        dealt = [tuple(cards) for cards in preset.deal]
        self._trump_step.check_preset(number, self.dealer, dealt, preset.turn_up, left)
        return dealt

    def _no_trump_before_deal(self, index: int, setup: HandSetup) -> bool:
        """`trump.none_when` asked before the deal: the same answer for every game at this hand
        of the schedule (remembered per table), asked again for a tie-break hand."""
        kept = self.facts.no_trump.get(index)
        if kept is not None and kept[0] is setup:
            return kept[1]  # type: ignore[no-any-return]  # the table facts are Any to the phases (see Part): the kept answer is a bool
        known = self._no_trump(setup, None)
        if index < self.scheduled_hands:
            self.facts.no_trump[index] = (setup, known)
        return known
