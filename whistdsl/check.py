"""Check and compile: validated ruleset data -> a frozen `Ruleset`, or findings that say why not.

First every formula is parsed, type-checked against its context and compiled (findings point
into the YAML text, at the spot inside the formula). Then the ruleset's meaning is checked for
every allowed player count: the deck holds every hand, the schedule is finite and non-empty,
trump cycles name suits of the deck, named kinds exist, and no player is ever left without a
legal bid.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Iterable

from .catalogue import CONSTANTS, CONTEXTS, FUNCTIONS, SUITS, Type
from .expression import KEYWORDS, EvalError, ExprError, Formula, formula
from .findings import Finding
from .load import JsonPath, Loaded, dotted
from .scoring import start_running
from .ruleset import (
    CLOCKWISE,
    COUNTERCLOCKWISE,
    NORMAL,
    STANDARD_RANKS,
    HandKind,
    PlannedHand,
    RankKey,
    Ruleset,
    RunningValue,
    ScheduleEntry,
    Tiebreak,
    LetError,
    as_sizes,
    hand_setup,
)

_DIRECTIONS = {"clockwise": CLOCKWISE, "counterclockwise": COUNTERCLOCKWISE}
_RANK_KEY = re.compile(r"^(\s*)(highest|lowest)(\s+)(.*)$", re.S)
#: The bidding check tries every case up to this many evaluations, per player count.
_MAX_BID_CHECKS = 200_000


#: Names a running value may not take: the language's own words and every built-in name.
_TAKEN_NAMES = (
    {v.name: "a built-in variable" for c in CONTEXTS.values() for v in c.variables}
    | {n: "a constant" for n in CONSTANTS}
    | {n: "a function" for n in FUNCTIONS}
    | {n: "a word of the language" for n in KEYWORDS}
)


class _Compiler:
    def __init__(self, loaded: Loaded, running_names: Iterable[str] | None = None):
        self.loaded = loaded
        self.data = loaded.data
        self.findings: list[Finding] = []
        running = self.data.get("running") or {}
        names = tuple(running) if running_names is None else tuple(running_names)
        for name in names:
            if name in _TAKEN_NAMES and name in running:
                self.report(
                    ("running", name),
                    "W203",
                    f"running value `{name}` has the name of {_TAKEN_NAMES[name]}; choose another name",
                    key=True,
                )
        self.running_names = tuple(n for n in names if n not in _TAKEN_NAMES)
        self.lets: dict[str, Type] = {}  # the `let` values compiled so far, with their types

    def get(self, path: JsonPath, default: Any = None) -> Any:
        node: Any = self.data
        for key in path:
            if isinstance(node, dict) and key in node:
                node = node[key]
            elif isinstance(node, list) and isinstance(key, int) and key < len(node):
                node = node[key]
            else:
                return default
        return node

    def report(self, path: JsonPath, code: str, message: str, key: bool = False) -> None:
        self.findings.append(self.loaded.where(path, key=key).finding(code, message))

    def formula(
        self,
        path: JsonPath,
        context: str,
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
            compiled = formula(source, context, self.running_names, expect, self.lets)
        except ExprError as e:
            ref = self.loaded.ref(path)
            for p in e.problems:
                column = p.column + (column_offset if p.line == 1 else 0)
                where = ref.position_in_value(whole, p.line, column) if ref else self.loaded.where(path)
                self.findings.append(where.finding(p.code, p.message))
            return None
        return replace(compiled, origin=f"{dotted(path)} ({self.loaded.where(path)})")

    def optional(self, path: JsonPath, context: str, expect: Type | None) -> Formula | None:
        return self.formula(path, context, expect) if self.get(path) is not None else None


def compile_ruleset(loaded: Loaded) -> tuple[Ruleset | None, list[Finding]]:
    """Validated data -> (Ruleset, []) or (None, findings)."""
    c, rules = _compile_formulas(loaded)
    if c.findings:
        return None, sorted(set(c.findings))
    _check_meaning(c, rules)
    if c.findings:
        return None, sorted(set(c.findings))
    return rules, []


def expression_findings(loaded: Loaded, running_names: Iterable[str]) -> list[Finding]:
    """The expression findings (W3xx) of data that is only partly valid.

    `loaded` holds just the schema-valid parts of a ruleset; `running_names` are the running
    values the whole file declares (some may have been left out as invalid), so formulas that
    use them are not reported as using unknown names. Meaning is not checked: it needs the
    whole ruleset.
    """
    c, _ = _compile_formulas(loaded, running_names)
    return sorted({f for f in c.findings if f.code.startswith("W3")})


def _compile_formulas(loaded: Loaded, running_names: Iterable[str] | None = None) -> tuple[_Compiler, Ruleset]:
    """Compile every formula of the (validated) data; findings are left in the compiler."""
    c = _Compiler(loaded, running_names)
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
    for name, value in (d.get("let") or {}).items():
        taken = _TAKEN_NAMES.get(name) or ("a running value" if name in c.running_names else None)
        if taken:
            c.report(("let", name), "W203", f"`let` value `{name}` has the name of {taken}; choose another name", key=True)
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
    for i, entry in enumerate(d.get("schedule", [])):
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
    running = []
    for name in c.running_names:
        if not isinstance(d.get("running", {}).get(name), dict):
            continue  # left out of partly valid data
        start = c.formula(("running", name, "start"), "running_start", Type.NUMBER)
        after = c.formula(("running", name, "after_hand"), "running", Type.NUMBER)
        if start and after:
            running.append(RunningValue(name, start, after, d["running"][name].get("description", "")))

    rank: list[RankKey] = []
    for i, key in enumerate(d.get("winner", {}).get("rank", ["highest total"])):
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

    rules = Ruleset(
        name=d.get("name", ""),
        description=d.get("description", ""),
        version=d.get("whistdsl", 1),
        source=d,
        lets=tuple(lets),
        players_min=players.get("min", 4),
        players_max=players.get("max", 4),
        players_default=players.get("default", players.get("min", 4)),
        deal_direction=deal,
        bidding_direction=bidding,
        play_direction=play,
        suits=tuple(deck.get("suits", SUITS)),
        ranks=ranks,
        deck_size=c.optional(("deck", "size"), "setup", Type.NUMBER),
        first_dealer=d.get("dealer", {}).get("first", "random"),
        sits_out=c.optional(("dealer", "sits_out"), "hand", Type.BOOL),
        kinds=kinds,
        schedule=tuple(schedule),
        trump_cycle=tuple(trump["cycle"]) if trump.get("cycle") else None,
        turn_up=bool(trump.get("turn_up", False)),
        trump_none_when=c.optional(("trump", "none_when"), "deal", Type.BOOL),
        first_bidder=d.get("bidding", {}).get("first", "after_dealer"),
        allowed=c.optional(("bidding", "allowed"), "bidding", Type.BOOL),
        when_void=d.get("play", {}).get("when_void", "free"),
        first_lead=d.get("play", {}).get("first_lead", "first_bidder"),
        points=c.optional(("scoring", "points"), "scoring", Type.NUMBER),
        bonus=c.optional(("scoring", "bonus"), "bonus", Type.NUMBER),
        running=tuple(running),
        rank=tuple(rank),
        wins_outright=c.optional(("winner", "wins_outright"), "winner", Type.BOOL),
        tiebreak=tiebreak,
    )
    return c, rules


# ---------------------------------------------------------------- meaning


def _check_meaning(c: _Compiler, rules: Ruleset) -> None:
    if rules.players_min > rules.players_max:
        c.report(("players", "min"), "W406", f"players.min ({rules.players_min}) is above players.max ({rules.players_max})")
        return
    if not rules.players_min <= rules.players_default <= rules.players_max:
        c.report(("players", "default"), "W406", f"players.default ({rules.players_default}) is outside {rules.players_min}..{rules.players_max}")
    if isinstance(rules.first_dealer, int) and rules.first_dealer >= rules.players_min:
        c.report(("dealer", "first"), "W406", f"dealer.first is seat {rules.first_dealer}, but seats are numbered from 0 and there may be only {rules.players_min} players")

    if rules.points is None:
        c.report(("scoring",), "W201", "a ruleset needs `scoring.points`, the formula of each player's points for a hand", key=True)
    if c.get(("schedule",)) is None:
        c.report(("schedule",), "W201", "a ruleset needs a `schedule`: the hand sizes of the game, in order", key=True)
    trump = c.get(("trump",), {})
    if not trump.get("cycle") and not trump.get("turn_up"):
        need = "trump needs" if "trump" in c.data else "a ruleset needs `trump`:"
        c.report(("trump",), "W201", f"{need} a `cycle` of suits or `turn_up: true`", key=True)
    elif trump.get("cycle") and trump.get("turn_up"):
        c.report(("trump", "turn_up"), "W406", "trump has both a `cycle` and `turn_up: true`: choose one")
    for i, suit in enumerate(rules.trump_cycle or ()):
        if suit != "none" and suit not in rules.suits:
            c.report(("trump", "cycle", i), "W405", f"trump cycle names {suit}, which is not a suit of the deck ({', '.join(rules.suits)})")

    for i, entry in enumerate(c.get(("schedule",), [])):
        if isinstance(entry, dict) and entry.get("kind", NORMAL) not in rules.kinds:
            c.report(("schedule", i, "kind"), "W405", _unknown_kind(entry["kind"], rules))
    if rules.tiebreak is not None and rules.tiebreak.kind not in rules.kinds:
        c.report(("tiebreak", "kind"), "W405", _unknown_kind(rules.tiebreak.kind, rules))
    if c.findings:
        return

    for players in range(rules.players_min, rules.players_max + 1):
        before = len(c.findings)
        _check_player_count(c, rules, players)
        if len(c.findings) > before:
            return  # one player count's findings are enough to read


def _unknown_kind(name: str, rules: Ruleset) -> str:
    return f"hand kind `{name}` is not defined under `kinds` (known: {', '.join(rules.kinds)})"


def _check_player_count(c: _Compiler, rules: Ruleset, players: int) -> None:
    with_n = f"with {players} players"
    try:
        deck = rules.deck_count(players)
    except EvalError as e:
        c.report(("deck", "size"), "W406", str(e))
        return
    try:
        lets = rules.let_values(players)
    except LetError as e:
        c.report(("let", e.name), "W305", f"{with_n}: {e}")
        return
    for r in rules.running:
        try:
            r.start({"players": players, **lets})
        except EvalError as e:
            c.report(("running", r.name, "start"), "W305", f"{with_n}: {e}")
            return
    env = rules.game_env(players)
    plan: list[tuple[PlannedHand, int]] = []  # each hand and the schedule entry it comes from
    for i, entry in enumerate(rules.schedule):
        try:
            sizes = as_sizes(entry.cards(env), "this entry")
        except EvalError as e:
            c.report(_entry_path(c, i), "W403", f"{with_n}: {e}")
            return
        for size in sizes:
            plan.append((PlannedHand(len(plan) + 1, size, entry.kind), i))
    if not plan:
        c.report(("schedule",), "W403", f"{with_n} the schedule has no hands")
        return
    if len(plan) > 1000:
        c.report(("schedule",), "W403", f"{with_n} the schedule has {len(plan)} hands; the limit is 1000")
        return
    hands: list[tuple[PlannedHand, JsonPath, bool]] = [(h, _entry_path(c, i), False) for h, i in plan]
    try:
        extra_hands, extra_cards = rules.tiebreak_plan(players)
    except EvalError as e:
        c.report(("tiebreak",), "W403", f"{with_n}: {e}")
        return
    for k in range(extra_hands):
        hands.append((PlannedHand(len(plan) + k + 1, extra_cards, rules.tiebreak.kind), ("tiebreak", "cards"), True))  # type: ignore[union-attr]

    setups = []
    for hand, path, extra in hands:
        try:
            setup = hand_setup(rules, players, hand, len(plan), extra)
            if rules.trump_none_when is not None:
                rules.trump_none_when(setup.env)
        except EvalError as e:
            c.report(("dealer", "sits_out") if rules.sits_out else ("trump", "none_when"), "W305", f"{with_n}, hand {hand.number}: {e}")
            return
        if setup.cards_left < 0:
            c.report(
                path,
                "W402",
                f"{with_n}, hand {hand.number} deals {hand.size} cards to each of {setup.playing} players: "
                f"{hand.size * setup.playing} cards, but the deck has {deck}",
            )
            return
        setups.append(setup)
    _check_bids(c, rules, players, setups)


def _entry_path(c: _Compiler, i: int) -> JsonPath:
    return ("schedule", i, "cards") if isinstance(c.get(("schedule", i)), dict) else ("schedule", i)


def _check_bids(c: _Compiler, rules: Ruleset, players: int, setups: Iterable[Any]) -> None:
    """No player may ever be left without a legal bid, whatever legal bids came before.

    A quick pass tries every sum of earlier bids that the hand size allows; a case that fails
    there is reported only if the earlier players can really reach that sum with bids their
    own rules allow (a "0" hand where everyone must bid 0 never has bids adding up to 3).
    """
    seen: set[tuple[Any, ...]] = set()
    budget = [_MAX_BID_CHECKS]
    for setup in setups:
        kind = rules.kinds[setup.plan.kind]
        tests = [(f, ("bidding", "allowed")) for f in (rules.allowed,) if f is not None]
        if kind.allowed is not None:
            tests.append((kind.allowed, ("kinds", kind.name, "allowed")))
        if not tests:
            continue
        used = set().union(*(f.names for f, _ in tests))
        key = (setup.plan.size, setup.plan.kind, setup.playing, setup.extra, setup.dealer_sits_out) + (
            (setup.plan.number,) if "hand_number" in used else ()
        )
        if key in seen:
            continue
        seen.add(key)
        size = setup.plan.size
        uses_sum = "bids_so_far" in used
        trumps = [*rules.suits, "none"] if "trump" in used else ["none"]
        base = dict(setup.env)
        base.update(start_running(rules, players))
        base["total"] = 0

        def legal_bids(position: int, so_far: int, trump: str, first_only: bool) -> list[int]:
            env = dict(base)
            dealer_bids_first = rules.first_bidder == "dealer"
            env.update(
                trump=trump,
                is_dealer=not setup.dealer_sits_out and position == (1 if dealer_bids_first else setup.playing),
                position=position,
                bids_so_far=so_far,
                bids_made=position - 1,
                is_last=position == setup.playing,
                is_first=position == 1,
            )
            legal = []
            for bid in range(size + 1):
                env["bid"] = bid
                budget[0] -= 1
                for test, path in tests:
                    try:
                        if not test(env):
                            break
                    except EvalError as e:
                        raise _BidCheckError(path, e) from None
                else:
                    legal.append(bid)
                    if first_only:
                        break
            return legal

        reachable: dict[tuple[int, str], set[int]] = {}

        def reachable_sums(position: int, trump: str) -> set[int]:
            """The sums the bids of the players before `position` can add up to."""
            if (position, trump) not in reachable:
                sums = {0} if position == 1 else {
                    s + b
                    for s in sorted(reachable_sums(position - 1, trump))
                    for b in legal_bids(position - 1, s, trump, False)
                }
                reachable[(position, trump)] = sums
            return reachable[(position, trump)]

        try:
            for position in range(1, setup.playing + 1):
                for trump in trumps:
                    for so_far in range(0, size * (position - 1) + 1) if uses_sum else [0]:
                        if legal_bids(position, so_far, trump, True):
                            continue
                        if uses_sum and so_far not in reachable_sums(position, trump):
                            continue
                        where = tests[-1][1]
                        c.report(
                            where,
                            "W404",
                            f"with {players} players, in hand {setup.plan.number} ({size} cards), the player bidding "
                            f"{_ordinal(position)} has no legal bid"
                            + (f" when the bids so far add up to {so_far}" if uses_sum else "")
                            + (f" and trump is {trump}" if "trump" in used else ""),
                        )
                        return
                    if budget[0] <= 0:
                        return
        except _BidCheckError as e:
            c.report(e.path, "W305", f"with {players} players, in hand {setup.plan.number}: {e.error}")
            return


class _BidCheckError(Exception):
    def __init__(self, path: JsonPath, error: EvalError):
        super().__init__(str(error))
        self.path = path
        self.error = error


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")
