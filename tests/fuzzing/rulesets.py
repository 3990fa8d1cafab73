"""Mutants of the bundled rulesets, and the contract of lint each one must meet.

A mutant starts from a bundled ruleset or an example of the docs (the file as written, with its `extends`, or its merged
data) and gets one to four changes: a number changed (0, -1, huge, 5000 digits, a fraction as
text), an enumeration value swapped for another or for an invalid one, a formula replaced by a
generated one (`fuzzing.expressions`), a key dropped, set to null or added (unknown keys too),
a list cut, emptied, doubled or extended, a text made hostile (escape sequences, a lone
surrogate), `extends` pointed elsewhere, a running value added (some grow the way issue 9's
examples do, `x * x`, and some formula reads them: a division, a bidding limit, a winner key), or
tie-break hands. A quarter of the mutants are `extends` chains (a child file over a mutant base
in the same folder) and a quarter change only formulas, so that most of those reach the engine.

`judge(mutant)` is the oracle (the contract of lint, issue 9): lint reports findings, or a seeded
game between random players runs to its end (or to `HAND_CAP` hands), or the game stops with
`whistdsl.engine.RuleError` naming its hand and its formula (file:line:col), and then only if
lint warned that it could (lint warns where a formula reads values it cannot enumerate). The
game's record is then replayed, which must agree. Anything else (an uncaught exception, a hang,
a finding printed with a raw control character, a record of the game that does not replay) is an
outcome of kind `other`, with the mutant's files and the traceback's last lines.
"""

from __future__ import annotations

import copy
import inspect
import json
import re
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from whistdsl.diagnostics.findings import render_github, render_json, render_text
from whistdsl.engine import Game, RuleError
from whistdsl.language.catalogue import CONTEXTS, Type
from whistdsl.players import BOTS, RandomPlayer, play_out
from whistdsl.records.record import game_record
from whistdsl.records.replay import Disagreement, RecordError, replay
from whistdsl.resources import bundled_rulesets, data_dir, schema_path
from whistdsl.rules.lint import lint_path
from whistdsl.rules.load import dotted, load_ruleset

from .expressions import Draw, expressions
from .oracle import OTHER, Hang, Outcome, failure, hang_guard, printed_badly

#: The most hands a fuzzed game plays (the bundled schedules have 12 to 36; tie-breaks add more).
HAND_CAP = 60
#: A guard, not a measure: a mutant that takes longer than this is reported as a hang.
HANG_SECONDS = 20.0
#: A number with more digits than Python converts (its limit is 4300): written into the YAML text.
DIGITS_5000 = "__FUZZ_5000_DIGITS__"

FINDINGS, GAME, CAPPED, RULE_ERROR = "findings", "full game", "capped game", "rule error"
OUTCOMES = (FINDINGS, GAME, CAPPED, RULE_ERROR, OTHER)

# ---------------------------------------------------------------- the bundled rulesets


@dataclass(frozen=True)
class Source:
    """A bundled ruleset as written (`raw`, with its `extends`) and merged."""

    name: str  # `romanian`, `scoring/exact`
    folder: str  # where it sits under rulesets/: "" or "scoring"
    raw: dict
    merged: dict
    lets: tuple[str, ...]
    running: tuple[str, ...]


#: The example rulesets of the docs (the rules no bundled game uses yet: wild cards, redeals,
#: declarations, calls in the auction, super trumps, ...), mutated as the bundled ones are.
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


@cache
def sources() -> tuple[Source, ...]:
    out = []
    examples = {f"examples/{p.stem}": p for p in sorted(EXAMPLES.glob("*.yaml"))}
    for name, path in {**bundled_rulesets(), **examples}.items():
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        merged = load_ruleset(path).data
        out.append(
            Source(
                name,
                str(Path(name).parent) if "/" in name and not name.startswith("examples/") else "",
                raw,
                copy.deepcopy(merged),
                tuple(merged.get("let") or ()),
                tuple(merged.get("running") or ()),
            )
        )
    return tuple(out)


# ---------------------------------------------------------------- the schema and the catalogue


@cache
def _schema() -> dict:
    return json.loads(schema_path().read_text(encoding="utf-8"))


