"""`python -m whistdsl ARGS` for the tests, at the cost of a fork instead of a new interpreter.

    from cli_runner import whistdsl

    done = whistdsl("lint", "ruleset.yaml", cwd=tmp_path, env={"NO_COLOR": "1"})
    done.returncode, done.stdout, done.stderr  # as subprocess.run(..., capture_output=True) gives them

`whistdsl(*args, cwd=, env=, input=, timeout=, text=, memory_cap=, preexec_fn=)` answers with a
`subprocess.CompletedProcess` as `subprocess.run([sys.executable, "-m", "whistdsl", *args],
capture_output=True, stdin=DEVNULL or input)` does, the same bytes on standard output and standard
error and the same exit code (negative for a signal), and raises `subprocess.TimeoutExpired` the
same way. `env` is added to this process's environment (`env_replace=` replaces it whole);
`memory_cap` caps the address space the command may add (a fresh process's is its whole).

How: the test's process forks, and the child becomes the process `python -m whistdsl` would have
been: its own standard streams on pipes, set up as the interpreter sets them up from the
environment (encoding, errors, buffering), the environment, folder, argv, sys.path, signal
dispositions, warnings filters, logging, exit hooks of a fresh interpreter, and then the module
`whistdsl` run as `__main__` with runpy, exactly as `-m` runs it. What it saves is the
interpreter's start-up and the imports (lark, jsonschema, typer, rich: most of a second of CPU a
command on these machines); the command itself runs in its own process, as a process would, so a
hang is killed at the timeout, a memory cap or a file-size limit (`preexec_fn`) binds only it, and
nothing it changes reaches the tests.

What a fork cannot be is a fresh interpreter where the interpreter reads the environment only at
its start: a different PYTHONHASHSEED, PYTHONPATH, PYTHONIOENCODING other than an encoding,
locale (LANG, LC_*), or a variable that an already imported library read when imported (rich's
and typer's colour and width settings). For such an environment, and where there is no fork, the
command runs as a real process; so it does for every call when WHISTDSL_TESTS_PROCESSES=1, which
runs the suite the slow, certain way. tests/test_cli_runner.py runs a sample of commands both ways
and compares the bytes. Tests of the process itself (start-up time, what is imported, the console
script, a terminal, signals) start real processes and do not use this.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path

__all__ = ["whistdsl", "forks"]

#: Read by the interpreter at start-up, or by a library when imported (in the test's process,
#: long ago): where the asked-for environment differs from this process's in one of these, a
#: fork would not be what a new process is, and the command runs as one.
AT_START = (
    "PYTHONHASHSEED",
    "PYTHONPATH",
    "PYTHONHOME",
    "PYTHONSAFEPATH",
    "PYTHONUTF8",
    "PYTHONWARNINGS",
    "PYTHONDEVMODE",
    "PYTHONOPTIMIZE",
    "PYTHONNOUSERSITE",
    "PYTHONUSERBASE",
    "PYTHONSTARTUP",
    "PYTHONFAULTHANDLER",
    "PYTHONTRACEMALLOC",
    "PYTHONINTMAXSTRDIGITS",
    "PYTHONPYCACHEPREFIX",
    "PYTHONDONTWRITEBYTECODE",
    "PYTHONLEGACYWINDOWSSTDIO",
    "LANG",
    "LANGUAGE",
    "LC_ALL",
    "LC_CTYPE",
    "LC_MESSAGES",
    # rich and typer read these when imported (typer.rich_utils, rich.console's module constants)
    "FORCE_COLOR",
    "PY_COLORS",
    "GITHUB_ACTIONS",
    "TERMINAL_WIDTH",
    "_TYPER_FORCE_DISABLE_TERMINAL",
    "TYPER_STANDARD_TRACEBACK",
    "_TYPER_STANDARD_TRACEBACK",
    "TYPER_USE_RICH",
    "JUPYTER_COLUMNS",
    "JUPYTER_LINES",
)
#: The warnings filters of a fresh interpreter without -W or PYTHONWARNINGS (Python 3.11+).
FRESH_WARNINGS = (
    ("default", DeprecationWarning, "__main__"),
    ("ignore", DeprecationWarning, None),
    ("ignore", PendingDeprecationWarning, None),
    ("ignore", ImportWarning, None),
    ("ignore", ResourceWarning, None),
)


def forks() -> bool:
    """Whether `whistdsl` forks here (rather than starting a process for every command)."""
    return hasattr(os, "fork") and os.environ.get("WHISTDSL_TESTS_PROCESSES", "") in ("", "0")


def whistdsl(
    *args: object,
    cwd: str | Path | None = None,
    env: Mapping[str, str | None] | None = None,
    env_replace: Mapping[str, str] | None = None,
    input: bytes | str | None = None,
    timeout: float = 120,
    text: bool = False,
    memory_cap: int | None = None,
    preexec_fn: Callable[[], None] | None = None,
) -> subprocess.CompletedProcess:
    """`python -m whistdsl ARGS`, as `subprocess.run` with capture_output would answer it (see the
    module's docstring). In `env`, a value of None removes that variable. `input` (bytes, or text
    written as UTF-8) is standard input, else it is /dev/null. With `text`, the output is decoded
    as subprocess decodes it (the locale's encoding, universal newlines)."""
    command = [sys.executable, "-m", "whistdsl", *map(str, args)]
    environment = dict(os.environ if env_replace is None else env_replace)
    for name, value in (env or {}).items():
        if value is None:
            environment.pop(name, None)
        else:
            environment[name] = value
    if isinstance(input, str):
        input = input.encode("utf-8", "surrogatepass")
    folder = os.fspath(cwd) if cwd is not None else None
    if forks() and _forkable(environment):
        _fresh_interpreter()
        _warm()
        done = _forked(command, folder, environment, input, timeout, memory_cap, preexec_fn)
    else:
        done = _process(command, folder, environment, input, timeout, memory_cap, preexec_fn)
    if text:
        done.stdout, done.stderr = _decoded(done.stdout), _decoded(done.stderr)
    return done


def _decoded(data: bytes) -> str:
    import locale

    return data.decode(locale.getpreferredencoding(False)).replace("\r\n", "\n").replace("\r", "\n")


def _forkable(environment: Mapping[str, str]) -> bool:
    if any(environment.get(name) != os.environ.get(name) for name in AT_START):
        return False
    encoding = environment.get("PYTHONIOENCODING")
    return encoding is None or ":" not in encoding


def _limits(memory_cap: int | None, preexec_fn: Callable[[], None] | None, grown_from: int) -> Callable[[], None]:
    def limit() -> None:  # pragma: no cover - runs in the child
        if memory_cap is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (grown_from + memory_cap, grown_from + memory_cap))
        if preexec_fn is not None:
            preexec_fn()

    return limit


