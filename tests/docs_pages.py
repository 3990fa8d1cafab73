"""The documentation site's pages (docs/) as a reader meets them, and what in them is made from
the code. tests/test_docs.py checks every page against the code with these; running it as a
script regenerates every generated part at once:

    python tests/test_docs.py

What a page shows is of three kinds, each announced by an HTML comment on the line before a
fenced block (the site does not show the comments):

- `<!-- file: NAME -->`: a file the reader writes, NAME in their folder. The block is usually a
  snippet, `--8<-- "docs/examples/NAME.yaml"`, so the file is kept (and linted) on its own.
- `<!-- run -->` before a ```console block: commands the reader types (`$ whistdsl ...`), each
  followed by exactly what it prints. Generated: the outputs are written by running them.
- `<!-- excerpt: COMMAND -->`: whole lines of what COMMAND prints, in order (`...` skips lines);
  chosen by hand, checked here.

A page is followed from the top in a new empty folder: its files are written there as they come
and its commands run there, so a tutorial is tested exactly as a reader does it. Besides these,
generated parts sit between markers (`<!-- reference:start -->` ... `<!-- reference:end -->`,
`<!-- codes:start -->` ... `<!-- codes:end -->`), after `<!-- help: COMMAND -->`, and the
finding-code pages docs/findings/W*.md are generated whole from whistdsl/diagnostics/codes.py.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from whistdsl.cli import app

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
EXAMPLES = DOCS / "examples"
#: The terminal the pages' commands run at: 80 columns, the common default (what a reader sees).
COLUMNS = 80
#: The width the command reference (each command's --help) is written at, as it was in the README.
HELP_WIDTH = 100
#: Commands a `<!-- run -->` block may hold: whistdsl's own, as a reader types them.
PROGRAM = "whistdsl"

runner = CliRunner()

_SNIPPET = re.compile(r'^--8<-- "([^"]+)"$', re.M)
_FENCE = re.compile(r"^(`{3,})([\w-]*)\n", re.M)


def pages() -> list[Path]:
    """Every page of the site (the Markdown under docs/, the examples excepted)."""
    return sorted(p for p in DOCS.rglob("*.md") if EXAMPLES not in p.parents)


def with_snippets(text: str) -> str:
    """The text with each snippet line (`--8<-- "path"`) replaced by that file, as the site shows it."""

    def included(match: re.Match[str]) -> str:
        return (ROOT / match.group(1)).read_text(encoding="utf-8").rstrip("\n")

    return _SNIPPET.sub(included, text)


@dataclass(frozen=True)
class Block:
    """A fenced block: where its body starts and ends in the page, its language, its body."""

    start: int
    end: int
    language: str
    body: str


def block_after(text: str, at: int) -> Block:
    """The first fenced block after position `at`."""
    opening = _FENCE.search(text, at)
    assert opening is not None, f"no code block after {text[at : at + 60]!r}"
    fence = opening.group(1)
    closing = text.index(f"\n{fence}\n", opening.end() - 1)
    return Block(opening.end(), closing + 1, opening.group(2), text[opening.end() : closing + 1])


@dataclass(frozen=True)
class Step:
    """One thing a reader does or reads: `file`, `run` or `excerpt`, with its block."""

    kind: str
    argument: str
    block: Block


_STEP = re.compile(r"^<!-- (file|run|excerpt)(?:: (.+?))? -->$", re.M)


def steps(text: str) -> list[Step]:
    """The page's files, commands and excerpts, in the order a reader meets them."""
    return [Step(m.group(1), m.group(2) or "", block_after(text, m.end())) for m in _STEP.finditer(text)]


def sessions(body: str) -> list[tuple[str, str]]:
    """[(command, what it prints)] of a ```console block (`$ command` lines, then the output)."""
    parts = re.split(r"^\$ ", body, flags=re.M)
    assert parts[0] == "", f"a console block starts with `$ `: {body[:60]!r}"
    found = []
    for part in parts[1:]:
        command, _, output = part.partition("\n")
        found.append((command, output))
    return found


@dataclass(frozen=True)
class Ran:
    """A command as the reader ran it: its words, exit code and what it printed."""

    command: str
    exit_code: int
    output: str


def run(command: str, folder: Path) -> Ran:
    """`whistdsl ...` typed in `folder`, at a terminal COLUMNS wide that is not a tty."""
    args = shlex.split(command)
    assert args[0] == PROGRAM, f"only {PROGRAM} commands run in pages: {command}"
    with inside(folder):
        result = runner.invoke(
            app, args[1:], prog_name=PROGRAM, terminal_width=COLUMNS, env={"COLUMNS": str(COLUMNS), "NO_COLOR": "1", "FORCE_COLOR": None}
        )
    assert result.exception is None or isinstance(result.exception, SystemExit), f"{command}: {result.exception!r}\n{result.output}"
    return Ran(command, result.exit_code, result.output)


@contextlib.contextmanager
def inside(folder: Path) -> Iterator[None]:
    old = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(old)


@dataclass(frozen=True)
class Followed:
    """A page followed from the top: every command's run, by its step, and the folder left."""

    ran: dict[int, list[Ran]]
    excerpts: dict[int, Ran]
    folder: Path


