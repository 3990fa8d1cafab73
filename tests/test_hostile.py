"""The hostile corpus: every folder of tests/hostile/ is one stranger's input, run as a process
(`python -m whistdsl`, forked by tests/cli_runner.py: the same bytes, a process of its own).

See tests/hostile/README.md for a case's format. Each case must end with its expected exit code
and message, within its timeout and a 2 GB memory cap (of its own, over what the fork starts
with), never with a traceback, and without a raw control character in anything it prints.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from cli_runner import whistdsl

HOSTILE = Path(__file__).parent / "hostile"
CASES = sorted(p.parent for p in HOSTILE.glob("*/case.yaml"))
MEMORY_CAP = 2 * 1024**3
#: C0 controls except tab and newline, DEL and C1 controls: none may be printed raw.
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _setup(work: Path, steps: list[dict]) -> None:
    for step in steps or []:
        ((action, value),) = step.items()
        if action == "mkfifo":
            os.mkfifo(work / value)
        elif action == "symlink":
            target, name = value
            (work / name).symlink_to(target)
        elif action == "write":
            (work / value["path"]).parent.mkdir(parents=True, exist_ok=True)
            with open(work / value["path"], "w", encoding="utf-8", errors="surrogatepass") as f:
                f.write(value.get("head", ""))
                for _ in range(value.get("times", 1)):
                    f.write(value["text"])
                f.write(value.get("tail", ""))
        elif action == "write_bytes":
            (work / value["path"]).write_bytes(bytes.fromhex(value["hex"]))
        elif action == "mkdir":
            (work / value).mkdir(parents=True, exist_ok=True)
        elif action == "truncate":  # a file of this many bytes, sparse: large without being written
            path, size = value
            with open(work / path, "wb") as f:
                f.truncate(size)
        elif action == "chmod":
            path, mode = value
            os.chmod(work / path, mode)
        else:
            raise AssertionError(f"unknown setup step {action!r}")


def test_the_corpus_is_large_enough():
    assert len(CASES) >= 60, f"only {len(CASES)} hostile cases"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hostile_input_gets_a_clear_answer(case: Path, tmp_path: Path):
    spec = yaml.safe_load((case / "case.yaml").read_text(encoding="utf-8"))
    work = tmp_path / case.name
    shutil.copytree(case, work, symlinks=True)
    _setup(work, spec.get("setup"))
    env = {"COLUMNS": "100", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8", "FORCE_COLOR": None, **spec.get("env", {})}
    stdin = spec.get("stdin")
    try:
        done = whistdsl(*spec["args"], cwd=work, input=stdin, timeout=spec.get("timeout", 30), env=env, memory_cap=MEMORY_CAP)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{case.name}: no answer within {spec.get('timeout', 30)} s (a hang)")
    out = done.stdout.decode("utf-8", "replace") + done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in out, out
    assert "MemoryError" not in out, out
    assert not RAW_CONTROL.search(out), f"raw control character in the output: {out!r}"
    assert done.returncode == spec["exit"], f"exit {done.returncode}, expected {spec['exit']}:\n{out}"
    for text in spec.get("output", []):
        assert text in out, f"{text!r} not in the output:\n{out}"
    for text in spec.get("not_output", []):
        assert text not in out, f"{text!r} should not be in the output:\n{out}"
