"""The command line (`whistdsl lint|play|simulate|replay|score|...`): thin commands over the
rest of whistdsl. `main` is the console script."""

from .commands import app, main

__all__ = ["app", "main"]
