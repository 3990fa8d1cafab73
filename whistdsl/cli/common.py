"""What the command line's start (cli/__init__.py) and its commands share: the options that
ask for the version and the help, the version line, the help's cache name, and how a problem is
said. Kept apart from the package's `__init__`, so that the commands need not import it.
"""

from __future__ import annotations

import sys

from ..version import __version__

VERSION_OPTIONS = ("--version", "-V")
HELP_OPTIONS = ("--help", "-h")


def version_line() -> str:
    """What `whistdsl --version` prints."""
    return f"whistdsl {__version__}"


def help_key() -> str:
    """The cache name of the top-level help as this process would print it: it depends on the
    command line that started whistdsl (the usage line names it: `whistdsl` or `python -m
    whistdsl`) and on the terminal's width (click wraps to it), as well as on whistdsl itself."""
    from ..cache import entry_key
    from .terminal import columns

    started = getattr(sys, "orig_argv", sys.argv)[:-1]
    return entry_key("help", "\0".join(started), str(columns()))


def error_line(message: str) -> str:
    """`whistdsl: message`, as every command says a problem, with whatever came from a file escaped."""
    from ..printable import printable

    return f"whistdsl: {printable(message)}"
