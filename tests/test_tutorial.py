"""The tutorial, followed as written in an empty folder, gives rulesets that lint clean and play.

Each page is done from the top as a reader does it: every file it shows is written (under the
name it gives, over the one before), every command it shows is run in that folder — the
`console` blocks and excerpts, whose outputs must be what the page shows, and the commands of
its `sh` blocks (`mkdir DIR && cd DIR` moves into a new folder). The one difference from a
reader: `whistdsl play FILE`, which asks a person for every bid and card, is played with
`--watch` (computer players in every seat). At the end the ruleset the reader wrote lints
clean and plays a whole game.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import docs_pages
import pytest
from docs_pages import DOCS

TUTORIAL = [DOCS / "tutorial" / "house-rule.md", DOCS / "tutorial" / "wizard.md"]
_SH = re.compile(r"^```sh\n(.*?)^```$", re.M | re.S)


def shell_lines(text: str) -> list[tuple[int, str]]:
    """[(position, line)] of every line of the page's ```sh blocks."""
    return [(m.start(), line) for m in _SH.finditer(text) for line in m.group(1).splitlines() if line.strip()]


@pytest.mark.parametrize("page", TUTORIAL, ids=lambda p: p.stem)
def test_the_tutorial_followed_as_written_gives_a_ruleset_that_lints_clean_and_plays(page: Path, tmp_path: Path) -> None:
    text = page.read_text(encoding="utf-8")
    steps = docs_pages.steps(text)
    todo = sorted([(s.block.start, s) for s in steps] + shell_lines(text), key=lambda item: item[0])
    assert any(s.kind == "file" for s in steps) and any(s.kind == "run" for s in steps)
    folder, written = tmp_path, []
    for _, step in todo:
        if isinstance(step, str):  # a line the reader types at the shell
            words = shlex.split(step)
            if words[:1] == ["mkdir"]:
                assert words[2:4] == ["&&", "cd"] and words[1] == words[4], step
                folder = folder / words[1]
                folder.mkdir()
                continue
            if words[:2] == ["whistdsl", "play"] and "--watch" not in words:
                words.append("--watch")
            ran = docs_pages.run(shlex.join(words), folder)
            assert ran.exit_code == 0, f"{step}:\n{ran.output}"
        elif step.kind == "file":
            (folder / step.argument).write_text(docs_pages.with_snippets(step.block.body), encoding="utf-8")
            written.append(step.argument)
        elif step.kind == "run":
            for command, shown in docs_pages.sessions(step.block.body):
                ran = docs_pages.run(command, folder)
                assert ran.output.rstrip() == shown.rstrip(), f"`{command}` printed:\n{ran.output}"
        else:
            ran = docs_pages.run(step.argument, folder)
            assert ran.exit_code == 0, ran.output
            assert docs_pages.excerpt_missing(step.block.body, ran.output) is None, f"`{step.argument}` printed:\n{ran.output}"
    (ruleset,) = set(written)  # the reader wrote one ruleset, over and over
    linted = docs_pages.run(f"whistdsl lint {ruleset}", folder)
    assert linted.exit_code == 0 and "all clean" in linted.output, linted.output
    played = docs_pages.run(f"whistdsl play {ruleset} --watch --seed 1", folder)
    assert played.exit_code == 0, played.output
    assert re.search(r"^Winners?( \(tied\))?: .*\(-?\d+\)$", played.output, re.M), played.output[-2000:]
