"""The expression language, one stage a module, text to value:

- parser.py: formula text -> syntax tree (the grammar's LALR parser, friendly syntax messages);
- tree.py: the syntax tree's node classes, with their positions;
- checker.py: names, types and contexts resolved against catalogue.py -> a checked tree;
- program.py: a checked tree -> a formula ready to call (closures), `formula` for all three;
- codegen.py: the same checked tree as Python source, for the compiled engine;
- operations.py: what each operation computes, the one definition both runners call;
- values.py, limits.py, errors.py: the values, the limits and the errors of the language;
- catalogue.py: the names, functions and contexts; environment.py: the one builder of the
  environments formulas are evaluated in.
"""
