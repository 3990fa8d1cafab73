"""The `whistdsl` command line: a thin shell over the library (lint, schema, score, list, ...).

Exit codes everywhere: 0 success (a clean lint), 1 findings or a failed check, 2 a usage error
(a missing path, a bad option). Bad input never shows a Python traceback.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..printable import printable
from ..resources import bundled_rulesets, schema_path
from ..suggest import command
from .common import HELP_OPTIONS, VERSION_OPTIONS, help_key, version_line
from .options import ROOT_OPTION, SET_OPTION, open_rules, output_console, show
from .options import err as _err
from .options import usage as _usage

if TYPE_CHECKING:
    from fractions import Fraction

    from ..rules.ruleset import Ruleset

# The checker, the engine and rich are imported by the commands that use them, when they run:
# every command line imports this module, and `whistdsl lint` answered from the cache (or
# `whistdsl schema`) should not wait for them.

#: Commands built only when named (or listed by --help): their modules import the engine, the
#: players and rich, which `lint`, `schema` and `replay` do not need.
#: Name -> (module, function, the line `whistdsl --help` lists it with).
LATER_COMMANDS = {
    "simulate": ("whistdsl.cli.simulate", "simulate_command", "Play many games between computer players; measure them."),
    "play": ("whistdsl.cli.play", "play_command", "Play a game at the terminal against computer players."),
    "games": ("whistdsl.cli.games", "games_command", "List the kept games, to resume one with play --resume."),
    "serve": ("whistdsl.cli.serve", "serve_command", "Serve tables in the browser for friends and computer players."),
}
#: The order `whistdsl --help` lists the commands in. A command not named here (`serve`, until the
#: README documents it) works but is not listed.
COMMAND_ORDER = ("lint", "schema", "list", "reference", "explain", "compile", "score", "simulate", "play", "games", "replay", "serve")


class _LaterCommands(dict):
    """The group's commands by name: those built, and those of LATER_COMMANDS, built when first
    looked up (`commands["play"]`)."""

    def __missing__(self, name: str):
        if name not in LATER_COMMANDS:
            raise KeyError(name)
        import importlib

        module, function, short_help = LATER_COMMANDS[name]
        callback = getattr(importlib.import_module(module), function)
        info = typer.models.CommandInfo(name=name, cls=_Command, short_help=short_help, callback=callback, hidden=name not in COMMAND_ORDER)
        command = typer.main.get_command_from_info(info, pretty_exceptions_short=app.pretty_exceptions_short, rich_markup_mode=app.rich_markup_mode)
        adjust = getattr(callback, "adjust_command", None)  # what typer cannot say (an option's value left out)
        if adjust is not None:
            adjust(command)
        self[name] = command
        return command


class _Command(typer.core.TyperCommand):
    """A command whose help reads like ruff's or pytest's: `PATH...` and `[RULESET]` in the usage
    line, every option with the metavar it is given (never a Python type such as `<str>` or
    `<int range>`), ranges said in the option's own words rather than as `x>=1`."""

    def collect_usage_pieces(self, ctx: typer.Context) -> list[str]:  # type: ignore[override]  # typer makes each context a typer.Context (its context_class); the base names the Context of its click (vendored or not, by typer's version)
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                name = _argument_name(param)
                pieces.append(name if param.required else f"[{name}]")
        return pieces

    def format_options(self, ctx: typer.Context, formatter) -> None:  # type: ignore[override]  # typer makes each context a typer.Context (its context_class); the base names the Context of its click (vendored or not, by typer's version)
        arguments, options = [], []
        for param in self.get_params(ctx):
            param._get_number_range_help_str = lambda: None  # type: ignore[attr-defined]  # the help says the range in words; click's Option has it (a private method the help replaces)
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if param.param_type_name == "argument":
                arguments.append((_argument_name(param), param.help or ""))  # type: ignore[attr-defined]  # an Argument of typer has a help; click's Parameter does not declare it
            else:
                options.append(record)
        for title, rows in (("Arguments", arguments), ("Options", options)):
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)


def _argument_name(param) -> str:
    name = param.metavar or param.name.upper()
    return name + ("..." if param.nargs != 1 else "")  # type: ignore[no-any-return]  # click's metavar and name are str


