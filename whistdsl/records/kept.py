"""The kept games: every game played with a person at the table is written, as an ordinary game
record, into a per-user folder, so that no game is lost to Ctrl-C or the end of input.

Where: `$WHISTDSL_DATA_DIR/games` when that variable is set, else `games/` in the per-user data
folder platformdirs gives (`~/.local/share/whistdsl/games` on Linux). A kept game is named by
the time it started and its ruleset (`20261201-221530-house-whist.json`), so names sort by time.
`whistdsl play --resume` continues the latest unfinished one, `whistdsl games` lists them.

The folder does not grow without end: an unfinished game is kept until it is finished (or the
player removes it), and of the finished ones the newest KEEP_FINISHED are kept: when a new game
starts, older finished ones are removed (`prune`). `whistdsl games --clean` removes every
finished game at once. A file that is not a game record is never removed: whistdsl did not
write it.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

#: The variable that names the data folder instead of the per-user one (the tests set it).
DATA_DIR_VARIABLE = "WHISTDSL_DATA_DIR"
#: A kept record is read whole to list it; a file larger than this is listed as too large.
MAX_KEPT_BYTES = 16 * 1024 * 1024
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


def read_kept(path: Path) -> KeptGame:
    """The facts of one kept game's file; never raises for what the file holds."""
    try:
        info = path.stat()
    except OSError as e:
        return KeptGame(path, 0.0, problem=e.strerror or str(e))
    if info.st_size > MAX_KEPT_BYTES:
        return KeptGame(path, info.st_mtime, problem="too large to be a game record")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        ruleset = str(data["ruleset"]["name"])
        players = tuple(str(p["name"]) for p in data["players"])
        hands = len(data["hands"])
        final = data.get("final")
        winners = tuple(players[w] for w in final["winners"]) if final else ()
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, IndexError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else "not a game record"
        return KeptGame(path, info.st_mtime, problem=reason)
    return KeptGame(path, info.st_mtime, ruleset, players, hands, final is not None, winners)


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
    game), and return those removed. An unfinished game and a file that is not a game record
    stay; a file that cannot be removed stays too (it is tried again next time)."""
    keep = KEEP_FINISHED if keep is None else max(keep, 0)
    finished = [g for g in kept_games() if g.finished and not g.problem]
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
    "DATA_DIR_VARIABLE", "KEEP_FINISHED", "KeptGame", "data_dir", "games_dir", "kept_games", "latest_unfinished", "new_game_path", "prune", "read_kept"
]
