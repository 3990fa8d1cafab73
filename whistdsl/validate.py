"""Validate: loaded ruleset data against schemas/ruleset.schema.json, as positioned findings.

Every schema error becomes a finding at the offending key or value (an unknown key points at
the key itself, with a "did you mean"), and all errors are reported in one run.
"""

from __future__ import annotations

import difflib
import json
from functools import cache
from typing import Any, Iterator

import jsonschema
from jsonschema.exceptions import ValidationError

from .findings import Finding
from .load import Loaded
from .resources import schema_path

LANGUAGE_VERSION = 1


@cache
def ruleset_schema() -> dict[str, Any]:
    return json.loads(schema_path().read_text(encoding="utf-8"))


@cache
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(ruleset_schema())


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    return text if len(text) <= 40 else text[:37] + "..."


def _where_name(path: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in path) if path else "the ruleset"


def _leaf_errors(error: ValidationError) -> Iterator[ValidationError]:
    """For anyOf/oneOf, the sub-errors of the alternative that fits the value's type best."""
    if error.validator not in ("anyOf", "oneOf") or not error.context:
        yield error
        return
    instance = error.instance
    fitting = []
    for sub in error.context:
        if sub.validator != "type":
            fitting.append(sub)
    if not fitting:
        yield error
        return
    # prefer the alternative whose errors sit deepest (the value matched its shape)
    best = max(fitting, key=lambda e: len(e.absolute_path))
    if isinstance(instance, (dict, list)) and best.validator not in ("additionalProperties", "required"):
        yield best
        return
    yield from _leaf_errors(best)


def validate(loaded: Loaded) -> list[Finding]:
    findings: list[Finding] = []
    for error in _validator().iter_errors(loaded.data):
        for leaf in _leaf_errors(error):
            findings.extend(_finding(loaded, leaf))
    return sorted(set(findings))


def _finding(loaded: Loaded, error: ValidationError) -> list[Finding]:
    path = tuple(error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    v = error.validator
    if v == "additionalProperties" and isinstance(error.instance, dict):
        known = list(schema.get("properties", {}))
        out = []
        for key in error.instance:
            if key not in known:
                close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
                hint = f"; did you mean `{close[0]}`?" if close else f"; known keys: {', '.join(known)}"
                out.append(
                    loaded.where(path + (key,), key=True).finding("W200", f"unknown key `{key}` in {_where_name(path)}{hint}")
                )
        return out
    if v == "required":
        missing = [k for k in error.validator_value if k not in error.instance]
        return [
            loaded.where(path, key=True).finding("W201", f"{_where_name(path)} needs `{k}`") for k in missing
        ]
    if v == "type":
        wanted = error.validator_value
        wanted = " or ".join(wanted) if isinstance(wanted, list) else wanted
        return [
            loaded.where(path).finding("W202", f"{_where_name(path)} should be {_type_words(wanted)}, not {_type_of(error.instance)}")
        ]
    if v == "propertyNames":
        bad = error.instance
        return [loaded.where(path).finding("W203", f"`{bad}` is not a valid name here ({error.message})")]
    if v == "enum":
        choices = ", ".join(_shown(c) for c in error.validator_value)
        return [loaded.where(path).finding("W203", f"{_where_name(path)}: `{_shown(error.instance)}` is not one of {choices}")]
    if v in ("minimum", "maximum"):
        word = "at least" if v == "minimum" else "at most"
        return [loaded.where(path).finding("W203", f"{_where_name(path)} must be {word} {error.validator_value}, not {error.instance}")]
    if v == "minItems":
        return [loaded.where(path).finding("W203", f"{_where_name(path)} must not be empty")]
    if v == "uniqueItems":
        return [loaded.where(path).finding("W203", f"{_where_name(path)} lists an item twice")]
    if v == "pattern":
        return [loaded.where(path).finding("W203", f"{_where_name(path)}: `{_shown(error.instance)}` should be written as {schema.get('description', 'documented')}")]
    if v == "minLength":
        return [loaded.where(path).finding("W203", f"{_where_name(path)} must not be empty")]
    return [loaded.where(path).finding("W203", f"{_where_name(path)}: {error.message}")]


def _type_words(t: str) -> str:
    words = {
        "object": "a mapping (key: value lines)",
        "array": "a list",
        "string": "a text",
        "integer": "a whole number",
        "boolean": "true or false",
        "string or integer": "a formula (a text or a number)",
    }
    return words.get(t, t)


def _type_of(value: Any) -> str:
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text `{_shown(value)}`"
    if isinstance(value, list):
        return "a list"
    return "a mapping"


def check_versions(loaded_layers: list[Loaded]) -> list[Finding]:
    """Each file of an extends chain states a language version this release can read."""
    out = []
    for layer in loaded_layers:
        if "whistdsl" not in layer.data:
            out.append(layer.where(()).finding("W201", f"every ruleset file states its language version: add `whistdsl: {LANGUAGE_VERSION}`"))
        version = layer.data.get("whistdsl")
        if isinstance(version, int) and not isinstance(version, bool) and version > LANGUAGE_VERSION:
            out.append(
                layer.where(("whistdsl",)).finding(
                    "W204", f"this file is written for ruleset language version {version}; this whistdsl reads version {LANGUAGE_VERSION} (upgrade whistdsl)"
                )
            )
    return out
