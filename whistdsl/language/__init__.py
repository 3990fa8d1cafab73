"""The expression language: the grammar's parser, the compiled formulas, and the catalogue of names."""
