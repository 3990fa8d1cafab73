"""The per-user cache folder (whistdsl/cache.py) is pruned: another whistdsl's entries go once it
has written nothing for a day, the layout of whistdsl 0.1.0 goes, the oldest entries go past the
size cap, and pruning happens by itself at most once an hour. Hostile contents (links, FIFOs,
folders and huge files named like entries) never make it follow a link out of the folder, wait,
or read without end; names whistdsl never writes are left alone.

Times are set on the files (os.utime) and given to `prune`: nothing here waits for a clock.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_runner import whistdsl

from whistdsl import cache

DAY = 24 * 60 * 60
#: A folder named as another whistdsl's code would be (cache.py: the first 16 hex digits of its code key).
OTHER = "0123456789abcdef"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of this test's own, and no pruning done in this process yet."""
    where = tmp_path / "cache"
    monkeypatch.setenv("WHISTDSL_CACHE_DIR", str(where))
    monkeypatch.setattr(cache, "_state", {})
    return where


def _mine(folder: Path) -> Path:
    return folder / cache.code_key()[:16]


def _file(path: Path, text: str = "{}", written: float | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if written is not None:
        _age(path, written)
    return path


def _age(path: Path, written: float) -> None:
    """Set when `path` (a link itself, not what it leads to) was last written."""
    os.utime(path, (written, written), follow_symlinks=False)


def _another_whistdsl(folder: Path, name: str, written: float) -> Path:
    """Entries of another whistdsl whose last write was at `written`."""
    entry = _file(folder / name / "lint" / f"{'a' * 64}.json", written=written)
    _age(entry.parent, written)
    _age(entry.parent.parent, written)
    return entry


def test_another_whistdsl_s_entries_go_after_a_day_without_a_write_and_the_old_layout_goes(folder: Path) -> None:
    now = time.time()
    cache.write("help", "k" * 64, "help text")
    stale = _another_whistdsl(folder, OTHER, now - DAY - 60)
    recent = _another_whistdsl(folder, "fedcba9876543210", now - DAY + 60)
    old_layout = [_file(folder / kind / f"{'b' * 64}.json") for kind in ("help", "lint", "lark", "parsed", "record-shape", "ruleset-shape")]
    theirs = [_file(folder / "notes.txt", "mine"), _file(folder / "a folder" / "kept.json", "mine"), _file(folder / "0123" / "x.json")]
    cache.prune(str(folder), now)
    assert not stale.parent.parent.exists(), "another whistdsl's entries, unwritten for a day"
    assert recent.exists(), "another whistdsl written to within the day (two installs may share the cache)"
    assert not any(p.parent.exists() for p in old_layout), "whistdsl 0.1.0's folders"
    assert all(p.read_text(encoding="utf-8") in ("mine", "{}") for p in theirs), "names whistdsl never writes are left alone"
    assert cache.read("help", "k" * 64) == "help text", "this whistdsl's own entries stay"


def test_past_the_size_cap_the_oldest_entries_go_first(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    now = time.time()
    size = 100 * 1024
    monkeypatch.setattr(cache, "MAX_BYTES", int(5.5 * size))  # room for five (a file takes its size, up to a block more)
    kinds = ["lint", "parsed", "help"]
    written = {}
    for i in range(9):  # across kinds and two whistdsls: one cap for the folder
        where = _mine(folder) if i % 2 else folder / OTHER
        written[i] = _file(where / kinds[i % 3] / f"{i:064d}.json", "x" * size, written=now - 1000 + i)
    for where in (_mine(folder), folder / OTHER):
        for kind in where.iterdir():
            _age(kind, now - 100)
        _age(where, now - 100)
    cache.prune(str(folder), now)
    assert [i for i, path in written.items() if path.exists()] == [4, 5, 6, 7, 8]


def test_entries_left_by_a_stopped_write_go_after_an_hour(folder: Path) -> None:
    now = time.time()
    stale = _file(_mine(folder) / "lint" / f".{'c' * 64}.json.4242.tmp", written=now - cache.PRUNE_EVERY - 1)
    fresh = _file(_mine(folder) / "lint" / f".{'d' * 64}.json.4243.tmp", written=now - 10)  # a write under way
    cache.prune(str(folder), now)
    assert not stale.exists() and fresh.exists()


def test_a_command_prunes_by_itself_at_most_once_an_hour(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    ruleset = _file(tmp_path / "house.yaml", "whistdsl: 1\nextends: serbian\nname: House whist\n")

    def lint_and_say_if_pruned() -> bool:
        entry = _another_whistdsl(folder, OTHER, time.time() - 2 * DAY)
        ruleset.write_text(ruleset.read_text(encoding="utf-8") + "#\n", encoding="utf-8")  # a new text: a new entry is written
        done = whistdsl("lint", ruleset, env={"WHISTDSL_CACHE_DIR": str(folder)})
        assert done.returncode == 0, done.stderr
        return not entry.exists()

    assert lint_and_say_if_pruned(), "the first write into a cache never pruned prunes it"
    stamp = folder / cache.PRUNED_STAMP
    assert not lint_and_say_if_pruned(), "pruned within the hour: not again"
    _age(stamp, time.time() - cache.PRUNE_EVERY - 1)
    assert lint_and_say_if_pruned(), "an hour later: pruned again"
    _age(stamp, time.time() + DAY)
    assert lint_and_say_if_pruned(), "a stamp from the future (the clock was wrong) is not believed"


def _in_a_process(code: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """`code` run with `folder` as the cache: a wait on a FIFO would be a timeout here, not a hung suite."""
    return subprocess.run(
        [sys.executable, "-c", "import time\nfrom pathlib import Path\nfrom whistdsl import cache\n" + code],
        env={**os.environ, "WHISTDSL_CACHE_DIR": str(folder)},
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )


def test_hostile_contents_are_removed_without_following_a_link_waiting_or_reading_them(folder: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    precious = _file(outside / "precious.json", "keep me")
    mine = _mine(folder)
    cache.write("lint", "e" * 64, ["an entry"])
    os.symlink(outside, folder / "fedcba9876543210")  # named as another whistdsl's folder
    os.symlink(outside, mine / "parsed")  # a kind's folder
    os.symlink(precious, mine / "lint" / f"{'1' * 64}.json")  # an entry
    os.mkfifo(mine / "lint" / f"{'2' * 64}.json")
    _file(mine / "lint" / f"{'3' * 64}.json" / "inside.json")  # a folder named as an entry
    with open(mine / "lint" / f"{'4' * 64}.json", "wb") as huge:  # 100 MB, sparse: nothing is written
        huge.truncate(100 * 1024 * 1024)
    (folder / cache.PRUNED_STAMP).unlink()  # the write stamped it
    os.mkfifo(folder / cache.PRUNED_STAMP)
    for name in "1234":  # reading them: nothing, at once
        _in_a_process(f"assert cache.read('lint', {name * 64!r}) is None", folder)
    _in_a_process("cache.prune(cache.cache_dir(), time.time())", folder)
    assert precious.read_text(encoding="utf-8") == "keep me" and sorted(p.name for p in outside.iterdir()) == ["precious.json"]
    assert sorted(p.name for p in (mine / "lint").iterdir()) == [f"{'e' * 64}.json"]
    assert sorted(p.name for p in mine.iterdir()) == ["lint"]
    assert sorted(p.name for p in folder.iterdir()) == [cache.PRUNED_STAMP, mine.name]
    assert (folder / cache.PRUNED_STAMP).is_file()
    assert cache.read("lint", "e" * 64) == ["an entry"]


def test_a_link_or_fifo_where_an_entry_or_lark_s_tables_go_is_never_written_through(folder: Path, tmp_path: Path) -> None:
    outside = _file(tmp_path / "outside" / "precious.json", "keep me")
    mine = _mine(folder)
    (mine / "help").mkdir(parents=True)
    os.symlink(outside.parent, mine / "lint")  # a kind's folder that leads out
    cache.write("lint", "f" * 64, "value")
    assert sorted(p.name for p in outside.parent.iterdir()) == ["precious.json"], "nothing written outside the cache"
    os.symlink(outside, mine / "help" / f"{'f' * 64}.json")
    cache.write("help", "f" * 64, "value")
    assert outside.read_text(encoding="utf-8") == "keep me" and cache.read("help", "f" * 64) == "value", "the link replaced, not followed"
    os.symlink(outside, mine / "help" / f".{'9' * 64}.json.{os.getpid()}.tmp")  # where the write starts
    cache.write("help", "9" * 64, "value")
    assert outside.read_text(encoding="utf-8") == "keep me" and cache.read("help", "9" * 64) == "value"
    # lark reads and writes its tables itself: what is there in their place, other than a file, is removed first
    tables = Path(cache.file_for("lark", "a grammar"))  # type: ignore[arg-type]
    tables.unlink(missing_ok=True)
    os.mkfifo(tables)
    _in_a_process("path = cache.file_for('lark', 'a grammar'); assert not Path(path).exists()", folder)
