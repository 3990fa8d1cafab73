"""The README's Python API example runs as written."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_python_api_example_in_the_readme_runs():
    text = README.read_text(encoding="utf-8")
    section = text.split("## Python API", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, "README.md (Python API)", "exec"), namespace)
    game = namespace["game"]
    assert game.over and game.result is not None and len(game.history) == 24
