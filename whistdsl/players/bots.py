"""The computer players by name (`BOTS`), for `--bots`, the web table's seats and `simulate`.

Each kind is defined in a module of its own (base.py `random`, heuristic.py, mc.py, search.py)
and named only here, so that the players' common ground (base.py) imports none of them.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Player, RandomPlayer
from .heuristic import HeuristicPlayer
from .mc import MonteCarloPlayer
from .search import SearchPlayer

#: Computer players by name, weakest first.
BOTS: dict[str, Callable[[], Player]] = {
    "random": RandomPlayer,
    "heuristic": HeuristicPlayer,
    "mc": MonteCarloPlayer,
    "search": SearchPlayer,
}

#: The computer player that `play` and `simulate` seat when no `--bots` is given.
DEFAULT_BOT = "heuristic"


def make_bot(kind: str, think: float | None = None, units: tuple[int, ...] | None = None) -> Player:
    """A computer player of `kind` (a name in `BOTS`). The players that search (`search`) take
    `units`, their work a decision of each kind (see players/search.py `work_units`), or
    `think`, seconds a decision turned into work on this machine; the others answer at once."""
    factory = BOTS[kind]
    if getattr(factory, "thinks", False) and (units is not None or think is not None):
        return factory(think=think, units=units)  # type: ignore[call-arg]  # a factory that `thinks` is a searching player, which takes think and units
    return factory()


def thinks(kind: str) -> bool:
    """Whether players of `kind` take thinking time (`make_bot`'s `think` and `units`)."""
    return bool(getattr(BOTS.get(kind), "thinks", False))
