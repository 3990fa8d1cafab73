"""Check and compile: validated ruleset data -> a frozen `Ruleset`, or findings that say why not.

First every formula is parsed, type-checked against its context and compiled (findings point
into the YAML text, at the spot inside the formula). Then the ruleset's meaning is checked for
every allowed player count: the deck holds every hand, the schedule is finite and non-empty,
trump cycles name suits of the deck, named kinds exist, and no player is ever left without a
legal bid.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from ..diagnostics.findings import Finding, Position
from ..language.catalogue import CONSTANTS, CONTEXTS, FUNCTIONS, PARAMETER_RANGE, SEAT_SETS, SUITS, TABLE, Context, Type
from ..language.environment import dealt_facts, redeal_env, running_start_env, seat_env
from ..language.errors import EvalError, ExprError
from ..language.parser import KEYWORDS
from ..language.program import Formula, formula
from ..language.suggestions import did_you_mean
from ..language.values import Number, Value, value_text
from .domain import (
    BidCheckError,
    BidTests,
    Budget,
    FormulaCases,
    auction_bids,
    decision_when_failure,
    hand_words,
    no_legal_bid,
    samples,
    turned_card_envs,
    turned_cards,
    when,
)
from .load import JsonPath, Loaded, dotted, split_formulas, split_message
from .ruleset import (
    CLOCKWISE,
    COUNTERCLOCKWISE,
    MAX_PLAYERS,
    MAX_WILD_KINDS,
    NORMAL,
    STANDARD_RANKS,
    STANDARD_WINNER,
    Auction,
    AuctionCall,
    BidsTogether,
    Declare,
    End,
    FirstBidder,
    FirstLead,
    HandKind,
    HandSetup,
    Identical,
    LetError,
    Parameter,
    PlannedHand,
    RankKey,
    Redeal,
    Ruleset,
    RunningValue,
    ScheduleEntry,
    ScheduleError,
    SeatChoice,
    Special,
    SpecialsWithoutTrump,
    SuperRank,
    SuperTrumps,
    Tiebreak,
    TrumpChoice,
    TrumpSeen,
    TurnedCard,
    WhenVoid,
    WildSuits,
    WinnerRule,
    hand_setup,
    read_settings,
    start_running,
    suited_card_text,
)
from .targets import MAX_CASES, OutOfCases, none_when_env
from .validate import formula_lists, key_help

_DIRECTIONS = {"clockwise": CLOCKWISE, "counterclockwise": COUNTERCLOCKWISE}
_RANK_KEY = re.compile(r"^(\s*)(highest|lowest)(\s+)(.*)$", re.S)
#: The ranking when a ruleset leaves out `winner.rank` (as docs/format.md and the schema say).
DEFAULT_RANK = "highest total"


#: Names a running value may not take: the language's own words and every built-in name.
_TAKEN_NAMES = (
    {v.name: "a built-in variable" for c in CONTEXTS.values() for v in c.variables}
    | dict.fromkeys(CONSTANTS, "a constant")
    | dict.fromkeys(FUNCTIONS, "a function")
    | dict.fromkeys(KEYWORDS, "a word of the language")
)
#: Names a parameter may not take: the language's own words, and the built-in names known for
#: the whole game (which would hide it everywhere). Another built-in name (`tricks`) is allowed:
#: it hides the parameter only in the contexts that have it.
_TAKEN_PARAMETER_NAMES = (
    {v.name: "a built-in variable of every formula" for v in CONTEXTS["let"].variables}
    | dict.fromkeys(CONSTANTS, "a constant")
    | dict.fromkeys(FUNCTIONS, "a function")
    | dict.fromkeys(KEYWORDS, "a word of the language")
)
_PARAMETER_TYPES = {"number": Type.NUMBER, "yes/no": Type.BOOL, "text": Type.TEXT}
#: The most combinations of parameter values lint checks one by one; past it, it checks each
#: parameter's edges (min, max, default) together, or failing that one at a time (and says so).
MAX_PARAMETER_CASES = 256


class _Compiler:
    def __init__(self, loaded: Loaded, running_names: Iterable[str] | None = None):
        self.loaded = loaded
        self.data = loaded.data
        self.findings: list[Finding] = []
        #: the top keys of the ruleset that have an error ("" for one about the whole file): the
        #: checks of the deal run despite errors only when none is in a key the deal reads
        self.sections: set[str] = set()
        running = self.data.get("running") or {}
        names = tuple(running) if running_names is None else tuple(running_names)
        #: the names a value may not take; a version 1 file may still name one like a seat set
        self.taken = _TAKEN_NAMES if self.data.get("whistdsl") != 1 else {k: v for k, v in _TAKEN_NAMES.items() if k not in SEAT_SETS}
        for name in names:
            if name in self.taken and name in running:
                self.report(
                    ("running", name),
                    "W203",
                    f"running value `{name}` has the name of {self.taken[name]}; choose another name",
                    key=True,
                )
        self.running_names = tuple(n for n in names if n not in self.taken)
        self.lets: dict[str, Type] = {}  # the `let` values compiled so far, with their types
        self.parameters: dict[str, Type] = {}  # the declared parameters, with their types
        self.declared: list[Parameter] = []  # those whose declaration is right
        self.reads: set[str] = set()  # every name some formula reads (for W209)
        #: the formulas that read a fact of the dealer (`dealer.bid`), with where (W311)
        self.dealer_reads: list[tuple[JsonPath, Position]] = []
        self._declare_parameters(running)
        self.warned: set[tuple[str, str, JsonPath]] = set()  # (position, code, subject) of each warning reported
        self.failed: set[JsonPath] = set()  # the paths of the formulas that did not compile

    def _declare_parameters(self, running: Any) -> None:
        """The `parameters:` mapping: each name free, each default and range right (W208)."""
        for name, spec in (self.data.get("parameters") or {}).items():
            if not isinstance(spec, dict) or spec.get("type") not in _PARAMETER_TYPES:
                continue  # left out of partly valid data
            taken = _TAKEN_PARAMETER_NAMES.get(name) or ("a running value" if isinstance(running, dict) and name in running else None)
            if taken:
                self.report(("parameters", name), "W208", f"parameter `{name}` has the name of {taken}; choose another name", key=True)
                continue
            self.parameters[name] = _PARAMETER_TYPES[spec["type"]]
            parameter = self._parameter(name, spec)
            if parameter is not None:
                self.declared.append(parameter)

    def _parameter(self, name: str, spec: dict[str, Any]) -> Parameter | None:
        kind, default = spec["type"], spec["default"]
        where = ("parameters", name)
        low, high = spec.get("min"), spec.get("max")
        if kind != "number" and (low is not None or high is not None or "step" in spec):
            key = "min" if low is not None else "max" if high is not None else "step"
            self.report((*where, key), "W208", f"parameter `{name}` is a {kind}: only a number has a min and a max (and a step)", key=True)
            return None
        if kind != "text" and "choices" in spec:
            self.report((*where, "choices"), "W208", f"parameter `{name}` is a {kind}: only a text has choices", key=True)
            return None
        if kind != "number":
            parameter = Parameter(name, kind, default, None, None, tuple(spec.get("choices", ())), spec.get("description", ""))
        else:
            parameter = self._number_parameter(name, spec)  # type: ignore[assignment]  # a number parameter is declared: it was just checked
            if parameter is None:
                return None
        try:
            parameter.check(parameter.default)
        except ValueError as e:
            self.report((*where, "default"), "W208", f"the default of parameter {e}")
            return None
        return parameter

    def _constant(self, path: JsonPath, what: str) -> Number | None:
        """A number written in a declaration (`1`, `0.5`, `1/3`): a formula that reads nothing (W212)."""
        value = self.get(path)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        f = self.formula(path, PARAMETER_RANGE, Type.NUMBER)
        if f is None:
            return None
        if f.constant is None:
            self.report(
                path, "W212", f"{what} is a number (`1`, `0.5`, `1/3`), not a formula that reads {', '.join(f'`{n}`' for n in sorted(f.names))}"
            )
            return None
        return f.constant  # type: ignore[return-value]  # the checker typed this formula a number

    def _number_parameter(self, name: str, spec: dict[str, Any]) -> Parameter | None:
        """A number parameter: its step, its default, and its bounds, numbers or formulas of the
        player count and the parameters declared before it (W208, W212, W312)."""
        where = ("parameters", name)
        step: Number = 1
        if "step" in spec:
            got = self._constant((*where, "step"), f"the step of parameter `{name}`")
            if got is None:
                return None
            if got <= 0:
                self.report((*where, "step"), "W212", f"the step of parameter `{name}` is {value_text(got)}: it must be above 0")
                return None
            step = got
        default = spec["default"]
        if isinstance(default, str):  # a decimal or a fraction (`1.5`, `3/2`); anything else: check() says
            default = self._constant((*where, "default"), f"the default of parameter `{name}`")
            if default is None:
                return None
        own = self.parameters.pop(name)  # a range cannot read the parameter itself
        try:
            bounds: list[Number | Formula] = []
            for key in ("min", "max"):
                value = spec[key]
                if isinstance(value, int) and not isinstance(value, bool):
                    bounds.append(value)
                    continue
                f = self.formula((*where, key), PARAMETER_RANGE, Type.NUMBER)
                if f is None:
                    return None
                bounds.append(f.constant if f.constant is not None else f)  # type: ignore[arg-type]  # the checker typed this formula a number
        finally:
            self.parameters[name] = own
        low, high = bounds
        if not isinstance(low, Formula) and not isinstance(high, Formula) and low > high:
            self.report_among(
                [(*where, "min"), (*where, "max")], "W208", f"parameter `{name}`: min ({value_text(low)}) is above max ({value_text(high)})"
            )
            return None
        for key, bound in (("min", low), ("max", high)):
            if not isinstance(bound, Formula) and (Fraction(bound) / step).denominator != 1:
                self.report(
                    (*where, key), "W212", f"the {key} of parameter `{name}` ({value_text(bound)}) is not a multiple of its step ({value_text(step)})"
                )
                return None
        widest = self._widest(name, low, high)
        if widest is None:
            return None
        return Parameter(
            name,
            "number",
            default,
            widest[0],
            widest[1],
            (),
            spec.get("description", ""),
            step,
            low if isinstance(low, Formula) else None,
            high if isinstance(high, Formula) else None,
        )

    def _widest(self, name: str, low: Number | Formula, high: Number | Formula) -> tuple[Number, Number] | None:
        """The widest bounds a range gives at any table: the formulas evaluated for every player
        count and the values of the parameters they read (at their ends and defaults when they
        are many); an evaluation that fails or a range with no value is W312."""
        formulas = [f for f in (low, high) if isinstance(f, Formula)]
        if not formulas:
            return low, high  # type: ignore[return-value]  # neither bound is a Formula here (none was found above)
        read = sorted({n for f in formulas for n in f.names} - {"players"})
        earlier = {p.name: p for p in self.declared}
        axes = []
        for n in read:
            p = earlier.get(n)
            if p is None:  # declared with an error (reported), or later: W303 was reported
                return None
            axes.append(p.values() if p.count() <= 16 else p.edges())
        lows, highs = [], []
        for players in range(2, MAX_PLAYERS + 1):
            for combo in itertools.product(*axes):
                env: dict[str, Value] = {"players": players, **dict(zip(read, combo))}
                bounds = []
                for key, bound in (("min", low), ("max", high)):
                    if not isinstance(bound, Formula):
                        bounds.append(bound)
                        continue
                    try:
                        bounds.append(bound(env))  # type: ignore[arg-type]  # the checker typed the bound formula a number
                    except EvalError as e:
                        self.report(("parameters", name, key), "W312", f"the {key} of parameter `{name}` cannot be worked out {when(env, env)}: {e}")
                        return None
                lows.append(bounds[0])
                highs.append(bounds[1])
        return min(lows), max(highs)

    def get(self, path: JsonPath, default: Any = None) -> Any:
        node: Any = self.data
        for key in path:
            if isinstance(node, dict) and key in node or isinstance(node, list) and isinstance(key, int) and key < len(node):
                node = node[key]
            else:
                return default
        return node

    def report(self, path: JsonPath, code: str, message: str, key: bool = False, severity: str = "error", help: str = "") -> None:
        if severity == "error":
            self.sections.add(str(path[0]) if path else "")
        self.findings.append(self.loaded.where(path, key=key).finding(code, message, severity, help=help))

    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == "error")

    def report_among(self, paths: Sequence[JsonPath], code: str, message: str, severity: str = "error", help: str = "") -> None:
        """A finding about several values (the subject first), reported at the one written in the
        most derived file of the `extends` chain: the file that made the conflict. The message
        names where the others are, when they are in other files."""
        if severity == "error":
            self.sections.update(str(p[0]) if p else "" for p in paths)
        present = [p for p in dict.fromkeys(tuple(p) for p in paths) if self.get(p) is not None or self._removed(p)]
        if not present:
            present = [tuple(paths[0])]
        places = {p: self._position(p) for p in present}
        at = min(present, key=lambda p: (self._depth(places[p].path), present.index(p)))
        if severity == "warning":  # one warning a spot and formula is enough to read (the first case found)
            spot = (str(places[at]), code, present[0])
            if spot in self.warned:
                return
            self.warned.add(spot)
        others = [f"{dotted(p)} is at {_place_shown(places[p])}" for p in present if places[p].path != places[at].path]
        if others:
            message += f" ({'; '.join(others)})"
        self.findings.append(places[at].finding(code, message, severity, help=help))

    def _depth(self, file: str) -> int:
        """0 for the file linted, 1 for the file it extends, and so on."""
        for i, doc in enumerate(self.loaded.documents):
            if doc.path == file:
                return i
        return len(self.loaded.documents)

    def _removed(self, path: JsonPath) -> Position | None:
        """Where the most derived file that removes `path` (sets it, or a mapping holding it, to null) does so."""
        for layer in self.loaded.layers:
            node: Any = layer.data
            for i, key in enumerate(path):
                if not isinstance(node, dict) or key not in node:
                    break
                if node[key] is None:
                    ref = layer.keys.get(tuple(path[: i + 1]))
                    return ref.position if ref else None
                node = node[key]
        return None

    def _position(self, path: JsonPath) -> Position:
        if self.get(path) is None:
            removed = self._removed(path)
            if removed is not None:
                return removed
        return self.loaded.where(path)

    def formula(
        self,
        path: JsonPath,
        context: str | Context,
        expect: Type | None,
        text: str | None = None,
        column_offset: int = 0,
    ) -> Formula | None:
        """Compile the formula at `path` (or `text`, a part of it starting at `column_offset`)."""
        value = self.get(path)
        if value is None or isinstance(value, (bool, list, dict)):
            return None  # absent (the meaning checks say so where it matters) or reported by the schema
        whole = str(value) if not isinstance(value, str) else value
        source = whole if text is None else text
        try:
            compiled = formula(source, context, self.running_names, expect, self.lets, self.parameters)
        except ExprError as e:
            self.failed.add(tuple(path))
            self.sections.add(str(path[0]) if path else "")
            ref = self.loaded.ref(path)
            for p in e.problems:
                column = p.column + (column_offset if p.line == 1 else 0)
                where = ref.position_in_value(whole, p.line, column) if ref else self.loaded.where(path)
                end = None
                if ref and p.end_line:
                    end = ref.position_in_value(whole, p.end_line, p.end_column + (column_offset if p.end_line == 1 else 0))
                self.findings.append(where.finding(p.code, p.message, end=end, help=p.help))
            return None
        self.reads |= compiled.names
        roles = compiled.checked.roles if compiled.checked is not None else {}
        if (compiled.seat_reads or roles) and self.data.get("whistdsl") == 1:
            if roles:
                what = "facts of one seat (" + ", ".join(f"`{r}.`" for r in roles) + ")"
            else:
                what = "aggregates over seats (" + ", ".join(name for name, _ in compiled.seat_reads) + ")"
            self.report(path, "W205", f"{what} are language version 2: write `whistdsl: 2` at the top of this file")
            return None
        if "dealer" in roles:
            ref = self.loaded.ref(path)
            line, column = roles["dealer"]
            where = ref.position_in_value(whole, line, column + (column_offset if line == 1 else 0)) if ref else self.loaded.where(path)
            self.dealer_reads.append((path, where))
        return replace(compiled, origin=f"{dotted(path)} ({self.loaded.where(path)})")

    def find_split_formulas(self) -> None:
        """W418 in every list whose items are formulas (`formula_lists`, from the schema): the
        pieces of one formula YAML's flow list split at a comma, reported at the first piece;
        `split_by_yaml` gives each list's pieces to the compiler of that list, which skips them."""
        self.split: dict[tuple, set[int]] = {}
        for path in formula_lists(self.loaded.data):
            items = self.get(path)
            for first, last in split_formulas(self.loaded, path):
                self.report((*path, first), "W418", split_message(items, first, last))
                self.split.setdefault(tuple(path), set()).update(range(first, last + 1))

    def split_by_yaml(self, path: JsonPath) -> set[int]:
        """The items of the list at `path` that are pieces of a split formula (W418 reported them)."""
        return self.split.get(tuple(path), set())

    def section_at(self, finding: Finding) -> str:
        """The top key of the ruleset a finding is written under, in its own file ("" if none)."""
        tops = sorted(
            (ref.position.line, str(path[0]))
            for layer in self.loaded.layers or [self.loaded]
            for path, ref in layer.keys.items()
            if len(path) == 1 and ref.document.path == finding.path
        )
        under = [key for line, key in tops if line <= finding.line]
        return under[-1] if under else ""

    def deal_untouched(self) -> bool:
        """No error so far is in a key the deal reads (so the deal can be checked alone)."""
        return not any(k == "" or k in _DEAL_KEYS for k in self.sections)

    def optional(self, path: JsonPath, context: str, expect: Type | None) -> Formula | None:
        return self.formula(path, context, expect) if self.get(path) is not None else None


