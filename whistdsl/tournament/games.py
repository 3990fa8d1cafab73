"""The games of a tournament: what to play (`Simulation`), games start..stop-1 played and
tallied (`play_games`), the games cut into chunks (`chunks`) and handed out a few at a time
(`in_flight`), the same for worker processes (runner.py) and for a Dask cluster (cluster.py).

Game g is seeded from (seed, g) alone and seats the bots rotated by g, so the numbers do not
depend on how the games were split between workers, nor on the order in which chunks come back.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from ..engine.game import Game, RuleError
from ..players.base import play_out
from ..players.bots import make_bot
from ..rules.ruleset import Ruleset
from .tally import Tally

#: A chunk of games is at most this long, so a progress bar moves and results stream back.
MAX_CHUNK = 250
#: At most this many chunks per worker are handed out and not yet merged: one to play, one
#: waiting beside it so the worker never idles while its last result travels back.
CHUNKS_PER_WORKER = 2

#: Games start..stop-1 of a simulation, played and tallied together.
Chunk = tuple[int, int]
F = TypeVar("F")  # a handle on a chunk being played (a concurrent.futures or a Dask future)


class SimulationError(RuntimeError):
    """A game of the simulation failed (a bot's illegal action, a formula that cannot be evaluated)."""


@dataclass(frozen=True)
class Simulation:
    """What to play: `games` games of the ruleset at `ruleset` (a path or bundled name) with
    `players` seats; `bots` names one bot kind per seat for game 0, and game g rotates it by g."""

    ruleset: str
    players: int
    bots: tuple[str, ...]
    seed: int
    games: int
    root: str | None = None  # the folder its `extends:` may lead into (`--root`, else its default root as found here)
    settings: tuple[str, ...] = ()  # the `--set NAME=VALUE` options: the ruleset's parameters
    #: the work a decision of each kind (players/search.py KINDS) of the players that search
    #: (`--think` seconds turned into work once, here, so every worker's players do the same)
    work: tuple[int, ...] | None = None

    def seat_bots(self, game: int) -> tuple[str, ...]:
        """The bot kind at each seat in game `game`: the bot list rotated by game % players."""
        shift = game % self.players
        return self.bots[shift:] + self.bots[:shift]

    def game_seed(self, game: int) -> int:
        """Game `game`'s seed: a function of (seed, game) only."""
        digest = hashlib.blake2b(f"{self.seed}/{game}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big")


def play_games(simulation: Simulation, rules: Ruleset, start: int, stop: int, tally: Tally | None = None) -> Tally:
    """Play games start..stop-1 of `simulation` and tally them (into `tally` when given: each
    game is added as it ends, so an interruption loses only the game being played)."""
    tally = Tally() if tally is None else tally
    for g in range(start, stop):
        seat_bots = simulation.seat_bots(g)
        seed = simulation.game_seed(g)
        try:
            game = Game(rules, simulation.players, seed=seed)
            game.keep_rng_states = False  # no game is resumed here: skip saving the generator per hand
            play_out(game, [make_bot(bot, units=simulation.work) for bot in seat_bots])
        except RuleError as e:
            raise SimulationError(f"game {g} (seed {seed}, bots {','.join(seat_bots)}) stopped: {e}") from None
        except Exception as e:
            raise SimulationError(f"game {g} (seed {seed}, bots {','.join(seat_bots)}) failed: {type(e).__name__}: {e}") from e
        tally.add_game(game, seat_bots)
    return tally


def chunk_size(games: int, workers: int) -> int:
    """Games in a chunk: small enough to keep every worker busy and the progress bar moving."""
    return max(1, min(MAX_CHUNK, games // (workers * 16)))


def chunks(games: int, workers: int) -> Iterator[Chunk]:
    """Games 0..games-1 as ranges (start, stop) of chunk_size games, made one at a time."""
    size = chunk_size(games, workers)
    for start in range(0, games, size):
        yield start, min(games, start + size)


def in_flight(work: Iterable[Chunk], submit: Callable[[Chunk], F], first_done: Callable[[set[F]], Iterable[F]], limit: int) -> Iterator[F]:
    """Hand out `work` with `submit(chunk) -> future` and yield each future as `first_done(pending)`
    (some finished ones) returns it; a chunk is made and handed out only when one that came back
    has been taken, so never more than `limit` chunks are made and not yet merged, however many
    games the work holds."""
    if limit < 1:
        raise ValueError("at least one chunk must be in flight")
    work = iter(work)
    pending = {submit(chunk) for chunk in itertools.islice(work, limit)}
    while pending:
        for future in set(first_done(pending)):
            pending.discard(future)
            yield future
            pending.update(submit(chunk) for chunk in itertools.islice(work, 1))  # its place, once it is merged
