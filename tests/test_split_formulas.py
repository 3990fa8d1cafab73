"""W418, one mechanism: every list whose items are formulas is marked in the schema
(`x-formula-items`), and lint looks for a formula YAML's flow list split at a comma in each."""

from __future__ import annotations

from whistdsl.rules.validate import formula_lists, ruleset_schema


def _arrays(schema, path=()):
    """Every array of the schema: (path, its schema)."""
    if not isinstance(schema, dict):
        return
    if schema.get("type") == "array":
        yield path, schema
    for key, sub in schema.get("properties", {}).items():
        yield from _arrays(sub, (*path, key))
    if isinstance(schema.get("additionalProperties"), dict):
        yield from _arrays(schema["additionalProperties"], (*path, "*"))
    if isinstance(schema.get("items"), dict):
        yield from _arrays(schema["items"], (*path, 0))
    for alternative in schema.get("anyOf", ()):
        yield from _arrays(alternative, path)


def _says_formula(schema) -> bool:
    text = " ".join(str(schema.get(k, "")) for k in ("title", "description")).lower()
    return "formula" in text or any(_says_formula(a) for a in schema.get("anyOf", ()))


def test_every_list_of_formulas_is_marked_and_no_other():
    marked = {path for path, schema in _arrays(ruleset_schema()) if schema.get("x-formula-items")}
    assert marked == {("schedule",), ("winner", "rank")}
    for path, schema in _arrays(ruleset_schema()):
        items = schema.get("items", {})
        # a list that holds formulas says so, of itself or of its items
        holds_formulas = _says_formula(schema) and not schema.get("items", {}).get("enum")
        if path not in marked:
            assert not _says_formula(items), path
        else:
            assert holds_formulas, path


def test_the_lists_are_found_wherever_the_data_has_them():
    data = {"schedule": ["1", {"cards": "2"}], "winner": {"rank": ["highest total"]}, "scoring": {"points": "1"}}
    assert formula_lists(data) == [("schedule",), ("winner", "rank")]
    assert formula_lists({"schedule": "1 .. 3"}) == []  # not a list: nothing to split
