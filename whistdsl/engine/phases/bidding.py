"""The bidding (`bid`): the legal bids from the ruleset's limits (remembered by what they read),
a bid made or refused in the formula's own words, and the bidding of players that see
only their legal bids.

A part of `Game` (engine/game.py), which mixes in every phase; its entry point is `bid`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ...language.environment import bidding_env, seat_sets
from ...language.errors import EvalError
from ...language.program import Formula
from ...language.values import Value, value_text
from ..errors import IllegalAction, RuleError, formula_error
from ..state import Bid, Phase
from . import Part

BIDDING = Phase.BIDDING
DECISION = Phase.DECISION


class Bidding(Part):
    """The part of `Game` that plays the bidding (entry point: `bid`)."""

    def together_bidders(self) -> int:
        """How many of this hand's bidders bid together, unseen (`together`): every bidder, all
        but the last (`all_but_last`), or none."""
        return self.rules.bidders_together(len(self.bidding_order))

    def bids_hidden_now(self) -> bool:
        """Whether the bids made so far are hidden from the seats that did not make them: some
        bids are made together and not all of those are made yet (during the bidding)."""
        return len(self.bid_log) < self.together_bidders()

    def bids_so_far_seen(self) -> int:
        """What the bids made so far add up to as the seat to bid sees them: 0 while they are
        hidden (it bids together with them), else `bids_so_far`."""
        return 0 if self.bids_hidden_now() else self.bids_so_far

    def _rows_seen(self) -> tuple[dict[str, Value], ...]:
        """Every playing seat's row (`_seat_rows`) as the seat to bid sees it: while the bids are
        hidden, another seat's bid reads as 0 and its call as "" (as `bids_so_far` reads 0)."""
        rows = self._seat_rows()
        if not self.bids_hidden_now():
            return rows
        return tuple(r if s == self.to_act or "bid" not in r else {**r, "bid": 0, "call": ""} for s, r in zip(self.bidding_order, rows, strict=True))

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
            bids_so_far=self.bids_so_far_seen(),
            bidders=len(self.bidding_order),
            running=self.running[seat],
            into=env,
            **self.seat_choices(seat),
        )

    def allowed_bids(self) -> list[Bid]:
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
                seat = self.seat_to_act
                key: tuple[object, ...] = (self.bid_memo_key, len(self.bid_log), self.bids_so_far_seen())
                if self._bid_seat_names:
                    key += tuple([self._seat_value(seat, n) for n in self._bid_seat_names])
                if self._bid_sets:  # what the limits read of the other seats
                    env = self._bid_env(seat)
                    env.update(seat_sets(self._rows_seen(), len(self.bid_log), self._bid_sets))
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
                                legal.append(name)
                        env["call"] = ""
                    except EvalError as e:
                        raise formula_error(e, tests, env, hand=self.hand_number, seat=seat) from None
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

    def legal_bids(self) -> list[Bid]:
        """The legal bids of the seat to act (read it, do not change it); [] out of the bidding."""
        return self.allowed_bids() if self.phase == BIDDING else []

    def forbidden_bids(self) -> list[int]:
        """Bids in 0..hand size that the rules forbid the seat to act (the hook, forced bids)."""
        if self.phase != BIDDING:
            return []
        legal = set(self.allowed_bids())
        return [b for b in range(self.hand_size + 1) if b not in legal]

    def bid(self, bid: Bid) -> None:
        if self.phase != BIDDING:
            raise IllegalAction("it is not time to bid", "not_your_turn", "bid when it was not time to bid")
        legal = self.allowed_bids()
        if type(bid) not in (int, str) or bid not in legal:
            raise self.bid_refusal(bid, legal)
        self.commit_bid(bid)

    def commit_bid(self, bid: Bid) -> None:
        """Record the bid of the seat to act, already known to be legal (a number, or a named
        call): nothing is checked. After the last one, the play begins (or the decisions that
        follow the bidding). `bid` checks first; look-ahead replays known bids with this."""
        seat = self.seat_to_act
        if isinstance(bid, str):
            self.calls[seat] = bid  # type: ignore[index]  # calls is a list once the hand has decisions (calls come with them)
            bid = dict(self.rules.calls)[bid]
        self.bids[seat] = bid
        self.bid_log.append((seat, bid))
        self.bids_so_far += bid
        self.legal_bids_memo = None
        if len(self.bid_log) < len(self.bidding_order):
            if self._decides:
                self._next_bidder(self.bidding_order[len(self.bid_log)])
            else:
                self.to_act = self.bidding_order[len(self.bid_log)]
        elif self._decides and self._names_trump and self.rules.trump_choice.after_bidding:  # type: ignore[union-attr]  # _names_trump: the ruleset has a trump choice
            self._ask(self._trump_chooser(), "trump")
        else:
            self.begin_play()

    def bid_refusal(self, bid: object, legal: list[Bid] | None = None) -> IllegalAction:
        """Why the seat to act may not bid `bid` (`legal`: its legal bids, when known), told from
        the formula that forbids it: its name and place in the file, and what it read. The hook (`reason` "hook") is named when that formula depends on
        the earlier bids (it would allow the bid after other earlier bids) and the bids would add
        up to the hand size; a bid that is the only one allowed is `forced_bid`."""
        if legal is None:
            legal = self.allowed_bids()
        size = self.plan[self.index].size
        calls = dict(self.rules.calls)
        if type(bid) is str and bid in calls:
            env = dict(self._bid_env(self.seat_to_act), bid=calls[bid], call=bid)
            formula = next((t for t in self._bid_tests if not t(env)), None)
            because = f": {formula.origin} is false for the call {bid}" if formula is not None else ""
            allowed = ", ".join(map(str, legal))
            return IllegalAction(f"you may not call {bid} now{because}; allowed: {allowed}", "bid_not_allowed", f"the allowed bids are {allowed}")
        if type(bid) is not int or not 0 <= bid <= size:
            named = f", or {' or '.join(calls)}" if calls else ""
            return IllegalAction(f"a bid is a whole number from 0 to {size}{named}", "bad_bid", f"a bid is a whole number from 0 to {size}{named}")
        seat = self.seat_to_act
        env = dict(self._bid_env(seat), bid=bid)
        formula = next((t for t in self._bid_tests if not t(env)), None)
        if formula is None:  # not refused by a formula (cannot happen for a bid in 0..size)
            allowed = ", ".join(map(str, legal))
            return IllegalAction(f"you may not bid {bid} here; allowed: {allowed}", "bid_not_allowed", f"the allowed bids are {allowed}")
        read = ", ".join(f"{n}={value_text(env[n])}" for n in sorted(formula.names) if n in env and n != "bid")
        because = f"{formula.origin} is false for bid {bid}" + (f" with {read}" if read else "")
        so_far = self.bids_so_far_seen()
        if "bids_so_far" in formula.names and so_far + bid == size and _holds(formula, {**env, "bids_so_far": so_far + 1}):
            why = f"the bids would add up to {size}, the hand size"
            return IllegalAction(f"you may not bid {bid}: {why}; {because}", "hook", f"{why} (hook)")
        if len(legal) == 1:
            return IllegalAction(
                f"you may not bid {bid}: the only allowed bid is {legal[0]}; {because}", "forced_bid", f"the only allowed bid is {legal[0]}"
            )
        allowed = ", ".join(map(str, legal))
        return IllegalAction(f"you may not bid {bid}: {because}; allowed: {allowed}", "bid_not_allowed", f"{because}; the allowed bids are {allowed}")

    def bid_unobserved(self, choose: list[Callable[[list[int]], int]]) -> None:
        """Finish this hand's bidding, asking `choose[seat](legal bids)` for each bid (see
        `play_tricks_unobserved`)."""
        while self.phase == BIDDING or self.phase == DECISION:
            if self.phase == DECISION:
                self.decide(choose[self.seat_to_act](self.decision_options()))  # type: ignore[arg-type]  # a chooser is given the legal actions of its turn: bids, options or cards
                continue
            legal = self.allowed_bids()
            bid = choose[self.to_act](legal)  # type: ignore[arg-type,index]  # `choose` answers bids (numbers or calls) here, as its list of legal bids is
            if type(bid) not in (int, str) or bid not in legal:
                raise self.bid_refusal(bid, legal)
            self.commit_bid(bid)


def _holds(formula: Formula, env: Mapping[str, Value]) -> bool:
    """Whether a yes/no formula is true in `env` (false when it cannot be evaluated there)."""
    try:
        return bool(formula(env))
    except EvalError:
        return False
