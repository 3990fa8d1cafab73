"""`simulate --scheduler ADDRESS`: play a simulation's chunks on the workers of a running Dask
cluster (the `cluster` extra: `pip install 'whistdsl[cluster]'`) and merge their tallies here.

Only this module imports `distributed`, and only when a scheduler is given. A worker does not read
the ruleset's file (it may be on another machine): it gets the merged ruleset as data, once per
worker, and compiles it as a record's copy is compiled, with the parameters the parent played.
Game g is seeded from (seed, g) alone, so the cluster's numbers are a local run's numbers.

`local_cluster` starts a cluster on this machine that listens on the loopback interface only,
for trying `--scheduler` without a cluster at hand (the tests and benchmarks/bench_cluster.py
start theirs so).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..rules.ruleset import Ruleset
from .games import CHUNKS_PER_WORKER, Simulation, SimulationError, chunks, in_flight, play_games
from .tally import Tally

#: How long to wait for the scheduler to answer before giving up.
CONNECT_SECONDS = 15
#: Where a cluster started here listens: this machine only.
LOOPBACK = "127.0.0.1"


class ClusterMissing(RuntimeError):
    """`distributed` is not installed (the `cluster` extra)."""


@dataclass(frozen=True)
class ClusterJob:
    """What a worker needs to play any chunk of a simulation: the merged ruleset as data, the
    parameters as played, its digest (to check the worker compiled the same rules) and the
    whistdsl version of the machine that sent it (the engine must be the same to give the same games)."""

    simulation: Simulation
    source: dict[str, Any]
    parameters: dict[str, Any]
    sha256: str
    version: str


#: Per worker process: the rules compiled for each job it has seen, by the job's digest.
_COMPILED: dict[tuple[str, str, str], Ruleset] = {}


def _rules_for(job: ClusterJob) -> Ruleset:
    from ..rules.lint import RulesetError, rules_from_data
    from ..version import __version__

    key = (job.sha256, repr(sorted(job.parameters.items())), job.version)
    rules = _COMPILED.get(key)
    if rules is not None:
        return rules
    if job.version != __version__:
        raise SimulationError(f"a worker has whistdsl {__version__}, the client {job.version}: install the same version on every worker")
    try:
        rules = rules_from_data(job.source, "<ruleset sent to the worker>")
        rules = rules.with_parameters(job.parameters) if job.parameters else rules
    except (RulesetError, ValueError) as e:
        raise SimulationError(f"a worker could not compile the ruleset: {e}") from None
    if rules.sha256 != job.sha256:
        raise SimulationError("a worker compiled other rules than the client's (a different whistdsl?)")
    _COMPILED[key] = rules
    return rules


def play_chunk_on_worker(job: ClusterJob, start: int, stop: int) -> Tally:
    """On a cluster worker: play games start..stop-1 of the job's simulation and tally them."""
    return play_games(job.simulation, _rules_for(job), start, stop)


def local_cluster(workers: int, threads: int = 1, processes: bool = True) -> Any:
    """A Dask cluster on this machine (a `distributed.LocalCluster` of `workers` workers of
    `threads` threads, each its own process or not) whose every listener is on the loopback
    interface, on a free port: the scheduler and the workers (tcp://127.0.0.1), the scheduler's
    HTTP server (its dashboard) and the workers'. distributed's own defaults put the dashboard on
    every interface (0.0.0.0), with threads for workers the workers' HTTP servers too, and
    without a dashboard still serve HTTP, on port 8787. Its `scheduler_address` is what
    `--scheduler` takes. Raises ClusterMissing without the extra."""
    try:
        from distributed import LocalCluster
    except ImportError:
        raise ClusterMissing("a local cluster needs Dask distributed: pip install 'whistdsl[cluster]'") from None
    return LocalCluster(
        n_workers=workers,
        threads_per_worker=threads,
        processes=processes,
        protocol="tcp://",
        host=LOOPBACK,
        dashboard_address=f"{LOOPBACK}:0",  # tcp: threads would talk inproc, with HTTP on 0.0.0.0
    )


def _client(address: str) -> Any:
    try:
        from distributed import Client
    except ImportError:
        raise ClusterMissing("--scheduler needs Dask distributed: pip install 'whistdsl[cluster]'") from None
    try:
        return Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as e:  # refused, timed out, or not an address
        raise SimulationError(f"cannot reach the Dask scheduler at {address}: {type(e).__name__}: {e}") from None


def play_on_cluster(address: str, simulation: Simulation, rules: Ruleset, total: Tally, progress: Callable[[int], None] | None) -> int:
    """Play `simulation` on the cluster whose scheduler is at `address`, merging each chunk's tally
    into `total` as it comes back (CHUNKS_PER_WORKER per worker thread in flight at most).
    Returns the number of worker threads that played. Raises ClusterMissing without the extra,
    SimulationError when the scheduler cannot be reached or a game fails."""
    from ..version import __version__

    client = _client(address)
    with client, client.as_current():  # `wait` finds this client, and no other code sees it as the default
        from distributed import wait

        threads = sum(client.nthreads().values())
        if threads == 0:
            raise SimulationError(f"the Dask cluster at {address} has no workers")
        job = ClusterJob(simulation, rules.source, dict(rules.parameter_values), rules.sha256, __version__)
        shared = client.scatter(job, broadcast=True, hash=False)  # sent once to each worker, not with every chunk
        try:
            for future in in_flight(
                chunks(simulation.games, threads),
                lambda chunk: client.submit(play_chunk_on_worker, shared, *chunk, pure=False),
                lambda pending: wait(pending, return_when="FIRST_COMPLETED").done,
                threads * CHUNKS_PER_WORKER,
            ):
                tally = future.result()
                total.merge(tally)
                if progress:
                    progress(tally.games)
        except SimulationError:
            raise
        except Exception as e:  # a worker that died, a lost connection
            raise SimulationError(f"the Dask cluster at {address} failed: {type(e).__name__}: {e}") from None
    return threads  # type: ignore[no-any-return]  # Dask's result: the count of threads, an int
