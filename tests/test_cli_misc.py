"""Small command-line promises not covered elsewhere."""

from __future__ import annotations

import pathlib

from typer.testing import CliRunner

from whistdsl.cli import app


def test_an_unreadable_ruleset_path_is_a_usage_error(tmp_path, monkeypatch):
    target = tmp_path / "locked.yaml"
    target.write_text("whistdsl: 1\n")
    real_open = pathlib.Path.open

    def refusing_open(self, *args, **kwargs):
        if self == target:
            raise PermissionError(13, "Permission denied")
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "open", refusing_open)
    result = CliRunner().invoke(app, ["lint", str(target)])
    assert result.exit_code == 2
    assert "cannot be read: Permission denied" in result.output
    assert "Traceback" not in result.output


def test_reference_prints_the_catalogue_tables():
    result = CliRunner().invoke(app, ["reference", "--markdown"])
    assert result.exit_code == 0
    assert "| `bids_so_far` |" in result.output and "| `tri(number)` -> number |" in result.output


def test_reference_draws_the_tables_as_text_without_markdown_or_long_lines():
    result = CliRunner().invoke(app, ["reference"], env={"COLUMNS": "100"})
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert "bids_so_far" in result.output and "tri(number) -> number" in result.output
    assert "| `" not in result.output and "---|" not in result.output  # drawn, not Markdown source
    assert all(len(line) <= 100 and line == line.rstrip() for line in lines)
