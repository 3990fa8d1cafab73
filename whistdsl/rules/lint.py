"""The checking pipeline, the rules' entry point: a ruleset file -> load -> validate -> check ->
compile, with every finding.

`lint_path` is what `whistdsl lint` runs per file; `load_rules` is what every other command
uses to get a compiled `Ruleset` (or the findings that say why there is none).

`lint_path(..., cached=True)` (what `whistdsl lint` asks for) first looks for the file's
result in the per-user cache (whistdsl/cache.py), and keeps it there. The checker is imported
only when a file is checked, so that a result found in the cache costs neither its import nor
its work.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..diagnostics.findings import Finding
from ..resources import bundled_rulesets
from .load import Document, ExtendsRoot, Loaded, LoadError, _display, check_regular_file, load_ruleset, read_text

if TYPE_CHECKING:
    from .ruleset import Ruleset


@dataclass
class LintResult:
    path: str
    findings: list[Finding]
    ruleset: Ruleset | None = None
    sources: dict[str, list[str]] = field(default_factory=dict)  # file -> lines, for carets


def lint_path(path: Path, shown: str | None = None, root: Path | None = None, settings: Sequence[str] = (), cached: bool = False) -> LintResult:
    """Run every stage over one ruleset file.

    A file that is not readable YAML stops at the YAML stage, and one written for a newer
    language version at the version check. A file the schema rejects gets its schema findings
    and also the expression findings of its schema-valid parts, and the checks of the deal when
    the sections the deal reads are whole; the other meaning checks need a whole valid
    ruleset, so they run only when every earlier stage is clean.

    `settings` (`--set NAME=VALUE` texts) sets parameters: the meaning checks try only those
    values of them. Raises SettingError when a setting does not fit the ruleset's parameters.

    With `cached`, a result kept in the per-user cache for this very input is returned as it is
    (its `ruleset` is None: the findings and the source lines they point at are what is kept),
    and a result worked out here is kept for next time.
    """
    shown = shown if shown is not None else str(path)
    key = _cache_key(path, shown, root, settings) if cached else None
    if key is not None:
        found = _recall(key, path, shown, root)
        if found is not None:
            return found
    try:
        loaded = load_ruleset(path, shown, root)
    except LoadError as e:
        return LintResult(shown, e.findings, None, _sources_of_findings(e.findings, e.documents))
    result = lint_loaded(loaded, shown, settings)
    if key is not None:
        _keep(key, loaded, result)
    return result


# A cache entry for one file's lint result is named by the file's text, the name it is shown
# by, the folder `extends:` may lead into (--root, or `default_root`'s), the `--set` options,
# the working folder (paths in findings are shown relative to it), where the bundled rulesets
# are, and whistdsl itself. The files under `extends:` are known only once the file is read,
# so the entry holds the `extends:` value of each file of the chain and the SHA-256 of the
# text it led to: the entry is used only when those same values, followed now by the loader's
# own rules (ExtendsRoot.target: a target no longer allowed, a symbolic link that now leads
# elsewhere or a missing file is noticed), reach files with those same texts. A file that does
# not load (LoadError) is not kept.


def _cache_key(path: Path, shown: str, root: Path | None, settings: Sequence[str]) -> str | None:
    from ..cache import cache_dir, entry_key
    from ..resources import data_dir

    if cache_dir() is None:
        return None
    try:
        text = read_text(path, shown).text
        where = ExtendsRoot.for_ruleset(path, root)
    except (LoadError, OSError, ValueError):
        return None  # loading it says what is wrong
    settings_text = "\0".join(settings)
    bundled = os.path.realpath(data_dir("rulesets"))
    return entry_key("lint", text, shown, str(path), where.folder, where.real, settings_text, os.getcwd(), bundled)


def _keep(key: str, loaded: Loaded, result: LintResult) -> None:
    from ..cache import content_digest, write

    layers = loaded.layers or [loaded]
    targets = [layer.data.get("extends") for layer in layers[:-1]]
    if len(layers) != len(loaded.documents) or not all(isinstance(t, str) for t in targets):
        return
    shown = {f.path for f in result.findings}
    write(
        "lint",
        key,
        {
            "extends": targets,
            "texts": [content_digest(d.text.encode("utf-8", "surrogatepass")) for d in loaded.documents[1:]],
            "findings": [[f.path, f.line, f.column, f.code, f.message, f.severity, f.end_line, f.end_column, f.help] for f in result.findings],
            "sources": {p: lines for p, lines in result.sources.items() if p in shown},
        },
    )


def _recall(key: str, path: Path, shown: str, root: Path | None) -> LintResult | None:
    from ..cache import content_digest, read

    entry = read("lint", key)
    try:
        targets, texts = entry["extends"], entry["texts"]  # type: ignore[index]  # a cached entry of ours is a dict; a malformed one raises, caught below
        if len(targets) != len(texts):
            return None
        where = ExtendsRoot.for_ruleset(path, root)
        current, chain = path, {os.path.realpath(path)}
        for target, digest in zip(targets, texts):
            current = where.target(target, current)
            real = os.path.realpath(current)
            text = read_text(current, _display(current)).text
            if real in chain or content_digest(text.encode("utf-8", "surrogatepass")) != digest:
                return None
            chain.add(real)
        findings = [Finding(*f) for f in entry["findings"] if len(f) == 9]  # type: ignore[index]  # a cached entry of ours is a dict; a malformed one raises, caught below
        if len(findings) != len(entry["findings"]):  # type: ignore[index]  # a cached entry of ours is a dict; a malformed one raises, caught below
            return None
        sources = {p: list(lines) for p, lines in entry["sources"].items()}  # type: ignore[index]  # a cached entry of ours is a dict; a malformed one raises, caught below
        if not all(isinstance(x, str) for lines in sources.values() for x in lines):
            return None
        return LintResult(shown, findings, None, sources)
    except Exception:  # no entry, an entry of another shape, an extends: that no longer leads there
        return None


def lint_loaded(loaded: Loaded, shown: str, settings: Sequence[str] = ()) -> LintResult:
    """The stages after loading: versions, schema, expressions, meaning; less the warnings the
    ruleset itself says not to report (`lint: {ignore: [W209]}`: warnings only, never an error)."""
    result = _lint_stages(loaded, shown, settings)
    ignored = ignored_in_ruleset(loaded.data)
    if ignored:
        result.findings = [f for f in result.findings if not (f.severity == "warning" and f.code in ignored)]
    return result


def ignored_in_ruleset(data: object) -> frozenset[str]:
    """The warning codes a ruleset's `lint.ignore` names (after `extends:`, as every key)."""
    from ..diagnostics.findings import WARNINGS

    section = data.get("lint") if isinstance(data, dict) else None
    codes = section.get("ignore") if isinstance(section, dict) else None
    return frozenset(c for c in codes if isinstance(c, str) and c in WARNINGS) if isinstance(codes, list) else frozenset()


