"""The play of a trick: which cards a player may add to it, and which card wins it.

Two implementations of the same rules, chosen once per ruleset (`trick_play`):

- the standard one (version 1 and any ruleset that plays like it): follow suit, the ruleset's
  `when_void` rule, the highest trump else the highest card of the led suit. It is the
  engine's hot path and relies on the card layout of cards.py (cards of one suit compare by
  value);
- the general one, read from the ruleset's data: special cards (`deck.specials`), which may
  be played at any time (`play.always_playable`), what a special led asks of the others
  (`play.special_led`), the ordered `trick.winner` rules, which of two identical cards wins
  (`trick.identical`), and specials that are trumps (`trump.specials`: of the trump suit for
  following, above its ace; without trump the highest or the lowest cards), and the super
  trumps the turned card makes (`trump.super_trumps`: the cards of its rank or the next, trumps
  above the ace and below the trump specials; without trump the highest cards, each following
  its own suit). A ruleset with super trumps has one TrickPlay per hand (`hand_trick_play`);
  and wild cards (`deck.specials.<name>.wild`): a held one obliges nothing, and is offered
  played as each suit it may take where a card of that suit would be legal (cards.py's played
  form: the top card of that suit).

A hand is one list per suit (and one for the specials, see cards.new_hand). A trick is a list
of (seat, card) in playing order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..language.catalogue import SUITS
from ..rules.ruleset import Remembered, Ruleset, SuperRank, WildSuits, WinnerRule
from .cards import NO_TRUMP, RANK_LETTERS, SPECIAL, STRENGTH_OF, SUIT_OF, Card, special_card, wild_played

Hand = list[list[Card]]  # one list per suit
TrickCards = list[tuple[int, Card]]  # (seat, card) in the order played
NO_SUIT = -2  # what a trick asks to follow when nothing is to be followed (a led Wizard)


class NoWinner(Exception):
    """No `trick.winner` rule picks a card of this trick (lint reports the rules that allow it)."""


# ---------------------------------------------------------------- the standard path


def legal_cards(hand: Hand, trick: TrickCards, trump: int, when_void: str) -> list[Card]:
    """The cards a player holding `hand` may add to `trick`: follow suit if possible; when void,
    the ruleset's `when_void` rule; otherwise any card.

    The result may be one of the hand's own suit lists: read it, do not keep or change it.
    """
    if trick:
        led = SUIT_OF[trick[0][1]]
        if hand[led]:
            return hand[led]
        if trump >= 0 and hand[trump] and when_void != "free":
            if when_void == "must_overtrump":
                best = max((c for _, c in trick if SUIT_OF[c] == trump), default=-1)
                return [c for c in hand[trump] if c > best] or hand[trump]
            return hand[trump]
    return hand[0] + hand[1] + hand[2] + hand[3]


def trick_winner(trick: TrickCards, trump: int) -> int:
    """The seat that wins a complete trick: the highest trump, else the highest card of the led
    suit (of two identical cards, the earlier played)."""
    win_seat, win_card = trick[0]
    win_suit = SUIT_OF[win_card]
    for seat, c in trick:
        suit = SUIT_OF[c]
        if (suit == win_suit and c > win_card) or (suit == trump and win_suit != trump):
            win_seat, win_card, win_suit = seat, c, suit
    return win_seat


def led_suit(trick: TrickCards, trump: int = NO_TRUMP) -> int:
    """The suit to follow in a standard trick: the first card's."""
    return SUIT_OF[trick[0][1]]


# ---------------------------------------------------------------- the general path


