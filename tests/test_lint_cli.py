"""`whistdsl lint` as a person meets it (issue 12, item 5): colour at a terminal only, the whole
token or expression underlined, --quiet, --select/--ignore, warnings silenced in the ruleset
itself, --explain CODE from the one table of codes."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import signal
import sys
import time
from pathlib import Path

import cli_runner
import pytest
from typer.testing import CliRunner

from whistdsl.cli import app
from whistdsl.diagnostics.codes import DOCS, WARNINGS
from whistdsl.diagnostics.findings import CODES, Finding, render_text
from whistdsl.resources import bundled_rulesets, schema_path

runner = CliRunner()
# The docs' own example (docs/examples/no-premium-typo.yaml): a typo (W301) and a formula whose two
# branches disagree (W302).
TYPO = """whistdsl: 1
extends: romanian
name: Romanian whist, no premium
scoring:
  points: if made then trick else -diff
bidding:
  allowed: if is_last then bids_so_far + bid != hand_size else 1
"""
UNREAD = """whistdsl: 2
extends: oh-hell
name: Oh Hell with a parameter for later
parameters:
  hook: {type: yes/no, default: true}
"""


def lint(*args: str, cwd: Path, **env: str):
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return runner.invoke(app, ["lint", *args], env=env or None)
    finally:
        os.chdir(old)


def carets(output: str) -> list[str]:
    return [m.group(1) for m in re.finditer(r"\| +(\^+)$", output, re.M)]


def test_the_whole_name_and_the_whole_expression_are_underlined(tmp_path: Path) -> None:
    (tmp_path / "typo.yaml").write_text(TYPO, encoding="utf-8")
    result = lint("typo.yaml", cwd=tmp_path)
    assert result.exit_code == 1
    assert carets(result.output) == ["^" * len("trick"), "^" * len("if is_last then bids_so_far + bid != hand_size else 1")]
    assert "\x1b[" not in result.output  # not a terminal: no colour


@pytest.mark.parametrize(
    "line, column, code, marked",
    [
        ("  points: 10 + trick  # the bonus", 16, "W301", "trick"),
        ("  allowed: dealr.bid > 2", 12, "W309", "dealr.bid"),
        ("players: {min: 3, max: 7, default: seven}", 36, "W202", "seven"),
        ("  view: forhead   # typo", 9, "W203", "forhead"),
        ("  points: max(1, 2) + 3", 14, "W300", "(1, 2)"),
        ("  points: '10 + x'", 11, "W202", "'10 + x'"),
        ("scoreing:", 1, "W200", "scoreing"),
    ],
)
def test_underlines_cover_the_token_or_the_value(line: str, column: int, code: str, marked: str) -> None:
    shown = render_text([Finding("f.yaml", 1, column, code, "m")], {"f.yaml": [line]})
    underline = shown.splitlines()[-1]
    start = underline.index("^")
    assert underline[start:] == "^" * len(marked)
    assert ("    1 | " + line)[start : start + len(marked)] == marked


# A formula whose whole value is of the wrong type, a name error, a part of a formula of the
# wrong type, and a type error over two lines of a block.
SPANS = """whistdsl: 1
extends: romanian
name: Romanian whist, spans
bidding:
  allowed: bid + bids_so_far * hand_size   # a number where yes/no is needed
scoring:
  points: if made then 10 + tricks + (made or made) * 2 else tricks - diff + frob
  bonus: |
    if made then 10 + tricks
    else "ten"
