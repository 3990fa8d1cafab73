"""Players: the seats' decision makers. Computer players see only their seat's `SeatView`.

A player answers `act(view, legal, rng)` with a bid (a number or a named call), a card, or the
choice of a decision (a trump's name, `blind` or `look`). Randomness comes from the game's one
generator (`rng`), so a game is reproducible from its seed. A player that needs no
information at all (`random`) says so with `observes = False` and is given no view.

`play_out` plays whole games fast: inside the engine's own loop (`Game.play_hand_unobserved`)
when every player answers with one cheap call given the legal actions: `chooser(rng)` for a
player that sees nothing, `seat_chooser(window, rng)` for one that reads its seat's
`SeatWindow` (its view when it asks, and the few public facts of the trick in play).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from ..engine.game import PLAY, Action, Game, SeatView, uniform_chooser
from ..engine.tricks import TrickPlay


class Player(Protocol):
    kind: str
    observes: bool

    def act(self, view: SeatView | None, legal: list[int] | None, rng: random.Random) -> Action: ...


class RandomPlayer:
    """A uniformly random legal action: the baseline."""

    kind = "random"
    observes = False
    quick = True  # answers at once (see `quick`)

    def act(self, view: SeatView | None, legal: list[int] | None, rng: random.Random) -> Action:
        if not legal:
            return None  # a card this seat cannot see
        return legal[int(rng.random() * len(legal))]

    def chooser(self, rng: random.Random) -> Callable[[list[int]], int]:
        """The same choice as `act`, as one cheap call (for simulating many games)."""
        return uniform_chooser(rng)


def quick(player: Player) -> bool:
    """Whether `player` answers at once: a few rules applied to its view, no sampling and no
    search (a fraction of a millisecond, a few at most), so a server may ask it on its event loop
    rather than send it to a thread."""
    return bool(getattr(player, "quick", False))


def decide(game: Game, player: Player) -> Action:
    """Ask `player` for the action of the seat to act, giving it only what that seat may see."""
    seat = game.to_act
    assert seat is not None
    if not player.observes:
        if game.phase == "bidding":
            return player.act(None, game.legal_bids(), game.rng)  # type: ignore[arg-type]  # the legal bids: numbers, and calls' names, which a player answers back
        if game.phase == "decision":
            return player.act(None, game.decision_options(), game.rng)  # type: ignore[arg-type]  # a decision's options are names; the legal actions are declared cards and bids
        legal = game.legal_cards() if game.can_see_own_hand(seat) else None
        return player.act(None, legal, game.rng)
    view = game.view(seat)
    return player.act(view, list(view.legal) if view.legal is not None else None, game.rng)


class SeatWindow:
    """What one seat may read of a game being played out, when it asks: its view (`view()`, the
    one `decide` gives), and in the play the few public facts of the trick that a card choice
    reads (`trick_facts()`), so a player need not build a whole view for every card."""

    __slots__ = ("_game", "seat")

    def __init__(self, game: Game, seat: int):
        self._game = game
        self.seat = seat

    @property
    def tricks_play(self) -> TrickPlay:
        """The trick rules of the hand under way (one per ruleset, unless a turned card names super trumps)."""
        return self._game.tricks_play

    def view(self) -> SeatView:
        return self._game.view(self.seat)

    def trick_facts(self) -> tuple[list[tuple[int, int]], int, int, int] | None:
        """In the play: (the trick so far as (seat, card) in playing order (read it, do not
        change it), the trump, this seat's bid less the tricks it has taken, how many seats
        play this hand); None before the play."""
        game = self._game
        if game.phase != PLAY:
            return None
        seat = self.seat
        return game.trick, game.trump, game.bids[seat] - game.taken[seat], game.players - len(game.sitting_out)  # type: ignore[operator]  # a seat's bid is made (not None) once the play or the scoring comes


def play_out(game: Game, players: list[Player]) -> None:
    """Play `game` to the end with one computer player per seat."""
    rng = game.rng
    unobserved = all(not p.observes for p in players)
    every_seat_random = all(type(p) is RandomPlayer for p in players)  # the engine draws for them in place
    choose = [_chooser(p, game, seat, rng) for seat, p in enumerate(players)]
    fast = all(c is not None for c in choose)
    while not game.over:
        if not fast or (game.hand_kind.view == "forehead" and not unobserved):  # the cards on the foreheads: the whole view
            game.act(decide(game, players[game.seat_to_act]))
        elif game.hand_kind.view != "forehead":
            if not unobserved:  # players reading their views bid in the interpreter, whose position a view shows
                game.bid_unobserved(choose)  # type: ignore[arg-type]  # a chooser is given the legal actions of its turn: bids, options or cards
            if every_seat_random:
                game.play_hands_random()
            else:
                game.play_hand_unobserved(choose)  # type: ignore[arg-type]  # a chooser is given the legal actions of its turn: bids, options or cards
        elif game.phase in ("bidding", "decision"):
            game.bid_unobserved(choose)  # type: ignore[arg-type]  # a chooser is given the legal actions of its turn: bids, options or cards
        else:
            game.act(decide(game, players[game.seat_to_act]))


def _chooser(player: Player, game: Game, seat: int, rng: random.Random) -> Callable[[list], Action] | None:
    """`player`'s choices as one call given the legal actions, when it has one."""
    if not player.observes:
        if hasattr(player, "chooser"):
            return player.chooser(rng)  # type: ignore[no-any-return]  # a player's own chooser (duck-typed: hasattr above)
        return lambda legal, act=player.act: act(None, legal, rng)  # type: ignore[misc]  # the player's act bound as a default: the lambda is the declared chooser
    if hasattr(player, "seat_chooser"):
        return player.seat_chooser(SeatWindow(game, seat), rng)  # type: ignore[no-any-return]  # a player's own chooser (duck-typed: hasattr above)
    return None
