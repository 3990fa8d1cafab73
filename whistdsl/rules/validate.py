"""Validate: loaded ruleset data against schemas/ruleset.schema.json, as positioned findings.

Every schema error becomes a finding at the offending key or value (an unknown key points at
the key itself, with a "did you mean"), and all errors are reported in one run.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING, Any

from ..diagnostics.findings import Finding
from ..language.suggestions import did_you_mean
from ..resources import schema_path
from .load import Loaded, dotted, split_formulas, split_message

if TYPE_CHECKING:  # jsonschema is imported when a schema is first checked (it is slow to import)
    import jsonschema
    from jsonschema.exceptions import ValidationError

LANGUAGE_VERSION = 2

#: The keys that language version 2 added (as paths from the top of a file), each with what it
#: says. A file that uses one states `whistdsl: 2`, so a release that reads only version 1 stops
#: at the version (W204) instead of half-reading the file; version 1 files keep their meaning.
VERSION_2_KEYS: dict[tuple[str, ...], str] = {
    ("decisions",): "the hand's decisions: a trump named by a seat, named calls, blind and hidden bids",
    ("deck", "copies"): "copies of the deck",
    ("deck", "specials"): "special cards",
    ("play", "always_playable"): "special cards playable at any time",
    ("play", "special_led"): "what a special card led asks of the others",
    ("trick",): "the trick winner rules",
    ("bidding", "first", "highest"): "the first bidder chosen by a formula",
    ("bidding", "first", "lowest"): "the first bidder chosen by a formula",
    ("play", "first_lead", "highest"): "the first leader chosen by a formula",
    ("play", "first_lead", "lowest"): "the first leader chosen by a formula",
    ("parameters",): "declared table options",
    ("end",): "the end of the game on a condition",
    ("redeal",): "a hand dealt again",
    ("trump", "from"): "trump from other sources (a card turned before the deal, the dealer's last card, a random suit)",
    ("trump", "turned"): "what becomes of a card turned before the deal",
    ("trump", "seen"): "trump revealed after the bidding",
    ("trump", "specials"): "special cards that are trumps",
    ("trump", "specials_without_trump"): "what trump specials are in a hand without trump",
    ("trump", "super_trumps"): "super trumps ranked by the turned card",
}
#: Keys whose value may be a formula (a text) only in language version 2: a number in version 1
#: (the schema says so; a text there is told that it needs version 2).
VERSION_2_FORMULAS: dict[tuple[str, ...], str] = {("players", key): "a formula of the parameters" for key in ("min", "max", "default")}


@cache
def ruleset_schema() -> dict[str, Any]:
    return json.loads(schema_path().read_text(encoding="utf-8"))  # type: ignore[no-any-return]  # the bundled schema file holds a JSON object


def key_help(path: tuple[str, ...]) -> str:
    """What to write for the missing key at `path` (W201), from its description in the schema:
    `add `points:` under `scoring:`, a number formula: ...`; "" when the schema has none."""
    schema: Any = ruleset_schema()
    for key in path[:-1]:
        schema = schema.get("properties", {}).get(key) if isinstance(schema, dict) else None
    return _add_key_help(schema, path[:-1], path[-1])


def _add_key_help(parent: Any, path: tuple[Any, ...], key: str) -> str:
    """`add `key:` under `path:`, <the schema's description of it>`, or "" without one;
    `parent` is the schema of the mapping at `path`."""
    described = parent.get("properties", {}).get(key) if isinstance(parent, dict) else None
    description = described.get("description", "") if isinstance(described, dict) else ""
    if not isinstance(description, str) or not description:
        return ""
    description = re.split(r"\.\s+(?=[A-Z])", description, maxsplit=1)[0].rstrip(".")  # its first sentence
    if description[:1].isupper() and not description[1:2].isupper():
        description = description[0].lower() + description[1:]
    under = f" under `{dotted(path)}:`" if path else ""
    return f"add `{key}:`{under}, {description}"


def formula_lists(data: Any) -> list[tuple[Any, ...]]:
    """The paths of every list in `data` whose items are formulas: the lists the schema marks with
    `x-formula-items` (the schedule, `winner.rank`, ...), wherever they are. W418 looks for a
    formula YAML's flow list split at a comma in each of them (rules/check.py)."""
    found: list[tuple[Any, ...]] = []

    def walk(schema: Any, value: Any, path: tuple[Any, ...]) -> None:
        if not isinstance(schema, dict):
            return
        if schema.get("x-formula-items") and isinstance(value, list):
            found.append(path)
        for alternative in (*schema.get("anyOf", ()), *schema.get("oneOf", ())):
            walk(alternative, value, path)
        if isinstance(value, dict):
            properties = schema.get("properties", {})
            for key, item in value.items():
                sub = properties.get(key, schema.get("additionalProperties"))
                walk(sub, item, (*path, key))
        elif isinstance(value, list) and isinstance(schema.get("items"), dict):
            for i, item in enumerate(value):
                walk(schema["items"], item, (*path, i))

    walk(ruleset_schema(), data, ())
    return list(dict.fromkeys(found))


