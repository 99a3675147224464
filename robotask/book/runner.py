"""Execute chapters headlessly with papermill and publish the executed copies for the book.

``robotask run`` converts each percent source to a notebook with jupytext, validates the parameters, executes
it with papermill into a temporary file, and only on success moves it over ``book/chapters/<id>.ipynb`` (or
``--out``): a failed or interrupted run leaves the previous copy whole. Wall times and parameters go to
``run_log.json``, which the reproduction page reads (a log that is not JSON is rebuilt with a warning).

Before any kernel starts, the runner checks every parameter (names, types, ranges), that each output folder
can be written, and takes a lock per chapter (``.<chapter id>.lock`` in the folder of executed notebooks and in
the chapter's results folder): a second run of the same chapter into the same folders is refused in one line, or
waits for the first with ``ROBOTASK_LOCK_WAIT=SECONDS`` (``inf``: as long as it takes), then runs whole after it.

Code inputs are hidden in the book: every code cell gets ``hide-input`` (a collapsed toggle) except cells
tagged ``show-input`` (cells that teach the package) or with their own treatment (``remove-input``,
``remove-cell``, ``hide-cell``). The ``parameters`` cell and papermill's injected cell are removed
(``remove-cell``): the values each chapter ran with are on the reproduction page (chapter 99).
"""

from __future__ import annotations

import json
import os
import sys
import time
import warnings
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .. import paths
from ..errors import RobotaskError, RobotaskWarning
from ..io import atomic_path, exclusive_lock, writable_dir, write_json, write_text
from ..parameters import PROCESSES, Ranges, option
from . import chapters as chapters_mod
from . import params as params_mod
from . import titles
from .params import plan
from .scheduling import (
    ALONE_MARK,
    Planned,
    clear_marks,
    in_turn,
    kernel_environment,
    lock_chapters,
    longest_first,
    split_readers,
    waited_seconds,
)

VISIBLE_INPUT_TAGS = frozenset({"show-input"})
"""Code cells carrying this tag keep their input visible in the book: cells that teach the package."""
PARAMETER_TAGS = frozenset({"parameters", "injected-parameters"})
"""The defaults cell and papermill's injected cell: removed from the rendered page (``remove-cell``);
the values a build ran with are on the reproduction page."""
OWN_INPUT_TAGS = frozenset({"hide-input", "remove-input", "remove-cell", "hide-cell"})
"""Code cells carrying one of these tags already say how their input is shown."""


@dataclass
class RunRecord:
    """What one chapter run did."""

    chapter: str
    source: str
    parameter_set: str
    parameters: dict[str, Any]
    seconds: float | None
    status: str
    cpu_seconds: float | None = None  # CPU time of the chapter's kernel and of every process it started


def _to_notebook(source: Path, dest: Path) -> None:
    """Convert a percent source into an ``.ipynb`` with a python3 kernelspec."""
    import jupytext

    nb = jupytext.read(source)
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb.metadata.pop("jupytext", None)
    jupytext.write(nb, dest, fmt="ipynb")


def hide_inputs(nb: Any) -> int:
    """Tag every code cell of ``nb`` ``hide-input`` unless it is to stay visible, and the parameter
    cells ``remove-cell``; return how many cells were tagged."""
    tagged = 0
    for cell in nb.cells:
        if cell.get("cell_type") != "code":
            continue
        tags = list(cell.get("metadata", {}).get("tags", []))
        if set(tags) & PARAMETER_TAGS:
            if "remove-cell" not in tags:
                cell.setdefault("metadata", {})["tags"] = tags + ["remove-cell"]
                tagged += 1
            continue
        if set(tags) & (VISIBLE_INPUT_TAGS | OWN_INPUT_TAGS):
            continue
        cell.setdefault("metadata", {})["tags"] = tags + ["hide-input"]
        tagged += 1
    return tagged


