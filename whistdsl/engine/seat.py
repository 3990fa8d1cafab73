"""The seat interface: the one way in for a person, at a terminal or in a browser.

A `Seat` is one seat of one game. It says what the seat sees (`view`, the same `SeatView` the
computer players get), what it is asked now and the answers it may give (`question`), and takes
its answer (`answer`). A person's side holds `Seat`s, never the `Game`. A `Spectator` sees the
same table as the view of no seat (`spectator_view`) and answers nothing.

Both also read what the whole table knows beyond the hand in play: the hands finished
(`hands_played`, for the score sheet and the last hand's tricks), the hands the schedule plays
(`scheduled_hands`), who is still to name this hand's trump (`trump_to_be_named`) and the
game's result (`result`).

Answers are plain data, so that the same dictionary is sent by a page, stored by the server and
kept in a record's `unfinished` answers (records/record.py):

    {"bid": 3}   {"bid": "nil"}   {"card": "QH"}   {"card": None}   {"decision": "spades"}

`{"card": None}` plays the card a seat cannot see (a forehead hand): the engine picks it from
the seat's legal cards. `answer` returns the answer as a record keeps it, with the seat:
`{"seat": 0, "bid": 3}`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .cards import CardSyntaxError, card_text, parse_card
from .errors import IllegalAction
from .observer import SeatView
from .state import Phase

if TYPE_CHECKING:
    from .game import Action, Game, GameResult, HandResult

#: The answer's one key for each phase a seat acts in.
_KEY_OF_PHASE = {Phase.BIDDING: "bid", Phase.PLAY: "card", Phase.DECISION: "decision"}


class NotYourTurn(IllegalAction):
    """An answer from a seat that is not to act (or after the game is over); nothing changes."""

    def __init__(self, message: str = "it is not your turn"):
        super().__init__(message, "not_your_turn")


@dataclass(frozen=True)
class Question:
    """What the seat to act is asked now.

    `ask` is `bid`, `card` or `decision`; `decision` names the decision (`trump`, `auction`,
    `blind`) or is None. `options` are the legal answers as the answer's value: bids as numbers
    and named calls as their names, cards as their text (`QH`, a special's mark), a decision's
    choices as words. `unseen`: the seat plays a card it cannot see (its only answer is
    `{"card": None}`; `options` is empty). `forbidden`: the bids from 0 to the hand size that the
    rules forbid now (the hook, a forced bid), so a front end can say why.
    """

    ask: str
    decision: str | None
    options: tuple[int | str, ...]
    unseen: bool = False
    forbidden: tuple[int, ...] = ()

    def answers(self) -> tuple[dict[str, Any], ...]:
        """Every legal answer, as `Seat.answer` takes it."""
        if self.unseen:
            return ({"card": None},)
        return tuple({self.ask: option} for option in self.options)


class _Window:
    """What anyone at the table reads of one game besides a view (see the module's docstring)."""

    __slots__ = ("_game",)

    def __init__(self, game: Game):
        self._game = game

    def hands_played(self) -> tuple[HandResult, ...]:
        """The hands finished so far, in order: every card in them was played face up. The
        generator's state kept after a hand (`rng_state`, which would tell the deals to come) is
        left out."""
        return tuple(h if h.rng_state is None else h._replace(rng_state=None) for h in self._game.history)

    @property
    def scheduled_hands(self) -> int:
        """The hands the schedule plays (fewer once the game has ended on its condition; a
        tie-break hand is played after them)."""
        return self._game.scheduled_hands

    def trump_to_be_named(self) -> str | None:
        """Who is still to name this hand's trump: `auction` or the ruleset's `who` (Game's
        `trump_to_be_named`); None when trump is known or comes by its rule."""
        return self._game.trump_to_be_named()

    def result(self) -> GameResult | None:
        """The game's final totals and winners once it is over, else None."""
        return self._game.result


class Seat(_Window):
    """One seat of one game, as its person reaches it (see the module's docstring)."""

    __slots__ = ("seat",)

    def __init__(self, game: Game, seat: int):
        if not 0 <= seat < game.players:
            raise ValueError(f"no seat {seat} at a table of {game.players}")
        super().__init__(game)
        self.seat = seat

    def view(self) -> SeatView:
        """What this seat may see now."""
        return self._game.view(self.seat)

    @property
    def acts_now(self) -> bool:
        """Whether this seat is to answer now."""
        game = self._game
        return not game.over and game.to_act == self.seat

    def question(self) -> Question | None:
        """What this seat is asked now, or None when it is not its turn."""
        if not self.acts_now:
            return None
        game = self._game
        specials = game.rules.specials
        if game.phase == Phase.BIDDING:
            return Question("bid", None, tuple(game.legal_bids()), forbidden=tuple(game.forbidden_bids()))
        if game.phase == Phase.DECISION:
            return Question("decision", game.decision, tuple(game.decision_options()))
        if not game.can_see_own_hand(self.seat):
            return Question("card", None, (), unseen=True)
        from .game import by_suit

        return Question("card", None, tuple(card_text(c, specials) for c in by_suit(game.legal_cards())))

    def answer(self, answer: Mapping[str, Any]) -> dict[str, Any]:
        """Give this seat's answer (see the module's docstring) to the engine, and return it as a
        record keeps it. Raises NotYourTurn, or IllegalAction with the engine's reason (an answer
        of the wrong shape is `not_an_answer`); the game is then unchanged."""
        if not self.acts_now:
            raise NotYourTurn("the game is over" if self._game.over else "it is not your turn")
        game = self._game
        key = _KEY_OF_PHASE[game.phase]
        if not isinstance(answer, Mapping) or set(answer) != {key}:  # type: ignore[redundant-expr]  # the answer comes from outside (JSON, a person): checked, whatever its annotation
            raise IllegalAction(f"answer with {{{key!r}: ...}}: it is time to {_ASKING[key]}", "not_an_answer")
        value = answer[key]
        if key == "bid":
            if type(value) not in (int, str):
                raise IllegalAction("a bid is a whole number or a named call", "not_an_answer")
            game.bid(value)
        elif key == "decision":
            if type(value) is not str:
                raise IllegalAction("a decision is one of its options' words", "not_an_answer")
            game.decide(value)
        elif value is None:
            if game.can_see_own_hand(self.seat):
                raise IllegalAction("name the card to play", "not_an_answer")
            game.play(None)
        else:
            if type(value) is not str:
                raise IllegalAction("a card is written as its text, e.g. QH", "not_an_answer")
            try:
                card = parse_card(value, game.rules.specials)
            except CardSyntaxError as e:
                raise IllegalAction(str(e), "not_a_card") from None
            game.play(card)
        return {"seat": self.seat, key: value}

    def answer_of(self, action: Action) -> dict[str, Any]:
        """A computer player's action (a bid, a card as the engine's number or None, a decision's
        word) for this seat now, as an answer `answer` takes."""
        key = _KEY_OF_PHASE[self._game.phase]
        if key == "card" and action is not None:
            return {"card": card_text(action, self._game.rules.specials)}  # type: ignore[arg-type]  # in the play an action is a card or None
        return {key: action}


_ASKING = {"bid": "bid", "card": "play a card", "decision": "decide"}


class Spectator(_Window):
    """A spectator of one game: the view of no seat (`spectator_view`), and nothing to answer."""

    __slots__ = ()
    seat = None

    def view(self) -> SeatView:
        """What a spectator may see now."""
        return spectator_view(self._game)


def spectator_view(game: Game) -> SeatView:
    """What a spectator may see: the view of no seat. Every seat's cards are hidden (the
    foreheads too), and bids made together are hidden until all have bid; the rest is what
    every seat sees (trump, the turned card, the bids shown, the tricks, the totals)."""
    view = game.view(game.to_act if game.to_act is not None else 0)
    return replace(
        view,
        hand=None,
        others={},
        legal=None,
        bids=() if view.bids_hidden else view.bids,
        calls=tuple("" for _ in view.calls) if view.bids_hidden else view.calls,
    )
