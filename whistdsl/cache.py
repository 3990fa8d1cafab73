"""The per-user cache: results that depend only on the content of files, kept between commands.

Kept here: the text of `whistdsl --help` and each file's `whistdsl lint` result, so that a
command asked again answers without importing and running what produced it. The cache never
changes what a command prints: an entry is named by the SHA-256 of everything its value
depends on, so any change to those makes a new name and the old entry is simply not found.
Every name covers whistdsl itself (its version, the content of its code and data files, the
Python version and the installed distributions: `code_key`) and, per kind of entry, its inputs
(the content of the files read, the options, the working folder).

Where: `$WHISTDSL_CACHE_DIR`, else `$XDG_CACHE_HOME/whistdsl`, else `~/.cache/whistdsl`.
`WHISTDSL_NO_CACHE=1` turns it off, and so does a folder that cannot be made or written: the
commands then work as without it, only slower. Each whistdsl keeps its entries in a folder of
its own, named by the start of its code key: `<cache>/<code>/<kind>/<key>.json`. An entry is
written whole (a temporary file, then a rename) and read back only when it is a regular file
no larger than MAX_ENTRY_BYTES that parses and whose checksum and name agree; anything else is
ignored and written again. Removing the folder is always safe.

Pruning (`prune`), by the first write of a command once PRUNE_EVERY has passed since the last
(a stamp file in the cache folder says when): the folders of another whistdsl (an upgrade, an
edited checkout) that has written nothing for OTHER_CODE_KEPT are removed, and so are the
folders of whistdsl before this layout; then, while the entries take more than MAX_BYTES, the
oldest written is removed first. Pruning looks at names and file status only: it never opens an
entry (a FIFO cannot make it wait), never follows a symbolic link (it removes the link), and
removes only names whistdsl writes, so a cache folder set to a folder of the person's loses
nothing else.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import sys
import threading
import time

from .version import __version__

# Paths are strings here, not pathlib's: `whistdsl --help` from the cache imports little else.
_PACKAGE = os.path.dirname(os.path.realpath(__file__))
#: The files whose content is part of every entry's name (relative to the package or the checkout).
_CODE_SUFFIXES = (".py", ".lark", ".json")
_DATA_FOLDERS = ("grammar", "schemas")

#: An entry larger than this is neither written nor read (a file put there cannot fill the memory).
MAX_ENTRY_BYTES = 8 * 1024 * 1024
#: The cache's size cap, as the disk counts it: past it, the oldest entries are removed.
MAX_BYTES = 50 * 1024 * 1024
#: Seconds between two prunings at most (the first write of a command after this long prunes).
PRUNE_EVERY = 60 * 60
#: Seconds another whistdsl's entries stay after its last write (two installs may share the cache).
OTHER_CODE_KEPT = 24 * 60 * 60
#: The stamp whose time says when the cache was last pruned.
PRUNED_STAMP = ".pruned"
#: How many hex digits of the code key name its folder.
_CODE_DIGITS = 16
_CODE_FOLDER = re.compile(f"[0-9a-f]{{{_CODE_DIGITS}}}")
#: The kinds' folders of whistdsl 0.1.0, which kept every entry in `<cache>/<kind>/`.
_OLD_LAYOUT = frozenset({"help", "lint", "lark", "parsed", "record-shape", "ruleset-shape"})

_state: dict = {}
#: The cache folders found not writable in this process: not tried again.
_unwritable: set[str] = set()


def cache_dir() -> str | None:
    """The cache folder, or None when the cache is off."""
    if os.environ.get("WHISTDSL_NO_CACHE", "") not in ("", "0"):
        return None
    given = os.environ.get("WHISTDSL_CACHE_DIR")
    if given:
        return given
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):
        return os.path.join(xdg, "whistdsl")
    home = os.path.expanduser("~")
    return None if home == "~" else os.path.join(home, ".cache", "whistdsl")


def _files_under(folder: str) -> list[str]:
    found: list[str] = []
    for top, folders, files in os.walk(folder):
        folders[:] = [f for f in folders if f != "__pycache__"]
        found.extend(os.path.join(top, f) for f in files if f.endswith(_CODE_SUFFIXES))
    return found


def _code_files() -> list[str]:
    """whistdsl's own code and data: the package's files, and grammar/ and schemas/ (beside the
    package in a checkout, inside it in a wheel)."""
    files = _files_under(_PACKAGE)
    for name in _DATA_FOLDERS:
        outside = os.path.join(os.path.dirname(_PACKAGE), name)
        if not os.path.isdir(os.path.join(_PACKAGE, name)) and os.path.isdir(outside):
            files.extend(_files_under(outside))
    return sorted(files)


def _distributions() -> list[str]:
    """The installed distributions with their versions (the names of the `*.dist-info` folders on
    the import path): another version of lark, jsonschema or typer may word things differently."""
    found: set[str] = set()
    for entry in sys.path:
        try:
            with os.scandir(entry or ".") as it:
                found.update(e.name for e in it if e.name.endswith((".dist-info", ".egg-info")))
        except OSError:
            continue
    return sorted(found)


def code_key() -> str:
    """The SHA-256 of whistdsl itself as installed: part of the name of every entry."""
    if "code" not in _state:
        digest = hashlib.sha256()
        for part in (__version__, sys.version, *_distributions()):
            digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
        top = os.path.dirname(_PACKAGE)
        for path in _code_files():
            try:
                with open(path, "rb") as f:
                    content = f.read()
            except OSError:
                content = b"\0unreadable"
            digest.update(os.path.relpath(path, top).replace(os.sep, "/").encode("utf-8", "surrogatepass") + b"\0")
            digest.update(hashlib.sha256(content).digest())
        _state["code"] = digest.hexdigest()
    return _state["code"]  # type: ignore[no-any-return]  # the code digest kept in the module's state is a str


def entry_key(kind: str, *parts: str | bytes) -> str:
    """The name of an entry of `kind` whose value depends on `parts` (and on whistdsl itself)."""
    digest = hashlib.sha256(f"{kind}\0{code_key()}\0".encode())
    for part in parts:
        data = part if isinstance(part, bytes) else part.encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()


def content_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def entries_dir() -> str | None:
    """The folder of this whistdsl's entries (in the cache folder), or None when the cache is off."""
    folder = cache_dir()
    return None if folder is None else os.path.join(folder, code_key()[:_CODE_DIGITS])


