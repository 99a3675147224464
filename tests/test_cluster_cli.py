"""A cluster of real processes: ``dask scheduler`` and ``dask worker --nthreads 1`` started from the venv's CLI on a
free port of 127.0.0.1, ``robotask features --collection`` and ``robotask suite --collection`` run against it with
``--scheduler``, and the faults a real cluster has: a worker killed, every worker killed, the scheduler killed,
nothing listening, a worker that cannot see a path, a worker with another version.

Every process a test starts (the nannies' worker processes included) must be gone after it (a process-leak
check, as ``distributed``'s own CLI tests make). The collection is tiny and synthetic (4 episodes of 160 frames at
16 px): the file takes about a minute on 2 cores.
"""

from __future__ import annotations

import filecmp
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from robotask.episode.features.connection import CONNECT_SECONDS
from robotask.episode.features.layout import FeatureOptions
from robotask.episode.features.windowset import load_window_set, write_artifacts
from robotask.episode.synthesis.varied import synth_collection

BIN = Path(sys.executable).parent
EPISODES = 4
TASKS = "temporal_order,misalignment_detection,timeline_action,object_relevance,hand_trajectory_forecast"
SUITE = ["--split", "group-kfold", "--folds", "2", "--heads", "minimal", "--epochs", "2", "--no-models",
         "--tasks", TASKS]