def _expand(nodes: list[dict]) -> list[dict]:
    out = []
    for n in nodes:
        if not isinstance(n, dict):
            continue
        out.append(n)
        for k in ("anyOf", "oneOf", "allOf"):
            out += _expand(n.get(k, []))
    return out


def schemas_at(path: Sequence[Any]) -> list[dict]:
    """Every (sub)schema that may describe the value at `path`."""
    nodes = [_schema()]
    for p in path:
        nxt = []
        for n in _expand(nodes):
            if isinstance(p, int):
                if isinstance(n.get("items"), dict):
                    nxt.append(n["items"])
            elif p in n.get("properties", {}):
                nxt.append(n["properties"][p])
            elif isinstance(n.get("additionalProperties"), dict):
                nxt.append(n["additionalProperties"])
        nodes = nxt
    return _expand(nodes)


def enum_values(path: Sequence[Any]) -> list[Any]:
    return [v for s in schemas_at(path) for v in s.get("enum", []) if v is not None]


def known_keys(path: Sequence[Any]) -> list[str]:
    return sorted({k for s in schemas_at(path) for k in s.get("properties", {})})


@cache
def _context_patterns() -> list[tuple[re.Pattern, str]]:
    """`scoring.points` -> scoring, `running.*.start` -> running_start: from the catalogue's `where`."""
    out = []
    for c in CONTEXTS.values():
        for where in c.where.split(","):
            pattern = re.escape(where.strip()).replace(r"\*", "[^.]+")
            out.append((re.compile(pattern + "$"), c.name))
    return out


def context_of(path: Sequence[Any]) -> str | None:
    """The catalogue context of the formula at `path`, or None when `path` holds no formula."""
    keys = [p for p in path if not isinstance(p, int)]
    if not keys:
        return None
    if keys[0] == "schedule" and (keys == ["schedule"] and len(path) == 2 or keys == ["schedule", "cards"]):
        return "schedule"
    if keys[0] == "schedule":
        return None
    if keys == ["winner", "rank"] and len(path) == 3:
        return "winner"
    dotted = ".".join(keys)
    for pattern, name in _context_patterns():
        if pattern.match(dotted) and dotted not in ("schedule", "winner.rank"):
            return name
    return None


#: The type each formula path must have (None: a number or a list, as the schedule takes).
_WANT = {
    "hand": Type.BOOL,
    "deal": Type.BOOL,
    "bidding": Type.BOOL,
    "end": Type.BOOL,
    "trump_choice": Type.BOOL,
    "skip": Type.BOOL,
    "redeal": Type.BOOL,
    "declare": Type.BOOL,
    "let": None,
    "schedule": None,
}


def want_of(path: Sequence[Any], context: str) -> Type | None:
    if context == "winner":
        return Type.BOOL if "wins_outright" in path else Type.NUMBER
    if context == "schedule" and path and path[0] in ("tiebreak", "end"):
        return Type.NUMBER
    return _WANT.get(context, Type.NUMBER)


