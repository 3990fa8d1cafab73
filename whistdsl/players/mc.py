"""The `mc` player: Monte Carlo over the cards it cannot see.

For each decision it samples deals of the unseen cards consistent with everything its seat has
seen (its cards, cards played, the turned-up card, the cards on others' foreheads, and voids
shown by failing to follow suit), plays every candidate action out to the end of the hand on
each sample with a fast rollout policy (the heuristic player's card play), and picks the action
with the best average result by the ruleset's scoring formula, bonuses and running values included.
The same samples are used for every candidate (common random numbers), so differences between
candidates are not drowned in sampling noise.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import replace

from ..engine.cards import NO_TRUMP, SPECIAL, Card, suit_name, suit_number, suit_of
from ..engine.game import BIDDING, DECISION, OVER, Game, RuleError, look_ahead
from ..engine.observer import SeatView
from ..engine.tricks import hand_trick_play
from ..engine.trump import trump_step
from ..rules.ruleset import TurnedCard, WhenVoid
from .base import SeatWindow
from .heuristic import HeuristicPlayer, choose_bid, choose_card, known_held, lowest_wins, unseen_cards


def voids(view: SeatView) -> dict[int, set[int]]:
    """Suits each other seat has shown it does not hold, from the tricks of this hand (a special
    card that may be played at any time shows nothing; one led may leave nothing to follow)."""
    out: dict[int, set[int]] = {s: set() for s in range(view.players)}
    when_void = view.rules.when_void
    trump = view.trump
    play = hand_trick_play(view.rules, view.players, view.turn_up)
    for cards in [t.cards for t in view.tricks] + ([view.trick] if view.trick else []):
        for i, (seat, c) in enumerate(cards):
            if i == 0 or c in play.always_playable:
                continue
            led = play.led(list(cards[:i]), trump)
            if led < 0 or play.suit_in(c, trump) == led:
                continue
            out[seat].add(led)
            if when_void != WhenVoid.FREE and trump != NO_TRUMP and play.suit_in(c, trump) != trump:
                out[seat].add(trump)
    return out


class DealSampler:
    """Guesses at every playing seat's current cards, consistent with one seat's view: what
    does not change from guess to guess (the cards to share out, each hidden seat's count and
    the suits it has shown it lacks) worked out once, so a guess costs a shuffle and a share."""

    def __init__(self, view: SeatView):
        played_by: dict[int, int] = {}
        for cards in [t.cards for t in view.tricks] + [view.trick]:
            for seat, _ in cards:
                played_by[seat] = played_by.get(seat, 0) + 1
        playing = [s for s in range(view.players) if s not in view.sitting_out]
        self.need = {s: view.hand_size - played_by.get(s, 0) for s in playing}
        self.known: dict[int, list[Card]] = {}
        hidden = []
        self.held = known_held(view)  # the dealer's shown card: the dealer holds it
        for s in playing:
            if s == view.seat and view.hand is not None:
                self.known[s] = list(view.hand)
            elif s in view.others:
                self.known[s] = list(view.others[s])
            else:
                hidden.append(s)
        for s, cards in self.held.items():  # type: ignore[assignment]  # the held cards per seat, under the name used above for the played ones
            if s in hidden:
                self.need[s] -= len(cards)
        self.pool = unseen_cards(view)  # our own cards are in it too when we cannot see them
        shown = voids(view)
        suit_in = hand_trick_play(view.rules, view.players, view.turn_up).suit_in  # a trump special is void with the trumps
        trump = view.trump
        # the most constrained seats choose first; per seat, which pool cards it may hold
        self.hidden = sorted(hidden, key=lambda s: -len(shown[s]))
        self.suit = {c: suit_in(c, trump) for c in set(self.pool)}
        self.lacks = {s: frozenset(shown[s]) for s in self.hidden}
        self.free = not any(self.lacks.values())

    def sample(self, rng: random.Random, tries: int = 20) -> dict[int, list[Card]]:
        """One guess (after `tries` guesses that fit no shown void, one that ignores them)."""
        hands = {s: list(c) for s, c in self.known.items()}
        if self.free:
            return self._share(hands, rng)
        pool = self.pool
        need = self.need
        suit = self.suit
        for _ in range(tries):
            rng.shuffle(pool)
            remaining = list(pool)
            guess: dict[int, list[Card]] = {}
            for s in self.hidden:
                lacks = self.lacks[s]
                if lacks:
                    allowed = [i for i, c in enumerate(remaining) if suit[c] not in lacks]
                    if len(allowed) < need[s]:
                        break
                    taken = allowed[: need[s]]  # positions: copies of one card are told apart
                    picked = set(taken)
                    guess[s] = [remaining[i] for i in taken]
                    remaining = [c for i, c in enumerate(remaining) if i not in picked]
                else:
                    guess[s] = remaining[: need[s]]
                    remaining = remaining[need[s] :]
            else:
                hands.update(guess)
                self._add_held(hands)
                return hands
        return self._share(hands, rng)  # no consistent guess found quickly: ignore the voids

    def _share(self, hands: dict[int, list[Card]], rng: random.Random) -> dict[int, list[Card]]:
        """`hands` with the unseen cards shared out at random, whatever the voids."""
        pool = self.pool
        rng.shuffle(pool)
        pos = 0
        for s in self.hidden:
            hands[s] = pool[pos : pos + self.need[s]]
            pos += self.need[s]
        self._add_held(hands)
        return hands

    def _add_held(self, hands: dict[int, list[Card]]) -> None:
        _add_held(hands, self.held, self.hidden)


def sample_hands(view: SeatView, rng: random.Random, tries: int = 20) -> dict[int, list[Card]]:
    """A guess at every playing seat's current cards, consistent with this seat's view."""
    return DealSampler(view).sample(rng, tries)


def _add_held(hands: dict[int, list[Card]], held: dict[int, tuple[Card, ...]], hidden_seats: list[int]) -> None:
    for s, cards in held.items():
        if s in hidden_seats:
            hands[s] = list(hands[s]) + list(cards)


def with_sampled_trump(view: SeatView, hands: dict[int, list[Card]], rng: random.Random) -> SeatView:
    """`view` with a guess at the trump it may not see yet (`trump.seen: after_bidding`), drawn
    as the ruleset's sources would draw it from what this seat has not seen: a card left
    undealt in the sample (the next card, a card set aside), any unseen card (a card turned
    before the deal and dealt as usual), one of the dealer's sampled cards, a random suit (or
    no trump: as `trump.weights` say)."""
    rules = view.rules
    card, trump, place = None, NO_TRUMP, ""
    if rules.trump_cycle:
        name = rules.trump_cycle[(view.hand_number - 1) % len(rules.trump_cycle)]
        trump = NO_TRUMP if name == "none" else suit_number(name)
    held = Counter(c for h in hands.values() for c in h)
    unseen = unseen_cards(view)
    undealt = []  # the unseen cards the sample dealt to nobody (each copy counts)
    for c in unseen:
        if held[c]:
            held[c] -= 1
        else:
            undealt.append(c)
    for source in rules.trump_from or (("turn_up",) if rules.turn_up else ()):
        if source == "random":  # each outcome as likely as `trump.weights` say
            trump = trump_step(rules).draw_trump(rng.random) if rules.trump_weights else suit_number(rng.choice(rules.suits))
            break
        if source == "dealer_last_card":
            pool, place = list(hands.get(view.dealer, ())), "dealer"
        elif source == "before_deal" and rules.trump_turned == TurnedCard.DEALT:
            pool, place = list(unseen) + list(view.hand or ()), "pack"
        else:
            pool, place = undealt, "table"
        if pool:
            card = rng.choice(pool)
            trump = NO_TRUMP if suit_of(card) == SPECIAL else suit_of(card)
            break
    return replace(
        view,
        trump=trump,
        turn_up=card,
        turn_up_place=place if card is not None else "",
        trump_hidden=False,
        hand_env=dict(view.hand_env, trump=suit_name(trump)),
    )


#: what `unsampled_answer` gives when the decision is one to sample deals for
SAMPLE = object()


def unsampled_answer(view: SeatView, legal: list | None, rng: random.Random) -> object:
    """The answer of a decision the sampling players (`mc`, `search`) do not sample deals for,
    else SAMPLE: a card this seat cannot see (None), the only legal action, a decision (trump,
    blind or look: the heuristic's estimate), and a bid with nothing to sample from but the
    heuristic's estimate (own cards unseen) or made together with the others' (whose bids are
    not known, and a sample must not read them)."""
    if legal is None:
        return None
    if len(legal) == 1:
        return legal[0]
    if view.phase == DECISION:
        return HeuristicPlayer().act(view, legal, rng)
    if view.phase == BIDDING and (view.hand is None or view.bids_hidden):
        return choose_bid(view, legal)
    return SAMPLE


def rollout(game: Game, rng: random.Random) -> None:
    """Play the hand to its end: heuristic bids (from each seat's view), heuristic card play;
    inside the engine's own loop (`Game.play_hand_unobserved`, each seat reading its
    `SeatWindow`) unless the cards are on the foreheads."""
    bidder = HeuristicPlayer()
    if game.hand_kind.view != "forehead":
        choose = [bidder.seat_chooser(SeatWindow(game, seat), rng) for seat in range(game.players)]
        game.bid_unobserved(choose)  # type: ignore[arg-type]  # in the interpreter, whose position the bidders' views show
        game.play_hand_unobserved(choose)  # type: ignore[arg-type]  # a chooser is given the legal actions of its turn: bids, options or cards
        return
    while game.phase != OVER:
        seat = game.seat_to_act
        if game.phase == BIDDING or game.phase == DECISION:
            game.act(bidder.act(game.view(seat), game.legal_actions(), rng))
            continue
        legal = game.legal_cards()
        need = game.bids[seat] - game.taken[seat]  # type: ignore[operator]  # a seat's bid is made (not None) once the play or the scoring comes
        last = len(game.trick) == len(game.trick_order) - 1
        game.play_legal(choose_card(legal, game.trick, game.trump, need, last, game.tricks_play))


class MonteCarloPlayer:
    """Samples the unseen cards, plays each candidate out, keeps the best average."""

    kind = "mc"
    observes = True

    def __init__(self, samples: int = 48, time_budget: float | None = None):
        """`samples` deals per decision; `time_budget` (seconds), when set, stops sampling early
        (after at least 4 samples) -- at the cost of exact repeatability, which depends on the clock."""
        self.samples = samples
        self.time_budget = time_budget

    def act(self, view: SeatView | None, legal: list[int] | None, rng: random.Random) -> int | None:
        assert view is not None
        answer = unsampled_answer(view, legal, rng)
        if answer is not SAMPLE:
            return answer  # type: ignore[return-value]  # an answer other than SAMPLE is an action
        assert legal is not None
        sign = -1.0 if lowest_wins(view) else 1.0
        seat = view.seat
        totals = dict.fromkeys(legal, 0.0)
        played = dict.fromkeys(legal, 0)  # samples whose rollout the rules let finish
        done = 0
        deadline = None if self.time_budget is None else time.perf_counter() + self.time_budget
        while done < self.samples and (deadline is None or done < 4 or time.perf_counter() < deadline):
            hands = sample_hands(view, rng)
            seen = with_sampled_trump(view, hands, rng) if view.trump_hidden else view
            try:
                position = look_ahead(seen, hands, rng)  # the imagined position, once a sample
            except RuleError:
                done += 1
                continue
            for action in legal:
                sim = position.clone()
                try:
                    sim.act(action)
                    rollout(sim, rng)
                except RuleError:
                    continue  # the rules cannot go on in this imagined deal: it says nothing of the action
                result = sim.history[-1]
                totals[action] += sign * float(result.points[seat])
                played[action] += 1
            done += 1
        return max(legal, key=lambda a: totals[a] / played[a] if played[a] else float("-inf"))
