"""What whistdsl reads, and the bounds of files: the promises of docs/safety.md,
"What a ruleset can reach".

- Only regular files are read (rulesets, `extends` targets, records, deal files): a named pipe,
  a device or a directory is refused at once, without waiting and without reading it.
- `extends:` leads only to bundled rulesets and to ruleset files inside the root (the git
  repository, else the working folder, else the ruleset's folder; or `--root`), never into a
  hidden folder; a refused target is never read, so none of its lines can be printed.
- A lone surrogate, a number of too many digits, NaN: refused at load, with where they are.
- Records are bounded before they are parsed (size, nesting, values) and by the schema (hands,
  players, cards, texts); exact numbers are checked by the schema's pattern.
- `extends` merging costs the sum of the files' sizes (counted, not timed).
- Every pattern of both schemas means the same in Python as in ECMA 262 (no `$`).

Processes (`python -m whistdsl`) are used where a hang is the bug: their timeout only guards.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import cli_runner
import pytest
from typer.testing import CliRunner, Result

from whistdsl.cli import app
from whistdsl.records.reading import MAX_RECORD_BYTES, MAX_RECORD_DEPTH, MAX_RECORD_VALUES
from whistdsl.records.replay import MAX_RECORD_HANDS, RecordError, check_record_shape, read_record
from whistdsl.resources import bundled_rulesets, record_schema_path, schema_path
from whistdsl.rules import load
from whistdsl.rules.lint import _sources_of_findings, lint_path
from whistdsl.rules.load import ExtendsRoot, Merger, NotReadable, parse_document, read_regular_file, read_text
from whistdsl.rules.ruleset import MAX_GAME_HANDS

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
HOUSE = "whistdsl: 1\nextends: serbian\nname: House\n"
#: What a file outside the folder holds: if any of it is printed, the file was read.
SECRET = "SECRET-LINE: [this would be a YAML error\n"


def whistdsl(*args: object, cwd: Path, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    """`python -m whistdsl ARGS` as a process (forked: tests/cli_runner.py), its output as text."""
    done = cli_runner.whistdsl(*args, cwd=cwd, text=True, timeout=timeout)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


def invoke(*args: object) -> Result:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


# ---------------------------------------------------------------- only regular files


def test_lint_of_a_named_pipe_is_refused_at_once_with_exit_2(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    done = whistdsl("lint", "pipe.yaml", cwd=tmp_path)
    assert done.returncode == 2
    assert "pipe.yaml: is a named pipe, not a regular file" in done.stderr


def test_lint_of_dev_zero_behind_a_symlink_is_refused_unread(tmp_path: Path) -> None:
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    done = whistdsl("lint", "zero.yaml", cwd=tmp_path)
    assert done.returncode == 2
    assert "zero.yaml: is a device, not a regular file" in done.stderr


def test_extends_of_a_named_pipe_is_a_finding_at_the_extends_line(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "base.yaml")
    (tmp_path / "house.yaml").write_text("whistdsl: 1\nextends: base.yaml\n")
    done = whistdsl("lint", "house.yaml", cwd=tmp_path)
    assert done.returncode == 1
    assert "house.yaml:2:10: W400 extends: `base.yaml` is a named pipe, not a regular file" in done.stdout


def test_extends_of_a_directory_is_a_finding(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").mkdir()
    (tmp_path / "house.yaml").write_text("whistdsl: 1\nextends: base.yaml\n")
    findings = lint_path(tmp_path / "house.yaml").findings
    assert [(f.line, f.code) for f in findings] == [(2, "W400")]
    assert "is a directory, not a regular file" in findings[0].message


@pytest.mark.parametrize("command", [["score", "{}", "--cards", "3"], ["simulate", "{}", "-n", "1", "-w", "1"], ["play", "{}", "--watch"]])
def test_every_command_refuses_a_ruleset_that_is_a_pipe_with_exit_2(tmp_path: Path, command: list[str]) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    done = whistdsl(*(c.format("pipe.yaml") for c in command), cwd=tmp_path)
    assert done.returncode == 2
    assert "pipe.yaml: is a named pipe, not a regular file" in done.stderr


@pytest.mark.parametrize(
    "args",
    [["replay", "rec.json"], ["play", "serbian", "--watch", "--deal", "rec.json"], ["play", "--watch", "--resume", "rec.json"]],
)
def test_records_and_deal_files_that_are_pipes_are_refused_at_once(tmp_path: Path, args: list[str]) -> None:
    os.mkfifo(tmp_path / "rec.json")
    done = whistdsl(*args, cwd=tmp_path)
    assert done.returncode == 2
    assert "rec.json: is a named pipe, not a regular file" in done.stderr


def test_replay_of_dev_zero_and_of_a_directory_says_what_they_are() -> None:
    assert "is a device, not a regular file" in invoke("replay", "/dev/zero").output
    result = invoke("replay", ROOT)
    assert result.exit_code == 2 and "is a directory, not a regular file" in result.output


def test_a_file_is_read_only_up_to_its_cap_and_one_byte(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"x" * 100_000)
    assert len(read_regular_file(big, 100)) == 101
    assert len(read_regular_file(big, 10**6)) == 100_000
    with pytest.raises(NotReadable, match="is a device"):
        read_regular_file(Path("/dev/zero"), 100)


def test_lint_of_a_folder_without_rulesets_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "notes.txt").write_text("not a ruleset")
    result = invoke("lint", tmp_path / "rules")
    assert result.exit_code == 2
    assert f"no ruleset files (*.yaml, *.yml) under {tmp_path / 'rules'}" in result.output


def test_lint_of_a_folder_refuses_a_ruleset_symlink_that_leads_outside_it(tmp_path: Path) -> None:
    (tmp_path / "outside.yaml").write_text(SECRET)
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "good.yaml").write_text(HOUSE)
    (tmp_path / "rules" / "evil.yaml").symlink_to(tmp_path / "outside.yaml")
    result = invoke("lint", tmp_path / "rules")
    assert result.exit_code == 2
    assert "evil.yaml: a symbolic link that leads outside" in result.output
    assert "SECRET" not in result.output


def test_lint_of_a_folder_refuses_a_pipe_named_like_a_ruleset(tmp_path: Path) -> None:
    (tmp_path / "good.yaml").write_text(HOUSE)
    os.mkfifo(tmp_path / "pipe.yaml")
    done = whistdsl("lint", ".", cwd=tmp_path)
    assert done.returncode == 2 and "pipe.yaml: is a named pipe, not a regular file" in done.stderr


# ---------------------------------------------------------------- where extends may lead


def _outside_folder(tmp_path: Path) -> Path:
    """tmp_path/outside.yaml holds SECRET; the ruleset folder is tmp_path/rules/game, the top of
    a git repository (it holds `.git`), and so the root whatever folders the test runs in."""
    (tmp_path / "outside.yaml").write_text(SECRET)
    folder = tmp_path / "rules" / "game"
    (folder / ".git").mkdir(parents=True)
    return folder


@pytest.mark.parametrize(
    "target, reason",
    [
        ("/etc/passwd", "an absolute path"),
        ("{outside}", "an absolute path"),
        ("~/.ssh/id_rsa", "a path from a home folder (~)"),
        ("~root/x.yaml", "a path from a home folder (~)"),
        ("https://example.com/base.yaml", "a URL"),
        ("file:///etc/passwd", "a URL"),
        ("../../outside.yaml", "it leads outside the folder"),
        ("../../../../../../../../etc/passwd", "it leads outside the folder"),
        ("./sub/../../../outside.yaml", "it leads outside the folder"),
    ],
)
@pytest.mark.parametrize("fmt", ["text", "github", "json"])
def test_extends_outside_the_folder_is_refused_and_nothing_of_the_target_is_printed(tmp_path: Path, target: str, reason: str, fmt: str) -> None:
    folder = _outside_folder(tmp_path)
    target = target.format(outside=tmp_path / "outside.yaml")
    (folder / "house.yaml").write_text(f"whistdsl: 1\nextends: {target}\n")
    result = invoke("lint", folder / "house.yaml", "--format", fmt)
    assert result.exit_code == 1
    assert "W400" in result.output and f"is not allowed: {reason}" in result.output
    assert "SECRET" not in result.output and "root:" not in result.output


def test_a_symlink_inside_the_folder_that_leads_outside_is_refused_unread(tmp_path: Path) -> None:
    folder = _outside_folder(tmp_path)
    (folder / "base.yaml").symlink_to(tmp_path / "outside.yaml")
    (folder / "house.yaml").write_text("whistdsl: 1\nextends: base.yaml\n")
    result = invoke("lint", folder / "house.yaml")
    assert result.exit_code == 1
    assert "is not allowed: it is a symbolic link that leads outside the folder" in result.output
    assert "SECRET" not in result.output


def test_a_refused_target_is_not_even_looked_at(tmp_path: Path) -> None:
    # a pipe outside the folder would make any read (or a blocking open) hang: refused unopened
    folder = _outside_folder(tmp_path)
    os.mkfifo(tmp_path / "pipe.yaml")
    (folder / "house.yaml").write_text("whistdsl: 1\nextends: ../../pipe.yaml\n")
    done = whistdsl("lint", folder / "house.yaml", cwd=tmp_path)
    assert done.returncode == 1 and "leads outside the folder" in done.stdout


def test_extends_may_lead_anywhere_inside_the_folder_tree(tmp_path: Path) -> None:
    (tmp_path / "bases").mkdir()
    (tmp_path / "bases" / "base.yaml").write_text("whistdsl: 1\nextends: ../common.yaml\nname: Base\n")
    (tmp_path / "common.yaml").write_text(HOUSE)
    (tmp_path / "house.yaml").write_text("whistdsl: 1\nextends: ./bases/../bases/base.yaml\n")
    assert lint_path(tmp_path / "house.yaml").findings == []


def test_root_widens_where_extends_may_lead(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text(HOUSE)
    (tmp_path / "games" / ".git").mkdir(parents=True)  # a repository of its own: the default root
    house = tmp_path / "games" / "house.yaml"
    house.write_text("whistdsl: 1\nextends: ../base.yaml\n")
    refused = invoke("lint", house)
    assert refused.exit_code == 1 and "(name a wider folder with --root)" in refused.output
    assert invoke("lint", house, "--root", tmp_path).exit_code == 0
    assert invoke("score", house, "--root", tmp_path, "--cards", "2", "--bid", "1", "--tricks", "1").output.strip() == "11"
    assert invoke("score", house, "--cards", "2").exit_code == 1
    assert invoke("lint", house, "--root", tmp_path / "missing").exit_code == 2


def test_lint_of_a_folder_lets_the_files_under_it_extend_within_it(tmp_path: Path) -> None:
    # `lint rulesets/` from a checkout: scoring/x.yaml extends ../serbian.yaml inside the folder named
    # (each subfolder a repository of its own: the narrowest default root, whatever folders are above)
    (tmp_path / "base.yaml").write_text(HOUSE)
    (tmp_path / "games" / ".git").mkdir(parents=True)
    (tmp_path / "games" / "house.yaml").write_text("whistdsl: 1\nextends: ../base.yaml\n")
    assert invoke("lint", tmp_path).exit_code == 0
    # named on its own, the file's root is its default again
    assert invoke("lint", tmp_path / "games" / "house.yaml").exit_code == 1
    # and nothing under the folder may lead out of it
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "base.yaml").write_text(HOUSE)
    inner = tmp_path / "inner"
    (inner / ".git").mkdir(parents=True)
    (inner / "house.yaml").write_text("whistdsl: 1\nextends: ../outside/base.yaml\n")
    refused = invoke("lint", inner)
    assert refused.exit_code == 1 and "leads outside the folder" in refused.output


def _no_repository_above(folder: Path) -> None:
    """Skip when a folder above `folder` holds `.git` (a temporary folder inside a repository):
    that repository would be the root of every file under `folder`."""
    if any(os.path.lexists(p / ".git") for p in folder.parents):
        pytest.skip(f"a git repository encloses {folder}")


def test_the_default_root_is_the_repository_else_the_working_folder_else_the_file_s_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "rules" / "house").mkdir(parents=True)
    house = repo / "rules" / "house" / "h.yaml"
    monkeypatch.chdir(repo / "rules")  # the repository wins over the working folder
    assert load.default_root(house) == str(repo)
    worktree = tmp_path / "worktree"  # a worktree's or a submodule's `.git` is a file
    (worktree / "deep" / "er").mkdir(parents=True)
    (worktree / ".git").write_text("gitdir: /elsewhere\n")
    assert load.default_root(worktree / "deep" / "er" / "h.yaml") == str(worktree)
    # `lint DIR`: never narrower than DIR, never narrower than the default either
    assert load.default_root(house, named=tmp_path) == str(tmp_path)
    assert load.default_root(house, named=repo / "rules") == str(repo)
    # a bundled ruleset's root is the bundled folder, wherever whistdsl runs
    assert load.default_root(bundled_rulesets()["scoring/get-fred"]) == os.path.realpath(ROOT / "rulesets")

    _no_repository_above(tmp_path)
    plain = tmp_path / "plain" / "rules" / "h.yaml"
    plain.parent.mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "plain")
    assert load.default_root(plain) == str(tmp_path / "plain")
    monkeypatch.chdir(repo)  # the file is not under the working folder: its own folder
    assert load.default_root(plain) == str(plain.parent)


def test_a_house_rule_in_a_subfolder_extends_a_sibling_folder_of_its_repository_without_flags(tmp_path: Path) -> None:
    # what CI runs from a checkout: rules/house/h.yaml extends ../bases/b.yaml
    (tmp_path / ".git").mkdir()
    (tmp_path / "rules" / "bases").mkdir(parents=True)
    (tmp_path / "rules" / "house").mkdir()
    (tmp_path / "rules" / "bases" / "b.yaml").write_text(HOUSE)
    (tmp_path / "rules" / "house" / "h.yaml").write_text("whistdsl: 1\nextends: ../bases/b.yaml\nname: Mine\n")
    for args in (
        ["lint", "rules/house/h.yaml"],
        ["lint", "rules/house"],
        ["simulate", "rules/house/h.yaml", "-n", "2", "-w", "2"],  # its workers load it too
        ["score", "rules/house/h.yaml", "--cards", "2", "--bid", "1", "--tricks", "1"],
    ):
        done = whistdsl(*args, cwd=tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "11"
    # from a subfolder of the repository too, and by an absolute path from anywhere
    assert whistdsl("lint", "h.yaml", cwd=tmp_path / "rules" / "house").returncode == 0
    assert invoke("play", tmp_path / "rules" / "house" / "h.yaml", "--watch", "--seed", "1").exit_code == 0


def test_every_bundled_ruleset_lints_scores_and_plays_by_its_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # from outside the bundled folder
    paths = [str(p) for p in bundled_rulesets().values()]
    assert invoke("lint", *paths).exit_code == 0
    by_path = [p for p in paths if "extends: ../" in Path(p).read_text(encoding="utf-8")]
    assert len(by_path) >= 20, "the bundled rulesets that extend another by a path"
    for path in paths:
        score = ["score", path, "--cards", "3", "--bid", "1", "--tricks", "1"]
        result = invoke(*score)
        if result.exit_code == 2 and "--others" in result.output:  # its points read the other seats' bids and tricks
            example = re.search(r"e\.g\. --others (\S+)", result.output)
            assert example, result.output
            others = ",".join(["1/1"] * len(example.group(1).split(",")))  # the others take the 3 tricks
            result = invoke("score", path, "--cards", "3", "--bid", "1", "--tricks", "0", "--others", others)
        assert result.exit_code == 0 and re.fullmatch(r"-?\d+(/\d+)?", result.stdout.strip()), (path, result.output)
        played = invoke("play", path, "--watch", "--seed", "1", "--bots", "random")
        assert played.exit_code == 0 and "Winner" in played.stdout, (path, played.output)


def test_a_copy_of_the_bundled_rulesets_in_a_checkout_lints_by_its_paths(tmp_path: Path) -> None:
    # a checkout beside a whistdsl installed elsewhere: its rulesets/ are not the bundled folder
    shutil.copytree(ROOT / "rulesets", tmp_path / "rulesets")
    (tmp_path / ".git").mkdir()
    done = whistdsl("lint", "scoring/get-fred.yaml", "scoring/exact.yaml", cwd=tmp_path / "rulesets")
    assert done.returncode == 0, done.stdout + done.stderr
    done = whistdsl("play", tmp_path / "rulesets" / "scoring" / "get-fred.yaml", "--watch", "--seed", "1", cwd=tmp_path.parent)
    assert done.returncode == 0, done.stderr


def _repository_with_a_secret(tmp_path: Path) -> Path:
    """A repository (tmp_path) whose `.git/config` and `.config/creds.yml` hold SECRET; returns
    its folder rules/house."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config").write_text("[core]\n\t" + SECRET)
    (tmp_path / ".config").mkdir()
    (tmp_path / ".config" / "creds.yml").write_text(SECRET)
    house = tmp_path / "rules" / "house"
    house.mkdir(parents=True)
    return house