@dataclass(frozen=True, eq=False)
class TrickPlay:
    """The trick rules of one ruleset, ready to call: `legal(hand, trick, trump, when_void)`,
    `winner(trick, trump)` -> seat, and `led(trick, trump)` -> the suit to follow (NO_SUIT:
    nothing; the trump matters only with trump specials). Compared (and hashed) by identity:
    one per ruleset."""

    legal: Callable[[Hand, TrickCards, int, str], list[Card]]
    winner: Callable[[TrickCards, int], int]
    led: Callable[[TrickCards, int], int]
    standard: bool
    #: for computer players: how strong each special card is, as (level, order): level 2 when a
    #: `trick.winner` rule names it before any suit rule (above every trump), -1 after, -2 never
    special_power: dict[Card, tuple[int, int]] = field(default_factory=dict)
    #: the specials that may be played at any time
    always_playable: frozenset[Card] = frozenset()
    #: a card's suit for following, given the trump (`trump.specials`: a trump special is a trump)
    suit_in: Callable[[Card, int], int] = lambda c, trump: SUIT_OF[c]


STANDARD = TrickPlay(legal_cards, trick_winner, led_suit, True)


def trick_play(rules: Ruleset) -> TrickPlay:
    """The trick rules of `rules`: the standard path when it plays like version 1."""
    if rules.standard_tricks:
        return STANDARD
    return _GENERAL(rules)


def hand_trick_play(rules: Ruleset, players: int, turned: Card | None) -> TrickPlay:
    """The trick rules of one hand whose turned card is `turned` (None: no card turned, or not
    seen yet): `trick_play(rules)`, unless the ruleset has super trumps, which that card names."""
    if rules.super_trumps is None:
        return trick_play(rules)
    supers = super_trump_cards(rules, players, turned)
    kept = _SUPERS(rules)
    found = kept.get(supers)
    if found is None:
        found = kept[supers] = _general(rules, supers)  # at most one per rank of the deck
    return found


def super_trump_cards(rules: Ruleset, players: int, turned: Card | None) -> tuple[Card, ...]:
    """The super trumps the card `turned` makes (`trump.super_trumps`), strongest first: the
    cards of its rank (`same`) or of the rank just above it among the deck's ranks for
    `players` (`next`; above the highest comes the lowest), in the suit order `order`; none
    without super trumps, without a card turned, or for a turned special card."""
    st = rules.super_trumps
    if st is None or turned is None or SUIT_OF[turned] == SPECIAL:
        return ()
    rank = STRENGTH_OF[turned]
    if st.rank == SuperRank.NEXT:
        strengths = sorted(RANK_LETTERS.index(r) for r in rules.deck_ranks(players))
        above = [k for k in strengths if k > rank]
        rank = above[0] if above else strengths[0]
    return tuple(SUITS.index(suit) * 16 + rank for suit in st.order if suit in rules.suits)


