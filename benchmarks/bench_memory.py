#!/usr/bin/env python3
"""Peak memory of `whistdsl simulate`: run it as a process (with its worker processes) and report
the peak resident memory of the whole process tree, so that a tournament of a million games can
be shown to stay under a bound (issue 11, "Memory": 200 MB).

The tree is sampled from /proc every `--interval` seconds: the sum of VmRSS over the simulate
process and every descendant (pages a forked worker still shares with its parent count once in
each: an upper bound), and the sum of their PSS (each shared page split between its sharers: the
memory the tree really holds); the highest sums seen are the peaks. The kernel's own high-water
marks are printed beside them (VmHWM of the main process, and getrusage's largest child), which
cannot miss a short peak between samples but count one process at a time.

    python benchmarks/bench_memory.py [--games 1000000] [--ruleset romanian] [--workers 2]
        [--progress] [--interval 0.2] [--trace SECONDS]

`--progress` runs simulate under a pseudo-terminal, so its progress bar is drawn (and its cost
is measured too); without it the report goes to a pipe and no bar is drawn. `--trace 60` prints
the tree's memory once a minute (with --progress, beside the games done so far), so a long run
shows whether memory grows with the games before it ends.
"""

from __future__ import annotations

import argparse
import os
import pty
import re
import resource
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

#: The progress bar's "games done/games" column, as simulate draws it.
DONE = re.compile(rb"(\d+)/\d+")


def _status(pid: int) -> dict[str, str]:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:  # the process ended between listing and reading
        return {}
    return dict(line.split(":", 1) for line in text.splitlines() if ":" in line)


def _kilobytes(field: str) -> int:
    return int(field.split()[0]) if field else 0


def _children() -> dict[int, list[int]]:
    """Every process's children, from /proc/*/stat (the parent pid is the 4th field)."""
    tree: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        tree.setdefault(parent, []).append(int(entry.name))
    return tree


def _pss(pid: int) -> int:
    """kB of the process's proportional share of resident memory (a page shared by n processes
    counts 1/n in each), from /proc/PID/smaps_rollup; 0 if it cannot be read."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return _kilobytes(line.split(":", 1)[1])
    except OSError:
        pass
    return 0


@dataclass
class Sample:
    """One look at the tree: kB resident summed over its processes (pages that forked workers
    share with their parent count in each), kB of proportional share (counted once), processes."""

    rss: int = 0
    pss: int = 0
    processes: int = 0
    root_hwm: int = 0  # the root process's own high-water mark, kB


def sample_tree(root: int) -> Sample:
    """Resident memory of `root` and every descendant."""
    tree = _children()
    sample, pending = Sample(), [root]
    while pending:
        pid = pending.pop()
        status = _status(pid)
        if status:
            sample.rss += _kilobytes(status.get("VmRSS", ""))
            sample.pss += _pss(pid)
            sample.processes += 1
            if pid == root:
                sample.root_hwm = _kilobytes(status.get("VmHWM", ""))
        pending += tree.get(pid, [])
    return sample


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--ruleset", default="romanian")
    parser.add_argument("--bots", default="random")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--interval", type=float, default=0.2, help="seconds between samples of /proc")
    parser.add_argument("--progress", action="store_true", help="run under a pseudo-terminal, with the progress bar")
    parser.add_argument("--trace", type=float, default=0, help="also print the tree's memory every this many seconds")
    parser.add_argument("--scheduler", help="pass --scheduler ADDRESS to simulate (only the local tree is measured)")
    args = parser.parse_args()

    command = [
        sys.executable, "-m", "whistdsl", "simulate", args.ruleset,
        "--games", str(args.games), "--bots", args.bots, "--seed", str(args.seed),
        "--workers", str(args.workers), "--format", "json",
    ]  # fmt: skip
    if args.scheduler:
        command += ["--scheduler", args.scheduler]
    began = time.perf_counter()
    progress: dict[str, int] = {}
    if args.progress:
        leader, follower = pty.openpty()  # stderr a terminal: simulate draws its bar there
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=follower)
        os.close(follower)

        def drain() -> None:  # read the bar so the terminal never fills, and how far it has got
            try:
                while data := os.read(leader, 65536):
                    found = DONE.findall(data)
                    if found:
                        progress["games"] = int(found[-1])
            except OSError:
                pass

        threading.Thread(target=drain, daemon=True).start()
    else:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    output: dict[str, bytes] = {}
    reader = threading.Thread(target=lambda: output.update(out=process.stdout.read()), daemon=True)  # type: ignore[union-attr]
    reader.start()
    peak, samples, root_hwm = Sample(), 0, 0
    last_trace = began
    while process.poll() is None:
        sample = sample_tree(process.pid)
        samples += 1
        if args.trace and time.perf_counter() - last_trace >= args.trace:
            last_trace = time.perf_counter()
            done = f"  {progress.get('games', 0):,} games" if args.progress else ""
            print(f"  {last_trace - began:7.0f} s{done}  RSS {sample.rss / 1024:.1f} MB  PSS {sample.pss / 1024:.1f} MB", flush=True)
        peak.rss, peak.pss = max(peak.rss, sample.rss), max(peak.pss, sample.pss)
        peak.processes = max(peak.processes, sample.processes)
        root_hwm = max(root_hwm, sample.root_hwm)
        time.sleep(args.interval)
    seconds = time.perf_counter() - began
    reader.join()
    largest_child_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # kB on Linux
    if process.returncode != 0:
        errors = b"" if args.progress else process.stderr.read()  # type: ignore[union-attr]
        print(f"simulate failed with exit code {process.returncode}:\n{errors.decode(errors='replace')}", file=sys.stderr)
        return 1
    import json

    played = json.loads(output["out"])["games"]
    print("| games | seconds | peak RSS of the tree, MB | peak PSS of the tree, MB | processes | main VmHWM, MB | largest process, MB |")
    print("|---|---|---|---|---|---|---|")
    print(
        f"| {played:,} | {seconds:.1f} | {peak.rss / 1024:.1f} | {peak.pss / 1024:.1f} | {peak.processes} "
        f"| {root_hwm / 1024:.1f} | {largest_child_kb / 1024:.1f} |"
    )
    print(f"({samples} samples every {args.interval} s; {args.ruleset}, bots {args.bots}, {args.workers} workers"
          f"{', with the progress bar' if args.progress else ''})")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
