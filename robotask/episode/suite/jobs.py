"""Tasks of one suite run side by side in worker processes (``robotask suite --jobs N``).

The tasks of one episode are independent: each builds its samples from the same window set, fits its
heads on one BLAS thread and writes its own folder. ``concurrent.futures`` runs groups of tasks in
forked processes, which inherit the window set instead of receiving a pickled copy. Tasks that
share a fitted model (equal ``fit_key``) stay in one group, so the model is fitted once. Each task
runs exactly as it would alone, so the results do not depend on the number of processes.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ...errors import RobotaskError
from ..tasks.registry import TASKS

_SHARED: dict[str, Any] = {}  # set before the workers fork; they read it instead of a pickled copy


def default_jobs() -> int:
    """The cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def task_groups(task_ids: list[str]) -> list[list[str]]:
    """Tasks grouped by shared fit (``fit_key``), the longest first so that none starts last: pair tasks
    (kind ``binary``, twice the input width), then groups of several tasks, then registry order."""
    groups: dict[str, list[str]] = {}
    for tid in task_ids:
        groups.setdefault(TASKS[tid].fit_key or tid, []).append(tid)
    return sorted(groups.values(), key=lambda g: (TASKS[g[0]].kind != "binary", -len(g)))


def _call(group: list[str]) -> Any:
    return _SHARED["fn"](group, *_SHARED["args"])


def _ignore_ctrl_c() -> None:
    """In each task process: Ctrl-C (sent by a terminal to the whole process group) is the parent's to
    handle. A task process that raised KeyboardInterrupt itself left the pool waiting for it forever."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and end the task processes now (a task's files are written atomically)."""
    processes = list(getattr(pool, "_processes", {}).values())  # the pool keeps no public handle on them
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=5)


def map_groups(fn: Callable[..., Any], groups: list[list[str]], jobs: int, *args: Any) -> Iterator[Any]:
    """``fn(group, *args)`` for every group, in up to ``jobs`` forked processes; yields in completion order.

    ``fn`` and ``args`` reach the workers by fork, not by pickling; the return values are pickled.
    """
    jobs = max(1, min(jobs, len(groups)))
    if jobs == 1 or "fork" not in multiprocessing.get_all_start_methods():
        yield from (fn(g, *args) for g in groups)
        return
    _SHARED.update(fn=fn, args=args)
    pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork"), initializer=_ignore_ctrl_c)
    try:
        futures = [pool.submit(_call, g) for g in groups]
        for future in as_completed(futures):
            yield future.result()
        pool.shutdown(wait=True)
    except (KeyboardInterrupt, GeneratorExit):  # Ctrl-C (the task processes ignore it), or the caller stopped
        _stop(pool)
        raise
    except BrokenProcessPool:
        _stop(pool)
        raise RobotaskError(f"a task process of the suite ended abruptly (killed, or out of memory with {jobs} "
                            "processes side by side); the tasks finished so far are written, run again with "
                            "--jobs 1 to use less memory") from None
    finally:
        _SHARED.clear()