def compile_ruleset(loaded: Loaded, settings: Sequence[str] = ()) -> tuple[Ruleset | None, list[Finding]]:
    """Validated data -> (Ruleset, warnings) or (None, findings with at least one error).

    `settings` are `--set NAME=VALUE` texts: lint checks only those values of those parameters,
    and the ruleset returned has them set. Raises SettingError for a setting the ruleset's
    parameters do not allow (once its formulas compile: a ruleset with errors says those first)."""
    c, rules = _compile_formulas(loaded)
    if c.findings:
        if c.deal_untouched():
            check_deal(c, rules)  # does not read the parts with findings: one run says both
        return None, sorted(set(c.findings))
    chosen = read_settings(rules, settings) if settings else None
    rules = _check_meaning(c, rules, chosen)
    findings = sorted(set(c.findings))
    if c.errors():
        return None, findings
    return rules, findings  # warnings (W407) do not refuse a ruleset


#: The keys whose formulas the deal checks evaluate (the table, the deck, the schedule, who
#: plays a hand, trump's `none_when`, the running values' starts): with one of them broken, the
#: deal cannot be worked out.
_DEAL_KEYS = frozenset({"players", "parameters", "let", "deck", "dealer", "kinds", "schedule", "tiebreak", "end", "running", "trump"})


def _binds(rules: Ruleset) -> bool:
    """Whether `rules` has parameters to set (or a player range that reads them)."""
    return bool(rules.parameters) or any(not isinstance(v, int) for v in rules.players_range or ())


def _bound_at(c: _Compiler, rules: Ruleset, values: Mapping[str, Value]) -> Ruleset | None:
    """`rules` with the parameters set to `values` (the player range too, where it reads them),
    or None having reported why the range cannot be worked out (W406)."""
    if not _binds(rules):
        return rules
    try:
        return rules.with_parameters(values)
    except EvalError as e:
        c.report(("players",), "W406", str(e))
        return None


def check_deal(c: _Compiler, rules: Ruleset) -> None:
    """The checks of the deal alone: the player range, and at every player count the deck holds
    every hand, the schedule is not empty, enough players play each hand. They read no formula
    of the bidding, play or scoring, so they run for a ruleset with findings in those (when
    `c.deal_untouched()`): fixing one finding does not reveal another. For each combination
    of parameter values the meaning checks try (their ranges and values compiled: `parameters`
    is a key the deal reads), until one has errors. A ruleset without a schedule is left to the
    meaning checks (W201), which say so."""
    if c.get(("schedule",)) is None:
        return
    tried, _ = parameter_cases(rules.parameters, {})
    for values in tried:
        before, errors = len(c.findings), c.errors()
        bound = _bound_at(c, rules, values)
        if bound is not None:
            _check_players(c, bound)  # its answer counts the errors found before it too
            if c.errors() == errors:
                ranged = any(p.ranged for p in bound.parameters)
                for players in range(bound.players_min, bound.players_max + 1):
                    if ranged and bound.table_problem(players) is not None:
                        continue  # no table anyone can set up (W313 with the defaults: the meaning checks)
                    at_count = c.errors()
                    _check_player_count(c, bound, players, None, None, deal_only=True)  # type: ignore[arg-type]  # with deal_only the cases and the budget are not read
                    if c.errors() > at_count:
                        break
        if rules.parameters:
            words = _parameter_words(rules, values)
            c.findings[before:] = [replace(f, message=f"{words}: {f.message}") for f in c.findings[before:]]
        if c.errors() > errors:
            return


def expression_findings(
    loaded: Loaded, running_names: Iterable[str], parameter_names: Iterable[str] = (), left_out: Iterable[JsonPath] = ()
) -> list[Finding]:
    """The expression findings (W3xx) of data that is only partly valid, and those of the deal.

    `loaded` holds just the schema-valid parts of a ruleset; `running_names` and
    `parameter_names` are the running values and parameters the whole file declares (some may
    have been left out as invalid), so formulas that use them are not reported as using unknown
    names. `left_out` are the paths of the parts the schema rejected: when none is in a key the
    deal reads and the formulas of those keys compile, the deal is checked too (`check_deal`:
    the deck holds every hand, ...), so a schema error in the scoring hides no deal finding.
    The rest of the meaning is not checked: it needs the whole ruleset.
    """
    c, rules = _compile_formulas(loaded, running_names, parameter_names)
    found = {f for f in c.findings if f.code.startswith("W3")}
    deal_whole = not any(not path or path[0] in _DEAL_KEYS for path in left_out)
    if deal_whole and c.deal_untouched():
        before = len(c.findings)
        check_deal(c, rules)
        found.update(c.findings[before:])
    return sorted(found)