def _kind_dir(kind: str) -> str | None:
    """The folder of the entries of `kind`, made if need be and pruned first when it is time, or
    None when the cache is off or cannot be written here. The folders on the way are the
    cache's own: a symbolic link in their place is not followed (nothing is written)."""
    folder = cache_dir()
    if folder is None or folder in _unwritable:
        return None
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)  # the folder itself is the person's to choose (a link too)
    except OSError:
        _unwritable.add(folder)
        return None
    _prune_when_due(folder)
    path = folder
    for name in (code_key()[:_CODE_DIGITS], kind):
        path = os.path.join(path, name)
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass
        except OSError:
            _unwritable.add(folder)
            return None
        try:
            if not stat.S_ISDIR(os.lstat(path).st_mode):
                return None
        except OSError:
            return None
    return path


def file_for(kind: str, *parts: str | bytes) -> str | None:
    """A file of the cache for another library to read and write itself (lark keeps its parser
    tables so, checking them against the grammar on reading), or None when the cache is off or
    cannot be written."""
    folder = _kind_dir(kind)
    if folder is None or not os.access(folder, os.W_OK):
        return None
    path = os.path.join(folder, entry_key(kind, *parts))
    try:
        status = os.lstat(path)
    except FileNotFoundError:
        return path
    except OSError:
        return None
    if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_ENTRY_BYTES:
        _remove(path)  # the library would follow a link, wait on a FIFO, or read it all
    return path


def known(kind: str, *parts: str | bytes) -> bool:
    """Whether a check of `kind` has found nothing wrong with exactly these `parts` before
    (see `remember`): the check need not run, nor its library be imported."""
    return read(kind, entry_key(kind, *parts)) is True


def remember(kind: str, *parts: str | bytes) -> None:
    """Note that a check of `kind` found nothing wrong with these `parts` (only a clean verdict
    is kept: a check that finds something runs every time, and says it)."""
    write(kind, entry_key(kind, *parts), True)


def _checksum(value: object) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, ensure_ascii=True).encode()).hexdigest()