def follow(text: str, folder: Path) -> Followed:
    """Do what the page says in `folder` (empty): write its files, run its commands and excerpts."""
    ran: dict[int, list[Ran]] = {}
    excerpts: dict[int, Ran] = {}
    for number, step in enumerate(steps(text)):
        if step.kind == "file":
            target = folder / step.argument
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(with_snippets(step.block.body), encoding="utf-8")
        elif step.kind == "run":
            ran[number] = [run(command, folder) for command, _ in sessions(step.block.body)]
        else:
            excerpts[number] = run(step.argument, folder)
    return Followed(ran, excerpts, folder)


def console(ran: list[Ran]) -> str:
    """A ```console block's body: each command, then what it printed."""
    return "".join(f"$ {r.command}\n{r.output.rstrip()}\n" if r.output.strip() else f"$ {r.command}\n" for r in ran)


def with_outputs(text: str) -> str:
    """The page with every `<!-- run -->` block's outputs as the commands print them now."""
    with tempfile.TemporaryDirectory(prefix="whistdsl-docs-") as folder:
        followed = follow(text, Path(folder))
    todo = steps(text)
    for number in sorted(followed.ran, reverse=True):  # from the end, so earlier positions hold
        block = todo[number].block
        text = text[: block.start] + console(followed.ran[number]) + text[block.end :]
    return text


def excerpt_missing(excerpt: str, output: str) -> str | None:
    """None when `excerpt` is in `output`: its runs of lines between `...` lines each a run of
    whole lines of the output, in order. Else the first run that is not."""
    printed = [line.rstrip() for line in output.splitlines()]
    runs: list[list[str]] = [[]]
    for line in excerpt.rstrip("\n").splitlines():
        if line == "...":
            runs.append([])
        else:
            runs[-1].append(line.rstrip())
    at = 0
    for lines in filter(None, runs):
        found = next((i for i in range(at, len(printed) - len(lines) + 1) if printed[i : i + len(lines)] == lines), None)
        if found is None:
            return "\n".join(lines)
        at = found + len(lines)
    return None


# ---------------------------------------------------------------- the parts made from the code

REFERENCE_PAGE = DOCS / "expressions.md"
REFERENCE_START, REFERENCE_END = "<!-- reference:start -->", "<!-- reference:end -->"
CODES_PAGE = DOCS / "findings" / "index.md"
CODES_START, CODES_END = "<!-- codes:start -->", "<!-- codes:end -->"
CODES_HEADER = "| code | severity | what it finds | example | write instead |\n|---|---|---|---|---|\n"
#: A finding code's page may show a whole ruleset that gets it: docs/examples/findings/CODE.yaml.
CODE_EXAMPLES = EXAMPLES / "findings"
_HELP = re.compile(r"^<!-- help: (\S+) -->$", re.M)
_HEADING = re.compile(r"^#{1,6} (.+?)(?: \{[^}]*\})?$", re.M)


def between(text: str, start: str, end: str, block: str) -> str:
    """`text` with what is between the markers `start` and `end` replaced by `block`."""
    at, stop = text.index(start) + len(start), text.index(end)
    return f"{text[:at]}\n{block.strip()}\n{text[stop:]}"


def reference_tables() -> str:
    from whistdsl.language.catalogue import reference_markdown

    return reference_markdown()


def command_help(*args: str) -> str:
    """`whistdsl ARGS --help` as a terminal HELP_WIDTH columns wide shows it."""
    result = runner.invoke(
        app, [*args, "--help"], prog_name=PROGRAM, terminal_width=HELP_WIDTH, env={"COLUMNS": str(HELP_WIDTH), "FORCE_COLOR": None}
    )
    assert result.exit_code == 0, result.output
    return result.output.rstrip() + "\n"


def helped_commands(text: str) -> list[str]:
    """The commands whose --help the page shows (`<!-- help: NAME -->`; `whistdsl` for the top)."""
    return _HELP.findall(text)


def with_help(text: str) -> str:
    """The page with each `<!-- help: NAME -->` block as `whistdsl NAME --help` prints it now."""
    for match in reversed(list(_HELP.finditer(text))):
        name = match.group(1)
        args = () if name == PROGRAM else (name,)
        block = block_after(text, match.end())
        body = f"$ {' '.join((PROGRAM, *args))} --help\n{command_help(*args)}"
        text = text[: block.start] + body + text[block.end :]
    return text


def slug(heading: str) -> str:
    """The anchor the site gives a heading (Python-Markdown's toc slugify)."""
    text = re.sub(r"[`*]", "", heading).strip().lower()
    text = re.sub(r"[^\w\s-]", "", text)
    return re.sub(r"[-\s]+", "-", text).strip("-")


def anchors() -> dict[str, Path]:
    """{anchor: the page whose heading it is}, over the hand-written pages (the first page wins)."""
    found: dict[str, Path] = {}
    for page in pages():
        if page.parent == CODES_PAGE.parent and page != CODES_PAGE:
            continue
        text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
        for heading in _HEADING.findall(text):
            found.setdefault(slug(heading), page)
    return found


