"""Progress for long work: tqdm bars on a terminal, plain occasional lines in logs, nothing when off.

- ``ROBOTASK_PROGRESS=0``: no progress output at all. The notebook runner sets it for the kernels it
  starts: a progress widget in an executed notebook is noise in the static book and would make the
  page load widget JavaScript from the network.
- stderr is a terminal (or a notebook): ``tqdm.auto.tqdm`` bars.
- stderr is not a terminal (CI logs, ``2> file``, a pipe): :class:`PlainProgress`, which never moves
  the cursor. It writes one whole line at a time, such as
  ``features: 300/600 frames (50 %), 120 frame/s``, at most every ``ROBOTASK_PROGRESS_INTERVAL``
  seconds (default 10) per bar and once at the end, so nested or parallel bars cannot interleave
  into garbage: each line is one ``write`` under one lock.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

DEFAULT_INTERVAL = 10.0  # seconds between two plain lines of one bar
_LOCK = threading.Lock()


def enabled() -> bool:
    """Whether progress is shown (``ROBOTASK_PROGRESS`` is not ``0``)."""
    return os.environ.get("ROBOTASK_PROGRESS", "1") != "0"


def interval() -> float:
    """Seconds between two plain progress lines of one bar (``ROBOTASK_PROGRESS_INTERVAL``)."""
    try:
        return max(0.0, float(os.environ.get("ROBOTASK_PROGRESS_INTERVAL", DEFAULT_INTERVAL)))
    except ValueError:
        return DEFAULT_INTERVAL


def _in_notebook() -> bool:
    """Whether we run inside an IPython kernel (where tqdm.auto draws a widget, not escape codes)."""
    shell = sys.modules.get("IPython")
    ip = getattr(shell, "get_ipython", lambda: None)() if shell else None
    return ip is not None and type(ip).__name__ == "ZMQInteractiveShell"


def _is_tty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class PlainProgress:
    """A progress counter that prints plain, rate-limited lines; the subset of tqdm the study uses."""

    def __init__(self, iterable: Iterable | None = None, desc: str | None = None, total: float | None = None,
                 unit: str = "it", disable: bool = False, file: TextIO | None = None, **_: Any):
        self.iterable = iterable
        if total is None and iterable is not None:
            try:
                total = len(iterable)  # type: ignore[arg-type]
            except TypeError:
                total = None
        self.desc, self.total, self.unit, self.disable = desc or "progress", total, unit, disable
        self.file = file
        self.n = 0
        self.start = self._last = time.monotonic()
        self._printed_n: float | None = None
        self.closed = False

    def __iter__(self) -> Iterator:
        if self.iterable is None:
            raise TypeError("PlainProgress without an iterable cannot be iterated")
        try:
            for item in self.iterable:
                yield item
                self.update(1)
        finally:
            self.close()

    def __len__(self) -> int:
        return int(self.total or 0)

    def __enter__(self) -> PlainProgress:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def line(self) -> str:
        """The progress line for the current count, e.g. ``features: 300/600 frames (50 %), 120 frame/s``."""
        elapsed = max(time.monotonic() - self.start, 1e-9)
        plural = self.unit if self.unit.endswith("s") else f"{self.unit}s"
        count = f"{self.n:g}/{self.total:g} {plural}" if self.total else f"{self.n:g} {plural}"
        pct = f" ({100 * self.n / self.total:.0f} %)" if self.total else ""
        return f"{self.desc}: {count}{pct}, {self.n / elapsed:.3g} {self.unit}/s"

    def _emit(self) -> None:
        if self.disable or self._printed_n == self.n:
            return
        text = self.line() + "\n"
        with _LOCK:  # one whole line per write: parallel bars never interleave mid-line
            stream = self.file or sys.stderr
            stream.write(text)
            stream.flush()
        self._printed_n = self.n
        self._last = time.monotonic()

    def update(self, n: float = 1) -> None:
        """Add ``n`` to the count; print a line when the interval has passed."""
        self.n += n
        if not self.disable and time.monotonic() - self._last >= interval():
            self._emit()

    def write(self, text: str) -> None:
        with _LOCK:
            (self.file or sys.stderr).write(text.rstrip("\n") + "\n")

    def close(self) -> None:
        """Print the final line (if anything was counted) once."""
        if self.closed:
            return
        self.closed = True
        if self.n:
            self._emit()


def tqdm(*args: Any, **kwargs: Any) -> Any:
    """A progress bar: ``tqdm.auto.tqdm`` on a terminal or in a notebook, :class:`PlainProgress` otherwise.

    ``disable`` defaults to not :func:`enabled`, and ``ROBOTASK_PROGRESS=0`` switches progress off
    whatever the caller passes.
    """
    kwargs["disable"] = bool(kwargs.get("disable", False)) or not enabled()
    stream = kwargs.get("file") or sys.stderr
    if _is_tty(stream) or _in_notebook():
        from tqdm.auto import tqdm as _tqdm

        return _tqdm(*args, **kwargs)
    return PlainProgress(*args, **kwargs)
