"""The documentation site (docs/, mkdocs.yml) says what the code does: its generated parts are
the ones the code makes now, its examples lint and play, every output it shows is what the
command prints, the limits it states are the code's, and it builds with `mkdocs build --strict`.

Run this file as a script to regenerate every generated part of the docs (the language's
reference tables, each command's --help, the finding codes' index and pages, the outputs of the
commands the pages show):

    python tests/test_docs.py
"""

from __future__ import annotations

import contextlib
import html
import io
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import click
import docs_pages
import pytest
import typer.main
from docs_pages import DOCS, EXAMPLES, ROOT, table_after

from whistdsl.cli import app
from whistdsl.diagnostics.findings import CODES
from whistdsl.language import limits as formula_limits
from whistdsl.resources import schema_path
from whistdsl.rules import load
from whistdsl.rules.ruleset import MAX_HANDS

PAGES = docs_pages.pages()
WRITTEN = docs_pages.written_pages()


def page_id(page: Path) -> str:
    return page.relative_to(DOCS).as_posix()


# ---------------------------------------------------------------- generated parts


@pytest.mark.parametrize("page", [*WRITTEN, *docs_pages.code_pages()], ids=page_id)
def test_the_generated_parts_of_each_page_are_what_the_code_makes_now(page: Path) -> None:
    """Reference tables, --help, the codes and every `<!-- run -->` block's outputs."""
    assert page.is_file(), f"{page_id(page)} is missing: python tests/test_docs.py writes it"
    assert page.read_text(encoding="utf-8") == docs_pages.as_generated(page), "regenerate: python tests/test_docs.py"


def test_no_page_is_left_of_a_finding_code_that_is_gone() -> None:
    assert docs_pages.stale_code_pages() == [], "python tests/test_docs.py removes them"


def test_whistdsl_reference_prints_the_tables_the_docs_hold() -> None:
    ran = docs_pages.run("whistdsl reference --markdown", ROOT)
    assert ran.exit_code == 0
    assert ran.output.strip() == docs_pages.reference_tables().strip()
    text = docs_pages.REFERENCE_PAGE.read_text(encoding="utf-8")
    assert docs_pages.reference_tables().strip() in text


def test_every_command_has_its_help_on_exactly_one_page() -> None:
    group = typer.main.get_command(app)
    commands = group.list_commands(click.Context(group))  # type: ignore[attr-defined]
    shown = [name for page in WRITTEN for name in docs_pages.helped_commands(page.read_text(encoding="utf-8"))]
    assert sorted(shown) == sorted([docs_pages.PROGRAM, *commands]), "add `<!-- help: NAME -->` to the command's page"


def test_every_finding_code_has_a_row_and_a_page_and_nothing_else_does() -> None:
    rows = table_after(docs_pages.CODES_PAGE, docs_pages.CODES_START)
    assert [re.match(r"\[(W\d+)\]", row[0]).group(1) for row in rows] == list(CODES)  # type: ignore[union-attr]
    assert all(len(row) == 5 and all(row) for row in rows), "each code: severity, what it finds, example, fix"
    assert sorted(p.stem for p in docs_pages.CODES_PAGE.parent.glob("W*.md")) == sorted(CODES)


def test_a_code_page_says_what_lint_explain_says() -> None:
    """The page and `whistdsl lint --explain` come from the same entry of codes.py."""
    from whistdsl.diagnostics.codes import DOCS as ENTRIES

    for code in ("W301", "W404", "W407"):
        page = (docs_pages.CODES_PAGE.parent / f"{code}.md").read_text(encoding="utf-8")
        explained = docs_pages.run(f"whistdsl lint --explain {code}", ROOT)
        assert explained.exit_code == 0
        assert f"# {code}: {ENTRIES[code].summary}" in page and ENTRIES[code].summary in explained.output
        for part in (ENTRIES[code].finds[1:], ENTRIES[code].write_instead[1:]):
            assert part in page and part in explained.output


# ---------------------------------------------------------------- what the pages show


@pytest.mark.parametrize("page", [p for p in WRITTEN if docs_pages.steps(p.read_text(encoding="utf-8"))], ids=page_id)
def test_each_excerpt_is_what_its_command_prints_where_the_page_runs_it(page: Path, tmp_path: Path) -> None:
    text = page.read_text(encoding="utf-8")
    followed = docs_pages.follow(text, tmp_path)
    todo = docs_pages.steps(text)
    for number, ran in followed.excerpts.items():
        assert ran.exit_code == 0, f"{ran.command}:\n{ran.output}"
        missing = docs_pages.excerpt_missing(todo[number].block.body, ran.output)
        assert missing is None, f"{page_id(page)}: `{ran.command}` does not print:\n{missing}"


def example_files() -> list[Path]:
    return sorted(EXAMPLES.rglob("*.yaml"))


def shown_files() -> set[Path]:
    """The example files some page includes (`--8<-- "docs/examples/..."`)."""
    included = set()
    for page in PAGES:
        included |= {ROOT / name for name in re.findall(r'^--8<-- "(docs/examples/[^"]+)"$', page.read_text(encoding="utf-8"), re.M)}
    return included


def test_every_picture_is_small_and_shown_on_a_page() -> None:
    pictures = sorted((DOCS / "images").glob("*.png"))
    assert pictures
    text = "".join(page.read_text(encoding="utf-8") for page in PAGES)
    for picture in pictures:
        assert picture.stat().st_size < 150 * 1024, f"{picture.name} is {picture.stat().st_size // 1024} KiB"
        assert f"images/{picture.name})" in text, f"{picture.name} is shown on no page"


def test_every_example_file_is_shown_on_a_page_and_every_page_shows_files_that_exist() -> None:
    assert shown_files() == set(example_files())


