"""From a ruleset file to a compiled `Ruleset`: load (strict YAML, extends), validate (the
JSON Schema), check (names, types, and every formula over its domain) and compile."""