# --epochs 2: the streamed heads of the first two tasks take the primal path, so their epochs run on the
# workers' actors; the other three: a softmax, a multi-label head and a ridge, fitted in the driver


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A scheduler and workers started from the ``dask`` CLI, each in its own process group; :meth:`stop` ends them
    and checks that every process they ever had (a nanny's worker process too) is gone."""

    def __init__(self, root: Path, workers: int = 2, **worker_options) -> None:
        self.root, self.port = root, _free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.seen: set[int] = set()
        self.by_name: dict[str, subprocess.Popen] = {}
        self.scheduler = self._start("scheduler", ["scheduler", "--host", "127.0.0.1", "--port", str(self.port),
                                                   "--no-dashboard"])
        self.workers = [self.add_worker(**worker_options) for _ in range(workers)]
        self.wait_for(workers)

    def _start(self, name: str, argv: list[str], prefix: tuple[str, ...] = ()) -> subprocess.Popen:
        log = open(self.root / f"{name}-{len(self.seen)}.log", "wb")  # noqa: SIM115 - closed with the process
        env = {**os.environ, "ROBOTASK_PROGRESS": "0"}
        proc = subprocess.Popen([*prefix, str(BIN / "dask"), *argv], stdout=log, stderr=log, env=env,
                                start_new_session=True)
        self.seen.add(proc.pid)
        return proc

    def add_worker(self, prefix: tuple[str, ...] = (), preload: str | None = None) -> subprocess.Popen:
        """One more ``dask worker --nthreads 1`` (after ``prefix``, e.g. ``unshare``; with ``--preload``)."""
        name, extra = f"w{len(self.by_name)}", ["--preload", preload] if preload else []
        self.by_name[name] = self._start("worker", ["worker", self.address, "--nthreads", "1", "--no-dashboard",
                                                    "--name", name, "--local-directory",
                                                    str(self.root / "dask-scratch"), *extra], prefix)
        return self.by_name[name]

    def client(self):
        from distributed import Client

        return Client(self.address, timeout=30)

    def wait_for(self, n: int) -> None:
        with self.client() as c:
            if n:
                c.wait_for_workers(n, timeout=60)
        self._note_children()

    def _note_children(self) -> None:
        for pid in list(self.seen):
            try:
                self.seen.update(p.pid for p in psutil.Process(pid).children(recursive=True))
            except psutil.NoSuchProcess:
                pass

    def kill(self, proc: subprocess.Popen) -> None:
        """SIGKILL to a whole process (a worker's nanny and its worker process): a lost machine."""
        self._note_children()
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()

    def stop(self) -> None:
        self._note_children()
        procs = [*self.workers, self.scheduler]
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + 15
        for proc in procs:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(5)
        leaked = []
        for pid in self.seen:
            deadline = time.monotonic() + 10
            while _alive(pid) and time.monotonic() < deadline:
                time.sleep(0.1)
            if _alive(pid):
                leaked.append(pid)
                os.kill(pid, signal.SIGKILL)
        assert not leaked, f"processes left running: {leaked}"


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@pytest.fixture(scope="module")
def coll(tmp_path_factory):
    """The tiny collection and each episode's artifacts built in this process (the one-process reference)."""
    root = tmp_path_factory.mktemp("cluster")
    synth_collection(root / "coll", EPISODES, 160, 16, 7, workers=2)
    for ep in sorted((root / "coll").glob("ep*")):
        write_artifacts(load_window_set(ep, FeatureOptions(), cache=False, workers=1), root / "reference" / ep.name)
    return root


@pytest.fixture
def cluster(tmp_path):
    c = Cluster(tmp_path)
    yield c
    c.stop()


def robotask(*argv: str, cache: Path, wait: bool = True, timeout: float = 300):
    """``robotask ARGV`` from the venv's CLI, with its own cache; the finished process, or the running one."""
    env = {**os.environ, "ROBOTASK_CACHE": str(cache), "ROBOTASK_PROGRESS": "0"}
    if not wait:
        return subprocess.Popen([str(BIN / "robotask"), *argv], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
    return subprocess.run([str(BIN / "robotask"), *argv], env=env, capture_output=True, text=True, timeout=timeout)


def same_features(out: Path, reference: Path) -> None:
    """Every episode's artifacts byte for byte equal to the one-process build."""
    for ref in sorted(reference.iterdir()):
        names = sorted(p.name for p in ref.iterdir())
        match, mismatch, errors = filecmp.cmpfiles(ref, out / ref.name, names, shallow=False)
        assert not mismatch and not errors, (ref.name, mismatch, errors)


def _entries(cache: Path) -> int:
    """Episodes whose features are finished in the cache (a killed worker's half-built ``.<name>.*`` folder
    holds the same file: pathlib's ``*`` matches dot-folders, so they are left out by name)."""
    entries = cache.glob("collection_features/*/shared_windows.npz")
    return sum(not entry.parent.name.startswith(".") for entry in entries)


def _wait(until, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not until():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def test_features_and_suite_on_a_cli_cluster_equal_one_process(coll, cluster, tmp_path):
    feats = robotask("features", "--collection", str(coll / "coll"), "--out", str(tmp_path / "f"),
                     "--scheduler", cluster.address, cache=tmp_path / "cache")
    assert feats.returncode == 0, feats.stderr
    assert f"{EPISODES} computed" in feats.stdout
    same_features(tmp_path / "f", coll / "reference")
    there = robotask("suite", "--collection", str(coll / "coll"), "--features", str(tmp_path / "f"), *SUITE,
                     "--out", str(tmp_path / "there"), "--scheduler", cluster.address, cache=tmp_path / "cache")
    here = robotask("suite", "--collection", str(coll / "coll"), "--features", str(tmp_path / "f"), *SUITE,
                    "--out", str(tmp_path / "here"), cache=tmp_path / "cache")
    assert there.returncode == 0 and here.returncode == 0, there.stderr + here.stderr
    files = sorted(p.relative_to(tmp_path / "here") for p in (tmp_path / "here").rglob("*") if p.is_file())
    assert Path("folds.csv") in files and sum(p.name == "metrics.json" for p in files) == 2 * 5
    match, mismatch, errors = filecmp.cmpfiles(tmp_path / "here", tmp_path / "there", files, shallow=False)
    assert not mismatch and not errors
    with cluster.client() as c:  # the work ran on the workers: the episodes' tasks and the heads' actors
        prefixes = c.run_on_scheduler(lambda dask_scheduler: sorted(dask_scheduler.task_prefixes))
    assert "robotask" in prefixes and "BatchActor" in prefixes  # robotask-features-<episode> keys


def test_a_worker_killed_mid_run_changes_nothing(coll, cluster, tmp_path):
    cache = tmp_path / "cache"
    run = robotask("features", "--collection", str(coll / "coll"), "--out", str(tmp_path / "f"),
                   "--scheduler", cluster.address, cache=cache, wait=False)
    with cluster.client() as c:
        names = {address: w["name"] for address, w in c.scheduler_info()["workers"].items()}
        _wait(lambda: any(c.processing().values()), "a task on a worker")
        victim = next(address for address, keys in c.processing().items() if keys)
        cluster.kill(cluster.by_name[names[victim]])  # its task is lost with it, mid-run
    out, err = run.communicate(timeout=120)
    assert run.returncode == 0, err
    assert f"{EPISODES} computed" in out and "0 failed" in out
    same_features(tmp_path / "f", coll / "reference")


def test_every_worker_killed_stops_with_one_line_and_a_rerun_resumes(coll, cluster, tmp_path):
    cache = tmp_path / "cache"
    run = robotask("features", "--collection", str(coll / "coll"), "--out", str(tmp_path / "f"),
                   "--scheduler", cluster.address, cache=cache, wait=False)
    _wait(lambda: _entries(cache) >= 1, "a first finished episode")
    for proc in cluster.workers:
        cluster.kill(proc)
    kept = _entries(cache)
    t0 = time.monotonic()
    out, err = run.communicate(timeout=120)
    print(f"{time.monotonic() - t0:.1f} s: {err}")
    assert run.returncode == 2 and time.monotonic() - t0 < 30
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"robotask: error: the Dask cluster at {cluster.address} lost every worker")
    assert "run the command again to resume" in err
    assert f"{EPISODES - kept} of {EPISODES} episodes unfinished" in err
    cluster.workers += [cluster.add_worker(), cluster.add_worker()]
    cluster.wait_for(2)
    again = robotask("features", "--collection", str(coll / "coll"), "--out", str(tmp_path / "f"),
                     "--scheduler", cluster.address, cache=cache)
    assert again.returncode == 0, again.stderr
    assert f"{kept} from the cache" in again.stdout
    same_features(tmp_path / "f", coll / "reference")
    left = [p.name for p in (cache / "collection_features").iterdir() if p.is_dir() and p.name.startswith(".")]
    assert not left  # the killed workers' half-built folders went with the rerun's builds


SLOW_ACTOR = """import time

from robotask.episode.suite import cluster

_first = cluster.BatchActor.first


def first(self, W32, b):
    time.sleep(1.0)
    return _first(self, W32, b)


cluster.BatchActor.first = first
"""


def test_every_worker_killed_during_the_suites_fits_is_one_line(coll, tmp_path):
    """The workers' actors take a second per epoch (a ``--preload`` module slows them), so that the workers are
    killed while fold 0's fits are on them, however fast this machine is."""
    preload = tmp_path / "slow_actor.py"
    preload.write_text(SLOW_ACTOR)
    cluster = Cluster(tmp_path, preload=str(preload))
    try:
        _kill_workers_during_the_fits(coll, cluster, tmp_path)
    finally:
        cluster.stop()


def _kill_workers_during_the_fits(coll, cluster: Cluster, tmp_path: Path) -> None:
    run = robotask("suite", "--collection", str(coll / "coll"), "--features", str(coll / "reference"), *SUITE,
                   "--out", str(tmp_path / "s"), "--scheduler", cluster.address, cache=tmp_path / "cache", wait=False)
    with cluster.client() as c:
        _wait(lambda: "BatchActor" in c.run_on_scheduler(lambda dask_scheduler: list(dask_scheduler.task_prefixes)),
              "a head's actor")
    for proc in cluster.workers:
        cluster.kill(proc)
    t0 = time.monotonic()
    out, err = run.communicate(timeout=120)
    print(f"{time.monotonic() - t0:.1f} s: {err}")
    assert run.returncode == 2 and err.count("\n") == 1, err
    assert err.startswith(f"robotask: error: the Dask cluster at {cluster.address} lost every worker during split "
                          "fold0: its tasks fitted on the cluster are reported failed in "), err
    report = json.loads((tmp_path / "s" / "fold0" / "summary_report.json").read_text())
    reasons = {t: v.get("reason") or "" for t, v in report["status"].items()}
    assert all(r == "" or r.startswith("fit on the cluster: WorkerLost: ") for r in reasons.values()), reasons
    assert reasons["timeline_action"] == ""  # a head fitted in the driver is whole


def test_the_scheduler_killed_mid_run_stops_with_one_line_and_a_new_one_resumes(coll, tmp_path):
    cache, first = tmp_path / "cache", Cluster(tmp_path)
    try:
        run = robotask("features", "--collection", str(coll / "coll"), "--out", str(tmp_path / "f"),
                       "--scheduler", first.address, cache=cache, wait=False)
        _wait(lambda: _entries(cache) >= 1, "a first finished episode")
        first.kill(first.scheduler)
        t0 = time.monotonic()
        out, err = run.communicate(timeout=120)
    finally:
        first.stop()
    kept = _entries(cache)  # a worker may finish its task after the scheduler is gone
    assert run.returncode == 2 and time.monotonic() - t0 < 30, err
    print(f"{time.monotonic() - t0:.1f} s: {err}")
    assert err.count("\n") == 1, err
    assert err.startswith(f"robotask: error: the Dask cluster at {first.address} lost the scheduler"), err
    second = Cluster(tmp_path)
    try:
        again = robotask("features", "--collection", str(coll / "coll"), "--out", str(tmp_path / "f"),
                         "--scheduler", second.address, cache=cache)
    finally:
        second.stop()
    assert again.returncode == 0, again.stderr
    assert f"{kept} from the cache" in again.stdout
    same_features(tmp_path / "f", coll / "reference")


def test_nothing_listening_is_one_line_within_the_connect_timeout(coll, tmp_path):
    t0 = time.monotonic()
    run = robotask("features", "--collection", str(coll / "coll"), "--out", str(tmp_path / "f"),
                   "--scheduler", f"tcp://127.0.0.1:{_free_port()}", cache=tmp_path / "cache")
    seconds = time.monotonic() - t0
    print(f"{seconds:.1f} s: {run.stderr}")
    assert run.returncode == 2 and seconds < 30 and CONNECT_SECONDS < seconds, (seconds, run.stderr)
    assert run.stderr.count("\n") == 1, run.stderr
    assert f"no Dask scheduler answered within {CONNECT_SECONDS} s" in run.stderr


def _can_unshare() -> bool:
    try:
        return subprocess.run(["unshare", "-m", "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.mark.skipif(not _can_unshare(), reason="needs unshare -m (root) to give a worker its own view of a folder")
def test_a_worker_that_cannot_see_a_path_is_named_before_any_work(coll, tmp_path):
    """A worker in its own mount namespace, an empty tmpfs over the collection (then over the cache folder):
    what a machine without the shared storage sees at that path."""
    cache = tmp_path / "cache"
    cache.mkdir()
    lines = []
    for hidden in (coll / "coll", cache):
        c = Cluster(tmp_path, workers=0)
        try:
            mount = ("unshare", "-m", "sh", "-c", f"mount -t tmpfs none {hidden} && exec \"$0\" \"$@\"")
            c.workers.append(c.add_worker(prefix=mount))
            c.wait_for(1)
            run = robotask("features", "--collection", str(coll / "coll"), "--out", str(tmp_path / "f"),
                           "--scheduler", c.address, cache=cache)
        finally:
            c.stop()
        assert run.returncode == 2 and run.stderr.count("\n") == 1, run.stderr
        lines.append(run.stderr)
        print(run.stderr)
    assert f"does not see {coll / 'coll' / 'ep0000' / 'annotation.hdf5'}" in lines[0]
    assert f"does not see the cache folder (ROBOTASK_CACHE) {cache} as this process does" in lines[1]
    assert all("robotask: error: worker tcp://127.0.0.1:" in line for line in lines)
    assert _entries(cache) == 0 and not (tmp_path / "f").exists()  # nothing started


def test_a_worker_with_another_version_is_one_line(coll, tmp_path):
    """A worker whose ``robotask`` reports another version (a ``--preload`` module sets it as the worker
    starts, as another install would)."""
    preload = tmp_path / "other_install.py"
    preload.write_text("import robotask\n\nrobotask.__version__ = '0.0.0+other'\n")
    c = Cluster(tmp_path, workers=0)
    try:
        c.workers.append(c.add_worker(preload=str(preload)))
        c.wait_for(1)
        run = robotask("suite", "--collection", str(coll / "coll"), *SUITE, "--out", str(tmp_path / "s"),
                       "--scheduler", c.address, cache=tmp_path / "cache")
    finally:
        c.stop()
    print(run.stderr)
    assert run.returncode == 2 and run.stderr.count("\n") == 1, run.stderr
    from robotask import __version__

    assert f"runs robotask 0.0.0+other (here {__version__})" in run.stderr


@pytest.mark.parametrize("command", ["features", "suite"])
def test_help_gives_the_connect_timeout(command, capsys):
    from robotask import cli

    with pytest.raises(SystemExit):
        cli.build_parser(command).parse_args([command, "--help"])
    assert f"one line after {CONNECT_SECONDS} s without an answer" in " ".join(capsys.readouterr().out.split())
