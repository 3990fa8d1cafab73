"""Keystrokes fuzzed into `whistdsl play` under a pseudo-terminal.

A session is made from one seed (`session(seed)`, a plain `random.Random`: a pseudo-terminal is
too slow for shrinking): the short ruleset of tests/test_play_cli.py, your seat 0 against random
computer players, `--record FILE`, and a stream of lines typed at the prompts. The stream follows
the legal answers of the whole game (worked out through the engine, as the play tests do) with
noise between them: bursts of control characters, escape sequences (arrow keys, a bracketed
paste `\\x1b[200~...\\x1b[201~`, a terminal title), lines longer than the terminal's line buffer,
garbage, `?`, and random bids and cards (a legal one changes the game, and the answers after it
may then be refused: that is fine too). The session ends when the game does, or with Ctrl-D
(end of input) or Ctrl-C at a prompt.

The oracle (`run_session`): the command ends with the exit code docs/commands/play.md gives (0 a
whole game, 1 end of input, 130 Ctrl-C), prints no traceback and never echoes what was typed raw (an
escape sequence typed reaches the terminal only as the terminal's own `^[` echo), and the record
it wrote replays clean with `whistdsl replay` (so no illegal bid or card was accepted).

Control characters that the terminal itself acts on are not typed inside lines: Ctrl-C, Ctrl-D,
Ctrl-Z (suspend), Ctrl-\\ (quit), Ctrl-S/Ctrl-Q (flow control), Ctrl-V (quote the next key),
Ctrl-O, CR and LF; nor NUL (Python's `input()` at a terminal reads a line with a NUL as if it
went on into the next one) or C1 controls (the terminal echoes them raw). They are the
terminal's and Python's, not whistdsl's, and would change what a line is.
"""

from __future__ import annotations

import os
import random
import select
import time
from dataclasses import dataclass, field
from pathlib import Path

from test_play_cli import ANSI, PROMPT, TINY, YOU, Terminal, inputs_for_the_whole_game
from typer.testing import CliRunner

from whistdsl.cli import app

from .oracle import OTHER, Outcome, printed_badly

DONE, EOF, INTERRUPT = "whole game", "end of input", "Ctrl-C"
OUTCOMES = (DONE, EOF, INTERRUPT, OTHER)
#: The exit code of each ending (docs/commands/play.md).
EXIT_CODES = {DONE: 0, EOF: 1, INTERRUPT: 130}
#: A guard per prompt (the command answers in well under a second).
PROMPT_SECONDS = 20.0

_TERMINALS_OWN = {0x00, 0x03, 0x04, 0x0A, 0x0D, 0x0F, 0x11, 0x13, 0x16, 0x1A, 0x1C}
CONTROLS = [chr(c) for c in range(32) if c not in _TERMINALS_OWN] + ["\x7f"]
ESCAPES = [
    "\x1b[A",
    "\x1b[B",
    "\x1b[C",
    "\x1b[D",
    "\x1b[H",
    "\x1b[3~",
    "\x1bOP",
    "\x1b[200~3\x1b[201~",
    "\x1b[200~QS\x1b[201~",
    "\x1b]0;pwned\x07",
    "\x1b[2J",
    "\x1b[6n",
    "\x1bc",
]
#: Escape sequences that would act on the terminal if whistdsl printed them back raw.
TELLTALES = [e.encode("utf-8") for e in ("\x1b]0;pwned\x07", "\x1b[200~", "\x1b[2J", "\x1b[6n", "\x1bc")]
GARBAGE = [
    "lots",
    "?",
    "help",
    "-1",
    "99999999999999999999",
    "1e3",
    "0x10",
    "½",
    "٣",
    "♠",
    "10♦",
    "Q H",
    "qh",
    "AS AS",
    "' or 1=1 --",
    "%s%n",
    "{}",
    "NaN",
    "\u202e3",
    "\ufffd",
    "é" * 50,
    " ",
    "\t3\t",
]
CARDS = [r + s for r in ("A", "K", "Q", "J", "T", "10", "9", "8", "7", "6", "5", "4", "3", "2") for s in "SHDCshdc♠♥♦♣"]


@dataclass
class Session:
    seed: int
    game_seed: int
    lines: list[str]  # typed at successive prompts, each followed by Enter
    ending: str  # DONE, EOF or INTERRUPT: what comes after the lines
    notes: list[str] = field(default_factory=list)

    def report(self) -> str:
        shown = [repr(line[:80]) + (f"... ({len(line)} characters)" if len(line) > 80 else "") for line in self.lines]
        return f"session seed {self.seed}: game seed {self.game_seed}, ending {self.ending}\nlines:\n  " + "\n  ".join(shown)


def _noise(rng: random.Random) -> str:
    kind = rng.choice(["controls", "escape", "long", "garbage", "bid", "card", "mixed"])
    if kind == "controls":
        return "".join(rng.choice(CONTROLS) for _ in range(rng.randint(1, 12)))
    if kind == "escape":
        return "".join(rng.choice(ESCAPES) for _ in range(rng.randint(1, 3)))
    if kind == "long":
        return rng.choice(["3", "AS", "x", "é"]) * rng.choice([300, 4094, 4095, 5000, 20000])
    if kind == "garbage":
        return rng.choice(GARBAGE)
    if kind == "bid":
        return str(rng.randint(0, 6))
    if kind == "card":
        return rng.choice(CARDS)
    return "".join(rng.choice([rng.choice(CONTROLS), rng.choice(ESCAPES), rng.choice(GARBAGE), rng.choice(CARDS)]) for _ in range(rng.randint(2, 5)))


