"""The limits that every reader of numbers shares: the formulas (expression.py), the ruleset
loader (rules/load.py) and the record reader (records/replay.py). Here, apart from the
expression language, so that reading a file does not import the parser."""

#: The most digits a number may be written with, in a formula or in any file.
MAX_DIGITS = 40
