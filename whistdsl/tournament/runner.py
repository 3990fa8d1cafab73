"""Tournaments of computer players: play a simulation's games (games.py) in this process, in
worker processes, or on a Dask cluster (cluster.py), merging each chunk's `Tally` (tally.py)
into the running total as it comes back, so memory stays flat however many games are played.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..rules.lint import load_rules
from ..rules.ruleset import Ruleset
from .games import CHUNKS_PER_WORKER, Chunk, Simulation, SimulationError, chunk_size, chunks, in_flight, play_games
from .tally import Tally


@dataclass
class _WorkerState:
    """One process's means of playing games of a simulation: the compiled rules and the bots."""

    simulation: Simulation
    rules: Ruleset


_WORKER: _WorkerState | None = None
_WORKER_FAILED = ""  # why this worker has no rules, if it could not load them


def _start_worker(simulation: Simulation) -> None:
    """A worker's set-up: a forked worker has the parent's compiled rules already; a spawned one
    compiles them again (a failure there is reported by the first chunk, not as a traceback).
    A worker ignores Ctrl-C: the terminal sends it to every process of the group, and the parent
    alone answers it (it stops the workers and reports the games played so far), so no worker
    prints a traceback of its own."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    global _WORKER, _WORKER_FAILED
    if _WORKER is not None and _WORKER.simulation == simulation:
        return
    try:
        _WORKER = _WorkerState(simulation, load_rules(simulation.ruleset, simulation.root, simulation.settings))  # type: ignore[arg-type]  # load_rules takes the root as a path or a str
    except Exception as e:  # the file changed or went away since the parent read it
        _WORKER = None
        _WORKER_FAILED = f"a worker could not load {simulation.ruleset}: {type(e).__name__}: {e}"


def _play_chunk_in_worker(chunk: Chunk) -> Tally:
    if _WORKER is None:
        raise SimulationError(_WORKER_FAILED or "a worker has no ruleset")
    return play_games(_WORKER.simulation, _WORKER.rules, *chunk)


def available_cores() -> int:
    return os.cpu_count() or 1


@dataclass
class Summary:
    """A finished simulation: what was played, its tally, and how long it took."""

    simulation: Simulation
    rules_name: str
    tally: Tally
    seconds: float
    workers: int
    parameters: dict[str, Any] = field(default_factory=dict)  # the ruleset's parameters as played

    #: True when the simulation was stopped (Ctrl-C) before every game was played.
    partial: bool = False

    @property
    def games_per_second(self) -> float:
        return self.tally.games / self.seconds if self.seconds > 0 else float("inf")

    def speed(self) -> str:
        """`561 games/s`, `2.4 games/s`, or for slow players `14.2 s a game`: never a rounded 0."""
        rate = self.games_per_second
        if rate == float("inf"):
            return "no time measured"
        if rate >= 100:
            return f"{rate:.0f} games/s"
        if rate >= 1:
            return f"{rate:.1f} games/s"
        return f"{self.seconds / self.tally.games:.1f} s a game" if self.tally.games else "no game finished"


def _play_in_processes(
    simulation: Simulation, rules: Ruleset, work: Iterator[Chunk], workers: int, total: Tally, progress: Callable[[int], None] | None
) -> None:
    """Play `work` in `workers` processes and merge each chunk's tally into `total` as it comes
    back, with CHUNKS_PER_WORKER chunks per worker in flight at most."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    global _WORKER
    _WORKER = _WorkerState(simulation, rules)  # inherited by forked workers
    context = multiprocessing.get_context()
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker, initargs=(simulation,)) as pool:
        try:
            for future in in_flight(
                work,
                lambda chunk: pool.submit(_play_chunk_in_worker, chunk),
                lambda pending: wait(pending, return_when=FIRST_COMPLETED).done,
                workers * CHUNKS_PER_WORKER,
            ):
                tally = future.result()
                total.merge(tally)
                if progress:
                    progress(tally.games)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)  # a failed game or ^C: play no more chunks
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.terminate()  # a chunk being played is given up, not waited for
            raise


def simulate(
    simulation: Simulation,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    rules: Ruleset | None = None,
    scheduler: str | None = None,
) -> Summary:
    """Play the simulation's games in `workers` processes (default: every core; 1 plays here, in
    this process), or on the workers of the Dask cluster whose scheduler is at `scheduler`
    (cluster.py), calling `progress(games just finished)` as chunks come back.

    Ctrl-C (KeyboardInterrupt) stops the games: the summary of the games finished so far is
    returned, marked `partial`."""
    if rules is None:
        rules = load_rules(simulation.ruleset, simulation.root, simulation.settings)  # type: ignore[arg-type]  # load_rules takes the root as a path or a str
    total = Tally()
    began = time.perf_counter()
    partial = False
    used = workers or 1
    try:
        if scheduler is not None:
            from .cluster import play_on_cluster

            used = play_on_cluster(scheduler, simulation, rules, total, progress)
        else:
            used = workers or available_cores()
            work = chunks(simulation.games, used)
            used = max(1, min(used, math.ceil(simulation.games / chunk_size(simulation.games, used))))  # one per chunk at most
            if used == 1:
                for start, stop in work:
                    before = total.games
                    play_games(simulation, rules, start, stop, total)
                    if progress:
                        progress(total.games - before)
            else:
                _play_in_processes(simulation, rules, work, used, total, progress)
    except KeyboardInterrupt:
        partial = True
    seconds = time.perf_counter() - began
    return Summary(simulation, rules.name, total, seconds, used, dict(rules.parameter_values), partial)
