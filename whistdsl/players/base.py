"""Players: the seats' decision makers. Computer players see only their seat's `SeatView`.

A player answers `act(view, legal, rng)` with a bid (a number or a named call), a card, or the
choice of a decision (a trump's name, `blind` or `look`). Randomness comes from the game's one
generator (`rng`), so a game is reproducible from its seed. A player that needs no
information at all (`random`) says so with `observes = False` and is given no view.
"""

from __future__ import annotations

import random
from typing import Callable, Protocol

from ..engine.game import Action, Game, SeatView, uniform_chooser


class Player(Protocol):
    kind: str
    observes: bool

    def act(self, view: SeatView | None, legal: list[int] | None, rng: random.Random) -> Action: ...


class RandomPlayer:
    """A uniformly random legal action: the baseline."""

    kind = "random"
    observes = False

    def act(self, view: SeatView | None, legal: list[int] | None, rng: random.Random) -> Action:
        if not legal:
            return None  # a card this seat cannot see
        return legal[int(rng.random() * len(legal))]

    def chooser(self, rng: random.Random) -> Callable[[list[int]], int]:
        """The same choice as `act`, as one cheap call (for simulating many games)."""
        return uniform_chooser(rng)


#: Computer players by name, for `--bots`. Other modules add stronger ones.
BOTS: dict[str, Callable[[], Player]] = {"random": RandomPlayer}


def decide(game: Game, player: Player) -> Action:
    """Ask `player` for the action of the seat to act, giving it only what that seat may see."""
    seat = game.to_act
    assert seat is not None
    if not player.observes:
        if game.phase == "bidding":
            return player.act(None, game.legal_bids(), game.rng)
        if game.phase == "decision":
            return player.act(None, game.decision_options(), game.rng)  # type: ignore[arg-type]
        legal = game.legal_cards() if game.can_see_own_hand(seat) else None
        return player.act(None, legal, game.rng)
    view = game.view(seat)
    return player.act(view, list(view.legal) if view.legal is not None else None, game.rng)


def play_out(game: Game, players: list[Player]) -> None:
    """Play `game` to the end with one computer player per seat."""
    rng = game.rng
    unobserved = all(not p.observes for p in players)
    every_seat_random = all(type(p) is RandomPlayer for p in players)  # the engine draws for them in place
    choose = [
        p.chooser(rng) if hasattr(p, "chooser") else (lambda legal, act=p.act: act(None, legal, rng))  # type: ignore[misc]
        for p in players
    ]
    while not game.over:
        if not unobserved:
            game.act(decide(game, players[game.to_act]))  # type: ignore[index]
        elif game.kind.view != "forehead":
            game.play_hand_unobserved(None if every_seat_random else choose)
        elif game.phase in ("bidding", "decision"):
            game.bid_unobserved(choose)
        else:
            game.act(decide(game, players[game.to_act]))  # type: ignore[index]


def _register_bots() -> None:
    from .heuristic import HeuristicPlayer
    from .mc import MonteCarloPlayer

    BOTS.update(heuristic=HeuristicPlayer, mc=MonteCarloPlayer)


_register_bots()
