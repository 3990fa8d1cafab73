"""The suite's own bookkeeping: every test that tests/conftest.py marks slow exists (a renamed test
would otherwise fall out of the list silently and run on every plain `pytest`)."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import SLOW

ROOT = Path(__file__).resolve().parent.parent


def test_every_test_marked_slow_exists():
    missing = []
    for nodeid in sorted(SLOW):
        path, name = nodeid.split("::")
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        names = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        if name not in names:
            missing.append(nodeid)
    assert missing == []
