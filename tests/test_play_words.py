"""`whistdsl play --lang`: the terminal table says its words in the language asked for (the
catalogue of whistdsl/words/, the browser table's too): Romanian with atu and levată, Serbian
with adut and štih, English by default whatever the machine's locale; WHISTDSL_LANG when the
option is not given; an unknown language refused with exit 2. What is typed stays the same."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from cli_runner import whistdsl
from test_play_cli import TINY, YOU, Terminal, inputs_for_the_whole_game
from typer.testing import CliRunner

from whistdsl.cli import app

runner = CliRunner()


def play(*args: str, env: dict[str, str] | None = None):
    return runner.invoke(app, ["play", *args], env=env)


def test_watching_in_romanian_says_the_hands_trump_and_tricks_in_romanian() -> None:
    result = play("romanian", "--watch", "--seed", "3", "--players", "4", "--lang", "ro")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("Romanian whist: 4 jucători, sămânța 3\nLocuri: ")
    assert "Mâna 1 din 24" in out and "Hand 1 of" not in out
    assert re.search(r"^1 carte, atu . (pică|cupă|caro|treflă) \(cartea întoarsă: ..\); dealer: Player \d$", out, re.M)
    assert "(2 pentru 1 levată, 1 peste)" in out or "pentru 1 levată" in out
    assert "2 levate" in out or "pentru 2 levate" in out  # Romanian's "few" form
    assert "Levate/anunț: " in out and "realizat" in out
    assert "fără atu" in out  # the 8-card hands have no trump
    assert re.search(r"^Câștigător: Player \d \(\d+\)\nanunț / total; \* = contract realizat$", out, re.M)  # the score sheet's words


def test_with_six_players_the_dealer_is_mana_moarta() -> None:
    out = play("romanian", "--watch", "--seed", "3", "--players", "6", "--lang", "ro").stdout
    assert "; dealer: Player 2; mâna moartă: Player 2\n" in out
    assert "\n- = nu a jucat (mâna moartă)\n" in out  # the sheet's legend


def test_watching_in_serbian_says_adut_and_stih_with_serbian_plural_forms() -> None:
    result = play("serbian", "--watch", "--seed", "3", "--lang", "sr-Latn")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Ruka 1 od 28" in out and "13 karata, adut ♠ pik; deli: Player 2" in out
    assert "(6 za 13 štihova, 7 ispod)" in out  # 13: the "other" form
    assert re.search(r"za 2 štiha", out) and re.search(r"za 1 štih,", out)  # "few" and "one"
    assert "bez aduta" in out  # the seed's "Sans" hand
    assert "Uzeto/zvano: " in out
    assert re.search(r"^Pobednik: Player \d \(\d+\)\nzvanje / ukupno; \* = ispunjeno zvanje$", out, re.M)


def test_the_language_may_be_given_as_any_tag_of_it_and_by_whistdsl_lang() -> None:
    assert "Mâna 1 din" in play("romanian", "--watch", "--seed", "1", "--lang", "ro-RO").stdout
    assert "Ruka 1 od" in play("serbian", "--watch", "--seed", "1", "--lang", "sr").stdout
    assert "Ruka 1 od" in play("serbian", "--watch", "--seed", "1", env={"WHISTDSL_LANG": "sr-Latn-RS"}).stdout
    assert "Hand 1 of" in play("serbian", "--watch", "--seed", "1", "--lang", "en", env={"WHISTDSL_LANG": "ro"}).stdout  # the option wins


def test_english_is_the_default_whatever_the_machine_s_locale() -> None:
    done = whistdsl(
        "play", "serbian", "--watch", "--seed", "1", env={"LANG": "sr_RS.UTF-8@latin", "LC_ALL": "ro_RO.UTF-8", "LANGUAGE": "ro"}, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "Hand 1 of 28" in done.stdout and "Ruka" not in done.stdout and "Mâna" not in done.stdout


@pytest.mark.parametrize("args, env", [(["--lang", "fr"], None), (["--lang", "<b>"], None), ([], {"WHISTDSL_LANG": "klingon"})])
def test_an_unknown_language_is_refused_with_a_clear_message_and_exit_2(args: list[str], env: dict[str, str] | None) -> None:
    result = play("serbian", "--watch", *args, env=env)
    assert result.exit_code == 2
    assert "--lang: " in result.stderr and "is not a language of the table's words; known: en, ro, sr-Latn" in result.stderr
    assert "Traceback" not in result.output


#: The prompts of the terminal table in Romanian and Serbian, as the catalogue words them.
PROMPTS = {
    "ro": re.compile(r"^(Anunțul tău|Cartea ta|Apasă Enter ca să-ți joci cartea|Mâna \d+ s-a terminat; apasă Enter \(sau scrie help\)): ", re.M),
    "sr-Latn": re.compile(
        r"^(Tvoje zvanje|Tvoja karta|Pritisni Enter da odigraš kartu|Ruka \d+ je završena; pritisni Enter \(ili otkucaj help\)): ", re.M
    ),
}


def next_prompt(t: Terminal, prompt: re.Pattern, timeout: float = 20) -> str:
    """Wait for the next prompt in the table's language; what was shown since the last one."""
    deadline = time.monotonic() + timeout
    while not prompt.search(t.output, t.seen):
        assert time.monotonic() < deadline and t._read(0.2), f"no prompt came; the terminal shows:\n{t.output[-3000:]}"
    at = prompt.search(t.output, t.seen).end()  # type: ignore[union-attr]
    before, t.seen = t.output[t.seen : at], at
    return before


