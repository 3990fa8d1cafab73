"""The checking pipeline: a ruleset file -> load -> validate -> check, with every finding.

`lint_path` is what `whistdsl lint` runs per file; `load_rules` is what every other command
uses to get a compiled `Ruleset` (or the findings that say why there is none).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .check import compile_ruleset, expression_findings
from .findings import Finding
from .load import Document, LoadError, Loaded, _display, load_ruleset
from .resources import bundled_rulesets
from .ruleset import Ruleset
from .validate import check_versions, schema_valid_part, validate


@dataclass
class LintResult:
    path: str
    findings: list[Finding]
    ruleset: Ruleset | None = None
    sources: dict[str, list[str]] = field(default_factory=dict)  # file -> lines, for carets


def lint_path(path: Path, shown: str | None = None) -> LintResult:
    """Run every stage over one ruleset file.

    A file that is not readable YAML stops at the YAML stage, and one written for a newer
    language version at the version check. A file the schema rejects gets its schema findings
    and also the expression findings of its schema-valid parts; the meaning checks need a
    whole valid ruleset, so they run only when every earlier stage is clean.
    """
    shown = shown if shown is not None else str(path)
    try:
        loaded = load_ruleset(path, shown)
    except LoadError as e:
        return LintResult(shown, e.findings, None, _sources_of_findings(e.findings, path, shown))
    return lint_loaded(loaded, shown)


def lint_loaded(loaded: Loaded, shown: str) -> LintResult:
    """The stages after loading: versions, schema, expressions, meaning."""
    sources = {d.path: d.lines for d in loaded.documents}
    if not loaded.layers:
        loaded.layers = [loaded]
    findings = check_versions(loaded.layers)
    if any(f.code == "W204" for f in findings):
        return LintResult(shown, findings, None, sources)
    reported = {(f.path, f.line, f.column, f.code) for f in findings}
    findings += [f for f in validate(loaded) if (f.path, f.line, f.column, f.code) not in reported]
    if findings:
        return LintResult(shown, sorted(findings + _expression_findings_of_valid_part(loaded)), None, sources)
    rules, findings = compile_ruleset(loaded)
    return LintResult(shown, findings, rules, sources)


def _expression_findings_of_valid_part(loaded: Loaded) -> list[Finding]:
    valid = schema_valid_part(loaded)
    if valid is None:
        return []
    running = loaded.data.get("running")
    return expression_findings(valid, tuple(running) if isinstance(running, dict) else ())


def _sources_of_findings(findings: list[Finding], path: Path, shown: str) -> dict[str, list[str]]:
    """Best-effort source lines for findings of the load stage (small text files only)."""
    out: dict[str, list[str]] = {}
    for f in findings:
        if f.path in out or f.code == "W100":
            continue
        candidate = path if f.path == shown else Path(f.path)
        try:
            if candidate.stat().st_size <= 256 * 1024:
                out[f.path] = Document(f.path, candidate.read_text("utf-8")).lines
        except (OSError, UnicodeDecodeError):
            pass
    return out


def resolve_ruleset_argument(argument: str) -> Path | None:
    """A ruleset given on the command line: a file path, or a bundled ruleset's name."""
    p = Path(argument)
    if p.is_file():
        return p
    return bundled_rulesets().get(argument.removesuffix(".yaml"))


class RulesetError(Exception):
    """A ruleset that does not lint clean; carries the lint result."""

    def __init__(self, result: LintResult):
        super().__init__(f"{result.path}: {len(result.findings)} problem(s)")
        self.result = result


def load_rules(argument: str | Path) -> Ruleset:
    """Load, validate, check and compile a ruleset (a path or a bundled name). Raises RulesetError
    (or FileNotFoundError when there is no such file or bundled ruleset)."""
    path = resolve_ruleset_argument(str(argument))
    if path is None:
        raise FileNotFoundError(str(argument))
    result = lint_path(path, _display(path) if not Path(str(argument)).is_file() else str(argument))
    if result.ruleset is None:
        raise RulesetError(result)
    return result.ruleset


def rules_from_data(data: dict, shown: str) -> Ruleset:
    """Compile a merged ruleset held as data (e.g. the copy inside a game record).

    The data is written out as YAML and goes through every stage, so it is checked exactly as a
    file would be. Raises RulesetError with the findings (positions refer to `shown`).
    """
    import yaml

    from .load import parse_document

    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    try:
        loaded = parse_document(Document(shown, text))
    except LoadError as e:
        raise RulesetError(LintResult(shown, e.findings)) from None
    result = lint_loaded(loaded, shown)
    if result.ruleset is None:
        raise RulesetError(result)
    return result.ruleset
