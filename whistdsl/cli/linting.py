"""What `whistdsl lint` does once its options are read: which files, each one's result (from
the per-user cache when it is there), and the report. Without typer, so that `main` (cli/
__init__.py) can run `whistdsl lint PATH...` itself, and the typer command (commands.py) runs
the same code for every other form.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

if TYPE_CHECKING:
    from ..diagnostics.lint import LintResult


class PathProblem(Exception):
    """A path or an option `lint` cannot use: a usage error (exit 2), said as it is."""


def ruleset_files(paths: list[Path]) -> list[tuple[Path, Path | None]]:
    """The files `lint` checks, each with the folder it was found under (None for a file named
    on its own): each file named, and every *.yaml / *.yml under each folder named. A folder
    named is where the `extends:` of the files under it may lead (unless --root says otherwise),
    so `lint rulesets/` checks `scoring/x.yaml` extending `../base.yaml` as a whole.

    PathProblem (a usage error, exit 2), so that a mistyped path cannot pass CI: a missing path; one that is
    not a regular file or a folder (a named pipe, a device: refused unread, without waiting);
    a folder holding no ruleset files; a ruleset under a folder that is not a regular file or is
    a symbolic link leading outside that folder (name it on its own if it is meant); an
    unreadable file.
    """
    files: list[tuple[Path, Path | None]] = []
    for p in paths:
        if p.is_dir():
            files.extend((f, p) for f in _rulesets_under(p))
        elif os.path.lexists(p):
            files.append((_regular(p), None))
        else:
            raise PathProblem(f"{p}: no such file or directory")
    for f, _ in files:  # an unreadable path is a usage error, like a missing one
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


def lint_files(files: list[tuple[Path, Path | None]], root: Path | None, settings: Sequence[str]) -> list[LintResult]:
    """Each file's lint result; `root` (--root) or else the folder a file was found under is
    where its `extends:` may lead. A `--set` that does not fit a file is a PathProblem."""
    from ..diagnostics.lint import lint_path

    results = []
    for f, folder in files:
        try:
            results.append(lint_path(f, root=root if root is not None else folder, settings=settings, cached=True))
        except Exception as e:  # SettingError, imported only when a file is checked
            from ..rules.ruleset import SettingError

            if isinstance(e, SettingError):
                raise PathProblem(f"{f}: {e}") from None
            raise
    return results


def report(checked: int, results: list[LintResult], format: str, say: Callable[..., None]) -> int:
    """Say the findings in `format` (text, json or github) with `say(text, err=...)`, and return
    the exit code: 1 when there is an error, else 0 (warnings, W407, do not fail lint: the
    ruleset plays, and the engine stops a game that reaches the case)."""
    from ..diagnostics.findings import render_github, render_json, render_text

    findings = [f for r in results for f in r.findings]
    if format == "json":
        say(render_json(findings))
    elif format == "github":
        if findings:
            say(render_github(findings))
    else:
        sources = {k: v for r in results for k, v in r.sources.items()}
        if findings:
            say(render_text(findings, sources))
        say(lint_summary(checked, results), err=bool(findings))
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