class _Commands(typer.core.TyperGroup):
    """The group of whistdsl's commands, with those of LATER_COMMANDS made when first asked for.
    Its help lists each command with the whole first line of its help (never cut with "...")."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.commands = _LaterCommands(self.commands)

    def list_commands(self, ctx: typer.Context) -> list[str]:  # type: ignore[override]  # typer makes each context a typer.Context (its context_class); the base names the Context of its click (vendored or not, by typer's version)
        names = [*super().list_commands(ctx), *(n for n in LATER_COMMANDS if n not in self.commands)]
        return sorted(names, key=lambda n: COMMAND_ORDER.index(n) if n in COMMAND_ORDER else len(COMMAND_ORDER))

    def format_commands(self, ctx: typer.Context, formatter) -> None:  # type: ignore[override]  # typer makes each context a typer.Context (its context_class); the base names the Context of its click (vendored or not, by typer's version)
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.short_help or _first_line(command.help or "")))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def get_command(self, ctx: typer.Context, cmd_name: str):  # type: ignore[override]  # typer makes each context a typer.Context (its context_class); the base names the Context of its click (vendored or not, by typer's version)
        if cmd_name in LATER_COMMANDS:
            self.commands[cmd_name]  # built on first use
        return super().get_command(ctx, cmd_name)


def _first_line(text: str) -> str:
    """The first paragraph of a command's help, joined into one line."""
    import inspect

    return " ".join(inspect.cleandoc(text).split("\n\n")[0].split())


#: What `whistdsl --help` says above the options and the commands.
APP_HELP = """Write, check and play the rules of Oh Hell-family card games.

\b
Examples:
  whistdsl list                  the bundled rulesets
  whistdsl explain NAME          its rules in words
  whistdsl play NAME             a game against computer players
  whistdsl lint house.yaml       check a ruleset you wrote
  whistdsl COMMAND --help        a command's options and examples
"""

app = typer.Typer(
    cls=_Commands,
    help=APP_HELP,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": list(HELP_OPTIONS)},
)


def _print_version(asked: bool) -> None:
    if asked:
        typer.echo(version_line())
        raise typer.Exit(0)


@app.callback()
def _options(
    version: Annotated[bool, typer.Option(*VERSION_OPTIONS, is_eager=True, callback=_print_version, help="Print the version and exit.")] = False,
) -> None:
    """Write, check and play the rules of Oh Hell-family card games."""


class OutputFormat(str, Enum):
    text = "text"
    json = "json"
    github = "github"


@app.command(cls=_Command, short_help="Check ruleset files: every finding, with file:line:col.")
def lint(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(metavar="PATH", help="Ruleset files, folders to search for *.yaml / *.yml, or bundled rulesets' names."),
    ] = None,
    format: Annotated[
        OutputFormat, typer.Option("--format", "-f", metavar="FORMAT", help="text, json, or github (annotations).")
    ] = OutputFormat.text,
    select: Annotated[
        list[str] | None, typer.Option("--select", metavar="CODES", help="Show only these codes, or codes beginning so: --select W404,W2.")
    ] = None,
    ignore: Annotated[
        list[str] | None,
        typer.Option("--ignore", metavar="CODES", help="Do not show these codes (or codes beginning so): --ignore W209,W407."),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print the findings and nothing else (no summary line).")] = False,
    explain: Annotated[
        str | None, typer.Option("--explain", metavar="CODE", help="Say what a finding code means, with an example and the fix (`all`: every code).")
    ] = None,
    root: Annotated[Path | None, ROOT_OPTION] = None,
    settings: Annotated[list[str] | None, SET_OPTION] = None,
) -> None:
    """Check rulesets and say exactly what is wrong and where (file:line:col).

    With --set NAME=VALUE, the ruleset is checked with that value of the parameter (the other
    parameters still over every value they can take).

    Findings are in colour at a terminal (not in a pipe; NO_COLOR turns it off).
    A ruleset may silence warnings in itself: `lint: {ignore: [W209]}`.

    \b
    Examples:
      whistdsl lint house.yaml
      whistdsl lint oh-hell
      whistdsl lint rulesets/ --format github
      whistdsl lint rulesets/ --ignore W407 --quiet
      whistdsl lint --explain W404
    """
    from .linting import Choice, PathProblem, explain_code, lint_files, report, ruleset_files, wants_colour

    try:
        if explain is not None:
            if paths:
                raise PathProblem("--explain CODE says what a code means: give it without paths")
            typer.echo(explain_code(explain))  # our own text: the code named is said only when it is one
            return
        if not paths:
            raise PathProblem("name the ruleset files or folders to check (or --explain CODE)")
        choice = Choice(select or (), ignore or ())
        files = ruleset_files(paths)
        results = lint_files(files, root, settings or ())
    except PathProblem as e:
        raise _usage(str(e)) from None
    colour = format is OutputFormat.text and wants_colour(sys.stdout)
    raise typer.Exit(report(files, results, format.value, typer.echo, choice, quiet, colour))


