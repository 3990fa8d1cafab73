"""The command line (`whistdsl lint|play|simulate|replay|score|...`): thin commands over the
rest of whistdsl. `main` is the console script.

`main` answers `whistdsl --version` at once, and `whistdsl --help` from the cache when a run
before has already rendered it for this whistdsl, this terminal width and this way of starting
(see whistdsl/cache.py): those two never wait for typer and the commands to be imported. Every
other command line goes to `commands.main`. `app` (the typer app) is imported when first used.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from .. import __version__

if TYPE_CHECKING:
    from .commands import app

__all__ = ["app", "main"]

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

    started = getattr(sys, "orig_argv", sys.argv)[:-1]
    return entry_key("help", "\0".join(started), str(_terminal_columns()))


def _terminal_columns() -> int:
    """The width click formats help for: as `shutil.get_terminal_size` finds it (COLUMNS, the
    terminal of standard output, else 80), without importing shutil."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def main() -> None:
    """Entry point of the `whistdsl` script and `python -m whistdsl`."""
    args = sys.argv[1:]
    if len(args) == 1 and args[0] in VERSION_OPTIONS:
        _say(version_line() + "\n")
        return
    if len(args) == 1 and args[0] in HELP_OPTIONS:
        from ..cache import read

        text = read("help", help_key())
        if isinstance(text, str):
            _say(text)
            return
    from .commands import main as run

    run()


def _say(text: str) -> None:
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # `| head` has gone: end quietly, as the commands do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)


def __getattr__(name: str) -> object:
    if name == "app":
        from .commands import app

        return app
    raise AttributeError(f"module 'whistdsl.cli' has no attribute {name!r}")
