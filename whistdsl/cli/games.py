"""`whistdsl games`: the kept games (records/kept.py), newest first, and how to continue one."""

from __future__ import annotations

import typer

from ..printable import printable


def _state(game) -> str:  # noqa: ANN001 (a KeptGame)
    if game.problem:
        return f"unreadable: {game.problem}"
    if game.finished:
        won = ", ".join(game.winners)
        return f"over, won by {won}" if len(game.winners) == 1 else f"over, tied: {won}"
    return f"stopped after hand {game.hands}" if game.hands else "stopped in hand 1"


def games_command() -> None:
    """List the kept games, newest first: every game played with a person is kept.

    Then `whistdsl play --resume` continues the latest, or `--resume NAME` another.

    \b
    Examples:
      whistdsl games
      whistdsl play --resume
    """
    from ..records.kept import games_dir, kept_games

    folder = games_dir()
    games = kept_games()
    if not games:
        typer.echo(f"No games kept yet in {printable(str(folder))}.")
        return
    typer.echo(f"Kept games in {printable(str(folder))}, newest first:")
    rows = [
        (printable(g.name), printable(g.ruleset), ", ".join(printable(p) for p in g.players), _state(g))
        for g in games
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(2)]
    for name, ruleset, players, state in rows:
        line = f"  {name:<{widths[0]}}  {ruleset:<{widths[1]}}  {state}"
        typer.echo(line.rstrip())
        if players:
            typer.echo(f"  {'':<{widths[0]}}  {players}".rstrip())
    if any(g.resumable for g in games):
        typer.echo("Continue the latest unfinished game: whistdsl play --resume; another: whistdsl play --resume NAME")
