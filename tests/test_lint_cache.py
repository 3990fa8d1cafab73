"""Lint results kept in the per-user cache never change what lint says.

A warm cache gives byte for byte the output of a cold run; a change to the file, to a file it
extends, to where its `extends:` leads, or to the options, is a new result; a damaged entry is
ignored. (Speed is measured by benchmarks/bench_startup.py, never here.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from whistdsl import cache
from whistdsl.diagnostics.findings import render_text
from whistdsl.rules.lint import lint_path

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "lint_cases"


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("WHISTDSL_CACHE_DIR", str(folder))
    return folder


def entries(folder: Path, kind: str) -> list[Path]:
    """The entries of `kind` in the cache folder `folder` (whistdsl/cache.py: `<folder>/<code>/<kind>/<key>.json`)."""
    return sorted(folder.glob(f"*/{kind}/*.json"))


def lint_cli(*args: str, cache: Path | None, cwd: Path = ROOT) -> tuple[int, str, str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("WHISTDSL_CACHE_DIR", "WHISTDSL_NO_CACHE")}
    if cache is None:
        environment["WHISTDSL_NO_CACHE"] = "1"
    else:
        environment["WHISTDSL_CACHE_DIR"] = str(cache)
    done = subprocess.run([sys.executable, "-m", "whistdsl", "lint", *args], capture_output=True, text=True, cwd=cwd, env=environment, timeout=300)
    return done.returncode, done.stdout, done.stderr


def said(path: Path, **options: object) -> tuple[list, str]:
    result = lint_path(path, **options)  # type: ignore[arg-type]
    return result.findings, render_text(result.findings, result.sources)


def test_every_lint_case_and_bundled_ruleset_says_the_same_from_the_cache(cache_dir: Path) -> None:
    files = sorted(CASES.rglob("*.yaml")) + sorted((ROOT / "rulesets").rglob("*.yaml"))
    assert len(files) > 100
    checked = [said(f, cached=True) for f in files]  # checked, and kept
    assert len(entries(cache_dir, "lint")) >= len(files) // 2  # the files that load
    assert [said(f, cached=True) for f in files] == checked  # from the cache


def test_the_command_line_says_the_same_byte_for_byte_cold_and_warm(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    text, json = ["tests/lint_cases", "rulesets/serbian.yaml"], ["--format", "json", "tests/lint_cases", "rulesets/serbian.yaml"]
    uncached_text, uncached_json = lint_cli(*text, cache=None), lint_cli(*json, cache=None)
    assert uncached_text[0] == uncached_json[0] == 1 and '"code": "W' in uncached_json[1]
    assert lint_cli(*text, cache=folder) == uncached_text  # `lint PATH...` without typer: fills the cache
    assert lint_cli(*text, cache=folder) == uncached_text  # and answers from it
    assert lint_cli(*json, cache=folder) == uncached_json  # through typer, from the same entries


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


CHILD = """whistdsl: 1
name: Child
extends: base.yaml
scoring:
  points: if made then 10 + tricks else tricks
