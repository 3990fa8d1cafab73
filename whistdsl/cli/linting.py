"""What `whistdsl lint` does once its options are read: which files, each one's result (from
the per-user cache when it is there), which findings to show (--select, --ignore: chosen after
the cache, so a cached result serves every choice), the report (colour at a terminal,
--quiet), and `--explain CODE`. Without typer, so that `main` (cli/
__init__.py) can run `whistdsl lint PATH...` itself, and the typer command (commands.py) runs
the same code for every other form.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from ..rules.lint import LintResult


class PathProblem(Exception):
    """A path or an option `lint` cannot use: a usage error (exit 2), said as it is."""


class RulesetFile(NamedTuple):
    """A file `lint` checks."""

    path: Path
    folder: Path | None = None  # the folder named that it was found under (None: named on its own)
    bundled: str | None = None  # the bundled ruleset's name it was named by


def ruleset_files(paths: list[Path]) -> list[RulesetFile]:
    """The files `lint` checks: each file named, every *.yaml / *.yml under each folder named,
    and for a name that is no existing path (`oh-hell`, `scoring/exact`), the bundled ruleset
    of that name (a path that exists wins over a name).
    The `extends:` of a file under a folder named may lead anywhere in that folder at least
    (unless --root says otherwise), so `lint rulesets/` checks `scoring/x.yaml` extending
    `../base.yaml` as a whole.

    PathProblem (a usage error, exit 2), so that a mistyped path cannot pass CI: a missing path
    that is no bundled ruleset's name either; one that is not a regular file or a folder (a
    named pipe, a device: refused unread, without waiting); a folder holding no ruleset files; a
    ruleset under a folder that is not a regular file or is a symbolic link leading outside that
    folder (name it on its own if it is meant); an unreadable file.
    """
    from ..resources import bundled_rulesets

    files: list[RulesetFile] = []
    for p in paths:
        if p.is_dir():
            files.extend(RulesetFile(f, p) for f in _rulesets_under(p))
        elif os.path.lexists(p):
            files.append(RulesetFile(_regular(p)))
        elif (bundled := bundled_rulesets().get(str(p).removesuffix(".yaml"))) is not None:
            files.append(RulesetFile(bundled, bundled=str(p).removesuffix(".yaml")))
        else:
            raise PathProblem(f"{p}: no such file or directory{_did_you_mean(p)}")
    for f, _, _ in files:  # an unreadable path is a usage error, like a missing one
        try:
            f.open("rb").close()  # a regular file by now: opening it cannot wait
        except OSError as e:
            raise PathProblem(f"{f}: cannot be read: {e.strerror or e}") from None
    return files


def _regular(path: Path) -> Path:
    from ..rules.load import NotReadable, check_regular_file

    try:
        check_regular_file(path)
    except NotReadable as e:
        raise PathProblem(f"{path}: {e}") from None
    return path


def _rulesets_under(folder: Path) -> list[Path]:
    inside = os.path.realpath(folder)
    found = sorted(f for f in {*folder.rglob("*.yaml"), *folder.rglob("*.yml")} if not f.is_dir())
    if not found:
        raise PathProblem(f"no ruleset files (*.yaml, *.yml) under {folder}")
    for f in found:
        real = os.path.realpath(f)
        if real != inside and not real.startswith(inside.rstrip(os.sep) + os.sep):
            raise PathProblem(f"{f}: a symbolic link that leads outside {folder}: not read (name it on its own to lint it)")
        _regular(f)
    return found


def lint_files(files: list[RulesetFile], root: Path | None, settings: Sequence[str]) -> list[LintResult]:
    """Each file's lint result; `root` (--root), or else the file's `default_root` (never
    narrower than the folder it was found under), is where its `extends:` may lead. A bundled
    ruleset is shown by its path as `shown_path` shows one. A `--set` that does not fit a file
    is a PathProblem."""
    from ..rules.lint import lint_path
    from ..rules.load import default_root

    results = []
    for f, folder, bundled in files:
        where = root if root is not None else Path(default_root(f, folder))
        shown = shown_path(f) if bundled else str(f)
        try:
            results.append(lint_path(f, shown, root=where, settings=settings, cached=True))
        except Exception as e:  # SettingError, imported only when a file is checked
            from ..rules.ruleset import SettingError

            if isinstance(e, SettingError):
                raise PathProblem(f"{shown}: {e}") from None
            raise
    return results


class Choice:
    """Which findings `lint` shows: `--select` (only codes with these prefixes; none: all) and
    `--ignore` (not these), as ruff reads them: a code (W404) or a prefix of codes (W4, W40)."""

    def __init__(self, select: Sequence[str] = (), ignore: Sequence[str] = ()):
        self.select = _codes("--select", select)
        self.ignore = _codes("--ignore", ignore)

    def shows(self, code: str) -> bool:
        if self.select and not any(code.startswith(p) for p in self.select):
            return False
        return not any(code.startswith(p) for p in self.ignore)


def _codes(option: str, texts: Sequence[str]) -> tuple[str, ...]:
    """`--select W404,W2 --select W3` as ("W404", "W2", "W3"); a PathProblem (usage error) for a
    text that is no code nor the start of one."""
    from ..diagnostics.findings import CODES

    found: list[str] = []
    for text in texts:
        for part in text.split(","):
            code = part.strip().upper()
            if not code:
                continue
            if not any(c.startswith(code) for c in CODES):
                from ..language.suggestions import did_you_mean
                from ..suggest import command

                hint = did_you_mean(code, CODES, shown=str)
                raise PathProblem(
                    f"{option} {part.strip()}: no finding code is or begins with that"
                    + (f"; {hint}" if hint else "")
                    + f" (the codes: {command('lint', '--explain', 'all')})"
                )
            found.append(code)
    return tuple(found)


def _did_you_mean(missing: Path) -> str:
    """`; did you mean rulesets/house.yaml?` when a ruleset file beside the missing path has a
    name close to it (a bare name close to a bundled ruleset's: `whistdsl play` takes names)."""
    from ..language.suggestions import closest

    folder = missing.parent
    try:
        here = sorted(p.name for p in folder.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
    except OSError:
        here = []
    close = closest(missing.name, here, cutoff=0.75)
    if close is not None:
        return f"; did you mean {folder / close if str(folder) != '.' else close}?"  # escaped with the message
    if missing.suffix in ("", ".yaml"):
        from ..resources import bundled_rulesets

        named = closest(str(missing).removesuffix(".yaml"), bundled_rulesets(), cutoff=0.75)
        if named is not None:
            return f"; did you mean `{named}` (a bundled ruleset)?"
    return ""


def shown_path(path: Path) -> str:
    """A bundled ruleset's file as `lint` shows it: relative to the working folder when it is
    below it (`rulesets/oh-hell.yaml` in a checkout), else whole (where whistdsl is installed)."""
    from ..rules.load import _display

    return _display(path)


def wants_colour(stream: object) -> bool:
    """Colour for a terminal, never for a pipe or a file, and never when NO_COLOR is set (no-color.org)."""
    if os.environ.get("NO_COLOR", ""):
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):
        return False


def report(
    files: list[RulesetFile],
    results: list[LintResult],
    format: str,
    say: Callable[..., None],
    choice: Choice | None = None,
    quiet: bool = False,
    colour: bool = False,
) -> int:
    """Say the findings `choice` shows (all by default) in `format` (text, json or github) with
    `say(text, err=...)`, and return the exit code: 1 when one of them is an error, else 0
    (warnings do not fail lint: the ruleset plays, and the engine stops a game that reaches the
    case). Text says before its summary which file each bundled ruleset's name stood for.
    `quiet`: the findings alone, without those lines. `colour`: ANSI colours (text)."""
    from ..diagnostics.findings import render_github, render_json, render_text, with_ends

    every = [f for r in results for f in r.findings]
    findings = every if choice is None else [f for f in every if choice.shows(f.code)]
    sources = {k: v for r in results for k, v in r.sources.items()}
    if format in ("json", "github"):
        findings = with_ends(findings, sources)
    if format == "json":
        say(render_json(findings))
    elif format == "github":
        if findings:
            say(render_github(findings))
    else:
        if findings:
            say(render_text(findings, sources, colour))
        if not quiet:
            from ..printable import printable
            from ..rules.lint import LintResult

            for f in files:
                if f.bundled is not None:
                    say(printable(f"{f.bundled}: the bundled ruleset {shown_path(f.path)}"), err=bool(findings))
            hidden = len(every) - len(findings)
            shown = [LintResult(r.path, [f for f in r.findings if f in findings]) for r in results] if hidden else results
            summary = lint_summary(len(files), shown) + (f" ({hidden} not shown: --select/--ignore)" if hidden else "")
            say(summary, err=bool(findings))
    return 1 if any(f.severity == "error" for f in findings) else 0


def lint_summary(checked: int, results: list[LintResult]) -> str:
    """`N ruleset(s) checked: all clean`, `... E finding(s) in F file(s)`, with `, W warning(s)`."""
    errors = [r for r in results if any(f.severity == "error" for f in r.findings)]
    warned = [r for r in results if any(f.severity == "warning" for f in r.findings)]
    n_errors = sum(1 for r in results for f in r.findings if f.severity == "error")
    n_warnings = sum(1 for r in results for f in r.findings if f.severity == "warning")
    head = f"{checked} ruleset(s) checked: "
    if not n_errors and not n_warnings:
        return head + "all clean"
    if not n_errors:
        return head + f"no errors, {n_warnings} warning(s) in {len(warned)} file(s)"
    return head + f"{n_errors} finding(s) in {len(errors)} file(s)" + (f", {n_warnings} warning(s)" if n_warnings else "")


def explain_code(code: str) -> str:
    """What `whistdsl lint --explain CODE` prints: the code's entry of the one table of codes
    (diagnostics/codes.py), as ruff's `rule` command prints a rule; `all` lists every code.
    A PathProblem (usage error) for a code there is not."""
    from ..diagnostics.codes import DOCS, WARNINGS

    wanted = code.strip().upper()
    if wanted == "ALL":
        return "\n".join(f"{c}  {'warning' if c in WARNINGS else 'error  '}  {d.summary}" for c, d in DOCS.items())
    doc = DOCS.get(wanted)
    if doc is None:
        from ..language.suggestions import did_you_mean
        from ..suggest import command

        hint = did_you_mean(wanted, DOCS, shown=str)
        raise PathProblem(
            f"--explain {code}: no such finding code" + (f"; {hint}" if hint else "") + f" (every code: {command('lint', '--explain', 'all')})"
        )
    warning = wanted in WARNINGS
    kind = "a warning: it does not fail lint, and the ruleset still plays" if warning else "an error: the ruleset cannot be played until it is fixed"
    silence = (
        f"Silence it: `--ignore {wanted}` on the command line, or in the ruleset itself:\n    lint:\n      ignore: [{wanted}]"
        if warning
        else f"Hide it: `--ignore {wanted}` hides it from the report (the ruleset still cannot be played)."
    )
    return "\n".join(
        [
            f"{wanted}: {doc.summary}",
            "",
            f"It is {kind}.",
            "",
            "What it finds:",
            f"    {_plain(doc.finds)}",
            "",
            "For example:",
            f"    {_plain(doc.example)}",
            "",
            "Write instead:",
            f"    {_plain(doc.write_instead)}",
            "",
            silence,
        ]
    )


def _plain(markdown: str) -> str:
    """A cell of the table of codes for the terminal: its Markdown escapes undone."""
    return markdown.replace("\\|", "|")
