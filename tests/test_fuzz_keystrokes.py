"""Keystrokes fuzzed into `whistdsl play` under a pseudo-terminal: control characters, escape
sequences (arrow keys, a bracketed paste, a terminal title), lines longer than the terminal's
line buffer, garbage, random bids and cards among the legal answers, and end of input or Ctrl-C.
Each session ends with the exit code docs/commands/play.md gives (0, 1 or 130), no traceback, nothing typed echoed
back raw, and a record that replays clean (no illegal bid or card was accepted).

Sessions come from seeds (tests/fuzzing/keystrokes.py); `benchmarks/fuzz.py --keys` runs more.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fuzzing.keystrokes import DONE, EOF, INTERRUPT, run_session, session, write_tiny
from fuzzing.oracle import OTHER

#: Sessions (by seed) that fail for a bug not fixed yet, with the reason. The lead removes an
#: entry once its bug is fixed.
KNOWN_FAILURES: dict[int, str] = {}
#: A handful of sessions, chosen so that every ending is among them (see the last test).
SEEDS = range(8)


@pytest.mark.parametrize("seed", [s for s in SEEDS if s not in KNOWN_FAILURES])
def test_keystrokes_at_the_terminal_never_break_play_and_no_illegal_move_is_accepted(seed: int, tmp_path: Path) -> None:
    tiny = write_tiny(tmp_path)
    s = session(seed, tiny)
    outcome = run_session(s, tiny, tmp_path)
    assert outcome.kind != OTHER, f"{outcome.detail}\n\n{s.report()}"


def test_the_sessions_end_every_way_the_readme_names(tmp_path: Path) -> None:
    tiny = write_tiny(tmp_path)
    assert {session(seed, tiny).ending for seed in SEEDS} == {DONE, EOF, INTERRUPT}
