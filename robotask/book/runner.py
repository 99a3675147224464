"""Execute chapters headlessly with papermill and publish the executed copies for the book.

``robotask run`` converts each percent source to a notebook with jupytext, validates the
parameters, executes it with papermill into a temporary file, and only on success moves
it over ``book/chapters/<id>.ipynb``: a failed run leaves the previous copy intact.
Wall times and parameters go to ``run_log.json``, which the reproduction page reads.

Before any kernel starts, the runner checks every parameter (names, types, ranges), that each
output folder can be written, and takes a lock per chapter (``.<chapter id>.lock`` in the folder
of executed notebooks and in the chapter's results folder): a second run of the same chapter into
the same folders refuses with a clear message instead of interleaving its files with the first.

Code inputs are hidden by default in the book: before publishing, every code cell gets the
``hide-input`` tag (myst-nb renders it as a collapsed toggle), except cells the author tagged
``show-input`` (cells that teach how to call the package). The ``parameters`` cell and the cell
of values papermill injected are removed from the rendered page (tag ``remove-cell``): they are
plumbing, and the values each chapter ran with are recorded on the reproduction page (chapter 99,
from ``run_log.json``). Cells already tagged ``remove-input``, ``remove-cell`` or ``hide-cell``
keep their own treatment.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .. import paths
from ..errors import RobotaskError
from ..io import atomic_path, exclusive_lock, writable_dir, write_json, write_text
from ..parameters import PROCESSES, Ranges, option
from . import chapters as chapters_mod
from . import params as params_mod
from . import titles
from .scheduling import ALONE_MARK, Planned, kernel_environment, longest_first, split_readers, waited_seconds

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


def plan(selected: list[chapters_mod.Chapter], set_name: str, params_file: str | None,
         overrides: dict[str, Any], *, ranges: Ranges) -> list[tuple[chapters_mod.Chapter, dict[str, Any]]]:
    """Resolve and validate the parameters of every selected chapter before anything runs.

    ``ranges``: the allowed range of each numeric parameter, the studies' tables merged by the
    caller (:func:`robotask.cli.parameter_ranges`); this wing imports no study.
    """
    file_params: dict[str, Any] = params_mod.load_yaml(Path(params_file)) if params_file else {}
    ids = {c.id for c in chapters_mod.CHAPTERS} | {c.source for c in chapters_mod.CHAPTERS}
    per_chapter = bool(file_params) and all(k in ids for k in file_params)
    shared = {} if per_chapter else file_params
    known: set[str] = set()
    for chapter in selected:
        known |= set(params_mod.declared(chapter.source_path))
    for where, mapping in ((str(params_file), shared), ("-p", overrides)):
        unknown = sorted(set(mapping) - known)
        if unknown:
            noun = "parameter" if len(unknown) == 1 else "parameters"
            raise RobotaskError(f"{where}: unknown {noun} {', '.join(unknown)} for the selected "
                                f"notebooks; declared: {', '.join(sorted(known))}")
    planned = []
    for chapter in selected:
        layers: list[tuple[str, dict[str, Any]]] = []
        set_path = params_mod.set_file(set_name, chapter.id, chapter.source)
        if set_path:
            layers.append((f"params/{set_name}/{set_path.name}", params_mod.load_yaml(set_path)))
        if per_chapter:
            for key in (chapter.source, chapter.id):
                layers.append((f"{params_file} [{key}]", file_params.get(key) or {}))
        resolved = params_mod.resolve(chapter.source_path, layers, strict=True, ranges=ranges)
        resolved.update(params_mod.resolve(chapter.source_path, [(str(params_file), shared), ("-p", overrides)],
                                           strict=False, ranges=ranges))
        resolved.update(params_mod.resolve(chapter.source_path, [("chapter manifest", chapter.fixed)],
                                           ranges=ranges))
        if resolved.get("output_dir"):
            writable_dir(paths.resolve(resolved["output_dir"]), f"parameter 'output_dir' of {chapter.id}:")
        planned.append((chapter, resolved))
    return planned


def results_folder(chapter: chapters_mod.Chapter, parameters: dict[str, Any]) -> Path:
    """The folder a chapter writes its result files to (as ``report.output_dir`` resolves it)."""
    out = parameters.get("output_dir")
    return paths.resolve(out) if out else paths.results_dir() / chapter.id


def lock_chapters(stack: ExitStack, planned: list[tuple[chapters_mod.Chapter, dict[str, Any]]],
                  out_dir: Path) -> None:
    """Lock every planned chapter's outputs in ``stack``; raise if another run holds one."""
    wait = float(os.environ.get("ROBOTASK_LOCK_WAIT", "0") or 0)
    for chapter, parameters in planned:
        results = results_folder(chapter, parameters)
        for lock in (out_dir / f".{chapter.id}.lock", results.parent / f".{results.name}.lock"):
            stack.enter_context(exclusive_lock(lock, f"chapter {chapter.id} (outputs in {lock.parent})", wait))


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


def _failure_message(chapter: chapters_mod.Chapter, exc: Exception) -> str:
    """A one-paragraph message naming the chapter, the failing cell and the error."""
    cell = getattr(exc, "exec_count", None)
    ename = getattr(exc, "ename", type(exc).__name__)
    evalue = getattr(exc, "evalue", str(exc))
    where = f"cell [{cell}]" if cell is not None else "a cell"
    return (f"notebook {chapter.source}.py (chapter {chapter.id}) failed in {where}: {ename}: {evalue}\n"
            f"The previous executed copy, if any, was left intact. Kernel messages: "
            f"_build/run/{chapter.id}.stderr.log")


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


