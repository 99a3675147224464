"""The notebook runner validates parameters before a kernel starts and never loses an executed copy."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from robotask import paths
from robotask.book import chapters, params, runner, scheduling
from robotask.errors import RobotaskError
from robotask.parameters import Range

NOTEBOOK = '''# %% [markdown]
# # A toy chapter

# %% tags=["parameters"]
n: int = 3  # a count
rate: float = 0.5  # a rate
name: str = "x"  # a name
flag: bool = False  # a switch
items: list = ["a"]  # a list
fail: bool = False  # raise in the next cell

# %%
if fail:
    raise ValueError("boom")
print(n * rate, name, flag, items)
'''


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """A one-chapter book in tmp_path with its own notebooks/ and params/ folders."""
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "toy.py").write_text(NOTEBOOK)
    (tmp_path / "params" / "smoke").mkdir(parents=True)
    (tmp_path / "params" / "smoke" / "toy.yaml").write_text("n: 1\n")
    monkeypatch.setattr(paths, "NOTEBOOKS", tmp_path / "notebooks")
    monkeypatch.setattr(paths, "PARAMS", tmp_path / "params")
    monkeypatch.setattr(paths, "BUILD", tmp_path / "_build")
    monkeypatch.setattr(chapters, "CHAPTERS", (chapters.Chapter("toy", "toy"),))
    return tmp_path


def test_declared_reads_names_types_defaults_and_help(toy):
    decl = params.declared(toy / "notebooks" / "toy.py")
    assert list(decl) == ["n", "rate", "name", "flag", "items", "fail"]
    assert decl["rate"].annotation == "float" and decl["rate"].default == 0.5
    assert decl["n"].help == "a count"


def test_set_file_then_overrides_win_and_ints_widen_to_float(toy):
    [(chapter, resolved)] = runner.plan(chapters.select(None), "smoke", None, {"rate": 2}, ranges={})
    assert resolved == {"n": 1, "rate": 2.0}
    assert isinstance(resolved["rate"], float)


@pytest.mark.parametrize("override, message", [
    ({"bogus": 1}, "unknown parameter"),
    ({"n": "three"}, "expects int"),
    ({"flag": 1}, "expects bool"),
    ({"items": "a"}, "expects list"),
])
def test_bad_parameters_are_rejected_before_running(toy, override, message):
    with pytest.raises(RobotaskError, match=message):
        runner.plan(chapters.select(None), "smoke", None, override, ranges={})


def test_ranges_are_the_callers(toy):
    """The runner knows no study's ranges: it checks the ones it is given, and only those."""
    ranges = {"n": Range(low=1, high=None, meaning=">= 1 toy")}
    with pytest.raises(RobotaskError, match=r"^-p: parameter 'n' = 0 is out of range; expected >= 1 toy$"):
        runner.plan(chapters.select(None), "smoke", None, {"n": 0}, ranges=ranges)
    [(_, resolved)] = runner.plan(chapters.select(None), "smoke", None, {"n": 0}, ranges={})
    assert resolved["n"] == 0


def test_unknown_notebook_and_set_are_named(toy):
    with pytest.raises(RobotaskError, match="unknown notebook 'nope'"):
        chapters.select(["nope"])
    with pytest.raises(RobotaskError, match="unknown parameter set"):
        runner.plan(chapters.select(None), "huge", None, {}, ranges={})


def test_per_chapter_parameter_file(toy):
    f = toy / "p.yaml"
    f.write_text("toy:\n  n: 7\n")
    [(_, resolved)] = runner.plan(chapters.select(None), "smoke", str(f), {}, ranges={})
    assert resolved["n"] == 7


def test_failure_names_the_cell_and_keeps_the_previous_copy(toy):
    out = toy / "out"
    runner.run(["toy"], "smoke", out_dir=out, ranges={})
    good = (out / "toy.ipynb").read_text()
    assert "0.5" in good  # n=1 times rate=0.5 was printed
    with pytest.raises(RobotaskError, match=r"toy\.py .*failed in cell \[\d+\]: ValueError: boom"):
        runner.run(["toy"], "smoke", overrides={"fail": True}, out_dir=out, ranges={})
    assert (out / "toy.ipynb").read_text() == good
    log = json.loads((out / "run_log.json").read_text())
    assert log["toy"]["status"] == "ok" and log["toy"]["last_failure"]["status"] == "failed"
    assert not list(out.glob(".*tmp*")), "a temporary file was left behind"


