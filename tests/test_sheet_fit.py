"""The score sheet fits a terminal of any width from 60 columns (cli/sheet.py `fitted_sheet`):
names are abbreviated, never the numbers; each hand's row keeps every bid and running total
whole, however many players and however long their names."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from whistdsl import load_rules
from whistdsl.cli.sheet import abbreviated, fitted_sheet, print_sheet
from whistdsl.engine import Game
from whistdsl.players import RandomPlayer, play_out

LONG_NAMES = ["Bartholomew", "Christabella", "Maximiliane", "Konstantinos", "Alexandrina", "Wilhelmina", "Bonifacius", "Evangelina"]


def played(ruleset: str, players: int, seed: int = 3) -> Game:
    game = Game(load_rules(ruleset), players, seed=seed, names=LONG_NAMES[:players])
    play_out(game, [RandomPlayer() for _ in range(players)])
    return game


def shown(game: Game, width: int, you: int | None = 0) -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=True, color_system=None, legacy_windows=False)
    table = fitted_sheet(game.rules, game.names, game.history, width, game.result.winners if game.result else None, you=you)
    console.print(table)
    return out.getvalue()


@pytest.mark.parametrize(("ruleset", "players"), [("oh-hell", 7), ("kachuful", 8), ("serbian", 6), ("romanian", 6), ("serbian", 4)])
@pytest.mark.parametrize("width", [60, 70, 80])
def test_the_sheet_fits_the_width_and_cuts_no_number(ruleset: str, players: int, width: int) -> None:
    game = played(ruleset, players)
    text = shown(game, width)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= width, text
    assert "…" not in text, "rich cut something"
    numbers = re.findall(r"-?\d+", text)
    for hand in game.history:
        for total in hand.totals:
            assert str(total) in numbers, f"the running total {total} of hand {hand.number} is not shown whole"
    last = game.history[-1]
    assert f"{last.number}" in numbers


def test_names_that_fit_are_shown_whole_and_yours_marked() -> None:
    game = Game(load_rules("serbian"), 4, seed=1, names=["Ana", "Ben", "Cy", "Dan"])
    play_out(game, [RandomPlayer() for _ in range(4)])
    text = shown(game, 80)
    assert re.search(r"Ana \(you\) +Ben +Cy +Dan", text)


def test_abbreviated_names_are_told_apart_and_listed_in_full_under_the_sheet() -> None:
    game = played("oh-hell", 7)
    text = shown(game, 60)
    for name in LONG_NAMES[1:7]:
        assert name in text, "the key under the sheet gives every abbreviated name in full"
    assert abbreviated(["Player 1", "Player 2", "Ana"], 5) == ["Pla.1", "Pla.2", "Ana"]
    assert abbreviated(["Bartholomew", "Bart", "Cy"], 5, you=2) == ["Bart.", "Bart", "you"]
    assert len(set(abbreviated(LONG_NAMES, 4))) == len(LONG_NAMES)


@pytest.mark.parametrize(("ruleset", "players", "width"), [("kachuful", 8, 60), ("serbian", 4, 80)])
def test_the_sheet_at_a_terminal_leaves_no_spaces_at_the_ends_of_its_lines(ruleset: str, players: int, width: int) -> None:
    game = played(ruleset, players)
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=True, color_system="standard", legacy_windows=False)
    table = fitted_sheet(game.rules, game.names, game.history, width, game.result.winners if game.result else None, you=0)
    print_sheet(console, table)
    coloured = out.getvalue()
    assert "\x1b[" in coloured, "a terminal's sheet keeps its colours"
    plain = re.sub(r"\x1b\[[0-9;]*m", "", coloured)
    lines = plain.splitlines()
    assert [line for line in lines if line != line.rstrip()] == []
    # the same sheet as rich prints it, less those spaces: nothing else changed
    assert lines == [line.rstrip() for line in shown(game, width).splitlines()]
