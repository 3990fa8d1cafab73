"""An independent checker of whole games, written from the published rules, not from the engine.

A game is described here in Python, rule by rule, as a game's rules page says it (`Rules`): the
hand sizes in order, the trump of each hand, whether the last bidder is hooked, whether a player
void in the led suit must trump, the score of one hand, and when the game ends. `check_record`
then reads a game record (the JSON `whistdsl.records.record.game_record` writes: cards as text
such as `TS`) and re-derives everything a record claims from these rules alone: every deal's
size and that no card is dealt twice, the trump, every bid's legality, every card's legality,
every trick's winner, every hand's score, the running totals, where the game ends and who wins.
It shares no code with the engine (not even the card encoding): a bug in the engine and the
same misreading here would have to be written twice.

Shared by the tests of the bundled family rulesets (tests/test_family_rulesets.py); another
game's test describes its own `Rules` and calls `check_record`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

RANKS = "23456789TJQKA"  # low to high, as card faces are ordered in every game here
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def suit(card: str) -> str:
    return SUITS[card[-1]]


def rank(card: str) -> int:
    return RANKS.index(card[0])


@dataclass(frozen=True)
class Rules:
    """One game, as its rules page says it."""

    #: the hand sizes of one pass of the schedule, for a player count
    sizes: Callable[[int], Sequence[int]]
    #: the trump of a hand: (hand number, hand size, players, the turned-up card or None) -> suit name or "none"
    trump: Callable[[int, int, int, str | None], str]
    #: the score of one hand for one player: (bid, tricks, hand size) -> points
    score: Callable[[int, int, int], int]
    #: is the last bidder hooked (may not make the bids add up to the hand size) in a hand of this size?
    hooked: Callable[[int], bool] = lambda size: True
    #: a player void in the led suit who holds a trump must play one
    must_trump: bool = False
    #: the game ends after a hand when this holds: (totals after the hand, hand number) -> bool;
    #: None: the game is one pass of the schedule
    ends: Callable[[Sequence[int], int], bool] | None = None
    #: the most hands, when `ends` is given (the schedule repeats up to it)
    cap: int = 0
    #: where the card turned for trump comes from in a hand: (hand number, hand size, players) ->
    #: "undealt" (a card nobody holds: the next card, one set aside) or "dealer_last" (the
    #: dealer's own last card, shown to all: it stays in the dealer's hand)
    turned: Callable[[int, int, int], str] = lambda number, size, players: "undealt"
    #: special cards (by their marks, e.g. "BJ") that are trumps, strongest first, above the ace
    #: of trumps: a led one asks for trumps, a player out of trumps but for one must play it
    top_trumps: tuple[str, ...] = ()
    #: what they are in a hand without trump: "highest" (they win, the strongest first) or
    #: "lowest" (they lose); then they belong to no suit, and one led asks nothing
    top_trumps_without_trump: str = "highest"
    #: the cards a hand's turned card makes trumps above the ace (below `top_trumps`), strongest
    #: first: (the turned-up card or None) -> their marks; the manilhas, say (none: no such rule)
    turned_tops: Callable[[str | None], tuple[str, ...]] = lambda turn_up: ()
    #: wild cards (jokers, by their marks, strongest first): held they belong to no suit; played
    #: as `JK=H` they are the highest card of the suit written after `=`
    wild: tuple[str, ...] = ()
    #: the suits a wild card may take: "any", "trump" (any without trump) or "led" (any when it leads)
    wild_takes: str = "any"


class Wrong(AssertionError):
    pass


def _expect(condition: bool, hand: int, what: str) -> None:
    if not condition:
        raise Wrong(f"hand {hand}: {what}")


def check_record(record: dict, rules: Rules) -> list[int]:  # noqa: C901 each rule checked in the order a hand is played
    """Check every hand of `record` against `rules`; return the final totals. Raises Wrong."""
    players = len(record["players"])
    one_pass = list(rules.sizes(players))
    totals = [0] * players
    hands = record["hands"]
    dealer = record["first_dealer"]
    for i, hand in enumerate(hands):
        number = i + 1
        _expect(hand["number"] == number, number, "hands are numbered in order")
        size = one_pass[i % len(one_pass)]
        if rules.ends is None:
            _expect(i < len(one_pass), number, "the schedule has ended")
        _expect(hand["cards"] == size, number, f"{size} cards are dealt, not {hand['cards']}")
        _expect(hand["dealer"] == dealer, number, f"seat {dealer} deals")
        dealt = [card for cards in hand["deal"] for card in cards]
        _expect(all(len(cards) == size for cards in hand["deal"]), number, f"each player holds {size} cards")
        _expect(len(set(dealt)) == len(dealt), number, "no card is dealt twice")
        if hand["turn_up"] is not None:
            if rules.turned(number, size, players) == "dealer_last":
                _expect(hand["deal"][dealer][-1] == hand["turn_up"], number, "the card turned is the dealer's last card")
            else:
                _expect(hand["turn_up"] not in dealt, number, "the turned-up card is not in a hand")
        trump = rules.trump(number, size, players, hand["turn_up"])
        _expect((hand["trump"] or "none") == trump, number, f"trump is {trump}, not {hand['trump']}")

        # bidding: from the dealer's left, clockwise; the dealer bids last
        order = [(dealer + k) % players for k in range(1, players + 1)]
        bids = [b["bid"] for b in hand["bids"]]
        _expect([b["seat"] for b in hand["bids"]] == order, number, "the player left of the dealer bids first, the dealer last")
        _expect(all(0 <= b <= size for b in bids), number, "every bid is 0 to the hand size")
        if rules.hooked(size):
            _expect(sum(bids) != size, number, f"the bids {bids} add up to {size}: the last bidder is hooked")
        bid_of = {b["seat"]: b["bid"] for b in hand["bids"]}

        # play: the player left of the dealer leads; the trick's winner leads the next
        held = {seat: set(cards) for seat, cards in enumerate(hand["deal"])}
        leader = order[0]
        taken = [0] * players
        _expect(len(hand["tricks"]) == size, number, f"{size} tricks are played")
        tops = rules.top_trumps + rules.turned_tops(hand["turn_up"])

        def suit_of(card: str) -> str | None:
            """A card's suit for following: a top trump is a trump (no suit without trump)."""
            if card in tops:  # noqa: B023 called in this iteration
                return trump if trump != "none" else None  # noqa: B023 called in this iteration
            if card in rules.wild:
                return None  # a wild card held: no suit
            return suit(card)

        def value(card: str) -> int:
            if "=" in card:  # a wild card played: above every card of its suit
                return 200 - rules.wild.index(card.split("=")[0])
            return 100 - tops.index(card) if card in tops else rank(card)  # noqa: B023 called in this iteration

        for t in hand["tricks"]:
            _expect(t["leader"] == leader, number, f"seat {leader} leads")
            played = [(c["seat"], c["card"]) for c in t["cards"]]
            _expect([s for s, _ in played] == [(leader + k) % players for k in range(players)], number, "play goes clockwise")
            # the suit to follow: the first card's; without trump a top trump led asks nothing
            # when it is the highest, and lets the next card set the suit when it is the lowest
            leading = [c for _, c in played if not (trump == "none" and c in tops and rules.top_trumps_without_trump == "lowest")]
            led = suit_of(leading[0]) if leading else None
            for seat, card in played:
                if "=" in card:  # a wild card, played as the suit after `=`
                    mark = card.split("=")[0]
                    _expect(mark in rules.wild and mark in held[seat], number, f"seat {seat} holds the wild card {mark}")
                    takes = {"trump": trump if trump != "none" else None, "led": led if card != played[0][1] else None}.get(rules.wild_takes)
                    _expect(takes is None or suit(card) == takes, number, f"seat {seat}'s {mark} may take only {takes}")
                    held[seat].add(card)  # held as the card played, for the checks below
                    held[seat].discard(mark)
                _expect(card in held[seat], number, f"seat {seat} holds {card}")
                has_led = led is not None and any(suit_of(c) == led for c in held[seat])
                if has_led:
                    _expect(suit_of(card) == led, number, f"seat {seat} follows {led} with {card}")
                elif led is not None and rules.must_trump and trump != "none" and any(suit_of(c) == trump for c in held[seat]):
                    _expect(suit_of(card) == trump, number, f"seat {seat} must trump")
                held[seat].discard(card)
            jokers = [(s, c) for s, c in played if c in tops]
            if trump == "none" and jokers and rules.top_trumps_without_trump == "highest":
                contenders = jokers
            else:
                rest = [(s, c) for s, c in played if c not in tops] if trump == "none" else played
                trumps = [(s, c) for s, c in rest if suit_of(c) == trump]
                contenders = trumps or [(s, c) for s, c in rest if led is not None and suit_of(c) == led]
                if not contenders:  # only top trumps, the lowest, were played: the first wins
                    contenders = played[:1]
            winner = max(contenders, key=lambda sc: value(sc[1]))[0]
            _expect(t["winner"] == winner, number, f"seat {winner} wins the trick {played}")
            taken[winner] += 1
            leader = winner
        _expect(hand["taken"] == taken, number, f"tricks taken are {taken}")

        points = [rules.score(bid_of[seat], taken[seat], size) for seat in range(players)]
        _expect(hand["points"] == points, number, f"points are {points}, not {hand['points']}")
        totals = [a + b for a, b in zip(totals, points)]
        _expect(hand["totals"] == totals, number, f"totals are {totals}")

        last = i == len(hands) - 1
        if rules.ends is not None:
            ends = rules.ends(totals, number) or number == rules.cap
            _expect(ends == last, number, "the game ends here" if ends else "the game goes on after this hand")
        else:
            _expect(last == (number == len(one_pass)), number, "the game ends with the schedule")
        dealer = (dealer + 1) % players

    final = record["final"]
    _expect(final["totals"] == totals, len(hands), "the final totals are the last hand's")
    best = max(totals)
    _expect(sorted(final["winners"]) == [s for s in range(players) if totals[s] == best], len(hands), "the highest total wins")
    return totals