@app.command(cls=_Command, short_help="Print the JSON Schema of ruleset files.")
def schema() -> None:
    """Print the JSON Schema of ruleset files, for editors and other tools.

    \b
    Example:
      whistdsl schema > ruleset.schema.json
    """
    typer.echo(schema_path().read_text(encoding="utf-8").rstrip())


@app.command("list", cls=_Command, short_help="List the bundled rulesets.")
def list_rulesets() -> None:
    """List the bundled rulesets, with a one-line description each.

    Wherever a command takes a RULESET, a bundled ruleset may be named by its name.

    \b
    Example:
      whistdsl list
    """
    from ..rules.lint import RulesetError, load_rules

    for name, path in bundled_rulesets().items():
        try:
            rules = load_rules(path)
            line = printable(rules.description or rules.name)
        except (RulesetError, FileNotFoundError):
            line = f"(does not lint clean: run {command('lint')})"
        typer.echo(f"{printable(name):32} {line}")


@app.command(cls=_Command, short_help="Print the formula language's names and functions.")
def reference(
    markdown: Annotated[bool, typer.Option("--markdown", help="Print the tables as Markdown, for a file or a web page.")] = False,
) -> None:
    """Print the expression language's reference tables (names per context, functions).

    At a terminal the tables are drawn to fit its width; --markdown prints their Markdown source
    (what the documentation holds).

    \b
    Examples:
      whistdsl reference | less
      whistdsl reference --markdown > reference.md
    """
    from ..language.catalogue import reference_markdown

    text = reference_markdown().rstrip()
    if markdown:
        typer.echo(text)
        return
    from rich.markdown import Markdown

    show(Markdown(text))


class ExplainFormat(str, Enum):
    text = "text"
    markdown = "markdown"


@app.command(cls=_Command, short_help="Print the rules of a ruleset in words.")
def explain(
    rulesets: Annotated[
        list[str],
        typer.Argument(
            metavar="RULESET", help="A ruleset file or a bundled ruleset's name; with --diff, the base and the house rule (or the house rule alone)."
        ),
    ],
    diff: Annotated[
        bool,
        typer.Option(
            "--diff",
            help="Say what the second ruleset (a house rule) changes against the first (its base); with one, against the ruleset it extends.",
        ),
    ] = False,
    format: Annotated[
        ExplainFormat, typer.Option("--format", "-f", metavar="FORMAT", help="text (for a terminal) or markdown.")
    ] = ExplainFormat.text,
    players: Annotated[
        int | None, typer.Option("--players", "-p", metavar="N", help="The rules at a table of N players (default: every count the ruleset allows).")
    ] = None,
    root: Annotated[Path | None, ROOT_OPTION] = None,
    settings: Annotated[list[str] | None, SET_OPTION] = None,
) -> None:
    """Print the rules of a ruleset in words, as a person would write them for the table.

    \b
    Examples:
      whistdsl explain NAME
      whistdsl explain rulesets/NAME.yaml --format markdown > rules.md
      whistdsl explain --diff rulesets/NAME.yaml house.yaml
      whistdsl explain --diff house.yaml    (against the ruleset it extends)
    """
    from .. import explain as words

    if len(rulesets) not in ((1, 2) if diff else (1,)):
        raise _usage(
            "explain --diff takes the base and the house rule, or the house rule alone" if diff else "explain takes one ruleset (two with --diff)"
        )
    if diff and len(rulesets) == 1:
        house = open_rules(rulesets[0], root, settings)
        loaded = [_base_of(rulesets[0], root), house]
    else:
        loaded = [open_rules(r, root, settings if not diff or i == 1 else None) for i, r in enumerate(rulesets)]
    n = players if players is not None else loaded[-1].players_default
    for rules in loaded[-1:]:
        if not rules.players_min <= n <= rules.players_max:
            raise _usage(f"--players must be within {rules.players_min}..{rules.players_max} for {rules.name}")
        if rules.table_problem(n) is not None:
            raise _usage(f"--players {n}: {rules.table_problem(n)}")
    explanation = words.diff(loaded[0], loaded[1], players) if diff else words.explain(loaded[0], players)
    if format is ExplainFormat.markdown:
        typer.echo(words.markdown(explanation).rstrip())
        return
    from rich.console import Console

    words.to_console(Console(highlight=False), explanation)


