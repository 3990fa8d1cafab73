"""What `whistdsl replay` does once its options are read: re-run the record and say the verdict.
Without typer, so that `main` (cli/__init__.py) can run `whistdsl replay RECORD` itself; the
typer command (commands.py) runs the same code for every form, and adds `--show`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..printable import printable
from .common import error_line

if TYPE_CHECKING:
    from ..records.replay import ReplayResult
    from ..rules.ruleset import Ruleset


def replayed(
    record: Path, rules_for: Callable[[], Ruleset | None], settings: Sequence[str], say: Callable[..., None]
) -> tuple[int, dict | None, ReplayResult | None]:
    """(0, the record, the replay) when the record agrees with its rules; else the problem is
    said with `say(text, err=...)` and the exit code returned: 2 a record that cannot be read
    or a `--set` that does not fit, 1 a disagreement or a rule error. `rules_for` gives the
    `--ruleset` to check against (None: the record's own copy), once the record is read."""
    from ..engine.game import RuleError
    from ..records.replay import Disagreement, RecordError, read_record, replay
    from ..rules.ruleset import SettingError

    data = None
    try:
        data = read_record(record)
        result = replay(data, rules_for(), settings=settings)
    except (RecordError, SettingError) as e:
        say(error_line(str(e)), err=True)
        return 2, None, None
    except Disagreement as e:
        say(printable(f"{record}: {e.said(_names(data))}"))
        return 1, None, None
    except RuleError as e:
        say(error_line(f"{record}: {e.describe(_names(data))}"), err=True)
        return 1, None, None
    return 0, data, result


def _names(data: object) -> list[str] | None:
    """The players' names by seat, as the record gives them (None when it does not)."""
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        return None
    names = [p.get("name", "") if isinstance(p, dict) else "" for p in data["players"]]
    return names if all(isinstance(n, str) and n for n in names) else None


def verdict(record: Path, data: dict[str, Any], result: ReplayResult, against_other: bool) -> str:
    """`game.json: OK: the whole game agrees with the rules; winner: Ana` (`against NAME` when
    checked against another ruleset than the record's own)."""
    game = result.game
    rules_used = game.rules
    against = f" against {rules_used.name}" if against_other else ""
    if "ruleset" in data and data["ruleset"].get("sha256") not in (None, rules_used.sha256):
        against += " (a different ruleset from the one recorded)"
    if result.complete:
        state = "the whole game"
    elif result.hands == 0:
        state = "the game so far (no hand finished yet)"
    else:
        state = f"the game so far ({result.hands} hand{'' if result.hands == 1 else 's'} finished)"

    winners = ""
    if result.complete and game.result is not None:
        winners = "; winner: " + ", ".join(game.names[s] for s in game.result.winners)
    return printable(f"{record}: OK{against}: {state} agrees with the rules{winners}")