def _publish_tags(path: Path) -> None:
    """Rewrite the executed notebook at ``path`` with the book's input-visibility tags."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    hide_inputs(nb)
    write_text(path, nbformat.writes(nb) + "\n")  # atomic, and a full disk is one clear line


def work_folder(out_dir: Path) -> Path:
    """Where a run keeps each chapter's converted source and kernel messages: ``_build/run`` for the book,
    ``OUT/.run`` for a run into ``--out OUT``."""
    return paths.BUILD / "run" if Path(out_dir) == paths.CHAPTERS_OUT else Path(out_dir) / ".run"


def _failure_message(chapter: chapters_mod.Chapter, exc: Exception, work: Path) -> str:
    """A one-paragraph message naming the chapter, the failing cell and the error."""
    cell = getattr(exc, "exec_count", None)
    ename = getattr(exc, "ename", type(exc).__name__)
    evalue = getattr(exc, "evalue", str(exc))
    where = f"cell [{cell}]" if cell is not None else "a cell"
    return (f"notebook {chapter.source}.py (chapter {chapter.id}) failed in {where}: {ename}: {evalue}\n"
            f"The previous executed copy, if any, was left intact. Kernel messages: {work / chapter.id}.stderr.log")


@contextmanager
def _kernel_stderr_to(log: Path) -> Iterator[None]:
    """Send the kernel's stderr (it inherits file descriptor 2) to ``log`` while a chapter runs."""
    sys.stderr.flush()
    saved = os.dup(2)
    with open(log, "w") as fh:
        os.dup2(fh.fileno(), 2)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)


@contextmanager
def _removed_after(path: Path) -> Iterator[Path]:
    """``path``, removed however the block ends: papermill writes the notebook it ran so far even when a run is
    interrupted or fails (a copy already moved into place is gone from ``path``)."""
    try:
        yield path
    finally:
        path.unlink(missing_ok=True)


KERNEL_START_TIMEOUT = 180.0
"""Seconds a kernel may take to start (papermill's 60 was once too short); then one printed retry."""
KERNEL_NOT_STARTED = ("Kernel didn't respond", "Kernel died before replying")  # jupyter_client's words


def execute(chapter: chapters_mod.Chapter, parameters: dict[str, Any], out_dir: Path) -> tuple[float, float]:
    """Execute one chapter into ``out_dir/<id>.ipynb``; return its wall and CPU seconds (user + system, of the
    kernel and of every process it waited for: a worker pool, a Dask cluster); raise on failure."""
    import papermill

    work = work_folder(out_dir)
    work.mkdir(parents=True, exist_ok=True)
    src_nb = work / f"{chapter.id}.source.ipynb"
    _to_notebook(chapter.source_path, src_nb)
    out_path = out_dir / f"{chapter.id}.ipynb"
    start, cpu_start = time.perf_counter(), _children_cpu()
    with (atomic_path(out_path) as tmp, _kernel_stderr_to(work / f"{chapter.id}.stderr.log"),
          _removed_after(tmp.with_suffix(".ipynb")) as tmp_nb):
        for attempt in (1, 2):
            try:
                papermill.execute_notebook(
                    str(src_nb), str(tmp_nb), parameters=parameters, kernel_name="python3",
                    cwd=str(paths.ROOT), progress_bar=False, log_output=False,
                    request_save_on_cell_execute=False, start_timeout=KERNEL_START_TIMEOUT,
                )
                break
            except papermill.PapermillExecutionError as exc:
                raise RobotaskError(_failure_message(chapter, exc, work)) from None
            except RuntimeError as exc:
                if not str(exc).startswith(KERNEL_NOT_STARTED):
                    raise
                if attempt == 2:
                    raise RobotaskError(f"chapter {chapter.id}: the kernel did not start ({exc}), twice; the "
                                        "previous executed copy, if any, was left intact") from None
                print(f"[robotask] {chapter.id}: the kernel did not start ({exc}); starting it again", flush=True)
        _publish_tags(tmp_nb)
        titles.retitle(tmp_nb, chapter.title, titles.page_label(chapter.id, [c.id for c in chapters_mod.CHAPTERS]))
        os.replace(tmp_nb, tmp)
    return time.perf_counter() - start, _children_cpu() - cpu_start


def _children_cpu() -> float:
    """User and system CPU seconds of this process's children that have ended and been waited for."""
    import resource

    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run(names: list[str] | None = None, set_name: str = "paper", params_file: str | None = None,
        overrides: dict[str, Any] | None = None, out_dir: Path | None = None,
        log_path: Path | None = None, jobs: int = 1, *, ranges: Ranges) -> list[RunRecord]:
    """Validate (``ranges`` as for :func:`plan`), then execute the selected chapters (``jobs`` at a
    time, readers last), logging wall times."""
    out_dir = Path(out_dir) if out_dir else paths.CHAPTERS_OUT
    if log_path is None:
        log_path = paths.BUILD / "run_log.json" if out_dir == paths.CHAPTERS_OUT else out_dir / "run_log.json"
    planned = plan(chapters_mod.select(names), set_name, params_file, overrides or {}, ranges=ranges)
    planned = [(chapter, with_run_log(chapter, values, log_path)) for chapter, values in planned]
    writable_dir(out_dir, "folder of executed notebooks (--out)")
    writable_dir(paths.results_dir(), "results folder (ROBOTASK_RESULTS)")
    with ExitStack() as locks:
        locks.enter_context(kernel_environment(jobs))
        lock_chapters(locks, planned, out_dir)
        return _run_planned(planned, set_name, out_dir, log_path, jobs)