"""


def base_text() -> str:
    return (ROOT / "rulesets" / "oh-hell.yaml").read_text(encoding="utf-8")


def test_a_change_to_the_file_or_to_what_it_extends_is_linted_anew(cache_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "rules"
    base = write(folder / "base.yaml", base_text())
    child = write(folder / "child.yaml", CHILD)
    assert said(child, cached=True) == said(child) and said(child)[0] == []
    assert said(child, cached=True)[0] == []  # from the cache
    write(child, CHILD.replace("10 + tricks", "10 + trickz"))
    broken = said(child, cached=True)
    assert broken == said(child) and [f.code for f in broken[0]] == ["W301"]
    write(child, CHILD)
    assert said(child, cached=True)[0] == []
    write(base, base_text().replace("players: {min: 3,", "players: {min: 1,", 1))
    changed = said(child, cached=True)
    assert changed == said(child) and changed[0] != []
    base.unlink()
    gone = said(child, cached=True)
    assert gone == said(child) and [f.code for f in gone[0]] == ["W400"]


def test_an_extends_that_leads_elsewhere_now_is_noticed(cache_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "rules"
    write(folder / "real.yaml", base_text())
    write(tmp_path / "outside.yaml", base_text())  # the same text, outside the folder
    (folder / "base.yaml").symlink_to("real.yaml")
    child = write(folder / "child.yaml", CHILD)
    assert said(child, cached=True)[0] == []
    (folder / "base.yaml").unlink()
    (folder / "base.yaml").symlink_to(tmp_path / "outside.yaml")
    moved = said(child, cached=True)
    assert moved == said(child) and [f.code for f in moved[0]] == ["W400"]


def test_the_options_and_the_working_folder_are_part_of_the_entry(cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    case = CASES / "clean_fractional_and_ranged_parameters.yaml"
    assert said(case, cached=True) == said(case)
    for settings in (("factor=2",), ("factor=2", "size=2"), ("cap=0",)):
        assert said(case, cached=True, settings=settings) == said(case, settings=settings)
    child = write(tmp_path / "a" / "child.yaml", CHILD.replace("10 + tricks", "10 + trickz"))
    write(tmp_path / "a" / "base.yaml", base_text())
    monkeypatch.chdir(tmp_path)
    here = said(Path("a/child.yaml"), cached=True)
    assert here == said(Path("a/child.yaml")) and here[0][0].path == "a/child.yaml"
    monkeypatch.chdir(tmp_path / "a")
    inside = said(Path("child.yaml"), cached=True)
    assert inside == said(Path("child.yaml")) and inside[0][0].path == "child.yaml"
    assert said(child, cached=True, root=tmp_path) == said(child, root=tmp_path)


def test_a_damaged_entry_is_ignored_and_written_again(cache_dir: Path) -> None:
    case = next(f for f in sorted(CASES.glob("*.yaml")) if said(f)[0])
    truth = said(case)
    assert said(case, cached=True) == truth
    (entry,) = entries(cache_dir, "lint")
    for damage in ("", "{", f'{{"key": "{entry.stem}", "checksum": "x", "value": {{}}}}', "[1, 2]"):
        entry.write_text(damage, encoding="utf-8")
        assert said(case, cached=True) == truth
    assert cache.read("lint", entry.stem) is not None


def test_no_cache_and_an_unwritable_folder_change_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    case = CASES / "clean_at_most_two_dash_calls.yaml"
    monkeypatch.setenv("WHISTDSL_NO_CACHE", "1")
    assert cache.cache_dir() is None and said(case, cached=True) == said(case)
    monkeypatch.delenv("WHISTDSL_NO_CACHE")
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("WHISTDSL_CACHE_DIR", str(tmp_path / "file" / "cache"))
    assert said(case, cached=True) == said(case)


def test_a_schema_verdict_is_kept_only_for_the_very_texts_that_passed(cache_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "rules"
    write(folder / "base.yaml", base_text())
    child = write(folder / "child.yaml", CHILD)
    assert said(child)[0] == [] and said(child)[0] == []  # the second time, the schema is known to pass
    assert entries(cache_dir, "ruleset-shape")
    write(child, CHILD + "nonsense: 1\n")
    assert [f.code for f in said(child)[0]] == [f.code for f in said(child)[0]] != []
    write(folder / "base.yaml", base_text().replace("players: {min: 3, max: 7, default: 4}", "players: {min: 3, max: seven, default: 4}"))
    write(child, CHILD)
    assert said(child)[0] != []


def test_a_record_replays_the_same_from_the_cache_and_a_changed_one_is_checked_again(cache_dir: Path, tmp_path: Path) -> None:
    from whistdsl.records.replay import RecordError, read_record, replay

    game = tmp_path / "game.json"
    environment = {**os.environ, "WHISTDSL_CACHE_DIR": str(cache_dir)}
    subprocess.run(
        [sys.executable, "-m", "whistdsl", "play", "serbian", "--watch", "--seed", "3", "--record", str(game)],
        cwd=ROOT,
        env=environment,
        check=True,
        capture_output=True,
        timeout=300,
    )
    first = replay(read_record(game), None)
    again = replay(read_record(game), None)  # record shape and ruleset schema known to pass
    assert entries(cache_dir, "record-shape") and entries(cache_dir, "ruleset-shape")
    assert (first.complete, first.hands, first.game.result) == (again.complete, again.hands, again.game.result)
    data = json.loads(game.read_text(encoding="utf-8"))
    data["hands"][0]["number"] = "one"
    game.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RecordError, match="not a valid record"):
        read_record(game)
