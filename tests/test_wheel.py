"""The wheel carries the grammar, the schema and the bundled rulesets, and its `whistdsl` works
from any directory once installed (not editable) into a fresh virtual environment.

The wheel is built the way a release is (`python -m build`: an sdist, then the wheel from that
sdist), so a file missing from either shows up here. Installing needs the package index for the
dependencies; only a network failure there skips the test, with the reason.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
from conftest import HOMES, PERSON

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("wheel")]  # one worker builds the wheel once

#: pip's words for "the index could not be reached" (as opposed to a broken requirement).
NETWORK_TROUBLE = re.compile(
    r"NewConnectionError|ConnectionError|ConnectTimeout|ReadTimeout|Max retries exceeded|"
    r"Temporary failure in name resolution|Name or service not known|Network is unreachable|"
    r"ProxyError|SSLError|No route to host",
)


def run(args: list[str | Path], cwd: Path, timeout: float = 300, **env: str | None) -> subprocess.CompletedProcess[str]:
    """`args` in the suite's environment without a Python path or virtual environment; in `env`,
    None unsets a variable."""
    clean_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    clean_env.update(env)
    clean_env = {k: v for k, v in clean_env.items() if v is not None}
    return subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=clean_env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


#: The tools that are not under test read the person's configuration in their home folder (pip's
#: package index, certificates and cache; git's safe folders), not the temporary one
#: tests/conftest.py gives the code under test.
PERSONS_HOME = {name: PERSON[name] for name in HOMES}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    pytest.importorskip("build", reason="the test extra installs `build`: pip install -e '.[test]'")
    done = run([sys.executable, "-m", "build", "--outdir", out, ROOT], cwd=out, **PERSONS_HOME)
    if done.returncode != 0 and NETWORK_TROUBLE.search(done.stdout + done.stderr):
        pytest.skip(f"cannot fetch the build backend from the package index:\n{done.stderr[-2000:]}")
    assert done.returncode == 0, done.stdout + done.stderr
    (found,) = out.glob("whistdsl-*.whl")
    return found


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel installed; returns its bin directory."""
    home = tmp_path_factory.mktemp("venv")
    venv.create(home, with_pip=True)
    bin_dir = home / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / "python"
    # the wheel itself must install without the network ...
    done = run([python, "-m", "pip", "install", "--no-deps", wheel], cwd=home, **PERSONS_HOME)
    assert done.returncode == 0, done.stdout + done.stderr
    # ... its dependencies come from the package index
    done = run([python, "-m", "pip", "install", "--retries", "1", "--timeout", "30", wheel], cwd=home, **PERSONS_HOME)
    if done.returncode != 0 and NETWORK_TROUBLE.search(done.stdout + done.stderr):
        pytest.skip(f"cannot install the dependencies from the package index:\n{done.stderr[-2000:]}")
    assert done.returncode == 0, done.stdout + done.stderr
    return bin_dir


def test_the_wheel_carries_the_grammar_the_schema_and_the_bundled_rulesets(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in (
        "whistdsl/grammar/expression.lark",
        "whistdsl/schemas/ruleset.schema.json",
        "whistdsl/rulesets/serbian.yaml",
        "whistdsl/rulesets/romanian.yaml",
        "whistdsl/__main__.py",
    ):
        assert name in names, f"{name} is missing from {wheel.name}"
    bundled = {p.relative_to(ROOT).as_posix() for p in (ROOT / "rulesets").rglob("*.yaml")}
    assert {f"whistdsl/{p}" for p in bundled} <= names
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "whistdsl = whistdsl.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_installed_whistdsl_is_the_wheel_not_the_checkout(installed: Path, tmp_path: Path) -> None:
    done = run([installed / "python", "-c", "import whistdsl, sys; print(whistdsl.__file__)"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()).resolve().is_relative_to(installed.parent.resolve())


def test_installed_whistdsl_lints_its_bundled_rulesets_from_another_directory(installed: Path, tmp_path: Path) -> None:
    where = run(
        [installed / "python", "-c", "from whistdsl.resources import data_dir; print(data_dir('rulesets'))"],
        cwd=tmp_path,
    )
    assert where.returncode == 0, where.stderr
    bundled = Path(where.stdout.strip())
    assert bundled.resolve().is_relative_to(installed.parent.resolve()), "rulesets must come from the wheel"
    done = run([installed / "whistdsl", "lint", bundled], cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "all clean" in done.stdout
    count = len(list((ROOT / "rulesets").rglob("*.yaml")))
    assert f"{count} ruleset(s) checked" in done.stdout


def test_installed_whistdsl_reports_findings_with_exit_code_1(installed: Path, tmp_path: Path) -> None:
    bad = tmp_path / "house.yaml"
    bad.write_text("whistdsl: 1\nextends: serbian\nscoring:\n  points: if made then 10 + trick else 0\n", "utf-8")
    done = run([installed / "whistdsl", "lint", "--format", "json", "house.yaml"], cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    (finding,) = json.loads(done.stdout)
    assert (finding["path"], finding["line"], finding["code"]) == ("house.yaml", 4, "W301")


def test_installed_whistdsl_prints_the_schema(installed: Path, tmp_path: Path) -> None:
    done = run([installed / "whistdsl", "schema"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads((ROOT / "schemas" / "ruleset.schema.json").read_text("utf-8"))


def test_installed_whistdsl_lists_the_bundled_rulesets(installed: Path, tmp_path: Path) -> None:
    done = run([installed / "whistdsl", "list"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    listed = {line.split()[0] for line in done.stdout.splitlines() if line.strip()}
    assert {"serbian", "romanian"} <= listed
    assert "does not lint clean" not in done.stdout


def test_installed_whistdsl_scores_a_bundled_ruleset_by_name(installed: Path, tmp_path: Path) -> None:
    done = run([installed / "whistdsl", "score", "serbian", "--cards", "13", "--bid", "2", "--tricks", "2"], cwd=tmp_path)
    assert (done.returncode, done.stdout.strip()) == (0, "12"), done.stderr


def test_python_dash_m_whistdsl_works_like_the_script(installed: Path, tmp_path: Path) -> None:
    done = run([installed / "python", "-m", "whistdsl", "--help"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "lint" in done.stdout and "Traceback" not in done.stderr


# ---------------------------------------------------------------- one source of truth


def repository_files() -> list[str]:
    """Every file of the checkout that git would commit (or, without git, every non-hidden file)."""
    try:
        done = run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT, timeout=60, **PERSONS_HOME)
        if done.returncode == 0 and done.stdout.strip():
            return [p for p in done.stdout.splitlines() if (ROOT / p).is_file()]
    except (OSError, subprocess.SubprocessError):
        pass
    skip = {"build", "dist", "venv", "__pycache__", "node_modules"}
    files = []
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in skip and not d.endswith(".egg-info")]
        files += [Path(folder, n).relative_to(ROOT).as_posix() for n in names]
    return files


def test_the_grammar_and_the_schema_exist_once_in_the_repository() -> None:
    files = repository_files()
    grammars = [f for f in files if f.endswith(".lark")]
    assert grammars == ["grammar/expression.lark"]
    schemas = [f for f in files if f.endswith("ruleset.schema.json")]
    assert schemas == ["schemas/ruleset.schema.json"]
    # no copy inside the package either: the wheel build puts them there
    for data in ("grammar", "schemas", "rulesets"):
        assert not (ROOT / "whistdsl" / data).exists(), f"whistdsl/{data} would be a second copy of {data}/"
