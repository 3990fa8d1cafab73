"""Findings: what `whistdsl lint` reports, one shape for every stage, and its renderers.

A finding has a file, a line and column (1-based), a stable code, a severity and a message.
The table of codes lives here, so every stage names its findings from one place.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ..printable import json_text, printable

#: Every finding code, with a one-line meaning. Codes are stable: tools may filter on them.
CODES: dict[str, str] = {
    # file and YAML
    "W100": "the file cannot be read as text (binary, not UTF-8, or too large)",
    "W101": "YAML syntax error",
    "W102": "duplicate key in a mapping",
    "W103": "YAML anchors, aliases, merge keys (<<) and tags (!!str) are not allowed in rulesets",
    "W104": "an unquoted YAML 1.1 value that would silently change type: quote it",
    "W105": "the file is empty or is not a mapping",
    # schema
    "W200": "unknown key (a typo would otherwise be silently ignored)",
    "W201": "a required key is missing",
    "W202": "a value has the wrong type",
    "W203": "a value is not one of the allowed choices or out of range",
    "W204": "unsupported language version",
    "W205": "a key of language version 2 in a file that states `whistdsl: 1`",
    "W206": "a decision is written twice (`decisions`)",
    "W207": "a key belongs to another kind of decision (`decisions`)",
    "W208": "a parameter's declaration is wrong (its name is taken, its default or range does not fit)",
    "W209": "a parameter that no formula reads (a warning)",
    "W210": "keys of `trump` that do not go together (`from` beside `cycle` or `turn_up`; `turned` without a card turned before the deal)",
    "W211": "the auction is written after the decisions it comes before (`decisions`)",
    "W212": "a number parameter's step, default or bound is written wrong (not a number, not above 0, not a multiple of the step)",
    # expressions
    "W300": "expression syntax error",
    "W301": "unknown name",
    "W302": "type error",
    "W303": "name not available in this context",
    "W304": "expression too long or too deeply nested",
    "W305": "expression cannot be evaluated (number too large, division by zero, ...)",
    "W306": "unknown function or wrong number of arguments",
    "W307": "a fact of the other seats that is not known there (a bid not yet made, this seat's own turn or points)",
    "W308": "an aggregate over seats written wrong: not a seat set first, a seat set used as a value, aggregates nested",
    "W309": "a fact of one seat written wrong: an unknown role or fact (`dealer.bid`, `me.bid`), or a fact that is the same for every seat",
    "W310": "a map() whose formula cannot work: not `n -> formula`, a taken item name, or a result that is not numbers",
    "W311": "a fact of the dealer (`dealer.bid`) read where the dealer may sit out a hand",
    "W312": "a parameter's range, a formula, cannot be worked out at some table (a division by zero, ...)",
    "W313": "with the parameters' defaults, an allowed player count is outside a parameter's range (a formula of `players`)",
    # meaning
    "W400": "extends: target not found",
    "W401": "extends: cycle",
    "W402": "the deck is too small for a hand",
    "W403": "the schedule is empty or too long",
    "W404": "a player can be left without a legal bid",
    "W405": "a name refers to something the ruleset does not define",
    "W406": "inconsistent player counts or deck",
    "W407": "a formula or a bidding limit can fail at values lint cannot enumerate (running values, totals)",
    "W416": "the end of the game: `end.hands` is not a hand count within the limit",
    "W417": "the end of the game: `end.when` never holds within the cap in the games lint plays",
    "W418": "a YAML flow list [ ... ] split a formula at a comma: quote the formula",
    "W419": "a trick can be left without a winner (trick.winner)",
    "W420": "a card rule names a special card the deck does not have",
    "W421": "identical cards of two packs can meet in a trick and trick.identical does not say which wins",
    "W422": "a special card's name or mark can be mistaken for something else",
    "W423": "a decision has no options, or options that are not in the game",
    "W424": "a decision's `who` is not a seat that plays (or has nothing to go by yet)",
    "W425": "a formula reads what the decider cannot see yet (hidden bids, a trump named later)",
    "W426": "a formula reads a decision the ruleset never offers (`call` without calls, `blind` without blind bids)",
    "W427": "a named call has a reserved name",
    "W428": "a formula reads what it cannot know of trump (trump shown only after the bidding; a turned card where none is turned)",
    "W429": "a trump source that is never tried, or can find nothing (after `random`; the dealer's last card when the dealer sits out)",
    "W430": "a warning: `trump.none_when` reads the turned card but gives the same answer for every card the deck can turn",
    "W431": "special cards that are trumps (`trump.specials`) without saying what they are in a hand without trump, or with a power of their own elsewhere",
    "W432": "an auction's lowest bid does not fit a hand (below 1, or above the hand size)",
    "W433": "a trump decision that does not fit the auction (`who: declarer` without an auction; trump named twice)",
    "W434": "a formula reads the auction or an excused seat, but the ruleset has none (`is_declarer`, `auction_bid`, `excused`)",
    "W435": "a warning: seats may be excused from bidding, but the scoring does not read `excused`",
    "W436": "an auction names a suit the deck does not have",
}

SEVERITIES = ("error", "warning")
#: Codes that are warnings: they do not fail lint, and a ruleset with only these still plays
#: (if a game reaches the case, the engine stops it with a rule error). Every other code is an error.
WARNINGS = frozenset({"W209", "W407", "W417", "W421", "W430", "W435"})


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int
    column: int
    code: str
    message: str
    severity: str = field(default="error", compare=False)

    def as_json(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class Position:
    """Where a YAML node (or a spot inside an expression) is: file, 1-based line and column."""

    path: str
    line: int
    column: int

    def finding(self, code: str, message: str, severity: str = "error") -> Finding:
        assert code in CODES, code
        return Finding(self.path, self.line, self.column, code, message, severity)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    def shifted(self, line_offset: int, column: int) -> "Position":
        return Position(self.path, self.line + line_offset, column)


def _source_line(sources: dict[str, list[str]], finding: Finding) -> str | None:
    """The ruleset line a finding points at, as it was written (escape it before printing)."""
    lines = sources.get(finding.path)
    if lines is None or not 1 <= finding.line <= len(lines):
        return None
    return lines[finding.line - 1]


def render_text(findings: list[Finding], sources: dict[str, list[str]]) -> str:
    """`path:line:col: CODE message` (`CODE warning: message` for a warning), then the source
    line and a caret under the spot. Paths,
    messages and source lines come from files: each is printed with its controls escaped
    (the caret still lands under the spot of the escaped line)."""
    out: list[str] = []
    for f in findings:
        label = f"{f.code} warning:" if f.severity == "warning" else f.code
        out.append(printable(f"{f.path}:{f.line}:{f.column}: {label} {f.message}"))
        line = _source_line(sources, f)
        if line is not None and len(line) <= 300:
            gutter = f"{f.line:>5} | "
            out.append(gutter + printable(line, tab=True))
            before = printable(line[: max(f.column - 1, 0)], tab=True)
            caret_pad = "".join(c if c == "\t" else " " for c in before)
            out.append(" " * (len(gutter) - 2) + "| " + caret_pad + "^")
    return "\n".join(out)


def render_json(findings: list[Finding]) -> str:
    """The findings as a JSON list; texts keep their characters, unsafe ones as `\\u` escapes."""
    return json_text([f.as_json() for f in findings], indent=2)


def _github_escape(text: str, property_value: bool = False) -> str:
    """A workflow command's value: controls escaped as text first (a raw one could end the
    command or reach the log's terminal), then GitHub's own %-escapes."""
    text = printable(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def render_github(findings: list[Finding]) -> str:
    """GitHub Actions workflow commands: one annotation per finding."""
    return "\n".join(
        f"::{f.severity} file={_github_escape(f.path, True)},line={f.line},col={f.column},"
        f"title={f.code}::{_github_escape(f.code + ' ' + f.message)}"
        for f in findings
    )