@pytest.mark.parametrize(
    "target, link, reason",
    [
        ("../../.git/config", None, "it is not a ruleset file (.yaml, .yml)"),
        ("base.yaml", "../../.git/config", "it is not a ruleset file (.yaml, .yml) (after its symbolic links)"),
        ("../../.config/creds.yml", None, "it leads into a hidden file or folder"),
        ("base.yml", "../../.config/creds.yml", "it leads into a hidden file or folder"),
        ("../../.git/../.config/creds.yml", None, "it leads into a hidden file or folder"),
    ],
)
def test_inside_the_repository_extends_reads_no_file_but_rulesets_and_none_in_a_hidden_folder(
    tmp_path: Path, target: str, link: str | None, reason: str
) -> None:
    # a repository is a wide root: its .git/config may hold a token (CI checkouts keep one there)
    house = _repository_with_a_secret(tmp_path)
    if link is not None:
        (house / target).symlink_to(link)
    (house / "h.yaml").write_text(f"whistdsl: 1\nextends: {target}\n")
    for fmt in ("text", "github", "json"):
        result = invoke("lint", house / "h.yaml", "--format", fmt)
        assert result.exit_code == 1
        assert "W400" in result.output and f"is not allowed: {reason}" in result.output
        assert "SECRET" not in result.output


