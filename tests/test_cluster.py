"""`simulate --scheduler`: the games played on a Dask cluster's workers give the numbers of a local
run with the same seed; without the `cluster` extra the option is a usage error, never a traceback.

The cluster is a `distributed.LocalCluster` in this process (threads; its dashboard on a free port), so the test
needs no network and takes seconds; it is skipped where distributed is not installed.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from whistdsl.cli import app
from whistdsl.cli.simulate import TIMING_KEYS, Simulation, simulate, summary_json

runner = CliRunner()


def simulate_json(*args: str) -> dict:
    result = runner.invoke(app, ["simulate", "--format", "json", *args])
    assert result.exit_code == 0, result.output
    return {k: v for k, v in json.loads(result.stdout).items() if k not in TIMING_KEYS}


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    distributed = pytest.importorskip("distributed", reason="the cluster extra: pip install -e '.[cluster]'")
    # the dashboard on any free port: suites running side by side never clash over 8787
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


def test_a_cluster_plays_the_games_of_a_local_run_with_the_same_seed(scheduler: str) -> None:
    args = ("romanian", "--games", "24", "--seed", "7", "--bots", "random,heuristic,random,heuristic")
    on_cluster = simulate_json(*args, "--scheduler", scheduler)
    here = simulate_json(*args, "--workers", "1")
    assert on_cluster == here and here["games"] == 24


def test_the_cluster_plays_with_the_parameters_set_here(scheduler: str) -> None:
    sim = Simulation("openspiel", 4, ("random",) * 4, seed=3, games=10, settings=("tricks=4",))
    on_cluster = summary_json(simulate(sim, scheduler=scheduler))
    here = summary_json(simulate(sim, workers=1))
    assert on_cluster["parameters"] == here["parameters"] == {"tricks": 4}
    assert {k: v for k, v in on_cluster.items() if k not in TIMING_KEYS} == {k: v for k, v in here.items() if k not in TIMING_KEYS}


def test_without_the_cluster_extra_scheduler_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # what importlib sees when it is not installed
    result = runner.invoke(app, ["simulate", "romanian", "--games", "2", "--scheduler", "tcp://127.0.0.1:8786"])
    assert result.exit_code == 2, result.output
    assert "whistdsl[cluster]" in result.output and "Traceback" not in result.output


def test_scheduler_and_workers_together_are_a_usage_error() -> None:
    pytest.importorskip("distributed")
    result = runner.invoke(app, ["simulate", "romanian", "--games", "2", "--workers", "2", "--scheduler", "tcp://127.0.0.1:8786"])
    assert result.exit_code == 2 and "--workers" in result.output


def test_a_scheduler_that_does_not_answer_exits_1_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    import whistdsl.cli.cluster as cluster

    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
    result = runner.invoke(app, ["simulate", "romanian", "--games", "2", "--scheduler", "tcp://127.0.0.1:9"])
    assert result.exit_code == 1, result.output
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in result.output and "Traceback" not in result.output