def linked(markdown: str, page: Path) -> str:
    """codes.py's Markdown for a page under docs/findings/: each `(#anchor)` link to the page holding it."""
    where = anchors()

    def target(match: re.Match[str]) -> str:
        anchor = match.group(1)
        assert anchor in where, f"codes.py links to #{anchor}, a heading no page has"
        return f"]({os.path.relpath(where[anchor], page.parent).replace(os.sep, '/')}#{anchor})"

    return re.sub(r"\]\(#([\w-]+)\)", target, markdown)


def codes_table() -> str:
    """The index of finding codes, from the one table of codes (diagnostics/codes.py)."""
    from whistdsl.diagnostics.codes import DOCS as CODES
    from whistdsl.diagnostics.codes import WARNINGS

    rows = "".join(
        f"| [{code}]({code}.md) | {'warning' if code in WARNINGS else 'error'} | {d.finds} | {d.example} | {d.write_instead} |\n"
        for code, d in CODES.items()
    )
    return linked(CODES_HEADER + rows, CODES_PAGE)


def code_page(code: str) -> str:
    """The page of one finding code: what it means, an example, the fix (as ruff's rule pages)."""
    from whistdsl.diagnostics.codes import DOCS as CODES
    from whistdsl.diagnostics.codes import WARNINGS

    doc = CODES[code]
    page = CODES_PAGE.parent / f"{code}.md"
    if code in WARNINGS:
        severity = (
            "**A warning.** Lint reports it and still passes (exit 0), and the ruleset plays. A ruleset "
            f"may silence it in itself: `lint: {{ignore: [{code}]}}`."
        )
    else:
        severity = (
            "**An error.** Lint fails (exit 1), and the ruleset cannot be played until it is fixed. "
            f"`--ignore {code}` hides it from a report, nothing more."
        )
    parts = [
        "<!-- Made from whistdsl/diagnostics/codes.py by `python tests/test_docs.py`: edit codes.py, not this page. -->",
        f"# {code}: {doc.summary}",
        "",
        severity,
        "",
        "## What it finds",
        "",
        doc.finds[0].upper() + doc.finds[1:] + ".",
        "",
        "## Example",
        "",
        doc.example[0].upper() + doc.example[1:] if not doc.example.startswith("`") else doc.example,
        "",
    ]
    example = CODE_EXAMPLES / f"{code}.yaml"
    if example.is_file():
        name = example.name
        parts += [
            "A whole ruleset that gets it:",
            "",
            f"<!-- file: {name} -->",
            "```yaml",
            f'--8<-- "{example.relative_to(ROOT).as_posix()}"',
            "```",
            "",
            "<!-- run -->",
            "```console",
            f"$ whistdsl lint {name}",
            "```",
            "",
        ]
    parts += [
        "## Write instead",
        "",
        doc.write_instead[0].upper() + doc.write_instead[1:] if not doc.write_instead.startswith("`") else doc.write_instead,
        "",
        "## At the terminal",
        "",
        f"`whistdsl lint --explain {code}` prints this; `--select {code}` shows only these findings. [Every code](index.md).",
        "",
    ]
    return with_outputs(linked("\n".join(parts), page))


def code_pages() -> list[Path]:
    """The pages of finding codes that are made whole (docs/findings/W*.md), one a code."""
    from whistdsl.diagnostics.codes import DOCS as CODES

    return [CODES_PAGE.parent / f"{code}.md" for code in CODES]


def written_pages() -> list[Path]:
    """The pages written by hand (with generated parts in some): every page but the codes'."""
    return [p for p in pages() if not (p.parent == CODES_PAGE.parent and p != CODES_PAGE)]


def as_generated(page: Path) -> str:
    """The page as it should read now: its generated parts (or, for a code's page, all of it)
    made from the code and the commands as they are."""
    if page.parent == CODES_PAGE.parent and page != CODES_PAGE:
        return code_page(page.stem)
    text = with_help(with_outputs(page.read_text(encoding="utf-8")))
    if REFERENCE_START in text:
        text = between(text, REFERENCE_START, REFERENCE_END, reference_tables())
    if CODES_START in text:
        text = between(text, CODES_START, CODES_END, codes_table())
    return text


def stale_code_pages() -> list[Path]:
    """Finding-code pages of codes that are no longer."""
    from whistdsl.diagnostics.codes import DOCS as CODES

    return sorted(p for p in CODES_PAGE.parent.glob("W*.md") if p.stem not in CODES)


def regenerate() -> list[Path]:
    """Write every generated part as it should read now; the files that changed."""
    changed = []
    for path in [*written_pages(), *code_pages()]:
        text = as_generated(path)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed.append(path)
    for path in stale_code_pages():
        path.unlink()
        changed.append(path)
    return changed


def table_after(page: Path, marker: str) -> list[list[str]]:
    """The rows (cells stripped) of the Markdown table right after the line `marker` in `page`,
    the header excepted."""
    text = page.read_text(encoding="utf-8")
    rows = []
    for line in text[text.index(marker) :].splitlines()[1:]:
        if not line.startswith("|"):
            if rows:
                break
            continue
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows[2:]
