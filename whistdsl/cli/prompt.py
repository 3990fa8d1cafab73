"""How the table's prompts read a line from the person (`whistdsl play`).

At a terminal (standard input and output both one) the line is read with line editing and
history: GNU readline or libedit through Python's `readline` module, imported only then (so a
pipe or a file never gets its escape codes). The arrow keys move in the line and through the
answers given before, Tab completes a word that answers at this prompt or a command.
Elsewhere, or where there is no `readline`, the prompt is printed and a plain line read.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.text import Text

#: Ask the person: the prompt, and the words that answer it (for Tab to complete); the line typed.
Ask = Callable[[Text, Sequence[str]], str]

#: An escape sequence in a rendered prompt, which takes no room on the screen.
_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def asker(console: Console, commands: Sequence[str] = ()) -> Ask:
    """How to ask the person at `console`: with line editing when both standard streams are a
    terminal and `readline` can be imported, else as rich asks (the prompt printed, a line read).
    `commands` are words understood at every prompt (Tab completes them too)."""
    readline = _line_editing() if console.is_terminal and _is_terminal(sys.stdin) and _is_terminal(sys.stdout) else None
    if readline is None:
        return lambda prompt, words: console.input(prompt)
    completions: list[str] = []

    def complete(text: str, state: int) -> str | None:
        """The one word that begins with `text`; none when several do (no list is shown: the
        prompt says what answers it, `help` lists the commands)."""
        matches = [w for w in completions if w.startswith(text.lower())]
        return matches[0] if state == 0 and len(matches) == 1 else None

    readline.set_completer(complete)
    readline.set_completer_delims(" \t")

    def ask(prompt: Text, words: Sequence[str]) -> str:
        completions[:] = sorted({w for w in (*words, *commands) if w})
        with console.capture() as captured:
            console.print(prompt, end="")
        # readline must know which characters take no room, or it redraws the line in the wrong place
        return input(_ESCAPE.sub(lambda m: f"\x01{m.group()}\x02", captured.get()))

    return ask


def _is_terminal(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]  # any stream: one without isatty is caught just below
    except (AttributeError, ValueError, OSError):
        return False


#: GNU readline's keys that the table does without, and why. Python reads a line with readline's
#: callback interface, in which its incremental history search (Ctrl-R, Ctrl-S) and its keyboard
#: macros (Ctrl-X and more) can crash the process; a search that is not incremental (Esc N, Esc P)
#: and a character search (Ctrl-], Esc Ctrl-]) would take the Enter that follows, so that it does
#: not answer: these do nothing (they set the mark, which nothing here uses; `abort` would lose
#: the key after Ctrl-X). So would Esc then Enter (the vi mode: here it answers) and Esc then a digit
#: (a count for the next key: here the digit). Ctrl-L and Esc Ctrl-L redraw the line instead of
#: clearing the screen, which keeps the table's bids and tricks on it.
_WITHOUT = {
    **dict.fromkeys((r"\C-r", r"\C-s", r"\C-x", r"\C-x(", r"\C-x)", r"\C-xe", r"\en", r"\ep", r"\C-]", r"\e\C-]"), "set-mark"),
    **dict.fromkeys((r"\C-l", r"\e\C-l"), "redraw-current-line"),
    **dict.fromkeys((r"\e\C-j", r"\e\C-m"), "accept-line"),
    **dict.fromkeys((rf"\e{key}" for key in "0123456789-"), "self-insert"),  # Esc then 3 is a 3
}


def _line_editing():
    """The `readline` module, set up for the table, or None where Python has none (Windows)."""
    try:
        import readline
    except ImportError:
        return None
    if "libedit" in (readline.__doc__ or ""):
        readline.parse_and_bind("bind ^I rl_complete")
        return readline
    readline.parse_and_bind("tab: complete")
    for key, command in _WITHOUT.items():
        readline.parse_and_bind(f'"{key}": {command}')
    return readline