def walk(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk(v, path + (i,))


def _get(data: Any, path: Sequence[Any]) -> Any:
    for p in path:
        data = data[p]
    return data


def _set(data: Any, path: Sequence[Any], value: Any) -> None:
    _get(data, path[:-1])[path[-1]] = value


# ---------------------------------------------------------------- mutations

#: What a number becomes: the edges, huge values, and fractions as text.
NUMBER_VALUES: tuple[Any, ...] = (0, -1, 1, 2, 3, 5, 11, 53, 100, 10**6, 10**18, 10**31, 10**400, DIGITS_5000, "1/2", "0.5", "3/0", 1.5, -0.0, True)
NUMBER_TEXTS = ("0", "1", "2", "13", "0.5", "1000000", "1" + "0" * 31, "9" * 400)
#: Values that no enumeration of the schema holds.
INVALID_ENUMS = ("", "Clockwise", "none", "spade", "random ", "turn_up", 10, 0, "A", "1")
#: Texts no one should print raw: escape sequences, a lone surrogate, bidirectional overrides.
HOSTILE_TEXTS = (
    "\x1b]0;pwned\x07",
    "\x1b[2J\x1b[H",
    "a\x00b",
    "\ud800",
    "\u202egnp.exe",
    "tab\there",
    "x" * 5000,
    "line\nbreak",
    "é\u0301" * 3,
    "\x9b31m",
)
UNKNOWN_KEYS = ("colour", "Scoring", "score", "extend", "rounds", "trumps", "jokers", "scoring_points")
EXTENDS_TARGETS = (
    "romanian",
    "serbian",
    "oh-hell",
    "scoring/exact",
    "romanian.yaml",
    "../serbian.yaml",
    "serbian.yaml",
    "no-such.yaml",
    "nosuch",
    "fuzz-mutant.yaml",
    "./fuzz-mutant.yaml",
    "/etc/passwd",
    "~/.bashrc",
    "../../../../../etc/hostname",
    "https://example.com/r.yaml",
    "scoring",
    "..",
    "",
)
EXTENDS_VALID = ("romanian", "serbian", "oh-hell", "scoring/exact", "romanian.yaml", "../serbian.yaml")
#: The kinds of change, as often as each is drawn (formulas most: they reach the engine).
MUTATIONS = (
    ("formula",) * 7
    + ("number",) * 3
    + ("enum",) * 2
    + ("drop",) * 2
    + ("add",) * 3
    + ("list",) * 2
    + ("running",) * 2
    + ("tiebreak", "text", "extends", "bulk")
)
#: The shapes of issue 9's lint-clean rulesets that fail in play, for a running value X: what
#: grows past the number cap, fractions whose denominators grow, a count that reaches zero.
GROWTH = ("X * X", "X * 2 + points", "X + 1", "X - 1", "X + 1 / 3", "X * 3 / 2", "X / 3 + 1 / 7", "-X")
#: ... and the formulas that read it: a division by it, a bidding limit, a power, a winner key.
READING = {
    ("scoring", "bonus"): ("points / X", "10 // (X - 1)", "X ^ 2", "X % (tricks - bid)", "X"),
    ("scoring", "points"): ("if made then 10 + tricks else 10 // X", "tricks / (X - 2)", "X ^ bid"),
    ("bidding", "allowed"): ("bid <= X", "bid <= total", "bid + X != hand_size", "bid * X <= hand_size"),
    ("winner", "rank", 0): ("highest total / X", "lowest X", "highest 1 / (total - X)"),
    ("winner", "wins_outright"): ("total / X == 1", "X == 0"),
}
#: The changes of the `formulas` mode: only formulas, so most mutants reach the engine.
FORMULA_MUTATIONS = ("formula",) * 3 + ("running",) * 2 + ("tiebreak",)
#: Formulas a new running value may feed (the engine evaluates them hand after hand).
READERS = (("scoring", "bonus"), ("scoring", "points"), ("bidding", "allowed"), ("winner", "rank", 0), ("winner", "wins_outright"), ("running",))
NEW_NAMES = ("streak", "score2", "x", "run", "total", "bid", "if", "players", "x\n", "X", "é", "_", "a" * 300)


@dataclass
class Names:
    """The let and running names a generated formula may read."""

    lets: list[str]
    running: list[str]


def _expr(draw: Draw, path: Sequence[Any], names: Names) -> str:
    context = context_of(path) or "scoring"
    text = draw(expressions(context, want_of(path, context), names.lets, names.running))
    if context == "winner" and "rank" in path:
        return f"{draw(st.sampled_from(['highest', 'lowest']))} {text}"
    return text


def _value_for(draw: Draw, path: tuple, names: Names) -> Any:
    """A plausible value for a key at `path` (from the schema and the catalogue)."""
    if context_of(path) is not None or path[:1] == ("schedule",):
        return _expr(draw, path if path[:1] != ("schedule",) else ("schedule", 0), names)
    options = enum_values(path)
    if options:
        return draw(st.sampled_from(options))
    key = path[-1] if path else None
    if key == "running":
        name = draw(st.sampled_from(NEW_NAMES))
        names.running.append(name)
        return {name: {"start": _expr(draw, ("running", name, "start"), names), "after_hand": _expr(draw, ("running", name, "after_hand"), names)}}
    if key == "let":
        name = draw(st.sampled_from(NEW_NAMES))
        names.lets.append(name)
        return {name: _expr(draw, ("let", name), names)}
    if key == "kinds":
        return {"zero": {"view": draw(st.sampled_from(["normal", "forehead", "blind"])), "allowed": _expr(draw, ("kinds", "zero", "allowed"), names)}}
    if key == "tiebreak":
        return {"hands": _expr(draw, ("tiebreak", "hands"), names), "cards": _expr(draw, ("tiebreak", "cards"), names)}
    types = {t for s in schemas_at(path) for t in ([s["type"]] if isinstance(s.get("type"), str) else s.get("type", []))}
    if "boolean" in types:
        return draw(st.booleans())
    if "integer" in types:
        return draw(st.sampled_from(NUMBER_VALUES))
    if "object" in types:
        return {}
    if "array" in types:
        return []
    return draw(st.sampled_from(["x", "Fuzz", *HOSTILE_TEXTS[:3]]))


def _list_item(draw: Draw, path: tuple, names: Names) -> Any:
    if path[:1] == ("schedule",):
        how = draw(st.integers(0, 2))
        if how == 0:
            return draw(st.integers(0, 14))
        if how == 1:
            return _expr(draw, ("schedule", 0), names)
        return {"cards": _expr(draw, ("schedule", 0, "cards"), names), "kind": draw(st.sampled_from(["normal", "zero", "nv", "x"]))}
    if path[:2] == ("winner", "rank"):
        return _expr(draw, ("winner", "rank", 0), names)
    options = enum_values(path + (0,))
    return draw(st.sampled_from(options + list(INVALID_ENUMS[:3]))) if options else 1


def mutate_once(draw: Draw, data: dict, names: Names, kinds: Sequence[str] = MUTATIONS) -> str:
    """One change to `data` (in place); returns what it was, for the report."""
    paths = [(p, v) for p, v in walk(data) if p]
    kind = draw(st.sampled_from(kinds))
    if kind == "number":
        targets = [p for p, v in paths if isinstance(v, int) and not isinstance(v, bool)]
        targets += [p for p, v in paths if isinstance(v, str) and context_of(p) and re.search(r"\d", v)]
        if targets:
            p = draw(st.sampled_from(targets))
            old = _get(data, p)
            if isinstance(old, str):
                spots = list(re.finditer(r"\d+(\.\d+)?", old))
                m = draw(st.sampled_from(spots))
                new = old[: m.start()] + draw(st.sampled_from(NUMBER_TEXTS)) + old[m.end() :]
            else:
                new = draw(st.sampled_from(NUMBER_VALUES))
            _set(data, p, new)
            return f"number at {p}: {old!r} -> {new!r}"[:200]
    if kind == "enum":
        targets = [p for p, v in paths if isinstance(v, (str, int)) and not isinstance(v, bool) and enum_values(p)]
        if targets:
            p = draw(st.sampled_from(targets))
            valid = draw(st.integers(0, 3)) > 0
            new = draw(st.sampled_from(enum_values(p) if valid else INVALID_ENUMS))
            _set(data, p, new)
            return f"enum at {p} -> {new!r}"
    if kind == "formula":
        targets = [p for p, v in paths if isinstance(v, (str, int)) and not isinstance(v, bool) and context_of(p)]
        if targets:
            p = draw(st.sampled_from(targets))
            new = _expr(draw, p, names)
            _set(data, p, new)
            return f"formula at {p} -> {new!r}"
    if kind == "drop":
        targets = [p for p, _ in paths if isinstance(_get(data, p[:-1]), dict)]
        if targets:
            p = draw(st.sampled_from(targets))
            if draw(st.booleans()):
                del _get(data, p[:-1])[p[-1]]
                return f"dropped {p}"
            _set(data, p, None)
            return f"null at {p}"
    if kind == "add":
        mappings = [()] + [p for p, v in paths if isinstance(v, dict)]
        p = draw(st.sampled_from(mappings))
        here = _get(data, p)
        absent = [k for k in known_keys(p) if k not in here]
        if absent and draw(st.integers(0, 3)) > 0:
            key = draw(st.sampled_from(absent))
            here[key] = _value_for(draw, p + (key,), names)
            return f"added {p + (key,)}: {here[key]!r}"[:300]
        key = draw(st.sampled_from(UNKNOWN_KEYS))
        here[key] = draw(st.sampled_from([1, "x", None, {}, [1]]))
        return f"added unknown key {p + (key,)}"
    if kind == "list":
        targets = [p for p, v in paths if isinstance(v, list)]
        if targets:
            p = draw(st.sampled_from(targets))
            items = _get(data, p)
            how = draw(st.sampled_from(["cut", "empty", "double", "extend", "extend"]))
            if how == "cut" and items:
                del items[draw(st.integers(0, len(items) - 1)) :]
            elif how == "empty":
                items.clear()
            elif how == "double" and items:
                items.extend(copy.deepcopy(items))
            else:
                items.append(_list_item(draw, p, names))
            return f"list at {p}: {how}"
    if kind == "text":
        targets = [p for p, v in paths if isinstance(v, str) and p[-1] in ("name", "description", "mark")]
        targets += [p for p, v in paths if isinstance(v, str) and p[:1] == ("kinds",) and len(p) == 3 and p[-1] == "kind"]
        if targets:
            p = draw(st.sampled_from(targets))
            new = draw(st.sampled_from(HOSTILE_TEXTS))
            _set(data, p, new)
            return f"text at {p} -> {new[:20]!r}"
    if kind == "running":  # a value carried from hand to hand, and a formula that reads it
        name = draw(st.sampled_from(NEW_NAMES[:3]))
        names.running.append(name)
        if not isinstance(data.get("running"), dict):
            data["running"] = {}
        shaped = draw(st.booleans())
        after = draw(st.sampled_from(GROWTH)).replace("X", name) if shaped else _expr(draw, ("running", name, "after_hand"), names)
        start = draw(st.sampled_from(["0", "1", "2", "3", "players"])) if shaped else _expr(draw, ("running", name, "start"), names)
        data["running"][name] = {"start": start, "after_hand": after}
        change = f"running {name}: {data['running'][name]}"
        reader = draw(st.sampled_from(READERS))
        if reader != ("running",):
            here = data
            for key in reader[:-1]:
                if not isinstance(here.get(key), dict):
                    here[key] = {} if key != "rank" else []
                here = here[key]
            shaped = reader in READING and draw(st.booleans())
            text = draw(st.sampled_from(READING[reader])).replace("X", name) if shaped else _expr(draw, reader, names)
            if reader[-1] == 0:
                here = data["winner"]
                here["rank"] = [text, "highest total"]
            else:
                here[reader[-1]] = text
            change += f"; {dotted(reader)}: {text!r}"
        return change[:400]
    if kind == "bulk":  # many of something: the bounds of issue 9 (names, entries, length, nesting)
        how = draw(st.sampled_from(["lets", "running", "kinds", "schedule", "long", "nested", "chain"]))
        many = draw(st.sampled_from([100, 1000, 5000]))
        if how == "lets":
            data["let"] = {f"v{i}": f"v{i - 1} + 1" if i else "1" for i in range(many)}
        elif how == "running":
            data["running"] = {f"r{i}": {"start": "0", "after_hand": f"r{i} + points"} for i in range(many // 10)}
        elif how == "kinds":
            data["kinds"] = {f"k{i}": {"view": "normal", "mark": str(i)} for i in range(many)}
        elif how == "schedule":
            data["schedule"] = ["1"] * many
        elif how == "long":
            data.setdefault("scoring", {})["points"] = " + ".join(["tricks"] * (many // 5))
        elif how == "nested":
            data.setdefault("scoring", {})["points"] = "(" * (many // 50) + "tricks" + ")" * (many // 50)
        else:
            data.setdefault("scoring", {})["points"] = "if made then " * (many // 50) + "1" + " else 0" * (many // 50)
        return f"bulk: {how} x {many}"
    if kind == "tiebreak":
        data["tiebreak"] = _value_for(draw, ("tiebreak",), names)
        if draw(st.booleans()):
            data.setdefault("kinds", {}) if isinstance(data.get("kinds"), dict) else data.update(kinds={})
            data["kinds"]["zero"] = _value_for(draw, ("kinds",), names)["zero"]
            data["tiebreak"]["kind"] = "zero"
        return f"tiebreak: {data['tiebreak']}"
    target = draw(st.sampled_from(EXTENDS_TARGETS if draw(st.booleans()) else EXTENDS_VALID))
    data["extends"] = target
    return f"extends -> {target!r}"


def _dump(data: Any) -> str:
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=4096)
    return text.replace(f"'{DIGITS_5000}'", "1" * 5000).replace(DIGITS_5000, "1" * 5000)


@dataclass
class Mutant:
    """The files of one mutant (paths under the work folder -> YAML text) and the game to play."""

    files: dict[str, str]
    target: str
    players_pick: int
    seed: int
    changes: list[str] = field(default_factory=list)

    def report(self) -> str:
        out = ["changes: " + "; ".join(self.changes), f"players pick {self.players_pick}, seed {self.seed}"]
        for path, text in self.files.items():
            out += [f"--- {path}", text]
        return "\n".join(out)


@st.composite
def mutants(draw: Draw) -> Mutant:
    """A mutant of a bundled ruleset, alone or as the child of a mutant base."""
    all_sources = sources()
    mode = draw(st.sampled_from(["file", "merged", "chain", "formulas"]))
    src = draw(st.sampled_from(all_sources))
    names = Names(list(src.lets), list(src.running))
    changes: list[str] = []
    files: dict[str, str] = {}
    folder = f"rulesets/{src.folder}/" if src.folder else "rulesets/"
    target = folder + "fuzz-mutant.yaml"
    if mode == "chain":
        base = copy.deepcopy(draw(st.sampled_from(all_sources)).merged)
        for _ in range(draw(st.integers(0, 2))):
            changes.append("base: " + mutate_once(draw, base, names))
        files[folder + "fuzz-base.yaml"] = _dump(base)
        child = {k: copy.deepcopy(v) for k, v in src.raw.items() if k not in ("extends",)}
        keep = draw(st.sets(st.sampled_from(sorted(child)), max_size=len(child)))
        child = {"whistdsl": 1, "extends": "fuzz-base.yaml", **{k: child[k] for k in child if k in keep}}
        data = child
    else:
        data = copy.deepcopy(src.merged if mode == "merged" else src.raw)
    kinds = FORMULA_MUTATIONS if mode == "formulas" else MUTATIONS
    for _ in range(draw(st.sampled_from([1, 1, 2, 2, 3, 4]))):
        changes.append(mutate_once(draw, data, names, kinds))
    files[target] = _dump(data)
    return Mutant(files, target, draw(st.integers(0, 9)), draw(st.integers(0, 2**32 - 1)), [f"{mode} of {src.name}"] + changes)


# ---------------------------------------------------------------- the oracle


class _HandCap:
    """Ends the game after `cap` hands, by the engine's own stop flag (checked at each decision)."""

    def __init__(self, game: Game, cap: int):
        self.game, self.cap = game, cap

    def _check(self) -> None:
        if len(self.game.history) >= self.cap - 1:
            self.game.stop_after_hand = True


class _CappedRandom(_HandCap, RandomPlayer):
    """A random player (BOTS['random']) that ends the game after `cap` hands."""

    def act(self, view, legal, rng):
        self._check()
        return super().act(view, legal, rng)

    def chooser(self, rng):
        choose = super().chooser(rng)

        def capped(legal):
            self._check()
            return choose(legal)

        return capped


class _Capped(_HandCap):
    """Another computer player (heuristic, mc) that ends the game after `cap` hands."""

    def __init__(self, game: Game, cap: int, inner):
        super().__init__(game, cap)
        self.inner, self.kind, self.observes = inner, inner.kind, inner.observes

    def act(self, view, legal, rng):
        self._check()
        return self.inner.act(view, legal, rng)


#: The computer players of a fuzzed game (picked by its seed) and the most hands they play:
#: random players in most games; the heuristic; and one look-ahead (mc) player, which is slow.
BOT_TABLES = (("random", HAND_CAP),) * 6 + (("heuristic", HAND_CAP // 2), ("mc", 3))


def play_capped(game: Game, cap: int = HAND_CAP, bots: str = "random") -> None:
    """`play_out` with computer players, stopping after `cap` hands: random ones, heuristic ones,
    or one mc player in seat 0 among random ones."""
    assert BOTS["random"] is RandomPlayer
    players = [_CappedRandom(game, cap) for _ in range(game.players)]
    if bots == "heuristic":
        players = [_Capped(game, cap, BOTS["heuristic"]()) for _ in range(game.players)]
    elif bots == "mc":
        players[0] = _Capped(game, cap, BOTS["mc"](samples=4))
    play_out(game, players)


class Workspace:
    """A folder holding a copy of the bundled rulesets, where mutants are written beside them."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="whistdsl-fuzz-"))
        shutil.copytree(data_dir("rulesets"), self.root / "rulesets")
        # `extends:` may lead anywhere inside the copied rulesets/ (as `--root rulesets` allows)
        takes_root = "root" in inspect.signature(lint_path).parameters
        self.root_option = {"root": self.root / "rulesets"} if takes_root else {}

    def write(self, mutant: Mutant) -> Path:
        for p in self.root.rglob("fuzz-*.yaml"):
            p.unlink()
        for rel, text in mutant.files.items():
            (self.root / rel).write_text(text, encoding="utf-8", errors="surrogatepass")
        return self.root / mutant.target

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def judge(mutant: Mutant, work: Workspace, hang_seconds: float = HANG_SECONDS) -> Outcome:
    """The contract of lint for one mutant (see the module's docstring)."""
    path = work.write(mutant)
    try:
        with hang_guard(hang_seconds):
            return _judge(path, mutant, work)
    except Hang:
        return Outcome(OTHER, f"hang: no answer within {hang_seconds} s")


def _judge(path: Path, mutant: Mutant, work: Workspace) -> Outcome:
    try:
        result = lint_path(path, mutant.target, **work.root_option)
        for name, shown in (
            ("text", render_text(result.findings, result.sources)),
            ("json", render_json(result.findings)),
            ("github", render_github(result.findings)),
        ):
            bad = printed_badly(shown)
            if bad:
                return Outcome(OTHER, f"lint output ({name}): {bad}: {shown[:300]!r}")
    except Exception as e:
        return failure(e, "lint")
    rules = result.ruleset
    if rules is None:
        return Outcome(FINDINGS, result.findings[0].code) if result.findings else Outcome(OTHER, "lint: no ruleset and no finding")
    players = rules.players_min + mutant.players_pick % (rules.players_max - rules.players_min + 1)
    bots, cap = BOT_TABLES[mutant.seed % len(BOT_TABLES)]
    game = None
    outcome: Outcome
    try:
        game = Game(rules, players, seed=mutant.seed)
        play_capped(game, cap, bots)
        outcome = Outcome(GAME if game.result is not None else CAPPED, f"{len(game.history)} hands")
    except RuleError as e:
        outcome = Outcome(RULE_ERROR, e.describe())
        if not result.findings:
            return Outcome(OTHER, f"lint clean without a warning, yet the game stopped: {e.describe()}"[:600])
        if e.hand is None or not re.search(r"\(.+:\d+:\d+\)", e.origin):
            return Outcome(OTHER, f"a rule error that does not name its hand and formula (file:line:col): {e.describe()}"[:600])
    except Exception as e:
        return failure(e, f"game with {players} players ({bots})")
    if game is not None:
        problem = _replays(game)
        if problem is not None:
            return problem
    return outcome


def _replays(game: Game) -> Outcome | None:
    """The game's record (what `play --record` writes) must be a valid record that replays."""
    try:
        record = json.loads(json.dumps(game_record(game)))  # (the record fuzzer checks its shape)
        replay(record)
    except RuleError:
        return None  # the next hand's start fails again, as in the game
    except (RecordError, Disagreement) as e:
        return Outcome(OTHER, f"{type(e).__name__}: the game's own record does not replay: {e}")
    except Exception as e:
        return failure(e, "replay of the game's record")
    return None
