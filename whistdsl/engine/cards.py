"""Cards as small integers, and their written form (`TS` is the ten of spades).

A card is `suit * 16 + strength`: suits are numbered spades 0, hearts 1, diamonds 2, clubs 3;
strength is 12 for an ace down to 0 for a two. So `card >> 4` is the suit, and two cards of one
suit compare by value. Input accepts `10h`, lower case and the suit symbols.
"""

from __future__ import annotations

import re

from ..language.catalogue import SUITS

RANK_LETTERS = "23456789TJQKA"  # index = strength
SUIT_LETTERS = "SHDC"  # index = suit number, in catalogue.SUITS order
SUIT_SYMBOLS = "♠♥♦♣"
NO_TRUMP = -1

Card = int


def card(rank: str, suit: str) -> Card:
    return SUIT_LETTERS.index(suit) * 16 + RANK_LETTERS.index(rank)


def suit_of(c: Card) -> int:
    return c >> 4


def strength(c: Card) -> int:
    return c & 15


def card_text(c: Card) -> str:
    return RANK_LETTERS[c & 15] + SUIT_LETTERS[c >> 4]


def suit_number(name: str) -> int:
    """`spades` -> 0 ... `clubs` -> 3; `none` -> NO_TRUMP."""
    return NO_TRUMP if name == "none" else SUITS.index(name)


def suit_name(number: int) -> str:
    return "none" if number == NO_TRUMP else SUITS[number]


_SYMBOL_TO_LETTER = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C"}
_CARD_RE = re.compile(r"^\s*(10|[2-9tjqka])\s*([shdc])\s*$", re.I)


class CardSyntaxError(ValueError):
    pass


def parse_card(text: str) -> Card:
    """`TS`, `ts`, `10s`, `10♠` -> the ten of spades. Raises CardSyntaxError."""
    cleaned = "".join(_SYMBOL_TO_LETTER.get(ch, ch) for ch in text)
    m = _CARD_RE.match(cleaned)
    if not m:
        raise CardSyntaxError(
            f"{text.strip()!r} is not a card: write rank then suit, e.g. TS (ten of spades), QH, 10h, 7♦"
        )
    rank = "T" if m.group(1) == "10" else m.group(1).upper()
    return card(rank, m.group(2).upper())


def deck(suits: tuple[str, ...], ranks: tuple[str, ...]) -> tuple[Card, ...]:
    """The cards of a deck, by suit then rank high to low."""
    return tuple(SUITS.index(s) * 16 + RANK_LETTERS.index(r) for s in suits for r in ranks)


def sort_hand(cards, trump: int = NO_TRUMP) -> list[Card]:
    """For display: trumps first, then the other suits in order; high cards first within a suit."""
    return sorted(cards, key=lambda c: (c >> 4 != trump, c >> 4, -(c & 15)))