"""


def underlined(output: str) -> list[str]:
    """What each caret line of the report underlines, read from the source line above it."""
    lines = output.splitlines()
    found = []
    for above, below in zip(lines, lines[1:]):
        m = re.search(r"\| +(\^+)$", below)
        if m and re.match(r" +\d+ \| ", above):
            found.append(above[m.start(1) : m.end(1)])
    return found


def test_a_type_error_underlines_its_whole_expression_and_a_name_error_the_name(tmp_path: Path) -> None:
    (tmp_path / "spans.yaml").write_text(SPANS, encoding="utf-8")
    result = lint("spans.yaml", cwd=tmp_path)
    assert result.exit_code == 1
    assert underlined(result.output) == [
        "bid + bids_so_far * hand_size",  # the whole formula gives a number, yes/no is needed
        "made or made",  # the part `*` needs a number of
        "frob",  # an unknown name
        "if made then 10 + tricks",  # over two lines: to the end of the first
    ]


def test_json_and_github_annotations_carry_where_the_text_ends(tmp_path: Path) -> None:
    (tmp_path / "spans.yaml").write_text(SPANS, encoding="utf-8")
    found = json.loads(lint("spans.yaml", "--format", "json", cwd=tmp_path).stdout)
    at = {(f["line"], f["column"]): (f["end_line"], f["end_column"]) for f in found}
    # line 5 `  allowed: bid + ...`: the formula at column 12, 29 characters; `frob` at 7:78
    assert at[(5, 12)] == (5, 12 + len("bid + bids_so_far * hand_size"))
    assert at[(7, 78)] == (7, 82)
    assert at[(9, 5)] == (10, 15)  # the conditional ends after `"ten"` on the line below
    github = lint("spans.yaml", "--format", "github", cwd=tmp_path).stdout
    assert ",line=5,col=12,endLine=5,endColumn=41," in github
    assert ",line=7,col=78,endLine=7,endColumn=82," in github


def test_colour_only_when_asked_and_never_with_no_color() -> None:
    finding = [Finding("f.yaml", 1, 11, "W301", "unknown name"), Finding("f.yaml", 1, 1, "W209", "unread", "warning")]
    plain = render_text(finding, {"f.yaml": ["  points: trick"]})
    coloured = render_text(finding, {"f.yaml": ["  points: trick"]}, colour=True)
    assert "\x1b[" not in plain and "\x1b[1;31mW301\x1b[0m" in coloured and "\x1b[1;33mW209\x1b[0m" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


def _at_a_terminal(args: list[str], cwd: Path, **env: str) -> str:
    """`whistdsl ARGS` in a pseudo-terminal, all it prints (it ends by itself)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(cwd)
        environment = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
        environment.update(env, TERM="xterm", WHISTDSL_NO_CACHE="1")
        os.execve(sys.executable, [sys.executable, "-m", "whistdsl", *args], environment)
    out = b""
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            if select.select([fd], [], [], 0.5)[0]:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
        os.waitpid(pid, 0)
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.close(fd)
    return out.decode("utf-8", "replace")


def test_lint_at_a_terminal_is_in_colour_unless_no_color(tmp_path: Path) -> None:
    (tmp_path / "typo.yaml").write_text(TYPO, encoding="utf-8")
    coloured = _at_a_terminal(["lint", "typo.yaml"], tmp_path)  # answered without typer (cli/__init__.py)
    assert "\x1b[1;31mW301\x1b[0m" in coloured and "^^^^^" in coloured
    through_typer = _at_a_terminal(["lint", "--quiet", "typo.yaml"], tmp_path)
    assert "\x1b[1;31mW302\x1b[0m" in through_typer and "ruleset(s) checked" not in through_typer
    plain = _at_a_terminal(["lint", "typo.yaml"], tmp_path, NO_COLOR="1")
    assert "W301" in plain and "\x1b[1" not in plain


def test_select_and_ignore_choose_the_findings_and_the_exit_code(tmp_path: Path) -> None:
    (tmp_path / "typo.yaml").write_text(TYPO, encoding="utf-8")
    only = lint("typo.yaml", "--select", "W301", cwd=tmp_path)
    assert only.exit_code == 1 and "W301" in only.output and "W302" not in only.output
    assert "(1 not shown: --select/--ignore)" in only.output
    prefix = lint("typo.yaml", "--select", "w3", "--ignore", "W302", cwd=tmp_path)
    assert "W301" in prefix.output and "W302" not in prefix.output
    none = lint("typo.yaml", "--ignore", "W301,W302", cwd=tmp_path)
    assert none.exit_code == 0 and "W30" not in none.output.replace("W301,W302", "")
    as_json = lint("typo.yaml", "--ignore", "W302", "--format", "json", cwd=tmp_path)
    assert [f["code"] for f in json.loads(as_json.stdout)] == ["W301"]
    wrong = lint("typo.yaml", "--select", "W999", cwd=tmp_path)
    assert wrong.exit_code == 2 and "--select W999: no finding code" in wrong.output