def with_run_log(chapter: chapters_mod.Chapter, values: dict[str, Any], log_path: Path) -> dict[str, Any]:
    """A chapter that declares a ``run_log`` parameter and was given none reads the log this run writes
    (the reproduction page), wherever this run writes it: ``_build/run_log.json`` for the book,
    ``_build/smoke/run_log.json`` for the tests."""
    if "run_log" not in params_mod.declared(chapter.source_path) or values.get("run_log"):
        return values
    where = log_path.resolve()
    shown = where.relative_to(paths.ROOT) if where.is_relative_to(paths.ROOT) else where
    return {**values, "run_log": shown.as_posix()}


def _run_side_by_side(planned: Planned, set_name: str, out_dir: Path, log_path: Path, jobs: int) -> list[RunRecord]:
    """Execute chapters in ``jobs`` worker processes (:func:`scheduling.in_turn`: the ALONE chapters beside them,
    each chapter once its ``chapters.AFTER`` have finished); all of them finish before a failure is raised."""
    records, failures = [], []
    planned = longest_first(planned, log_path)
    mark = out_dir / f".alone-{os.getpid()}"  # created when only the ALONE chapters are left (this run's own)
    clear_marks(mark)
    os.environ[ALONE_MARK] = str(mark)
    try:
        for done, (chapter, parameters, fut) in enumerate(in_turn(planned, jobs, mark, execute, out_dir), 1):
            try:
                seconds, cpu = fut.result()
            except RobotaskError as exc:
                print(f"[robotask] {chapter.id} FAILED ({done}/{len(planned)})", flush=True)
                _record(log_path, chapter, set_name, parameters, None)
                failures.append(exc)
                continue
            waited = waited_seconds(mark) if chapter.id in chapters_mod.ALONE else 0.0
            seconds -= waited
            note = f", after waiting {waited:.0f} s for the others" if waited else ""
            print(f"[robotask] {chapter.id} {seconds:.1f} s{note} ({done}/{len(planned)})", flush=True)
            from .provenance import add_reproduction  # pandas: only once a chapter has run
            add_reproduction(out_dir, chapter, set_name, parameters, seconds, cpu)
            records.append(_record(log_path, chapter, set_name, parameters, seconds, cpu))
    finally:
        os.environ.pop(ALONE_MARK, None)
        clear_marks(mark)
    if failures:
        raise failures[0]
    return records


def _run_planned(planned: Planned, set_name: str, out_dir: Path, log_path: Path, jobs: int = 1) -> list[RunRecord]:
    """Execute the planned chapters (side by side in ``jobs`` processes, the ALONE chapters timing their
    parallel work once the others are done; the readers one at a time after them), logging each."""
    records: list[RunRecord] = []
    if jobs > 1:
        independent, planned = split_readers(planned)
        records = _run_side_by_side(independent, set_name, out_dir, log_path, jobs)
    for chapter, parameters in planned:
        print(f"[robotask] {chapter.id} ...", end=" ", flush=True)
        try:
            seconds, cpu = execute(chapter, parameters, out_dir)
        except RobotaskError:
            print("FAILED", flush=True)
            _record(log_path, chapter, set_name, parameters, None)
            raise
        print(f"{seconds:.1f} s", flush=True)
        from .provenance import add_reproduction  # pandas: only once a chapter has run
        add_reproduction(out_dir, chapter, set_name, parameters, seconds, cpu)
        records.append(_record(log_path, chapter, set_name, parameters, seconds, cpu))
    return records


def _record(log_path: Path, chapter: chapters_mod.Chapter, set_name: str, parameters: dict[str, Any],
            seconds: float | None, cpu: float | None = None) -> RunRecord:
    """Log one chapter's run (``seconds`` None: it failed) and return its record."""
    status = "failed" if seconds is None else "ok"
    record = RunRecord(chapter.id, chapter.source, set_name, parameters,
                       None if seconds is None else round(seconds, 2), status,
                       None if cpu is None else round(cpu, 2))
    _log(log_path, record)
    return record


def _log(log_path: Path, record: RunRecord) -> None:
    """Merge ``record`` into the run log (one entry per chapter), atomically and under a lock."""
    with exclusive_lock(log_path.parent / f".{log_path.name}.lock", f"run log {log_path}", wait=60):
        _merge_log(log_path, record)


