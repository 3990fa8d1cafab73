"""`whistdsl simulate`: a tournament of computer players (whistdsl/tournament/: the games, played
in chunks, and their exact tally) and its reports: the bots, the seats and the bidding positions
(the dealer's disadvantage, measured) as tables, JSON or CSV, and a plot.
"""

from __future__ import annotations

import csv
import io
from enum import Enum
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer

from ..language.values import Number, value_text
from ..players.bots import BOTS, DEFAULT_BOT, thinks
from ..players.search import DEFAULT_THINK, KINDS, work_units
from ..printable import printable
from ..records.record import WriteError, refuse_unwritable_target, write_bytes_atomically, write_text_atomically
from ..rules.lint import resolve_ruleset_argument
from ..rules.load import default_root
from ..tournament.games import Simulation, SimulationError
from ..tournament.runner import Summary, simulate
from ..tournament.tally import Histogram, Line
from .options import ROOT_OPTION, SET_OPTION, THINK_OPTION, open_rules
from .options import usage as _usage

#: About this many bins across the drawn score distributions.
PLOT_BINS = 40


def bots_for_seats(text: str, players: int) -> tuple[str, ...]:
    """`--bots` as one kind per seat: one name for every seat, or exactly one per seat.
    Raises ValueError naming the problem."""
    names = tuple(name.strip() for name in text.split(","))
    if not all(names):
        raise ValueError(f"--bots {text!r}: a bot name is empty")
    unknown = [name for name in names if name not in BOTS]
    if unknown:
        raise ValueError(f"unknown bot {unknown[0]!r}; the bots are {', '.join(sorted(BOTS))}")
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise ValueError(f"--bots names {len(names)} bots for {players} players: give one name, or one per seat")
    return names


# ------------------------------------------------------------------ reports


def _share(part: Number, whole: Number) -> float | None:
    return round(float(Fraction(part) / whole), 6) if whole else None


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def _line_json(line: Line, games: int, contracts: tuple[int, int]) -> dict[str, Any]:
    return {
        "games": line.scores.n,
        "mean": _round(line.scores.mean()),
        "sd": _round(line.scores.sd()),
        "ci95": _round(line.scores.ci95()),
        "win_share": _share(line.wins, games),
        "made_share": _share(contracts[1], contracts[0]),
        "contracts": contracts[0],
    }


def summary_json(summary: Summary) -> dict[str, Any]:
    """The summary under stable keys (the JSON of `--format json`)."""
    sim, tally = summary.simulation, summary.tally
    by_bot, by_seat = tally.made_by(0), tally.made_by(1)
    by_bot_position = tally.made_by_pair(0, 2)
    by_position_dealer = tally.made_by_pair(2, 4)
    bots: dict[str, Any] = {}
    for bot in dict.fromkeys(sim.bots):
        line = tally.bots.get(bot, Line())
        entry = _line_json(line, tally.games, by_bot.get(bot, (0, 0)))
        entry["positions"] = {str(p): {"made_share": _share(m, c), "contracts": c} for (b, p), (c, m) in by_bot_position.items() if b == bot}
        entry["histogram"] = {"bin_width": line.histogram.width, "counts": {str(lower): n for lower, n in line.histogram.bins()}}
        bots[bot] = entry
    positions: dict[str, Any] = {}
    for position, (c, m) in tally.made_by(2).items():
        dealer = by_position_dealer.get((position, True), (0, 0))[0]
        positions[str(position)] = {"made_share": _share(m, c), "contracts": c, "dealer_share": _share(dealer, c)}
    return {
        "ruleset": summary.rules_name,
        **({"parameters": summary.parameters} if summary.parameters else {}),
        "players": sim.players,
        "seed": sim.seed,
        "games": tally.games,
        **({"partial": True, "games_asked": sim.games} if summary.partial else {}),
        "bots_in_game_0": list(sim.bots),
        **({"search_work": dict(zip(KINDS, sim.work))} if sim.work is not None else {}),
        "bots": bots,
        "seats": [
            dict(seat=seat, **_line_json(tally.seats.get(seat, Line()), tally.games, by_seat.get(seat, (0, 0)))) for seat in range(sim.players)
        ],
        "positions": positions,
        "hand_sizes": {str(size): {"made_share": _share(m, c), "contracts": c} for size, (c, m) in tally.made_by(3).items()},
        "dealer": {
            ("dealer" if is_dealer else "others"): {"made_share": _share(m, c), "contracts": c} for is_dealer, (c, m) in tally.made_by(4).items()
        },
        "workers": summary.workers,
        "seconds": round(summary.seconds, 3),
        "games_per_second": float(f"{summary.games_per_second:.4g}"),
    }