@cache
def _validator() -> jsonschema.Draft202012Validator:
    import jsonschema

    return jsonschema.Draft202012Validator(ruleset_schema())


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    return text if len(text) <= 40 else text[:37] + "..."


#: What the schema's patterns mean, in words. A pattern ends in `(?![\\s\\S])` (nothing after
#: this), never `$`: in Python's `re`, which jsonschema uses, `$` also matches before a final
#: newline, so `^[a-z_]+$` would let `"abc\\n"` through; ECMA 262 reads both forms the same.
_PATTERN_WORDS = {
    "^[A-Za-z0-9_]+(?![\\s\\S])": "letters, digits and _ only",
    "^[a-z_][a-z0-9_]*(?![\\s\\S])": "lowercase letters, digits and _ only, not starting with a digit (formulas use this name)",
    "^\\s*(highest|lowest)\\s+\\S": "`highest FORMULA` or `lowest FORMULA`, e.g. `highest total`",
    "^\\s*(first|last|highest|lowest)\\s+[a-z_]": "`first`, `last`, `highest` or `lowest`, then a special card's name, `trump`, `led` or `suited`, e.g. `highest trump`",
    "^[A-Za-z][A-Za-z0-9]{0,2}(?![\\s\\S])": "1 to 3 letters or digits, starting with a letter, e.g. W",
}


def _alternatives(error: ValidationError) -> list[list[ValidationError]]:
    """The sub-errors of an anyOf/oneOf, one list per alternative, in the schema's order."""
    groups: dict[int, list[ValidationError]] = {}
    for sub in error.context or ():
        groups.setdefault(sub.relative_schema_path[0], []).append(sub)  # type: ignore[arg-type]  # anyOf/oneOf sub-errors' schema paths start with the alternative's index
    return [groups[k] for k in sorted(groups)]


def _leaf_errors(error: ValidationError) -> Iterator[ValidationError]:
    """For anyOf/oneOf, the errors of the alternative the value was meant to be.

    An alternative whose `type` fits the value is the one meant (a mapping under `direction`
    is the per-phase form, so its unknown keys and bad values are the problems); when no
    alternative has the value's type, the anyOf error itself is the finding ("should be
    this or that, not a list").
    """
    if error.validator not in ("anyOf", "oneOf") or not error.context:
        yield error
        return
    fitting = [alternative for alternative in _alternatives(error) if not any(e.validator == "type" and not e.relative_path for e in alternative)]
    if not fitting:
        yield error
        return
    for sub in min(fitting, key=len):
        yield from _leaf_errors(sub)


def validate(loaded: Loaded) -> list[Finding]:
    """Every schema problem of the loaded data, each at its key or value."""
    return sorted(set(_findings(loaded, schema_errors(loaded.data))))


def schema_errors(data: Any) -> list[ValidationError]:
    """The schema's errors, with anyOf/oneOf resolved to the alternative meant, and at most a
    type error where a value has the wrong type (its other errors would only repeat it)."""
    leaves = [leaf for error in _validator().iter_errors(data) for leaf in _leaf_errors(error)]
    wrong_type = {tuple(e.absolute_path) for e in leaves if e.validator in ("type", "anyOf", "oneOf")}
    return [
        e for e in leaves if e.validator in ("type", "anyOf", "oneOf", "additionalProperties", "required") or tuple(e.absolute_path) not in wrong_type
    ]


def _findings(loaded: Loaded, errors: list[ValidationError]) -> list[Finding]:
    return [f for error in errors for f in _finding(loaded, error)]


