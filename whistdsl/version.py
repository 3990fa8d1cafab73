"""whistdsl's version, on the ground floor so that every layer may read it (the cache's keys,
`whistdsl --version`, a cluster worker's check); the package hands it on as `whistdsl.__version__`,
and the build reads it here (pyproject.toml)."""

__version__ = "0.1.0"