#: Keys of the JSON summary that measure the machine, not the games.
TIMING_KEYS = ("seconds", "games_per_second", "workers")


def _text(x: Any) -> str:
    if x is None:
        return ""
    return str(x)


def summary_csv(summary: Summary) -> str:
    """One table: a row per bot, seat, bidding position and hand size, then the run's facts."""
    data = summary_json(summary)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["section", "name", "games", "mean", "ci95", "win_share", "made_share", "contracts", "value"])

    def line_row(section: str, name: Any, d: dict[str, Any]) -> list[str]:
        return [section, str(name), *(_text(d.get(k)) for k in ("games", "mean", "ci95", "win_share", "made_share", "contracts")), ""]

    for bot, d in data["bots"].items():
        writer.writerow(line_row("bot", bot, d))
    for d in data["seats"]:
        writer.writerow(line_row("seat", d["seat"], d))
    for position, d in data["positions"].items():
        writer.writerow(line_row("position", position, d))
    for size, d in data["hand_sizes"].items():
        writer.writerow(line_row("hand_size", size, d))
    for who, d in data["dealer"].items():
        writer.writerow(line_row("dealer", who, d))
    for key in ("ruleset", "players", "seed", "games", "partial", "games_asked", "workers", "seconds", "games_per_second"):
        if key in data:  # partial and games_asked: only for a simulation stopped by Ctrl-C
            writer.writerow(["run", key, "", "", "", "", "", "", printable(_text(data[key]))])  # the name from the ruleset
    return out.getvalue()