def shown_with_findings() -> set[Path]:
    """The example files a page lints and shows findings of: the file a page's `<!-- file: NAME -->`
    wrote last, when a later `whistdsl lint NAME` of the page finds something."""
    shown = set()
    for page in PAGES:
        written: dict[str, Path] = {}
        for step in docs_pages.steps(page.read_text(encoding="utf-8")):
            included = re.findall(r'^--8<-- "(docs/examples/[^"]+)"$', step.block.body, re.M)
            if step.kind == "file" and included:
                written[step.argument] = ROOT / included[0]
            for command, output in docs_pages.sessions(step.block.body) if step.kind == "run" else []:
                name = command.split()[-1]
                if command.startswith("whistdsl lint ") and name in written and f"{name}:" in output:
                    shown.add(written[name])
    return shown


@pytest.mark.parametrize("example", example_files(), ids=lambda p: p.relative_to(EXAMPLES).as_posix())
def test_each_example_lints_clean_and_plays_or_a_page_shows_its_findings(example: Path, tmp_path: Path) -> None:
    """A clean example plays a whole game; one with findings is shown linted, with exactly
    what lint prints (the pages' outputs are checked above): a tutorial's mistake, a code's example."""
    from whistdsl import load_rules
    from whistdsl.engine import Game
    from whistdsl.players import BOTS, play_out

    (tmp_path / example.name).write_bytes(example.read_bytes())
    ran = docs_pages.run(f"whistdsl lint {example.name}", tmp_path)
    if "all clean" not in ran.output:
        assert example in shown_with_findings(), f"{example.name} has findings no page shows:\n{ran.output}"
        return
    rules = load_rules(tmp_path / example.name)
    game = Game(rules, players=rules.players_default, seed=1)
    play_out(game, [BOTS["heuristic"]() for _ in range(rules.players_default)])
    assert game.over and game.result is not None


def test_the_python_api_example_runs() -> None:
    text = (DOCS / "python-api.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)  # type: ignore[union-attr]
    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, "docs/python-api.md", "exec"), namespace)
    game = namespace["game"]
    assert game.over and game.result is not None and len(game.history) == 24


def test_the_play_page_lists_exactly_the_options_of_whistdsl_play() -> None:
    rows = table_after(DOCS / "commands" / "play.md", "<!-- play-options -->")
    documented = {row[0].split("`")[1].split()[0] for row in rows}
    command = typer.main.get_command(app).commands["play"]  # type: ignore[attr-defined]
    assert documented == {opt for p in command.params for opt in p.opts if opt.startswith("--")}


# ---------------------------------------------------------------- stated facts


def test_the_limits_stated_are_the_ones_the_code_enforces() -> None:
    power = round(math.log10(formula_limits.MAX_NUMBER))
    assert 10**power == formula_limits.MAX_NUMBER
    limits = {row[0]: row[1] for row in table_after(DOCS / "expressions.md", "<!-- limits -->")}
    expected = {
        "length of one formula": [f"{formula_limits.MAX_LENGTH} characters"],
        "nesting": [f"{formula_limits.MAX_DEPTH} levels"],
        "size of numbers": [f"10^{power}"],
        "exponents": [f"-{formula_limits.MAX_EXPONENT}..{formula_limits.MAX_EXPONENT}", f"10^{power}"],
        "lists": [f"{formula_limits.MAX_LIST} numbers"],
        "schedule": [f"{MAX_HANDS} hands"],
        "ruleset files": [f"{load.MAX_FILE_BYTES // 1024} KiB", f"{load.MAX_EXTENDS_DEPTH} files", f"{load.MAX_YAML_DEPTH} levels"],
    }
    assert set(limits) == set(expected)
    for row, phrases in expected.items():
        for phrase in phrases:
            assert phrase in limits[row], f"limit '{row}' should say {phrase!r}: {limits[row]!r}"


def _words(text: str) -> str:
    return " ".join(text.replace(">", " ").split())


def test_the_format_page_states_the_extends_merge_rule_of_load_merge_and_the_schema() -> None:
    docstring = load.merge.__doc__ or ""
    rule = _words(docstring.split("The rule, also stated in docs/format.md and the schema:", 1)[1])
    page = (DOCS / "format.md").read_text(encoding="utf-8")
    assert _words(page.split("<!-- merge-rule -->", 1)[1].strip().split("\n\n", 1)[0]) == rule
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    for phrase in ("merge key by key, recursively", "replaces the base's value whole", "null removes"):
        assert phrase in schema["description"]


# ---------------------------------------------------------------- the site


def test_the_site_builds_with_strict_checks_and_no_network(tmp_path: Path) -> None:
    """Every page, link and #anchor resolves and every snippet file exists (`strict` and
    `validation` in mkdocs.yml); nothing is fetched (no plugin that does, no web fonts)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    site = tmp_path / "site"
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    for page in PAGES:
        built = site / page.relative_to(DOCS).with_suffix("") / "index.html"
        if page.name == "index.md":
            built = site / page.relative_to(DOCS).parent / "index.html"
        assert built.is_file(), f"{page_id(page)} was not built"
    tutorial = (site / "tutorial" / "wizard" / "index.html").read_text(encoding="utf-8")
    shown = html.unescape(re.sub(r"<[^>]+>", "", tutorial))
    assert "winner: [first wizard, highest trump, highest led, first jester]" in shown, "the snippets are included"
    assert "--8<--" not in shown
    assert "fonts.googleapis.com" not in tutorial


if __name__ == "__main__":
    changed = docs_pages.regenerate()
    for path in changed:
        print(f"wrote {path.relative_to(ROOT)}")
    print(f"{len(changed)} file(s) regenerated" if changed else "the docs are up to date")
