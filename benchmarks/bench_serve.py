#!/usr/bin/env python3
"""Load on `whistdsl serve`: many tables at once, each with one scripted person and computer
players, all playing at the same time over loopback (docs/serve.md).

It starts `whistdsl serve --bot-pause 0` on 127.0.0.1 with a new database, opens `--tables`
tables through the set-up form (one person's seat and three heuristic players), takes each
person's seat by its invite link, and then every person answers at once over a WebSocket: the
first legal answer of each question, as soon as it is asked. Measured: the time from a
person's answer to the first state on their socket that holds it (p50, p99), answers a second,
the server process's peak memory (VmHWM), and, while playing, how much of a core the server and
these people used, the server's CPU time an answer, and the load average (the figures depend on
what else the machine is doing). It stops after `--seconds` or `--answers` answers
a table, whichever comes first; only addresses on this machine are used.

    python benchmarks/bench_serve.py [--tables 200] [--seconds 60] [--answers 40] [--ruleset oh-hell]
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

import websockets

ADDRESS = re.compile(r"^whistdsl serve: (http://127\.0\.0\.1:\d+)/ ")


def _posted(address: str, path: str, form: dict[str, str], source_address: tuple[str, int] | None = None) -> str:
    """Where a posted form leads (its 303's location), posted from `source_address`."""
    where = urllib.parse.urlsplit(address)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=60, source_address=source_address)
    try:
        body = urllib.parse.urlencode(form).encode()
        connection.request("POST", path, body=body, headers={"content-type": "application/x-www-form-urlencoded"})
        response = connection.getresponse()
        if response.status == 303:
            return response.headers["location"]
        raise SystemExit(f"{path}: {response.status} {response.read()[:300]!r}")
    finally:
        connection.close()


def _page(address: str, path: str) -> str:
    with urllib.request.urlopen(address + path, timeout=60) as response:
        return response.read().decode()


def open_tables(address: str, count: int, ruleset: str) -> list[tuple[str, str]]:
    """(table id, the host's token) for `count` new tables."""
    seats = []
    for index in range(count):  # each from its person's address: the server bounds tables opened per address
        form = {"ruleset": ruleset, "text": "", "players": "4", "seat0": "human", "seat1": "heuristic", "seat2": "heuristic", "seat3": "heuristic"}
        host = _posted(address, "/tables", form, source(index))
        seats.append((host.split("/")[2], host.split("/")[4]))
    return seats


def source(index: int) -> tuple[str, int]:
    """A loopback address of its own for table `index`'s person: the server bounds connections
    per client address, and people at different tables come from different addresses."""
    return (f"127.0.{1 + index // 250}.{1 + index % 250}", 0)


async def invite_of(ws_address: str, table_id: str, host_token: str, index: int) -> str:
    """The table's invite link, from the host's first frame."""
    async with websockets.connect(f"{ws_address}/t/{table_id}/ws", origin=ws_address.replace("ws://", "http://"), local_addr=source(index)) as socket:
        await socket.send(json.dumps({"type": "hello", "token": host_token}))
        frame = json.loads(await socket.recv())
        return frame["links"]["invite"]


async def person(ws_address: str, table_id: str, token: str, answers: int, until: float, latencies: list[float], index: int) -> int:
    """Answer the first legal answer of every question, timing answer -> state; answers given."""
    given = 0
    async with websockets.connect(
        f"{ws_address}/t/{table_id}/ws", origin=ws_address.replace("ws://", "http://"), max_size=2**22, local_addr=source(index)
    ) as socket:
        await socket.send(json.dumps({"type": "hello", "token": token}))
        sent_at, sent_step = None, -1
        while given < answers and time.monotonic() < until:
            try:
                frame = json.loads(await asyncio.wait_for(socket.recv(), max(0.1, until - time.monotonic())))
            except TimeoutError:
                break
            if frame["type"] != "state":
                continue
            if sent_at is not None and frame["step"] > sent_step:
                latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if frame["over"] is not None:
                await socket.send(json.dumps({"type": "rematch"}))
                continue
            question = frame["question"]
            if question is None or sent_at is not None:
                continue
            answer = {"card": None} if question["unseen"] else {question["ask"]: question["options"][0]}
            sent_at, sent_step = time.perf_counter(), frame["step"]
            await socket.send(json.dumps({"type": "answer", "step": frame["step"], "answer": answer}))
            given += 1
    return given


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far, user and system (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_memory(pid: int) -> int:
    """The process's peak resident memory in bytes (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


async def run(address: str, tables: int, ruleset: str, seconds: float, answers: int, server: int) -> tuple[list[float], int, float, float, float]:
    ws_address = address.replace("http://", "ws://")
    hosts = open_tables(address, tables, ruleset)
    seats = []
    for index, (table_id, host_token) in enumerate(hosts):
        invite = await invite_of(ws_address, table_id, host_token, index)
        seat = _posted(address, invite, {"seat": "0", "name": "Bench"}, source(index))
        seats.append((table_id, seat.split("/")[4]))
    latencies: list[float] = []
    started, server_cpu, own_cpu = time.monotonic(), cpu_seconds(server), time.process_time()
    given = await asyncio.gather(*(person(ws_address, t, token, answers, started + seconds, latencies, i) for i, (t, token) in enumerate(seats)))
    return latencies, sum(given), time.monotonic() - started, cpu_seconds(server) - server_cpu, time.process_time() - own_cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--answers", type=int, default=40, help="answers a table at most")
    parser.add_argument("--ruleset", default="oh-hell")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as folder:
        server = subprocess.Popen(
            [sys.executable, "-m", "whistdsl", "serve", "--port", "0", "--db", str(Path(folder) / "t.sqlite3"), "--bot-pause", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        try:
            match = ADDRESS.match(server.stdout.readline())  # type: ignore[union-attr]
            if match is None:
                raise SystemExit(f"the server did not start: {server.stderr.read()}")  # type: ignore[union-attr]
            opened = time.monotonic()
            latencies, given, took, server_cpu, own_cpu = asyncio.run(
                run(match.group(1), options.tables, options.ruleset, options.seconds, options.answers, server.pid)
            )
            memory = peak_memory(server.pid)
        finally:
            server.terminate()
            server.wait(timeout=60)
    if not latencies:
        raise SystemExit("no answer was timed")
    ordered = sorted(latencies)
    p50 = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    print(f"bench_serve: {options.tables} tables of {options.ruleset} (1 person, 3 heuristic players each), {time.monotonic() - opened:.0f} s in all")
    print(f"  answers timed {len(latencies)} ({given / took:.0f} a second over {took:.1f} s)")
    print(f"  answer -> state: p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max {ordered[-1] * 1000:.1f} ms")
    print(f"  server peak memory {memory / 2**20:.0f} MiB")
    print(
        f"  while playing: the server used {server_cpu / took:.0%} of a core ({server_cpu / given * 1e6:.0f} us an answer and the moves it led to), these people {own_cpu / took:.0%}; load average {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