def session(seed: int, tiny: Path) -> Session:
    """The session of `seed`: the whole game's legal answers with noise, and how it ends."""
    rng = random.Random(seed)
    game_seed = rng.randrange(1000)
    answers = inputs_for_the_whole_game(tiny, game_seed)
    ending = rng.choice([DONE, DONE, EOF, INTERRUPT])
    stop_at = len(answers) if ending == DONE else rng.randint(0, len(answers))
    lines: list[str] = []
    for answer in answers[:stop_at]:
        for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
            lines.append(_noise(rng))
        lines.append(answer)
    return Session(seed, game_seed, lines, ending)


def write_tiny(folder: Path) -> Path:
    path = folder / "tiny.yaml"
    path.write_text(TINY, encoding="utf-8")
    return path


class _Keyboard(Terminal):
    """The play tests' terminal, typing without blocking (a long line fills the terminal's buffer)."""

    def __init__(self, *args: str, cwd: Path):
        super().__init__(*args, cwd=cwd)  # the command gets Ctrl-C's default action (see Terminal)
        os.set_blocking(self.fd, False)

    def _read(self, timeout: float) -> bool:
        try:
            return super()._read(timeout)
        except BlockingIOError:
            return True

    def send(self, raw: bytes) -> None:
        deadline = time.monotonic() + PROMPT_SECONDS
        while raw and time.monotonic() < deadline:
            _, writable, _ = select.select([], [self.fd], [], 0.05)
            if writable:
                try:
                    raw = raw[os.write(self.fd, raw[:1024]) :]
                except BlockingIOError:
                    pass
                except OSError:
                    return  # the command has ended
            self._read(0)

    def next_prompt(self) -> bool:
        """Wait for the next prompt; False when the command ends first."""
        deadline = time.monotonic() + PROMPT_SECONDS
        while not PROMPT.search(self.output, self.seen):
            if time.monotonic() > deadline:
                raise TimeoutError(f"no prompt within {PROMPT_SECONDS} s")
            if not self._read(0.1):
                return False
        self.seen = PROMPT.search(self.output, self.seen).end()  # type: ignore[union-attr]
        return True


def run_session(s: Session, tiny: Path, folder: Path) -> Outcome:
    record = folder / f"session-{s.seed}.json"
    t = _Keyboard(str(tiny), "--seat", str(YOU), "--bots", "random", "--seed", str(s.game_seed), "--record", str(record), cwd=folder)
    try:
        ended_early = False
        for line in s.lines:
            if not t.next_prompt():
                ended_early = True  # a random legal answer changed the game and it ended sooner
                break
            t.send(line.encode("utf-8", "surrogatepass") + b"\n")
        expected = DONE  # the game ended with the last answer (or sooner)
        if not ended_early and t.next_prompt():
            # Ctrl-C, or Ctrl-D also when the answers ran out before the game (it changed)
            expected = INTERRUPT if s.ending == INTERRUPT else EOF
            if expected == INTERRUPT:
                t.wait_until_reading()  # a Ctrl-C just before the read would wait for Enter
            t.send(b"\x03" if expected == INTERRUPT else b"\x04")
        code = t.wait(PROMPT_SECONDS)
    except (TimeoutError, AssertionError) as e:
        return Outcome(OTHER, f"hang: {e}; the terminal shows: {t.output[-600:]!r}")
    finally:
        t.close()
    return _judge_session(t, code, expected, record)


def _judge_session(t: Terminal, code: int, expected: str, record: Path) -> Outcome:
    text = t.raw.decode("utf-8", "replace")
    if "Traceback" in text:
        return Outcome(OTHER, f"play printed a traceback: {text[-1500:]}")
    for telltale in TELLTALES:
        if telltale in t.raw:
            return Outcome(OTHER, f"play printed a typed escape sequence raw: {telltale!r}")
    shown = ANSI.sub("", text)
    # the terminal's own echo: backspaces as it erases (ECHOE), a bell when its line is full
    bad = printed_badly(shown.replace("\x08", "").replace("\x07", ""))
    if bad:
        return Outcome(OTHER, f"play output: {bad}: {shown[-300:]!r}")
    if code != EXIT_CODES[expected]:
        return Outcome(OTHER, f"exit code {code} after {expected} (expected {EXIT_CODES[expected]}): {shown[-600:]!r}")
    if not record.exists():
        return Outcome(OTHER, f"no record written: {shown[-300:]!r}")
    replayed = CliRunner().invoke(app, ["replay", str(record)])
    if replayed.exit_code != 0:
        return Outcome(OTHER, f"the record does not replay clean (exit {replayed.exit_code}): {replayed.output[-400:]}")
    return Outcome(expected, replayed.output.strip()[-120:])