# ---------------------------------------------------------------- Estimation's auction rounds

#: Estimation's auction: the suits a bid names, low to high (no trump highest)
AUCTION_SUITS = ("clubs", "diamonds", "hearts", "spades", "none")


def _auction_bid(text: str) -> tuple[int, int]:
    tricks, suit_name = text.split()
    return int(tricks), AUCTION_SUITS.index(suit_name)


def check_estimation_auction_record(record: dict, lowest: int = 4, rounds: int = 13) -> list[int]:
    """Check a record of Estimation's auction rounds against the rules as rulesets/estimation.yaml
    states them (its sources and readings), from the record alone; return the final totals.

    Four players, play to the right (counterclockwise: seat i to seat i - 1), the deal passing
    to the right; 13 hands of 13 cards. The auction starts at the dealer's right and goes on to
    the right among the seats that have not passed: each bid names at least `lowest` tricks and a
    suit and outbids the highest so far (more tricks, or as many in a higher suit: clubs,
    diamonds, hearts, spades, no trump); it ends when all but the highest bidder have passed, or
    all four have. The declarer's suit is trump (none without a declarer); the declarer's
    estimate is its bid, made first; the others estimate to its right, at least 1 or a dash (0,
    at most two a hand), none above the declarer's bid. The declarer leads (without one, the
    seat to the dealer's right). Follow suit; the highest trump wins, else the highest card of
    the suit led. Exact: + the tricks; otherwise - the difference; nobody exact: nobody scores.
    """
    players = len(record["players"])
    _expect(players == 4, 0, "Estimation is for 4 players")
    right = lambda seat, k=1: (seat - k) % players  # noqa: E731
    totals = [0] * players
    dealer = record["first_dealer"]
    hands = record["hands"]
    _expect(len(hands) == rounds, 0, f"{rounds} hands are played")
    for i, hand in enumerate(hands):
        number = i + 1
        _expect(hand["number"] == number and hand["cards"] == 13, number, "13 cards are dealt")
        _expect(hand["dealer"] == dealer, number, f"seat {dealer} deals")
        dealt = [c for cards in hand["deal"] for c in cards]
        _expect(len(dealt) == 52 and len(set(dealt)) == 52, number, "the whole pack is dealt, each card once")

        # the auction
        out: set[int] = set()
        best: tuple[int, int] | None = None
        declarer = None
        seat = right(dealer)
        auction = [c for c in hand.get("choices", []) if c["decision"] == "auction"]
        _expect(len(auction) == len(hand.get("choices", [])), number, "the only decisions are the auction's")
        for k, c in enumerate(auction):
            _expect(c["seat"] == seat, number, f"seat {seat} speaks next in the auction")
            if c["choice"] == "pass":
                out.add(seat)
            else:
                bid = _auction_bid(c["choice"])
                _expect(lowest <= bid[0] <= 13, number, f"an auction bid is {lowest} to 13 tricks: {c['choice']}")
                _expect(best is None or bid > best, number, f"{c['choice']} outbids the highest bid so far")
                best, declarer = bid, seat
            left = [s for s in range(players) if s not in out]
            over = not left or (declarer is not None and left == [declarer])
            _expect(over == (k == len(auction) - 1), number, "the auction ends when all but the highest bidder have passed")
            if not over:
                seat = right(seat)
                while seat in out:
                    seat = right(seat)
        _expect(bool(auction), number, "there is an auction")
        trump = AUCTION_SUITS[best[1]] if best is not None else "none"
        _expect((hand["trump"] or "none") == trump, number, f"trump is {trump}")

        # the estimates
        first = declarer if declarer is not None else right(dealer)
        order = [right(first, k) for k in range(players)]
        _expect([b["seat"] for b in hand["bids"]] == order, number, f"the estimates go to the right from seat {first}")
        contract = best[0] if best is not None else 0
        dashes = 0
        bid_of = {}
        for b in hand["bids"]:
            s, bid = b["seat"], b["bid"]
            bid_of[s] = bid
            if s == declarer:
                _expect(bid == contract and b.get("made_for") == "declarer", number, f"the declarer's estimate is its bid {contract}")
                continue
            _expect("made_for" not in b, number, f"seat {s} estimates itself")
            if b.get("call") == "dash":
                _expect(bid == 0 and dashes < 2, number, "a dash is 0 tricks, at most two a hand")
                dashes += 1
            else:
                _expect(1 <= bid <= 13 and "call" not in b, number, f"seat {s}'s estimate {bid} is at least 1 (0 is a dash)")
            if declarer is not None:
                _expect(bid <= contract, number, f"seat {s}'s estimate {bid} is not above the declarer's {contract}")

        # the play
        held = {s: set(cards) for s, cards in enumerate(hand["deal"])}
        leader = first
        taken = [0] * players
        _expect(len(hand["tricks"]) == 13, number, "13 tricks are played")
        for t in hand["tricks"]:
            _expect(t["leader"] == leader, number, f"seat {leader} leads")
            played = [(c["seat"], c["card"]) for c in t["cards"]]
            _expect([s for s, _ in played] == [right(leader, k) for k in range(players)], number, "play goes to the right")
            led = suit(played[0][1])
            for s, card in played:
                _expect(card in held[s], number, f"seat {s} holds {card}")
                if any(suit(c) == led for c in held[s]):
                    _expect(suit(card) == led, number, f"seat {s} follows {led} with {card}")
                held[s].discard(card)
            trumps = [(s, c) for s, c in played if suit(c) == trump]
            contenders = trumps or [(s, c) for s, c in played if suit(c) == led]
            winner = max(contenders, key=lambda sc: rank(sc[1]))[0]
            _expect(t["winner"] == winner, number, f"seat {winner} wins the trick {played}")
            taken[winner] += 1
            leader = winner
        _expect(hand["taken"] == taken, number, f"tricks taken are {taken}")

        exact = [s for s in range(players) if taken[s] == bid_of[s]]
        points = [0] * players if not exact else [taken[s] if s in exact else -abs(taken[s] - bid_of[s]) for s in range(players)]
        _expect(hand["points"] == points, number, f"points are {points}, not {hand['points']}")
        totals = [a + b for a, b in zip(totals, points)]
        _expect(hand["totals"] == totals, number, f"totals are {totals}")
        dealer = right(dealer)
    final = record["final"]
    _expect(final["totals"] == totals, len(hands), "the final totals are the last hand's")
    best_total = max(totals)
    _expect(sorted(final["winners"]) == [s for s in range(players) if totals[s] == best_total], len(hands), "the highest total wins")
    return totals
