"""Concurrent work on one output, and a run stopped at any moment (issue 51).

Two ``robotask run`` of one chapter into one output folder at once: one is refused in one line (or, with
``ROBOTASK_LOCK_WAIT``, says it waits and runs after the other); the executed copy and the run log are then wholly
one run's, never a mix. ``robotask run`` stopped at each step of its work (converting the source, the kernel
running, tagging and titling the executed copy, moving it into place, logging) leaves the previous executed copy
byte for byte, or the new one whole. The steps are hit exactly in-process (a stand-in for the kernel, Ctrl-C raised
at the step); real signals hit a real kernel in a subprocess (a fast chapter at smoke scale: ``01_extract_corpus``).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from robotask.book import runner
from robotask.cli import main

ROBOTASK = str(Path(sys.executable).with_name("robotask"))
CHAPTER = "01_extract_corpus"  # the quickest chapter at smoke scale (about 5 s); parameter revision is only shown
REFUSED = (rf"robotask: error: chapter {CHAPTER} \(outputs in .*\) is in use by another run \(lock .*\); wait for "
           r"it to finish or write elsewhere; or set ROBOTASK_LOCK_WAIT=SECONDS to queue behind it")


def _env(tmp: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "ROBOTASK_CACHE": str(tmp / "cache"), "ROBOTASK_RESULTS": str(tmp / "results"),
            "ROBOTASK_PROGRESS": "0", **extra}


def _args(out: Path, revision: str) -> list[str]:
    return ["run", CHAPTER, "--set", "smoke", "--out", str(out), "-p", "revision", revision]


def _copy_revision(out: Path) -> str:
    """The ``revision`` the executed copy in ``out`` ran with (its injected-parameters cell); it must be whole."""
    nb = json.loads((out / f"{CHAPTER}.ipynb").read_text(encoding="utf-8"))
    [cell] = [c for c in nb["cells"] if "injected-parameters" in c["metadata"].get("tags", [])]
    [line] = [t for t in "".join(cell["source"]).splitlines() if t.startswith("revision = ")]
    return json.loads(line.split(" = ", 1)[1])


def _log_revision(out: Path) -> str:
    return json.loads((out / "run_log.json").read_text(encoding="utf-8"))[CHAPTER]["parameters"]["revision"]


def _strays(out: Path) -> list[str]:
    """Files in ``out`` besides the executed copy, the run log, the locks and the work folder ``.run``."""
    keep = {f"{CHAPTER}.ipynb", "run_log.json", f".{CHAPTER}.lock", ".run_log.json.lock", ".run"}
    return sorted(p.name for p in out.iterdir() if p.name not in keep)


@pytest.fixture(scope="module")
def previous(tmp_path_factory) -> Path:
    """A folder holding one earlier run's executed copy (revision ``before``), its run log and its results."""
    tmp = tmp_path_factory.mktemp("previous")
    got = subprocess.run([ROBOTASK, *_args(tmp / "out", "before")], env=_env(tmp), capture_output=True, text=True,
                         timeout=300)
    assert got.returncode == 0, got.stderr[-2000:]
    return tmp


@pytest.fixture
def here(previous, tmp_path) -> Path:
    """This test's copy of the earlier run's folders."""
    for name in ("out", "results"):
        shutil.copytree(previous / name, tmp_path / name, symlinks=True)
    return tmp_path


def _kernel_of(proc: subprocess.Popen) -> bool:
    """Whether a Jupyter kernel started by ``proc`` runs (its chapter is executing)."""
    import psutil

    try:
        return any(any("ipykernel" in part for part in child.cmdline())
                   for child in psutil.Process(proc.pid).children(recursive=True))
    except psutil.Error:
        return False


