"""What every test file shares: the parallel runner's options when the runner is not there, and
bytecode kept for the processes the tests start, and whistdsl's per-user cache in a temporary
folder.

pyproject.toml runs the suite on every core (`-n auto --dist loadgroup`, with pytest-xdist from
the test extra). Without pytest-xdist, or with `-p no:xdist` to debug in one process, those
options are still accepted and do nothing, and the `xdist_group` mark is known: the suite runs
serially, as with `-n 0`.

With PYTHONDONTWRITEBYTECODE set, each of the few hundred `python -m whistdsl` processes the tests
start would compile whistdsl from source again, and each worker would rewrite every test
module's asserts again (a third of a second a process, seconds a worker). The suite keeps that
bytecode instead, outside the source tree (PYTHONPYCACHEPREFIX, a folder in the temporary
directory), so the tree stays as clean as the variable asks.

whistdsl's per-user cache (whistdsl/cache.py) lives in a temporary folder for the whole run, never
in the home folder, so tests neither read a stale entry nor leave any behind; the commands tests
run as processes inherit it. The kept games of `whistdsl play` (whistdsl/records/kept.py) go to a
temporary folder too, a new one for every test.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

_CACHE = tempfile.mkdtemp(prefix="whistdsl-test-cache-")
os.environ["WHISTDSL_CACHE_DIR"] = _CACHE
os.environ.pop("WHISTDSL_NO_CACHE", None)
#: The kept games (whistdsl/records/kept.py) too: never in the home folder (and each test has its own).
_DATA = tempfile.mkdtemp(prefix="whistdsl-test-data-")
os.environ["WHISTDSL_DATA_DIR"] = _DATA


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    if pluginmanager.has_plugin("xdist"):
        return
    group = parser.getgroup("xdist", "parallel runs (pytest-xdist is not installed or is disabled: one process)")
    # _addoption: pytest keeps lowercase short options for plugins; this stands in for one (xdist itself registers -n so)
    group._addoption("-n", "--numprocesses", dest="numprocesses", metavar="N", help="ignored without pytest-xdist")
    group.addoption("--dist", dest="dist", default="no", metavar="MODE", help="ignored without pytest-xdist")


def _keep_bytecode_outside_the_tree() -> None:
    if not os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return
    prefix = os.environ.get("PYTHONPYCACHEPREFIX") or str(Path(tempfile.gettempdir()) / f"whistdsl-tests-pycache-{os.getuid()}")
    del os.environ["PYTHONDONTWRITEBYTECODE"]  # for the workers and every process a test starts
    os.environ["PYTHONPYCACHEPREFIX"] = prefix
    sys.dont_write_bytecode, sys.pycache_prefix = False, prefix  # and for this process


def pytest_configure(config: pytest.Config) -> None:
    _keep_bytecode_outside_the_tree()
    if not config.pluginmanager.has_plugin("xdist"):
        config.addinivalue_line("markers", "xdist_group(name): tests that pytest-xdist runs in one worker (here: all run in one process)")


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_CACHE, ignore_errors=True)
    shutil.rmtree(_DATA, ignore_errors=True)


@pytest.fixture(autouse=True)
def _own_kept_games_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test keeps its games (`whistdsl play` with a person) in a folder of its own."""
    monkeypatch.setenv("WHISTDSL_DATA_DIR", str(tmp_path_factory.mktemp("data")))