def _process(command, folder, environment, input, timeout, memory_cap, preexec_fn) -> subprocess.CompletedProcess:
    return subprocess.run(
        command,
        cwd=folder,
        env=environment,
        input=input,
        stdin=None if input is not None else subprocess.DEVNULL,
        capture_output=True,
        timeout=timeout,
        preexec_fn=_limits(memory_cap, preexec_fn, 0),
    )


def _address_space() -> int:
    """This process's mapped address space in bytes (what RLIMIT_AS counts), 0 where unknown."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _forked(command, folder, environment, input, timeout, memory_cap, preexec_fn) -> subprocess.CompletedProcess:
    stdin_read, stdin_write = os.pipe() if input is not None else (os.open(os.devnull, os.O_RDONLY), -1)
    out_read, out_write = os.pipe()
    err_read, err_write = os.pipe()
    names_read, names_write = os.pipe()
    limit = _limits(memory_cap, preexec_fn, _address_space() if memory_cap is not None else 0)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child: never returns
        code = 70
        try:
            for fd in (stdin_write, out_read, err_read, names_read):
                if fd >= 0:
                    os.close(fd)
            code = _be_python_m_whistdsl(command, folder, environment, (stdin_read, out_write, err_write), limit, names_write)
        except BaseException:
            try:
                import traceback

                os.write(2, traceback.format_exc().encode("utf-8", "backslashreplace"))
            except BaseException:
                pass
        finally:
            os._exit(code)
    for fd in (stdin_read, out_write, err_write, names_write):
        os.close(fd)
    done, imported = _collect(pid, command, stdin_write, input, out_read, err_read, names_read, timeout)
    _import(imported.decode("utf-8").split())
    return done


def _warm() -> None:
    """Import whistdsl's modules here, once, so that the forks find them imported."""
    global _warmed
    if not _warmed:
        import importlib
        import pkgutil

        import whistdsl

        _warmed = True
        for module in pkgutil.walk_packages(whistdsl.__path__, "whistdsl."):
            if not module.name.endswith("__main__"):
                importlib.import_module(module.name)


