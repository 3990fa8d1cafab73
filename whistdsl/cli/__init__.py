"""The command line (`whistdsl lint|play|simulate|replay|score|...`): thin commands over the
rest of whistdsl. `main` is the console script.

`main` answers `whistdsl --version` at once, `whistdsl --help` from the cache when a run before
has already rendered it for this whistdsl, this terminal width and this way of starting (see
whistdsl/cache.py), and `whistdsl lint PATH...` itself: those never wait for typer (and the
pydantic it imports to read options) and the commands to be imported. Every other command line
goes to typer (`commands.run`). `app` (the typer app) is imported when first used.
"""

from __future__ import annotations

import os
import sys

from .common import HELP_OPTIONS, VERSION_OPTIONS, help_key, version_line

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing on the way to --version
if TYPE_CHECKING:
    from .commands import app

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the `whistdsl` script and `python -m whistdsl`.

    Output that the terminal's encoding cannot show is written as backslash escapes rather than
    ending the command; Ctrl-C exits 130; output into a closed pipe (`| head`) ends quietly.
    """
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    try:
        code = _answer(sys.argv[1:])
        if code is None:
            from .commands import run

            run()
        else:
            sys.stdout.flush()
            sys.exit(code)
    except KeyboardInterrupt:
        sys.stderr.write("whistdsl: interrupted\n")
        sys.exit(130)
    except BrokenPipeError:
        # the reader has gone: say nothing more (Python would complain again at exit)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)


def _answer(args: list[str]) -> int | None:
    """The exit code of a command line answered here, without typer, or None for typer to
    answer: `--version`; `--help` when the cache has it; `lint PATH...` with no options (what
    CI and editors run), which runs the very code of the typer command (cli/linting.py), and
    leaves every problem with the paths to typer, which says it as for any other form; and
    `replay RECORD`, the same way (cli/replaying.py). Typer reads options
    through pydantic, whose import alone costs more than these commands' own work."""
    if len(args) == 1 and args[0] in VERSION_OPTIONS:
        _say(version_line())
        return 0
    if len(args) == 1 and args[0] in HELP_OPTIONS:
        from ..cache import read

        text = read("help", help_key())
        if isinstance(text, str):
            sys.stdout.write(text)
            return 0
        return None
    if len(args) >= 2 and args[0] == "lint" and not any(a.startswith("-") for a in args[1:]):
        from pathlib import Path

        from .linting import PathProblem, lint_files, report, ruleset_files, wants_colour

        try:
            files = ruleset_files([Path(a) for a in args[1:]])
            results = lint_files(files, None, ())
        except PathProblem:
            return None
        return report(files, results, "text", _say, colour=wants_colour(sys.stdout))
    if len(args) == 2 and args[0] == "replay" and not args[1].startswith("-"):
        from pathlib import Path

        from .replaying import replayed, verdict

        record = Path(args[1])
        code, data, result = replayed(record, lambda: None, (), _say)
        if data is not None and result is not None:
            _say(verdict(record, data, result, False))
        return code
    return None


def _say(text: str, err: bool = False) -> None:
    """A line, as `typer.echo` writes it: as UTF-8 to a stream set up for ASCII (click takes such
    a stream for a misconfigured one), else to the stream as it is."""
    import codecs

    stream = sys.stderr if err else sys.stdout
    buffer = getattr(stream, "buffer", None)
    if buffer is not None and codecs.lookup(getattr(stream, "encoding", None) or "ascii").name == "ascii":
        stream.flush()
        buffer.write((text + "\n").encode("utf-8", "replace"))
        buffer.flush()
        return
    stream.write(text + "\n")
    stream.flush()


def __getattr__(name: str) -> object:
    if name == "app":
        from .commands import app

        return app
    raise AttributeError(f"module 'whistdsl.cli' has no attribute {name!r}")
