"""Tournaments of computer players, below the command line: games.py what to play and a chunk
of games played, tally.py their exact statistics, runner.py `simulate` (here, in worker
processes, or on a Dask cluster: cluster.py). `whistdsl simulate` (cli/simulate.py) reports them."""