def test_cli_prints_one_clear_line_for_bad_input():
    proc = subprocess.run([sys.executable, "-m", "robotask.cli", "run", "99_reproducing", "-p", "nope", "1"],
                          capture_output=True, text=True, cwd=paths.ROOT)
    assert proc.returncode == 2
    assert "unknown parameter nope" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_jobs_run_chapters_side_by_side_and_readers_last(toy, monkeypatch):
    """--jobs 2: every chapter runs, a failing one does not stop the others, readers run after the rest."""
    toys = (chapters.Chapter("toy_a", "toy", {"n": 2}), chapters.Chapter("toy_b", "toy", {"fail": True}),
            chapters.Chapter("toy_c", "toy", {"n": 4}), chapters.Chapter("toy_r", "toy"))
    monkeypatch.setattr(chapters, "CHAPTERS", toys)
    monkeypatch.setattr(chapters, "READERS", ("toy_r",))
    independent, readers = scheduling.split_readers([(c, {}) for c in toys])
    assert [c.id for c, _ in independent] == ["toy_a", "toy_b", "toy_c"] and [c.id for c, _ in readers] == ["toy_r"]
    out = toy / "out"
    with pytest.raises(RobotaskError, match="toy_b"):
        runner.run(None, "smoke", out_dir=out, jobs=2, ranges={})
    assert (out / "toy_a.ipynb").is_file() and (out / "toy_c.ipynb").is_file()
    assert not (out / "toy_b.ipynb").exists() and not (out / "toy_r.ipynb").exists()  # readers wait for success
    records = runner.run(["toy_a", "toy_c", "toy_r"], "smoke", out_dir=out, jobs=2, ranges={})
    assert sorted(r.chapter for r in records[:2]) == ["toy_a", "toy_c"] and records[-1].chapter == "toy_r"


def _times(out: Path, name: str) -> tuple[datetime, datetime]:
    """When papermill started and finished the executed notebook ``out/name.ipynb``."""
    meta = json.loads((out / f"{name}.ipynb").read_text())["metadata"]["papermill"]
    return datetime.fromisoformat(meta["start_time"]), datetime.fromisoformat(meta["end_time"])


def test_a_chapter_starts_after_the_chapters_it_waits_for(toy, monkeypatch):
    """chapters.AFTER: side by side, toy_b (first in line, a free worker beside it) starts only once toy_a has
    finished; a prerequisite that is not run does not hold a chapter back; a circle is one clear error."""
    toys = (chapters.Chapter("toy_b", "toy"), chapters.Chapter("toy_a", "toy", {"n": 2}))
    monkeypatch.setattr(chapters, "CHAPTERS", toys)
    monkeypatch.setattr(chapters, "AFTER", {"toy_b": ("toy_a",)})
    out = toy / "out"
    runner.run(None, "smoke", out_dir=out, jobs=2, ranges={})

    assert _times(out, "toy_b")[0] >= _times(out, "toy_a")[1]
    assert [r.chapter for r in runner.run(["toy_b"], "smoke", out_dir=out, jobs=2, ranges={})] == ["toy_b"]
    monkeypatch.setattr(chapters, "AFTER", {"toy_b": ("toy_a",), "toy_a": ("toy_b",)})
    with pytest.raises(RobotaskError, match=r"chapters toy_[ab], toy_[ab] wait for one another"):
        runner.run(None, "smoke", out_dir=out, jobs=2, ranges={})