def test_quiet_prints_the_findings_and_nothing_else(tmp_path: Path) -> None:
    (tmp_path / "typo.yaml").write_text(TYPO, encoding="utf-8")
    (tmp_path / "fine.yaml").write_text("whistdsl: 1\nextends: romanian\nname: Romanian whist again\n", encoding="utf-8")
    quiet = lint("--quiet", "typo.yaml", cwd=tmp_path)
    assert quiet.exit_code == 1 and "W301" in quiet.output and "checked" not in quiet.output
    clean = lint("-q", "fine.yaml", cwd=tmp_path)
    assert clean.exit_code == 0 and clean.output == ""


def test_a_ruleset_silences_its_own_warnings_but_not_errors(tmp_path: Path) -> None:
    (tmp_path / "unread.yaml").write_text(UNREAD, encoding="utf-8")
    (tmp_path / "silenced.yaml").write_text(UNREAD + "lint:\n  ignore: [W209]\n", encoding="utf-8")
    (tmp_path / "error.yaml").write_text(UNREAD + "lint:\n  ignore: [W209, W404]\n", encoding="utf-8")
    (tmp_path / "child.yaml").write_text("whistdsl: 2\nextends: silenced.yaml\nname: a child\n", encoding="utf-8")
    assert "W209 warning" in lint("unread.yaml", cwd=tmp_path).output
    for name in ("silenced.yaml", "child.yaml"):  # merged through extends: like every key
        result = lint(name, cwd=tmp_path)
        assert result.exit_code == 0 and "W209" not in result.output and "all clean" in result.output
    refused = lint("error.yaml", cwd=tmp_path)
    assert refused.exit_code == 1 and "W203" in refused.output and "W404" in refused.output


def test_the_schema_knows_the_lint_key_and_lists_the_warnings() -> None:
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    assert schema["properties"]["lint"]["properties"]["ignore"]["items"]["enum"] == sorted(WARNINGS)


def test_explain_says_a_code_from_the_one_table(tmp_path: Path) -> None:
    result = lint("--explain", "w404", cwd=tmp_path)
    assert result.exit_code == 0
    doc = DOCS["W404"]
    assert result.output.startswith(f"W404: {CODES['W404']}\n")
    assert doc.example in result.output and doc.write_instead in result.output and "It is an error" in result.output
    warning = lint("--explain", "W209", cwd=tmp_path)
    assert "It is a warning" in warning.output and "ignore: [W209]" in warning.output
    every = lint("--explain", "all", cwd=tmp_path)
    assert [line.split()[0] for line in every.output.splitlines()] == list(DOCS)
    unknown = lint("--explain", "W4044", cwd=tmp_path)
    assert unknown.exit_code == 2 and "did you mean W404?" in unknown.output
    assert lint("--explain", "W404", "x.yaml", cwd=tmp_path).exit_code == 2
    assert lint(cwd=tmp_path).exit_code == 2


def test_cached_results_are_filtered_after_the_cache(tmp_path: Path) -> None:
    """--select/--ignore/--quiet/colour act on the result after the per-user cache: a second run
    with other options says what a first run without the cache says."""
    (tmp_path / "typo.yaml").write_text(TYPO, encoding="utf-8")
    cache = tmp_path / "cache"
    first = lint("typo.yaml", "--ignore", "W302", cwd=tmp_path, WHISTDSL_CACHE_DIR=str(cache))
    second = lint("typo.yaml", cwd=tmp_path, WHISTDSL_CACHE_DIR=str(cache))
    fresh = lint("typo.yaml", cwd=tmp_path, WHISTDSL_NO_CACHE="1")
    assert list(cache.rglob("*.json")), "the first run kept its result"
    assert "W302" not in first.output and second.output == fresh.output and "W302" in second.output


# ---------------------------------------------------------------- a path mistyped


