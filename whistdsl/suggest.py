"""The commands whistdsl suggests (`continue with: whistdsl play --resume`), written so that the
person can run them as they are, from where they are.

`command("play", "--resume")` starts with how this whistdsl was started: `whistdsl` when that is
what the shell finds on PATH; else the path the person ran (`.venv/bin/whistdsl`, as after the
Quick start, with nothing activated), or `python -m whistdsl` with the Python that ran it. Words
are quoted for a POSIX shell where they need it (a path with a space). Where whistdsl was not
started from the command line (imported, under a test runner), it is `whistdsl`.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

NAME = "whistdsl"
#: Between the words of a command said in text that is wrapped at words (`unbroken`): a command
#: cut across two lines does not run as pasted. Once wrapped, it is a space again.
NO_BREAK = "\u00a0"


def command(*words: str) -> str:
    """`whistdsl play --resume`, or `.venv/bin/whistdsl play --resume` ...: see the module."""
    return shlex.join([*program(), *words])


def unbroken(text: str) -> str:
    """`text` (a command) as one word for `textwrap`: its spaces are NO_BREAK."""
    return text.replace(" ", NO_BREAK)


def program() -> list[str]:
    """The words that run this whistdsl, as the person can type them."""
    started = sys.argv[0] if sys.argv else ""
    if Path(started).stem == NAME:  # the console script
        on_path = shutil.which(NAME)
        if on_path is not None and _same_file(on_path, started):
            return [NAME]
        if os.sep in started or (os.altsep is not None and os.altsep in started):
            return [started]
        return [NAME]
    typed = list(getattr(sys, "orig_argv", ()))
    as_module = Path(started).name == "__main__.py" and Path(started).parent.name == NAME
    if as_module or any(a == "-m" and b == NAME for a, b in zip(typed, typed[1:])):
        return [_this_python(typed[0] if typed else ""), "-m", NAME]
    return [NAME]


def _this_python(typed: str) -> str:
    """The Python as the person typed it (`python3`, `.venv/bin/python`) when that is this very
    Python, else its whole path (a venv's Python and the one it links to are not the same)."""
    here = os.path.abspath(sys.executable)
    if typed:
        found = typed if os.sep in typed or (os.altsep is not None and os.altsep in typed) else shutil.which(typed)
        if found is not None and os.path.abspath(found) == here:
            return typed
    return sys.executable


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