def _base_of(argument: str, root: Path | None) -> Ruleset:
    """The ruleset `argument` extends, for `explain --diff HOUSE`; a usage error when it extends none."""
    from ..rules.lint import extended_base

    found = extended_base(argument, root)
    if found is None:
        raise _usage(
            f"explain --diff {argument}: it extends no ruleset, so there is no base to compare it with; name one: {command('explain', '--diff', 'BASE', argument)}"
        )
    base, folder = found
    return open_rules(str(base), folder)


@app.command("compile", cls=_Command, short_help="Print the Python the compiled engine writes for a ruleset.")
def compile_ruleset(
    ruleset: Annotated[str, typer.Argument(metavar="RULESET", help="A ruleset file or a bundled ruleset's name.")],
    players: Annotated[int | None, typer.Option("--players", "-p", metavar="N", help="Players at the table (default: the ruleset's).")] = None,
    root: Annotated[Path | None, ROOT_OPTION] = None,
    settings: Annotated[list[str] | None, SET_OPTION] = None,
) -> None:
    """Print the Python the compiled engine writes for a ruleset's hands at one table size.

    \b
    Example:
      whistdsl compile house.yaml --players 4
    """
    from ..engine.errors import RuleError
    from ..engine.table import table_facts

    rules = open_rules(ruleset, root, settings)
    n = players if players is not None else rules.players_default
    if not rules.players_min <= n <= rules.players_max:
        raise _usage(f"--players must be within {rules.players_min}..{rules.players_max} for {rules.name}")
    if rules.table_problem(n) is not None:
        raise _usage(f"--players {n}: {rules.table_problem(n)}")
    try:
        compiled = table_facts(rules, n).compiled
    except RuleError as e:
        _err(str(e))
        raise typer.Exit(1) from None
    lines = compiled.source.rstrip("\n").split("\n")
    lines += ["", "# Left to the interpreter (game.py):" if compiled.interpreted else "# Nothing is left to the interpreter."]
    lines += [f"# - {note}" for note in compiled.interpreted]
    typer.echo("\n".join(printable(line) for line in lines))


def _number(value: int | Fraction) -> str:
    return str(value)


