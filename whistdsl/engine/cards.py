"""Cards as small integers, and their written form (`TS` is the ten of spades, `W` a Wizard).

A suited card is `suit * 16 + strength`: suits are numbered spades 0, hearts 1, diamonds 2,
clubs 3; strength is 12 for an ace down to 0 for a two, so two cards of one suit compare by
value. A special card (a Wizard, a Jester, a joker: `deck.specials`) has no suit: it is
`SPECIAL * 16 + index`, its index in the ruleset's list of specials. Copies of the deck
(`deck.copies`) are the same integers more than once: identical cards are equal.

A wild card (a joker, `deck.specials.<name>.wild`) is a special card while held; played, it is
the card of the suit its holder declares with strength 15 for the deck's first kind of wild
card, 14 for the second, 13 for the third (`wild_played`): above the ace, the top card of that
suit, so following, winning and the voids others infer read its suit as any card's. Written
`JK=H`: the wild card's mark, `=`, the suit's letter.

Only this module knows the layout: other modules ask `suit_of` and `strength`, or, in the
engine's hot loops, index the tables `SUIT_OF` and `STRENGTH_OF` (the same answers). A hand is
kept as one list per suit (`new_hand`), with one more list, at index SPECIAL, for the specials.
Input accepts `10h`, lower case, the suit symbols, and a special's mark or name.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..language.catalogue import SUITS
from ..rules.ruleset import Special, suited_card_text

RANK_LETTERS = "23456789TJQKA"  # index = strength
SUIT_LETTERS = "SHDC"  # index = suit number, in catalogue.SUITS order
SUIT_SYMBOLS = "♠♥♦♣"
NO_TRUMP = -1
SPECIAL = 4  # the suit slot of the special cards

Card = int

#: `suit_of` and `strength` as tables indexed by the card, for the engine's hot loops.
SUIT_OF: tuple[int, ...] = tuple(c >> 4 for c in range((SPECIAL + 1) * 16))
STRENGTH_OF: tuple[int, ...] = tuple(c & 15 for c in range((SPECIAL + 1) * 16))


def card(rank: str, suit: str) -> Card:
    return SUIT_LETTERS.index(suit) * 16 + RANK_LETTERS.index(rank)


def special_card(index: int) -> Card:
    """The card of the special at `index` in the ruleset's list of specials."""
    return SPECIAL * 16 + index


def suit_of(c: Card) -> int:
    """A suited card's suit number; SPECIAL for a special card."""
    return c >> 4


def strength(c: Card) -> int:
    """A suited card's strength in its suit (an ace 12, a two 0); a special's index."""
    return c & 15


def is_special(c: Card) -> bool:
    return c >> 4 == SPECIAL


def new_hand(specials: bool = False) -> list[list[Card]]:
    """An empty hand: one list per suit, and one for the specials when the deck has them."""
    return [[], [], [], [], []] if specials else [[], [], [], []]


def wild_played(special: Card, suit: int, specials: tuple[Special, ...]) -> Card:
    """The card a wild special card becomes when played as `suit` (15 - its place among the
    deck's wild kinds, in the suit)."""
    wild = [i for i, s in enumerate(specials) if s.wild]
    return suit * 16 + 15 - wild.index(special & 15)


def wild_held(c: Card, specials: tuple[Special, ...]) -> Card:
    """The card as it was held: a played wild card's special card; any other card itself."""
    if c & 15 <= 12 or c >> 4 == SPECIAL:
        return c
    k = 15 - (c & 15)
    wild = [i for i, s in enumerate(specials) if s.wild]
    return special_card(wild[k]) if k < len(wild) else c


def is_wild_played(c: Card) -> bool:
    """Whether `c` is a wild card as played (a suit's card above the ace)."""
    return c >> 4 != SPECIAL and c & 15 > 12


def card_text(c: Card, specials: tuple[Special, ...] = ()) -> str:
    """`TS`; a special card's mark (`W`), or `*0` without the deck's specials to name it; a
    played wild card's mark and the suit taken (`JK=H`; `*=H` without the deck's specials)."""
    if c >> 4 == SPECIAL:
        i = c & 15
        return specials[i].mark if i < len(specials) else f"*{i}"
    if c & 15 > 12:
        held = wild_held(c, specials)
        return (specials[held & 15].mark if held != c else "*") + "=" + SUIT_LETTERS[c >> 4]
    return RANK_LETTERS[c & 15] + SUIT_LETTERS[c >> 4]


def card_words(c: Card, specials: tuple[Special, ...] = ()) -> str:
    """A card for a sentence: `TS`, or a special's name (`wizard`); a played wild card as
    `joker as hearts`."""
    if c >> 4 == SPECIAL and (c & 15) < len(specials):
        return specials[c & 15].name
    if c & 15 > 12 and c >> 4 != SPECIAL:
        held = wild_held(c, specials)
        if held != c:
            return f"{specials[held & 15].name} as {SUITS[c >> 4]}"
    return card_text(c, specials)


