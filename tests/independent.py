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

from dataclasses import dataclass
from typing import Callable, Sequence

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


class Wrong(AssertionError):
    pass


def _expect(condition: bool, hand: int, what: str) -> None:
    if not condition:
        raise Wrong(f"hand {hand}: {what}")


def check_record(record: dict, rules: Rules) -> list[int]:
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
        tops = rules.top_trumps

        def suit_of(card: str) -> str | None:
            """A card's suit for following: a top trump is a trump (no suit without trump)."""
            if card in tops:
                return trump if trump != "none" else None
            return suit(card)

        def value(card: str) -> int:
            return 100 - tops.index(card) if card in tops else rank(card)

        for t in hand["tricks"]:
            _expect(t["leader"] == leader, number, f"seat {leader} leads")
            played = [(c["seat"], c["card"]) for c in t["cards"]]
            _expect([s for s, _ in played] == [(leader + k) % players for k in range(players)], number, "play goes clockwise")
            # the suit to follow: the first card's; without trump a top trump led asks nothing
            # when it is the highest, and lets the next card set the suit when it is the lowest
            leading = [c for _, c in played if not (trump == "none" and c in tops and rules.top_trumps_without_trump == "lowest")]
            led = suit_of(leading[0]) if leading else None
            for seat, card in played:
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