@pytest.mark.parametrize(
    "language, words",
    [
        (
            "ro",
            [
                "5 cărți, atu ♣ treflă",
                "Anunțul tău: ",
                "Levata 1 din 5, a atacat Player 2",
                "Levata 1 → Player 4",
                "Levate/anunț: ",
                "Cărțile tale: ",
                "Poți anunța de la 0 la 5, dar nu 1: anunțurile ar da cât numărul de cărți (4 + 1 = 5).",
                "Cartea ta e pe frunte. Vezi:",
            ],
        ),
        (
            "sr-Latn",
            [
                "5 karata, adut ♣ tref",
                "Tvoje zvanje: ",
                "Štih 1 od 5",
                "Štih 1 → Player 4",
                "Uzeto/zvano: ",
                "Tvoje karte: ",
                "Tvoja karta je na čelu. Vidiš:",
            ],
        ),
    ],
)
def test_a_person_plays_a_whole_game_at_the_terminal_in_romanian_or_serbian(tmp_path: Path, language: str, words: list[str]) -> None:
    tiny = tmp_path / "tiny.yaml"
    tiny.write_text(TINY, encoding="utf-8")
    seed = 5
    t = Terminal(str(tiny), "--seat", str(YOU), "--bots", "random", "--seed", str(seed), "--lang", language, cwd=tmp_path)
    try:
        for answer in inputs_for_the_whole_game(tiny, seed):
            next_prompt(t, PROMPTS[language])
            t.type(answer)
        assert t.wait() == 0, t.output[-3000:]
    finally:
        t.close()
    said = t.said
    for word in words:
        assert " ".join(word.split()) in said, word
    assert "Your bid" not in said and "Trick 1 of" not in said


def test_what_the_table_asks_back_about_a_typed_card_is_in_the_table_s_language() -> None:
    from types import SimpleNamespace

    from whistdsl.cli.play import typed_card
    from whistdsl.engine.cards import NO_TRUMP, card
    from whistdsl.words import words_for

    queens = SimpleNamespace(hand=[card("Q", "H"), card("Q", "S")], legal=[card("Q", "H"), card("Q", "S")], trump=NO_TRUMP)
    assert typed_card("q", queens, words=words_for("ro")).startswith("care Q: ")
    assert typed_card("q", queens, words=words_for("sr-Latn")).startswith("koji Q: ")
    assert typed_card("10", queens, words=words_for("ro")) == "nu ai nicio carte: zece"
    assert typed_card("", queens, words=words_for("sr-Latn")).startswith("otkucaj kartu, vrednost pa boju: npr. QH")
    assert typed_card("k", queens) == "you hold no K"  # English as it was
