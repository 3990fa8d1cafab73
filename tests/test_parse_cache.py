"""Parsed formulas kept in the per-user cache (language/parser.py `_parsed_before`): the tree
read back is the tree lark gives, a command whose formulas were all parsed before does not import
lark, and a damaged entry is parsed again. (Speed: benchmarks/bench_startup.py, never here.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from whistdsl import cache
from whistdsl.language import errors, parser
from whistdsl.resources import bundled_rulesets

ROOT = Path(__file__).resolve().parent.parent


def formula_texts() -> list[str]:
    """Every formula text of the bundled rulesets (strings of their YAML that parse)."""
    texts: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str) and value.strip():
            texts.add(value)

    for path in bundled_rulesets().values():
        walk(yaml.safe_load(Path(path).read_text(encoding="utf-8")))
    parsed = []
    for text in sorted(texts):
        try:
            parser.parse(text)
        except errors.ExprError:
            continue
        parsed.append(text)
    return parsed


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder and nothing parsed in this process yet."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("WHISTDSL_CACHE_DIR", str(folder))
    monkeypatch.setattr(parser, "_PARSED", {})
    return folder


def test_the_tree_read_back_is_the_tree_lark_gives(fresh: Path, monkeypatch: pytest.MonkeyPatch):
    texts = formula_texts()
    assert len(texts) > 100
    monkeypatch.setenv("WHISTDSL_NO_CACHE", "1")
    from_lark = {text: parser.parse(text) for text in texts}
    monkeypatch.delenv("WHISTDSL_NO_CACHE")
    parser._PARSED.clear()
    for text in texts:
        parser.parse(text)  # parsed by lark and written
    parser._PARSED.clear()
    monkeypatch.setattr(parser, "_parser", lambda: pytest.fail("lark asked to parse a text kept in the cache"))
    assert {text: parser.parse(text) for text in texts} == from_lark


def test_a_damaged_entry_is_parsed_again(fresh: Path):
    text = "if made then 10 + bid * 2 else -(diff ^ 2) / 3"
    right = parser.parse(text)
    key = cache.entry_key("parsed", text)
    for damage in (["Name", 1], ["Nothing", 1, 1], {"fraction": [1, 0]}, [["Literal"]], "text"):
        cache.write("parsed", key, damage)
        parser._PARSED.clear()
        assert parser.parse(text) == right, damage


def test_a_command_whose_formulas_were_parsed_before_does_not_import_lark(tmp_path: Path):
    environment = dict(os.environ, WHISTDSL_CACHE_DIR=str(tmp_path / "cache"))
    environment.pop("WHISTDSL_NO_CACHE", None)
    program = "import sys\nfrom whistdsl import load_rules\nload_rules('serbian')\nprint('lark' in sys.modules)\n"
    said = [
        subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=environment, cwd=ROOT, timeout=300).stdout.strip()
        for _ in range(2)
    ]
    assert said == ["True", "False"]


def test_where_each_part_ends_survives_the_cache(fresh: Path, monkeypatch: pytest.MonkeyPatch):
    text = "(a + b) * c == d"  # `(a + b) * c` is columns 1-11, the whole 1-16 (ends before 17)
    parser.parse(text)
    parser._PARSED.clear()
    monkeypatch.setattr(parser, "_parser", lambda: pytest.fail("lark asked to parse a text kept in the cache"))
    tree = parser.parse(text)
    assert (tree.start_line, tree.start_column, tree.end_line, tree.end_column) == (1, 1, 1, 17)
    product = tree.left
    assert (product.start_column, product.end_column) == (1, 12)
    assert (product.right.column, product.right.end_column) == (11, 12)  # the name `c`