def _finding(loaded: Loaded, error: ValidationError) -> list[Finding]:  # noqa: C901 one wording per kind of schema error
    path = tuple(error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    v = error.validator
    # what the error is about: the schema's value (`required`'s keys, `maxLength`'s 40) and the
    # ruleset's, JSON of any shape; validation sets both (jsonschema's Unset marks an error made by hand)
    schema_value: Any = error.validator_value
    instance: Any = error.instance
    if v == "additionalProperties" and isinstance(instance, dict):
        known = list(schema.get("properties", {}))
        out = []
        for key in instance:
            if key not in known:
                help = did_you_mean(key, known)
                listed = "" if help else f"; known keys: {', '.join(known)}"
                out.append(loaded.where(path + (key,), key=True).finding("W200", f"unknown key `{key}` in {dotted(path)}{listed}", help=help))
        return out
    if v == "required":
        missing = [k for k in schema_value if k not in instance]
        return [loaded.where(path, key=True).finding("W201", f"{dotted(path)} needs `{k}`", help=_add_key_help(schema, path, k)) for k in missing]
    split = _split_formula(loaded, path, error)
    if split is not None:
        return [split]
    if v == "type":
        wanted = schema_value
        wanted = " or ".join(wanted) if isinstance(wanted, list) else wanted
        return [
            loaded.where(path).finding(
                "W202",
                f"{dotted(path)} should be {_type_words(wanted)}, not {_type_of(instance)}"
                + (_flow_pair_hint(loaded, path) or _formula_hint(wanted, instance))
                + (
                    f" ({VERSION_2_FORMULAS[path]} here is language version 2: write `whistdsl: 2` at the top)"  # type: ignore[index]  # an instance path under a ruleset's mappings: names, not indices
                    if path in VERSION_2_FORMULAS and isinstance(instance, str)
                    else ""
                ),
            )
        ]
    if v in ("anyOf", "oneOf"):
        shapes: list[str] = []
        for alternative in schema_value:
            t = alternative.get("type") if isinstance(alternative, dict) else None
            words = _type_words(" or ".join(t) if isinstance(t, list) else t) if t else "another shape"
            if words not in shapes:
                shapes.append(words)
        return [loaded.where(path).finding("W202", f"{dotted(path)} should be {' or '.join(shapes)}, not {_type_of(instance)}")]
    if v == "maxLength" and "propertyNames" in error.schema_path:
        name = instance
        return [
            loaded.where(path + (name,), key=True).finding(
                "W203",
                f"`{_shown(name)}` in {dotted(path)} is {len(name)} characters long; a name has at most {schema_value}",
            )
        ]
    if v == "pattern" and "propertyNames" in error.schema_path:
        name = instance
        words = _PATTERN_WORDS.get(schema_value, f"a name matching {schema_value}")
        return [loaded.where(path + (name,), key=True).finding("W203", f"`{name}` is not a valid name in {dotted(path)}: use {words}")]
    if v == "enum":
        choices: list[str] = []
        for c in schema_value:
            if _shown(c) not in choices:
                choices.append(_shown(c))
        return [loaded.where(path).finding("W203", f"{dotted(path)}: `{_shown(instance)}` is not one of {', '.join(choices)}")]
    if v in ("minimum", "maximum"):
        word = "at least" if v == "minimum" else "at most"
        return [loaded.where(path).finding("W203", f"{dotted(path)} must be {word} {schema_value}, not {instance}")]
    if v in ("minItems", "minLength"):
        return [loaded.where(path).finding("W203", f"{dotted(path)} must not be empty")]
    if v in ("maxItems", "maxLength", "maxProperties"):
        what = {"maxItems": "entries", "maxLength": "characters", "maxProperties": "names"}[v]
        return [loaded.where(path).finding("W203", f"{dotted(path)} has {len(instance)} {what}; at most {schema_value} are allowed")]
    if v == "uniqueItems":
        return [loaded.where(path).finding("W203", f"{dotted(path)} lists an item twice")]
    if v == "pattern":
        words = _PATTERN_WORDS.get(schema_value, f"text matching {schema_value}")
        return [loaded.where(path).finding("W203", f"{dotted(path)}: `{_shown(instance)}` should be {words}")]
    return [loaded.where(path).finding("W203", f"{dotted(path)}: {error.message}")]


def _split_formula(loaded: Loaded, path: tuple, error: ValidationError) -> Finding | None:
    """W418 for a schema error that comes from a formula YAML's flow list split at a comma: a
    list where a formula is wanted (`cards: [min(n, x)]`), or a piece of a list of formulas
    that is not one by itself (`rank: [highest max(total, x)]`)."""
    if error.validator == "type" and isinstance(error.instance, list):
        runs = split_formulas(loaded, path)
        if runs:
            return loaded.where(path + (runs[0][0],)).finding("W418", split_message(error.instance, *runs[0]))
    if path and isinstance(path[-1], int):
        for first, last in split_formulas(loaded, path[:-1]):
            if first <= path[-1] <= last:
                items = loaded.data
                for key in path[:-1]:
                    items = items[key]
                return loaded.where(path[:-1] + (first,)).finding("W418", split_message(items, first, last))
    return None


def _flow_pair_hint(loaded: Loaded, path: tuple) -> str:
    """For an item of a `[ ]` list written `a: b` (YAML reads it as a mapping of one key): quote it."""
    if not path or not isinstance(path[-1], int):
        return ""
    item, items = loaded.ref(path), loaded.ref(path[:-1])
    if item is None or items is None or item is items or item.document is not items.document:
        return ""
    text = item.document.text
    written = text[item.start : item.end].strip()
    if text[items.start : items.start + 1] != "[" or written.startswith("{") or ":" not in written:
        return ""
    quote = "'" if '"' in written else '"'
    return f": YAML reads `{_shown(written)}` inside [ ] as a key and its value; quote the item ({quote}{_shown(written)}{quote})"


def _formula_hint(wanted: str, value: Any) -> str:
    """A yes/no or a list written where a formula (a text) is expected."""
    if "string" not in wanted:
        return ""
    if isinstance(value, bool):
        return f": write a yes/no formula as text, e.g. '{str(value).lower()}' in quotes or `players == 6`"
    if isinstance(value, list):
        return ": write a list as a formula, e.g. `[13, 12, 11]` in quotes or `13 .. 11`"
    return ""


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
            needed = 2 if any(_has_path(layer.data, path) for path in VERSION_2_KEYS) else 1
            out.append(layer.where(()).finding("W201", f"every ruleset file states its language version: add `whistdsl: {needed}`"))
        version = layer.data.get("whistdsl")
        # each file's own version (the schema sees only the merged one, the newest of the chain)
        if "whistdsl" in layer.data and (type(version) is not int or version < 1):
            code, wrong = (
                ("W203", f"must be at least 1, not {version}")
                if type(version) is int
                else ("W202", f"should be a whole number, not {_type_of(version)}")
            )
            out.append(layer.where(("whistdsl",)).finding(code, f"whistdsl {wrong}"))
        if isinstance(version, int) and not isinstance(version, bool) and version > LANGUAGE_VERSION:
            out.append(
                layer.where(("whistdsl",)).finding(
                    "W204",
                    f"this file is written for ruleset language version {version}; this whistdsl reads version {LANGUAGE_VERSION} (upgrade whistdsl)",
                )
            )
        if version == 1:
            for path, what in VERSION_2_KEYS.items():
                if _has_path(layer.data, path):
                    out.append(
                        layer.where(path, key=True).finding(
                            "W205", f"`{'.'.join(path)}` ({what}) is language version 2: write `whistdsl: 2` at the top of this file"
                        )
                    )
    return out


def _has_path(data: Any, path: tuple[str, ...]) -> bool:
    for key in path:
        if not isinstance(data, dict) or key not in data:
            return False
        data = data[key]
    return True


def schema_valid_part(loaded: Loaded, left_out: list[tuple[Any, ...]] | None = None) -> Loaded | None:
    """The loaded data with every part the schema rejects left out, or None if that fails.

    An unknown key is dropped; a mapping that misses a required key, or any value that is
    wrong, is dropped whole; a wrong list item drops its whole list (so the positions of the
    other items stay right). What is left is valid, so later stages may check its formulas:
    lint reports every problem of a file in one run. The path of each part left out is added
    to `left_out` (when given), for those stages to know which sections are whole.
    """
    data = copy.deepcopy(loaded.data)
    for _ in range(4):
        errors = schema_errors(data)
        if not errors:
            return Loaded(data, loaded.values, loaded.keys, loaded.documents, loaded.layers)
        for error in errors:
            if error.validator == "required" and not error.absolute_path:
                # only the language version is required at the top; check_versions reports it
                required: Any = error.validator_value  # the schema's list of keys (validation sets it)
                if set(required) - set(data) != {"whistdsl"}:
                    return None
                data["whistdsl"] = LANGUAGE_VERSION
                continue
            for target in _prune_targets(error):
                while target and isinstance(target[-1], int):
                    target = target[:-1]
                if not target:
                    return None  # the whole ruleset is wrong
                _remove(data, target)
                if left_out is not None:
                    left_out.append(target)
    return None


def _prune_targets(error: ValidationError) -> list[tuple[Any, ...]]:
    path = tuple(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
        return [path + (k,) for k in error.instance if k not in known]
    if error.validator in ("pattern", "maxLength") and "propertyNames" in error.schema_path:
        return [path + (error.instance,)]
    return [path]


def _remove(data: Any, path: tuple[Any, ...]) -> None:
    node = data
    for key in path[:-1]:
        if isinstance(node, dict) and key in node or isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
            node = node[key]
        else:
            return  # already left out with an ancestor
    if isinstance(node, dict):
        node.pop(path[-1], None)
