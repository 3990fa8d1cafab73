"""Mutants of real game records, and what `whistdsl replay` must say about each.

The base records are real: games played by the engine between random players and written by
`whistdsl.records.record.game_record` exactly as `play --record` writes them (a whole game of a short
ruleset, the first hands of Romanian and Serbian whist, a game with running values, a set-up deal
file). A mutant changes one to three things in the JSON data (a value, a key dropped or added, a
type, a list cut, emptied, extended or reordered, a string with control characters, a huge
number, deep nesting) or in the text (cut short, a byte order mark, bytes that are not UTF-8,
`NaN`, a duplicate key).

The oracle runs `whistdsl replay FILE` in-process (`typer.testing.CliRunner` on
`whistdsl.cli.app`), and now and then `play --resume FILE --watch` or `play RULES --deal FILE
--watch`, which read the same files: each must reject the file with exit 2 and a message, report a disagreement
with exit 1, or replay it (exit 0); never an uncaught exception, a traceback, a hang or a raw
control character in what it prints. And a mutant that changed something replay checks (a bid,
a card, a trick's winner, a taken count, points, totals, the winners) to a different value must
not replay clean.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from test_play_cli import TINY  # the short ruleset of the play tests: a normal, a forehead and a blind hand
from typer.testing import CliRunner

from whistdsl.cli import app
from whistdsl.engine import Game
from whistdsl.players import play_out
from whistdsl.records.record import FORMAT, game_record
from whistdsl.rules.lint import load_rules

from .expressions import Draw
from .oracle import OTHER, Hang, Outcome, failure, hang_guard, printed_badly
from .rulesets import _CappedRandom, walk

REPLAYED, DISAGREEMENT, REJECTED = "replayed", "disagreement", "rejected"
OUTCOMES = (REJECTED, DISAGREEMENT, REPLAYED, OTHER)
HANG_SECONDS = 30.0
#: Markers put into the data and expanded in the JSON text (json.dumps could not write them).
DIGITS_5000 = "__FUZZ_5000_DIGITS__"
DEEP_NESTING = "__FUZZ_DEEP_NESTING__"


@dataclass(frozen=True)
class Base:
    name: str
    data: dict
    ruleset: str | None = None  # a ruleset to name with --ruleset (set-up deal files hold none)
    rules: str | None = None  # the bundled ruleset it was played by (for `play RULES --deal FILE`)


def _played(rules_name_or_text: str, players: int, seed: int, hands: int | None, tmp: Path) -> dict:
    if "\n" in rules_name_or_text:
        path = tmp / "tiny.yaml"
        path.write_text(rules_name_or_text, encoding="utf-8")
        rules = load_rules(path)
    else:
        rules = load_rules(rules_name_or_text)
    game = Game(rules, players, seed=seed, names=[f"P{i}" for i in range(players)])
    game.keep_rng_states = True  # as `play --record` does: the record can be resumed
    play_out(game, [_CappedRandom(game, hands or 10**6) for _ in range(players)])
    return json.loads(json.dumps(game_record(game, ["random"] * players)))


@cache
def bases() -> tuple[Base, ...]:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        whole = _played(TINY, 4, 2, None, t)
        romanian = _played("romanian", 3, 5, 3, t)
        serbian = _played("serbian", 4, 9, 2, t)
        streak = _played("romanian-streak-10", 3, 11, 4, t)
    setup = {
        "format": FORMAT,
        "hands": [{"number": h["number"], "dealer": h["dealer"], "deal": h["deal"], "turn_up": h["turn_up"]} for h in romanian["hands"][:1]],
    }
    return (
        Base("tiny whole game", whole),
        Base("romanian, 3 hands", romanian, rules="romanian"),
        Base("serbian, 2 hands", serbian, rules="serbian"),
        Base("romanian streak, 4 hands", streak, rules="romanian-streak-10"),
        Base("set-up deals", setup, "romanian", rules="romanian"),
    )


# ---------------------------------------------------------------- mutations

VALUES: tuple[Any, ...] = (
    0,
    -1,
    1,
    3,
    9,
    10,
    52,
    2000,
    10**6,
    2**63,
    10**30,
    DIGITS_5000,
    1.5,
    1e308,
    -0.0,
    "1/0",
    "1/2",
    "-0",
    "x",
    "",
    "AS",
    "ZZ",
    "10H",
    "\x1b[2J",
    "\x1b]0;pwned\x07",
    "\ud800",
    "a\x00b",
    "\u202e",
    None,
    True,
    False,
    [],
    {},
    [1, 2],
    {"a": 1},
    DEEP_NESTING,
)
CONTROL_TEXTS = ("\x1b[2J\x1b[H", "\x1b]0;pwned\x07", "\x07\x08\x7f", "\r\n", "\x9b1m", "\ud800", "\x00")
UNKNOWN_KEYS = ("note", "Hands", "score", "version", "bid")
#: Where a different number (or card) must make replay disagree: what it recomputes and compares.
#: (Not a bid: another legal bid may score the same, and then the record is of another real game.)
CHECKED = re.compile(
    r"^\('hands', \d+, '(taken|points|bonus|totals)', \d+\)$"
    r"|^\('hands', \d+, 'bids', \d+, 'seat'\)$"
    r"|^\('hands', \d+, 'tricks', \d+, '(winner|leader)'\)$"
    r"|^\('hands', \d+, 'tricks', \d+, 'cards', \d+, '(seat|card)'\)$"
    r"|^\('hands', \d+, '(number|cards)'\)$"
    r"|^\('hands', \d+, 'running', \d+, '\w+'\)$"
    r"|^\('final', 'totals', \d+\)$"
)
CARDS = [r + s for r in "AKQJT98765432" for s in "SHDC"]


def _get(data: Any, path: Sequence[Any]) -> Any:
    for p in path:
        data = data[p]
    return data


@dataclass
class RecordMutant:
    base: str
    text: str  # the file's text (bytes when `raw` is set)
    raw: bytes | None
    ruleset: str | None
    show: bool
    command: str = "replay"  # replay | resume (`play --resume FILE --watch`) | deal (`play RULES --deal FILE --watch`)
    rules: str | None = None
    changes: list[str] = field(default_factory=list)
    must_disagree: bool = False  # a checked value was changed: replay may not say OK
    checked: list[tuple] = field(default_factory=list)  # the checked values changed

    def arguments(self, path: Path) -> list[str]:
        """whistdsl's arguments for this mutant's command."""
        if self.command == "resume":
            return ["play", "--resume", str(path), "--watch", "--record", str(path.with_name("resumed.json"))]
        if self.command == "deal":
            return ["play", str(self.rules), "--deal", str(path), "--watch"]
        return ["replay", str(path)] + (["--show", "--tricks"] if self.show else []) + (["--ruleset", self.ruleset] if self.ruleset else [])

    def report(self) -> str:
        body = self.raw.decode("utf-8", "backslashreplace") if self.raw is not None else self.text
        return "\n".join(
            [
                f"base: {self.base}",
                "changes: " + "; ".join(self.changes),
                f"command: {' '.join(self.arguments(Path('FILE')))}",
                "--- record",
                body[:4000] + (" ..." if len(body) > 4000 else ""),
            ]
        )


def _mutate_data(draw: Draw, data: dict, m: RecordMutant) -> None:
    paths = [p for p, _ in walk(data) if p]
    kind = draw(st.sampled_from(["value", "value", "checked", "checked", "drop", "add", "type", "list", "control"]))
    if kind == "checked":
        targets = [p for p in paths if CHECKED.match(repr(p))]
        if targets:
            p = draw(st.sampled_from(targets))
            old = _get(data, p)
            if isinstance(old, int) and not isinstance(old, bool):
                new: Any = old + draw(st.sampled_from([1, -1, 2, 10]))
            elif isinstance(old, str) and old in CARDS:
                new = draw(st.sampled_from([c for c in CARDS if c != old]))
            else:
                return
            _get(data, p[:-1])[p[-1]] = new
            m.changes.append(f"{p}: {old!r} -> {new!r}")
            m.checked.append(p)
            return
    if kind == "value" and paths:
        p = draw(st.sampled_from(paths))
        new = draw(st.sampled_from(VALUES))
        _get(data, p[:-1])[p[-1]] = copy.deepcopy(new)
        m.changes.append(f"{p} -> {new!r}"[:120])
        return
    if kind == "drop":
        targets = [p for p in paths if isinstance(_get(data, p[:-1]), dict)]
        if targets:
            p = draw(st.sampled_from(targets))
            del _get(data, p[:-1])[p[-1]]
            m.changes.append(f"dropped {p}")
            return
    if kind == "add":
        mappings = [()] + [p for p in paths if isinstance(_get(data, p), dict)]
        p = draw(st.sampled_from(mappings))
        key = draw(st.sampled_from(UNKNOWN_KEYS + ("final", "resume", "ruleset", "players", "seed", "first_dealer")))
        _get(data, p)[key] = copy.deepcopy(draw(st.sampled_from(VALUES)))
        m.changes.append(f"added {p + (key,)}")
        return
    if kind == "type" and paths:
        p = draw(st.sampled_from(paths))
        old = _get(data, p)
        new = draw(st.sampled_from([str(old)[:50], [old], {"value": old}, None, 0, "0"]))
        _get(data, p[:-1])[p[-1]] = new
        m.changes.append(f"type at {p}: {type(old).__name__} -> {type(new).__name__}")
        return
    if kind == "list":
        targets = [p for p in [()] + paths if isinstance(_get(data, p), list)]
        if targets:
            p = draw(st.sampled_from(targets))
            items = _get(data, p)
            how = draw(st.sampled_from(["cut", "empty", "repeat", "append", "reverse", "many"]))
            if how == "cut" and items:
                del items[draw(st.integers(0, len(items) - 1)) :]
            elif how == "empty":
                items.clear()
            elif how == "repeat" and items:
                items.append(copy.deepcopy(items[draw(st.integers(0, len(items) - 1))]))
            elif how == "reverse":
                items.reverse()
            elif how == "many" and items:
                items.extend(copy.deepcopy(items[-1]) for _ in range(draw(st.sampled_from([10, 100, 5000]))))
            else:
                items.append(copy.deepcopy(draw(st.sampled_from(VALUES))))
            m.changes.append(f"list at {p}: {how}")
            return
    strings = [p for p in paths if isinstance(_get(data, p), str)]
    if strings:
        p = draw(st.sampled_from(strings))
        old = _get(data, p)
        new = old + draw(st.sampled_from(CONTROL_TEXTS)) if draw(st.booleans()) else draw(st.sampled_from(CONTROL_TEXTS))
        _get(data, p[:-1])[p[-1]] = new
        m.changes.append(f"control characters at {p}")


def _changed(before: Any, after: Any, path: tuple) -> bool:
    """Whether the value at `path` differs, every list on the way having kept its length (so the
    path still names the same card or total: later changes may have undone or moved it), and its
    hand still complete (replay checks a hand's results once its last trick is played)."""
    if path[:1] == ("hands",) and not _same_tricks(before, after, path[1]):
        return False
    for p in path:
        if type(before) is not type(after) or (isinstance(before, list) and len(before) != len(after)):
            return False
        if isinstance(before, dict) and (p not in before or p not in after):
            return False
        before, after = before[p], after[p]
    return before != after or type(before) is not type(after)


def _same_tricks(before: dict, after: dict, hand: int) -> bool:
    try:
        b, a = before["hands"][hand]["tricks"], after["hands"][hand]["tricks"]
        return len(a) == len(b) and all(len(x["cards"]) == len(y["cards"]) for x, y in zip(a, b))
    except (KeyError, IndexError, TypeError):
        return False


def _dump(data: Any, ascii_only: bool) -> str:
    text = json.dumps(data, ensure_ascii=ascii_only, separators=(",", ":"))
    text = text.replace(f'"{DIGITS_5000}"', "1" * 5000)
    return text.replace(f'"{DEEP_NESTING}"', "[" * 100_000 + "]" * 100_000)


def _mutate_text(draw: Draw, text: str, m: RecordMutant) -> None:
    how = draw(st.sampled_from(["cut", "bom", "latin1", "nan", "duplicate", "garbage", "nul"]))
    m.changes.append(f"text: {how}")
    if how == "cut":
        m.text = text[: draw(st.integers(0, max(len(text) - 1, 0)))]
    elif how == "bom":
        m.text = "\ufeff" + text
    elif how == "latin1":
        m.raw = text.encode("utf-8", "surrogatepass") + b"\xff\xfe"
    elif how == "nan":
        m.text = re.sub(r'"seed":-?\d+', '"seed":NaN', text, count=1) if '"seed"' in text else text.replace("{", '{"x":Infinity,', 1)
    elif how == "duplicate":
        m.text = text.replace('{"format"', '{"format":"whistdsl-record/1","format"', 1)
    elif how == "garbage":
        m.text = text + draw(st.sampled_from(["}", "\x00", " trailing", "\n{}"]))
    else:
        m.text = text.replace(",", ",\x00", 1)


@st.composite
def record_mutants(draw: Draw) -> RecordMutant:
    base = draw(st.sampled_from(bases()))
    data = copy.deepcopy(base.data)
    commands = ["replay"] * 4 + (["resume"] if "resume" in base.data else []) + (["deal"] if base.rules else [])
    m = RecordMutant(base.name, "", None, base.ruleset, draw(st.booleans()), draw(st.sampled_from(commands)), base.rules)
    for _ in range(draw(st.integers(1, 3))):
        _mutate_data(draw, data, m)
    m.must_disagree = m.command != "deal" and any(_changed(base.data, data, p) for p in m.checked)
    m.text = _dump(data, ascii_only=draw(st.booleans()))
    if draw(st.integers(0, 9)) == 0:
        _mutate_text(draw, m.text, m)
    return m


# ---------------------------------------------------------------- the oracle

runner = CliRunner()


def judge_record(m: RecordMutant, folder: Path, hang_seconds: float = HANG_SECONDS) -> Outcome:
    path = folder / "record.json"
    if m.raw is not None:
        path.write_bytes(m.raw)
    else:
        path.write_text(m.text, encoding="utf-8", errors="surrogatepass")
    args = m.arguments(path)
    try:
        with hang_guard(hang_seconds):
            result = runner.invoke(app, args)
    except Hang:
        return Outcome(OTHER, f"hang: no answer within {hang_seconds} s")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        e = result.exception
        return failure(e, m.command)
    out = result.output
    bad = printed_badly(out)
    if bad:
        return Outcome(OTHER, f"{m.command} output: {bad}: {out[-300:]!r}")
    if "Traceback" in out:
        return Outcome(OTHER, f"{m.command} printed a traceback: {out[-300:]!r}")
    code = result.exit_code
    if code == 2:
        return Outcome(REJECTED, out.strip().splitlines()[-1][:200]) if out.strip() else Outcome(OTHER, "exit 2 without a message")
    if code == 1:
        return (
            Outcome(DISAGREEMENT, out.strip()[:200])
            if "hand" in out or "rule error" in out
            else Outcome(OTHER, f"exit 1 without naming a hand: {out[:300]!r}")
        )
    if code == 0:
        if m.must_disagree:
            return Outcome(OTHER, f"{m.command} accepted a changed record: {'; '.join(m.changes)}: {out.strip()[:200]}")
        return Outcome(REPLAYED, out.strip()[:200])
    return Outcome(OTHER, f"exit code {code}: {out[-300:]!r}")
