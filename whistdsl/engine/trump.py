"""The deal and the finding of trump: two small steps of every hand, chosen once per ruleset.

The deal step shuffles and deals a hand (and, for a card turned before the deal, turns it
first); the trump step finds the hand's trump from the ruleset's sources, tried in order
(`trump.from`): the next undealt card after the deal (`turn_up`), a card turned from the pack
before the deal (`before_deal`: set aside, or left in the pack and dealt as usual), the
dealer's own last card shown to all (`dealer_last_card`: it stays in the dealer's hand), a suit
drawn from the game's generator (`random`: each suit as likely, or as `trump.weights` say, which
may give no trump), or the fixed `cycle` of language version 1. A source
that finds no card (none left undealt, the dealer sitting out) hands on to the next; a turned
special card gives no trump. `trump.none_when` is asked before the deal, or, when it reads the
turned card (`turn_up_rank`, ...), once the card is turned.

Version 1 rulesets (`cycle`, `turn_up: true`) keep their exact draws from the generator: the
next card after the deal is drawn whether or not it is used, as before, so old seeds and
records give the same games.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from ..rules.ruleset import Remembered, Ruleset

if TYPE_CHECKING:
    from .state import PresetDeal
from .cards import NO_TRUMP, SPECIAL, SUIT_OF, Card, card_words, suit_number

#: Where a turned card is once trump is found: what every seat knows of it.
ON_TABLE = "table"  # turned face up and not dealt (the next card; a card set aside)
IN_DEALERS_HAND = "dealer"  # the dealer's own last card, shown: the dealer holds it
IN_THE_PACK = "pack"  # turned before the deal and dealt as usual: somewhere, unseen

#: Names a formula reads of the turned card.
CARD_FACTS = frozenset({"turn_up_suit", "turn_up_rank", "turn_up_special"})


class Found(NamedTuple):
    """What the trump step found: the trump (suit number or NO_TRUMP), the card turned (if any),
    which source gave it ("" when none did), and where the turned card is (ON_TABLE, ...)."""

    trump: int
    card: Card | None = None
    source: str = ""
    place: str = ""


NOTHING = Found(NO_TRUMP)


def deal_from(
    rng_random: Callable[[], float], d: list[Card], deal_order: Sequence[int], size: int, hands: list[list[list[Card]]], start: int = 0
) -> list[tuple[Card, ...]]:
    """Deal `size` cards to each seat of `deal_order` from `d[start:]`: a partial Fisher-Yates
    shuffle of the part of the deck that is needed, each card going to its seat as it is drawn."""
    suit_of = SUIT_OF
    total = len(d)
    dealt: list[tuple[Card, ...]] = [()] * len(hands)
    i = start
    for seat in deal_order:
        h = hands[seat]
        first = i
        for i in range(first, first + size):
            j = i + int(rng_random() * (total - i))
            c = d[j]
            d[j] = d[i]
            d[i] = c
            h[suit_of[c]].append(c)
        i = first + size
        dealt[seat] = tuple(d[first:i])
    return dealt


def draw(rng_random: Callable[[], float], d: list[Card], at: int) -> Card | None:
    """A card drawn at random from `d[at:]` (moved to `d[at]`), or None when none is left."""
    total = len(d)
    if at >= total:
        return None
    j = at + int(rng_random() * (total - at))
    c = d[j]
    d[j] = d[at]
    d[at] = c
    return c


class TrumpStep:
    """The deal and trump steps of one ruleset (`trump_step(rules)` chooses and keeps it)."""

    def __init__(self, rules: Ruleset):
        self.rules = rules
        self.cycle = tuple(suit_number(s) for s in rules.trump_cycle) if rules.trump_cycle else None
        self._cycle_found = tuple(Found(t) for t in self.cycle or ())
        self._turned_found: dict[Card, Found] = {}
        #: language 2's list of sources; () for version 1 (cycle, or turn_up: true)
        self.sources: tuple[str, ...] = rules.trump_from
        self.set_aside = rules.trump_turned == "set_aside"
        self.before = "before_deal" in self.sources
        none_when = rules.trump_none_when
        #: trump.none_when reads the turned card: asked once the card is turned
        self.none_reads_card = none_when is not None and bool(none_when.names & CARD_FACTS)
        self.suits = tuple(suit_number(s) for s in rules.suits)
        self.hidden_while_bidding = rules.trump_seen == "after_bidding"
        self.random = "random" in self.sources
        # a random trump (`trump.weights`): the outcomes that can be drawn, and where each one's
        # share of the total weight ends (no weights: each suit of the deck as likely)
        weighed = [(suit_number(o), w) for o, w in rules.trump_weights if w > 0]
        self.drawn: tuple[int, ...] = tuple(o for o, _ in weighed) if weighed else self.suits
        self.drawn_ends = tuple(itertools.accumulate(w for _, w in weighed))

    @property
    def version_1(self) -> bool:
        return not self.sources

    def turns_card(self) -> bool:
        """Whether some source turns a card (so formulas may read `turn_up_rank`, ...)."""
        return self.version_1 and self.rules.turn_up or any(s != "random" for s in self.sources)

    # ------------------------------------------------------------ the deal step

    def deal(
        self, rng_random: Callable[[], float], d: list[Card], deal_order: Sequence[int], size: int, hands: list[list[list[Card]]], skip: bool
    ) -> tuple[list[tuple[Card, ...]], Card | None, int]:
        """Deal the hand. Returns the deal, the card turned before it or the next card after it
        (version 1: always drawn when a card is left), and where the undealt cards begin in `d`.
        `skip`: `trump.none_when` already says no trump (a card turned before the deal is not turned)."""
        needed = size * len(deal_order)
        total = len(d)
        if self.version_1:
            dealt = deal_from(rng_random, d, deal_order, size, hands)
            return dealt, draw(rng_random, d, needed), needed
        turned = None
        start = 0
        if self.before and not skip:
            if self.set_aside:
                if total > needed:
                    turned = draw(rng_random, d, 0)
                    start = 1
            else:
                turned = d[int(rng_random() * total)]  # it stays in the pack and is dealt as usual
        return deal_from(rng_random, d, deal_order, size, hands, start), turned, needed + start

    # ------------------------------------------------------------ the trump step

    def find(
        self,
        number: int,
        dealer: int,
        dealt: Sequence[tuple[Card, ...]],
        turned: Card | None,
        rng_random: Callable[[], float],
        d: list[Card],
        undealt: int,
        preset: PresetDeal | None = None,
    ) -> Found:
        """The trump of hand `number` from the sources in order. `turned` is what the deal step
        turned (a set-up deal: its recorded card; its recorded suit for `random`); `d[undealt:]`
        are the cards left undealt."""
        if self.version_1:  # the hot path of version 1: what it finds is made once
            if self.cycle is not None:
                return self._cycle_found[(number - 1) % len(self.cycle)]
            if self.rules.turn_up and turned is not None:
                found = self._turned_found.get(turned)
                if found is None:
                    found = self._turned_found[turned] = Found(NO_TRUMP if SUIT_OF[turned] == SPECIAL else SUIT_OF[turned], turned, "", ON_TABLE)
                return found
            return NOTHING
        for source in self.sources:
            if source == "before_deal":
                if turned is None or preset and self.set_aside and undealt >= len(d):
                    continue
                place = ON_TABLE if self.set_aside else IN_THE_PACK
                return _of_card(turned, source, place)
            if source == "turn_up":
                card = (turned if undealt < len(d) else None) if preset else draw(rng_random, d, undealt)
                if card is None:
                    continue
                return _of_card(card, source, ON_TABLE)
            if source == "dealer_last_card":
                cards = dealt[dealer] if 0 <= dealer < len(dealt) else ()
                if not cards:
                    continue
                return _of_card(cards[-1], source, IN_DEALERS_HAND)
            if source == "random":
                if preset is not None and preset.trump is not None:
                    return Found(preset.trump, None, source, "")
                return Found(self.draw_trump(rng_random), None, source, "")
        return NOTHING

    def draw_trump(self, rng_random: Callable[[], float]) -> int:
        """A trump drawn at random (suit number or NO_TRUMP): one draw from the generator, `u`,
        picks the outcome whose share of the total weight holds `u * total` (the die
        `{spades: 1, hearts: 1, diamonds: 1, clubs: 1, none: 2}`: u < 1/6 spades, ..., u >= 4/6
        no trump). Without weights each suit as likely: the draw of rulesets before `weights`."""
        if not self.drawn_ends:
            return self.suits[int(rng_random() * len(self.suits))]
        total = self.drawn_ends[-1]
        pick = min(int(rng_random() * total), total - 1)  # u * total may round up to total
        return self.drawn[bisect.bisect_right(self.drawn_ends, pick)]

    def check_preset(self, number: int, dealer: int, dealt: Sequence[tuple[Card, ...]], turned: Card | None, left: dict[Card, int]) -> None:
        """A set-up deal's turned card must be one a source could turn: an undealt card (the
        next card, a card set aside), the dealer's last card, or any card of the pack (turned
        before the deal and dealt as usual). `left`: how many of each card of the deck the deal
        did not use. Raises ValueError."""
        if turned is None:
            return
        sources = self.sources or ("turn_up",)
        if any(s != "dealer_last_card" for s in sources) and left.get(turned):
            return
        if "dealer_last_card" in sources and 0 <= dealer < len(dealt) and dealt[dealer] and dealt[dealer][-1] == turned:
            return
        if "before_deal" in sources and not self.set_aside and any(turned in cards for cards in dealt):
            return
        words = card_words(turned, self.rules.specials)
        if sources == ("dealer_last_card",):
            raise ValueError(f"hand {number}: the turned card {words} is not the dealer's last card")
        raise ValueError(f"hand {number}: the turned-up card {words} is dealt or not in the deck")


def _of_card(card: Card, source: str, place: str) -> Found:
    suit = SUIT_OF[card]
    return Found(NO_TRUMP if suit == SPECIAL else suit, card, source, place)


def trump_step(rules: Ruleset) -> TrumpStep:
    """The deal and trump steps of `rules`, chosen once per ruleset."""
    return _STEPS(rules)


#: Per ruleset: its TrumpStep.
_STEPS: Remembered[TrumpStep] = Remembered(TrumpStep)


def trump_words(trump_name: str, card_text: str | None, source: str) -> str:
    """How the terminal tells where this hand's trump came from: `the dealer's last card, the 7
    of hearts, is trump: hearts`."""
    if source == "random":
        return f"trump drawn at random: {trump_name}"
    if card_text is None:
        return f"trump: {trump_name}"
    what = {
        "turn_up": "the card turned up",
        "before_deal": "the card turned before the deal",
        "dealer_last_card": "the dealer's last card",
    }.get(source, "the card turned up")
    return f"{what}, {card_text}, gives trump: {trump_name}"
