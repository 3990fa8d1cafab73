"""`whistdsl games`: the kept games (records/kept.py), newest first, and how to continue one."""

from __future__ import annotations

import sys
import textwrap
from typing import Annotated

import typer

from ..printable import printable
from ..suggest import NO_BREAK, command, unbroken
from .terminal import wrap_width


def _state(game) -> str:
    if game.problem:
        return f"unreadable: {game.problem}"
    if game.finished:
        won = ", ".join(game.winners)
        return f"over, won by {won}" if len(game.winners) == 1 else f"over, tied: {won}"
    return f"stopped after hand {game.hands}" if game.hands else "stopped in hand 1"


def games_command(
    clean: Annotated[bool, typer.Option("--clean", help="Remove the finished games (the unfinished ones stay, to be resumed).")] = False,
) -> None:
    """List the kept games, newest first: every game played with a person is kept.

    Then `whistdsl play --resume` continues the latest, or `--resume NAME` another. Unfinished
    games stay until they are finished; of the finished ones the newest 50 stay.

    \b
    Examples:
      whistdsl games
      whistdsl play --resume
      whistdsl games --clean
    """
    from ..records.kept import games_dir, kept_games, prune

    folder = games_dir()
    if clean:
        removed = prune(keep=0)
        left = sum(1 for g in kept_games() if g.removable)
        said = f"Removed {len(removed)} finished game{'s' if len(removed) != 1 else ''} from {printable(str(folder))}"
        typer.echo(said + (f"; {left} could not be removed." if left else "."))
    games = kept_games()
    if not games:
        typer.echo(f"No games kept yet in {printable(str(folder))}.")
        return
    typer.echo(f"Kept games in {printable(str(folder))}, newest first:")
    width = wrap_width(sys.stdout)
    for g in games:
        typer.echo(f"  {printable(g.name)}")
        facts = ", ".join(part for part in (printable(g.ruleset), _state(g)) if part)
        for line in _lines(facts, width) + _lines(", ".join(printable(p) for p in g.players), width):
            typer.echo(line)
    if any(g.resumable for g in games):
        said = (
            f"Continue the latest unfinished game: {unbroken(command('play', '--resume'))}; another: {unbroken(command('play', '--resume', 'NAME'))}"
        )
        for line in _lines(said, width, ""):
            typer.echo(line)


def _lines(text: str, width: int | None, indent: str = "      ") -> list[str]:
    """`text` indented, wrapped at words to `width` on a terminal, one line elsewhere."""
    if not text:
        return []
    if width is None:
        return [indent + text.replace(NO_BREAK, " ")]
    lines = textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)
    return [line.replace(NO_BREAK, " ") for line in lines]
