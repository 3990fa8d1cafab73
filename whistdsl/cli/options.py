"""What every command shares: reading the ruleset argument, `--root`, and how a usage error is said.

The commands (commands.py, play.py, simulate.py) import from here, never from each other.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from ..suggest import command
from .common import error_line

if TYPE_CHECKING:
    from rich.console import Console

    from ..rules.ruleset import Ruleset

#: What `--set NAME=VALUE` means, for every command that reads a ruleset.
SET_HELP = "Set a parameter of the ruleset (repeatable), e.g. --set tricks=5; see the ruleset's `parameters:`."
#: What `--root DIR` means, for every command that reads a ruleset.
ROOT_HELP = (
    "The folder `extends:` may lead into (default: the git repository the ruleset is in, else the current folder"
    " if the ruleset is under it, else the ruleset's own folder; for `lint DIR`, at least DIR)."
)


def err(message: str) -> None:
    """`whistdsl: message` on standard error, with whatever came from a file escaped."""
    typer.echo(error_line(message), err=True)


def usage(message: str) -> typer.Exit:
    err(message)
    return typer.Exit(2)


#: `--root DIR`, for every command that reads a ruleset: where its `extends:` may lead.
ROOT_OPTION = typer.Option("--root", metavar="DIR", exists=True, file_okay=False, help=ROOT_HELP)

#: `--think SECONDS`, for `play` and `simulate`: how long the computer players that search think
THINK_OPTION = typer.Option(
    "--think",
    metavar="SECONDS",
    min=0.001,
    max=60.0,
    help="Seconds a decision for the `search` players (default 0.05), as the work this machine does in that time, measured once at the start (a record keeps it).",
)

#: `--set NAME=VALUE`, for every command that reads a ruleset: a parameter's value (repeatable).
SET_OPTION = typer.Option("--set", metavar="NAME=VALUE", help=SET_HELP)


def _did_you_mean(argument: str) -> str:
    """`; did you mean `NAME`?` when `argument` is a bundled ruleset's name mistyped."""
    from ..language.suggestions import did_you_mean
    from ..resources import bundled_rulesets

    close = did_you_mean(Path(argument).name.removesuffix(".yaml"), bundled_rulesets(), cutoff=0.75)
    return f"; {close}" if close else ""


def open_rules(argument: str, root: Path | None = None, settings: list[str] | None = None) -> Ruleset:
    """A ruleset for a command: a path or bundled name; findings or a missing file exit cleanly.
    `root` is the `--root` folder its `extends:` may lead into; `settings` the `--set NAME=VALUE`
    options (a usage error when one does not fit the ruleset's parameters)."""
    from ..diagnostics.findings import render_text
    from ..rules.lint import RulesetError, load_rules
    from ..rules.load import NotReadable
    from ..rules.ruleset import SettingError

    try:
        return load_rules(argument, root, settings or ())
    except SettingError as e:
        raise usage(str(e)) from None
    except FileNotFoundError:
        raise usage(f"{argument}: no such ruleset file or bundled ruleset (see `{command('list')}`){_did_you_mean(argument)}") from None
    except NotReadable as e:
        raise usage(f"{argument}: {e}") from None
    except RulesetError as e:
        typer.echo(render_text(e.result.findings, e.result.sources), err=True)
        err(f"{argument} does not lint clean; fix the findings above first")
        raise typer.Exit(1) from None


@contextmanager
def output_console() -> Iterator[Console]:
    """A rich console for standard output: the terminal's own there; elsewhere (a pipe, a file)
    one that writes plain text at the width the terminal would have, without colour and without
    the spaces rich pads each line's end with (said when the block ends)."""
    import io

    from rich.console import Console

    console = Console(highlight=False)
    if console.is_terminal:
        yield console
        return
    buffer = io.StringIO()
    yield Console(file=buffer, width=console.width, no_color=True, highlight=False)
    typer.echo("".join(line.rstrip() + "\n" for line in buffer.getvalue().splitlines()), nl=False)


def show(renderable: object) -> None:
    """Print something rich draws (a table, Markdown) on standard output, as output_console does."""
    with output_console() as console:
        console.print(renderable)