def _general(rules: Ruleset, supers: tuple[Card, ...] = ()) -> TrickPlay:  # noqa: C901 the trick rules' cases in one closure, for speed
    index = {s.name: i for i, s in enumerate(rules.specials)}
    playable = frozenset(special_card(index[n]) for n in rules.always_playable if n in index)
    # a special led that passes the lead on (`pass`) lets the next card set the suit; one that
    # frees the trick (`free`, the default) leaves nothing to follow
    passes = frozenset(special_card(index[n]) for n, how in rules.special_led if how == "pass" and n in index)
    later = rules.identical == "later"
    has_specials = bool(rules.specials)
    # special cards that are trumps (`trump.specials`), strongest first, above the ace (12); in a
    # hand without trump they are the highest or the lowest cards (`specials_without_trump`)
    top = {special_card(index[n]): 13 + len(supers) + len(rules.trump_specials) - k for k, n in enumerate(rules.trump_specials) if n in index}
    top_without = rules.trump_specials_without
    # this hand's super trumps, strongest first: trumps above the ace, below the trump specials
    sup = {c: 12 + len(supers) - k for k, c in enumerate(supers)}
    high = {**top, **sup}  # every card that is a trump above the ace when there is a trump

    def suit_in(c: Card, trump: int) -> int:
        """A card's suit for following: a trump special is of the trump suit (when there is one)."""
        return trump if trump >= 0 and c in high else SUIT_OF[c]

    def led(trick: TrickCards, trump: int = NO_TRUMP) -> int:
        for _, c in trick:
            if c in high:
                if trump >= 0:
                    return trump  # a led trump special or super trump asks for trumps
                if c in top and top_without == "lowest":
                    continue  # without trump, the lowest card: the next card sets the suit
            suit = SUIT_OF[c]
            if suit != SPECIAL:
                return suit
            if c not in passes:
                return NO_SUIT
        return NO_SUIT

    def anything(hand: Hand) -> list[Card]:
        return hand[0] + hand[1] + hand[2] + hand[3] + (hand[SPECIAL] if has_specials else [])

    def power(c: Card, trump: int = NO_TRUMP) -> int:
        """Higher is stronger: a suited card's strength (a trump special's above the ace);
        other specials by their order in the deck."""
        if c in high and trump >= 0:
            return high[c]
        if SUIT_OF[c] == SPECIAL:
            return -STRENGTH_OF[c]
        strength = STRENGTH_OF[c]
        return strength if strength <= 12 else 100 + strength  # a played wild card: the top of its suit

    def legal(hand: Hand, trick: TrickCards, trump: int, when_void: str) -> list[Card]:
        if trick:
            suit = led(trick, trump)
            if suit >= 0:
                extra = [c for c in hand[SPECIAL] if c in playable] if has_specials and playable else []
                jokers = [c for c in hand[SPECIAL] if c in top] if top and trump >= 0 else []
                if sup and trump >= 0:  # the super trumps held outside the trump suit follow as trumps
                    jokers += [c for s in range(4) if s != trump for c in hand[s] if c in sup]
                    follow = hand[suit] + jokers if suit == trump else [c for c in hand[suit] if c not in sup]
                else:
                    follow = hand[suit] + jokers if suit == trump else hand[suit]
                if follow:
                    return follow + extra
                trumps = hand[trump] + jokers if trump >= 0 else []
                if trumps and when_void != "free":
                    if when_void == "must_overtrump":
                        best = max((power(c, trump) for _, c in trick if suit_in(c, trump) == trump), default=-1)
                        trumps = [c for c in trumps if power(c, trump) > best] or trumps
                    return trumps + extra
        return anything(hand)

    def matcher(rule: WinnerRule) -> Callable[[Card, int, int], bool]:
        among = rule.among
        if among == "trump":
            return lambda c, trump, suit: trump >= 0 and suit_in(c, trump) == trump
        if among == "led":
            return lambda c, trump, suit: suit >= 0 and suit_in(c, trump) == suit
        if among == "suited":
            return lambda c, trump, suit: SUIT_OF[c] != SPECIAL or (trump >= 0 and c in high)
        card = special_card(index[among])
        return lambda c, trump, suit: c == card

    rule_tests = [(r.pick, matcher(r)) for r in rules.trick_winner]

    def winner(trick: TrickCards, trump: int) -> int:  # noqa: C901 one branch per kind of special card, in the inner loop
        suit = led(trick, trump)
        if top and trump < 0:
            mine = [(seat, c) for seat, c in trick if c in top]
            if mine:
                if top_without == "highest":
                    best_seat, best = mine[0]
                    for seat, c in mine[1:]:
                        if top[c] > top[best] or (c == best and later):
                            best_seat, best = seat, c
                    return best_seat
                rest = [(seat, c) for seat, c in trick if c not in top]
                if not rest:
                    return mine[0][0]
                trick = rest  # the lowest cards: the trick goes to another card
        if sup and trump < 0:  # without trump the super trumps still beat every other card
            best_seat, best = -1, -1
            for seat, c in trick:
                if c in sup and (best < 0 or sup[c] > sup[best] or (c == best and later)):
                    best_seat, best = seat, c
            if best >= 0:
                return best_seat
        for pick, matches in rule_tests:
            if pick == "first":
                for seat, c in trick:
                    if matches(c, trump, suit):
                        return seat
                continue
            found = False
            best_seat, best = 0, 0
            if pick == "last":
                for seat, c in trick:
                    if matches(c, trump, suit):
                        found, best_seat = True, seat
            else:
                sign = 1 if pick == "highest" else -1
                for seat, c in trick:
                    if not matches(c, trump, suit):
                        continue
                    if not found:
                        found, best_seat, best = True, seat, c
                        continue
                    p, q = sign * power(c, trump), sign * power(best, trump)
                    if p > q or (p == q and c == best and later):
                        best_seat, best = seat, c
            if found:
                return best_seat
        raise NoWinner(", ".join(r.text for r in rules.trick_winner))

    suit_rule = next((i for i, r in enumerate(rules.trick_winner) if r.among not in index), len(rules.trick_winner))
    special_power: dict[Card, tuple[int, int]] = {}
    for name, i in index.items():
        at = next((k for k, r in enumerate(rules.trick_winner) if r.among == name), None)
        special_power[special_card(i)] = (-2, 0) if at is None else ((2, -at) if at < suit_rule else (-1, -at))
    for c, strength in top.items():
        special_power[c] = (2, strength - 20)  # above every trump (lost to a stronger trump special)
    for c, strength in sup.items():
        special_power[c] = (2, strength - 20)  # a super trump: above every other trump
    legal_here = _wild_legal(rules, legal, led) if rules.wild_cards else legal
    return TrickPlay(legal_here, winner, led, False, special_power, playable, suit_in)