_warmed = False


def _import(names: list[str]) -> None:
    """Import here what a fork imported (rich's parts, pydantic for typer, ...): the next fork
    finds them imported. Never a `__main__`, and nothing that fails to import by its name."""
    import importlib

    for name in names:
        if name not in sys.modules and not name.endswith("__main__") and not name.startswith("__"):
            try:
                importlib.import_module(name)
            except Exception:
                pass


def _collect(pid, command, stdin_write, input, out_read, err_read, names_read, timeout) -> tuple[subprocess.CompletedProcess, bytes]:
    """Feed standard input and read both outputs until the child closes them, as communicate does;
    and the names of the modules the child imported."""
    chunks: dict[int, list[bytes]] = {out_read: [], err_read: [], names_read: []}
    deadline = time.monotonic() + timeout
    pending = memoryview(input or b"")
    with selectors.DefaultSelector() as selector:
        selector.register(out_read, selectors.EVENT_READ)
        selector.register(err_read, selectors.EVENT_READ)
        selector.register(names_read, selectors.EVENT_READ)
        if stdin_write >= 0:
            if pending:
                os.set_blocking(stdin_write, False)
                selector.register(stdin_write, selectors.EVENT_WRITE)
            else:
                os.close(stdin_write)
        while selector.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                for key in list(selector.get_map().values()):
                    os.close(key.fd)
                raise subprocess.TimeoutExpired(command, timeout, b"".join(chunks[out_read]), b"".join(chunks[err_read]))
            for key, _ in selector.select(left):
                if key.fd == stdin_write:
                    try:
                        pending = pending[os.write(stdin_write, pending[:65536]) :]
                    except BrokenPipeError:
                        pending = pending[:0]
                    if not pending:
                        selector.unregister(stdin_write)
                        os.close(stdin_write)
                    continue
                data = os.read(key.fd, 65536)
                if data:
                    chunks[key.fd].append(data)
                else:
                    selector.unregister(key.fd)
                    os.close(key.fd)
    _, status = os.waitpid(pid, 0)  # the outputs are closed: the child is ending (or left them to a grandchild)
    done = subprocess.CompletedProcess(command, os.waitstatus_to_exitcode(status), b"".join(chunks[out_read]), b"".join(chunks[err_read]))
    return done, b"".join(chunks[names_read])


#: What a fresh `python -m` here starts with, asked of one once: its sys.path without the first
#: entry (the folder it starts in), and the encoding and errors of its standard output when
#: PYTHONIOENCODING does not say them (they follow the locale, which a fork shares).
_fresh: dict | None = None


def _fresh_interpreter() -> dict:
    global _fresh
    if _fresh is None:
        import json

        asked = subprocess.run(
            [
                sys.executable,
                "-c",
                "import json, sys; print(json.dumps({'path': sys.path[1:], 'encoding': sys.stdout.encoding, 'errors': sys.stdout.errors}))",
            ],
            capture_output=True,
            check=True,
            cwd=os.path.dirname(sys.executable),
            stdin=subprocess.DEVNULL,
            env={k: v for k, v in os.environ.items() if k != "PYTHONIOENCODING"},
        )
        _fresh = json.loads(asked.stdout)
    return _fresh