def _merge_log(log_path: Path, record: RunRecord) -> None:
    log: dict[str, Any] = {}
    if log_path.is_file():
        try:
            log = json.loads(log_path.read_text(encoding="utf-8"))
            if not isinstance(log, dict):
                raise ValueError(f"it holds a JSON {type(log).__name__}, not an object")
        except ValueError as err:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
            warnings.warn(f"run log {log_path} is not a JSON object ({str(err).split(':')[0]}); rebuilt from this "
                          "run's chapters", RobotaskWarning, stacklevel=2)
            log = {}
    entry = asdict(record)
    if record.status == "failed" and record.chapter in log:
        log[record.chapter]["last_failure"] = entry
    else:
        log[record.chapter] = entry
    log["_python"] = sys.version.split()[0]
    write_json(log_path, log)


def register_cli(subparsers: Any, ranges: Ranges) -> None:
    """Add ``robotask run``, which checks parameters against ``ranges`` (the entry point merges the
    studies' tables: :func:`robotask.cli.parameter_ranges`)."""
    p = subparsers.add_parser("run", help="execute notebooks headlessly with papermill for the book")
    p.add_argument("notebooks", nargs="*", help="chapter ids or notebook stems (none: all, unless -p is given)")
    p.add_argument("--all", action="store_true", help="run every chapter (needed with -p and no chapter named)")
    p.add_argument("-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"),
                   help="override one parameter (value parsed as YAML)")
    p.add_argument("--params", metavar="FILE.yaml", type=paths.from_caller,
                   help="parameters for all selected notebooks, "
                   "or a mapping of chapter id to parameters")
    p.add_argument("--set", default="paper", choices=params_mod.SETS, help="named parameter set (default: paper)")
    p.add_argument("--out", type=lambda t: Path(paths.from_caller(t)),
                   help="folder for executed notebooks (default: book/chapters for --set paper, "
                   "_build/book-SET/chapters for another set); the chapters' results then go to OUT/results "
                   "(_build/book-SET/results) and the run log to OUT/run_log.json, unless ROBOTASK_RESULTS is set")
    p.add_argument("--jobs", type=option(PROCESSES), default=1,
                   help="chapters run side by side (default 1); the chapters "
                   "that read other chapters' results run after the rest")
    p.add_argument("--list", action="store_true", help="list chapters and their parameters (the values of --set), "
                   "then exit; output columns: book/data_dictionary.md")
    p.set_defaults(func=_cli, ranges=ranges)


@contextmanager
def _results_at(folder: str | None) -> Iterator[None]:
    """``ROBOTASK_RESULTS`` set to ``folder`` (when given) while the block runs, then as it was."""
    old = os.environ.get("ROBOTASK_RESULTS")
    if folder:
        os.environ["ROBOTASK_RESULTS"] = folder
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("ROBOTASK_RESULTS", None)
        else:
            os.environ["ROBOTASK_RESULTS"] = old


def _cli(args: Any) -> int:
    if args.list:
        for chapter in chapters_mod.select(args.notebooks):
            print("\n".join(params_mod.listing(chapter.source_path, args.set, chapter.id, chapter.source)))
        return 0
    overrides = {name: params_mod.parse_cli_value(value, f"-p {name}") for name, value in args.parameter}
    params_mod.check_selection(args.notebooks, args.all, [name for name, _ in args.parameter])
    if args.jobs < 1:
        raise RobotaskError(f"--jobs {args.jobs}: expected a whole number of at least 1")
    results = os.environ.get("ROBOTASK_RESULTS")
    if args.set != "paper" and not args.out:  # another set never writes over the paper build
        args.out = paths.BUILD / f"book-{args.set}" / "chapters"
        results = results or str(args.out.parent / "results")
    if args.out and Path(args.out) != paths.CHAPTERS_OUT:
        results = results or str(Path(args.out) / "results")
    with _results_at(results):  # the kernels inherit it
        records = run(args.notebooks, args.set, args.params, overrides, args.out, jobs=args.jobs, ranges=args.ranges)
    total, cpu = sum(r.seconds for r in records), sum(r.cpu_seconds or 0.0 for r in records)
    out = Path(args.out) if args.out else paths.CHAPTERS_OUT
    print(f"[robotask] {len(records)} {'notebook' if len(records) == 1 else 'notebooks'} executed "
          f"(set {args.set}), {total:.1f} s of notebook time, {cpu:.1f} s of CPU; executed notebooks in {out}, "
          f"results in {results or paths.results_dir()}/<chapter>, run log "
          f"{paths.BUILD / 'run_log.json' if out == paths.CHAPTERS_OUT else out / 'run_log.json'}")
    return 0