def _wild_legal(
    rules: Ruleset, legal: Callable[[Hand, TrickCards, int, str], list[Card]], led: Callable[[TrickCards, int], int]
) -> Callable[[Hand, TrickCards, int, str], list[Card]]:
    """`legal` with the deck's wild cards: a held wild card counts as no suit (it obliges nothing),
    and is legal played as each suit it may take (`any`, `trump`, `led`) where a card of that
    suit would be legal in the rest of the hand: it follows, trumps and shows voids as that suit."""
    wild = {special_card(i): s.wild for i, s in enumerate(rules.specials) if s.wild}
    deck_suits = [SUITS.index(s) for s in rules.suits]
    specials = rules.specials

    def declarable(how: str, trick: TrickCards, trump: int) -> list[int]:
        if how == WildSuits.TRUMP and trump >= 0:
            return [trump]
        if how == WildSuits.LED and trick:
            suit = led(trick, trump)
            if suit >= 0:
                return [suit]
        return deck_suits

    def with_wild(hand: Hand, trick: TrickCards, trump: int, when_void: str) -> list[Card]:
        held = [c for c in hand[SPECIAL] if c in wild]
        if not held:
            return legal(hand, trick, trump, when_void)
        rest = [*hand[:SPECIAL], [c for c in hand[SPECIAL] if c not in wild]]
        out = list(legal(rest, trick, trump, when_void))
        for special in dict.fromkeys(held):
            for suit in declarable(wild[special], trick, trump):
                played = wild_played(special, suit, specials)
                rest[suit] = [played, *hand[suit]]
                if played in legal(rest, trick, trump, when_void):
                    out.append(played)
                rest[suit] = hand[suit]
        return out

    return with_wild


#: Per ruleset: the trick rules of one that does not play like version 1 (chosen once).
_GENERAL: Remembered[TrickPlay] = Remembered(_general)
#: Per ruleset with super trumps: each hand's trick rules, by its super trumps.
_SUPERS: Remembered[dict[tuple[Card, ...], TrickPlay]] = Remembered(lambda rules: {})


def any_card(hand: Hand) -> list[Card]:
    """Every card of a hand, suits in order, then the specials."""
    return [c for cards in hand for c in cards]


__all__ = ["NO_SUIT", "NO_TRUMP", "STANDARD", "NoWinner", "TrickPlay", "hand_trick_play", "legal_cards", "led_suit", "trick_play", "trick_winner"]