def _compile_formulas(  # noqa: C901 one formula a branch
    loaded: Loaded, running_names: Iterable[str] | None = None, parameter_names: Iterable[str] = ()
) -> tuple[_Compiler, Ruleset]:
    """Compile every formula of the (validated) data; findings are left in the compiler."""
    c = _Compiler(loaded, running_names)
    c.find_split_formulas()
    for name in parameter_names:  # declared, but left out of partly valid data: of any type
        c.parameters.setdefault(name, Type.ANY)
    d = loaded.data
    players = d.get("players", {})
    direction = d.get("direction", "clockwise")
    if isinstance(direction, str):
        deal = bidding = play = _DIRECTIONS[direction]
    else:
        deal, bidding, play = (_DIRECTIONS[direction.get(k, "clockwise")] for k in ("deal", "bidding", "play"))
    deck = d.get("deck", {})
    ranks = tuple("T" if str(r) == "10" else str(r) for r in deck.get("ranks", STANDARD_RANKS))

    lets: list[tuple[str, Formula]] = []
    for name in d.get("let") or {}:
        taken = c.taken.get(name) or ("a running value" if name in c.running_names else None)
        if taken:
            c.report(("let", name), "W203", f"`let` value `{name}` has the name of {taken}; choose another name", key=True)
            continue
        if name in c.parameters:
            c.report(("let", name), "W208", f"`let` value `{name}` has the name of a parameter; choose another name", key=True)
            continue
        f = c.formula(("let", name), "let", None)  # each sees the ones before it
        if f is not None:
            lets.append((name, f))
            c.lets[name] = f.type

    kinds: dict[str, HandKind] = {NORMAL: HandKind(NORMAL, "normal", "")}
    for name, spec in (d.get("kinds") or {}).items():
        kinds[name] = HandKind(
            name,
            spec.get("view", "normal"),
            spec.get("mark", ""),
            c.optional(("kinds", name, "allowed"), "bidding", Type.BOOL),
            spec.get("description", ""),
        )

    schedule: list[ScheduleEntry] = []
    split = c.split_by_yaml(("schedule",))
    for i, entry in enumerate(d.get("schedule", [])):
        if i in split:
            continue
        if isinstance(entry, dict):
            f = c.formula(("schedule", i, "cards"), "schedule", None)
            kind = entry.get("kind", NORMAL)
        else:
            f = c.formula(("schedule", i), "schedule", None)
            kind = NORMAL
        if f is not None and f.type not in (Type.NUMBER, Type.LIST):
            c.report(("schedule", i), "W302", f"a schedule entry needs a number or a list of numbers, not a {f.type}")
        elif f is not None:
            schedule.append(ScheduleEntry(f, kind))

    trump = d.get("trump", {})
    trump_from = trump.get("from") or ()
    trump_from = (trump_from,) if isinstance(trump_from, str) else tuple(trump_from)
    running = []
    for name in c.running_names:
        if not isinstance(d.get("running", {}).get(name), dict):
            continue  # left out of partly valid data
        start = c.formula(("running", name, "start"), "running_start", Type.NUMBER)
        after = c.formula(("running", name, "after_hand"), "running", Type.NUMBER)
        if start and after:
            running.append(RunningValue(name, start, after, d["running"][name].get("description", "")))

    rank: list[RankKey] = []
    keys = (d.get("winner") or {}).get("rank")
    if keys is None:  # left out (or removed by an `extends` child): the documented default
        m = _RANK_KEY.match(DEFAULT_RANK)
        assert m
        default = formula(m.group(4), "winner", c.running_names, Type.NUMBER, c.lets, c.parameters)
        rank.append(RankKey(True, replace(default, origin="winner.rank (the default, highest total)"), DEFAULT_RANK))
    split = c.split_by_yaml(("winner", "rank")) if keys else set()
    for i, key in enumerate(keys or ()):
        if i in split:
            continue
        m = _RANK_KEY.match(key)
        if not m:
            continue  # the schema reported it
        offset = len(m.group(1)) + len(m.group(2)) + len(m.group(3))
        f = c.formula(("winner", "rank", i), "winner", Type.NUMBER, text=m.group(4), column_offset=offset)
        if f is not None:
            rank.append(RankKey(m.group(2) == "highest", f, key.strip()))

    tiebreak = None
    if d.get("tiebreak") is not None:
        tb = d["tiebreak"]
        hands = c.formula(("tiebreak", "hands"), "schedule", Type.NUMBER)
        cards = c.formula(("tiebreak", "cards"), "schedule", Type.NUMBER)
        if hands and cards:
            tiebreak = Tiebreak(hands, cards, tb.get("kind", NORMAL))

    decided = _compile_decisions(c, d)
    specials = tuple(
        Special(name, str(spec.get("mark", "")), spec.get("count", 1), WildSuits(spec.get("wild", "")))
        for name, spec in (deck.get("specials") or {}).items()
        if isinstance(spec, dict)
    )
    play_data = d.get("play", {})
    trick_data = d.get("trick") or {}
    winner_rules = []
    for i, text in enumerate(trick_data.get("winner") or ()):
        m = _WINNER_RULE.match(text) if isinstance(text, str) else None
        if m:
            winner_rules.append(WinnerRule(m.group(1), m.group(2)))
        elif isinstance(text, str) and _WINNER_START.match(text):  # otherwise the schema reported it
            c.report(
                ("trick", "winner", i),
                "W203",
                f"`{text.strip()}` is not a trick winner rule: write `first`, `last`, `highest` or `lowest`, then one "
                "name (a special card's, `trump`, `led` or `suited`), e.g. `highest trump`",
            )

    end = None
    if d.get("end") is not None:
        when_ = c.formula(("end", "when"), "end", Type.BOOL)
        cap = c.formula(("end", "hands"), "schedule", Type.NUMBER)
        if when_ and cap:
            end = End(when_, cap)

    written: list[int | Formula] = []
    for key in ("min", "max", "default"):
        value = players.get(key, players.get("min", 4) if key == "default" else 4)
        if isinstance(value, str):
            f = c.formula(("players", key if key in players else "min"), TABLE, Type.NUMBER)
            value = f if f is not None else 0
        written.append(value)
    players_range = (written[0], written[1], written[2])
    fixed = all(isinstance(v, int) for v in players_range)
    rules = Ruleset(
        name=d.get("name", ""),
        description=d.get("description", ""),
        version=d.get("whistdsl", 1),
        source=d,
        lets=tuple(lets),
        parameters=tuple(c.declared),
        parameter_values={p.name: p.default for p in c.declared},
        players_range=players_range,
        players_min=players_range[0] if fixed else 0,  # type: ignore[arg-type]  # a fixed range holds whole numbers, not formulas
        players_max=players_range[1] if fixed else 0,  # type: ignore[arg-type]  # a fixed range holds whole numbers, not formulas
        players_default=players_range[2] if fixed else 0,  # type: ignore[arg-type]  # a fixed range holds whole numbers, not formulas
        deal_direction=deal,
        bidding_direction=bidding,
        play_direction=play,
        suits=tuple(deck.get("suits", SUITS)),
        ranks=ranks,
        deck_size=c.optional(("deck", "size"), "setup", Type.NUMBER),
        specials=specials,
        copies=c.optional(("deck", "copies"), "setup", Type.NUMBER),
        always_playable=tuple(play_data.get("always_playable") or ()),
        special_led=tuple((play_data.get("special_led") or {}).items()),
        trick_winner=tuple(winner_rules) or STANDARD_WINNER,
        identical=Identical(trick_data.get("identical", Identical.EARLIER)),
        first_dealer=d.get("dealer", {}).get("first", "random"),
        sits_out=c.optional(("dealer", "sits_out"), "hand", Type.BOOL),
        kinds=kinds,
        schedule=tuple(schedule),
        trump_cycle=tuple(trump["cycle"]) if trump.get("cycle") else None,
        turn_up=bool(trump.get("turn_up", False)) or trump_from == ("turn_up",),
        trump_none_when=c.optional(("trump", "none_when"), "deal", Type.BOOL),
        trump_from=() if trump_from == ("turn_up",) else trump_from,
        trump_weights=_trump_weights(trump, tuple(deck.get("suits", SUITS))),
        trump_turned=TurnedCard(trump.get("turned", TurnedCard.SET_ASIDE)),
        trump_seen=TrumpSeen(trump.get("seen", TrumpSeen.AT_ONCE)),
        trump_specials=tuple(trump.get("specials") or ()),
        trump_specials_without=SpecialsWithoutTrump(trump.get("specials_without_trump", SpecialsWithoutTrump.UNSAID)),
        super_trumps=_super_trumps(trump, tuple(deck.get("suits", SUITS))),
        first_bidder=FirstBidder(first) if isinstance(first := d.get("bidding", {}).get("first"), str) else FirstBidder.AFTER_DEALER,
        first_bidder_choice=_seat_choice(c, ("bidding", "first"), "first_bidder"),
        allowed=c.optional(("bidding", "allowed"), "bidding", Type.BOOL),
        **decided,
        when_void=WhenVoid(d.get("play", {}).get("when_void", WhenVoid.FREE)),
        first_lead=FirstLead(lead) if isinstance(lead := d.get("play", {}).get("first_lead"), str) else FirstLead.FIRST_BIDDER,
        first_lead_choice=_seat_choice(c, ("play", "first_lead"), "first_lead"),
        points=c.optional(("scoring", "points"), "scoring", Type.NUMBER),
        bonus=c.optional(("scoring", "bonus"), "bonus", Type.NUMBER),
        running=tuple(running),
        rank=tuple(rank),
        wins_outright=c.optional(("winner", "wins_outright"), "winner", Type.BOOL),
        tiebreak=tiebreak,
        end=end,
        redeal=_compile_redeal(c, d),
    )
    return c, rules


def _compile_redeal(c: _Compiler, d: dict[str, Any]) -> Redeal | None:
    """`redeal` (language 2): its condition through the checker, in the `redeal` context."""
    spec = d.get("redeal")
    if not isinstance(spec, dict):
        return None
    when = c.optional(("redeal", "when"), "redeal", Type.BOOL)
    if spec.get("passed_out") is True and not any(isinstance(s, dict) and s.get("name") == "auction" for s in d.get("decisions") or ()):
        c.report(
            ("redeal", "passed_out"),
            "W445",
            "`passed_out: true` deals a hand again when every seat passes in the auction, but the ruleset has no auction",
            help="write an `auction` decision, or drop `passed_out`",
        )
    if when is None and spec.get("passed_out") is not True and ("redeal", "when") not in c.failed:
        c.report(("redeal",), "W445", "`redeal` says neither when a hand is dealt again (`when`) nor `passed_out: true`", key=True)
    limit = spec.get("limit", Redeal.limit)
    return Redeal(when, spec.get("passed_out") is True, limit if isinstance(limit, int) and not isinstance(limit, bool) else Redeal.limit)


def _super_trumps(trump: dict[str, Any], suits: tuple[str, ...]) -> SuperTrumps | None:
    """`trump.super_trumps` read: its rank and its suit order (default: the deck's suits in order)."""
    said = trump.get("super_trumps")
    if not isinstance(said, dict):
        return None
    return SuperTrumps(SuperRank(said.get("rank", SuperRank.SAME)), tuple(said.get("order") or suits))


