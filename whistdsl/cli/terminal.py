"""The terminal the commands write to: how wide it is, and a pager for a text longer than it.

`columns` is the one answer to how wide the terminal is. It is what `shutil.get_terminal_size`
answers, and so the width click wraps the help at (the cache keeps the help by it, see
whistdsl/cli/__init__.py): COLUMNS when set, else the width of standard output's terminal, else
80. It reads them itself rather than importing shutil, which brings bz2 and lzma along: more
than `whistdsl --help` from the cache imports in all. rich's consoles (tables, the game's talk,
`explain`) measure the terminal for themselves (COLUMNS too, else the terminal of standard
input, output or error); a text that a command wraps itself is fitted to `wrap_width`.

`page` is click's pager (click is a dependency of its own: newer typer carries a copy of click
that is not for others to import), with git's settings for less.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing on the way to `--help` from the cache
if TYPE_CHECKING:
    from typing import TextIO

#: Text wrapped for a terminal is never narrower than this, however narrow the terminal says it is.
NARROWEST = 40


def columns() -> int:
    """The terminal's width in columns (see the module's docstring)."""
    try:
        width = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        width = 0
    if width <= 0:
        try:
            width = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]  # sys.__stdout__ may be None: the AttributeError is caught below
        except (AttributeError, ValueError, OSError):
            width = 0
    return width or 80


def wrap_width(stream: TextIO) -> int | None:
    """The width to wrap a text written to `stream` at: for a terminal one column less than it (a
    line that fills the last column leaves some terminals' cursor on the next line), at least
    NARROWEST; None for a file or a pipe, which gets each line whole."""
    isatty = getattr(stream, "isatty", None)
    if not (isatty and isatty()):
        return None
    return max(NARROWEST, columns() - 1)


def page(text: str) -> None:
    """Show `text` (with its colours) in a pager, as git shows a text longer than the screen:
    `$PAGER` (a command and its arguments, split as the shell splits words), else less with
    `LESS=FRX` unless LESS is set (colours shown, the text left on the screen when less quits).
    Printed instead when either standard stream is not a terminal, or there is no pager to run
    (not found, not a command line, or it cannot be started). Ctrl-C while the pager runs is
    the pager's: click waits for it to end."""
    import click

    unset = "LESS" not in os.environ
    if unset:
        os.environ["LESS"] = "FRX"  # click gives the pager its environment
    try:
        sys.stdout.flush()
        click.echo_via_pager(text.removesuffix("\n"), color=True)  # click ends the text with a newline
    except (OSError, ValueError):  # raised before the pager has anything: PAGER unparsable or not runnable
        sys.stdout.write(text)
        sys.stdout.flush()
    finally:
        if unset:
            os.environ.pop("LESS", None)
