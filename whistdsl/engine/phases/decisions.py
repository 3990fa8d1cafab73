"""The ruleset's own decisions (`decide`, language 2): a trump named by a seat, blind or look,
the auction and its declarer, a seat excused from bidding; who is asked next.

A part of `Game` (engine/game.py), which mixes in every phase; its entry point is `decide`.
"""

from __future__ import annotations

from ...language.environment import auction_env, declare_env, seat_env, skip_env
from ...language.errors import EvalError
from ...language.program import Formula
from ...rules.ruleset import HandSetup, Redeal
from ..auction import Auction
from ..cards import NO_TRUMP, suit_name, suit_number, turn_up_facts
from ..errors import IllegalAction, formula_error
from ..state import Phase
from . import Part

BIDDING = Phase.BIDDING
DECISION = Phase.DECISION


class Decisions(Part):
    """The part of `Game` that plays the ruleset's own decisions (entry point: `decide`)."""

    def begin_decisions(self, setup: HandSetup, names_trump: bool | None = None) -> None:
        """The hand's own decisions before the bidding: a trump named by a seat, then each
        bidder's choice to bid blind or look (the `decisions` of the ruleset). Called once the
        hand is dealt and its trump found (game.py's `begin_hand`, the compiled set-up, which
        gives `names_trump`, the answer of `names_trump(setup)` it remembers)."""
        n = self.players
        self.calls: list[str] = [""] * n
        self.auction_calls: list[str] = [""] * n
        self.blind: list[bool] = [False] * n
        self.looked: list[bool] = [not self.rules.blind_bids] * n
        self.choices: list[tuple[int, str, str]] = []
        self.trump_named_by: int | None = None
        self.decision: str | None = None
        self.excused = [False] * n
        self.declarer, self.auction_bid = None, 0
        self._auction: Auction | None = None
        self.declared = [""] * n
        choice = self.rules.trump_choice
        self._names_trump = False
        if choice is not None:
            self._names_trump = self.names_trump(setup) if names_trump is None else names_trump
        if self.rules.declare is not None:
            given = self.deals.get(self.hand_number) if self.deals else None
            if given is None or given.declared is None:
                self._next_declarer(0)
                return
            self.declared = list(given.declared)  # a position imagined for look-ahead: made already
        self._after_declarations()

    def _after_declarations(self) -> None:
        """The decisions after the declarations: a trump named before the bidding, the auction,
        else the first bidder."""
        redeal = self.redeal_rule()
        if self.rules.declare is not None and not (redeal is not None and redeal.passed_out and self.rules.auction is not None):
            self.played_as_dealt()  # no seat declared `redeal`, and nothing after deals again
        choice = self.rules.trump_choice
        if choice is not None and self._names_trump and not choice.after_bidding and choice.who != "declarer":
            self._ask(self._trump_chooser(), "trump")
            return
        if self.rules.auction is not None:
            self._begin_auction(self.setup)
            return
        self._next_bidder(self.bidding_order[0])

    def _next_declarer(self, index: int) -> None:
        """The declarations (`declare`), from the seat at `index` of the bidding order on: each
        seat that may make one is asked (a seat with none to make is not); then the decisions
        after them."""
        order = self.bidding_order
        for i in range(index, len(order)):
            offer = self._declarations(order[i], i)
            if len(offer) > 1:
                #: the seat declaring (its index in the bidding order) and what it may declare
                self._declaring, self._declare_offer = i, offer
                self._ask(order[i], "declare")
                return
        self._after_declarations()

    def _declarations(self, seat: int, index: int) -> list[str]:
        """What `seat` may declare: `no`, then each declaration whose formula holds of its cards
        (`redeal` only while the hand may be dealt again). Raises the rule error naming the
        formula when one cannot be evaluated."""
        suits = [suit_number(s) for s in self.rules.suits]
        held, trump = self.hands[seat], self.trump
        env = seat_env(dict(self.hand_env), total=self.totals[seat], is_dealer=seat == self.dealer, position=index + 1, running=self.running[seat])
        env = declare_env(env, [len(held[s]) for s in suits], len(held[trump]) if trump >= 0 else 0)
        limit = self.rules.redeal.limit if self.rules.redeal is not None else Redeal.limit
        offer = ["no"]
        for name, condition in self.rules.declare.choices:  # type: ignore[union-attr]  # asked only of a ruleset that has declarations
            if name == "redeal" and len(self.redealt) >= limit:
                continue
            try:
                if condition(env):
                    offer.append(name)
            except EvalError as e:
                raise formula_error(e, (condition,), env, hand=self.hand_number, seat=seat) from None
        return offer

    def names_trump(self, setup: HandSetup) -> bool:
        """Whether a seat names this hand's trump: the trump rule's condition (`when`), asked of
        the hand's set-up, its trump and the card turned. Raises the rule error naming the
        formula when it cannot be evaluated."""
        choice = self.rules.trump_choice
        if choice is None:
            return False
        if choice.when is None:
            return True
        env = dict(setup.env, trump=suit_name(self.trump), **turn_up_facts(self.turn_up, self.rules.specials))
        try:
            return bool(choice.when(env))
        except EvalError as e:
            raise formula_error(e, (choice.when,), env, hand=self.hand_number) from None

    def _begin_auction(self, setup: HandSetup) -> None:
        """The auction before the bidding (engine/auction.py): everyone bids looking at its cards."""
        rule = self.rules.auction
        low = rule.min  # type: ignore[union-attr]  # the auction decision exists only when the ruleset has an auction
        if isinstance(low, Formula):
            env = auction_env(setup.env)
            try:
                low = int(low(env))  # type: ignore[arg-type]  # the checker typed the auction's lowest bid a number
            except EvalError as e:
                raise formula_error(e, (rule.min,), env, hand=self.hand_number) from None  # type: ignore[union-attr, arg-type]  # the auction decision exists only when the ruleset has an auction; a formula here (isinstance above)
        calls = tuple((c.name, c.bid, c.most) for c in rule.calls)  # type: ignore[union-attr]  # the auction decision exists only when the ruleset has an auction
        auction = self._auction = Auction(self.bidding_order, low, self.hand_size, rule.suits, calls)  # type: ignore[union-attr]  # the auction decision exists only when the ruleset has an auction
        self.looked = [True] * self.players
        if auction.done:  # cannot happen with 2 or more seats
            self._end_auction()
            return
        self._ask(auction.to_act, "auction")

    def _end_auction(self) -> None:
        """The declarer (if any) bids first, its winning bid made for it; its suit is trump, or
        it names trump (`who: declarer`)."""
        assert self._auction is not None  # the auction is under way
        declarer, tricks, suit = self._auction.contract()
        self.declarer, self.auction_bid = declarer, tricks
        self.decision = None
        redeal = self.redeal_rule()
        if redeal is not None and redeal.passed_out:
            if declarer is None and len(self.redealt) < redeal.limit:  # every seat passed: deal again
                self.deal_again("passed_out")
                return
            self.played_as_dealt()
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
        """The bid made for `seat` at its turn: the declarer's contract, the bid of a call it
        made in the auction (a dash: its `call` is the call's name), 0 for a seat excused from
        bidding (`skip`); None when the seat bids itself."""
        if seat == self.declarer:
            return self.auction_bid
        called = self._auction.call_made(seat) if self._auction is not None and self._auction.calls else None
        if called is not None:
            self.calls[seat], bid = called
            return bid
        skip = self.rules.skip
        if skip is None:
            return None
        env = skip_env(
            self.hand_env,
            total=self.totals[seat],
            is_dealer=seat == self.dealer,
            position=len(self.bid_log) + 1,
            running=self.running[seat],
            **self.seat_choices(seat),  # not the declarer, which bids its contract
        )
        try:
            excused = bool(skip(env))
        except EvalError as e:
            raise formula_error(e, (skip,), env, hand=self.hand_number, seat=seat) from None
        if excused:
            self.excused[seat] = True  # type: ignore[index]  # excused is a list while the hand has decisions
            return 0
        return None

    def _trump_chooser(self) -> int:
        who = self.rules.trump_choice.who  # type: ignore[union-attr]  # a seat names trump only when the ruleset has a trump choice
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
        made = self._made_for(seat) if self.declarer is not None or self.rules.skip is not None or any(self.auction_calls) else None
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
            return list(self.rules.trump_choice.options)  # type: ignore[union-attr]  # a seat names trump only when the ruleset has a trump choice
        if self.decision == "auction":
            assert self._auction is not None  # the auction is under way
            return self._auction.options()
        if self.decision == "declare":
            return list(self._declare_offer)
        return ["look", "blind"]

    def decide(self, choice: str) -> None:
        """Make the decision of the seat to act: a trump's name (`none` for no trump), or
        `blind` / `look` before a bid. Raises IllegalAction (and changes nothing)."""
        if self.phase != DECISION:
            raise IllegalAction("there is no decision to make now", "not_your_turn", "made a decision when there was none to make")
        options = self.decision_options()
        if type(choice) is not str or choice not in options:
            what = {"trump": "trump", "auction": "a bid that outbids the highest so far, a call, or pass", "declare": "a declaration, or no"}.get(
                self.decision,  # type: ignore[arg-type]  # in the decision phase a decision is under way
                "whether to bid blind",
            )
            return_text = f"choose {what}: one of {', '.join(options)}"
            raise IllegalAction(return_text, "not_an_option", f"the options were {', '.join(options)}")
        seat = self.seat_to_act
        self.choices.append((seat, self.decision, choice))  # type: ignore[arg-type]  # in the decision phase a decision is under way
        if self.decision == "declare":
            if choice == "redeal":
                self.deal_again("declared")
                return
            self.declared[seat] = "" if choice == "no" else choice  # type: ignore[index]  # a hand with declarations keeps them in a list (begin_decisions)
            self._next_declarer(self._declaring + 1)
            return
        if self.decision == "auction":
            auction = self._auction
            assert auction is not None  # the auction is under way
            if any(choice == c for c, _, _ in auction.calls):
                self.auction_calls[seat] = choice  # seen by all, read by formulas as `auction_call`
            auction.apply(choice)
            if auction.done:
                self._end_auction()
            else:
                self.to_act = auction.to_act
            return
        if self.decision == "trump":
            self.trump_named_by = seat
            self.set_trump(NO_TRUMP if choice == "none" else suit_number(choice))
            if self.rules.trump_choice.after_bidding:  # type: ignore[union-attr]  # a seat names trump only when the ruleset has a trump choice
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
        if self.decision == "declare":  # the seats declare before the auction
            over = False
        if self.rules.auction is not None and self.rules.auction.suits and self.declarer is None and not over:
            return "auction"
        if self._names_trump:
            who = self.rules.trump_choice.who  # type: ignore[union-attr]  # a seat names trump only when the ruleset has a trump choice
            return None if who == "declarer" and self.declarer is None and over else who
        return None

    def highest_bidder(self) -> int:
        """The seat with the highest bid (a tie goes to the one who bid first)."""
        best_seat, best = self.bid_log[0]
        for seat, bid in self.bid_log[1:]:
            if bid > best:
                best_seat, best = seat, bid
        return best_seat