def _trump_weights(trump: dict[str, Any], suits: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """`trump.weights` as every outcome of a random trump in the deck's order, then `none`, each
    with its weight (0 when left out); () when not written. A suit not of the deck is left out
    here (W423 says so)."""
    weights = trump.get("weights")
    if not isinstance(weights, dict):
        return ()
    return tuple((outcome, _weight(weights.get(outcome, 0))) for outcome in (*suits, "none"))


def _weight(w: object) -> int:
    """A weight as written, or 0 for one that is not a whole number from 0 (the schema's finding)."""
    return w if isinstance(w, int) and not isinstance(w, bool) and w > 0 else 0


#: Which keys each kind of decision takes (besides `name`); a key two kinds take (`calls`) is
#: said to belong to the first of them (W207).
_DECISION_KEYS = {"trump": ("who", "when", "options"), "bid": ("calls", "blind", "together", "skip"), "auction": ("min", "suits", "calls")}
_DECISION_KEYS["declare"] = ("choices",)
#: Words a named call may not be: the choice before a blind bid is answered with them.
_NOT_CALLS = ("look", "blind")


def _compile_decisions(c: _Compiler, d: dict[str, Any]) -> dict[str, Any]:
    """The `decisions` list (language 2): the Ruleset's trump choice and the bid's own rules."""
    out: dict[str, Any] = {}
    seen: dict[str, int] = {}
    for i, spec in enumerate(d.get("decisions") or ()):
        if not isinstance(spec, dict) or spec.get("name") not in _DECISION_KEYS:
            continue  # the schema reported it
        name = spec["name"]
        if name in seen:
            c.report_among(
                [("decisions", i, "name"), ("decisions", seen[name], "name")], "W206", f"the `{name}` decision is written twice: a hand has one"
            )
            continue
        seen[name] = i
        for key in spec:
            if key != "name" and key not in _DECISION_KEYS[name]:
                other = next(k for k, keys in _DECISION_KEYS.items() if key in keys)
                c.report(
                    ("decisions", i, key), "W207", f"`{key}` belongs to {_a(other)} `{other}` decision, not to {_a(name)} `{name}` decision", key=True
                )
        if name == "trump":
            options = tuple(spec.get("options", (*d.get("deck", {}).get("suits", SUITS), "none")))
            if not options:
                c.report(("decisions", i, "options"), "W423", "this decision has no options: list the suits a seat may name (and `none`)")
            who = spec.get("who", "dealer")
            after = "bid" in seen
            if who == "declarer" and "auction" not in seen:
                c.report(
                    ("decisions", i, "who"),
                    "W433",
                    "`who: declarer` names trump, but there is no auction before it to make a declarer: write an `auction` decision first",
                )
            if who == "highest_bidder" and not after:
                c.report(
                    ("decisions", i, "who"),
                    "W424",
                    "`who: highest_bidder` names trump before anyone has bid: write this decision after the `bid` decision",
                )
            when = c.formula(("decisions", i, "when"), "trump_choice", Type.BOOL) if spec.get("when") is not None else None
            out["trump_choice"] = TrumpChoice(who, options, when, after)
        elif name == "declare":
            out["declare"] = _compile_declare(c, i, spec)
        elif name == "auction":
            if "bid" in seen or "trump" in seen:
                c.report(("decisions", i, "name"), "W211", "the auction comes first: write it before the `trump` and `bid` decisions")
            low = c.formula(("decisions", i, "min"), "auction", Type.NUMBER) if spec.get("min") is not None else None
            suits = tuple(spec.get("suits") or ())
            out["auction"] = Auction(low if low is not None else 1, suits, _auction_calls(c, i, spec.get("calls") or {}))
        else:
            out.update(_compile_bid_decision(c, i, spec))
    return out


def _auction_calls(c: _Compiler, i: int, calls: dict[str, Any]) -> tuple[AuctionCall, ...]:
    """The named calls of the auction (item `i` of `decisions`), each `{bid: N, most: M}`."""
    out = []
    for name, spec in calls.items():
        where = ("decisions", i, "calls", name)
        if name == "pass":
            c.report(where, "W427", "a call may not be named `pass`: it is the auction's pass", key=True)
        elif isinstance(spec, dict):
            out.append(AuctionCall(str(name), spec.get("bid"), spec.get("most")))
        elif isinstance(spec, int) and not isinstance(spec, bool):
            c.report(
                where,
                "W207",
                "an auction's call is written `{bid: N, most: M}`, not as a number: the form of a `bid` decision's call",
                help=f"`{name}: {{bid: {spec}}}` leaves the auction with a bid of {spec}; `{name}: {{}}` is a call on the highest bid (a double)",
            )
    return tuple(out)


def _compile_bid_decision(c: _Compiler, i: int, spec: dict[str, Any]) -> dict[str, Any]:
    """The `bid` decision (item `i` of `decisions`): the Ruleset's fields of how bids are made."""
    out: dict[str, Any] = {}
    if spec.get("skip") is not None:
        out["skip"] = c.formula(("decisions", i, "skip"), "skip", Type.BOOL)
    calls = spec.get("calls") or {}
    for call in calls:
        if call in _NOT_CALLS:
            c.report(("decisions", i, "calls", call), "W427", f"a call may not be named `{call}`: it answers the choice to bid blind", key=True)
        if isinstance(calls[call], dict):
            c.report(
                ("decisions", i, "calls", call),
                "W207",
                "a `bid` decision's call is the number of tricks it counts as, not `{bid: N, most: M}`: the form of an auction's call",
                help=f"`{call}: 0`, or move it to the `name: auction` item",
            )
    out["calls"] = tuple((str(k), int(v)) for k, v in calls.items() if not isinstance(v, dict))
    out["blind_bids"] = spec.get("blind", "no") == "may"
    together = spec.get("together", False)
    out["bids_together"] = together is True or together in tuple(BidsTogether)
    if together == BidsTogether.ALL_BUT_LAST:
        out["bids_together_who"] = BidsTogether.ALL_BUT_LAST
    return out


def _compile_declare(c: _Compiler, i: int, spec: dict[str, Any]) -> Declare:
    """A `declare` decision: each choice's condition through the checker (context `declare`)."""
    choices = spec.get("choices") or {}
    if "no" in choices:
        c.report(("decisions", i, "choices", "no"), "W427", "a declaration may not be named `no`: it answers the choice to declare nothing", key=True)
    compiled = [(str(k), c.formula(("decisions", i, "choices", k), "declare", Type.BOOL)) for k in choices]
    return Declare(tuple((k, f) for k, f in compiled if f is not None))


def _a(word: str) -> str:
    """The article before a word: `an auction`, `a bid`."""
    return "an" if word[:1] in "aeiou" else "a"


def _check_roles(c: _Compiler, rules: Ruleset) -> None:
    """A fact of the dealer read where the dealer may sit out a hand (W311): no seat of `seats`
    is the dealer then."""
    if rules.sits_out is None:
        return
    sits_out = c.loaded.where(("dealer", "sits_out"))
    for path, where in c.dealer_reads:
        c.findings.append(
            where.finding(
                "W311",
                f"{dotted(path)} reads a fact of the dealer (`dealer.`), but the dealer may sit out a hand "
                f"(`dealer.sits_out`, {sits_out}): the dealer is then none of the seats that play",
            )
        )


def _not_suits_of_the_deck(names: tuple[str, ...], rules: Ruleset) -> str:
    """`hearts, stars, which are not suits of the deck (...)` for the names (besides `none`)
    that are not suits of the deck; "" when every one is."""
    strange = [o for o in names if o != "none" and o not in rules.suits]
    if not strange:
        return ""
    return f"{', '.join(strange)}, which {'is' if len(strange) == 1 else 'are'} not a suit of the deck ({', '.join(rules.suits)})"


def _check_decisions(c: _Compiler, rules: Ruleset) -> None:  # noqa: C901 one check per decision rule
    """What the decisions mean together with the rest of the ruleset (W423-W426)."""
    path = _decision_path(c, "trump")
    choice = rules.trump_choice
    if choice is not None:
        strange = _not_suits_of_the_deck(choice.options, rules)
        if strange:
            c.report_among([(*path, "options"), ("deck", "suits")], "W423", f"trump options name {strange}")
        if choice.who == "dealer" and rules.sits_out is not None:
            c.report_among(
                [(*path, "who"), ("dealer", "sits_out")],
                "W424",
                "`who: dealer` names trump, but the dealer may sit out a hand (`dealer.sits_out`): name a seat that plays (`first_bidder`)",
            )
    if choice is not None and choice.when is None and choice.who != "declarer":
        _trump_never_from_its_source(c, rules, (*path, "name"), "names trump in every hand (it has no `when`)")
    auction = rules.auction
    if auction is not None:
        apath = _decision_path(c, "auction")
        strange = _not_suits_of_the_deck(auction.suits, rules)
        if strange:
            c.report_among([(*apath, "suits"), ("deck", "suits")], "W436", f"auction suits name {strange}")
        if choice is not None and auction.suits and (choice.who == "declarer" or not choice.after_bidding):
            c.report_among(
                [(*path, "who"), (*apath, "suits")],
                "W433",
                "the auction's bids name trump (`suits`), so no seat names it again before the bidding: drop the `trump` decision, or the auction's `suits`",
            )
        if choice is not None and not auction.suits and choice.who != "declarer" and not choice.after_bidding:
            c.report(
                (*path, "who"),
                "W433",
                "with an auction of numbers only, the declarer names trump: write `who: declarer`",
            )
    bidding = [(f, p) for f, p in _bid_formulas(rules)]
    if choice is not None and choice.after_bidding:
        for f, p in bidding:
            if "trump" in f.names:
                c.report_among(
                    [p, path],
                    "W425",
                    "this limit reads `trump`, but trump is named after the bidding: the bidder cannot know it yet",
                )
    if rules.bids_together and rules.bids_together_who == BidsTogether.ALL:
        for f, p in bidding:
            seen = sorted(f.names & {"bids_so_far", "bids_made"})
            if seen:
                c.report_among(
                    [p, _decision_path(c, "bid") + ("together",)],
                    "W425",
                    f"this limit reads {' and '.join(f'`{n}`' for n in seen)}, but the bids are made together (hidden): "
                    "nobody sees the others' bids before bidding",
                )
    formulas = [(rules.points, ("scoring", "points")), (rules.bonus, ("scoring", "bonus"))]
    formulas += [(r.after_hand, ("running", r.name, "after_hand")) for r in rules.running] + bidding  # type: ignore[arg-type]  # the paths are 2 or 3 names long
    for f, p in formulas:  # type: ignore[assignment]  # the formulas that are None are skipped in the loop
        if f is None:
            continue
        auction_calls = rules.auction.calls if rules.auction is not None else ()
        if "call" in f.names and not rules.calls and not any(a.bid is not None for a in auction_calls):
            c.report(p, "W426", 'this formula reads `call`, but the ruleset has no named calls (`decisions`, `calls`): it is always ""')
        reads = f.names | {n for _, facts in f.seat_reads for n in facts}
        if "auction_call" in reads and not auction_calls:
            c.report(
                p, "W426", 'this formula reads `auction_call`, but the auction has no named calls (`decisions`, auction `calls`): it is always ""'
            )
        if "blind" in f.names and not rules.blind_bids:
            c.report(p, "W426", "this formula reads `blind`, but nobody may bid blind by choice (`decisions`, `blind: may`): it is always false")
    if rules.first_lead_choice is not None:
        formulas.append((rules.first_lead_choice.formula, ("play", "first_lead")))
    for f, p in formulas:  # type: ignore[assignment]  # the formulas that are None are skipped in the loop
        if f is None:
            continue
        reads = f.names | {n for _, facts in f.seat_reads for n in facts}
        for name in sorted(reads & {"is_declarer", "auction_bid"}):
            if auction is None:
                c.report(
                    p, "W434", f"this formula reads `{name}`, but the ruleset has no auction (`decisions`, `auction`): there is never a declarer"
                )
        if "excused" in reads and rules.skip is None:
            c.report(p, "W434", "this formula reads `excused`, but nobody is excused from bidding (`decisions`, `skip`): it is always false")
    if rules.skip is not None and rules.points is not None and "excused" not in rules.points.names:
        c.report_among(
            [("scoring", "points"), (*_decision_path(c, "bid"), "skip")],
            "W435",
            "a seat excused from bidding (`skip`) is scored as a bid of 0, made when it takes no trick: read `excused` in scoring.points to say how it scores",
            "warning",
        )


#: What each source of `trump.from` gives, in words.
_SOURCE_WORDS = {
    "turn_up": "the card turned after the deal",
    "before_deal": "a card turned before the deal",
    "dealer_last_card": "the dealer's last card",
    "random": "a suit drawn at random",
}


def _trump_never_from_its_source(c: _Compiler, rules: Ruleset, at: JsonPath, how: str) -> None:
    """W437 (a warning): the trump decision (at `at`) names trump in every hand (`how` says
    why), so what the trump rule turns or draws is never the trump the hand is played in. The
    declarer's choice is not one: when every seat passes in the auction, the trump rule stands."""
    sources = rules.trump_from or (("turn_up",) if rules.turn_up else ())
    if not sources:
        return  # a cycle: `cycle: [none]` is how a ruleset says "no trump until a seat names one"
    key = ("trump", "from") if c.get(("trump", "from")) is not None else ("trump", "turn_up")
    given = " or ".join(_SOURCE_WORDS.get(s, s) for s in dict.fromkeys(sources))
    c.report_among(
        [at, key],
        "W437",
        f"the `trump` decision {how}, so {given} is never the trump of a hand",
        "warning",
        help=f"write `cycle: [none]` in place of `{key[-1]}` under `trump:` (no trump until the seat names one), or say when the seat names trump (`when`)",
    )


def _bid_formulas(rules: Ruleset) -> list[tuple[Formula, JsonPath]]:
    out = [(rules.allowed, ("bidding", "allowed"))] if rules.allowed is not None else []
    return out + [(k.allowed, ("kinds", k.name, "allowed")) for k in rules.kinds.values() if k.allowed is not None]


def _decision_path(c: _Compiler, name: str) -> JsonPath:
    for i, spec in enumerate(c.get(("decisions",)) or ()):
        if isinstance(spec, dict) and spec.get("name") == name:
            return ("decisions", i)
    return ("decisions",)


def _seat_choice(c: _Compiler, path: JsonPath, context: str) -> SeatChoice | None:
    """`{highest: FORMULA}` or `{lowest: FORMULA}` at `path`, compiled in `context` (a number per seat)."""
    spec = c.get(path)
    if not isinstance(spec, dict) or len(spec) != 1:
        return None
    (way,) = spec
    if way not in ("highest", "lowest"):
        return None
    f = c.formula((*path, way), context, Type.NUMBER)
    return SeatChoice(way == "highest", f) if f is not None else None


# ---------------------------------------------------------------- meaning


def _check_meaning(c: _Compiler, rules: Ruleset, chosen: Mapping[str, Value] | None = None) -> Ruleset:
    """The meaning checks, for every combination of parameter values (only `chosen` for the
    parameters it names). Returns the ruleset with `chosen` set."""
    if rules.parameters:
        unread = [p for p in rules.parameters if p.name not in c.reads]
        for p in unread:
            c.report(
                ("parameters", p.name),
                "W209",
                f"parameter `{p.name}` is not read by any formula: setting it changes nothing",
                key=True,
                severity="warning",
            )
    _check_fixed(c, rules)
    if c.errors():
        if c.deal_untouched():
            check_deal(c, rules)  # an error in the decisions or the scoring hides nothing of the deal
        return rules
    tried, complete = parameter_cases(rules.parameters, chosen or {})
    budget = Budget()
    cases: FormulaCases | None = None
    bound = rules
    #: the code and the top key of each error of the values tried so far: with other values, an
    #: error of another code or in another part of the ruleset is independent and reported too,
    #: one of the same code in the same part is not (the first values that give it say it)
    reported: set[tuple[str, str]] = set()
    for values in tried:
        before, errors = len(c.findings), c.errors()
        at = _bound_at(c, rules, values)
        if at is not None:
            bound = at
            _check_players(c, bound)  # its answer counts the errors of the values tried before too
            if c.errors() == errors:
                cases = cases or FormulaCases(bound, c.report_among, budget)
                try:
                    _check_player_counts(c, bound, cases, budget)
                except OutOfCases:
                    c.report(
                        ("scoring", "points"),
                        "W407",
                        f"lint stopped trying cases after {MAX_CASES} evaluations; the cases left are not checked "
                        "(if one fails in a game, the game stops with a rule error)",
                        severity="warning",
                    )
                    complete = True  # nothing more is checked: no second warning
                    break
        if rules.parameters:
            words = _parameter_words(rules, values)
            new = [f for f in c.findings[before:] if f.severity == "warning" or (f.code, c.section_at(f)) not in reported]
            c.findings[before:] = [replace(f, message=f"{words}: {f.message}") for f in new]
            reported.update((f.code, c.section_at(f)) for f in new)
        if c.errors() and not rules.parameters:
            return bound
    if c.errors():
        return bound
    if not complete:
        counts = " x ".join(str(p.count()) for p in rules.parameters if p.name not in (chosen or {}))
        c.report(
            ("parameters",),
            "W407",
            f"the parameters have too many combinations of values to check each ({counts}; lint checks at most "
            f"{MAX_PARAMETER_CASES}): lint checked {len(tried)} of them, each parameter at its smallest and largest "
            "value and its default (set one with `whistdsl lint --set NAME=VALUE` to check that value)",
            key=True,
            severity="warning",
        )
    return rules.with_parameters(chosen or {}) if _binds(rules) else rules


def _parameter_words(rules: Ruleset, values: Mapping[str, Value]) -> str:
    """`when tricks = 9` (the parameters not at their default), or `with the defaults tricks = 7 and ...`."""
    changed = [(p.name, values[p.name]) for p in rules.parameters if values[p.name] != p.default]
    shown = " and ".join(f"{n} = {value_text(v)}" for n, v in (changed or values.items()))
    return f"when {shown}" if changed else f"with the defaults {shown}"


def parameter_cases(parameters: Sequence[Parameter], chosen: Mapping[str, Value]) -> tuple[list[dict[str, Value]], bool]:
    """The combinations of parameter values lint checks, the defaults first, and whether they
    are all of them. A parameter in `chosen` takes only that value."""
    default = {p.name: chosen.get(p.name, p.default) for p in parameters}
    free = [p for p in parameters if p.name not in chosen]
    total = 1
    for p in free:
        total *= p.count()
    if total <= MAX_PARAMETER_CASES:
        axes = [p.values() for p in free]
        complete = True
    else:
        axes = [p.edges() for p in free]
        complete = False
    combos: list[dict[str, Value]] = [default]
    for p, axis in zip(free, axes):  # first each parameter alone, the others at their defaults
        combos.extend({**default, p.name: v} for v in axis)
    edges = 1
    for axis in axes:
        edges *= len(axis)
    if edges <= MAX_PARAMETER_CASES:
        for values in itertools.product(*axes):
            combos.append({**default, **{p.name: v for p, v in zip(free, values)}})
    unique = {tuple(c.values()): c for c in reversed(combos)}
    ordered = list(dict.fromkeys(tuple(c.values()) for c in combos))
    return [unique[k] for k in ordered], complete


def _check_players(c: _Compiler, rules: Ruleset) -> bool:
    """The player range (for these parameter values) is a range of 2 to MAX_PLAYERS players."""
    players_min, players_max = ("players", "min"), ("players", "max")
    if not 2 <= rules.players_min <= MAX_PLAYERS:
        c.report(players_min, "W406", f"players.min gives {rules.players_min}: a table has 2 to {MAX_PLAYERS} players")
        return False
    if not 2 <= rules.players_max <= MAX_PLAYERS:
        c.report(players_max, "W406", f"players.max gives {rules.players_max}: a table has 2 to {MAX_PLAYERS} players")
        return False
    if rules.players_min > rules.players_max:
        c.report_among([players_min, players_max], "W406", f"players.min ({rules.players_min}) is above players.max ({rules.players_max})")
        return False
    if not rules.players_min <= rules.players_default <= rules.players_max:
        c.report_among(
            [("players", "default"), players_min, players_max],
            "W406",
            f"players.default ({rules.players_default}) is outside {rules.players_min}..{rules.players_max}",
        )
    if isinstance(rules.first_dealer, int) and rules.first_dealer >= rules.players_min:
        c.report_among(
            [("dealer", "first"), players_min],
            "W406",
            f"dealer.first is seat {rules.first_dealer}, but seats are numbered from 0 and there may be only {rules.players_min} players",
        )
    return not c.errors()


def _check_trump(c: _Compiler, rules: Ruleset) -> None:  # noqa: C901 one check per trump rule
    """Where trump comes from (language 2's `trump.from`, `turned`, `seen`): keys that do not go
    together (W210), a formula that reads what it cannot know (W428), a source never reached or
    one that can find nothing (W429), a `none_when` that reads the turned card to no effect (W430)."""
    trump = c.get(("trump",), {})
    if not isinstance(trump, dict):
        return
    sources = rules.trump_from or (("turn_up",) if trump.get("from") else ())
    if trump.get("from") is not None:
        for key in ("cycle", "turn_up"):
            if trump.get(key):
                c.report_among(
                    [("trump", key), ("trump", "from")],
                    "W210",
                    f"trump has both `from` and `{key}`: `from` says where trump comes from; "
                    + ("`from: turn_up` is `turn_up: true`, write one of them" if key == "turn_up" else "choose one"),
                )
    if "turned" in trump and "before_deal" not in sources:
        c.report_among(
            [("trump", "turned"), ("trump", "from")],
            "W210",
            "`turned` says what becomes of a card turned before the deal, but no card is turned before the deal: add `before_deal` to `trump.from`",
        )
    if "weights" in trump:
        _check_trump_weights(c, rules, trump["weights"], sources)
    if "random" in sources[:-1]:
        never = sources[sources.index("random") + 1 :]
        c.report(
            ("trump", "from"),
            "W429",
            f"`random` always gives {'a suit or no trump' if _drawn_none(rules) else 'a suit'}, so {', '.join(f'`{s}`' for s in never)} after it {'is' if len(never) == 1 else 'are'} never tried",
        )
    if sources and sources[-1] == "dealer_last_card" and rules.sits_out is not None and len(sources) == 1:
        c.report_among(
            [("trump", "from"), ("dealer", "sits_out")],
            "W429",
            "trump is the dealer's last card, but the dealer may sit out a hand (`dealer.sits_out`) and then holds no card: "
            "name a source for those hands after it (e.g. `from: [dealer_last_card, turn_up]`)",
        )
    turns_card = bool(rules.turn_up) or any(s != "random" for s in sources)
    none_when = rules.trump_none_when
    if none_when is not None:
        facts = sorted(none_when.names & {"turn_up_suit", "turn_up_rank", "turn_up_special"})
        if facts and c.data.get("whistdsl") == 1:
            c.report(
                ("trump", "none_when"),
                "W205",
                f"`none_when` reading the turned card ({', '.join(facts)}) is language version 2: write `whistdsl: 2` at the top of this file",
            )
        elif facts and not turns_card:
            c.report_among(
                [("trump", "none_when"), ("trump", "cycle") if rules.trump_cycle else ("trump", "from")],
                "W428",
                f"`none_when` reads {', '.join(f'`{f}`' for f in facts)}, but no card is turned for trump here "
                f"({'a cycle of suits' if rules.trump_cycle else 'a suit drawn at random'})",
            )
        elif facts:
            _check_none_when_over_the_deck(c, rules, none_when, facts)
    if rules.trump_seen == TrumpSeen.AFTER_BIDDING:
        why = "trump is shown only after the bidding (`trump.seen: after_bidding`): a bidder cannot know it"
        for f, p in _bid_formulas(rules):
            read = sorted(f.names & {"trump", "turn_up_suit", "turn_up_rank", "turn_up_special"})
            if read:
                c.report_among([p, ("trump", "seen")], "W428", f"this formula reads `{read[0]}`, but {why}")
        if rules.first_bidder_choice is not None and "trump" in rules.first_bidder_choice.formula.names:
            c.report_among(
                [_first_bidder_path(c), ("trump", "seen")], "W428", f"the first bidder is chosen by a formula that reads `trump`, but {why}"
            )
        choice = rules.trump_choice
        if choice is not None and not choice.after_bidding:
            c.report_among(
                [_decision_path(c, "trump"), ("trump", "seen")],
                "W429",
                "a seat names trump before the bidding, but trump is to be shown only after it (`trump.seen: after_bidding`): "
                "write the trump decision after the `bid` decision, or drop `seen`",
            )


def _check_trump_weights(c: _Compiler, rules: Ruleset, weights: object, sources: tuple[str, ...]) -> None:
    """`trump.weights`: beside a `random` source (W210), naming suits of the deck (W423), one
    outcome at least with a weight above 0 (W423: otherwise the draw has nothing to give). Names
    that are no suit at all and weights below 0 are the schema's (W200, W203)."""
    if "random" not in sources:
        c.report_among(
            [("trump", "weights"), ("trump", "from")],
            "W210",
            "`weights` says how likely each outcome of a random trump is, but no trump is drawn at random: add `random` to `trump.from`",
        )
        return
    if not isinstance(weights, dict):
        return
    for name in weights:
        strange = _not_suits_of_the_deck((name,), rules)
        if strange:
            c.report(("trump", "weights", name), "W423", f"trump weights name {strange}", key=True)
    if (
        weights
        and all(isinstance(w, int) and not isinstance(w, bool) and w >= 0 for w in weights.values())
        and not any(w for _, w in rules.trump_weights)
    ):
        c.report(
            ("trump", "weights"),
            "W423",
            "every outcome of the random trump weighs 0, so the draw has nothing to give",
            help="give one outcome at least a weight above 0, e.g. `{spades: 1, hearts: 1, diamonds: 1, clubs: 1, none: 2}`",
        )


def _drawn_none(rules: Ruleset) -> bool:
    """Whether a random trump may be no trump (`trump.weights` gives `none` a weight)."""
    return dict(rules.trump_weights).get("none", 0) > 0


def _check_trump_specials(c: _Compiler, rules: Ruleset) -> None:
    """Special cards that are trumps (`trump.specials`): each a special of the deck (W420); what
    they are in a hand without trump said when a hand can have none (W431); no other rule giving
    them a power of their own (W431)."""
    trump = c.get(("trump",), {})
    if "specials_without_trump" in trump and not rules.trump_specials:
        c.report(
            ("trump", "specials_without_trump"),
            "W210",
            "`specials_without_trump` says what the trump specials are without trump, but `trump.specials` names none",
            key=True,
        )
    if not rules.trump_specials:
        return
    names = [s.name for s in rules.specials]
    for i, name in enumerate(rules.trump_specials):
        if name not in names:
            help = did_you_mean(name, names)
            listed = "" if help else (f" ({', '.join(names)})" if names else ": the deck has no `deck.specials`")
            c.report_among(
                [("trump", "specials", i), ("deck", "specials")],
                "W420",
                f"trump.specials names `{name}`, which is not a special card of the deck{listed}",
                help=help,
            )
    if not rules.trump_specials_without and _can_have_no_trump(rules):
        c.report(
            ("trump", "specials"),
            "W431",
            f"{', '.join(rules.trump_specials)} {'is a trump' if len(rules.trump_specials) == 1 else 'are trumps'}, but a hand can have no trump "
            f"here: say what {'it is' if len(rules.trump_specials) == 1 else 'they are'} then (`specials_without_trump: highest` or `lowest`)",
        )
    for i, r in enumerate(rules.trick_winner):
        if r.among in rules.trump_specials:
            c.report_among(
                [("trick", "winner", i), ("trump", "specials")],
                "W431",
                f"`{r.text}` gives {r.among} a power of its own, but it is a trump (`trump.specials`): its place there is its power",
            )
    for name in rules.always_playable:
        if name in rules.trump_specials:
            c.report_among(
                [("play", "always_playable"), ("trump", "specials")],
                "W431",
                f"{name} is a trump (`trump.specials`), which follows as a trump, and may also be played at any time (`play.always_playable`): choose one",
            )


def _check_wild_cards(c: _Compiler, rules: Ruleset) -> None:
    """Wild cards (`deck.specials.<name>.wild`): at most MAX_WILD_KINDS kinds (W460); a wild card
    is played as a card of the suit declared, so no rule for special cards applies to it (W461)."""
    wild = rules.wild_cards
    if not wild:
        return
    for s in wild[MAX_WILD_KINDS:]:
        c.report(
            ("deck", "specials", s.name, "wild"),
            "W460",
            f"{s.name} is a kind of wild card beyond the first {MAX_WILD_KINDS} ({', '.join(w.name for w in wild[:MAX_WILD_KINDS])}): "
            f"a played wild card is a card above the ace, and only {MAX_WILD_KINDS} places are free there",
            help=f"give {s.name} the count of a wild card already listed, or drop its `wild`",
        )
    names = {s.name for s in wild}
    uses: list[tuple[JsonPath, str, str]] = []
    for i, name in enumerate(rules.always_playable):
        uses.append((("play", "always_playable", i), name, "play.always_playable"))
    for name, _ in rules.special_led:
        uses.append((("play", "special_led", name), name, "play.special_led"))
    for i, r in enumerate(rules.trick_winner):
        uses.append((("trick", "winner", i), r.among, "trick.winner"))
    for i, name in enumerate(rules.trump_specials):
        uses.append((("trump", "specials", i), name, "trump.specials"))
    for path, name, where in uses:
        if name in names:
            c.report_among(
                [path, ("deck", "specials", name, "wild")],
                "W461",
                f"{name} is a wild card: it is played as a card of the suit its holder declares, so `{where}` never applies to it",
                help=f"drop {name} from `{where}`; a played wild card follows, wins and leads as the top card of its suit",
            )


def _check_super_trumps(c: _Compiler, rules: Ruleset) -> None:
    """Super trumps (`trump.super_trumps`): a turned card to rank them by (W455); a suit order
    that names every suit of the deck and no other (W456)."""
    st = rules.super_trumps
    if st is None:
        return
    sources = rules.trump_from or (("turn_up",) if rules.turn_up else ())
    if not any(s != "random" for s in sources):
        how = "trump is a cycle of suits" if rules.trump_cycle else "trump comes from a random draw only" if sources else "trump turns no card"
        c.report(
            ("trump", "super_trumps"),
            "W455",
            f"super trumps are ranked by the turned card, but {how}: no card is ever turned",
            help="turn a card (`from: [turn_up]`, `before_deal` or `dealer_last_card`), or drop `super_trumps`",
        )
    if "order" not in (c.get(("trump", "super_trumps")) or {}):
        return
    for i, suit in enumerate(st.order):
        if suit not in rules.suits:
            c.report_among(
                [("trump", "super_trumps", "order", i), ("deck", "suits")],
                "W456",
                f"super_trumps.order names {suit}, which is not a suit of the deck ({', '.join(rules.suits)})",
            )
    missing = [s for s in rules.suits if s not in st.order]
    if missing:
        c.report(
            ("trump", "super_trumps", "order"),
            "W456",
            f"super_trumps.order leaves out {', '.join(missing)}: it ranks the super trumps of every suit of the deck",
            help=f"add {', '.join(missing)} where it ranks, e.g. `order: [{', '.join([*st.order, *missing])}]`",
        )


def _can_have_no_trump(rules: Ruleset) -> bool:
    """Whether some hand may be played without trump (lint's conservative answer)."""
    if rules.trump_none_when is not None:
        return True
    if rules.trump_cycle:
        return "none" in rules.trump_cycle
    if rules.trump_from and rules.trump_from[0] == "random":
        return _drawn_none(rules)
    return True  # a turned card may be a special, or none may be left


def _first_bidder_path(c: _Compiler) -> JsonPath:
    first = c.get(("bidding", "first"), {})
    return ("bidding", "first", "highest" if isinstance(first, dict) and "highest" in first else "lowest")


def _check_none_when_over_the_deck(c: _Compiler, rules: Ruleset, none_when: Formula, facts: list[str]) -> None:
    """`none_when` that reads the turned card is evaluated for every card the deck can turn (each
    rank of each suit, each special): a failure is W305 with the card; the same answer for every
    card is W430 (e.g. `turn_up_rank == "10"`: ranks are written A K Q J T 9 ... 2)."""
    answers = set()
    players = rules.players_default
    try:
        setup = hand_setup(rules, players, PlannedHand(1, 1, NORMAL), 1)
    except (EvalError, LetError, KeyError):
        return
    for words, facts_env in turned_card_envs(rules, players):
        env = dict(setup.env, trump=rules.suits[0], **facts_env)
        try:
            answers.add(bool(none_when(env)))
        except EvalError as e:
            c.report(("trump", "none_when"), "W305", f"when the card turned is {words}: {e}")
            return
    if len(answers) == 1:
        always = answers.pop()
        c.report(
            ("trump", "none_when"),
            "W430",
            f"`none_when` reads {', '.join(f'`{f}`' for f in facts)}, but gives {'true' if always else 'false'} for every card the deck can turn "
            f"(ranks are written {' '.join(rules.deck_ranks(players))}; suits {', '.join(rules.suits)}"
            + (f"; specials {', '.join(s.name for s in rules.specials)}" if rules.specials else "")
            + ")",
            severity="warning",
        )


def _check_fixed(c: _Compiler, rules: Ruleset) -> None:
    """The meaning checks that no parameter changes: the deck, trump, the kinds named."""
    twice = sorted({r for r in rules.ranks if rules.ranks.count(r) > 1}, key=rules.ranks.index)
    if twice:
        c.report(
            ("deck", "ranks"),
            "W406",
            f"deck.ranks names {', '.join(twice)} more than once (10 and T are one rank): the same card would be dealt twice",
        )

    _check_cards(c, rules)

    if rules.points is None:
        c.report(
            ("scoring",),
            "W201",
            "a ruleset needs `scoring.points`, the formula of each player's points for a hand",
            key=True,
            help=key_help(("scoring", "points")),
        )
    if c.get(("schedule",)) is None:
        c.report(("schedule",), "W201", "a ruleset needs a `schedule`: the hand sizes of the game, in order", key=True, help=_SCHEDULE_HELP)
    trump = c.get(("trump",), {})
    if not trump.get("cycle") and not trump.get("turn_up") and not trump.get("from"):
        need = "trump needs" if "trump" in c.data else "a ruleset needs `trump`:"
        c.report(("trump",), "W201", f"{need} a `cycle` of suits, `turn_up: true` or (version 2) `from`", key=True, help=_trump_help(rules))
    elif trump.get("cycle") and trump.get("turn_up"):
        c.report_among([("trump", "turn_up"), ("trump", "cycle")], "W406", "trump has both a `cycle` and `turn_up: true`: choose one")
    _check_trump(c, rules)
    _check_trump_specials(c, rules)
    _check_super_trumps(c, rules)
    _check_wild_cards(c, rules)
    for i, suit in enumerate(rules.trump_cycle or ()):
        if suit != "none" and suit not in rules.suits:
            c.report_among(
                [("trump", "cycle", i), ("deck", "suits")],
                "W405",
                f"trump cycle names {suit}, which is not a suit of the deck ({', '.join(rules.suits)})",
            )

    for i, entry in enumerate(c.get(("schedule",), [])):
        if isinstance(entry, dict) and entry.get("kind", NORMAL) not in rules.kinds:
            c.report_among([("schedule", i, "kind"), ("kinds", entry["kind"])], "W405", _unknown_kind(entry["kind"], rules))
    if rules.tiebreak is not None and rules.tiebreak.kind not in rules.kinds:
        c.report_among([("tiebreak", "kind"), ("kinds", rules.tiebreak.kind)], "W405", _unknown_kind(rules.tiebreak.kind, rules))
    _check_decisions(c, rules)
    _check_roles(c, rules)


_SCHEDULE_HELP = (
    "add e.g. `schedule: [7 .. 1]` (hands of 7, 6, ..., 1 cards); an entry is a hand size, "
    "a run of them (`13 .. 2`) or `repeat(1, players)` (as many 1-card hands as players)"
)


def _trump_help(rules: Ruleset) -> str:
    """What to write for a ruleset that does not say where trump comes from."""
    return (
        "write `cycle: [none]` under `trump:` for a game without trump, "
        f"`cycle: [{', '.join(rules.suits)}, none]` for each suit in turn and then a hand without, "
        "or `turn_up: true` for the card turned after the deal"
    )


def _check_player_counts(c: _Compiler, rules: Ruleset, cases: FormulaCases, budget: Budget) -> None:
    """Every allowed player count, until one has findings (one count's findings are enough to read).
    A count at which a parameter's value is outside its range (a formula of `players`) is no table
    anyone can set up: skipped, except with the defaults, where it is W313."""
    defaults = all(rules.parameter_values[p.name] == p.default for p in rules.parameters)
    for players in range(rules.players_min, rules.players_max + 1):
        problem = rules.table_problem(players) if any(p.ranged for p in rules.parameters) else None
        if problem is not None:
            if defaults:
                ranged = next(p for p in rules.parameters if p.ranged and p.name in problem)
                c.report(
                    ("parameters", ranged.name, "default"),
                    "W313",
                    f"{rules.players_min} to {rules.players_max} players may play, but a table of {players} cannot start "
                    f"with the defaults: {problem} (narrow players.min/max, or the default)",
                )
                return
            continue
        before = c.errors()
        _check_player_count(c, rules, players, cases, budget)
        if c.errors() > before:
            return


_WINNER_RULE = re.compile(r"^\s*(first|last|highest|lowest)\s+([a-z_][a-z0-9_]*)\s*\Z")
_WINNER_START = re.compile(r"^\s*(first|last|highest|lowest)\s+[a-z_]")  # the schema's pattern
#: the sets of cards a `trick.winner` rule may look at, besides the deck's specials
WINNER_SETS = ("trump", "led", "suited")


def _check_cards(c: _Compiler, rules: Ruleset) -> None:  # noqa: C901 one check per card rule
    """The deck's special cards and the trick rules: every name a special of the deck, marks that
    cannot be mistaken for cards or for each other, and a winner for every trick."""
    names = [s.name for s in rules.specials]
    marks: dict[str, str] = {}
    for s in rules.specials:
        path = ("deck", "specials", s.name)
        if s.name in WINNER_SETS or s.name in SUITS or s.name == "none":
            c.report(path, "W422", f"a special card may not be called `{s.name}`: trick.winner reads that word as a set of cards", key=True)
        if suited_card_text(s.mark) is not None:
            c.report(
                path + ("mark",),
                "W422",
                f"the mark {s.mark} of {s.name} reads as a card of a suit: choose another (e.g. {s.name[0].upper()}{s.name[1:2].upper()}X)",
            )
        elif s.mark.lower() in marks or s.mark.lower() in (n.lower() for n in names if n != s.name):
            other = marks.get(s.mark.lower(), s.mark.lower())
            c.report(path + ("mark",), "W422", f"the mark {s.mark} of {s.name} is also {other}'s: a player could not say which card is meant")
        elif s.mark.upper() in rules.ranks:
            c.report_among(
                [path + ("mark",), ("deck", "ranks")],
                "W438",
                f"the mark {s.mark} of {s.name} is also the letter of a rank of the deck: a player who types {s.mark} "
                f"at the table could mean the {s.name} or any card of rank {s.mark.upper()}",
                "warning",
                help=f"choose a mark that is not a rank's letter, e.g. `mark: {_free_mark(s.name, rules)}`",
            )
        marks.setdefault(s.mark.lower(), s.name)

    def unknown(path: JsonPath, name: str, what: str, allowed: Sequence[str]) -> None:
        known = f" (the deck's specials: {', '.join(names)})" if names else " (the deck has no `deck.specials`)"
        c.report_among(
            [path, ("deck", "specials")],
            "W420",
            f"{what} names `{name}`, which is not a special card of the deck{known}",
            help=did_you_mean(name, allowed),
        )

    for i, name in enumerate(rules.always_playable):
        if name not in names:
            unknown(("play", "always_playable", i), name, "play.always_playable", names)
    for name, _ in rules.special_led:
        if name not in names:
            unknown(("play", "special_led", name), name, "play.special_led", names)
    for i, rule in enumerate(rules.trick_winner):
        if rule.among not in names and rule.among not in WINNER_SETS:
            unknown(("trick", "winner", i), rule.among, f"trick.winner rule `{rule.text}`", [*names, *WINNER_SETS])
    if c.errors():
        return
    gap = trick_without_winner(rules, rules.players_max)
    if gap is not None:
        path = ("trick", "winner") if c.get(("trick", "winner")) is not None else ("deck", "specials")  # type: ignore[assignment]  # the paths are 2 or 3 names long
        rules_text = ", ".join(r.text for r in rules.trick_winner)
        c.report_among(
            [path, ("deck", "specials")],
            "W419",
            f"a trick can be left without a winner: no rule of [{rules_text}] picks a card of a trick of {gap}; "
            "end trick.winner with a rule that picks a card of any trick (e.g. `first " + (names[-1] if names else "suited") + "`)",
        )
    if c.get(("trick", "identical")) is None and rules.copies is not None:
        most = max((_copies_or_1(rules, n) for n in range(rules.players_min, rules.players_max + 1)), default=1)
        if most > 1:
            c.report(
                ("deck", "copies"),
                "W421",
                f"with {most} copies of the deck two identical cards can meet in a trick: say which wins with "
                "`trick.identical: earlier` (the first played, the default) or `later`",
                severity="warning",
            )


def _free_mark(name: str, rules: Ruleset) -> str:
    """A mark to suggest for the special card `name`: its first two letters (`JE`), or else
    with an X, that is neither a rank's letter, nor read as a card, nor another special's mark."""
    taken = {s.mark.upper() for s in rules.specials} | set(rules.ranks)
    letters = "".join(ch for ch in name if ch.isalnum()).upper().lstrip("0123456789")  # a mark starts with a letter
    for mark in (letters[:2], letters[:1] + "X", letters[:1] + "XX"):
        if mark not in taken and suited_card_text(mark) is None:
            return mark
    return "X"


def _deck_words(rules: Ruleset, players: int) -> str:
    """` (2 packs of 52 and 8 special cards)`, for a deck that is not one pack of suited cards."""
    copies = rules.deck_copies(players)
    special = sum(s.count for s in rules.specials)
    if copies == 1 and not special:
        return ""
    suited = len(rules.suits) * len(rules.deck_ranks(players))
    pack = f"{suited} cards and {special} special card{'s' if special != 1 else ''}" if special else f"{suited} cards"
    return f" ({copies} packs of {pack})" if copies > 1 else f" ({pack})"


def _copies_or_1(rules: Ruleset, players: int) -> int:
    try:
        return rules.deck_copies(players)
    except EvalError:
        return 1  # reported with the deck, for that player count


def trick_without_winner(rules: Ruleset, players: int) -> str | None:
    """A trick that no `trick.winner` rule can pick a card of, in words; None when every trick
    has a winner. Enumerates the kinds of cards a trick can hold (each special, a card of the
    suit to follow, a trump, a card of another suit) and which kind leads, not the cards."""
    led_how = dict(rules.special_led)
    # special cards that are trumps (`trump.specials`) play as trumps, or, without trump, always
    # decide the trick they are in (highest or lowest): they leave no trick without a winner;
    # wild cards are played as cards of a suit
    kinds = [s.name for s in rules.specials if s.name not in rules.trump_specials and not s.wild] + ["led", "trump", "other"]
    # a trick holds at most `players` cards of at most `players` kinds; a special at most `count * copies`
    for size in range(1, min(len(kinds), players) + 1):
        for held in itertools.combinations(kinds, size):
            for trump_exists in (True, False):
                if "trump" in held and not trump_exists:
                    continue
                for lead in held:
                    if not _possible(held, lead, led_how):
                        continue
                    if not any(_picks(rule, held, lead, led_how, trump_exists) for rule in rules.trick_winner):
                        return _trick_words(held, lead, trump_exists)
    return None


def _possible(held: tuple[str, ...], lead: str, led_how: dict[str, str]) -> bool:
    """Whether a trick can hold these kinds led by `lead`: a card of the suit to follow needs a
    suit to follow (a suited card leads it, or `pass` specials before one do); `other` and
    `trump` besides `led` need a suit to follow that is not theirs."""
    suited = [k for k in held if k in ("led", "trump", "other")]
    if not suited:
        return True
    if lead in ("trump", "other"):
        return False  # the card that leads is of the suit to follow: call it `led`
    if lead == "led":
        return True
    if led_how.get(lead, "free") == "pass":
        return "led" in held  # the first suited card sets the suit (`pass` specials only before it)
    return "led" not in held  # a `free` special leads: nothing to follow


def _picks(rule, held: tuple[str, ...], lead: str, led_how: dict[str, str], trump_exists: bool) -> bool:
    among = rule.among
    if among == "suited":
        return any(k in held for k in ("led", "trump", "other"))
    if among == "trump":
        return trump_exists and "trump" in held
    if among == "led":
        return "led" in held
    return among in held


def _trick_words(held: tuple[str, ...], lead: str, trump_exists: bool) -> str:
    """`a wizard and a jester, a jester led, no trump`."""
    words = {"led": "a card of the suit to follow", "trump": "a trump", "other": "a card of another suit"}
    text = " and ".join(words.get(k, f"a {k}") for k in held)
    text += ", " + ("that card" if lead == "led" else f"the {lead}") + " led"
    return text + ("" if trump_exists else ", no trump")


def _unknown_kind(name: str, rules: Ruleset) -> str:
    return f"hand kind `{name}` is not defined under `kinds` (known: {', '.join(rules.kinds)})"


def _check_player_count(c: _Compiler, rules: Ruleset, players: int, cases: FormulaCases, budget: Budget, deal_only: bool = False) -> None:  # noqa: C901 one check per rule that depends on the table size
    """The meaning checks at one player count; `deal_only`: only those of the deal (the deck,
    the schedule, who plays), which read no formula of the bidding, play or scoring."""
    with_n = f"with {players} players"
    try:
        deck = rules.deck_count(players)
    except EvalError as e:
        where = ("deck", "copies") if str(e).startswith("deck.copies") else ("deck", "size")
        c.report_among([where, players_path(rules, players)], "W406", str(e))
        return
    try:
        lets = rules.let_values(players)
    except LetError as e:
        c.report(("let", e.name), "W305", f"{with_n}: {e}")
        return
    for r in rules.running:
        try:
            r.start(running_start_env(players, lets))
        except EvalError as e:
            c.report(("running", r.name, "start"), "W305", f"{with_n}: {e}")
            return
    if rules.end is not None:
        try:
            rules.end_cap(players)
        except EvalError as e:
            counted = bool(rules.end.hands.names & {"players", "deck_size", *(n for n, _ in rules.lets)})
            c.report_among([("end", "hands")] + ([players_path(rules, players)] if counted else []), "W416", f"{with_n}: {e}")
            return
    try:
        plan = rules.schedule_entries(players)
    except ScheduleError as e:
        entry = rules.schedule[e.entry].cards if e.entry < len(rules.schedule) else None
        counted = entry is not None and bool(entry.names & {"players", "deck_size", *(n for n, _ in rules.lets)})
        c.report_among([_entry_path(c, e.entry)] + ([players_path(rules, players)] if counted else []), "W403", f"{with_n}: {e}")
        return
    if not plan:
        c.report(("schedule",), "W403", f"{with_n} the schedule has no hands")
        return
    hands: list[tuple[PlannedHand, JsonPath, bool]] = [(h, _entry_path(c, i), False) for h, i in plan]
    try:
        extra_hands, extra_cards = rules.tiebreak_plan(players)
    except EvalError as e:
        c.report_among([("tiebreak", "hands"), ("schedule",)], "W403", f"{with_n}: {e}")
        return
    for k in range(extra_hands):
        hands.append((PlannedHand(len(plan) + k + 1, extra_cards, rules.tiebreak.kind), ("tiebreak", "cards"), True))  # type: ignore[union-attr]  # extra hands come only with a tie-break

    setups: list[tuple[HandSetup, JsonPath]] = []
    for hand, path, extra in hands:
        try:
            setup = hand_setup(rules, players, hand, len(plan), extra)
            if rules.trump_none_when is not None:
                rules.trump_none_when(none_when_env(rules, setup))
        except EvalError as e:
            c.report_among(
                [("dealer", "sits_out") if rules.sits_out else ("trump", "none_when"), path],
                "W305",
                f"{with_n}, hand {hand.number}: {e}",
            )
            return
        if setup.playing < 2:
            c.report_among(
                [("dealer", "sits_out"), players_path(rules, players)],
                "W406",
                f"{with_n}, the dealer sits out hand {hand.number} and only {setup.playing} player is left to play it: "
                "a hand needs at least 2 players",
            )
            return
        if setup.cards_left < 0:
            c.report_among(
                [path, players_path(rules, players), ("deck", "size") if rules.deck_size else ("deck", "ranks")]
                + ([("deck", "copies")] if rules.copies is not None else [])
                + ([("dealer", "sits_out")] if rules.sits_out is not None else []),
                "W402",
                f"{with_n}, hand {hand.number} deals {hand.size} cards to each of {setup.playing} players: "
                f"{hand.size * setup.playing} cards, but the deck has {deck}{_deck_words(rules, players)}",
            )
            return
        setups.append((setup, path))
    if deal_only:
        return

    start: dict[str, Number] = {"total": 0, **start_running(rules, players)}
    for setup, path in setups:
        cases.hand(players, setup, path, start)
    cases.end_of_game(players, lets, start)
    if cases.errors:
        return
    _check_bids(c, rules, players, setups, start, budget, cases)
    _check_decision_when(c, rules, players, setups, budget)
    _check_redeal(c, rules, players, setups, start, budget)
    if cases.needs_probe(len(setups)):
        cases.probe(players, setups, lets, start)
    cases.end_probe(players, setups, start)


def players_path(rules: Ruleset, players: int) -> JsonPath:
    """The key that allows this player count: players.max for the largest, else players.min."""
    return ("players", "max") if players == rules.players_max else ("players", "min")


def _entry_path(c: _Compiler, i: int) -> JsonPath:
    return ("schedule", i, "cards") if isinstance(c.get(("schedule", i)), dict) else ("schedule", i)


def _check_decision_when(c: _Compiler, rules: Ruleset, players: int, setups: Sequence[tuple[HandSetup, JsonPath]], budget: Budget) -> None:
    """`decisions.when` of the trump decision, over every hand and every trump and turned card
    it can have (rules/domain.py): a case it cannot be evaluated in is W305, naming the case."""
    auction = rules.auction
    if auction is not None and isinstance(auction.min, Formula):
        low_path = (*_decision_path(c, "auction"), "min")
        for setup, entry in setups:
            try:
                low = auction.min(setup.env)
            except EvalError as e:
                c.report_among([low_path, entry], "W305", f"{hand_words(players, setup)}: {e}")
                break
            if low < 1:  # type: ignore[operator]  # the checker typed the auction's lowest bid a number
                c.report_among(
                    [low_path, entry], "W432", f"{hand_words(players, setup)}, the auction's lowest bid is {low}: a bid is at least 1 trick"
                )
                break
        else:
            if setups and all(auction.min(setup.env) > setup.plan.size for setup, _ in setups):  # type: ignore[operator]  # the checker typed the auction's lowest bid a number
                c.report(
                    low_path, "W432", f"with {players} players the auction's lowest bid is above the hand size in every hand: nobody can ever bid"
                )
    choice = rules.trump_choice
    if choice is None or choice.when is None:
        return
    path = (*_decision_path(c, "trump"), "when")
    seen: set[tuple] = set()
    answers: set[bool] = set()
    for setup, entry in setups:
        key = tuple(setup.env.get(n) for n in sorted(choice.when.names))
        if key in seen:
            continue
        seen.add(key)
        failure = decision_when_failure(rules, choice.when, setup, players, budget, answers)
        if failure is not None:
            c.report_among([path, entry], "W305", failure)
            return
    if answers == {True} and choice.who != "declarer":
        _trump_never_from_its_source(c, rules, path, f"names trump in every hand with {players} players (its `when` holds for every hand and card)")


#: How many deals lint shuffles for each hand and trump to try `redeal.when` on.
REDEAL_TRIES = 24


def _check_redeal(
    c: _Compiler, rules: Ruleset, players: int, setups: Sequence[tuple[HandSetup, JsonPath]], start: dict[str, Number], budget: Budget
) -> None:
    """`redeal.when` over deals lint shuffles (REDEAL_TRIES for each hand and each trump it can
    have, from a fixed seed, the deck's suits and ranks): a deal it cannot be evaluated on is
    W305; a hand it holds for every deal tried is W446 (a warning: such a hand is dealt again
    `limit` times, then played as dealt)."""
    redeal = rules.redeal
    if redeal is None or redeal.when is None:
        return
    path: JsonPath = ("redeal", "when")
    suits = [s for s in rules.suits if s in SUITS]
    pack = [(suit, rank) for suit in suits for rank in rules.ranks]
    seen: set[tuple] = set()
    running = {k: v for k, v in start.items() if k != "total"}
    for setup, entry in setups:
        size, playing = setup.plan.size, setup.playing
        for words, case in turned_cards(rules, setup, players):
            trump = str(case["trump"])
            key = (size, playing, trump, *(setup.env.get(n) for n in sorted(redeal.when.names)))
            if key in seen or size * playing > len(pack):
                continue
            seen.add(key)
            env = dict(setup.env, trump=trump)
            shuffle = random.Random(f"{size} {playing} {trump}").shuffle
            held_every_time = True
            for _ in range(REDEAL_TRIES):
                deck = list(pack)
                shuffle(deck)
                rows = []
                for k in range(playing):
                    cards = deck[k * size : (k + 1) * size]
                    row = seat_env({}, total=start.get("total", 0), is_dealer=k == playing - 1, position=k + 1, running=running)
                    counts = [sum(1 for s, _ in cards if s == suit) for suit in suits]
                    rows.append(dealt_facts(row, counts, sum(1 for s, _ in cards if s == trump)))
                budget.spend(1)
                try:
                    holds = bool(redeal.when(redeal_env(env, tuple(rows))))
                except EvalError as e:
                    c.report_among([path, entry], "W305", f"{hand_words(players, setup)}, {words}, a deal lint shuffled: {e}")
                    return
                held_every_time = held_every_time and holds
            if held_every_time:
                c.report_among(
                    [path, entry],
                    "W446",
                    f"{hand_words(players, setup)}, {words}: `redeal.when` held of each of the {REDEAL_TRIES} deals lint shuffled; "
                    f"such a hand is dealt again {redeal.limit} times, then played as dealt",
                    help="say when it is not dealt again, e.g. `trump != none and any(seats, trumps == 0)`",
                    severity="warning",
                )
                return


def _check_bids(
    c: _Compiler,
    rules: Ruleset,
    players: int,
    setups: Sequence[tuple[HandSetup, JsonPath]],
    start: dict[str, Number],
    budget: Budget,
    cases: FormulaCases,
) -> None:
    """No player may ever be left without a legal bid, whatever legal bids came before.

    Limits that read only what lint can enumerate are tried in every case: a failure is an
    error. Limits that read running values or totals are tried at their start values in the
    first hand (an error: every game plays it so), and at a spread of values in every hand
    (a warning, W407: the game may never get there; if it does, it stops with a rule error).
    """
    unknown = frozenset({"total", *rules.running_names})
    seen: set[tuple[Any, ...]] = set()
    limits_read = set().union(*(f.names for f, _ in _bid_formulas(rules))) if rules.auction is not None else set()
    if "auction_bid" in limits_read:
        # every winning bid the auction can end with, after no declarer (0); the declarer's own
        # bid is made for it, the others' limits are asked
        setups = [
            (replace(setup, env=dict(setup.env, auction_bid=won)), entry) for setup, entry in setups for won in [0, *auction_bids(rules, setup)]
        ]
    for setup, entry in setups:
        kind = rules.kinds[setup.plan.kind]
        tests = [(f, ("bidding", "allowed")) for f in (rules.allowed,) if f is not None]
        if kind.allowed is not None:
            tests.append((kind.allowed, ("kinds", kind.name, "allowed")))  # type: ignore[arg-type]  # the paths are 2 or 3 names long
        if not tests:
            continue
        limits = BidTests(tests)
        used = limits.reads
        reads_unknown = used & unknown
        first = setup.plan.number == 1 and not setup.extra
        key = (setup.plan.size, setup.plan.kind, setup.playing, setup.extra, setup.dealer_sits_out, setup.env.get("auction_bid")) + (
            (setup.plan.number,) if "hand_number" in used else ()
        )
        paths = [tests[-1][1]] + [p for _, p in tests[:-1]] + ([entry] if kind.name != NORMAL else [])
        hand = f"with {players} players, in hand {setup.plan.number} ({setup.plan.size} card{'s' if setup.plan.size > 1 else ''})"
        if "auction_bid" in setup.env:
            won = setup.env["auction_bid"]
            hand += f", the auction won with {won}" if won else ", when every seat passed in the auction"
        phases: list[tuple[str, list[dict[str, Number]]]] = []
        if not reads_unknown or first:
            phases.append(("error", [start]))
        if reads_unknown and not cases.bids_warned and not first:
            phases.append(("warning", samples(reads_unknown, start)))
        for severity, tries in phases:
            done = (key, severity, first and bool(reads_unknown))
            if done in seen:
                continue
            seen.add(done)
            for values in tries:
                shown = f", {when(values, reads_unknown)}" if reads_unknown else ""  # type: ignore[arg-type]  # when() only reads the values: numbers are Values
                try:
                    failure = no_legal_bid(rules, setup, limits, values, budget)
                except BidCheckError as e:
                    code = "W305" if severity == "error" else "W407"
                    c.report_among([e.path] + paths, code, f"{hand}, {e.case}{shown}: {e.error}", severity)
                    failure = None
                    if severity == "error":
                        return
                    cases.bids_warned = True
                    break
                if failure is None:
                    continue
                if severity == "error":
                    c.report_among(paths, "W404", f"{hand}, {failure}{shown}")
                    return
                c.report_among(
                    paths,
                    "W407",
                    f"{hand}, {failure}{shown} (lint cannot know these values; if a game reaches them, it stops with a rule error)",
                    "warning",
                )
                cases.bids_warned = True
                break


def _place_shown(place: Position) -> str:
    """A place in another file of the `extends` chain, as a message names it: a bundled ruleset by
    its name (`the bundled oh-hell:17:5`), the same wherever whistdsl is installed; else as it is."""
    import os

    from ..resources import data_dir

    bundled = os.path.realpath(data_dir("rulesets"))
    real = os.path.realpath(place.path)
    if real.startswith(bundled + os.sep):
        name = os.path.relpath(real, bundled).removesuffix(".yaml").replace(os.sep, "/")
        return f"the bundled {name}:{place.line}:{place.column}"
    return str(place)