def _lint_stages(loaded: Loaded, shown: str, settings: Sequence[str] = ()) -> LintResult:
    from .check import compile_ruleset
    from .validate import check_versions

    sources = {d.path: d.lines for d in loaded.documents}
    if not loaded.layers:
        loaded.layers = [loaded]
    findings = check_versions(loaded.layers)
    if any(f.code == "W204" for f in findings):
        return LintResult(shown, findings, None, sources)
    reported = {(f.path, f.line, f.column, f.code) for f in findings}
    findings += [f for f in _schema_findings(loaded) if (f.path, f.line, f.column, f.code) not in reported]
    if findings:
        return LintResult(shown, sorted(findings + _expression_findings_of_valid_part(loaded)), None, sources)
    rules, findings = compile_ruleset(loaded, settings)
    return LintResult(shown, findings, rules, sources)


def _schema_findings(loaded: Loaded) -> list[Finding]:
    """The schema stage (validate). The merged data is made from the texts of the files read, so
    texts that the schema found nothing wrong with before (the per-user cache) need no check,
    nor jsonschema's import."""
    from ..cache import known, remember

    texts = [d.text for d in loaded.documents]
    if texts and known("ruleset-shape", *texts):
        return []
    from .validate import validate

    found = validate(loaded)
    if texts and not found:
        remember("ruleset-shape", *texts)
    return found


