"""Started first in every Dask worker process that :func:`..distributed.open_client` starts.

A Ctrl-C in a terminal interrupts the whole process group, worker processes included. A worker then
died mid-import with a traceback of its own, printed after the command's one line ("interrupted").
The command's own process handles Ctrl-C and closes the cluster, so its workers ignore SIGINT from
their first moment. Python imports ``sitecustomize`` at start-up; this folder is put first on the
workers' ``PYTHONPATH`` only, and any ``sitecustomize`` of the Python installation still runs after.
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