def read(kind: str, key: str) -> object | None:
    """The value stored under `key`, or None (no entry, the cache off, or an entry that does not
    read back whole: that one is ignored, and the next `write` replaces it)."""
    folder = entries_dir()
    if folder is None:
        return None
    try:
        # not through a symbolic link, never waiting for a FIFO's writer; a regular file only
        fd = os.open(os.path.join(folder, kind, f"{key}.json"), os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_ENTRY_BYTES:
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            entry = json.loads(f.read(MAX_ENTRY_BYTES + 1))
        if not isinstance(entry, dict) or entry.get("key") != key or "value" not in entry:
            return None
        if entry.get("checksum") != _checksum(entry["value"]):
            return None
        return entry["value"]  # type: ignore[no-any-return]  # a cache entry's value is read back from JSON: any value
    except (OSError, ValueError, TypeError, RecursionError):
        return None
    finally:
        os.close(fd)


def write(kind: str, key: str, value: object) -> None:
    """Store `value` (JSON data) under `key`; quietly nothing when the folder cannot be written."""
    text = json.dumps({"key": key, "checksum": _checksum(value), "value": value}, ensure_ascii=True)
    if len(text) > MAX_ENTRY_BYTES:
        return
    folder = _kind_dir(kind)
    if folder is None:
        return
    path = os.path.join(folder, f"{key}.json")
    # the process's and the thread's number: `whistdsl serve` lints in threads
    temporary = os.path.join(folder, f".{key}.json.{os.getpid()}-{threading.get_ident()}.tmp")
    try:
        try:
            made = open(temporary, "x", encoding="ascii")  # noqa: SIM115 closed by the `with made` below  # never through a name already there
        except FileExistsError:  # left by a process of the same number that was stopped
            os.unlink(temporary)
            made = open(temporary, "x", encoding="ascii")  # noqa: SIM115 closed by the `with made` below
        with made as f:
            f.write(text)
        os.replace(temporary, path)
    except (OSError, ValueError):
        _unwritable.add(cache_dir() or "")  # say nothing: the cache only saves time
        try:
            os.unlink(temporary)
        except OSError:
            pass


# ---------------------------------------------------------------- pruning (see the module's docstring)


def _prune_when_due(folder: str) -> None:
    """Prune `folder` when PRUNE_EVERY has passed since it was last pruned (once a process at most)."""
    if _state.get("pruned") == folder:
        return
    _state["pruned"] = folder
    now = time.time()
    try:
        stamp = os.lstat(os.path.join(folder, PRUNED_STAMP))
        if stat.S_ISREG(stamp.st_mode) and 0 <= now - stamp.st_mtime < PRUNE_EVERY:
            return
    except FileNotFoundError:
        pass
    except OSError:
        return
    prune(folder, now)


def prune(folder: str, now: float) -> None:
    """Prune the cache folder `folder` as of the time `now` (see the module's docstring), and
    stamp it. Quietly does what it can: a name that cannot be removed stays."""
    stamp = os.path.join(folder, PRUNED_STAMP)
    _remove(stamp)
    try:
        os.close(os.open(stamp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600))
        os.utime(stamp, (now, now))
    except OSError:
        return  # not writable: nothing to prune either
    mine = code_key()[:_CODE_DIGITS]
    entries: list[tuple[float, int, str]] = []  # (written, bytes on disk, path) of the entries kept
    for name, status in _listed(folder):
        path = os.path.join(folder, name)
        if _CODE_FOLDER.fullmatch(name):
            if not stat.S_ISDIR(status.st_mode):
                _remove(path)
                continue
            kinds = _listed(path)
            last = max([status.st_mtime, *(s.st_mtime for _, s in kinds)])
            if name != mine and not 0 <= now - last < OTHER_CODE_KEPT:
                _remove(path)
                continue
            for kind, kind_status in kinds:
                if not stat.S_ISDIR(kind_status.st_mode):
                    _remove(os.path.join(path, kind))
                    continue
                for entry, entry_status in _listed(os.path.join(path, kind)):
                    entry_path = os.path.join(path, kind, entry)
                    if not stat.S_ISREG(entry_status.st_mode) or entry_status.st_size > MAX_ENTRY_BYTES:
                        _remove(entry_path)  # a link, a FIFO, a folder, a file too large: never written by whistdsl
                    elif entry.endswith(".tmp") and not 0 <= now - entry_status.st_mtime < PRUNE_EVERY:
                        _remove(entry_path)  # left by a write that was stopped
                    else:
                        entries.append((entry_status.st_mtime, _on_disk(entry_status), entry_path))
        elif name in _OLD_LAYOUT:
            _remove(path)
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries):
        if total <= MAX_BYTES:
            break
        _remove(path)
        total -= size


def _listed(folder: str) -> list[tuple[str, os.stat_result]]:
    """The names in `folder` with their own status (a link's, not its target's); none when it cannot be read."""
    found = []
    try:
        with os.scandir(folder) as it:
            for item in it:
                try:
                    found.append((item.name, item.stat(follow_symlinks=False)))
                except OSError:
                    continue
    except OSError:
        pass
    return found


def _on_disk(status: os.stat_result) -> int:
    """What a file takes on the disk (its blocks where the system says them)."""
    blocks = getattr(status, "st_blocks", None)
    return status.st_size if blocks is None else max(blocks * 512, status.st_size)


def _remove(path: str) -> None:
    """Remove `path` whatever it is, a link itself and never what it leads to; quietly nothing
    when it cannot be."""
    try:
        if stat.S_ISDIR(os.lstat(path).st_mode):
            import shutil

            shutil.rmtree(path, ignore_errors=True)  # it never follows a link inside
        else:
            os.unlink(path)
    except OSError:
        pass