def test_a_ruleset_in_a_hidden_folder_may_extend_its_neighbours(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    folder = tmp_path / ".whist"
    (folder / "bases").mkdir(parents=True)
    (folder / "bases" / "b.yaml").write_text(HOUSE)
    (folder / "h.yaml").write_text("whistdsl: 1\nextends: bases/b.yaml\n")
    assert lint_path(folder / "h.yaml").findings == []


def test_the_root_is_the_top_of_the_chain_not_each_file(tmp_path: Path) -> None:
    # a base inside the folder may not step out of it either, even from a subfolder
    folder = _outside_folder(tmp_path)
    (folder / "sub").mkdir()
    (folder / "sub" / "base.yaml").write_text("whistdsl: 1\nextends: ../../../outside.yaml\n")
    (folder / "house.yaml").write_text("whistdsl: 1\nextends: sub/base.yaml\n")
    findings = lint_path(folder / "house.yaml").findings
    assert [f.code for f in findings] == ["W400"] and findings[0].path.endswith("base.yaml")
    assert "in the chain" in findings[0].message


def test_a_bundled_ruleset_may_extend_only_bundled_rulesets(tmp_path: Path) -> None:
    bundled = bundled_rulesets()["serbian-hard"]
    allowed = ExtendsRoot.for_ruleset(tmp_path / "house.yaml", tmp_path)
    assert allowed.target("romanian", bundled) == bundled_rulesets()["romanian"]
    assert allowed.target("scoring/../serbian.yaml", bundled) == bundled_rulesets()["serbian"].resolve()
    (tmp_path / "mine.yaml").write_text(HOUSE)
    with pytest.raises(load._ExtendsRefused, match="a bundled ruleset may extend only bundled rulesets"):
        allowed.target(os.path.relpath(tmp_path / "mine.yaml", bundled.parent), bundled)


def test_a_finding_in_a_base_inside_the_folder_still_shows_its_line(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text("whistdsl: 1\nname: [unclosed\n")
    (tmp_path / "house.yaml").write_text("whistdsl: 1\nextends: base.yaml\n")
    result = lint_path(tmp_path / "house.yaml")
    assert [f.code for f in result.findings] == ["W101"]
    assert result.sources[result.findings[0].path][1] == "name: [unclosed"


def test_source_lines_come_only_from_documents_that_were_read(tmp_path: Path) -> None:
    (tmp_path / "other.yaml").write_text(SECRET)
    finding = load.Position(str(tmp_path / "other.yaml"), 1, 1).finding("W101", "YAML syntax error")
    assert _sources_of_findings([finding], []) == {}
    document = load.Document(str(tmp_path / "other.yaml"), "whistdsl: 1\n")
    assert _sources_of_findings([finding], [document]) == {str(tmp_path / "other.yaml"): ["whistdsl: 1", ""]}


def test_a_target_with_control_characters_is_refused_and_shown_escaped(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text('whistdsl: 1\nextends: "\\e]0;pwned\\a.yaml"\n')
    result = invoke("lint", tmp_path / "house.yaml")
    assert result.exit_code == 1 and "\x1b" not in result.output and "\\x1b]0;pwned" in result.output


# ---------------------------------------------------------------- text that cannot be encoded


def test_a_lone_surrogate_in_yaml_is_refused_at_its_escape(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text(HOUSE + 'description: "fine \\ud800 not"\n')
    result = invoke("lint", tmp_path / "house.yaml")
    assert result.exit_code == 1
    assert f"{tmp_path / 'house.yaml'}:4:20: W100 the escape for U+D800 is half of a UTF-16 pair" in result.output


def test_a_lone_surrogate_in_a_key_is_refused_too(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text(HOUSE + 'let:\n  "\\udfff": 1\n')
    findings = lint_path(tmp_path / "house.yaml").findings
    assert [(f.line, f.column, f.code) for f in findings] == [(5, 4, "W100")]


def test_a_lone_surrogate_in_a_record_is_a_record_error(tmp_path: Path) -> None:
    record = {"format": "whistdsl-record/1", "players": [{"seat": 0, "name": "\ud800"}, {"seat": 1, "name": "B"}], "hands": []}
    (tmp_path / "r.json").write_text(json.dumps(record))  # ensure_ascii: the escape \ud800
    result = invoke("replay", tmp_path / "r.json")
    assert result.exit_code == 2
    assert "the text at players/0/name holds half of a UTF-16 pair" in result.output


def test_a_surrogate_pair_in_a_record_is_one_character_and_fine(tmp_path: Path) -> None:
    (tmp_path / "r.json").write_text('{"format": "whistdsl-record/1", "hands": [], "ruleset": {"name": "\\ud83c\\udca1", "source": {}}}')
    assert read_record(tmp_path / "r.json")["ruleset"]["name"] == "\U0001f0a1"


# ---------------------------------------------------------------- digits


@pytest.mark.parametrize("where", ["players:\n  min: {n}\n  max: 4\n", "tiebreak:\n  hands: {n}\n  cards: 1\n", "let:\n  big: -{n}\n"])
def test_a_plain_yaml_number_of_5000_digits_is_a_finding(tmp_path: Path, where: str) -> None:
    (tmp_path / "house.yaml").write_text(HOUSE + where.format(n="7" * 5000))
    findings = lint_path(tmp_path / "house.yaml").findings
    assert [(f.line, f.code) for f in findings] == [(5, "W305")]
    assert "this number is written with 5000 digits; the limit is 40" in findings[0].message


def test_a_long_decimal_is_a_finding_too(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text(HOUSE + "let:\n  half: 0." + "5" * 4999 + "\n")
    assert [f.code for f in lint_path(tmp_path / "house.yaml").findings] == ["W305"]


def _record(**extra: Any) -> dict[str, Any]:
    return {"format": "whistdsl-record/1", "hands": [], **extra}


@pytest.mark.parametrize(
    "text, words",
    [
        ('{"format": "whistdsl-record/1", "hands": [], "seed": %s}' % ("9" * 5000), "line 1, column 54: a number written with 5000 digits"),
        ('{"format": "whistdsl-record/1", "hands": [], "seed": NaN}', "NaN is not a number a record may hold"),
        ('{"format": "whistdsl-record/1", "hands": [], "seed": -Infinity}', "-Infinity is not a number a record may hold"),
        ('{"format": "whistdsl-record/1", "hands": [], "seed": 1e999}', "is too long or too large"),
    ],
)
def test_record_numbers_are_bounded_and_finite(tmp_path: Path, text: str, words: str) -> None:
    (tmp_path / "r.json").write_text(text)
    with pytest.raises(RecordError, match=re.escape(words)):
        read_record(tmp_path / "r.json")


# ---------------------------------------------------------------- record bounds


def test_a_record_larger_than_the_cap_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    with path.open("wb") as f:
        f.truncate(MAX_RECORD_BYTES + 1)
    with pytest.raises(RecordError, match="larger than 64 MiB"):
        read_record(path)


def test_a_record_nested_100000_deep_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    (tmp_path / "r.json").write_text('{"format": "whistdsl-record/1", "hands": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(RecordError, match=f"nested more than {MAX_RECORD_DEPTH} levels deep"):
        read_record(tmp_path / "r.json")


def test_brackets_inside_texts_do_not_count_as_nesting(tmp_path: Path) -> None:
    name = '[[[[{{{{\\"' * 100
    (tmp_path / "r.json").write_text(f'{{"format": "whistdsl-record/1", "hands": [], "ruleset": {{"name": "{name[:190]}", "source": {{}}}}}}')
    assert read_record(tmp_path / "r.json")["ruleset"]["source"] == {}


def test_a_record_of_too_many_values_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    (tmp_path / "r.json").write_text('{"format": "whistdsl-record/1", "hands": [], "x": [' + "0," * MAX_RECORD_VALUES + "0]}")
    with pytest.raises(RecordError, match="more than 2,000,000 values"):
        read_record(tmp_path / "r.json")


def test_the_record_schema_allows_the_hands_of_the_longest_game_and_its_tie_breaks() -> None:
    schema = json.loads(record_schema_path().read_text("utf-8"))
    assert MAX_RECORD_HANDS == 2 * MAX_GAME_HANDS
    assert schema["properties"]["hands"]["maxItems"] == MAX_RECORD_HANDS
    assert schema["properties"]["hands"]["items"]["properties"]["number"]["maximum"] == MAX_RECORD_HANDS


def test_a_record_with_too_many_hands_is_refused_by_its_length_not_by_each_hand() -> None:
    wrong_hands = [{"number": 0, "deal": "not a list"}] * (MAX_RECORD_HANDS + 1)
    with pytest.raises(RecordError, match=f"at hands: a list of {MAX_RECORD_HANDS + 1} items; at most {MAX_RECORD_HANDS}"):
        check_record_shape(_record(hands=wrong_hands))


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda r: r["players"].extend({"seat": 2 + i, "name": f"P{i}"} for i in range(10)), "at players: a list of 12 items; at most 10"),
        (lambda r: r["players"][0].update(name="x" * 201), "at players/0/name: a text of 201 characters; at most 200"),
        (lambda r: r["hands"][0]["deal"][0].extend(["AS"] * 60), "at hands/0/deal/0: a list of 61 items; at most 52"),
        (lambda r: r["hands"][0].update(cards=10**6), "at hands/0/cards"),
        (lambda r: r["hands"][0].update(points=["1/0", 0]), 'at hands/0/points/0: "1/0" is not an exact number'),
        (lambda r: r["hands"][0].update(points=["1/2\n", 0]), "at hands/0/points/0"),
        (lambda r: r["hands"][0]["deal"][0].__setitem__(0, "AS\n"), 'at hands/0/deal/0/0: "AS\\n" is not a card'),
        (lambda r: r.update(format="whistdsl-record/1\n"), "at format"),
    ],
)
def test_record_bounds_and_patterns_are_checked(change, words: str) -> None:
    record = _record(
        players=[{"seat": 0, "name": "A"}, {"seat": 1, "name": "B"}],
        hands=[{"number": 1, "cards": 1, "deal": [["AS"], ["KS"]], "points": [0, 0]}],
    )
    check_record_shape(json.loads(json.dumps(record)))
    change(record)
    with pytest.raises(RecordError, match=re.escape(words)):
        check_record_shape(record)


def test_replay_of_a_record_with_a_zero_denominator_exits_2(tmp_path: Path) -> None:
    record = _record(hands=[{"number": 1, "deal": [["AS"], ["KS"]], "totals": ["1/0", 0]}])
    (tmp_path / "r.json").write_text(json.dumps(record))
    result = invoke("replay", tmp_path / "r.json", "--ruleset", "serbian")
    assert result.exit_code == 2 and "is not an exact number" in result.output


def test_the_ruleset_inside_a_record_is_held_to_the_ruleset_file_size() -> None:
    from whistdsl.records.replay import record_rules

    record = _record(ruleset={"name": "big", "source": {"whistdsl": 1, "description": "x" * load.MAX_FILE_BYTES}})
    with pytest.raises(RecordError, match="larger than 256 KiB"):
        record_rules(record)


# ---------------------------------------------------------------- extends merging is linear


def _chain(tmp_path: Path, files: int, keys: int) -> list[load.Loaded]:
    """`files` files, child first; each overrides every running value of the one below it."""
    layers = []
    for i in range(files):
        running = "".join(f"  v{k}:\n    start: {i}\n    after_hand: v{k} + {i}\n" for k in range(keys))
        text = f"whistdsl: 1\nname: file {i}\nrunning:\n{running}schedule: [{', '.join(['1'] * keys)}]\n"
        path = tmp_path / f"f{i}.yaml"
        path.write_text(text)
        layers.append(parse_document(read_text(path, path.name)))
    return layers


def _merge_visits(layers: list[load.Loaded]) -> tuple[load.Loaded, int]:
    merger = Merger(layers[-1])
    for layer in reversed(layers[:-1]):
        merger.over(layer)
    return merger.result(), merger.visited


def test_merging_a_chain_of_16_large_files_visits_each_node_a_bounded_number_of_times(tmp_path: Path) -> None:
    layers = _chain(tmp_path, 16, 100)
    total = sum(len(layer.values) + len(layer.keys) for layer in layers)
    merged, visited = _merge_visits(layers)
    assert visited <= 3 * total
    # the merged result is the top file's, with its positions
    assert merged.data["running"]["v7"]["start"] == 0 and merged.data["name"] == "file 0"
    assert merged.where(("running", "v7", "start")).path == "f0.yaml"
    assert merged.where(("schedule", 99)).path == "f0.yaml"
    assert not any(ref.document.path != "f0.yaml" for ref in merged.values.values())


def test_merge_work_grows_with_the_files_not_with_their_product(tmp_path: Path) -> None:
    (tmp_path / "small").mkdir()
    (tmp_path / "large").mkdir()
    _, small = _merge_visits(_chain(tmp_path / "small", 16, 40))
    _, large = _merge_visits(_chain(tmp_path / "large", 16, 160))
    assert large <= 4.5 * small  # four times the nodes: four times the work, not sixteen


def test_merge_leaves_the_files_it_merges_as_they_were(tmp_path: Path) -> None:
    base = parse_document(load.Document("base.yaml", "whistdsl: 1\nscoring:\n  points: 1\n  bonus: 2\nkinds:\n  a: {mark: A}\n"))
    child = parse_document(load.Document("child.yaml", "whistdsl: 1\nextends: base.yaml\nscoring:\n  points: 3\nkinds: ~\n"))
    before = json.dumps(base.data), dict(base.values), json.dumps(child.data)
    merged = load.merge(base, child)
    assert merged.data == {"whistdsl": 1, "scoring": {"points": 3, "bonus": 2}}
    assert (json.dumps(base.data), dict(base.values), json.dumps(child.data)) == before
    assert ("kinds", "a") not in merged.values and merged.where(("scoring", "bonus")).path == "base.yaml"


# ---------------------------------------------------------------- schema bounds and patterns


def _patterns(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [v for k, v in node.items() if k == "pattern" and isinstance(v, str)] + [p for v in node.values() for p in _patterns(v)]
    if isinstance(node, list):
        return [p for v in node for p in _patterns(v)]
    return []


@pytest.mark.parametrize("path", [schema_path(), record_schema_path()], ids=["ruleset", "record"])
def test_no_schema_pattern_ends_in_a_dollar_which_python_lets_a_newline_past(path: Path) -> None:
    patterns = _patterns(json.loads(path.read_text("utf-8")))
    assert patterns
    for pattern in patterns:
        assert not pattern.endswith("$"), pattern
        if pattern.endswith("(?![\\s\\S])"):
            sample = {"SHDC": "AS", "record/": "whistdsl-record/1", "0-9a-f": "0" * 64, "/[1-9]": "1/2"}
            good = next((v for k, v in sample.items() if k in pattern), "abc")
            assert re.search(pattern, good), pattern
            assert not re.search(pattern, good + "\n"), pattern


def test_a_name_with_a_trailing_newline_is_not_a_name(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text(HOUSE + 'let:\n  "abc\\n": 1\nkinds:\n  "NV\\n": {}\nrunning:\n  "streak\\n": {start: 0, after_hand: 0}\n')
    findings = lint_path(tmp_path / "house.yaml").findings
    assert [(f.line, f.code) for f in findings] == [(5, "W203"), (7, "W203"), (9, "W203")]
    assert all("is not a valid name" in f.message and "matching" not in f.message for f in findings)


def test_every_pattern_has_its_words() -> None:
    from whistdsl.rules.validate import _PATTERN_WORDS

    assert set(_patterns(json.loads(schema_path().read_text("utf-8")))) == set(_PATTERN_WORDS)


@pytest.mark.parametrize(
    "text, words",
    [
        ("let:\n" + "".join(f"  n{i}: {i}\n" for i in range(101)), "let has 101 names; at most 100 are allowed"),
        ("running:\n" + "".join(f"  r{i}: {{start: 0, after_hand: 0}}\n" for i in range(51)), "running has 51 names; at most 50"),
        ("kinds:\n" + "".join(f"  k{i}: {{}}\n" for i in range(51)), "kinds has 51 names; at most 50"),
        ("schedule: [" + ", ".join(["1"] * 1001) + "]\n", "schedule has 1001 entries; at most 1000"),
        ("winner:\n  rank: [" + ", ".join(["highest total"] * 21) + "]\n", "winner.rank has 21 entries; at most 20"),
        ("description: " + "x" * 1001 + "\n", "description has 1001 characters; at most 1000"),
        ("let:\n  " + "n" * 41 + ": 1\n", "is 41 characters long; a name has at most 40"),
        ("trump:\n  cycle: [" + ", ".join(["none"] * 1001) + "]\n", "trump.cycle has 1001 entries; at most 1000"),
    ],
)
def test_ruleset_bounds_are_findings_that_say_the_limit(tmp_path: Path, text: str, words: str) -> None:
    (tmp_path / "house.yaml").write_text("whistdsl: 1\nextends: serbian\n" + text)
    findings = lint_path(tmp_path / "house.yaml").findings
    assert any(f.code == "W203" and words in f.message for f in findings), findings
    assert all(len(f.message) < 300 for f in findings)
