"""Game records: writing them as a game goes (JSON, atomically), and reading, replaying and
resuming them with every hand checked against the rules."""