@app.command(cls=_Command, short_help="Print the points of a bid and its tricks, or the whole table.")
def score(  # noqa: C901 an option a branch
    ruleset: Annotated[str, typer.Argument(metavar="RULESET", help="A ruleset file or a bundled ruleset's name.")],
    cards: Annotated[int, typer.Option("--cards", "-c", metavar="N", help="The hand size (1 or more).", min=1)],
    bid: Annotated[int | None, typer.Option("--bid", "-b", metavar="N", help="The bid.", min=0)] = None,
    tricks: Annotated[int | None, typer.Option("--tricks", "-t", metavar="N", help="Tricks taken.", min=0)] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", metavar="N", help="Players at the table (default: the ruleset's).")] = None,
    trump: Annotated[str, typer.Option("--trump", metavar="SUIT", help="spades, hearts, diamonds, clubs or none.")] = "none",
    kind: Annotated[str, typer.Option("--kind", metavar="KIND", help="The hand's kind: normal, or a name from the ruleset's `kinds`.")] = "normal",
    hand: Annotated[int, typer.Option("--hand", metavar="N", help="The hand's number in the game (1 or more).", min=1)] = 1,
    root: Annotated[Path | None, ROOT_OPTION] = None,
    settings: Annotated[list[str] | None, typer.Option("--set", metavar="NAME=VALUE", help=SCORE_SET_HELP)] = None,
    others: Annotated[str | None, typer.Option("--others", metavar="B/T,B/T,...", help=OTHERS_HELP)] = None,
    dealer: Annotated[int | None, typer.Option("--dealer", metavar="PLACE", help=DEALER_HELP, min=1)] = None,
) -> None:
    """Print the points the scoring formula gives (one cell, or the whole bid x tricks table).

    \b
    Examples:
      whistdsl score house.yaml --cards 5
      whistdsl score house.yaml --cards 5 --bid 2 --tricks 2
    """
    from ..engine.scoring import hand_points
    from ..language.catalogue import SUITS
    from ..language.environment import trump_env
    from ..rules.ruleset import PlannedHand, hand_setup

    rules = open_rules(ruleset, root)
    rules, given = _score_settings(rules, settings or [])
    players = players if players is not None else rules.players_default
    if not rules.players_min <= players <= rules.players_max:
        raise _usage(f"--players must be within {rules.players_min}..{rules.players_max} for {rules.name}")
    if rules.table_problem(players) is not None:
        raise _usage(f"--players {players}: {rules.table_problem(players)}")
    if others is None and dealer is not None:
        raise _usage("--dealer places the dealer among the seats of --others: give --others too")
    reads_others = rules.points is not None and bool(rules.points.seat_reads)
    if reads_others and others is None:
        sets = ", ".join(name for name, _ in rules.points.seat_reads)  # type: ignore[union-attr]  # reads_others: the ruleset has a points formula
        raise _usage(
            f"scoring.points reads the other seats ({sets}): give their bids and tricks with --others, in bidding "
            "order without this seat (at --set position=N, 1 by default), e.g. --others 2/2,1/0,0/1"
        )
    trump = trump.lower()
    if trump not in (*SUITS, "none"):
        raise _usage(f"--trump must be one of {', '.join(SUITS)}, none")
    if kind not in rules.kinds:
        raise _usage(f"--kind must be one of {', '.join(rules.kinds)}")  # _usage escapes the ruleset's names
    if (bid is None) != (tricks is None) and others is None:
        raise _usage("give both --bid and --tricks, or neither for the whole table")
    for name, value in (("--bid", bid), ("--tricks", tricks)):
        if value is not None and value > cards:
            raise _usage(f"{name} {value} is more than the {cards} cards in the hand")
    try:
        setup = hand_setup(rules, players, PlannedHand(hand, cards, kind), len(rules.planned_hands(players)))
        if setup.cards_left < 0:
            raise _usage(f"--cards {cards}: {setup.playing} players need {cards * setup.playing} cards, but the deck has {rules.deck_count(players)}")
        env = trump_env(setup.env, trump)
        if others is not None:
            table = _other_seats(rules, others, dealer, given, cards, setup.playing, bid, tricks)
            tricks = table.tricks
            if bid is None:  # one row: each bid, with the tricks left to this seat
                typer.echo(f"bid      points (tricks {tricks})")
                for b in range(cards + 1):
                    typer.echo(str(b).ljust(9) + _number(hand_points(rules, env, b, tricks, table.given(b, tricks))))
                return
            typer.echo(_number(hand_points(rules, env, bid, tricks, table.given(bid, tricks))))
            return
        if bid is not None and tricks is not None:
            typer.echo(_number(hand_points(rules, env, bid, tricks, given)))
            return
        width = 6
        header = "bid\\tricks".ljust(11) + "".join(str(t).rjust(width) for t in range(cards + 1))
        typer.echo(header)
        for b in range(cards + 1):
            row = [_number(hand_points(rules, env, b, t, given)) for t in range(cards + 1)]
            typer.echo(str(b).ljust(11) + "".join(cell.rjust(width) for cell in row))
    except Exception as e:  # an evaluation error of the formula (number too large, division by zero)
        from ..language.errors import EvalError

        if isinstance(e, EvalError):
            _err(f"the scoring formula cannot be evaluated here: {e}")
            raise typer.Exit(1) from None
        raise


OTHERS_HELP = (
    "The other playing seats' results, in bidding order without this seat, for formulas that read the "
    "other seats (dealer.bid, count(others, made)): BID/TRICKS each, or BID/TRICKS/TOTAL, e.g. "
    "--others 2/2,1/0,0/1. This seat bids at --set position=N (1 by default); the tricks of all seats "
    "add up to --cards (--tricks defaults to the tricks left; without --bid, every bid is shown)."
)
DEALER_HELP = (
    "With --others: the dealer's place in the bidding order (1 = bids first). By default where the "
    "ruleset puts it: last when the seat after the dealer bids first, first when the dealer does."
)
SCORE_SET_HELP = (
    "Set a parameter of the ruleset, or any name the scoring formula sees (repeatable): "
    "--set total=80, --set is_dealer=true, --set streak=2 (a running value)."
)
#: Names of the scoring context that `score` sets with an option of their own.
_SCORE_OPTIONS = {
    **dict.fromkeys(("seats", "others", "earlier", "later"), "--others"),
    "bid": "--bid",
    "tricks": "--tricks",
    "hand_size": "--cards",
    "players": "--players",
    "trump": "--trump",
    "kind": "--kind",
    "hand_number": "--hand",
}


class _OtherSeats:
    """`score --others`: every playing seat's row, in bidding order, this seat's filled in per bid."""

    def __init__(self, rows: list[dict], index: int, tricks: int, given: dict):
        self.rows, self.index, self.tricks, self._given = rows, index, tricks, given

    def given(self, bid: int, tricks: int) -> dict:
        """The names `--set` gives, with this seat's row and the seat sets for `bid`."""
        from ..language.environment import result_facts, seat_sets

        rows = list(self.rows)
        mine = dict(rows[self.index])
        result_facts(mine, bid, tricks)
        rows[self.index] = mine
        out = dict(self._given)
        out.update(seat_sets(tuple(rows), self.index))
        return out


def _other_seats(
    rules: Ruleset, text: str, dealer: int | None, given: dict, cards: int, playing: int, bid: int | None, tricks: int | None
) -> _OtherSeats:
    """Read `--others B/T,...` (and `--dealer`): usage errors (exit 2) for a table that cannot be."""
    from ..language.catalogue import Type
    from ..language.environment import seat_row
    from ..language.values import Number, read_value
    from ..rules.ruleset import FirstBidder, start_running

    results: list[tuple[int, int, Number]] = []
    for n, item in enumerate(text.split(","), 1):
        parts = item.strip().split("/")
        try:
            if len(parts) not in (2, 3):
                raise ValueError
            b, t = int(parts[0]), int(parts[1])
            total = read_value(Type.NUMBER, parts[2]) if len(parts) == 3 else 0
        except ValueError:
            raise _usage(f"--others: seat {n} is `{item.strip()}`; write BID/TRICKS or BID/TRICKS/TOTAL, e.g. 2/1 or 2/1/35") from None
        for word, value in (("bid", b), ("tricks", t)):
            if not 0 <= value <= cards:
                raise _usage(f"--others: seat {n}'s {word} {value} is not within 0..{cards} (the hand has {cards} cards)")
        results.append((b, t, total))
    if len(results) != playing - 1:
        raise _usage(
            f"--others gives {len(results)} seat(s), but {playing} seats play this hand: give the other "
            f"{playing - 1}, in bidding order without this seat"
        )
    position = given.get("position", 1)
    if type(position) is not int or not 1 <= position <= playing:
        raise _usage(f"--set position={position}: a place in the bidding order, 1..{playing}")
    taken = sum(t for _, t, _ in results)
    if tricks is None:
        tricks = cards - taken
        if tricks < 0:
            raise _usage(f"--others: the other seats take {taken} tricks, more than the {cards} of the hand")
    elif taken + tricks != cards:
        shown = " + ".join(str(t) for _, t, _ in results)
        raise _usage(
            f"--others: the tricks add up to {taken + tricks} ({shown} and --tricks {tricks}), but a hand of {cards} cards has {cards} tricks"
        )
    default_dealer = 1 if rules.first_bidder == FirstBidder.DEALER and rules.first_bidder_choice is None else playing
    dealer_at = dealer if dealer is not None else default_dealer
    if not 1 <= dealer_at <= playing:
        raise _usage(f"--dealer {dealer_at}: a place in the bidding order, 1..{playing}")
    if "is_dealer" in given and given["is_dealer"] != (dealer_at == position):
        raise _usage(
            f"--set is_dealer={'true' if given['is_dealer'] else 'false'} disagrees with the table: the dealer bids at place "
            f"{dealer_at} and this seat at {position} (give --dealer {position} to make this seat the dealer)"
        )
    given = {**given, "is_dealer": dealer_at == position, "position": position}
    running = start_running(rules, playing)
    rows: list[dict] = []
    others_left = iter(results)
    for place in range(1, playing + 1):
        if place == position:
            b, t, total = bid or 0, tricks, given.get("total", 0)
        else:
            b, t, total = next(others_left)
        own = {n: given[n] for n in rules.running_names if n in given} if place == position else {}
        rows.append(seat_row(total=total, is_dealer=place == dealer_at, position=place, running={**running, **own}, bid=b, tricks=t))
    return _OtherSeats(rows, position - 1, tricks, given)


def _score_settings(rules: Ruleset, texts: list[str]) -> tuple[Ruleset, dict]:
    """`score --set`: parameters set the ruleset's table options; every other name is one the
    scoring context sees (its catalogue row gives its type) or a running value."""
    from ..language.catalogue import CONTEXTS, Type
    from ..language.suggestions import did_you_mean
    from ..language.values import read_value
    from ..rules.ruleset import SettingError, read_settings, split_setting

    context = CONTEXTS["scoring"]
    parameters: list[str] = []
    given: dict = {}
    try:
        for text in texts:
            name, value = split_setting(text)
            if rules.parameter(name) is not None:
                parameters.append(text)
                continue
            if name in _SCORE_OPTIONS:
                raise SettingError(f"--set {text}: give `{name}` with {_SCORE_OPTIONS[name]}")
            variable = context.variable(name)
            kind = variable.type if variable is not None else (Type.NUMBER if name in rules.running_names else None)
            if kind is None:
                others = [v.name for v in context.variables if v.name not in _SCORE_OPTIONS] + list(rules.running_names)
                close = did_you_mean(name, [p.name for p in rules.parameters] + others)
                raise SettingError(
                    f"--set {text}: `{name}` is not a parameter of {rules.name} nor a name the scoring formula sees"
                    + (f"; {close}" if close else "")
                    + f" (names: {', '.join([p.name for p in rules.parameters] + others)})"
                )
            if name in given:
                raise SettingError(f"--set {name} is given twice")
            try:
                given[name] = read_value(kind, value)
            except ValueError as e:
                raise SettingError(f"--set {text}: `{name}` is {e}") from None
        if parameters:
            rules = rules.with_parameters(read_settings(rules, parameters))
    except SettingError as e:
        raise _usage(str(e)) from None
    except Exception as e:  # a players.min/max formula that cannot be evaluated with these values
        from ..language.errors import EvalError

        if isinstance(e, EvalError):
            raise _usage(f"--set: {e}") from None
        raise
    return rules, given


@app.command(cls=_Command, short_help="Check a game record against its rules, show its score sheet.")
def replay(
    record: Annotated[Path, typer.Argument(metavar="RECORD", help="A game record (JSON) written by `whistdsl play --record`.")],
    ruleset: Annotated[
        str | None, typer.Option("--ruleset", metavar="RULESET", help="Check against this ruleset instead of the copy in the record.")
    ] = None,
    show: Annotated[bool, typer.Option("--show", help="Print the score sheet.")] = False,
    tricks: Annotated[bool, typer.Option("--tricks", help="With --show: each hand's deal, bids and tricks.")] = False,
    root: Annotated[Path | None, ROOT_OPTION] = None,
    settings: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            metavar="NAME=VALUE",
            help="A parameter's value, for a record that does not state it (format 1, a set-up deal file); "
            "the parameters a record states are the ones it was played with, and a --set that disagrees is an error.",
        ),
    ] = None,
) -> None:
    """Re-run a game record against its rules and report the first disagreement.

    \b
    Examples:
      whistdsl replay game.json
      whistdsl replay game.json --show --tricks
      whistdsl replay game.json --ruleset house.yaml
    """

    from .replaying import replayed, verdict

    code, data, result = replayed(record, lambda: open_rules(ruleset, root) if ruleset is not None else None, settings or (), typer.echo)
    if data is None or result is None:
        raise typer.Exit(code)
    if show:
        _show_record(data, result.game, tricks)
    typer.echo(verdict(record, data, result, ruleset is not None))


