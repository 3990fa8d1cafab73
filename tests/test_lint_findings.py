"""Every finding kind of `whistdsl lint`, each triggered by a small file in tests/lint_cases/.

A case file states what lint must report in its leading comments, one finding a line:

    # expect: LINE:COL CODE words the message must contain
    # expect: LINE:COL CODE words help: words its help must contain   (what to write, e.g. a did-you-mean)
    # expect: bases/other.yaml:LINE:COL CODE words   (a finding in a file the case extends)
    # expect: clean                                   (no findings at all)

Findings are compared exactly on file, line, column and code: nothing missing, nothing extra.
Files in lint_cases/bases/ are not cases; cases extend them. The file-level W100 cases
(binary, not UTF-8, too large) and a few byte-level ones are written to tmp_path below.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from whistdsl.diagnostics.findings import CODES, WARNINGS, Finding
from whistdsl.rules.lint import lint_path
from whistdsl.rules.load import MAX_FILE_BYTES

CASES = Path(__file__).parent / "lint_cases"
_EXPECT = re.compile(r"^#\s*expect:\s*(?P<what>.*?)\s*$")
_FINDING = re.compile(r"^(?:(?P<file>\S+?\.ya?ml):)?(?P<line>\d+):(?P<column>\d+)\s+(?P<code>W\d{3})(?:\s+(?P<words>.*))?$")


@dataclass(frozen=True)
class Expected:
    file: Path
    line: int
    column: int
    code: str
    words: str
    help: str = ""

    @property
    def key(self) -> tuple[Path, int, int, str]:
        return (self.file, self.line, self.column, self.code)


def case_files() -> list[Path]:
    return sorted(CASES.glob("*.yaml"))


def expectations(case: Path) -> list[Expected]:
    """The findings a case declares; [] for `# expect: clean`. A case must declare something."""
    out: list[Expected] = []
    clean = False
    for text in case.read_text(encoding="utf-8").splitlines():
        if not text.startswith("#"):
            break
        m = _EXPECT.match(text)
        if not m:
            continue
        what = m.group("what")
        if what == "clean":
            clean = True
            continue
        f = _FINDING.match(what)
        assert f, f"{case.name}: cannot read the expectation {what!r}"
        file = (case.parent / f.group("file")).resolve() if f.group("file") else case.resolve()
        words, _, help = (f.group("words") or "").partition("help:")
        out.append(Expected(file, int(f.group("line")), int(f.group("column")), f.group("code"), words.strip(), help.strip()))
    assert clean != bool(out), f"{case.name} must declare `# expect: clean` or at least one finding"
    return out


def key_of(finding: Finding) -> tuple[Path, int, int, str]:
    return (Path(finding.path).resolve(), finding.line, finding.column, finding.code)


def shown(findings: list[Finding]) -> str:
    return "\n".join(f"  {f.path}:{f.line}:{f.column}: {f.code} {f.message}" for f in findings) or "  (none)"


@pytest.mark.parametrize("case", case_files(), ids=lambda p: p.stem)
def test_lint_reports_exactly_the_findings_a_case_declares(case: Path) -> None:
    expected = expectations(case)
    findings = lint_path(case).findings
    assert {key_of(f) for f in findings} == {e.key for e in expected}, f"{case.name} gave:\n{shown(findings)}"
    for e in expected:
        (finding,) = [f for f in findings if key_of(f) == e.key]
        assert e.words in finding.message, f"{case.name}: {e.words!r} is not in {finding.message!r}"
        assert e.help in finding.help, f"{case.name}: {e.help!r} is not in its help {finding.help!r}"


#: Codes whose cases are generated in tmp_path by the tests below instead of stored files.
GENERATED_CASES = {"W100"}


def test_every_finding_code_has_a_case_that_triggers_it() -> None:
    covered = {e.code for case in case_files() for e in expectations(case)} | GENERATED_CASES
    assert sorted(set(CODES) - covered) == []


def test_every_case_file_belongs_to_a_known_code() -> None:
    for case in case_files():
        for e in expectations(case):
            assert e.code in CODES, case.name


@pytest.mark.parametrize("base", ["plain.yaml", "tiny_points.yaml", "no_four_tricks.yaml"])
def test_the_base_rulesets_the_cases_extend_lint_clean(base: str) -> None:
    assert lint_path(CASES / "bases" / base).findings == []


def test_every_finding_is_an_error_or_a_warning_of_its_code_with_a_message() -> None:
    for case in case_files():
        for f in lint_path(case).findings:
            assert f.severity == ("warning" if f.code in WARNINGS else "error")
            assert f.message.strip() and "\n" not in f.message, f


# ---------------------------------------------------------------- file-level cases, written here


def only_finding(path: Path) -> Finding:
    findings = lint_path(path).findings
    assert len(findings) == 1, shown(findings)
    return findings[0]


def test_a_binary_file_is_w100_at_its_start(tmp_path: Path) -> None:
    path = tmp_path / "binary.yaml"
    path.write_bytes(b"whistdsl: 1\n\x00\x01\x02\xff garbage")
    f = only_finding(path)
    assert (f.line, f.column, f.code) == (1, 1, "W100")
    assert "binary" in f.message


def test_non_utf8_text_is_w100_at_the_first_bad_byte(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("whistdsl: 1\nname: café\n".encode("latin-1"))  # é is the byte 0xe9
    f = only_finding(path)
    assert (f.line, f.column, f.code) == (2, 10, "W100")
    assert "not UTF-8" in f.message and "0xe9" in f.message


def test_a_file_too_large_for_a_ruleset_is_w100_unread(tmp_path: Path) -> None:
    path = tmp_path / "large.yaml"
    with path.open("wb") as out:
        out.truncate(MAX_FILE_BYTES + 1)  # sparse: nothing is written
    f = only_finding(path)
    assert (f.line, f.column, f.code) == (1, 1, "W100")
    assert "larger than 256 KiB" in f.message


def test_a_directory_given_as_a_ruleset_file_is_w100(tmp_path: Path) -> None:
    f = only_finding(tmp_path)
    assert f.code == "W100" and "directory" in f.message


def test_a_control_character_is_w101_at_its_own_position(tmp_path: Path) -> None:
    path = tmp_path / "control.yaml"
    path.write_bytes(b"whistdsl: 1\nname: a\x01b\n")
    f = only_finding(path)
    assert (f.line, f.column, f.code) == (2, 8, "W101")
    assert "U+0001" in f.message


def test_a_tab_in_yaml_is_w101_with_a_hint(tmp_path: Path) -> None:
    path = tmp_path / "tab.yaml"
    path.write_text("whistdsl: 1\n\tname: x\n")
    f = only_finding(path)
    assert (f.line, f.column, f.code) == (2, 1, "W101")
    assert "tab" in f.message


@pytest.mark.parametrize("newline", ["\r\n", "\r"], ids=["crlf", "cr"])
def test_lines_are_counted_the_same_with_crlf_and_lone_cr_line_ends(tmp_path: Path, newline: str) -> None:
    path = tmp_path / "line-ends.yaml"
    path.write_bytes(newline.join(["whistdsl: 1", "name: x", "  foo: 1", ""]).encode())
    f = only_finding(path)
    assert (f.line, f.column, f.code) == (3, 6, "W101")
    lines = lint_path(path).sources[str(path)]
    assert lines[2] == "  foo: 1"


def test_yaml_nested_too_deeply_is_w101_at_the_level_that_is_too_deep(tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("whistdsl: 1\nname: " + "[" * 200 + "]" * 200 + "\n")
    f = only_finding(path)
    # the mapping is level 1, so the 50th `[` (column 7 + 49) opens level 51
    assert (f.line, f.column, f.code) == (2, 56, "W101")
    assert "nested more than 50 levels" in f.message


@pytest.mark.parametrize(
    "encoding, raw",
    [
        ("UTF-16", "whistdsl: 1\nname: x\n".encode("utf-16")),  # with its byte order mark
        ("UTF-16", "whistdsl: 1\nname: x\n".encode("utf-16-le")),
        ("UTF-16", "whistdsl: 1\nname: x\n".encode("utf-16-be")),
        ("UTF-32", "whistdsl: 1\nname: x\n".encode("utf-32")),
    ],
    ids=["utf-16", "utf-16-le", "utf-16-be", "utf-32"],
)
def test_text_saved_as_utf16_is_w100_saying_so_not_binary(tmp_path: Path, encoding: str, raw: bytes) -> None:
    path = tmp_path / "wide.yaml"
    path.write_bytes(raw)
    f = only_finding(path)
    assert (f.line, f.column, f.code) == (1, 1, "W100")
    assert f.message == f"file is {encoding} text, not UTF-8: save it as UTF-8"


def test_a_key_longer_than_yaml_reads_is_w101_saying_so_not_the_indentation(tmp_path: Path) -> None:
    path = tmp_path / "long-key.yaml"
    path.write_text("whistdsl: 1\nscoring:\n  " + "p" * 1030 + ": 1\n", encoding="utf-8")
    f = only_finding(path)
    assert (f.line, f.code) == (3, "W101")
    assert "a key of 1,030 characters: YAML reads at most 1,024 characters of a key" in f.message
    assert "indentation" not in f.message


@pytest.mark.parametrize("separator, name", [("\u2028", "U+2028 LINE SEPARATOR"), ("\u2029", "U+2029 PARAGRAPH SEPARATOR")])
def test_a_line_break_only_yaml_sees_is_named_in_a_yaml_error(tmp_path: Path, separator: str, name: str) -> None:
    path = tmp_path / "separator.yaml"
    path.write_text(f"whistdsl: 1\nscoring:\n  points: |\n    10 +{separator} tricks\n", encoding="utf-8")
    f = only_finding(path)
    assert (f.line, f.code) == (4, "W101")  # the line as an editor shows it: the separator breaks none
    assert f"line 4 holds {name}, which YAML reads as a line break" in f.message
    assert "indentation" not in f.message


def test_a_line_separator_in_a_formula_is_named(tmp_path: Path) -> None:
    path = tmp_path / "separator.yaml"
    plain = (CASES / "bases" / "plain.yaml").read_text(encoding="utf-8")
    path.write_text(plain.replace("if made then 10 + tricks else tricks", '"10 +\u2028 tricks"'), encoding="utf-8")
    f = only_finding(path)
    assert f.code == "W300"
    assert f.message.startswith("unexpected character U+2028 LINE SEPARATOR, which YAML reads as a line break (but a formula does not)")


def test_a_yaml_alias_is_w103_before_it_is_followed(tmp_path: Path) -> None:
    path = tmp_path / "alias.yaml"
    path.write_text("whistdsl: 1\nname: *x\n")
    f = only_finding(path)
    assert (f.line, f.column, f.code) == (2, 7, "W103")
    assert "alias *x" in f.message


# ---------------------------------------------------------------- help: what to write


HELPED = """\
whistdsl: 1
name: Helped
players: {min: 4, max: 4}
"""


def helped_findings(tmp_path: Path, text: str) -> dict[str, Finding]:
    path = tmp_path / "helped.yaml"
    path.write_text(text, encoding="utf-8")
    return {f.message: f for f in lint_path(path).findings}


def lints_clean(tmp_path: Path, text: str) -> bool:
    path = tmp_path / "fixed.yaml"
    path.write_text(text, encoding="utf-8")
    return lint_path(path).findings == []


def test_a_missing_trump_schedule_and_points_each_say_what_to_write_and_it_works(tmp_path: Path) -> None:
    found = helped_findings(tmp_path, HELPED)
    (trump,) = [f for m, f in found.items() if m.startswith("a ruleset needs `trump`")]
    (schedule,) = [f for m, f in found.items() if "`schedule`" in m]
    (points,) = [f for m, f in found.items() if "`scoring.points`" in m]
    assert {trump.code, schedule.code, points.code} == {"W201"}
    # every trump rule the help offers (`cycle: [none]`, ...) is a trump rule that lints clean
    offered = re.findall(r"`([a-z_]+: [^`]+)`", trump.help)
    assert "cycle: [none]" in offered and "turn_up: true" in offered and len(offered) == 3
    (to_schedule,) = re.findall(r"`(schedule: [^`]+)`", schedule.help)
    (formula,) = re.findall(r"e\.g\. `([^`]+)`", points.help)
    assert "under `scoring:`" in points.help
    for rule in offered:
        assert lints_clean(tmp_path, HELPED + f"{to_schedule}\ntrump: {{{rule}}}\nscoring:\n  points: {formula}\n"), rule


def test_a_key_the_schema_requires_is_helped_by_its_description(tmp_path: Path) -> None:
    text = (CASES / "bases" / "plain.yaml").read_text(encoding="utf-8") + "tiebreak:\n  hands: 1\n"
    (f,) = helped_findings(tmp_path, text).values()
    assert f.code == "W201" and f.help == "add `cards:` under `tiebreak:`, the hand size of each extra hand"


def test_help_is_printed_under_the_finding_in_text_in_json_and_github(tmp_path: Path) -> None:
    from whistdsl.diagnostics.findings import render_github, render_json, render_text

    f = Finding("f.yaml", 1, 1, "W201", "trump needs a cycle", help="write `cycle: [none]`\x1b")
    plain = Finding("f.yaml", 2, 1, "W200", "unknown key")
    text = render_text([f, plain], {"f.yaml": ["trump: {}", "x: 1"]}).splitlines()
    assert text[:4] == ["f.yaml:1:1: W201 trump needs a cycle", "    1 | trump: {}", "      | ^^^^^", "help: write `cycle: [none]`\\x1b"]
    assert not any(line.startswith("help:") for line in text[4:])  # a finding without help has no line
    assert [(d["help"], d["url"]) for d in json.loads(render_json([f, plain]))] == [
        ("write `cycle: [none]`\x1b", "docs/findings/W201.md"),
        (None, "docs/findings/W200.md"),
    ]
    github = render_github([f, plain]).splitlines()
    assert github[0].endswith("::W201 trump needs a cycle%0Ahelp: write `cycle: [none]`\\x1b%0Asee: docs/findings/W201.md")
    assert "help" not in github[1] and github[1].endswith("::W200 unknown key%0Asee: docs/findings/W200.md")


def test_a_findings_url_is_its_codes_page_among_the_docs() -> None:
    from whistdsl.diagnostics.codes import url

    root = Path(__file__).parent.parent
    for code in CODES:
        assert (root / url(code)).is_file(), code  # while the site has no site_url: the page's source


def test_a_did_you_mean_is_help_not_part_of_the_message() -> None:
    (f,) = lint_path(CASES / "w301_unknown_name.yaml").findings
    assert (f.code, f.message, f.help) == ("W301", "unknown name `trick`", "did you mean `tricks`?")


@pytest.mark.parametrize(
    "case, code, message, help",
    [
        ("w200_unknown_key", "W200", "unknown key `rnaks` in deck", "did you mean `ranks`?"),
        (
            "w400_extends_unknown_bundled_name",
            "W400",
            "extends: `serbain` is not a bundled ruleset and not a path ending in .yaml",
            "did you mean `serbian`?",
        ),
        (
            "w420_a_trump_special_the_deck_does_not_have",
            "W420",
            "trump.specials names `jocker`, which is not a special card of the deck",
            "did you mean `joker`?",
        ),
    ],
)
def test_a_mistyped_key_ruleset_or_special_card_gets_its_did_you_mean_as_help(case: str, code: str, message: str, help: str) -> None:
    (f,) = [f for f in lint_path(CASES / f"{case}.yaml").findings if f.code == code]
    assert (f.message, f.help) == (message, help)


def test_difflib_is_asked_for_a_did_you_mean_only_by_the_one_helper() -> None:
    """language/suggestions.py is the one "did you mean" (issue 26): every other place asks it."""
    package = Path(__file__).parent.parent / "whistdsl"
    asking = sorted(
        p.relative_to(package).as_posix() for p in package.rglob("*.py") if re.search(r"\bdifflib\b|get_close_matches", p.read_text(encoding="utf-8"))
    )
    assert asking == ["language/suggestions.py"]


def test_a_turned_trump_a_dealer_always_overrides_is_fixed_as_its_help_says(tmp_path: Path) -> None:
    case = CASES / "w437_a_dealer_who_names_trump_in_every_hand_over_a_turned_card.yaml"
    (f,) = lint_path(case).findings
    assert f.code == "W437" and "`cycle: [none]` in place of `turn_up`" in f.help
    fixed = tmp_path / "bases" / "turn_up.yaml"
    fixed.parent.mkdir()
    fixed.write_text((CASES / "bases" / "turn_up.yaml").read_text(encoding="utf-8").replace("turn_up: true", "cycle: [none]"), encoding="utf-8")
    child = tmp_path / "child.yaml"
    child.write_text(case.read_text(encoding="utf-8"), encoding="utf-8")
    assert lint_path(child).findings == []


def test_a_mark_that_is_a_ranks_letter_is_fixed_as_its_help_says(tmp_path: Path) -> None:
    case = CASES / "w438_a_mark_that_is_a_ranks_letter.yaml"
    (f,) = lint_path(case).findings
    (mark,) = re.findall(r"`mark: (\w+)`", f.help)
    (tmp_path / "bases").mkdir()
    (tmp_path / "bases" / "plain.yaml").write_text((CASES / "bases" / "plain.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    fixed = tmp_path / "fixed.yaml"
    fixed.write_text(case.read_text(encoding="utf-8").replace("mark: J}", f"mark: {mark}}}"), encoding="utf-8")
    assert lint_path(fixed).findings == []
