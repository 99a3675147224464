"""A running Dask cluster (``--scheduler ADDRESS``): connecting to it, checking its workers before any work,
and telling what went missing when it fails mid-run. Each problem is one :class:`RobotaskError` line.

- **connect**: a scheduler that does not answer within :data:`CONNECT_SECONDS` is reported at once
  (Dask's own default waits 30 s and ends in a long ``OSError`` traceback); a scheduler with no worker
  after :data:`WORKER_WAIT_SECONDS` too.
- **preflight** (:func:`preflight`, one small function run on every worker): each worker must run the same
  ``robotask``, Python and packages as this process (:data:`PACKAGES`), see every input file at the same
  path with the same size, and see the folders it writes to or reads from as this process does: a probe
  file written here must be read there with its random token, and the worker must be able to write
  beside it. A worker failing any of these is named with the path or package; nothing has started yet.
- **lost mid-run** (:func:`cluster_lost`): the scheduler gone (its connection closed) or no worker left; the
  caller keeps what finished and raises the line.
"""

from __future__ import annotations

import importlib
import logging
import os
import platform
import secrets
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ...errors import RobotaskError

CONNECT_SECONDS = 10  # how long a client tries to reach --scheduler before it gives up
WORKER_WAIT_SECONDS = 30  # how long it waits for a first worker on a scheduler that has none
PACKAGES = ("robotask", "numpy", "pandas", "h5py", "av", "threadpoolctl", "dask", "distributed", "cloudpickle")
PROBE = ".robotask-probe-"
RESUME = "the episodes already finished are kept in the cache; run the command again to resume from them"


def connect(address: str) -> Any:
    """A client on the scheduler at ``address`` with at least one worker, or one clear line."""
    from distributed import Client

    silence()
    try:
        client = Client(address, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as exc:
        raise RobotaskError(f"--scheduler {address}: no Dask scheduler answered within {CONNECT_SECONDS} s "
                            f"({type(exc).__name__}); start one with `dask scheduler` or check the address") from None
    except (ValueError, TypeError) as exc:
        raise RobotaskError(f"--scheduler {address}: not a Dask scheduler address ({exc}); "
                            "expected e.g. tcp://host:8786") from None
    try:
        client.wait_for_workers(1, timeout=WORKER_WAIT_SECONDS)
    except (OSError, TimeoutError):
        client.close()
        raise RobotaskError(f"--scheduler {address}: the scheduler has no worker after {WORKER_WAIT_SECONDS} s; "
                            f"start some with `dask worker {address}`") from None
    return client


def versions() -> dict[str, str]:
    """Python's version and each of :data:`PACKAGES`' ``__version__`` in this process ("missing": not importable)."""
    found = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            found[name] = str(getattr(importlib.import_module(name), "__version__", "unknown"))
        except ImportError:
            found[name] = "missing"
    return found


def _on_worker(files: Sequence[tuple[str, int]], probes: Sequence[tuple[str, str, str]]) -> dict[str, Any]:
    """Run on a worker: its versions and the first problem it has with the paths (None: none)."""
    report: dict[str, Any] = {"versions": versions(), "problem": None}
    for path, size in files:
        try:
            seen = os.stat(path).st_size
        except OSError as exc:
            report["problem"] = f"does not see {path} ({type(exc).__name__}: {exc.strerror or exc})"
            return report
        if seen != size:
            report["problem"] = f"sees {path} with {seen} bytes where this process sees {size}"
            return report
    for what, folder, token in probes:
        probe = Path(folder) / f"{PROBE}{token}"
        try:
            same = probe.read_text(encoding="ascii") == token
        except OSError:
            same = False
        if not same:
            report["problem"] = f"does not see {what} {folder} as this process does (its probe file is missing there)"
            return report
        try:
            mine = Path(folder) / f"{PROBE}{token}-{os.getpid()}"
            mine.write_text(token, encoding="ascii")
            mine.unlink()
        except OSError as exc:
            report["problem"] = f"cannot write into {what} {folder} ({type(exc).__name__}: {exc.strerror or exc})"
            return report
    return report


def preflight(client: Any, files: Iterable[str | os.PathLike], folders: dict[str, str | os.PathLike]) -> int:
    """Check every worker of ``client`` before any work; returns the number of workers, or raises one line.

    ``files``: inputs every worker reads (same path, same size as here); ``folders``: what each folder is
    ("the cache folder (ROBOTASK_CACHE)") → a folder this process and the workers share, written here.
    """
    listed = [(str(f), os.stat(f).st_size) for f in files]
    token = secrets.token_hex(8)
    probes = []
    for what, folder in folders.items():
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / f"{PROBE}{token}").write_text(token, encoding="ascii")
        probes.append((what, str(folder), token))
    try:
        reports = client.run(_on_worker, listed, probes, on_error="return")
    except (OSError, TimeoutError) as exc:  # the scheduler went away during the check
        raise RobotaskError(f"the Dask scheduler was lost while its workers were checked ({type(exc).__name__}); "
                            "nothing was started") from None
    finally:
        for _, folder, _ in probes:
            (Path(folder) / f"{PROBE}{token}").unlink(missing_ok=True)
    here = versions()
    for worker, report in sorted(reports.items()):
        if isinstance(report, BaseException):
            raise RobotaskError(f"worker {worker} could not run robotask's check ({type(report).__name__}: "
                                f"{report}); every worker must run the same robotask install as this process")
        theirs = report["versions"]
        other = {k: theirs.get(k, "missing") for k in {**here, **theirs} if theirs.get(k, "missing") != here.get(k)}
        if other:
            diff = ", ".join(f"{k} {v} (here {here.get(k, 'missing')})" for k, v in other.items())
            raise RobotaskError(f"worker {worker} runs {diff}; every worker must run the same robotask, Python "
                                "and packages as this process")
        if report["problem"]:
            raise RobotaskError(f"worker {worker} {report['problem']}; every worker must see the collection and "
                                "the folders it writes at the same path as this process (shared storage)")
    return len(reports)


def cluster_lost(client: Any) -> str | None:
    """What the cluster lost (``"the scheduler"``, ``"every worker"``), or None while it can go on."""
    if client.status != "running":
        return "the scheduler"
    try:
        workers = client.nthreads()
    except (OSError, TimeoutError):
        return "the scheduler"
    return None if workers else "every worker"


def silence() -> None:
    """No log lines from Dask in this process (as the LocalCluster's ``silence_logs``): what goes wrong on the
    cluster reaches the user as one line or as ``failures.csv``, not as Dask's warnings and tracebacks
    ("Couldn't gather 1 keys, rescheduling", a failed reconnection's traceback)."""
    names = [n for n in logging.root.manager.loggerDict if n.split(".")[0] in ("distributed", "tornado", "asyncio")]
    for name in ("distributed", "tornado", "asyncio", *names):  # a child logger's own level would let it print
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def quiet(client: Any) -> None:
    """Close a client whose cluster is lost, quietly."""
    silence()
    try:
        client.close(timeout=2)
    except Exception:  # noqa: BLE001, S110 - the cluster is already gone; closing is best effort
        pass
