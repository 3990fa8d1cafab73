"""What every test file shares: the parallel runner's options when the runner is not there, and
bytecode kept for the processes the tests start, and whistdsl's per-user cache in a temporary
folder.

pyproject.toml runs the suite on every core (`-n auto --dist loadgroup`, with pytest-xdist from
the test extra). Without pytest-xdist, or with `-p no:xdist` to debug in one process, those
options are still accepted and do nothing, and the `xdist_group` mark is known: the suite runs
serially, as with `-n 0`.

With PYTHONDONTWRITEBYTECODE set, each of the few hundred `python -m whistdsl` processes the tests
start would compile whistdsl from source again, and each worker would rewrite every test
module's asserts again (a third of a second a process, seconds a worker). The suite keeps that
bytecode instead, outside the source tree (PYTHONPYCACHEPREFIX, a folder in the temporary
directory), so the tree stays as clean as the variable asks.

The bundled rulesets are compiled once per worker (`_compile_bundled_once`): hundreds of tests
play, score, explain or replay each of them, and checking a ruleset (lint's exhaustive meaning
checks) costs more than most of those tests' own work. Only an input that is exactly a bundled
file's text, with the same merged data and settings, is kept; everything else is compiled every
time; a command forked by tests/cli_runner.py compiles for itself, as the process it stands for
would. WHISTDSL_TESTS_COMPILE_EVERY_TIME=1 turns the keeping off.

typer's CliRunner builds whistdsl's click group anew for every `runner.invoke(app, ...)` (all of
its commands, read from their signatures: more than many commands' own work); a process builds
it once. `_build_the_command_line_once` keeps the group built the first time, per worker, for
whistdsl's own app (another Typer app is built every time, as before).

Commands run as processes (`python -m whistdsl`) are forked by tests/cli_runner.py (one helper,
`whistdsl(*args, cwd=, env=, input=)`, documented there), which answers what the process would,
byte for byte, at a fraction of a new interpreter's start-up.

whistdsl's per-user cache (whistdsl/cache.py) lives in a temporary folder for the whole run, never
in the home folder, so tests neither read a stale entry nor leave any behind; the commands tests
run as processes inherit it. The kept games of `whistdsl play` (whistdsl/records/kept.py) go to a
temporary folder too, a new one for every test.

Nothing of the person running the suite reaches the code under test (`_pin_the_surroundings`): the
terminal's width and height are 80 by 24 (COLUMNS, LINES), TERM is xterm-256color, no colour
variable is set (NO_COLOR, FORCE_COLOR, ...: rich, typer and click read them), nor PAGER or LESS,
the locale is C.UTF-8, and HOME is a temporary folder (without XDG folders of its own). This is
done as the suite starts, before rich or typer is imported (some read their variables then),
and pytest-xdist's workers and every process a test starts inherit it. A test of how a width, a
colour setting or a terminal changes the output sets it itself (a pseudo-terminal of its own
size, COLUMNS, NO_COLOR). tests/test_any_terminal.py runs the tests that would notice in narrow,
wide and coloured terminals and in a pseudo-terminal. `PERSON` keeps the person's own values,
for the tools that are not under test and need them (pip's configuration and cache, in
tests/test_wheel.py).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

#: What the code under test sees of its surroundings, whoever runs the suite (see the module's docstring).
PINNED = {"COLUMNS": "80", "LINES": "24", "TERM": "xterm-256color", "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
#: Unset: what a person may set to change colours, widths, messages, their language and the pager (rich, typer
#: and click read these).
UNSET = (
    "NO_COLOR",
    "FORCE_COLOR",
    "PY_COLORS",
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "COLORTERM",
    "TTY_COMPATIBLE",
    "TTY_INTERACTIVE",
    "TERMINAL_WIDTH",
    "JUPYTER_COLUMNS",
    "JUPYTER_LINES",
    "UNICODE_VERSION",
    "GITHUB_ACTIONS",
    "TYPER_USE_RICH",
    "_TYPER_FORCE_DISABLE_TERMINAL",
    "TYPER_STANDARD_TRACEBACK",
    "_TYPER_STANDARD_TRACEBACK",
    "LANGUAGE",
    "PAGER",
    "LESS",
    "WHISTDSL_LANG",  # the language of `whistdsl play`'s words
)
#: The person's home folder, replaced by a temporary one, and the XDG folders, unset (they are then in it).
HOMES = ("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME")
_PERSON_VARIABLE = "WHISTDSL_TESTS_PERSON"


def _pin_the_surroundings() -> tuple[dict[str, str | None], str]:
    """Set what the code under test sees (see the module's docstring). Answers the person's own
    values of the variables changed (a worker, or a suite a test starts, finds the first
    process's pinned already, and its record of the person's), and the temporary home folder."""
    person = json.loads(os.environ.get(_PERSON_VARIABLE) or "null") or {name: os.environ.get(name) for name in (*PINNED, *UNSET, *HOMES)}
    os.environ[_PERSON_VARIABLE] = json.dumps(person)
    home = tempfile.mkdtemp(prefix="whistdsl-test-home-")
    os.environ.update(PINNED, HOME=home)
    for name in (*UNSET, *HOMES[1:]):
        os.environ.pop(name, None)
    return person, home


#: The person's own values of the variables pinned or unset here (None: not set).
PERSON, _HOME = _pin_the_surroundings()
_CACHE = tempfile.mkdtemp(prefix="whistdsl-test-cache-")
os.environ["WHISTDSL_CACHE_DIR"] = _CACHE
os.environ.pop("WHISTDSL_NO_CACHE", None)
#: The kept games (whistdsl/records/kept.py) too: never in the home folder (and each test has its own).
_DATA = tempfile.mkdtemp(prefix="whistdsl-test-data-")
os.environ["WHISTDSL_DATA_DIR"] = _DATA


#: The tests that take seconds each (the longest of a loaded run's `--durations`), and the other
#: cases of tests a plain run samples: marked slow here, in one list, and run only with `--slow`
#: (the README's test command and CI pass it). Measured on a fresh clone of a quiet machine (docs/
#: performance.md): a plain `pytest` (2,111 tests) 1 min 51 s on 2 cores, 207 s of
#: CPU; `pytest --slow` (2,253) 3 min 33 s. Each is named without its parameters: every case of
#: it is slow.
SLOW = frozenset(
    {
        "tests/test_fuzz_rulesets.py::test_every_mutant_of_a_bundled_ruleset_lints_with_findings_or_plays_or_stops_with_a_rule_error",
        "tests/test_fuzz_rulesets.py::test_every_bundled_ruleset_unchanged_plays_a_whole_game",
        "tests/test_fuzz_records.py::test_replay_of_a_mutated_record_rejects_it_disagrees_or_replays_never_crashes",
        "tests/test_lint_cache.py::test_the_command_line_says_the_same_byte_for_byte_cold_and_warm",
        "tests/test_lint_cache.py::test_every_lint_case_and_bundled_ruleset_says_the_same_from_the_cache",
        "tests/test_lint_cache.py::test_a_record_replays_the_same_from_the_cache_and_a_changed_one_is_checked_again",
        "tests/test_expression.py::test_a_well_typed_formula_evaluates_to_its_type_or_raises_only_eval_error",
        "tests/test_expression.py::test_any_text_either_compiles_or_raises_expr_error_never_anything_else",
        "tests/test_parameters.py::test_score_set_sets_parameters_and_every_name_the_scoring_context_sees",
        "tests/test_cluster.py::test_a_cluster_plays_the_games_of_a_local_run_with_the_same_seed",
        "tests/test_cluster.py::test_the_cluster_plays_with_the_parameters_set_here",
        "tests/test_cluster.py::test_a_local_cluster_of_processes_listens_on_this_machine_only",
        "tests/test_lint_contract.py::test_a_ruleset_with_too_many_cases_stops_within_the_budget_and_says_so",
        "tests/test_lint_contract.py::test_the_schedule_is_not_expanded_past_the_cap",
        "tests/test_simulate.py::test_plot_draws_a_png",
        "tests/test_malformed_input.py::test_a_mangled_ruleset_gets_findings_inside_the_file_never_an_exception",
        "tests/test_roles.py::test_score_with_the_other_seats_results",
        "tests/test_lint_findings.py::test_every_finding_is_an_error_or_a_warning_of_its_code_with_a_message",
        "tests/test_nil_and_blind.py::test_whole_highest_bidder_trump_games_follow_the_rules",
        "tests/test_safety_files.py::test_merge_work_grows_with_the_files_not_with_their_product",
        # Each below has a plain twin covering the same behaviour in fewer cases: the rest here.
        # Every ruleset plays a whole watched game at its fewest players in a plain run; here at
        # every other table size (75 games, a fifth of a plain run's CPU).
        "tests/test_variant_games.py::test_every_ruleset_plays_a_whole_watched_game_by_the_rules_at_every_other_table_size",
        # tests/cli_runner.py's fork against a real process: six commands in a plain run, the
        # other sixteen here (each runs twice, once as a new interpreter).
        "tests/test_cli_runner.py::test_every_other_forked_command_of_the_sample_says_what_the_process_says",
        # Fuzzed keystrokes at a pseudo-terminal (eight whole sessions); tests/test_play_cli.py's
        # terminal tests (keys, Ctrl-C, end of input, a narrow terminal) run in a plain run.
        "tests/test_fuzz_keystrokes.py::test_keystrokes_at_the_terminal_never_break_play_and_no_illegal_move_is_accepted",
        # `whistdsl serve`: whole games in a real Chromium (15 s), a forehead hand in it (4 s), and
        # six whole games whose every frame is checked for hidden cards (18 s);
        # tests/test_serve_protocol.py's whole games run in a plain run.
        "tests/test_serve_browser.py::test_two_people_a_spectator_and_two_computer_players_play_a_whole_game_through_a_reload_and_a_restart",
        "tests/test_serve_browser.py::test_in_a_forehead_hand_each_person_s_page_shows_the_others_cards_and_not_their_own",
        "tests/test_serve_leaks.py::test_no_frame_holds_a_card_its_receivers_view_does_not_hold",
        # The terminal-sensitive tests again in a pytest of their own for each of five terminals.
        "tests/test_any_terminal.py::test_the_terminal_sensitive_tests_pass_whatever_the_terminal_settings",
        "tests/test_any_terminal.py::test_the_terminal_sensitive_tests_pass_in_a_terminal",
    }
)


def _compile_bundled_once() -> None:
    """Keep, for this worker, what `compile_ruleset` answers for a bundled ruleset (see the
    module's docstring). The Ruleset is frozen; the findings list is copied for each caller, and
    a change to the one mutable part, the merged data (`source`), fails the test that made it."""
    if os.environ.get("WHISTDSL_TESTS_COMPILE_EVERY_TIME"):
        return
    from whistdsl.resources import bundled_rulesets
    from whistdsl.rules import check

    compile_ruleset = check.compile_ruleset
    bundled = {path.read_text(encoding="utf-8") for path in bundled_rulesets().values()}
    kept: dict[tuple, tuple] = {}
    worker = os.getpid()

    def compile_once(loaded, settings=()):
        texts = tuple((d.path, d.text) for d in loaded.documents)
        if os.getpid() != worker or not texts or not all(text in bundled for _, text in texts):
            return compile_ruleset(loaded, settings)
        key = (texts, repr(loaded.data), tuple(settings))
        if key not in kept:
            rules, findings = compile_ruleset(loaded, settings)
            kept[key] = rules, findings, repr(rules.source) if rules is not None else ""
        rules, findings, source = kept[key]
        if rules is not None and repr(rules.source) != source:  # shared: a test that changes it would change the others'
            raise AssertionError(f"a test changed the merged data of the bundled ruleset {rules.name!r} in place")
        return rules, list(findings)

    compile_once.__wrapped__ = compile_ruleset  # type: ignore[attr-defined]
    compile_once.__doc__ = compile_ruleset.__doc__
    check.compile_ruleset = compile_once


def _build_the_command_line_once() -> None:
    """typer.testing's CliRunner.invoke(app) builds the click group of whistdsl's app once (see
    the module's docstring)."""
    import typer.testing

    from whistdsl.cli.commands import app

    get_command = typer.testing._get_command
    built = []

    def get_command_once(typer_instance):
        if typer_instance is not app:
            return get_command(typer_instance)
        if not built:
            built.append(get_command(app))
        return built[0]

    typer.testing._get_command = get_command_once


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the SLOW tests, and leave out every slow test unless `--slow` (or a `-m` of one's own) asks for it."""
    for item in items:
        if item.nodeid.split("[")[0] in SLOW:
            item.add_marker(pytest.mark.slow)
    if config.getoption("slow") or config.getoption("markexpr"):
        return
    kept = [item for item in items if item.get_closest_marker("slow") is None]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if item.get_closest_marker("slow") is not None])
        items[:] = kept


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    parser.addoption("--slow", action="store_true", help="also run the tests marked slow (seconds each; CI and the README's test command do)")
    if pluginmanager.has_plugin("xdist"):
        return
    group = parser.getgroup("xdist", "parallel runs (pytest-xdist is not installed or is disabled: one process)")
    # _addoption: pytest keeps lowercase short options for plugins; this stands in for one (xdist itself registers -n so)
    group._addoption("-n", "--numprocesses", dest="numprocesses", metavar="N", help="ignored without pytest-xdist")
    group.addoption("--dist", dest="dist", default="no", metavar="MODE", help="ignored without pytest-xdist")


def _keep_bytecode_outside_the_tree() -> None:
    if not os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return
    prefix = os.environ.get("PYTHONPYCACHEPREFIX") or str(Path(tempfile.gettempdir()) / f"whistdsl-tests-pycache-{os.getuid()}")
    del os.environ["PYTHONDONTWRITEBYTECODE"]  # for the workers and every process a test starts
    os.environ["PYTHONPYCACHEPREFIX"] = prefix
    sys.dont_write_bytecode, sys.pycache_prefix = False, prefix  # and for this process


def pytest_configure(config: pytest.Config) -> None:
    _keep_bytecode_outside_the_tree()
    _compile_bundled_once()
    _build_the_command_line_once()
    if not config.pluginmanager.has_plugin("xdist"):
        config.addinivalue_line("markers", "xdist_group(name): tests that pytest-xdist runs in one worker (here: all run in one process)")


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_CACHE, ignore_errors=True)
    shutil.rmtree(_DATA, ignore_errors=True)
    shutil.rmtree(_HOME, ignore_errors=True)


@pytest.fixture(autouse=True)
def _own_kept_games_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test keeps its games (`whistdsl play` with a person) in a folder of its own."""
    monkeypatch.setenv("WHISTDSL_DATA_DIR", str(tmp_path_factory.mktemp("data")))