def _expression_findings_of_valid_part(loaded: Loaded) -> list[Finding]:
    from .check import expression_findings
    from .validate import schema_valid_part

    left_out: list[tuple] = []
    valid = schema_valid_part(loaded, left_out)
    if valid is None:
        return []
    running = loaded.data.get("running")
    parameters = loaded.data.get("parameters")
    return expression_findings(
        valid, tuple(running) if isinstance(running, dict) else (), tuple(parameters) if isinstance(parameters, dict) else (), left_out
    )


def _sources_of_findings(findings: list[Finding], documents: list[Document]) -> dict[str, list[str]]:
    """The source lines for the findings of the load stage, from the ruleset documents that were
    read (nothing is read again: a file refused unread, like `extends: /etc/passwd`, shows
    nothing). A file refused as a whole (W100: binary, too large, not text) shows nothing either."""
    read = {d.path: d for d in documents}
    return {f.path: read[f.path].lines for f in findings if f.path in read and f.code != "W100"}


def resolve_ruleset_argument(argument: str) -> Path | None:
    """A ruleset given on the command line: a file path, or a bundled ruleset's name. A path that
    exists but is not a regular file (a directory, a named pipe, a device) is returned as it is,
    unless a bundled ruleset has that name, so that loading it says what it is."""
    p = Path(argument)
    try:
        if p.is_file():
            return p
        exists = os.path.lexists(p)
    except (OSError, ValueError):  # a name too long for the system, a NUL character
        exists = False
    bundled = bundled_rulesets().get(argument.removesuffix(".yaml"))
    return bundled if bundled is not None or not exists else p


def extended_base(argument: str | Path, root: Path | None = None) -> tuple[Path, Path | None] | None:
    """The ruleset that a ruleset given on the command line (a path or a bundled name) names in
    its `extends:`: the file, with the folder its own `extends:` may lead into (None: its own,
    as for a bundled ruleset), or None when it extends nothing. Raises what `load_rules` raises
    when the ruleset itself does not load."""
    path = resolve_ruleset_argument(str(argument))
    if path is None:
        raise FileNotFoundError(str(argument))
    check_regular_file(path)
    try:
        loaded = load_ruleset(path, _display(path), root)
    except LoadError as e:
        raise RulesetError(LintResult(_display(path), e.findings, None, _sources_of_findings(e.findings, e.documents))) from None
    own = (loaded.layers[0] if loaded.layers else loaded).data
    target = own.get("extends") if isinstance(own, dict) else None
    if not isinstance(target, str):
        return None
    where = ExtendsRoot.for_ruleset(path, root)
    base = where.target(target, path)  # followed once already, by load_ruleset
    bundled = os.path.realpath(base).startswith(where.bundled.rstrip(os.sep) + os.sep)
    return base, None if bundled else Path(where.folder)


class RulesetError(Exception):
    """A ruleset that does not lint clean; carries the lint result."""

    def __init__(self, result: LintResult):
        super().__init__(f"{result.path}: {len(result.findings)} problem(s)")
        self.result = result


def load_rules(argument: str | Path, root: Path | None = None, settings: Sequence[str] = ()) -> Ruleset:
    """Load, validate, check and compile a ruleset (a path or a bundled name). Raises RulesetError,
    FileNotFoundError when there is no such file or bundled ruleset, or NotReadable when the path
    is not a regular file. `root` is where `extends:` may lead (default: `default_root` of the file).
    `settings` (`--set NAME=VALUE` texts) sets parameters (SettingError when one does not fit)."""
    path = resolve_ruleset_argument(str(argument))
    if path is None:
        raise FileNotFoundError(str(argument))
    check_regular_file(path)
    result = lint_path(path, _display(path) if not Path(str(argument)).is_file() else str(argument), root, settings)
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
