"""The per-user cache: results that depend only on the content of files, kept between commands.

Kept here: the text of `whistdsl --help` and each file's `whistdsl lint` result, so that a
command asked again answers without importing and running what produced it. The cache never
changes what a command prints: an entry is named by the SHA-256 of everything its value
depends on, so any change to those makes a new name and the old entry is simply not found.
Every name covers whistdsl itself (its version, the content of its code and data files, the
Python version and the installed distributions) and, per kind of entry, its inputs (the
content of the files read, the options, the working folder).

Where: `$WHISTDSL_CACHE_DIR`, else `$XDG_CACHE_HOME/whistdsl`, else `~/.cache/whistdsl`.
`WHISTDSL_NO_CACHE=1` turns it off, and so does a folder that cannot be made or written: the
commands then work as without it, only slower. An entry is written whole (a temporary file,
then a rename) and read back only when it parses and its checksum and name agree; anything
else is ignored and written again. Removing the folder is always safe.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys

from . import __version__

# Paths are strings here, not pathlib's: `whistdsl --help` from the cache imports little else.
_PACKAGE = os.path.dirname(os.path.realpath(__file__))
#: The files whose content is part of every entry's name (relative to the package or the checkout).
_CODE_SUFFIXES = (".py", ".lark", ".json")
_DATA_FOLDERS = ("grammar", "schemas")

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
    found = []
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
    return _state["code"]


def entry_key(kind: str, *parts: str | bytes) -> str:
    """The name of an entry of `kind` whose value depends on `parts` (and on whistdsl itself)."""
    digest = hashlib.sha256(f"{kind}\0{code_key()}\0".encode())
    for part in parts:
        data = part if isinstance(part, bytes) else part.encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()


def content_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_for(kind: str, *parts: str | bytes) -> str | None:
    """A file of the cache for another library to read and write itself (lark keeps its parser
    tables so, checking them against the grammar on reading), or None when the cache is off or
    cannot be written."""
    folder = cache_dir()
    if folder is None or folder in _unwritable:
        return None
    try:
        os.makedirs(os.path.join(folder, kind), mode=0o700, exist_ok=True)
    except OSError:
        _unwritable.add(folder)
        return None
    if not os.access(os.path.join(folder, kind), os.W_OK):
        return None
    return os.path.join(folder, kind, entry_key(kind, *parts))


def known(kind: str, *parts: str | bytes) -> bool:
    """Whether a check of `kind` has found nothing wrong with exactly these `parts` before
    (see `remember`): the check need not run, nor its library be imported."""
    return read(kind, entry_key(kind, *parts)) is True


def remember(kind: str, *parts: str | bytes) -> None:
    """Note that a check of `kind` found nothing wrong with these `parts` (only a clean verdict
    is kept: a check that finds something runs every time, and says it)."""
    write(kind, entry_key(kind, *parts), True)


def _entry_path(kind: str, key: str) -> str | None:
    folder = cache_dir()
    return None if folder is None else os.path.join(folder, kind, f"{key}.json")


def _checksum(value: object) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, ensure_ascii=True).encode()).hexdigest()


def read(kind: str, key: str) -> object | None:
    """The value stored under `key`, or None (no entry, the cache off, or an entry that does not
    read back whole: that one is ignored, and the next `write` replaces it)."""
    path = _entry_path(kind, key)
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            entry = json.loads(f.read())
        if not isinstance(entry, dict) or entry.get("key") != key or "value" not in entry:
            return None
        if entry.get("checksum") != _checksum(entry["value"]):
            return None
        return entry["value"]
    except (OSError, ValueError, TypeError, RecursionError):
        return None


def write(kind: str, key: str, value: object) -> None:
    """Store `value` (JSON data) under `key`; quietly nothing when the folder cannot be written."""
    path = _entry_path(kind, key)
    if path is None or cache_dir() in _unwritable:
        return
    text = json.dumps({"key": key, "checksum": _checksum(value), "value": value}, ensure_ascii=True)
    temporary = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.{os.getpid()}.tmp")
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        with open(temporary, "w", encoding="ascii") as f:
            f.write(text)
        os.replace(temporary, path)
    except (OSError, ValueError):
        _unwritable.add(cache_dir() or "")  # say nothing: the cache only saves time
        try:
            os.unlink(temporary)
        except OSError:
            pass
