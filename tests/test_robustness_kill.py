"""Interruptions and concurrency: SIGKILL mid-write loses nothing and leaves no half file under a
final name; the next run completes; two runs of the same work never interleave their files.

Runs the real command line (``robotask run`` on a small smoke chapter, ``robotask features`` and
``robotask suite`` on a tiny synthetic episode). Temporary names are dot-prefixed, so a reader of
the output folders never sees a partial file.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import zipfile
from io import BytesIO
from pathlib import Path

import numpy as np
import pytest

ROBOTASK = str(Path(sys.executable).with_name("robotask"))
CHAPTER = "04_scoring_audit"  # a small smoke chapter (seconds)


def _env(tmp: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "ROBOTASK_CACHE": str(tmp / "cache"), "ROBOTASK_RESULTS": str(tmp / "results"),
            "ROBOTASK_PROGRESS": "0", **extra}


def _run(args: list[str], env: dict, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([ROBOTASK, *args], env=env, capture_output=True, text=True, timeout=timeout)


def _visible(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` not hidden behind a dot-prefixed name (a temporary or a lock)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and not any(part.startswith(".") for part in p.relative_to(root).parts)}


def _complete(name: str, data: bytes) -> bool:
    """Whether ``data`` is a whole file of its kind (half-written ones fail to parse)."""
    suffix = Path(name).suffix
    try:
        if suffix in (".json", ".ipynb"):
            json.loads(data)
        elif suffix in (".npz", ".pt"):
            with zipfile.ZipFile(BytesIO(data)) as zf:
                return zf.testzip() is None
        elif suffix == ".png":
            return data.startswith(b"\x89PNG") and data.rstrip(b"\x00").endswith(b"IEND\xaeB`\x82")
        elif suffix == ".csv":
            return data.endswith(b"\n")
    except (ValueError, zipfile.BadZipFile):
        return False
    return True


def _kill_midway(args: list[str], env: dict, watch: list[Path], delay: float) -> None:
    """Start ``robotask ARGS``; SIGKILL its whole process group once a temporary file appears under
    ``watch`` (a write in progress) or after ``delay`` seconds."""
    proc = subprocess.Popen([ROBOTASK, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.monotonic() + delay
    while time.monotonic() < deadline and proc.poll() is None:
        if any(p.name.startswith(".") and p.name.endswith(".tmp") for w in watch if w.exists() for p in w.rglob(".*")):
            break
        time.sleep(0.01)
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def _check_after_kill(roots: list[Path], before: dict[str, dict[str, bytes]]) -> None:
    for root in roots:
        now = _visible(root)
        lost = sorted(set(before[str(root)]) - set(now))
        assert not lost, f"files lost in {root}: {lost}"
        half = [n for n, data in now.items() if data != before[str(root)].get(n) and not _complete(n, data)]
        assert not half, f"half-written files under final names in {root}: {half}"


def _kill_and_rerun(args: list[str], env: dict, roots: list[Path], delay: float) -> None:
    first = _run(args, env)
    assert first.returncode == 0, first.stderr[-2000:]
    before = {str(r): _visible(r) for r in roots}
    assert all(before.values())
    _kill_midway(args, env, roots, delay)
    _check_after_kill(roots, before)
    again = _run(args, env)
    assert again.returncode == 0, again.stderr[-2000:]
    for root in roots:
        assert all(_complete(n, d) for n, d in _visible(root).items())


@pytest.fixture(scope="module")
def episode(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("episode")
    out = tmp / "ep"
    proc = _run(["synth", "--out", str(out), "--frames", "120", "--resolution", "16", "--seed", "1"], _env(tmp))
    assert proc.returncode == 0, proc.stderr[-2000:]
    return out


def test_killed_chapter_run_keeps_previous_results_and_reruns(tmp_path):
    out = tmp_path / "executed"
    args = ["run", CHAPTER, "--set", "smoke", "--out", str(out)]
    _kill_and_rerun(args, _env(tmp_path), [out, tmp_path / "results"], delay=8)


def test_killed_feature_build_keeps_outputs_and_cache_consistent(tmp_path, episode):
    out = tmp_path / "features"
    args = ["features", str(episode), "--out", str(out)]
    env = _env(tmp_path)
    _kill_and_rerun(args, env, [out], delay=1.5)
    fresh = _env(tmp_path, ROBOTASK_CACHE=str(tmp_path / "cache2"))  # kill while the cache is being built
    _kill_midway(args, fresh, [tmp_path / "cache2"], delay=1.5)
    for name, data in _visible(tmp_path / "cache2").items():
        assert _complete(name, data), f"cache entry {name} is half-written"
    assert _run(args, fresh).returncode == 0
    assert _visible(out)["windows.csv"] == _visible(tmp_path / "features")["windows.csv"]


def test_killed_suite_keeps_previous_results_and_reruns(tmp_path, episode):
    out = tmp_path / "suite"
    args = ["suite", "--episode", str(episode), "--out", str(out), "--heads", "minimal", "--epochs", "5",
            "--tasks", "timeline_action,next_action,contact_prediction"]
    _kill_and_rerun(args, _env(tmp_path), [out], delay=2.5)


def test_two_runs_of_one_chapter_never_interleave(tmp_path):
    out = tmp_path / "executed"
    args = ["run", CHAPTER, "--set", "smoke", "--out", str(out)]
    env = _env(tmp_path)
    procs = [subprocess.Popen([ROBOTASK, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(2)]
    results = [(p.wait(timeout=300), p.stderr.read()) for p in procs]
    codes = sorted(code for code, _ in results)
    assert codes == [0, 2], results
    refused = next(err for code, err in results if code == 2)
    assert f"chapter {CHAPTER}" in refused and "in use by another run" in refused and "Traceback" not in refused
    assert (out / f"{CHAPTER}.ipynb").is_file()
    assert all(_complete(n, d) for n, d in _visible(tmp_path / "results").items())


def test_two_feature_builds_of_one_episode_share_one_result(tmp_path, episode):
    env = _env(tmp_path)
    outs = [tmp_path / "a", tmp_path / "b"]
    procs = [subprocess.Popen([ROBOTASK, "features", str(episode), "--out", str(o)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for o in outs]
    for p in procs:
        assert p.wait(timeout=300) == 0, p.stderr.read()
    a, b = (_visible(o) for o in outs)
    assert a == b and set(a) >= {"windows.csv", "shared_windows.npz"}
    entries = [p for p in (tmp_path / "cache").rglob("*") if p.is_file() and not p.name.startswith(".")]
    assert entries and all(_complete(p.name, p.read_bytes()) for p in entries)
    with np.load(outs[0] / "shared_windows.npz") as z:
        assert z[z.files[0]].shape[0] > 0


INTERRUPTED = "robotask: interrupted; files already written are complete"


def _interrupt(args: list[str], env: dict, when, sig: int = signal.SIGINT) -> subprocess.CompletedProcess:
    """Start ``robotask ARGS`` in its own process group and press Ctrl-C (SIGINT to the whole group, as
    a terminal does) once ``when()`` is true, or after 60 s; with ``sig=SIGTERM``, ``kill PID`` instead
    (SIGTERM to the robotask process alone, as a job scheduler or ``timeout`` sends it)."""
    proc = subprocess.Popen([ROBOTASK, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_terminal_sigint)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None and not when():
        time.sleep(0.01)
    if proc.poll() is None:
        if sig == signal.SIGINT:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            os.kill(proc.pid, sig)
    out, err = proc.communicate(timeout=120)  # a hung command fails the test here
    leftover = _group_members(proc.pid)
    if leftover:  # a child left running is a failure too; end it so the next test starts clean
        os.killpg(proc.pid, signal.SIGKILL)
    assert not leftover, f"processes left running after the interrupt: {leftover}"
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _group_members(pgid: int) -> list[int]:
    """Live processes of process group ``pgid`` (after a moment for them to finish exiting)."""
    import psutil

    for _ in range(50):
        alive = []
        for p in psutil.process_iter():
            try:
                if os.getpgid(p.pid) == pgid and p.status() != psutil.STATUS_ZOMBIE:
                    alive.append(p.pid)
            except (ProcessLookupError, psutil.Error):
                pass
        if not alive:
            return []
        time.sleep(0.2)
    return alive


def _terminal_sigint() -> None:
    """In the child before it starts: SIGINT as a terminal's shell leaves it (default), whatever the test
    runner's worker process set (a pytest-xdist worker may ignore it, and children inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _writing(root: Path):
    """True once a temporary file is being written under ``root`` (the work has started)."""
    return lambda: root.exists() and any(p.name.endswith(".tmp") for p in root.rglob(".*"))


