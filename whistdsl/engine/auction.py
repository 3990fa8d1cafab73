"""The auction (`decisions: - name: auction`): bids that outbid each other before the bidding.

Seats in bidding order bid or pass, round after round. A bid is a number of tricks from the
lowest bid to the hand size and, when the auction has suits, one of them (lowest first); it
must outbid the highest bid so far: more tricks, or as many with a later suit. A seat that
passes is out. The auction ends when every seat but the highest bidder is out (that seat is the
declarer), or when every seat has passed (no declarer). The options are text: `pass`, `5
hearts` (`5` without suits), and the ruleset's named calls (`dash`, `double`). A call with a bid
(a dash: no tricks) takes its seat out of the auction with that bid made for it; a call without
one is made on the highest bid so far by another seat (a double) and its seat stays in; each at
most `most` times a hand. This module knows nothing of the rest of the game: engine/game.py
asks it for the options and the seat to act, and reads the declarer, and the bids the calls
made, when it is done.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PASS = "pass"


def bid_text(tricks: int, suit: str | None) -> str:
    """How an auction bid is written: `5 hearts`, or `5` in an auction of numbers only."""
    return f"{tricks} {suit}" if suit else str(tricks)


def read_bid(text: str, suits: tuple[str, ...]) -> tuple[int, int] | None:
    """(tricks, the suit's place in `suits`, 0 without suits) of a bid's text, or None."""
    parts = text.split()
    if not parts or not parts[0].isdigit() or len(parts[0]) > 3:
        return None
    tricks = int(parts[0])
    if not suits:
        return (tricks, 0) if len(parts) == 1 else None
    if len(parts) != 2 or parts[1] not in suits:
        return None
    return tricks, suits.index(parts[1])


@dataclass
class Auction:
    """One hand's auction: `order` the seats in bidding order, bids from `lowest` to `most`."""

    order: tuple[int, ...]
    lowest: int
    most: int
    suits: tuple[str, ...] = ()
    #: the named calls: (name, the bid it makes for its caller or None, the most a hand or None)
    calls: tuple[tuple[str, int | None, int | None], ...] = ()
    out: set[int] = field(default_factory=set)
    best: tuple[int, int] | None = None  # (tricks, suit place) of the highest bid
    best_seat: int | None = None
    turn: int = 0  # index into `order` of the seat to act
    log: list[tuple[int, str]] = field(default_factory=list)  # (seat, bid or pass) in order

    @property
    def done(self) -> bool:
        left = [s for s in self.order if s not in self.out]
        return not left or (self.best_seat is not None and left == [self.best_seat])

    @property
    def to_act(self) -> int:
        return self.order[self.turn]

    def call_made(self, seat: int) -> tuple[str, int] | None:
        """The call with a bid that `seat` made (its name and the bid it makes), or None."""
        calls = {name: bid for name, bid, _ in self.calls}
        for s, choice in self.log:
            bid = calls.get(choice)
            if s == seat and bid is not None:
                return choice, bid
        return None

    def options(self) -> list[str]:
        """`pass`, the named calls open to the seat to act, then every bid that outbids the
        highest so far, lowest first."""
        out = [PASS]
        seat = self.to_act
        for name, bid, most in self.calls:
            made = sum(1 for _, choice in self.log if choice == name)
            limit = most if most is not None else (None if bid is not None else 1)
            if limit is not None and made >= limit:
                continue
            # a call with a bid leaves the auction: not for the highest bidder, whose bid stands;
            # a call without one is made on another seat's highest bid
            if (bid is not None and seat != self.best_seat) or (bid is None and self.best_seat not in (None, seat)):
                out.append(name)
        low = max(self.lowest, 0)
        for tricks in range(low, self.most + 1):
            for place, suit in enumerate(self.suits or (None,)):
                if self.best is None or (tricks, place) > self.best:
                    out.append(bid_text(tricks, suit))
        return out

    def apply(self, choice: str) -> None:
        """A pass or a bid already known to be among `options()`."""
        seat = self.to_act
        self.log.append((seat, choice))
        calls = {name: bid for name, bid, _ in self.calls}
        if choice == PASS:
            self.out.add(seat)
        elif choice in calls:
            if calls[choice] is not None:  # a call with a bid leaves the auction; one on the highest bid stays in
                self.out.add(seat)
        else:
            self.best = read_bid(choice, self.suits)
            self.best_seat = seat
        if self.done:
            return
        n = len(self.order)
        for step in range(1, n + 1):
            i = (self.turn + step) % n
            if self.order[i] not in self.out:
                self.turn = i
                return

    def contract(self) -> tuple[int | None, int, str | None]:
        """(the declarer, its winning bid's tricks, its suit or None), once done; (None, 0, None)
        when every seat passed."""
        if self.best_seat is None or self.best is None:
            return None, 0, None
        tricks, place = self.best
        return self.best_seat, tricks, self.suits[place] if self.suits else None
