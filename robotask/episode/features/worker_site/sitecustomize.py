"""Started first in every Dask worker process that :func:`..distributed.open_client` starts.

A Ctrl-C in a terminal interrupts the whole process group, worker processes included. A worker then
died mid-import with a traceback of its own, printed after the command's one line ("interrupted").
The command's own process handles Ctrl-C and closes the cluster, so its workers ignore SIGINT from
their first moment. Python imports ``sitecustomize`` at start-up; this folder is put first on the
workers' ``PYTHONPATH`` only, and any ``sitecustomize`` of the Python installation still runs after.

Why not a mechanism of ``distributed`` (a ``WorkerPlugin``, a ``NannyPlugin``, the worker ``preload``): the
tracebacks come from a worker process that is still in ``multiprocessing.spawn``, re-importing the main
module (``robotask.cli``) before any ``distributed`` code runs in it, so no hook of ``distributed`` is in
place yet. Measured on ``robotask features --collection`` (4 episodes, 2 workers), Ctrl-C 2 s and 3 s after
the start: without this file, the one line plus 1 or 2 ``KeyboardInterrupt`` tracebacks (20–24 lines of
stderr); with it, the one line at every moment. ``tests/test_robustness_kill.py`` checks it.
"""

import importlib.machinery
import importlib.util
import os
import signal
import sys

signal.signal(signal.SIGINT, signal.SIG_IGN)
_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p) != _here]
_spec = importlib.machinery.PathFinder.find_spec("sitecustomize", sys.path)  # the installation's own
if _spec is not None and _spec.loader is not None:
    _spec.loader.exec_module(importlib.util.module_from_spec(_spec))
