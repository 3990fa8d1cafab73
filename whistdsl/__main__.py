"""`python -m whistdsl`: the same command line as the `whistdsl` script."""

from .cli import main

main()