def test_a_mistyped_path_gets_a_did_you_mean_as_play_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "house-rules.yaml").write_text("whistdsl: 1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    beside = runner.invoke(app, ["lint", "house-ruels.yaml"])
    assert beside.exit_code == 2
    assert "house-ruels.yaml: no such file or directory; did you mean house-rules.yaml?" in beside.stderr
    deeper = runner.invoke(app, ["lint", str(tmp_path / "house-rule.yaml")])
    assert f"did you mean {tmp_path / 'house-rules.yaml'}?" in deeper.stderr
    bundled_name = runner.invoke(app, ["lint", "serbain"])  # a bundled ruleset's name, mistyped
    assert bundled_name.exit_code == 2 and "serbain: no such file or directory; did you mean `serbian` (a bundled ruleset)?" in bundled_name.stderr
    far = runner.invoke(app, ["lint", "nothing-like-it.yaml"])
    assert far.exit_code == 2 and "did you mean" not in far.stderr and "bundled" not in far.stderr


# ---------------------------------------------------------------- bundled rulesets by name


def test_lint_takes_a_bundled_ruleset_s_name_and_says_which_file_it_linted(tmp_path: Path) -> None:
    done = lint("serbian", "scoring/get-fred.yaml", cwd=tmp_path)
    assert done.exit_code == 0, done.output
    bundled = bundled_rulesets()
    assert done.stdout.splitlines() == [
        f"serbian: the bundled ruleset {bundled['serbian']}",  # outside the working folder: its whole path
        f"scoring/get-fred: the bundled ruleset {bundled['scoring/get-fred']}",
        "2 ruleset(s) checked: all clean",
    ]
    beside = lint("serbian", cwd=Path(__file__).resolve().parent.parent)  # in the checkout, below the working folder: the path from there
    assert beside.stdout.splitlines()[0] == "serbian: the bundled ruleset rulesets/serbian.yaml"
    assert lint("serbian", "--quiet", cwd=tmp_path).stdout == "" and lint("serbian", "--format", "json", cwd=tmp_path).stdout.strip() == "[]"
    # `whistdsl lint NAME` with no options is answered without typer (cli/__init__.py): the same
    fast = cli_runner.whistdsl("lint", "serbian", "scoring/get-fred.yaml", cwd=tmp_path, text=True)
    assert (fast.returncode, fast.stdout) == (0, done.stdout)


def test_a_path_that_exists_wins_over_a_bundled_ruleset_s_name(tmp_path: Path) -> None:
    (tmp_path / "serbian").mkdir()
    (tmp_path / "serbian" / "house.yaml").write_text(TYPO, encoding="utf-8")
    done = lint("serbian", cwd=tmp_path)
    assert done.exit_code == 1 and "serbian/house.yaml:" in done.stdout and "bundled" not in done.output


def test_a_setting_that_does_not_fit_a_bundled_ruleset_named_by_name_says_its_file(tmp_path: Path) -> None:
    done = lint("serbian", "--set", "nosuch=1", cwd=tmp_path)
    assert done.exit_code == 2 and f"{bundled_rulesets()['serbian']}: --set nosuch=1" in done.stderr


@pytest.mark.parametrize(
    "text, context, marked",
    [
        ("(bid > 1) * 2", "scoring", "bid > 1"),  # the part `*` needs a number of
        ("1 + (made == made)", "scoring", "made == made"),  # a side of `+`, a comparison
        ("bid + tricks * 2", "bidding", "tricks"),  # a name not known there: the name alone
        ("if made then 1 else made", "scoring", "if made then 1 else made"),  # the branches disagree
    ],
)
def test_the_span_of_an_expression_problem_is_the_text_it_is_about(text: str, context: str, marked: str) -> None:
    from whistdsl.language.catalogue import CONTEXTS
    from whistdsl.language.checker import check
    from whistdsl.language.errors import ExprError
    from whistdsl.language.parser import parse

    with pytest.raises(ExprError) as raised:
        check(parse(text), CONTEXTS[context])
    (problem,) = raised.value.problems
    assert problem.line == problem.end_line == 1
    assert text[problem.column - 1 : problem.end_column - 1] == marked