def _show_record(data: dict, game, with_tricks: bool) -> None:
    """The record's score sheet (and with `with_tricks` every hand's deal, bids and tricks).
    Player names come from the record: printed escaped, as plain text (never markup)."""
    with output_console() as console:  # plain text without padded line ends when piped
        _print_record(console, game, with_tricks)


def _print_record(console, game, with_tricks: bool) -> None:
    from ..engine.cards import card_text, sort_hand, suit_name
    from ..printable import printable_text
    from .sheet import legend, print_sheet, score_sheet

    names = [printable(name) for name in game.names]

    def say(text: str) -> None:
        console.print(printable_text(text), soft_wrap=True)

    specials = game.rules.specials
    if with_tricks:
        for hand in game.history:
            trump = "no trump" if hand.trump < 0 else f"trump {suit_name(hand.trump)}"
            turn = _turned_words(hand.trump_from, card_text(hand.turn_up, specials) if hand.turn_up is not None else None)
            mark = f" [{hand.mark}]" if hand.mark else ""
            say(f"Hand {hand.number}{mark}: {hand.size} cards, dealer {names[hand.dealer]}, {trump}{turn}")
            for seat, cards in enumerate(hand.deal):
                if cards:
                    say(f"  {names[seat]:>12}: " + " ".join(card_text(c, specials) for c in sort_hand(cards, hand.trump)))
            say("  bids: " + ", ".join(f"{names[s]} {b}" for s, b in hand.bids))
            for i, trick in enumerate(hand.tricks, start=1):
                played = " ".join(f"{card_text(c, specials)}" for _, c in trick.cards)
                say(f"  trick {i:>2}: {played}  -> {names[trick.winner]}")
    winners = list(game.result.winners) if game.result is not None else None
    print_sheet(console, score_sheet(game.rules, names, game.history, winners), legend(game.rules, game.history, game.players))