def _percent(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _mean_ci(d: dict[str, Any]) -> str:
    if d["mean"] is None:
        return "–"
    return f"{d['mean']:.2f}" + ("" if d["ci95"] is None else f" ± {d['ci95']:.2f}")


def render_tables(summary: Summary, console: Any) -> None:
    """The summary as rich tables on `console`."""
    from rich.table import Table
    from rich.text import Text

    from ..printable import printable_text

    data = summary_json(summary)
    kinds = list(data["bots"])
    at_every_seat = f"{kinds[0]} at every seat" if len(kinds) == 1 else "bots " + ",".join(summary.simulation.bots) + " (rotated each game)"
    played = f"{data['games']} games" if not summary.partial else f"{data['games']} of {summary.simulation.games} games"
    if summary.partial:
        console.print(Text(f"PARTIAL: stopped by Ctrl-C after {played}; the figures are of those games only", style="bold yellow"))
    console.print(
        Text.assemble(
            printable_text(data["ruleset"], style="bold"),  # the ruleset's name: escaped, never markup
            printable_text("".join(f", {name} = {value_text(v)}" for name, v in summary.parameters.items())),
            f", {data['players']} players, {at_every_seat}, {played}, seed {data['seed']}: "
            f"{summary.speed()} ({data['seconds']:.1f} s, {data['workers']} worker(s))",
        )
    )
    if len(kinds) > 1:  # with one kind of bot at every seat, its line is the whole table's: nothing to compare
        bots = Table(title="Bots (games: seats played; mean final score ± 95% interval)", title_justify="left")
        for column in ("bot", "games", "mean score", "win share", "made share", "contracts"):
            bots.add_column(column, justify="left" if column == "bot" else "right")
        for bot, d in data["bots"].items():
            bots.add_row(bot, str(d["games"]), _mean_ci(d), _percent(d["win_share"]), _percent(d["made_share"]), str(d["contracts"]))
        console.print(bots)
    seats = Table(title="Seats (mean final score ± 95% interval)", title_justify="left")

    for column in ("seat", "games", "mean score", "win share", "made share"):
        seats.add_column(column, justify="right")
    for d in data["seats"]:
        seats.add_row(str(d["seat"]), str(d["games"]), _mean_ci(d), _percent(d["win_share"]), _percent(d["made_share"]))
    console.print(seats)
    names = list(data["bots"])
    positions = Table(title="Made by bidding position", title_justify="left")
    positions.add_column("position", justify="right")
    positions.add_column("contracts", justify="right")
    positions.add_column("made share", justify="right")
    if len(names) > 1:
        for bot in names:
            positions.add_column(bot, justify="right")
    for position, d in data["positions"].items():
        label = position + (" (dealer)" if d["dealer_share"] == 1 else "")
        row = [label, str(d["contracts"]), _percent(d["made_share"])]
        if len(names) > 1:
            row += [_percent(data["bots"][bot]["positions"].get(position, {}).get("made_share")) for bot in names]
        positions.add_row(*row)
    console.print(positions)
    sizes = Table(title="Made by hand size", title_justify="left")
    for column in ("cards", "contracts", "made share"):
        sizes.add_column(column, justify="right")
    for size, d in data["hand_sizes"].items():
        sizes.add_row(size, str(d["contracts"]), _percent(d["made_share"]))
    console.print(sizes)


def plot_summary(summary: Summary, path: Path) -> None:
    """Draw the final-score distribution of each bot and the made share by bidding position
    (PNG or SVG, by the file's suffix). Needs matplotlib (the `plot` extra)."""
    from matplotlib.figure import Figure  # the object API renders with Agg: no display, no pyplot state

    data = summary_json(summary)
    tally = summary.tally
    figure = Figure(figsize=(11, 4.5), layout="constrained")
    scores, made = figure.subplots(1, 2)
    lines = {bot: tally.bots[bot] for bot in data["bots"] if bot in tally.bots}
    shift = max((line.histogram.shift for line in lines.values()), default=0)
    keys = [k << line.histogram.shift for line in lines.values() for k in line.histogram.counts]
    span = (max(keys) - min(keys)) if keys else 0
    while span >> shift > PLOT_BINS:  # wide enough bins to show a shape
        shift += 1
    for bot, line in lines.items():
        histogram = Histogram(shift)
        histogram.merge(line.histogram)
        bins = histogram.bins()
        if not bins:
            continue
        edges = [lower for lower, _ in bins]
        counts = [count / line.scores.n for _, count in bins]
        scores.bar(edges, counts, width=histogram.width, align="edge", alpha=0.5, label=bot)
    scores.set_title(f"Final scores ({data['ruleset']}, {data['players']} players, {data['games']} games)")
    scores.set_xlabel("final score")
    scores.set_ylabel("share of games")
    scores.legend()
    positions = list(data["positions"])
    names = list(data["bots"])
    width = 0.8 / max(1, len(names))
    for i, bot in enumerate(names):
        shares = [data["bots"][bot]["positions"].get(p, {}).get("made_share") or 0 for p in positions]
        made.bar([int(p) - 0.4 + width * (i + 0.5) for p in positions], shares, width=width, label=bot)
    made.set_xticks([int(p) for p in positions])
    made.set_xticklabels([p + ("\ndealer" if data["positions"][p]["dealer_share"] == 1 else "") for p in positions])
    made.set_ylim(0, 1)
    made.set_title("Contracts made by bidding position")
    made.set_xlabel("bidding position (1 bids first)")
    made.set_ylabel("share made")
    made.legend()
    image = io.BytesIO()
    figure.savefig(image, format=path.suffix.lower().lstrip("."))
    write_bytes_atomically(path, image.getvalue())


# ------------------------------------------------------------------ the command


class ReportFormat(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"


def _with(rules: Any) -> str:
    """` with tricks = 13` when the ruleset has parameters (the player range may depend on them)."""
    shown = " and ".join(f"{name} = {value_text(v)}" for name, v in rules.parameter_values.items())
    return f" with {shown}" if shown else ""


def progress_columns() -> tuple[Any, ...]:
    """The columns of the progress bar at a terminal: what is played, the bar, games done of
    games asked, and the time left, labelled."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

    return (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("time left"), TimeRemainingColumn())


def simulate_command(  # noqa: C901 an option a branch
    ruleset: Annotated[str, typer.Argument(metavar="RULESET", help="A ruleset file or a bundled ruleset's name.")],
    games: Annotated[int, typer.Option("--games", "-n", metavar="N", help="How many games to play (1 or more).", min=1)] = 1000,
    players: Annotated[int | None, typer.Option("--players", "-p", metavar="N", help="Players at the table (default: the ruleset's).")] = None,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            metavar="KIND[,KIND...]",
            help=f"Computer players ({', '.join(BOTS)}): one kind for every seat, or one per seat, rotated each game "
            "(by default the computer players of `play`).",
        ),
    ] = DEFAULT_BOT,
    seed: Annotated[int | None, typer.Option("--seed", "-s", metavar="S", help="The tournament's seed (default: a random one, reported).")] = None,
    workers: Annotated[int | None, typer.Option("--workers", "-w", metavar="N", help="Processes to play in (default: every core).", min=1)] = None,
    format: Annotated[ReportFormat, typer.Option("--format", "-f", metavar="FORMAT", help="table, json or csv.")] = ReportFormat.table,
    out: Annotated[Path | None, typer.Option("--out", "-o", metavar="FILE", help="Write the report to FILE instead of standard output.")] = None,
    plot: Annotated[
        Path | None,
        typer.Option("--plot", metavar="FILE", help="Also draw score distributions and made share by position (.png or .svg; needs matplotlib)."),
    ] = None,
    think: Annotated[float | None, THINK_OPTION] = None,
    root: Annotated[Path | None, ROOT_OPTION] = None,
    settings: Annotated[list[str] | None, SET_OPTION] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            metavar="ADDRESS",
            help="Play on the workers of the Dask cluster with this scheduler (tcp://host:8786; needs whistdsl[cluster]).",
        ),
    ] = None,
) -> None:
    """Play many games between computer players and measure bots, seats and bidding positions.

    Ctrl-C stops the games and reports those finished, marked partial (exit 130).

    \b
    Examples:
      whistdsl simulate house.yaml
      whistdsl simulate house.yaml -n 200 -p 4 --bots heuristic,random,heuristic,random
      whistdsl simulate house.yaml --format json --out results.json
    """
    import importlib.util
    import json
    import random

    from rich.console import Console

    rules = open_rules(ruleset, root, settings)
    players = players if players is not None else rules.players_default
    if not rules.players_min <= players <= rules.players_max:
        raise _usage(f"--players must be within {rules.players_min}..{rules.players_max} for {rules.name}{_with(rules)}")
    if rules.table_problem(players) is not None:
        raise _usage(f"--players {players}: {rules.table_problem(players)}")
    try:
        seat_bots = bots_for_seats(bots, players)
    except ValueError as e:
        raise _usage(str(e)) from None
    if plot is not None:
        if plot.suffix.lower() not in (".png", ".svg"):
            raise _usage(f"--plot {plot}: the file must end in .png or .svg")
        if importlib.util.find_spec("matplotlib") is None:
            raise _usage("--plot needs matplotlib: pip install 'whistdsl[plot]'")
    if scheduler is not None:
        if importlib.util.find_spec("distributed") is None:
            raise _usage("--scheduler needs Dask distributed: pip install 'whistdsl[cluster]'")
        if workers is not None:
            raise _usage("--workers counts processes on this machine: with --scheduler the cluster's workers play")
    for option, target in (("--out", out), ("--plot", plot)):
        if target is None:
            continue
        if not target.resolve().parent.is_dir():
            raise _usage(f"{target}: no such directory")
        try:  # refused before the games are played, not after
            refuse_unwritable_target(target)
        except WriteError as e:
            raise _usage(f"{option}: {e}") from None
    path = resolve_ruleset_argument(ruleset)
    assert path is not None  # open_rules found it
    simulation = Simulation(
        ruleset=str(path.absolute()),
        root=str(root.absolute()) if root is not None else default_root(path),  # a worker may run in another folder
        players=players,
        bots=seat_bots,
        seed=seed if seed is not None else random.SystemRandom().randrange(2**32),
        games=games,
        settings=tuple(settings or ()),
        work=work_units(think if think is not None else DEFAULT_THINK, rules, players) if any(thinks(b) for b in seat_bots) else None,
    )
    status = Console(stderr=True)
    try:
        if status.is_terminal:
            from rich.markup import escape
            from rich.progress import Progress

            # refreshed by hand, not by rich's thread: worker processes are forked from this one
            with Progress(*progress_columns(), console=status, transient=True, auto_refresh=False) as bar:
                task = bar.add_task(escape(f"{printable(rules.name)}: playing"), total=games)  # the column reads markup

                def advance(done: int) -> None:
                    bar.advance(task, done)
                    bar.refresh()

                summary = simulate(simulation, workers, advance, rules, scheduler)
        else:
            summary = simulate(simulation, workers, None, rules, scheduler)
    except SimulationError as e:
        typer.echo(f"whistdsl: {printable(e)}", err=True)
        raise typer.Exit(1) from None
    if summary.partial:
        typer.echo(f"whistdsl: interrupted after {summary.tally.games} of {games} games: the report is partial", err=True)
    if format is ReportFormat.json:
        text = json.dumps(summary_json(summary), indent=2) + "\n"
    elif format is ReportFormat.csv:
        text = summary_csv(summary)
    else:
        text = ""
    shown = Console()
    if format is ReportFormat.table and out is None and shown.is_terminal:
        render_tables(summary, shown)
    elif format is ReportFormat.table:
        buffer = io.StringIO()
        render_tables(summary, Console(file=buffer, width=100 if out is not None else shown.width, no_color=True, highlight=False))
        text = "".join(line.rstrip() + "\n" for line in buffer.getvalue().splitlines())  # plain text: no padding at line ends
    try:
        if out is not None:
            write_text_atomically(out, text)  # a temporary file renamed: never half a report
            typer.echo(f"wrote {printable(out)} ({summary.speed()})", err=True)
        elif text:
            typer.echo(printable(text, newline=True), nl=False)
        if plot is not None:
            plot_summary(summary, plot)
            typer.echo(f"drew {printable(plot)}", err=True)
    except WriteError as e:
        typer.echo(f"whistdsl: {e}", err=True)
        raise typer.Exit(1) from None
    if summary.partial:
        raise typer.Exit(130)