def test_while_the_alone_chapter_sleeps_one_more_chapter_runs(toy, monkeypatch):
    """--jobs 2 with an ALONE chapter: once it sleeps in wait_until_alone, a third of the others runs beside the
    two (two chapters and a busy process on two cores got 1.27 cores, three 1.5); it times alone at the end."""
    (toy / "notebooks" / "alone.py").write_text(
        '# %% tags=["parameters"]\nx: int = 0  # unused\n\n# %%\nfrom robotask.book import wait_until_alone\n\n'
        'assert wait_until_alone()\n')
    (toy / "notebooks" / "sleeper.py").write_text(
        '# %% tags=["parameters"]\nseconds: float = 5.0  # how long\n\n# %%\nimport time\n\ntime.sleep(seconds)\n')
    toys = (chapters.Chapter("alone", "alone"), *(chapters.Chapter(name, "sleeper") for name in "xyz"))
    monkeypatch.setattr(chapters, "CHAPTERS", toys)
    for name, value in {"ALONE": ("alone",), "READERS": (), "WAITING": (), "LONGEST": (), "AFTER": {}}.items():
        monkeypatch.setattr(chapters, name, value)
    out = toy / "out"
    runner.run(None, "smoke", out_dir=out, jobs=2, ranges={})

    starts, ends = zip(*(_times(out, name) for name in "xyz"))
    assert max(starts) < min(ends)  # three side by side with two jobs
    assert _times(out, "alone")[1] >= max(ends)
    assert not list(out.glob(".alone-*"))  # the mark and the waiting record are gone


def test_a_reader_whose_inputs_are_named_runs_side_by_side_once_they_are_done():
    """The suite summary reads the twelve task pages and nothing else: it need not wait for every chapter."""
    task_pages = {c.id for c in chapters.CHAPTERS if c.source == "12_task"}
    assert set(chapters.AFTER["13_suite_summary"]) == task_pages
    source = (paths.NOTEBOOKS / "13_suite_summary.py").read_text()
    assert "14_collections" not in source and "run_log" not in source


def test_next_ready_skips_a_chapter_whose_prerequisite_is_still_running(monkeypatch):
    monkeypatch.setattr(chapters, "AFTER", {"b": ("a",)})
    pending = [(chapters.Chapter(name, "toy"), {}) for name in ("b", "c")]
    assert scheduling.next_ready(pending, set(), {"a", "b", "c"}) == 1  # a runs: c goes first
    assert scheduling.next_ready(pending, {"a"}, {"a", "b", "c"}) == 0
    assert scheduling.next_ready(pending, set(), {"b", "c"}) == 0  # a is not part of this run
    assert scheduling.next_ready(pending[:1], set(), {"a", "b"}) is None


def test_the_task_pages_that_share_a_fit_do_not_start_together():
    """Every task page whose task shares its fit (TaskSpec.fit_key) with an earlier one waits for it (chapters.AFTER):
    side by side, the second would wait on the cache's lock with its core idle."""
    from robotask.episode.tasks.registry import TASKS

    first: dict[str, str] = {}
    wanted = {}
    for task in TASKS.values():
        if task.fit_key and task.fit_key in first:
            wanted[f"12_task_{task.id}"] = (f"12_task_{first[task.fit_key]}",)
        first.setdefault(task.fit_key, task.id)
    assert {k: v for k, v in chapters.AFTER.items() if k.startswith("12_task_")} == wanted
    assert all(c in {x.id for x in chapters.CHAPTERS} for c in chapters.WAITING)


def test_kernel_environment_sets_passive_waits_for_side_by_side_runs_and_restores(monkeypatch):
    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    monkeypatch.setenv("ROBOTASK_PROGRESS", "1")
    with runner.kernel_environment(2):
        assert os.environ["OMP_WAIT_POLICY"] == "PASSIVE" and os.environ["ROBOTASK_PROGRESS"] == "0"
    assert "OMP_WAIT_POLICY" not in os.environ and os.environ["ROBOTASK_PROGRESS"] == "1"
    with runner.kernel_environment(1):
        assert "OMP_WAIT_POLICY" not in os.environ
    monkeypatch.setenv("OMP_WAIT_POLICY", "ACTIVE")  # a user's choice is kept
    with runner.kernel_environment(2):
        assert os.environ["OMP_WAIT_POLICY"] == "ACTIVE"