KERNEL_START_TIMEOUT = 180.0
"""Seconds a kernel may take to start (papermill's 60 was once too short); then one printed retry."""
KERNEL_NOT_STARTED = ("Kernel didn't respond", "Kernel died before replying")  # jupyter_client's words


def execute(chapter: chapters_mod.Chapter, parameters: dict[str, Any], out_dir: Path) -> tuple[float, float]:
    """Execute one chapter into ``out_dir/<id>.ipynb``; return its wall and CPU seconds (user + system, of the
    kernel and of every process it waited for: a worker pool, a Dask cluster); raise on failure."""
    import papermill

    work = paths.BUILD / "run"
    work.mkdir(parents=True, exist_ok=True)
    src_nb = work / f"{chapter.id}.source.ipynb"
    _to_notebook(chapter.source_path, src_nb)
    out_path = out_dir / f"{chapter.id}.ipynb"
    start, cpu_start = time.perf_counter(), _children_cpu()
    with atomic_path(out_path) as tmp, _kernel_stderr_to(work / f"{chapter.id}.stderr.log"):
        tmp_nb = tmp.with_suffix(".ipynb")
        for attempt in (1, 2):
            try:
                papermill.execute_notebook(
                    str(src_nb), str(tmp_nb), parameters=parameters, kernel_name="python3",
                    cwd=str(paths.ROOT), progress_bar=False, log_output=False,
                    request_save_on_cell_execute=False, start_timeout=KERNEL_START_TIMEOUT,
                )
                break
            except papermill.PapermillExecutionError as exc:
                tmp_nb.unlink(missing_ok=True)
                raise RobotaskError(_failure_message(chapter, exc)) from None
            except RuntimeError as exc:
                tmp_nb.unlink(missing_ok=True)
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
    """Execute chapters in ``jobs`` worker processes; all of them finish before a failure is raised."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    records, failures = [], []
    planned = longest_first(planned, log_path)
    alone = {c.id for c, _ in planned if c.id in chapters_mod.ALONE}
    # An ALONE chapter sleeps while it waits for the others: it gets a worker of its own, so the
    # others still run ``jobs`` at a time.
    mark = out_dir / ".alone"  # created when only the ALONE chapters are left
    mark.unlink(missing_ok=True)
    os.environ[ALONE_MARK] = str(mark)
    others = len(planned) - len(alone)
    try:
        with ProcessPoolExecutor(jobs + len(alone), mp_context=multiprocessing.get_context("fork")) as pool:
            futures = {pool.submit(execute, chapter, parameters, out_dir): (chapter, parameters)
                       for chapter, parameters in sorted(planned, key=lambda p: p[0].id not in alone)}
            if not others:
                mark.touch()
            for done, fut in enumerate(as_completed(futures), 1):
                chapter, parameters = futures[fut]
                if chapter.id not in alone:
                    others -= 1
                    if not others:
                        mark.touch()
                try:
                    seconds, cpu = fut.result()
                except RobotaskError as exc:
                    print(f"[robotask] {chapter.id} FAILED ({done}/{len(planned)})", flush=True)
                    _record(log_path, chapter, set_name, parameters, None)
                    failures.append(exc)
                    continue
                waited = waited_seconds(mark) if chapter.id in alone else 0.0
                seconds -= waited
                note = f", after waiting {waited:.0f} s for the others" if waited else ""
                print(f"[robotask] {chapter.id} {seconds:.1f} s{note} ({done}/{len(planned)})", flush=True)
                records.append(_record(log_path, chapter, set_name, parameters, seconds, cpu))
    finally:
        os.environ.pop(ALONE_MARK, None)
        mark.unlink(missing_ok=True)
        waited_seconds(mark)  # removes a leftover record
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
            log = json.loads(log_path.read_text())
        except json.JSONDecodeError:
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
    p.add_argument("notebooks", nargs="*", help="chapter ids or notebook stems (default: all)")
    p.add_argument("-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"),
                   help="override one parameter (value parsed as YAML)")
    p.add_argument("--params", metavar="FILE.yaml", type=paths.from_caller,
                   help="parameters for all selected notebooks, "
                   "or a mapping of chapter id to parameters")
    p.add_argument("--set", default="paper", choices=params_mod.SETS, help="named parameter set (default: paper)")
    p.add_argument("--out", type=lambda t: Path(paths.from_caller(t)),
                   help="folder for executed notebooks (default: book/chapters)")
    p.add_argument("--jobs", type=option(PROCESSES), default=1,
                   help="chapters run side by side (default 1); the chapters "
                   "that read other chapters' results run after the rest")
    p.add_argument("--list", action="store_true", help="list chapters and their parameters, then exit")
    p.set_defaults(func=_cli, ranges=ranges)


def _cli(args: Any) -> int:
    if args.list:
        for chapter in chapters_mod.select(args.notebooks):
            print(chapter.id)
            for param in params_mod.declared(chapter.source_path).values():
                print(f"    {param.name}: {param.annotation} = {param.default!r}  # {param.help}")
        return 0
    overrides = {name: params_mod.parse_cli_value(value, f"-p {name}") for name, value in args.parameter}
    if args.jobs < 1:
        raise RobotaskError(f"--jobs {args.jobs}: expected a whole number of at least 1")
    records = run(args.notebooks, args.set, args.params, overrides, args.out, jobs=args.jobs, ranges=args.ranges)
    total, cpu = sum(r.seconds for r in records), sum(r.cpu_seconds or 0.0 for r in records)
    print(f"[robotask] {len(records)} {'notebook' if len(records) == 1 else 'notebooks'} executed, "
          f"{total:.1f} s of notebook time, {cpu:.1f} s of CPU")
    return 0