def _be_python_m_whistdsl(command, folder, environment, fds, limit, names) -> int:  # pragma: no cover - the child
    """In the forked child: become what `python -m whistdsl` starts as, run it, and end as it ends."""
    import atexit
    import faulthandler
    import io
    import logging
    import threading
    import warnings

    fresh = _fresh_interpreter()  # before anything changes (normally asked already, in the test's process)
    # signals as a new interpreter has them (subprocess resets SIGPIPE and SIGXFSZ; Python ignores both)
    signal.pthread_sigmask(signal.SIG_SETMASK, ())
    signal.setitimer(signal.ITIMER_REAL, 0)
    try:
        signal.set_wakeup_fd(-1)
    except ValueError:
        pass
    for number in signal.valid_signals():
        if number not in (signal.SIGKILL, signal.SIGSTOP):
            try:
                signal.signal(number, signal.SIG_DFL)
            except (OSError, ValueError, RuntimeError):
                pass
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    faulthandler.disable()
    for target, fd in enumerate(fds):  # in subprocess's order: the streams, the folder, then preexec_fn
        os.dup2(fd, target)
        os.close(fd)
    if folder is not None:
        os.chdir(folder)
    limit()
    os.environ.clear()
    os.environ.update(environment)
    _fresh_streams(io, environment, fresh)
    sys.argv = ["-m", *command[3:]]
    sys.orig_argv = list(command)
    sys.path[:] = [os.getcwd(), *fresh["path"]]
    sys.excepthook, sys.unraisablehook, sys.displayhook = sys.__excepthook__, sys.__unraisablehook__, sys.__displayhook__
    threading.excepthook = threading.__excepthook__
    sys.settrace(None)
    sys.setprofile(None)
    threading.settrace(None)  # type: ignore[arg-type]
    threading.setprofile(None)  # type: ignore[arg-type]
    warnings.resetwarnings()
    for action, category, module in reversed(FRESH_WARNINGS):
        warnings.filterwarnings(action, category=category, module=module or "")
    logging.disable(logging.NOTSET)
    for handler in list(logging.root.handlers):
        logging.root.removeHandler(handler)
    logging.root.setLevel(logging.WARNING)
    import multiprocessing.process

    multiprocessing.process._children = set()  # the test's own workers are not this command's
    atexit._clear()
    threading._threading_atexits.clear()  # the test's process's, e.g. concurrent.futures' joins of its own workers
    before = set(sys.modules)
    code = _run_as_main()
    os.set_inheritable(names, False)
    try:
        os.write(names, "\n".join(set(sys.modules) - before).encode("utf-8"))  # whole: the test's process reads as it comes
    except OSError:
        pass
    os.close(names)
    try:
        threading._shutdown()  # as the interpreter ends: wait for its threads, then run its exit hooks
    except Exception:
        pass
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            if stream is sys.stdout:
                try:
                    sys.stderr.write("Exception ignored on flushing sys.stdout:\n")
                    sys.stderr.flush()
                except Exception:
                    pass
                code = code or 120
    return code


def _run_as_main() -> int:  # pragma: no cover - the child
    """Run whistdsl as `-m` runs it, and the exit code the interpreter would end with."""
    import runpy

    try:
        runpy._run_module_as_main("whistdsl", alter_argv=True)  # what `python -m whistdsl` calls
    except SystemExit as stop:
        return _exit_code(stop.code)
    except KeyboardInterrupt:
        import traceback

        traceback.print_exc()
        sys.stderr.flush()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)  # the interpreter ends by the signal, as here
        return 130
    except BaseException as error:
        sys.excepthook(type(error), error, error.__traceback__)
        return 1
    return 0


def _exit_code(code: object) -> int:  # pragma: no cover - the child
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        sys.stderr.write(f"{code}\n")
    except Exception:
        pass
    return 1


def _fresh_streams(io, environment: Mapping[str, str], fresh: dict) -> None:  # pragma: no cover - the child
    """sys.stdin, sys.stdout and sys.stderr on file descriptors 0, 1 and 2, as the interpreter
    makes them at start-up (Python/pylifecycle.c, create_stdio) for this environment."""
    encoding = environment.get("PYTHONIOENCODING") or fresh["encoding"]
    errors = fresh["errors"]
    unbuffered = bool(environment.get("PYTHONUNBUFFERED")) or sys.flags.unbuffered
    streams = []
    for fd, mode in ((0, "r"), (1, "w"), (2, "w")):
        raw_unbuffered = unbuffered and mode == "w"
        buffer = io.open(fd, mode + "b", buffering=0 if raw_unbuffered else -1, closefd=False)
        terminal = os.isatty(fd)
        stream = io.TextIOWrapper(
            buffer,
            encoding=encoding,
            errors="backslashreplace" if fd == 2 else errors,
            newline="\n",
            line_buffering=not unbuffered and (terminal or fd == 2),
            write_through=raw_unbuffered,
        )
        stream.mode = mode
        streams.append(stream)
    sys.stdin, sys.stdout, sys.stderr = streams
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = streams