def test_side_by_side_kernels_get_one_blas_and_openmp_thread_unless_the_user_chose(monkeypatch):
    for key in scheduling.ONE_THREAD:
        monkeypatch.delenv(key, raising=False)
    probe = ("import json, numpy, torch, threadpoolctl; print(json.dumps([torch.get_num_threads(), "
             "sorted({p['num_threads'] for p in threadpoolctl.threadpool_info() if p['user_api'] == 'blas'})]))")
    with runner.kernel_environment(2):  # a kernel started now inherits this environment
        out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == [1, [1]]  # torch's intra-op threads and numpy's OpenBLAS
    assert "OPENBLAS_NUM_THREADS" not in os.environ and "OMP_NUM_THREADS" not in os.environ
    with runner.kernel_environment(1):  # one chapter at a time keeps every core's threads
        assert "OPENBLAS_NUM_THREADS" not in os.environ
    monkeypatch.setenv("OMP_NUM_THREADS", "2")  # a user's choice is kept
    with runner.kernel_environment(2):
        assert os.environ["OMP_NUM_THREADS"] == "2" and os.environ["OPENBLAS_NUM_THREADS"] == "1"


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="the variables are glibc's malloc's")
def test_kernels_reuse_freed_memory_instead_of_fresh_zeroed_pages(monkeypatch):
    for key in scheduling.MALLOC_REUSE:
        monkeypatch.delenv(key, raising=False)
    probe = ("import resource, numpy; a = numpy.ones(6_250_000); del a; "  # 50 MB, freed, then again
             "f = resource.getrusage(resource.RUSAGE_SELF).ru_minflt; b = numpy.ones(6_250_000); "
             "print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f)")

    def faults() -> int:
        return int(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout)

    assert faults() > 100  # a fresh mmap: the second array's pages fault in again (4 KiB or huge pages)
    with runner.kernel_environment(1):  # a kernel started now inherits this environment
        assert faults() < 50  # the freed heap is reused
    assert not any(key in os.environ for key in scheduling.MALLOC_REUSE)


def test_side_by_side_chapters_start_longest_first_by_the_logged_run(tmp_path):
    toys = [(chapters.Chapter(name, "toy"), {}) for name in ("short", "new", "long", "failed")]
    log = tmp_path / "run_log.json"
    assert [c.id for c, _ in scheduling.longest_first(toys, log)] == ["short", "new", "long", "failed"]  # no log yet
    log.write_text(json.dumps({"short": {"seconds": 3.0}, "long": {"seconds": 90.0},
                               "failed": {"seconds": None}, "_python": "3.11"}))
    assert [c.id for c, _ in scheduling.longest_first(toys, log)] == ["new", "failed", "long", "short"]
    log.write_text("{not json")
    assert [c.id for c, _ in scheduling.longest_first(toys, log)] == ["short", "new", "long", "failed"]


def test_without_a_run_log_the_known_longest_chapter_starts_first(tmp_path):
    """A fresh clone has no run log: the temporal-order page, the longest besides chapter 14, must not start last
    and then run on one core at the end."""
    planned = [(c, {}) for c in chapters.CHAPTERS if c.id not in chapters.READERS]
    order = [c.id for c, _ in scheduling.longest_first(planned, tmp_path / "run_log.json")]
    first = list(chapters.WAITING + chapters.LONGEST)
    assert order[:len(first)] == first
    assert [i for i in order if i not in first] == [c.id for c, _ in planned if c.id not in first]
    logged = {"12_task_temporal_order": {"seconds": 5.0}, "01_extract_corpus": {"seconds": 9.0}}
    (tmp_path / "run_log.json").write_text(json.dumps(logged))
    order = [c.id for c, _ in scheduling.longest_first(planned, tmp_path / "run_log.json")]
    assert order[-2:] == ["01_extract_corpus", "12_task_temporal_order"]  # a log, once there, decides
    assert order[:len(chapters.WAITING)] == list(chapters.WAITING)  # except for the waiting chapters


def test_the_makefile_reads_the_readers_from_the_chapter_list():
    """READERS is defined once (robotask/book/chapters.py); the Makefile reads that line with sed."""
    import re

    from robotask import paths

    line = re.search(r"^READERS = \((.*)\)$", (paths.ROOT / "robotask" / "book" / "chapters.py").read_text(), re.M)
    assert line, "the Makefile's sed expects a one-line READERS = (...) in robotask/book/chapters.py"
    assert tuple(x.strip().strip('"') for x in line.group(1).split(",") if x.strip()) == chapters.READERS
    assert "READERS := $(shell sed" in (paths.ROOT / "Makefile").read_text()


