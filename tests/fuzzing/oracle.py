"""What every fuzzer's oracle shares: an outcome, its signature, the hang guard, printing checks."""

from __future__ import annotations

import re
import signal
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from test_hostile import RAW_CONTROL  # what may never be printed raw: one rule for every input

#: The outcome of anything that broke the contract (the fuzzers' other outcomes are their own).
OTHER = "other"


class Hang(BaseException):
    """Raised by the guard's alarm: a BaseException so that no `except Exception` swallows it."""


@contextmanager
def hang_guard(seconds: float) -> Iterator[None]:
    def alarm(signum, frame):  # pragma: no cover - only on a hang
        raise Hang()

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@dataclass
class Outcome:
    kind: str
    detail: str = ""
    trace: str = ""  # the traceback's last lines, for `other`

    @property
    def signature(self) -> str:
        """What makes two failures the same bug: the exception and where in whistdsl it was raised."""
        return self.detail.split(":", 1)[0] if not self.trace else f"{self.detail.split(':', 1)[0]} at {_where(self.trace)}"


def _where(trace: str) -> str:
    frames = re.findall(r'File "[^"]*?(whistdsl/[^"]+)", line \d+, in (\w+)', trace)
    return f"{frames[-1][0]}:{frames[-1][1]}" if frames else "?"


def failure(e: BaseException, what: str) -> Outcome:
    tb = "".join(traceback.format_exception(type(e), e, e.__traceback__))
    lines = tb.rstrip().splitlines()
    return Outcome(OTHER, f"{type(e).__name__}: {what}: {str(e)[:300]}", "\n".join(lines[-14:]))


def printed_badly(text: str) -> str | None:
    """Why `text` may not be printed as it is: not encodable as UTF-8, or a raw control character."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        return f"cannot be printed as UTF-8: {e.reason} at {e.start}"
    m = RAW_CONTROL.search(text)
    return f"raw control character {m.group()!r}" if m else None
