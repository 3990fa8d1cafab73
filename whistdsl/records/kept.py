"""The kept games: every game played with a person at the table is written, as an ordinary game
record, into a per-user folder, so that no game is lost to Ctrl-C or the end of input.

Where: `$WHISTDSL_DATA_DIR/games` when that variable is set, else `games/` in the per-user data
folder platformdirs gives (`~/.local/share/whistdsl/games` on Linux). A kept game is named by
the time it started and its ruleset (`20261201-221530-house-whist.json`), so names sort by time.
`whistdsl play --resume` continues the latest unfinished one, `whistdsl games` lists them.

The folder does not grow without end: an unfinished game is kept until it is finished (or the
player removes it), and of the finished ones the newest KEEP_FINISHED are kept: when a new game
starts, older finished ones are removed (`prune`). `whistdsl games --clean` removes every
finished game at once. Only a kept game whistdsl wrote is ever removed: a regular file named as
`new_game_path` names one, holding a whistdsl record.

Whatever else is in the folder is hostile input like any other file: each `*.json` is read as a
record is (records/reading.py), but only a regular file (a symbolic link, a named pipe, a device
or a folder is not opened, nor waited on), at most MAX_KEPT_BYTES of it, its nesting counted
before it is parsed. Such a file is listed as unreadable, and never stops `whistdsl games`,
`play --resume` or a new game.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from .reading import NotARecord, read_record_json

#: The variable that names the data folder instead of the per-user one (the tests set it).
DATA_DIR_VARIABLE = "WHISTDSL_DATA_DIR"
#: A kept record is read whole to list it; a file larger than this is listed as too large
#: (a game of 1000 hands is a few MiB), having read no more of it than this.
MAX_KEPT_BYTES = 16 * 1024 * 1024
#: The name `new_game_path` gives a kept game: `20261201-221530-house-whist.json`, `...-2.json`.
KEPT_NAME = re.compile(r"\d{8}-\d{6}-[a-z0-9-]+\.json")
#: How many finished games stay kept (the newest); unfinished ones stay until they are finished.
KEEP_FINISHED = 50


def data_dir() -> Path:
    """whistdsl's per-user data folder (not made here)."""
    given = os.environ.get(DATA_DIR_VARIABLE)
    if given:
        return Path(given).expanduser()
    import platformdirs  # only when it is needed: the variable above spares the import

    return Path(platformdirs.user_data_dir("whistdsl", appauthor=False))


def games_dir() -> Path:
    """The folder of the kept games (not made here)."""
    return data_dir() / "games"


def _file_safe(name: str) -> str:
    """`House whist (1-8-1)` -> `house-whist-1-8-1`: letters, digits and dashes only."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40].strip("-")
    return slug or "game"


def new_game_path(ruleset_name: str, now: float | None = None) -> Path:
    """A new kept game's file, in a folder made if need be: `YYYYMMDD-HHMMSS-ruleset.json`, with
    `-2`, `-3` ... when that name is taken. Raises OSError when the folder cannot be made."""
    folder = games_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    base = f"{stamp}-{_file_safe(ruleset_name)}"
    path = folder / f"{base}.json"
    number = 2
    while path.exists():
        path = folder / f"{base}-{number}.json"
        number += 1
    return path


@dataclass(frozen=True)
class KeptGame:
    """What `whistdsl games` says of one kept game; `problem` is set when the file cannot be read
    as a record (then the other facts are empty)."""

    path: Path
    written: float  # the time of the last write (the file's modification time)
    ruleset: str = ""
    players: tuple[str, ...] = ()
    hands: int = 0
    finished: bool = False
    winners: tuple[str, ...] = ()
    problem: str = ""

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def resumable(self) -> bool:
        return not self.problem and not self.finished

    @property
    def removable(self) -> bool:
        """A finished game whistdsl kept (a record, named as `new_game_path` names one): `prune`
        may remove it; nothing else is ever removed."""
        return self.finished and not self.problem and KEPT_NAME.fullmatch(self.name) is not None


def read_kept(path: Path) -> KeptGame:
    """The facts of one kept game's file; never raises, nor waits, for what the path is or the
    file holds (see the module's docstring)."""
    try:
        written = os.lstat(path).st_mtime
    except OSError as e:
        return KeptGame(path, 0.0, problem=e.strerror or str(e))
    try:
        data = read_record_json(path, MAX_KEPT_BYTES, follow_links=False)
    except NotARecord as e:
        return KeptGame(path, written, problem=str(e))
    try:
        if not str(data["format"]).startswith("whistdsl-record/"):
            raise ValueError("not a whistdsl record")
        ruleset = str(data["ruleset"]["name"])
        players = tuple(str(p["name"]) for p in data["players"])
        hands = len(data["hands"])
        final = data.get("final")
        winners = tuple(players[w] for w in final["winners"]) if final else ()
    except (ValueError, KeyError, TypeError, IndexError, AttributeError):
        return KeptGame(path, written, problem="not a game record")
    return KeptGame(path, written, ruleset, players, hands, final is not None, winners)


def kept_games() -> list[KeptGame]:
    """Every kept game, the latest written first (an absent folder holds none)."""
    try:
        paths = [p for p in games_dir().iterdir() if p.suffix == ".json" and not p.name.startswith(".")]
    except OSError:
        return []
    games = [read_kept(p) for p in paths]
    return sorted(games, key=lambda g: (g.written, g.name), reverse=True)


def prune(keep: int | None = None) -> list[KeptGame]:
    """Remove the finished games but the newest `keep` (default KEEP_FINISHED; 0: every finished
    game), and return those removed. Only a kept game whistdsl wrote is removed (a regular file
    named as it names them, holding a finished record); an unfinished game and anything else
    stay, and so does a file that cannot be removed (it is tried again next time)."""
    keep = KEEP_FINISHED if keep is None else max(keep, 0)
    finished = [g for g in kept_games() if g.removable]
    removed = []
    for game in finished[keep:]:
        try:
            game.path.unlink()
        except OSError:
            continue
        removed.append(game)
    return removed


def latest_unfinished() -> KeptGame | None:
    """The kept game written last among those not over, or None."""
    return next((g for g in kept_games() if g.resumable), None)


__all__ = [
    "DATA_DIR_VARIABLE",
    "KEEP_FINISHED",
    "KeptGame",
    "data_dir",
    "games_dir",
    "kept_games",
    "latest_unfinished",
    "new_game_path",
    "prune",
    "read_kept",
]