def test_the_reproduction_page_reads_the_log_of_the_run_that_executes_it(tmp_path):
    """`make book SET=smoke` and `make test` write their logs to different places; page 99 gets the right one."""
    page = next(c for c in chapters.CHAPTERS if c.id == "99_reproducing")
    assert runner.with_run_log(page, {}, paths.BUILD / "run_log.json")["run_log"] == "_build/run_log.json"
    smoke = runner.with_run_log(page, {}, paths.BUILD / "smoke" / "run_log.json")
    assert smoke["run_log"] == "_build/smoke/run_log.json"
    assert runner.with_run_log(page, {"run_log": "mine.json"}, paths.BUILD / "run_log.json") == {"run_log": "mine.json"}
    other = next(c for c in chapters.CHAPTERS if c.id == "02_five_rankers")
    assert runner.with_run_log(other, {"seed": 1}, paths.BUILD / "run_log.json") == {"seed": 1}


def test_a_kernel_that_does_not_start_is_started_again_and_the_retry_is_printed(toy, monkeypatch, capsys):
    import papermill

    real, calls = papermill.execute_notebook, []

    def slow_once(*args, **kwargs):
        calls.append(kwargs["start_timeout"])
        if len(calls) == 1:
            raise RuntimeError("Kernel didn't respond in 180 seconds")
        return real(*args, **kwargs)

    monkeypatch.setattr(papermill, "execute_notebook", slow_once)
    runner.run(["toy"], "smoke", out_dir=toy / "out", ranges={})
    assert calls == [180.0, 180.0] and (toy / "out" / "toy.ipynb").is_file()
    printed = capsys.readouterr().out
    assert "toy: the kernel did not start (Kernel didn't respond in 180 seconds); starting it again" in printed


def test_a_kernel_that_never_starts_is_one_clear_error_and_keeps_the_previous_copy(toy, monkeypatch):
    import papermill

    out = toy / "out"
    runner.run(["toy"], "smoke", out_dir=out, ranges={})
    good = (out / "toy.ipynb").read_text()

    def never(*args, **kwargs):
        raise RuntimeError("Kernel didn't respond in 5 seconds")

    monkeypatch.setattr(papermill, "execute_notebook", never)
    with pytest.raises(RobotaskError, match=r"chapter toy: the kernel did not start \(Kernel didn't respond in 5 "
                                            r"seconds\), twice; the previous executed copy, if any, was left intact"):
        runner.run(["toy"], "smoke", out_dir=out, ranges={})
    assert (out / "toy.ipynb").read_text() == good and not list(out.glob(".*tmp*"))


BUSY = '''# %% tags=["parameters"]
seconds: float = 0.6  # CPU seconds each process spends

# %%
import multiprocessing
import time


def spin(until: float) -> None:
    start = time.process_time()
    while time.process_time() - start < until:
        pass


if __name__ == "__main__":
    spin(seconds)
    child = multiprocessing.get_context("fork").Process(target=spin, args=(seconds,))
    child.start()
    child.join()
'''


def test_the_log_records_the_cpu_time_of_the_kernel_and_of_the_processes_it_started(toy, monkeypatch):
    """A chapter that spins 0.6 s of CPU itself and 0.6 s in a child process: the log's CPU time counts both
    (page 99 shows it beside the wall time), while its wall time counts the kernel's start as well."""
    (toy / "notebooks" / "busy.py").write_text(BUSY)
    monkeypatch.setattr(chapters, "CHAPTERS", (chapters.Chapter("busy", "busy"),))
    out = toy / "out"
    [record] = runner.run(["busy"], "smoke", out_dir=out, ranges={})
    entry = json.loads((out / "run_log.json").read_text())["busy"]
    assert entry["cpu_seconds"] == record.cpu_seconds and entry["seconds"] == record.seconds
    assert record.cpu_seconds >= 1.2, record  # both processes' spins
    assert record.cpu_seconds < 1.2 + 30  # not the CPU of an earlier chapter or of the test process