def _start(here: Path, revision: str, **env: str) -> subprocess.Popen:
    return subprocess.Popen([ROBOTASK, *_args(here / "out", revision)], env=_env(here, **env), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _until(proc: subprocess.Popen, ready, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < deadline and not ready():
        time.sleep(0.005)


def test_two_runs_at_once_one_is_refused_in_one_line_and_the_copy_is_wholly_the_others(here):
    procs = {rev: _start(here, rev) for rev in ("a", "b")}
    done = {rev: (p.wait(timeout=300), *p.communicate()) for rev, p in procs.items()}
    assert sorted(code for code, _, _ in done.values()) == [0, 2], done
    [winner] = [rev for rev, (code, _, _) in done.items() if code == 0]
    [(_, _, refused)] = [v for rev, v in done.items() if rev != winner]
    assert refused.count("\n") == 1 and "Traceback" not in refused, refused
    assert __import__("re").fullmatch(REFUSED + "\n", refused), refused
    assert _copy_revision(here / "out") == winner == _log_revision(here / "out")
    assert _strays(here / "out") == []


def test_a_run_told_to_wait_says_so_then_runs_whole_after_the_first(here):
    first = _start(here, "a")
    _until(first, lambda: _kernel_of(first))
    assert first.poll() is None, "the first run ended before the second started"
    second = _start(here, "b", ROBOTASK_LOCK_WAIT="inf")
    codes = (first.wait(timeout=300), second.wait(timeout=300))
    out_b = second.communicate()[0]
    assert codes == (0, 0), (first.communicate(), second.communicate())
    waited = (f"[robotask] chapter {CHAPTER} (outputs in {here / 'out'}) is in use by another run; waiting for it "
              "to finish (up to any time, ROBOTASK_LOCK_WAIT)")
    assert waited in out_b, out_b
    assert _copy_revision(here / "out") == "b" == _log_revision(here / "out")
    assert _strays(here / "out") == []


@pytest.mark.parametrize(("sig", "moment"), [(signal.SIGINT, "kernel"), (signal.SIGTERM, "kernel"),
                                             (signal.SIGTERM, "publishing")],
                         ids=["SIGINT-kernel", "SIGTERM-kernel", "SIGTERM-publishing"])
def test_a_signal_while_the_kernel_runs_or_the_copy_is_published_keeps_a_whole_copy(here, sig, moment):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) or ``kill PID`` (SIGTERM to robotask
    alone) while the chapter's kernel runs, or just after it ended while the copy is tagged and moved into place."""
    before = (here / "out" / f"{CHAPTER}.ipynb").read_bytes()
    log_before = (here / "out" / "run_log.json").read_bytes()
    proc = _start(here, "after")
    _until(proc, lambda: _kernel_of(proc))
    if moment == "publishing":
        _until(proc, lambda: not _kernel_of(proc))
    else:
        time.sleep(0.5)
    if proc.poll() is None:
        (os.killpg if sig == signal.SIGINT else os.kill)(proc.pid, sig)
    code = proc.wait(timeout=120)
    err = proc.communicate()[1]
    copy = (here / "out" / f"{CHAPTER}.ipynb").read_bytes()
    if code == 0:  # the run ended before the signal came: its copy and log, whole
        assert _copy_revision(here / "out") == "after" == _log_revision(here / "out")
    else:
        assert code == (130 if sig == signal.SIGINT else 143), err[-2000:]
        assert err.count("\n") == 1 and "files already written are complete" in err, err[-2000:]
        # the previous copy byte for byte; or, stopped after the move, the new one whole (the log may lag by it)
        assert copy == before or _copy_revision(here / "out") == "after", "the executed copy is neither run's"
        if copy == before:
            assert (here / "out" / "run_log.json").read_bytes() == log_before
    assert _strays(here / "out") == []


# In-process: Ctrl-C raised exactly at each step of a run, with a stand-in for the kernel (no kernel starts).
STEPS = ("converting", "kernel", "tagging", "titling", "logging")


@pytest.fixture
def stand_in_kernel(monkeypatch):
    """papermill's execute_notebook replaced by a stand-in that writes the notebook with its injected parameters,
    as papermill does, at once."""
    import nbformat
    import papermill

    def execute_notebook(source, output, parameters, **kwargs):
        nb = nbformat.read(source, as_version=4)
        cell = nbformat.v4.new_code_cell("\n".join(f"{k} = {json.dumps(v)}" for k, v in parameters.items()))
        cell.metadata["tags"] = ["injected-parameters"]
        nb.cells.insert(1, cell)
        nbformat.write(nb, output)

    monkeypatch.setattr(papermill, "execute_notebook", execute_notebook)
    monkeypatch.setattr(sys, "unraisablehook", sys.unraisablehook)  # the CLI silences it after Ctrl-C
    return execute_notebook


def _ctrl_c_at(monkeypatch, step: str, kernel) -> None:
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    def after(real):
        def step_then_interrupt(*args, **kwargs):
            real(*args, **kwargs)
            raise KeyboardInterrupt
        return step_then_interrupt

    if step == "converting":
        monkeypatch.setattr(runner, "_to_notebook", interrupted)
    elif step == "kernel":  # papermill writes what it ran so far, then the interrupt reaches robotask
        import papermill
        monkeypatch.setattr(papermill, "execute_notebook", after(kernel))
    elif step == "tagging":
        monkeypatch.setattr(runner, "_publish_tags", after(runner._publish_tags))
    elif step == "titling":  # the last step before the copy is moved into place
        monkeypatch.setattr(runner.titles, "retitle", after(runner.titles.retitle))
    else:  # the copy is in place, its entry in the run log not yet written
        monkeypatch.setattr(runner, "_log", interrupted)


@pytest.mark.parametrize("step", STEPS)
def test_ctrl_c_at_each_step_of_a_run_leaves_the_previous_copy_or_the_new_one_whole(here, step, monkeypatch, capsys,
                                                                                    stand_in_kernel):
    out = here / "out"
    before, log_before = (out / f"{CHAPTER}.ipynb").read_bytes(), (out / "run_log.json").read_bytes()
    monkeypatch.setenv("ROBOTASK_RESULTS", str(here / "results"))
    assert main(_args(out, "after")) == 0  # the stand-in runs: the steps work as they are
    assert _copy_revision(out) == "after" == _log_revision(out)
    (out / f"{CHAPTER}.ipynb").write_bytes(before)
    (out / "run_log.json").write_bytes(log_before)
    capsys.readouterr()
    _ctrl_c_at(monkeypatch, step, stand_in_kernel)
    assert main(_args(out, "after")) == 130
    assert capsys.readouterr().err == "robotask: interrupted; files already written are complete\n"
    if step == "logging":
        assert _copy_revision(out) == "after"  # moved into place whole; the log keeps the previous entry
    else:
        assert (out / f"{CHAPTER}.ipynb").read_bytes() == before
    assert (out / "run_log.json").read_bytes() == log_before
    assert _strays(out) == []


def test_a_lock_wait_that_is_not_a_number_is_refused_before_a_kernel(here, monkeypatch, capsys):
    monkeypatch.setattr(runner, "execute", lambda *a, **k: pytest.fail("a kernel started"))
    monkeypatch.setenv("ROBOTASK_LOCK_WAIT", "soon")
    assert main(_args(here / "out", "after")) == 2
    assert capsys.readouterr().err == ("robotask: error: ROBOTASK_LOCK_WAIT='soon': expected a number of seconds to "
                                       "wait for another run of the same chapter (0: refuse at once, inf: as long as "
                                       "it takes)\n")