def reads_as_rank(mark: str) -> bool:
    """Whether a special card's mark could be taken for a rank: `J` for a Jester, beside the Jack."""
    return mark.strip().upper() in (*RANK_LETTERS, "10")


def card_shown(c: Card, specials: tuple[Special, ...] = ()) -> str:
    """A card as the table shows it: `TS`; a special card by its mark (`W`), or by its name
    (`Jester`) when the mark reads as a rank, so that it is never taken for a card of that rank
    (`J` beside `J♠`)."""
    i = c & 15
    if c >> 4 == SPECIAL and i < len(specials) and reads_as_rank(specials[i].mark):
        return specials[i].name[:1].upper() + specials[i].name[1:]
    return card_text(c, specials)


def suit_number(name: str) -> int:
    """`spades` -> 0 ... `clubs` -> 3; `none` -> NO_TRUMP."""
    return NO_TRUMP if name == "none" else SUITS.index(name)


def suit_name(number: int) -> str:
    return "none" if number == NO_TRUMP else SUITS[number]


#: A suit as typed after a wild card's `=`: its symbol or its name, to its letter.
_SUIT_WORDS = {
    **{sym: SUIT_LETTERS[i].lower() for i, sym in enumerate(SUIT_SYMBOLS)},
    **{name: SUIT_LETTERS[i].lower() for i, name in enumerate(SUITS)},
}


class CardSyntaxError(ValueError):
    pass


def parse_card(text: str, specials: tuple[Special, ...] = ()) -> Card:
    """`TS`, `ts`, `10s`, `10♠` -> the ten of spades; a special's mark or name (any case) -> that
    special. Raises CardSyntaxError."""
    word = text.strip().lower()
    for i, s in enumerate(specials):
        if word in (s.mark.lower(), s.name.lower()):
            return special_card(i)
    if "=" in word:  # a wild card played as a suit: `JK=H`, `joker=hearts`, `jk=♥`
        held, _, suit = (part.strip() for part in word.partition("="))
        suit = _SUIT_WORDS.get(suit, suit)
        for i, s in enumerate(specials):
            if s.wild and held in (s.mark.lower(), s.name.lower()) and suit in SUIT_LETTERS.lower():
                return wild_played(special_card(i), SUIT_LETTERS.lower().index(suit), specials)
        wild = next((s.mark for s in specials if s.wild), "")
        how = f"write a wild card's mark, =, then the suit it takes, e.g. {wild}=H" if wild else "only a wild card is written with a suit after ="
        raise CardSyntaxError(f"{text.strip()!r} is not a card: {how}")
    m = suited_card_text(text)
    if not m:
        also = "".join(f", {s.mark} ({s.name})" for s in specials)
        raise CardSyntaxError(f"{text.strip()!r} is not a card: write rank then suit, e.g. TS (ten of spades), QH, 10h, 7♦{also}")
    rank = "T" if m.group(1) == "10" else m.group(1).upper()
    return card(rank, m.group(2).upper())


def deck(suits: tuple[str, ...], ranks: tuple[str, ...], specials: tuple[Special, ...] = (), copies: int = 1) -> tuple[Card, ...]:
    """The cards of a deck, by suit then rank high to low, then the specials; `copies` times."""
    one = tuple(SUITS.index(s) * 16 + RANK_LETTERS.index(r) for s in suits for r in ranks)
    one += tuple(special_card(i) for i, s in enumerate(specials) for _ in range(s.count))
    return one * copies


def sort_key(trump: int = NO_TRUMP):
    """For display: specials first, then trumps, then the other suits in order; high cards
    first within a suit."""
    return lambda c: (c >> 4 != SPECIAL, c >> 4 != trump, c >> 4, -(c & 15))


def sort_hand(cards: Iterable[Card], trump: int = NO_TRUMP) -> list[Card]:
    return sorted(cards, key=sort_key(trump))


def turn_up_facts(c: Card | None, specials: tuple[Special, ...] = ()) -> dict[str, str]:
    """What formulas may read of a turned card: `turn_up_suit` (a suit's name, or `none` for a
    special card or no card turned), `turn_up_rank` (`A` .. `2`, or "") and `turn_up_special`
    (a special's name, or "")."""
    if c is None:
        return {"turn_up_suit": "none", "turn_up_rank": "", "turn_up_special": ""}
    if c >> 4 == SPECIAL:
        return {"turn_up_suit": "none", "turn_up_rank": "", "turn_up_special": card_words(c, specials)}
    return {"turn_up_suit": SUITS[c >> 4], "turn_up_rank": RANK_LETTERS[c & 15], "turn_up_special": ""}


def by_suit(cards: Iterable[Card]) -> list[Card]:
    """Cards in the order people read them: spades, hearts, diamonds, clubs, then the specials;
    high to low in a suit."""
    return sorted(cards, key=_by_suit_key)


def _by_suit_key(c: Card) -> tuple[int, int]:
    return (SUIT_OF[c], -c if c < SPECIAL * 16 else c)  # the specials in the deck's order
