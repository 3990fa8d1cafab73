"""What every test shares: whistdsl's per-user cache (whistdsl/cache.py) lives in a temporary
folder for the whole run, never in the home folder, so tests neither read a stale entry nor
leave any behind. The commands that tests run as processes inherit it."""

from __future__ import annotations

import os
import shutil
import tempfile

_CACHE = tempfile.mkdtemp(prefix="whistdsl-test-cache-")
os.environ["WHISTDSL_CACHE_DIR"] = _CACHE
os.environ.pop("WHISTDSL_NO_CACHE", None)


def pytest_unconfigure(config: object) -> None:
    shutil.rmtree(_CACHE, ignore_errors=True)
