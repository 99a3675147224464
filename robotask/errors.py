"""The one exception type that the study raises for bad input, its warning, and a run's warning log."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager


class RobotaskError(ValueError):
    """Bad input: the message names the file, key or parameter and what was expected.

    The CLI and the notebook runner print the message alone, without a traceback.
    """


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one :class:`RobotaskError` (the CLI prints ``robotask: error:
    argument --frames: ...``, exit 2), like every other bad input, instead of argparse's usage block
    and exit; its subcommands' parsers are of this class too."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise RobotaskError(f"{message} (see {self.prog} --help)")


class RobotaskWarning(UserWarning):
    """A run that can honestly go on with degraded input: the message states what and by how much."""


class WarningLog:
    """Collect the warnings of a run and show each distinct message once, with its count, at the end.

    Use as a context manager around a whole run (the CLI wraps every subcommand in one)::

        with WarningLog() as log:
            run()
        # stderr: "robotask: warning (x12): video cam1: file missing; its 98 features are zeros"

    Inside, every warning is recorded (``simplefilter("always")``, so a repeat at another line still
    counts) instead of printed; on exit, each distinct (category, message) is printed once in
    first-seen order. ``ROBOTASK_WARNINGS=raw`` leaves Python's own warning display untouched.
    """

    def __init__(self, stream=None, prefix: str = "robotask: warning"):
        self.stream = stream
        self.prefix = prefix
        self.counts: dict[tuple[str, str], int] = {}
        self._raw = os.environ.get("ROBOTASK_WARNINGS") == "raw"
        self._catcher = None

    def __enter__(self) -> WarningLog:
        if self._raw:
            return self
        self._catcher = warnings.catch_warnings()
        self._catcher.__enter__()
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", category=DeprecationWarning)
        warnings.showwarning = self._record
        return self

    def _record(self, message, category, filename, lineno, file=None, line=None) -> None:
        key = (category.__name__, str(message))
        self.counts[key] = self.counts.get(key, 0) + 1

    def lines(self) -> list[str]:
        """One line per distinct warning: prefix, count when repeated, category unless a UserWarning."""
        out = []
        for (category, message), count in self.counts.items():
            times = f" (x{count})" if count > 1 else ""
            kind = "" if category in ("UserWarning", "RobotaskWarning") else f" [{category}]"
            out.append(f"{self.prefix}{times}{kind}: {message}")
        return out

    def __exit__(self, *exc) -> None:
        if self._catcher is not None:
            self._catcher.__exit__(*exc)
            self._catcher = None
        stream = self.stream or sys.stderr
        for text in self.lines():
            print(text, file=stream)
        stream.flush()


def quiet_after_interrupt() -> None:
    """After Ctrl-C: nothing more on stderr but the CLI's one line. A kernel, a Dask cluster or an event
    loop cut short would otherwise print tracebacks as the process ends ("Task exception was never
    retrieved", "Exception ignored in atexit callback")."""
    import logging

    for name in ("asyncio", "distributed", "tornado", "traitlets"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    sys.unraisablehook = lambda _: None


class Terminated(KeyboardInterrupt):
    """SIGTERM (``kill PID``, a job scheduler's stop, ``timeout``), raised in the main thread where Ctrl-C
    raises :class:`KeyboardInterrupt`, so that every clean-up written for Ctrl-C runs for it too."""


TERMINATED_EXIT = 128 + signal.SIGTERM  # 143, what a shell reports for a process that SIGTERM ended


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """While the block runs, SIGTERM is Ctrl-C: the child processes (a kernel, Dask workers, task processes)
    get SIGINT, as a terminal's Ctrl-C gives the whole process group, and :class:`Terminated` is raised
    here. A second SIGTERM during the clean-up is ignored. Outside the main thread this does nothing.

    A process forked inside the block (a task process, a chapter's worker) inherits the handler; there SIGTERM
    is what its parent sends to stop it, so it ends the process as it would without the handler, with no
    traceback from a process that may only have been waiting for work."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    owner = os.getpid()

    def handler(signum: int, frame: object) -> None:
        if os.getpid() != owner:  # a forked child: die of SIGTERM, as without this handler
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        _interrupt_children()
        raise Terminated()

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt_children() -> None:
    """SIGINT to every live descendant of this process (what Ctrl-C in a terminal would have reached)."""
    import psutil

    try:
        children = psutil.Process().children(recursive=True)
    except psutil.Error:
        return
    for child in children:
        try:
            child.send_signal(signal.SIGINT)
        except psutil.Error:
            pass
