"""What every test file shares: the parallel runner's options when the runner is not there.

pyproject.toml runs the suite on every core (`-n auto --dist loadgroup`, with pytest-xdist from
the test extra). Without pytest-xdist, or with `-p no:xdist` to debug in one process, those
options are still accepted and do nothing, and the `xdist_group` mark is known: the suite runs
serially, as with `-n 0`.
"""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    if pluginmanager.has_plugin("xdist"):
        return
    group = parser.getgroup("xdist", "parallel runs (pytest-xdist is not installed or is disabled: one process)")
    # _addoption: pytest keeps lowercase short options for plugins; this stands in for one (xdist itself registers -n so)
    group._addoption("-n", "--numprocesses", dest="numprocesses", metavar="N", help="ignored without pytest-xdist")
    group.addoption("--dist", dest="dist", default="no", metavar="MODE", help="ignored without pytest-xdist")


def pytest_configure(config: pytest.Config) -> None:
    if not config.pluginmanager.has_plugin("xdist"):
        config.addinivalue_line("markers", "xdist_group(name): tests that pytest-xdist runs in one worker (here: all run in one process)")
