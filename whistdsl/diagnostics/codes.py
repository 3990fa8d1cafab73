"""Every finding code of `whistdsl lint`, documented in one place: the one-line meaning each
finding is reported under, what it finds, an example and what to write instead.

`whistdsl lint --explain CODE` prints a code's entry, and the documentation's finding-code pages
and their index (docs/findings/) are generated from this table (tests/test_docs.py checks them;
`python tests/test_docs.py` writes them). Codes are stable: tools may filter on them. `url`
names a code's page, which every finding carries (as ruff's diagnostics carry their rule's).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Code:
    """One finding code: `summary` (a line), `finds` (what it finds, in full), an `example` of a
    ruleset that gets it and what to `write_instead` (Markdown: `code` in backticks)."""

    summary: str
    finds: str
    example: str
    write_instead: str


#: Every finding code. Codes are stable: tools may filter on them.
DOCS: dict[str, Code] = {
    # file and YAML
    "W100": Code(
        "the file cannot be read as text (binary, not UTF-8, or too large)",
        "the file cannot be read as text: binary, not UTF-8, over 256 KiB, a directory",
        "a `.yaml` that is really a spreadsheet",
        "save the ruleset as UTF-8 text",
    ),
    "W101": Code(
        "YAML syntax error",
        "YAML syntax error (or YAML nested more than 50 levels)",
        "`name: [unclosed`",
        "close the bracket; mind the indentation",
    ),
    "W102": Code(
        "duplicate key in a mapping",
        "duplicate key in a mapping, naming both lines",
        "`name:` twice",
        "keep one",
    ),
    "W103": Code(
        "YAML anchors, aliases, merge keys (<<) and tags (!!str) are not allowed in rulesets",
        "YAML anchors, aliases, merge keys (`<<`) and tags (`!!str`)",
        "`description: *n`",
        "write the value out, or share rules with `extends:`",
    ),
    "W104": Code(
        "an unquoted YAML 1.1 value that would silently change type: quote it",
        "an unquoted YAML 1.1 value that would silently change type",
        "`turn_up: no`, `1:30`, `017`",
        "`false`, or quote it: `'1:30'`",
    ),
    "W105": Code(
        "the file is empty or is not a mapping",
        "the file is empty or is not a mapping",
        "an empty file; a list at the top",
        "`whistdsl: 1` and the keys of a ruleset",
    ),
    # schema
    "W200": Code(
        "unknown key (a typo would otherwise be silently ignored)",
        'unknown key, with a "did you mean"',
        "`scoreing:`",
        "`scoring:`",
    ),
    "W201": Code(
        "a required key is missing",
        "a required key is missing",
        "no `whistdsl:`; `trump:` with neither `cycle` nor `turn_up`; no `scoring.points`",
        "add it: the finding's `help:` line says what to write, e.g. `cycle: [none]` for a game without trump",
    ),
    "W202": Code(
        "a value has the wrong type",
        "a value has the wrong type",
        "`players: four`",
        "`players: {min: 4, max: 4}`",
    ),
    "W203": Code(
        "a value is not one of the allowed choices or out of range",
        "a value is not one of the allowed choices, or out of range",
        "`when_void: must_follow`",
        "`free`, `must_trump` or `must_overtrump`",
    ),
    "W204": Code(
        "unsupported language version",
        "a language version this whistdsl cannot read",
        "`whistdsl: 3`",
        "upgrade whistdsl, or write version 2",
    ),
    "W205": Code(
        "a key of language version 2 in a file that states `whistdsl: 1`",
        "a key or construct of language version 2 in a file that states `whistdsl: 1`",
        "`end:`, `first_lead: {highest: bid}` or `count(seats, made)` in a `whistdsl: 1` file",
        "`whistdsl: 2`",
    ),
    "W206": Code(
        "a decision is written twice (`decisions`)",
        "a decision is written twice under `decisions`",
        "two `- name: bid` items",
        "one item per decision",
    ),
    "W207": Code(
        "a key, or a call's form, belongs to another kind of decision (`decisions`)",
        "a key belongs to another kind of decision, or a named call is written in the form of another kind's calls",
        "`calls:` in a `name: trump` item; `dash: 0` in an auction's `calls` (its calls are `{bid: 0}`)",
        "move it to the `name: bid` item; write an auction's call as `{bid: N, most: M}` and a bid's as a number",
    ),
    "W208": Code(
        "a parameter's declaration is wrong (its name is taken, its default or range does not fit)",
        "a parameter's declaration is wrong: its name is taken (a constant, a function, `players`, a `let` or running value), min above max, or its default outside its range or choices",
        "`tricks: {type: number, min: 1, max: 13, default: 0}`",
        "a default within `min`..`max`",
    ),
    "W209": Code(
        "a parameter that no formula reads (a warning)",
        "a warning: a parameter that no formula reads, so setting it changes nothing",
        "`hook: {type: yes/no, default: true}` and no formula reads `hook`",
        "read it in a formula, or remove it",
    ),
    "W210": Code(
        "keys of `trump` that do not go together (`from` beside `cycle` or `turn_up`; `turned` without a card turned before the deal)",
        "keys of `trump` that do not go together",
        "`from: random` beside `cycle:`; `turned: dealt` without `before_deal` in `from`",
        "one way to find trump; add `before_deal` to `from`",
    ),
    "W211": Code(
        "the auction is written after the decisions it comes before (`decisions`)",
        "the auction is written after the decisions it comes before",
        "`- name: auction` after `- name: bid`",
        "write the auction first",
    ),
    "W212": Code(
        "a number parameter's step, default or bound is written wrong (not a number, not above 0, not a multiple of the step)",
        "a number parameter's step, bound or default written wrong: a step not above 0, a bound not a multiple of the step, a default that is a formula",
        "`step: 0`, `min: 0.5` with `step: 1/3`, `default: players`",
        "`step: 0.5`, `default: 1.5`",
    ),
    # expressions
    "W300": Code(
        "expression syntax error",
        "formula syntax error, with a caret at the spot",
        "`if made then 10 +`",
        "finish the formula",
    ),
    "W301": Code(
        "unknown name",
        'unknown name, with a "did you mean"',
        "`10 + trick`",
        "`10 + tricks`",
    ),
    "W302": Code(
        "type error",
        "type error: a number where a yes/no is needed, or the like",
        "`if tricks then ...`",
        "`if tricks > 0 then ...`",
    ),
    "W303": Code(
        "name not available in this context",
        "a name that exists, but not in this context",
        "`tricks` in `bidding.allowed`",
        "only names of [the context](#names-and-functions-per-context)",
    ),
    "W304": Code(
        "expression too long or too deeply nested",
        "formula too long or too deeply nested",
        "5000 nested brackets",
        "a shorter formula; a running value for a long computation",
    ),
    "W305": Code(
        "expression cannot be evaluated (number too large, division by zero, ...)",
        "a formula that cannot be evaluated: a number too large, a division by zero",
        "`10 ^ 10 ^ 10`",
        "keep within the [limits](#limits); guard a division with `if`",
    ),
    "W306": Code(
        "unknown function or wrong number of arguments",
        "unknown function or wrong number of arguments",
        "`triangle(bid)`, `abs(1, 2)`",
        "`tri(bid)`, `abs(x)`",
    ),
    "W307": Code(
        "a fact of the other seats that is not known there (a bid not yet made, this seat's own turn or points)",
        "a fact of the other seats that is not known where the formula is: in bidding, a bid not yet made (only `earlier` seats have bid), or this seat's own turn or points read of each seat",
        "`max(others, bid)` in `bidding.allowed`; `sum(others, points)` in `scoring.bonus`",
        "`max(earlier, bid)`; read `points` outside the aggregate",
    ),
    "W308": Code(
        "an aggregate over seats written wrong: not a seat set first, a seat set used as a value, aggregates nested",
        "an aggregate over seats written wrong: the first argument is not a seat set, a seat set used as a value, aggregates nested, the wrong number of arguments",
        "`count(3, made)`, `seats > 2`, `count(seats, count(others, made) > 0)`",
        "`count(seats, made)`, `count(seats, true) > 2`",
    ),
    "W309": Code(
        "a fact of one seat written wrong: an unknown role or fact (`dealer.bid`, `me.bid`), or a fact that is the same for every seat",
        "a fact of one seat written wrong: an unknown role or fact, or a fact the same for every seat",
        "`dealr.bid`, `dealer.trick`, `me.hand_size`",
        "`dealer.bid`, `count(others, bid > me.bid)`",
    ),
    "W310": Code(
        "a map() whose formula cannot work: not `n -> formula`, a taken item name, or a result that is not numbers",
        "a `map` that cannot work: its second argument is not `n -> formula`, the item name is taken, or the formula gives no number or list",
        "`map(1 .. 3, [3, 2])`, `map(1 .. 3, players -> players)`",
        "`map(1 .. 3, n -> [n, n])`",
    ),
    "W311": Code(
        "a fact of the dealer (`dealer.bid`) read where the dealer may sit out a hand",
        "a fact of the dealer read where the dealer may sit out a hand (no playing seat is the dealer then)",
        "`dealer.bid` with `dealer.sits_out: players == 5`",
        "`first_bidder.bid`",
    ),
    "W312": Code(
        "a parameter's range, a formula, cannot be worked out at some table (a division by zero, ...)",
        "a parameter's range, a formula, cannot be worked out at some table",
        "`max: 13 // (players - 4)`",
        "`max: 52 // players`",
    ),
    "W313": Code(
        "with the parameters' defaults, an allowed player count is outside a parameter's range (a formula of `players`)",
        "with the parameters' defaults, an allowed player count is outside a parameter's range",
        "`size: {min: 1, max: 52 // players, default: 9}` with 6 players allowed",
        "`default: 7`, or `players.max: 5`",
    ),
    # meaning
    "W400": Code(
        "extends: target not found",
        "`extends:` target not found, not a regular file, or not allowed (absolute, `~`, a URL, not a `.yaml` / `.yml` file, in a hidden folder, or leading outside the root: the git repository, the working folder or the ruleset's folder, or `--root`)",
        "`extends: bsae.yaml`, `extends: /etc/passwd`",
        "`extends: base.yaml`, or a relative path to a ruleset inside the root (name a wider folder with `--root DIR`)",
    ),
    "W401": Code(
        "extends: cycle",
        "`extends:` cycle (or a chain longer than 16 files)",
        "`a.yaml` extends `b.yaml`, which extends `a.yaml`",
        "break the cycle",
    ),
    "W402": Code(
        "the deck is too small for a hand",
        "the deck is too small for a hand, naming the player count and hand",
        "`schedule: [14]` with 4 players and 52 cards",
        "smaller hands, or fewer players",
    ),
    "W403": Code(
        "the schedule is empty or too long",
        "the schedule is empty or too long (a game, tie-break hands included, has at most 1000 hands), or a hand size is not a whole number of at least 1",
        "`schedule: [repeat(1, 0)]`",
        "at least one hand, at most 1000 in a game",
    ),
    "W404": Code(
        "a player can be left without a legal bid",
        "a player can be left without a legal bid",
        "`allowed: is_last and bids_so_far + bid != hand_size`",
        "`allowed: not (is_last and bids_so_far + bid == hand_size)`",
    ),
    "W405": Code(
        "a name refers to something the ruleset does not define",
        "a name refers to something the ruleset does not define",
        "a trump cycle with `diamonds` in a deck without them; `kind: nv` with no `kinds.nv`",
        "define it, or use one that exists",
    ),
    "W406": Code(
        "inconsistent player counts or deck",
        "inconsistent player counts or deck: also a rank named twice, or a hand fewer than 2 seats would play",
        "`players: {min: 6, max: 4}`; `deck.size: 30` with 4 suits; `ranks: [A, K, 10, T]`; 2 players and `sits_out: true`",
        "`min <= default <= max`; a multiple of the suits; each rank once",
    ),
    "W407": Code(
        "a formula or a bidding limit can fail at values lint cannot enumerate (running values, totals)",
        "a warning: a formula or a bidding limit fails at some values of running values or totals, which lint cannot enumerate (the message names them)",
        '`points: 100 / (total - 7)` ("when total is 7: division by zero")',
        "guard it with `if`, or leave it: a game that gets there stops with a rule error",
    ),
    "W416": Code(
        "the end of the game: `end.hands` is not a hand count within the limit",
        "`end.hands` is not a hand count from 1 to 1000 for some player count",
        "`end: {hands: players - 4, ...}` with 4 players",
        "a cap of at least 1 hand",
    ),
    "W417": Code(
        "the end of the game: `end.when` never holds within the cap in the games lint plays",
        "a warning: `end.when` never holds within the cap in the whole games lint plays, so every game runs to the cap",
        "`when: hand_number > 20` with `hands: 20`",
        "a condition the game can reach, or a larger cap",
    ),
    "W418": Code(
        "a YAML flow list [ ... ] split a formula at a comma: quote the formula",
        "a formula with a comma in a YAML flow list `[ ... ]`, which YAML split into pieces (`min(n` and `x)`)",
        "`schedule: [min(players, 4)]`",
        '`schedule: ["min(players, 4)"]`, or `- min(players, 4)` on its own line',
    ),
    "W419": Code(
        "a trick can be left without a winner (trick.winner)",
        "a trick can be left without a winner: no rule of `trick.winner` picks a card of some trick (found by enumerating the kinds of cards that can meet in a trick)",
        "specials that pass the lead on and `winner: [highest trump, highest led]`: a trick of Jesters only",
        "end with a rule that always picks, e.g. `first jester`",
    ),
    "W420": Code(
        "a card rule names a special card the deck does not have",
        'a card rule names a special card the deck does not have, with a "did you mean"',
        "`winner: [first wizzard, ...]`; `always_playable: [joker]` without `deck.specials`",
        "a name from `deck.specials`",
    ),
    "W421": Code(
        "identical cards of two packs can meet in a trick and trick.identical does not say which wins",
        "a warning: copies of the deck can bring two identical cards into one trick and `trick.identical` does not say which wins",
        "`copies: 2` alone",
        "`trick.identical: later` (or `earlier`, the default)",
    ),
    "W422": Code(
        "a special card's name or mark can be mistaken for something else",
        "a special card's mark reads as a card of a suit, or is another special's; or its name is a word of `trick.winner`",
        "`mark: AS`; a special named `trump`",
        "another mark (`JK`), another name",
    ),
    "W423": Code(
        "a decision or a random trump has no options, or options that are not in the game",
        "a decision or a random trump (`trump.weights`) has no options, or options that are not in the game",
        "`options: []`; `options: [clubs]` in a deck without clubs; `weights: {spades: 0, none: 0}`",
        "list what a seat may choose; give an outcome a weight above 0",
    ),
    "W424": Code(
        "a decision's `who` is not a seat that plays (or has nothing to go by yet)",
        "a decision's `who` is not a seat that plays, or has nothing to go by yet",
        "`who: highest_bidder` written before the `bid` decision; `who: dealer` with `dealer.sits_out`",
        "write it after `bid`; `who: first_bidder`",
    ),
    "W425": Code(
        "a formula reads what the decider cannot see yet (hidden bids, a trump named later)",
        "a formula reads what the one deciding cannot see yet",
        "the hook (`bids_so_far`) with `together: true`; `trump` in `bidding.allowed` when trump is named after the bidding",
        "leave it out (`allowed: null`)",
    ),
    "W426": Code(
        "a formula reads a decision the ruleset never offers (`call` without calls, `blind` without blind bids, `auction_call` without auction calls)",
        "a formula reads a decision the ruleset never offers",
        '`call == "nil"` with no `calls`; `blind` without `blind: may`',
        "add the decision, or drop the test",
    ),
    "W427": Code(
        "a named call or a declaration has a reserved name",
        "a named call or a declaration (`declare`) has a reserved name",
        "`calls: {look: 0}`",
        "another name (`look` and `blind` answer the choice to bid blind, `no` the choice to declare nothing, `pass` is the auction's pass)",
    ),
    "W428": Code(
        "a formula reads what it cannot know of trump (trump shown only after the bidding; a turned card where none is turned)",
        "a formula reads what it cannot know of trump",
        "`trump` in `bidding.allowed` with `trump.seen: after_bidding`; `turn_up_rank` in `none_when` with a `cycle`",
        "leave it out; a source that turns a card",
    ),
    "W429": Code(
        "a trump source that is never tried, or can find nothing (after `random`; the dealer's last card when the dealer sits out)",
        "a trump source that is never tried, or can find nothing",
        "`from: [random, turn_up]`; `from: dealer_last_card` with `dealer.sits_out`; a trump named before the bidding with `seen: after_bidding`",
        "`random` last; a source after it for those hands",
    ),
    "W430": Code(
        "a warning: `trump.none_when` reads the turned card but gives the same answer for every card the deck can turn",
        "a warning: `trump.none_when` reads the turned card but gives the same answer for every card the deck can turn",
        '`turn_up_rank == "10"` (ranks are written `T`)',
        '`turn_up_rank == "T"`',
    ),
    "W431": Code(
        "special cards that are trumps (`trump.specials`) without saying what they are in a hand without trump, or with a power of their own elsewhere",
        "special cards that are trumps (`trump.specials`) without saying what they are in a hand without trump, or with a power of their own elsewhere",
        "`specials: [joker]` with a `none` in the cycle; `first joker` in `trick.winner`",
        "`specials_without_trump: highest`; drop the winner rule",
    ),
    "W432": Code(
        "an auction's lowest bid does not fit a hand (below 1, or above the hand size)",
        "an auction's lowest bid does not fit a hand: below 1, or above the hand size in every hand",
        "`min: hand_size - 1` with a 1-card hand",
        "a lowest bid of at least 1",
    ),
    "W433": Code(
        "a trump decision that does not fit the auction (`who: declarer` without an auction; trump named twice)",
        "a trump decision that does not fit the auction",
        "`who: declarer` without an auction; a `trump` item beside an auction whose bids name `suits`",
        "write the auction first; drop one of the two",
    ),
    "W434": Code(
        "a formula reads the auction or an excused seat, but the ruleset has none (`is_declarer`, `auction_bid`, `excused`)",
        "a formula reads the auction or an excused seat, but the ruleset has none",
        "`is_declarer` without an auction; `excused` without `skip`",
        "add the decision, or drop the test",
    ),
    "W435": Code(
        "a warning: seats may be excused from bidding, but the scoring does not read `excused`",
        "a warning: seats may be excused from bidding, but `scoring.points` does not read `excused`",
        "`skip: is_dealer` with `points: if made then 10 + bid else 0`",
        "say how an excused seat scores: `if excused then 0 else ...`",
    ),
    "W436": Code(
        "an auction names a suit the deck does not have",
        "an auction names a suit the deck does not have",
        "`suits: [clubs, hearts]` with a deck of spades, hearts, diamonds",
        "the deck's suits and `none`",
    ),
    "W437": Code(
        "a warning: a seat names trump in every hand, so the card turned for trump is never trump",
        "a warning: the `trump` decision names trump in every hand (no `when`, or a `when` that holds for every hand and card), so what `turn_up` or `trump.from` gives is never the trump of a hand",
        "`turn_up: true` with a `trump` decision of `who: dealer` and no `when`",
        '`cycle: [none]` instead of `turn_up`, or a `when` (`when: turn_up_special == "wizard"`)',
    ),
    "W438": Code(
        "a warning: a special card's mark is also the letter of a rank of the deck",
        "a warning: a special card's mark is also the letter of a rank of the deck, so typing it at the table could mean either card",
        "`jester: {mark: J}` in a deck with jacks",
        "another mark (`JE`)",
    ),
    "W445": Code(
        "`redeal` deals a hand again on nothing that can happen (`passed_out` without an auction, or neither `when` nor `passed_out`)",
        "`redeal` deals a hand again on nothing that can happen: `passed_out: true` without an auction, or neither `when` nor `passed_out`",
        "`redeal: {passed_out: true}` in a ruleset without an `auction` decision",
        "write the auction, or say when the hand is dealt again: `when: any(seats, trumps == 0)`",
    ),
    "W446": Code(
        "a warning: `redeal.when` held of every deal lint tried for some hand",
        "a warning: `redeal.when` held of every deal lint shuffled for some hand and trump: such a hand is dealt again `limit` times, then played as dealt",
        "`when: any(seats, trumps == 0)` in a hand without trump (no seat holds a trump)",
        "say when it is not dealt again: `trump != none and any(seats, trumps == 0)`",
    ),
    "W455": Code(
        "super trumps ranked by the turned card, but no card is ever turned",
        "`trump.super_trumps` ranks cards by the turned card, but the trump comes from a cycle of suits or a random draw only, so no card is turned",
        "`super_trumps: {rank: same}` with `cycle: [spades, hearts]`",
        "`from: [turn_up]`, or drop `super_trumps`",
    ),
    "W456": Code(
        "the super trumps' suit order leaves out a suit of the deck, or names one it does not have",
        "`trump.super_trumps.order` ranks the super trumps of every suit of the deck: it leaves one out, or names a suit the deck does not have",
        "`order: [clubs, hearts]` in a deck of four suits",
        "`order: [clubs, hearts, spades, diamonds]`",
    ),
    "W460": Code(
        "more than three kinds of wild card",
        "a played wild card (`deck.specials.<name>.wild`) is a card of the suit declared above its ace, in the three strength places free there: at most three kinds of special card may be wild",
        "`red_joker`, `black_joker`, `blue_joker` and `green_joker`, each `wild: any`",
        "one kind with `count: 4`",
    ),
    "W461": Code(
        "a rule for special cards names a wild card",
        "a wild card is played as a card of the suit its holder declares, so `play.always_playable`, `play.special_led`, `trump.specials` and `trick.winner` never apply to it",
        "`always_playable: [joker]` with `joker: {count: 1, mark: JK, wild: any}`",
        "drop `joker` from `always_playable`",
    ),
}

#: Codes that are warnings: they do not fail lint, and a ruleset with only these still plays
#: (if a game reaches the case, the engine stops it with a rule error). Every other code is an
#: error. A ruleset may silence a warning in itself (`lint: {ignore: [W209]}`), never an error.
WARNINGS = frozenset({"W209", "W407", "W417", "W421", "W430", "W435", "W437", "W438", "W446"})

#: Where the documentation site is published (mkdocs.yml's `site_url`): none yet, so a code's
#: page is named by its path among the documentation's sources. Set both together.
SITE_URL = ""


def url(code: str) -> str:
    """The page of finding code `code`: on the site when it is published, else its source file
    (`docs/findings/W301.md`, the page tests/docs_pages.py generates from this table)."""
    return f"{SITE_URL.rstrip('/')}/findings/{code}/" if SITE_URL else f"docs/findings/{code}.md"