def _after(seconds: float):
    start = time.monotonic()
    return lambda: time.monotonic() - start >= seconds


def _kernel_running(env: dict):
    """True once a Jupyter kernel started with ``env`` (this test's cache folder) runs: the chapter is executing.
    A fixed delay instead (4 s) fell after the end of a 3.4-s chapter on a quicker machine, in the process's exit."""
    import psutil

    def running() -> bool:
        for p in psutil.process_iter(["cmdline"]):
            try:
                if (any("ipykernel" in part for part in p.info["cmdline"] or [])
                        and p.environ().get("ROBOTASK_CACHE") == env["ROBOTASK_CACHE"]):
                    return True
            except psutil.Error:
                pass
        return False
    return running


@pytest.fixture(scope="module")
def collection(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("collection")
    proc = _run(["synth-collection", "--out", str(tmp / "col"), "--episodes", "3", "--frames", "120",
                 "--resolution", "16", "--workers", "1"], _env(tmp))
    assert proc.returncode == 0, proc.stderr[-2000:]
    return tmp / "col"


@pytest.mark.parametrize(("command", "stage"), [
    ("run", "working"), ("suite", "working"),  # starting (imports, parsing) is the same code for all
    ("features --collection", "starting"), ("features --collection", "working"),  # Dask workers starting
])
def test_ctrl_c_at_each_stage_prints_one_line_and_loses_nothing(tmp_path, episode, collection, command, stage):
    env = _env(tmp_path)
    if command == "run":
        out = tmp_path / "executed"
        args, work = ["run", CHAPTER, "--set", "smoke", "--out", str(out)], tmp_path / "results"
    elif command == "suite":
        out = tmp_path / "suite"
        args = ["suite", "--episode", str(episode), "--out", str(out), "--heads", "minimal", "--epochs", "5",
                "--tasks", "all", "--jobs", "2"]  # Ctrl-C while the task processes work: none may hang
        work = out
    else:
        out = tmp_path / "features"
        args, work = ["features", "--collection", str(collection), "--out", str(out), "--workers", "2"], tmp_path
    first = _run(args, env)
    assert first.returncode == 0, first.stderr[-2000:]
    before = {str(out): _visible(out)}
    if command == "features --collection":
        env = _env(tmp_path, ROBOTASK_CACHE=str(tmp_path / "cache2"))  # the features are computed again
        work = tmp_path / "cache2"
    if command.startswith("features"):
        when = _after(0.3) if stage == "starting" else _writing(work)
    else:  # while a chapter's kernel runs; while the suite trains its heads
        when = _kernel_running(env) if command == "run" else _after(0.8)
    got = _interrupt(args, env, when)
    if got.returncode == 0:
        pytest.skip(f"{command} finished before the interrupt reached it")
    assert got.returncode == 130, got.stderr[-2000:]
    assert "Traceback" not in got.stderr and got.stderr.strip().splitlines()[-1] == INTERRUPTED, got.stderr[-2000:]
    _check_after_kill([out], before)
    again = _run(args, env)
    assert again.returncode == 0, again.stderr[-2000:]


TERMINATED = "robotask: terminated (SIGTERM); files already written are complete"


@pytest.mark.parametrize("command", ["run", "suite", "features --collection"])
def test_sigterm_is_handled_like_ctrl_c_with_exit_143(tmp_path, episode, collection, command):
    """``kill PID`` (SIGTERM to robotask alone): one line, exit 143, no child left running, earlier results
    intact, nothing half-written, and the next run completes."""
    env = _env(tmp_path)
    if command == "run":
        out = tmp_path / "executed"
        args = ["run", CHAPTER, "--set", "smoke", "--out", str(out)]
    elif command == "suite":
        out = tmp_path / "suite"
        args = ["suite", "--episode", str(episode), "--out", str(out), "--heads", "minimal", "--epochs", "5",
                "--tasks", "all", "--jobs", "2"]
    else:
        out = tmp_path / "features"
        args = ["features", "--collection", str(collection), "--out", str(out), "--workers", "2"]
    first = _run(args, env)
    assert first.returncode == 0, first.stderr[-2000:]
    before = {str(out): _visible(out)}
    if command.startswith("features"):
        env = _env(tmp_path, ROBOTASK_CACHE=str(tmp_path / "cache2"))
        when = _writing(tmp_path / "cache2")
    else:  # while the chapter's kernel runs; while the task processes train their heads
        when = _kernel_running(env) if command == "run" else _after(0.8)
    got = _interrupt(args, env, when, sig=signal.SIGTERM)
    if got.returncode == 0:
        pytest.skip(f"{command} finished before SIGTERM reached it")
    assert got.returncode == 143, got.stderr[-2000:]
    assert "Traceback" not in got.stderr and got.stderr.strip().splitlines()[-1] == TERMINATED, got.stderr[-2000:]
    _check_after_kill([out], before)
    again = _run(args, env)
    assert again.returncode == 0, again.stderr[-2000:]


IDLE_WORKER = """
import multiprocessing
from robotask.errors import sigterm_as_interrupt
with sigterm_as_interrupt():
    context = multiprocessing.get_context("fork")
    work, ready = context.Queue(), context.Event()
    # waits for work, as an idle task process; a daemon, so that a worker still alive cannot hold up the exit
    worker = context.Process(target=lambda: (ready.set(), work.get()), daemon=True)
    worker.start()
    started = ready.wait(60)
    worker.terminate()  # what the parent does to its task processes when it stops
    worker.join(60)
    print(worker.exitcode, "started" if started else "not-started")
"""


def test_sigterm_ends_a_forked_idle_task_process_quietly():
    """A process forked under ``sigterm_as_interrupt`` inherits its handler; SIGTERM from its parent ends it as a
    plain SIGTERM would (exit -15), with no traceback, even while it only waits for its next task (a SIGTERM of
    ``robotask suite`` 0.8 s after its start once printed one from such a process)."""
    proc = subprocess.run([sys.executable, "-c", IDLE_WORKER], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == [str(-signal.SIGTERM), "started"], (proc.stdout, proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]


STUCK = """
import os, sys, threading
from robotask import cli

reader, _writer = os.pipe()  # nothing is ever written: the thread reads forever, as a pool's manager thread
threading.Thread(target=os.read, args=(reader, 1)).start()  # whose worker was ended mid-message does


def interrupted(_args):
    raise KeyboardInterrupt


class Parser:  # any command whose work is cut short by Ctrl-C
    def parse_args(self, _argv):
        return type("Args", (), {"func": staticmethod(interrupted)})()


cli.build_parser = lambda name=None: Parser()
sys.argv = ["robotask", "suite"]
sys.exit(cli.main())
"""


def test_ctrl_c_ends_the_command_even_when_a_thread_would_wait_forever():
    t0 = time.monotonic()
    got = subprocess.run([sys.executable, "-c", STUCK], capture_output=True, text=True, timeout=60)
    assert got.returncode == 130, got.stderr[-2000:]
    assert got.stderr.strip() == "robotask: interrupted; files already written are complete"
    assert time.monotonic() - t0 < 30  # the 5 s grace, not forever
