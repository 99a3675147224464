"""Which chapters run when: side by side, longest first; the readers after them; and the chapters that
time parallel work (``chapters.ALONE``), which start beside the others and wait until they are alone; and
the environment the kernels inherit, side by side (``kernel_environment``); and never two runs of one chapter into
the same folders at once (``lock_chapters``)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from .. import paths
from ..errors import RobotaskError
from ..io import exclusive_lock
from . import chapters as chapters_mod

Planned = list[tuple[chapters_mod.Chapter, dict[str, Any]]]


def split_readers(planned: Planned) -> tuple[Planned, Planned]:
    """The chapters that may run side by side (the ``chapters.ALONE`` ones among them: they wait for the
    others before they time anything, see :func:`wait_until_alone`; and the readers whose inputs
    ``chapters.AFTER`` names, which start once those have finished), and the other readers
    (``chapters.READERS``), which run after them one at a time."""
    later = {c.id for c, _ in planned if c.id in chapters_mod.READERS and c.id not in chapters_mod.AFTER}
    return [p for p in planned if p[0].id not in later], [p for p in planned if p[0].id in later]


ALONE_MARK = "ROBOTASK_ALONE_MARK"
"""Environment variable the side-by-side kernels inherit: the file the runner creates once every chapter
but the ``chapters.ALONE`` ones has finished."""


def wait_until_alone(poll: float = 0.5) -> bool:
    """In a chapter that times parallel work (chapter 14 times Dask at 1 and 2 workers): wait until it
    is the only chapter still running, so that its timing has the machine to itself. Returns at once
    (False) when the chapter runs on its own (one chapter, ``--jobs 1``, nbval, a user's kernel)."""
    mark = os.environ.get(ALONE_MARK)
    if not mark:
        return False
    start = time.perf_counter()
    if not Path(mark).exists():
        waiting_file(Path(mark)).touch()  # the runner starts another chapter on this process's core meanwhile
    while not Path(mark).exists():
        time.sleep(poll)
    waited_file(Path(mark)).write_text(f"{time.perf_counter() - start:.3f}\n", encoding="utf-8")
    return True


def waiting_file(mark: Path) -> Path:
    """Where a chapter in :func:`wait_until_alone` says that it sleeps: the runner then runs one more of the
    others side by side, in its place (with two chapters and a busy process on two cores, Linux gave the
    chapters 1.27 cores; with three, 1.5)."""
    return mark.with_name(f"{mark.name}.waiting-{os.getpid()}")


def waiting_files(mark: Path) -> list[Path]:
    """The :func:`waiting_file` of each chapter that sleeps in :func:`wait_until_alone`."""
    return list(mark.parent.glob(f"{mark.name}.waiting-*"))


def waited_file(mark: Path) -> Path:
    """Where :func:`wait_until_alone` leaves the seconds it waited: the runner takes them off the chapter's
    run time, so page 99 shows the chapter's own time, not the other chapters'."""
    return mark.with_name(mark.name + ".waited")


def waited_seconds(mark: Path) -> float:
    """The seconds a chapter waited for the others (0 when it did not wait); the record is removed."""
    path = waited_file(mark)
    try:
        return float(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0.0
    finally:
        path.unlink(missing_ok=True)


def longest_first(planned: Planned, log_path: Path) -> Planned:
    """``planned`` with the chapters that took longest in the logged run first (new ones first of all, and among
    them ``chapters.LONGEST``), and before all of them the ``chapters.WAITING`` ones.

    Side by side, a long chapter started last runs alone at the end while the other cores idle; a waiting one
    started last leaves its core idle while it waits.
    """
    try:
        log = json.loads(log_path.read_text()) if log_path.is_file() else {}
    except json.JSONDecodeError:
        log = {}

    def seconds(item: tuple[chapters_mod.Chapter, dict[str, Any]]) -> float:
        entry = log.get(item[0].id)
        return float("inf") if not isinstance(entry, dict) or entry.get("seconds") is None else entry["seconds"]

    def known_long(item: tuple[chapters_mod.Chapter, dict[str, Any]]) -> bool:
        return item[0].id in chapters_mod.LONGEST

    def waiting(item: tuple[chapters_mod.Chapter, dict[str, Any]]) -> bool:
        return item[0].id in chapters_mod.WAITING

    return sorted(planned, key=lambda item: (waiting(item), seconds(item), known_long(item)),
                  reverse=True)  # stable otherwise


def in_turn(planned: Planned, jobs: int, mark: Path, run: Callable[..., Any],
            *args: Any) -> Iterator[tuple[chapters_mod.Chapter, dict[str, Any], Future]]:
    """Run ``run(chapter, parameters, *args)`` for each planned chapter in worker processes; yield each chapter
    with its done future as they finish. The ``chapters.ALONE`` ones start first, each in a worker of its own; the
    others ``jobs`` at a time (one more for each ALONE chapter that sleeps in :func:`wait_until_alone`), in
    ``planned``'s order, each once its ``chapters.AFTER`` have finished; ``mark`` is created when only the ALONE
    ones are left."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    alone = {c.id for c, _ in planned if c.id in chapters_mod.ALONE}
    pending = sorted(planned, key=lambda p: p[0].id not in alone)
    planned_ids, finished = {c.id for c, _ in planned}, set()
    others = len(planned) - len(alone)
    running: dict[Future, tuple[chapters_mod.Chapter, dict[str, Any]]] = {}
    with ProcessPoolExecutor(jobs + 2 * len(alone), mp_context=multiprocessing.get_context("fork")) as pool:

        def start_ready() -> None:
            slots = jobs + len(alone) + len(waiting_files(mark))
            while len(running) < slots and (at := next_ready(pending, finished, planned_ids)) is not None:
                chapter, parameters = pending.pop(at)
                running[pool.submit(run, chapter, parameters, *args)] = (chapter, parameters)

        start_ready()
        if not others:
            mark.touch()
        while running:
            for fut in wait(running, timeout=1.0 if pending else None, return_when=FIRST_COMPLETED).done:
                chapter, parameters = running.pop(fut)
                finished.add(chapter.id)
                if chapter.id not in alone:
                    others -= 1
                    if not others:
                        mark.touch()
                yield chapter, parameters, fut
            start_ready()
    if pending:  # chapters.AFTER in a circle: never started
        raise RobotaskError(f"chapters {', '.join(c.id for c, _ in pending)} wait for one another "
                            "(robotask.book.chapters.AFTER): none could start")


def clear_marks(mark: Path) -> None:
    """Remove ``mark`` and the records of the chapters that waited for it."""
    mark.unlink(missing_ok=True)
    waited_seconds(mark)
    for path in waiting_files(mark):
        path.unlink(missing_ok=True)


def next_ready(pending: Planned, finished: set[str], planned_ids: set[str]) -> int | None:
    """The position in ``pending`` of the first chapter whose ``chapters.AFTER`` prerequisites have finished
    (those not planned in this run count as finished); None when every pending chapter waits for one."""
    for at, (chapter, _) in enumerate(pending):
        if all(d in finished or d not in planned_ids for d in chapters_mod.AFTER.get(chapter.id, ())):
            return at
    return None


ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
"""The thread counts each kernel gets when chapters run side by side (:func:`kernel_environment`)."""

MALLOC_REUSE = {"MALLOC_MMAP_MAX_": "0", "MALLOC_TRIM_THRESHOLD_": str(1 << 40), "MALLOC_TOP_PAD_": str(1 << 29)}
"""glibc's malloc in every kernel (:func:`kernel_environment`): large arrays from the heap, freed memory kept
for the next one, instead of a fresh ``mmap`` that the kernel zero-fills page by page for each array (other C
libraries ignore these variables). Chapter 14 at paper scale, alone: 285.6 → 272.1 s of CPU; results
byte-identical. A kernel keeps its peak memory until it ends."""


@contextmanager
def kernel_environment(jobs: int) -> Iterator[None]:
    """Environment the kernels inherit, restored afterwards.

    ``ROBOTASK_PROGRESS=0``: no progress widgets in the book; glibc's malloc reusing freed memory
    (:data:`MALLOC_REUSE`, each unless set). With ``jobs`` > 1 also (each unless set)
    ``OMP_WAIT_POLICY=PASSIVE``: OpenMP threads of two kernels sharing the cores then sleep instead of
    spinning, which made the MLP 6× slower side by side; and one thread per kernel for OpenBLAS, OpenMP
    (torch) and MKL (:data:`ONE_THREAD`): the kernels already fill the cores, and the threads of one
    kernel only waited on each other (a paper build under a pinned busy core: 1,052 → 967 s of CPU,
    733 → 680 s of wall). Results do not change (every result file of that build was byte-identical).
    """
    wanted = {"ROBOTASK_PROGRESS": "0", **{k: v for k, v in MALLOC_REUSE.items() if k not in os.environ}}
    if jobs > 1:
        wanted |= {key: value for key, value in {"OMP_WAIT_POLICY": "PASSIVE", **ONE_THREAD}.items()
                   if key not in os.environ}
    previous = {key: os.environ.get(key) for key in wanted}
    os.environ.update(wanted)
    try:
        yield
    finally:
        for key, value in previous.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def results_folder(chapter: chapters_mod.Chapter, parameters: dict[str, Any]) -> Path:
    """The folder a chapter writes its result files to (as ``report.output_dir`` resolves it)."""
    out = parameters.get("output_dir")
    return paths.resolve(out) if out else paths.results_dir() / chapter.id


def lock_wait() -> float:
    """Seconds a run waits for another run of the same chapter into the same folders: ``ROBOTASK_LOCK_WAIT``
    (unset or 0: it is refused at once; ``inf``: it waits as long as it takes)."""
    text = os.environ.get("ROBOTASK_LOCK_WAIT", "").strip()
    try:
        wait = float(text or 0)
    except ValueError:
        wait = -1.0
    if not wait >= 0:  # NaN too
        raise RobotaskError(f"ROBOTASK_LOCK_WAIT={text!r}: expected a number of seconds to wait for another run of "
                            "the same chapter (0: refuse at once, inf: as long as it takes)")
    return wait


def lock_chapters(stack: ExitStack, planned: Planned, out_dir: Path) -> None:
    """Lock every planned chapter's outputs in ``stack``. If another run holds one: refuse in one line, or, with
    ``ROBOTASK_LOCK_WAIT`` (:func:`lock_wait`), say so and wait for it, then run on the files it left."""
    wait = lock_wait()
    for chapter, parameters in planned:
        results = results_folder(chapter, parameters)
        for lock in (out_dir / f".{chapter.id}.lock", results.parent / f".{results.name}.lock"):
            what = f"chapter {chapter.id} (outputs in {lock.parent})"
            try:
                stack.enter_context(exclusive_lock(lock, what))
            except RobotaskError as busy:
                if not wait:
                    raise RobotaskError(f"{busy}; or set ROBOTASK_LOCK_WAIT=SECONDS to queue behind it") from None
                print(f"[robotask] {what} is in use by another run; waiting for it to finish (up to "
                      f"{'any time' if wait == float('inf') else f'{wait:g} s'}, ROBOTASK_LOCK_WAIT)", flush=True)
                stack.enter_context(exclusive_lock(lock, what, wait))
