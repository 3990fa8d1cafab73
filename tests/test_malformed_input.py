"""`whistdsl lint` on bad input, through the command line: a clear finding, the right exit
code (0 clean, 1 findings, 2 usage), and never a Python traceback. Also the three output
formats (text, json, github).

Most tests use typer's CliRunner on the app; a few run `python -m whistdsl` for real.
A hypothesis test mangles the bundled rulesets and checks that lint only ever reports.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from whistdsl.cli import app
from whistdsl.rules.lint import lint_path

runner = CliRunner()

#: A clean house rule: everything comes from the bundled Serbian ruleset.
CLEAN = "whistdsl: 1\nextends: serbian\nname: Serbian, renamed\n"


def lint(*args: object) -> Result:
    result = runner.invoke(app, ["lint", *(str(a) for a in args)])
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def lint_in_a_process(*args: object, cwd: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "whistdsl", "lint", *(str(a) for a in args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
    )
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


def first_line(result: Result) -> str:
    return result.stdout.splitlines()[0]


# ---------------------------------------------------------------- malformed files


def test_an_empty_file_is_one_finding_saying_it_is_empty(tmp_path: Path) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text("")
    result = lint(path)
    assert result.exit_code == 1
    assert first_line(result) == f"{path}:1:1: W105 file is empty: a ruleset is a YAML mapping"


def test_binary_garbage_is_refused_as_binary(tmp_path: Path) -> None:
    path = tmp_path / "garbage.yaml"
    path.write_bytes(bytes(range(256)) * 16)
    result = lint(path)
    assert result.exit_code == 1
    assert first_line(result) == f"{path}:1:1: W100 file is binary (it holds NUL bytes), not YAML text"


def test_non_utf8_text_is_refused_at_the_first_bad_byte(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("whistdsl: 1\nname: Kartaška igra Preferans à la française\n".encode("cp1250", "replace"))
    # "name: Karta" is 11 characters, so the first non-ASCII byte (š) is column 12 of line 2
    result = lint(path)
    assert result.exit_code == 1
    assert first_line(result).startswith(f"{path}:2:12: W100 file is not UTF-8 text (byte 0x")


BILLION_LAUGHS = """\
whistdsl: 1
a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
"""


def test_a_yaml_alias_bomb_is_refused_at_its_first_anchor(tmp_path: Path) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(BILLION_LAUGHS)
    result = lint(path)
    assert result.exit_code == 1
    assert first_line(result) == f"{path}:2:4: W103 YAML anchor &a is not allowed: write the value out"


def test_five_thousand_nested_parentheses_are_refused_at_the_one_too_deep(tmp_path: Path) -> None:
    path = tmp_path / "parens.yaml"
    path.write_text(CLEAN + "scoring:\n  points: " + "(" * 5000 + "tricks" + ")" * 5000 + "\n")
    # "  points: " is 10 characters, so the 61st `(` is column 71 of line 5
    result = lint(path)
    assert result.exit_code == 1
    assert first_line(result) == f"{path}:5:71: W304 brackets are nested more than 60 levels deep; the limit is 60"


def test_ten_to_the_ten_to_the_ten_is_refused_at_its_outer_power(tmp_path: Path) -> None:
    path = tmp_path / "power.yaml"
    path.write_text(CLEAN + "scoring:\n  points: 10 ^ 10 ^ 10\n")
    # `^` groups to the right: 10 ^ (10 ^ 10); the inner power is fine, the outer one's
    # exponent 10^10 is far outside -64..64. Its operator is column 14.
    result = lint(path)
    assert result.exit_code == 1
    assert first_line(result) == f"{path}:5:14: W305 exponent 10000000000 is outside -64..64"


def test_a_100_mb_file_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as out:
        out.truncate(100 * 1024 * 1024)  # sparse: fast to make, nothing to read
    result = lint(path)
    assert result.exit_code == 1
    assert first_line(result) == f"{path}:1:1: W100 file is larger than 256 KiB; a ruleset is a small text file"


def test_a_missing_path_is_a_usage_error_with_exit_code_2(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.yaml"
    result = lint(missing)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert f"{missing}: no such file or directory" in result.stderr


def test_a_missing_path_among_good_ones_is_still_a_usage_error(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(CLEAN)
    assert lint(good, tmp_path / "nowhere.yaml").exit_code == 2


def test_a_clean_file_exits_0_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "good.yaml"
    path.write_text(CLEAN)
    result = lint(path)
    assert result.exit_code == 0
    assert result.stdout.strip() == "1 ruleset(s) checked: all clean"


def test_a_directory_means_every_yaml_and_yml_file_under_it(tmp_path: Path) -> None:
    (tmp_path / "good.yaml").write_text(CLEAN)
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "typo.yml").write_text(CLEAN + "scoring:\n  points: if made then 10 + trick else 0\n")
    (tmp_path / "notes.txt").write_text("not a ruleset: : :\n")
    result = lint(tmp_path)
    assert result.exit_code == 1
    typo = tmp_path / "house" / "typo.yml"
    assert result.stdout.splitlines()[0] == f"{typo}:5:29: W301 unknown name `trick`"
    assert "help: did you mean `tricks`?" in result.stdout.splitlines()
    assert "good.yaml" not in result.stdout and "notes.txt" not in result.output
    assert "2 ruleset(s) checked: 1 finding(s) in 1 file(s)" in result.stderr


def test_a_directory_of_clean_rulesets_exits_0(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(CLEAN)
    (tmp_path / "b.yml").write_text(CLEAN)
    result = lint(tmp_path)
    assert result.exit_code == 0
    assert "2 ruleset(s) checked: all clean" in result.stdout


def test_the_bundled_rulesets_lint_clean_as_a_directory() -> None:
    rulesets = Path(__file__).resolve().parent.parent / "rulesets"
    result = lint(rulesets)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    "name, content, expected",
    [
        ("empty.yaml", b"", ":1:1: W105 file is empty"),
        ("bomb.yaml", BILLION_LAUGHS.encode(), ":2:4: W103 YAML anchor &a is not allowed"),
        ("garbage.yaml", b"\x00\xff\xfe" * 1000, ":1:1: W100 file is binary"),
    ],
)
def test_python_m_whistdsl_reports_bad_input_without_a_traceback(tmp_path: Path, name: str, content: bytes, expected: str) -> None:
    (tmp_path / name).write_bytes(content)
    done = lint_in_a_process(name, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout.splitlines()[0].startswith(name + expected)
    assert "1 ruleset(s) checked: 1 finding(s) in 1 file(s)" in done.stderr


def test_python_m_whistdsl_refuses_a_100_mb_file_and_a_missing_path(tmp_path: Path) -> None:
    with (tmp_path / "huge.yaml").open("wb") as out:
        out.truncate(100 * 1024 * 1024)
    done = lint_in_a_process("huge.yaml", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout.startswith("huge.yaml:1:1: W100 file is larger than 256 KiB")
    done = lint_in_a_process("missing.yaml", cwd=tmp_path)
    assert done.returncode == 2
    assert "missing.yaml: no such file or directory" in done.stderr


def test_python_m_whistdsl_lints_a_clean_file_with_exit_0(tmp_path: Path) -> None:
    (tmp_path / "good.yaml").write_text(CLEAN)
    done = lint_in_a_process("good.yaml", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


# ---------------------------------------------------------------- output formats

#: One unknown key at line 4, column 3.
TYPO = "whistdsl: 1\nextends: serbian\ndeck:\n  rnaks: [A, K, Q]\n"
TYPO_MESSAGE = "unknown key `rnaks` in deck"
TYPO_HELP = "did you mean `ranks`?"  # a finding's help, apart from its message


@pytest.fixture
def typo(tmp_path: Path) -> Path:
    path = tmp_path / "typo.yaml"
    path.write_text(TYPO)
    return path


def test_text_format_is_path_line_col_code_message_then_the_line_and_a_caret(typo: Path) -> None:
    result = lint(typo)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{typo}:4:3: W200 {TYPO_MESSAGE}",
        "    4 |   rnaks: [A, K, Q]",
        "      |   ^^^^^",  # the whole key underlined (issue 12)
        f"help: {TYPO_HELP}",
    ]
    assert result.stderr.strip() == "1 ruleset(s) checked: 1 finding(s) in 1 file(s)"


def test_text_format_is_the_default_and_can_be_asked_for(typo: Path) -> None:
    assert lint("--format", "text", typo).stdout == lint(typo).stdout


def test_json_format_is_a_list_of_findings_with_the_ten_keys(typo: Path) -> None:
    result = lint("--format", "json", typo)
    assert result.exit_code == 1
    assert json.loads(result.stdout) == [  # the end: just after the key `rnaks` (as ruff's end_location)
        {
            "path": str(typo),
            "line": 4,
            "column": 3,
            "code": "W200",
            "severity": "error",
            "message": TYPO_MESSAGE,
            "end_line": 4,
            "end_column": 8,
            "help": TYPO_HELP,
            "url": "docs/findings/W200.md",
        }  # the url: the code's page (codes.py)
    ]


def test_json_format_of_a_clean_file_is_an_empty_list_and_exit_0(tmp_path: Path) -> None:
    path = tmp_path / "good.yaml"
    path.write_text(CLEAN)
    result = lint("--format", "json", path)
    assert result.exit_code == 0
    assert json.loads(result.stdout) == []


def test_json_format_holds_the_findings_of_every_file(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(TYPO)
    (tmp_path / "b.yaml").write_text("")
    result = lint("--format", "json", tmp_path)
    assert result.exit_code == 1
    found = [(Path(f["path"]).name, f["line"], f["column"], f["code"]) for f in json.loads(result.stdout)]
    assert found == [("a.yaml", 4, 3, "W200"), ("b.yaml", 1, 1, "W105")]


def test_github_format_is_one_error_annotation_per_finding(typo: Path) -> None:
    result = lint("--format", "github", typo)
    assert result.exit_code == 1
    (line,) = result.stdout.splitlines()
    m = re.fullmatch(
        r"::error file=(?P<file>[^,]*),line=(?P<line>\d+),col=(?P<col>\d+),endLine=(?P<end_line>\d+),endColumn=(?P<end_col>\d+)"
        r"(?:,title=W200)?::(?P<message>.*)",
        line,
    )
    assert m, line
    assert (m["file"], m["line"], m["col"], m["end_line"], m["end_col"]) == (str(typo), "4", "3", "4", "8")
    assert m["message"] == f"W200 {TYPO_MESSAGE}%0Ahelp: {TYPO_HELP}%0Asee: docs/findings/W200.md"  # then the code's page, on a line of its own


def test_github_format_escapes_what_would_end_a_property(tmp_path: Path) -> None:
    odd = tmp_path / "a,b:c.yaml"
    odd.write_text(TYPO)
    result = lint("--format", "github", odd)
    assert result.stdout.startswith(f"::error file={str(tmp_path).replace(':', '%3A').replace(',', '%2C')}/a%2Cb%3Ac.yaml,line=4,col=3")


# ---------------------------------------------------------------- hypothesis: mangled rulesets

ROOT = Path(__file__).resolve().parent.parent
STANDALONE = [
    (ROOT / "rulesets" / "serbian.yaml").read_text(encoding="utf-8"),
    (ROOT / "rulesets" / "romanian.yaml").read_text(encoding="utf-8"),
]
#: Values to put where a value was: right and wrong types, YAML 1.1 traps, bad formulas.
VALUES = [
    "0",
    "-1",
    "13",
    "none",
    "true",
    "no",
    "on",
    "017",
    "1:30",
    "2001-01-01",
    "~",
    "[]",
    "{}",
    "[1, 2]",
    "''",
    '"x"',
    "x",
    "players",
    "13 .. 0",
    "repeat(1, 0)",
    "1/0",
    "bid ==",
    "hearts",
    "zero",
    "highest total",
    "lowest x",
    "10 ^ 10 ^ 10",
    "a: b",
    "{min: 10, max: 2}",
    "7 * players",
    "1.5",
    "&a x",
    "*a",
    "!!str x",
    "|",
    "- x",
    '"unclosed',
    "((1)",
    "tri(bid)",
    "serbian",
    "../x.yaml",
]


@st.composite
def mangled(draw: st.DrawFn) -> str:
    lines = draw(st.sampled_from(STANDALONE)).splitlines()
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["delete", "value", "duplicate", "indent", "text"]))
        if action == "delete" and len(lines) > 1:
            del lines[i]
        elif action == "value" and ":" in lines[i]:
            lines[i] = lines[i].split(":", 1)[0] + ": " + draw(st.sampled_from(VALUES))
        elif action == "duplicate":
            lines.insert(i, lines[draw(st.integers(0, len(lines) - 1))])
        elif action == "indent":
            lines[i] = " " * draw(st.integers(1, 3)) + lines[i]
        else:
            lines.insert(i, draw(st.text(max_size=20)))
    return "\n".join(lines) + "\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=mangled())
def test_a_mangled_ruleset_gets_findings_inside_the_file_never_an_exception(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    path = tmp_path_factory.mktemp("mangled") / "house.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    result = lint_path(path)
    lines = len(text.splitlines()) + 1
    for f in result.findings:
        if f.path == str(path):
            assert 1 <= f.line <= lines and f.column >= 1, f
