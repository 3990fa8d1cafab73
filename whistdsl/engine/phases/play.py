"""The play (`play`): the legal cards, a card played or refused by the rule it breaks, each
trick's winner, and the hands of players that see only their legal actions (the compiled
runner, engine/compiled/, where it applies).

A part of `Game` (engine/game.py), which mixes in every phase; its entry point is `play`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..cards import SPECIAL, SUIT_OF, Card, card_text, card_words, suit_name, wild_held
from ..errors import IllegalAction, RuleError
from ..state import Phase, Trick
from ..tricks import NO_SUIT, NoWinner
from . import Part

BIDDING = Phase.BIDDING
PLAY = Phase.PLAY
DECISION = Phase.DECISION


class Play(Part):
    """The part of `Game` that plays the play (entry point: `play`)."""

    def begin_play(self) -> None:
        """The bidding (and the decisions after it) is over: the first leader leads."""
        self.phase = PLAY
        self.decision = None
        if self.rules.first_lead_choice is not None:
            self.leader = self._choose_first_leader()
        self.to_act = self.leader
        self.trick_order = self.play_orders[self.leader]

    def legal_cards(self) -> list[Card]:
        """The legal cards of the seat to act, in the order its hand holds them (read it, do not
        change it); [] out of the play. `legal_actions` gives the same cards by suit, as a copy."""
        return self._legal_cards(self.seat_to_act) if self.phase == PLAY else []

    def play_legal(self, card: Card) -> None:
        """Play `card`, taken from `legal_cards()` of this very position, without checking it again
        (for computer players' look-ahead; `play` checks)."""
        self.commit_card(self.seat_to_act, card)

    def _legal_cards(self, seat: int) -> list[Card]:
        """The legal cards of `seat` now (remembered until the next card is played; do not modify)."""
        cached = self.legal_cards_memo
        if cached is not None and cached[0] == seat and cached[1] == len(self.trick):
            return cached[2]
        legal = list(self.tricks_play.legal(self.hands[seat], self.trick, self.trump, self.rules.when_void))
        self.legal_cards_memo = (seat, len(self.trick), legal)
        return legal

    def can_see_own_hand(self, seat: int) -> bool:
        view = self.hand_kind.view
        if view == "forehead" or (view == "blind" and self.phase in (BIDDING, DECISION)):
            return False
        if self._decides and self.rules.blind_bids and self.phase in (BIDDING, DECISION):
            return self.looked[seat] and (not self.blind[seat] or self.bids[seat] is not None)  # a blind bidder looks once it has bid
        return True

    def play(self, card: Card | None) -> None:
        """Play a card; None plays the card a seat cannot see (forehead), chosen at random among its legal cards."""
        if self.phase != PLAY:
            raise IllegalAction("it is not time to play a card", "not_your_turn", "played a card during the bidding")
        seat = self.seat_to_act
        legal = self._legal_cards(seat)
        if card is None:
            if self.can_see_own_hand(seat):
                raise IllegalAction("name the card to play")
            card = legal[int(self.rng.random() * len(legal))]
        elif card not in legal:
            raise self.card_refusal(seat, card)
        self.commit_card(seat, card)

    def commit_card(self, seat: int, card: Card) -> None:
        """Play `card` for `seat`, already known to be legal (nothing is checked): the trick, its
        winner, the end of the hand. `play` checks first; look-ahead replays known cards with this."""
        if card & 15 > 12:  # a wild card played as a suit (cards.py): its special card leaves the hand
            self.hands[seat][SPECIAL].remove(wild_held(card, self.rules.specials))
        else:
            self.hands[seat][SUIT_OF[card]].remove(card)
        self.legal_cards_memo = None
        trick = self.trick
        trick.append((seat, card))
        order = self.trick_order
        if len(trick) < len(order):
            self.to_act = order[len(trick)]
            return
        win_seat = self.trick_winner(trick)
        self.tricks.append(Trick(order[0], tuple(trick), win_seat))
        self.taken[win_seat] += 1
        self.trick = []
        if len(self.tricks) < self.hand_size:
            self.trick_order = self.play_orders[win_seat]
            self.leader = self.to_act = win_seat
            return
        self.score_hand()

    def trick_winner(self, trick: list[tuple[int, Card]]) -> int:
        """The seat that wins the complete `trick`, by the ruleset's trick rules."""
        try:
            return self.tricks_play.winner(trick, self.trump)
        except NoWinner:
            cards = " ".join(card_words(c, self.rules.specials) for _, c in trick)
            raise RuleError(
                f"no rule of trick.winner picks a card of the trick {cards}",
                hand=self.hand_number,
                origin="trick.winner (" + ", ".join(r.text for r in self.rules.trick_winner) + ")",
            ) from None

    #: play hands with the compiled engine (engine/compiled/) where it can; False: interpret every hand
    use_compiled = True

    def play_hand_unobserved(self, choose: list[Callable[[list[int]], int]] | None) -> None:
        """Bid and play the rest of this hand with players that see only their legal actions:
        `choose[seat](legal)` picks each action; None: every seat picks uniformly at random,
        drawing from `rng` as `uniform_chooser` does. A hand from its start, or from its first
        card, goes to the compiled engine when the ruleset's hands are compiled; the same draws
        give the same game."""
        if self.use_compiled and self.facts.compiled.play_hand is not None and self.hand_kind.view != "forehead":
            while self.phase == DECISION:  # a trump named before the bidding
                options = self.decision_options()
                self.decide(options[int(self.rng.random() * len(options))] if choose is None else choose[self.seat_to_act](options))  # type: ignore[arg-type]  # a chooser is given the legal actions of its turn: bids, options or cards
            if self.phase == BIDDING and not self.bid_log:
                self.facts.compiled.play_hand(self, choose)
                return
            if self.phase == PLAY and not self.tricks and not self.trick and choose is not None:  # bid by players reading their views
                self.facts.compiled.play_tricks(self, choose)
                return
        if choose is None:
            choose = [uniform_chooser(self.rng)] * self.players
        if self.phase != PLAY:
            self.bid_unobserved(choose)
        self.play_tricks_unobserved(choose)

    def play_hands_random(self) -> None:
        """Bid and play the rest of this hand with every seat choosing uniformly at random (as
        `play_hand_unobserved(None)`), and go on with the next hands for as long as the compiled
        engine plays them whole: it returns at the end of the game or at a hand to be played
        another way (a forehead hand, a decision), set up as game.py sets it up."""
        loop = self.facts.compiled.play_game_random if self.use_compiled else None
        if loop is not None and self.phase == BIDDING and not self.bid_log and self.hand_kind.view != "forehead":
            loop(self)
        else:
            self.play_hand_unobserved(None)

    def play_tricks_unobserved(self, choose: list[Callable[[list[Card]], Card]]) -> None:
        """Play this hand's tricks to the end, asking `choose[seat](legal cards)` for each card.

        For players that look at nothing but their legal cards (random play): the same rules as
        `play`, without building views, so thousands of games a second can be simulated.
        """
        if self.phase != PLAY or self.hand_kind.view == "forehead":
            raise IllegalAction("play_tricks_unobserved needs a hand in play whose players see their cards")
        hands, trump, void_rule, play_orders = self.hands, self.trump, self.rules.when_void, self.play_orders
        legal_cards, trick_winner, suit_of = self.tricks_play.legal, self.tricks_play.winner, SUIT_OF
        if not self.tricks_play.standard:
            trick_winner = lambda trick, trump: self.trick_winner(trick)  # noqa: E731 (names the rule on failure)
        tricks, taken = self.tricks, self.taken
        trick = self.trick
        leader = trick[0][0] if trick else self.to_act  # a trick may be under way
        for _ in range(self.hand_size - len(tricks)):
            order = play_orders[leader]  # type: ignore[index]  # the leader of a trick to come is a seat (the game is under way)
            for seat in order[len(trick) :]:
                hand = hands[seat]
                legal = legal_cards(hand, trick, trump, void_rule)
                card = choose[seat](legal)
                if card not in legal:
                    raise self.card_refusal(seat, card)
                if card & 15 > 12:  # a wild card played as a suit
                    hand[SPECIAL].remove(wild_held(card, self.rules.specials))
                else:
                    hand[suit_of[card]].remove(card)
                trick.append((seat, card))
            leader = trick_winner(trick, trump)
            tricks.append(_new_trick(Trick, (order[0], tuple(trick), leader)))
            taken[leader] += 1
            trick = self.trick = []
        self.legal_cards_memo = None
        self.score_hand()

    def card_refusal(self, seat: int, card: object) -> IllegalAction:
        """Why `seat` may not play `card` now: not a card of the deck, not held, or the rule of
        the led suit it breaks (must follow, must trump, must over-trump)."""
        if type(card) is not int or wild_held(card, self.rules.specials) not in self.deck:
            return IllegalAction("that is not a card of this deck", "not_a_card", "that is not a card of this deck")
        specials = self.rules.specials
        text = card_words(card, specials)
        h = self.hands[seat]
        held = wild_held(card, specials)
        if held not in h[SUIT_OF[held]]:
            return IllegalAction(f"you do not hold {card_words(held, specials)}", "not_held", "does not hold it")
        if held != card or (SUIT_OF[card] == SPECIAL and specials[card & 15].wild):
            return self._wild_refusal(seat, card)
        led = self.tricks_play.led(self.trick, self.trump)
        if led == NO_SUIT:  # cannot happen: with nothing to follow every card is legal
            return IllegalAction(f"you may not play {text} now", "illegal", f"may not play {text}")
        suit_in = self.tricks_play.suit_in  # a super trump follows as a trump, not as its own suit
        follow = [c for cards in h for c in cards if suit_in(c, self.trump) == led]
        if follow:
            return IllegalAction(
                f"you must follow suit: {suit_name(led)} were led and you hold {len(follow)}",
                "must_follow",
                f"holds {_a_card_of(led)} (must follow)",
            )
        trump = suit_name(self.trump)
        best_trump = max((c for _, c in self.trick if SUIT_OF[c] == self.trump), default=-1)
        if self.rules.when_void == "must_overtrump" and any(c > best_trump for c in h[self.trump]):
            return IllegalAction(
                f"you must over-trump if you can, else trump: you are void in {suit_name(led)}",
                "must_overtrump",
                f"is void in {suit_name(led)} and holds a higher trump (must over-trump)",
            )
        return IllegalAction(
            f"you must trump: you are void in {suit_name(led)} and hold {trump}",
            "must_trump",
            f"is void in {suit_name(led)} and holds {_a_card_of(self.trump)} (must trump)",
        )

    def _wild_refusal(self, seat: int, card: Card) -> IllegalAction:
        """Why `seat` may not play its wild card as `card` (or, undeclared, at all): the suits it
        may take now, as the legal cards say."""
        specials = self.rules.specials
        held = wild_held(card, specials)
        special = specials[held & 15]
        may = [c for c in self._legal_cards(seat) if wild_held(c, specials) == held]
        forms = ", ".join(card_text(c, specials) for c in may)
        if card == held:
            return IllegalAction(
                f"say the suit the {special.name} takes: {forms}" if may else f"you may not play the {special.name} now",
                "wild_suit",
                "played a wild card without its suit",
            )
        suit = suit_name(SUIT_OF[card])
        if may:
            return IllegalAction(
                f"the {special.name} may not take {suit} now: play it as {forms}", "wild_suit", f"may not play the {special.name} as {suit}"
            )
        return IllegalAction(f"you may not play the {special.name} now", "wild_suit", f"may not play the {special.name} as {suit}")


def uniform_chooser(rng: random.Random) -> Callable[[list], Any]:
    """A uniformly random pick from a list of legal actions, drawing once from `rng` (the random
    player's choice; the compiled engine draws the same way in place)."""
    rnd = rng.random
    return lambda legal: legal[int(rnd() * len(legal))]


_new_trick = tuple.__new__  # Trick(...) without its keyword handling: the hot path's constructor


def _a_card_of(suit: int) -> str:
    return {"spades": "a spade", "hearts": "a heart", "diamonds": "a diamond", "clubs": "a club"}[suit_name(suit)]