def run() -> None:
    """The command line in `sys.argv`, through typer (whistdsl.cli's `main`, the entry point,
    has set up the streams and answers a few command lines without coming here)."""
    if len(sys.argv) == 2 and sys.argv[1] in HELP_OPTIONS:
        _help_remembered()
    app()


def _help_remembered() -> None:
    """`whistdsl --help` as typer prints it, kept in the cache for the next time (whistdsl.cli's
    `main` prints it from there without importing typer)."""
    import contextlib
    import io

    from ..cache import write

    shown = io.StringIO()
    code: object = 0
    with contextlib.redirect_stdout(shown):
        try:
            app()
        except SystemExit as e:
            code = e.code
    text = shown.getvalue()
    if code in (0, None) and text:
        write("help", help_key(), text)
    sys.stdout.write(text)
    sys.exit(code)  # type: ignore[arg-type]  # the exit code click gave: an int or None


def _turned_words(source: str, card: str | None) -> str:
    """Where a hand's trump came from, after its trump: `, turned up 7H`, `, the dealer's last
    card 7H`, `, turned before the deal 7H`, `, drawn at random`."""
    if source == "random":
        return ", drawn at random"
    if card is None:
        return ""
    words = {"dealer_last_card": "the dealer's last card", "before_deal": "turned before the deal"}.get(source, "turned up")
    return f", {words} {card}"
