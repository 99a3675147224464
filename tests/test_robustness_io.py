"""Nothing lost, nothing silent: file modes, plain progress in logs, warnings once with counts,
output folders that cannot be written, locks, and parameter ranges."""

from __future__ import annotations

import io as stdio
import os
import stat
import subprocess
import sys
import warnings

import numpy as np
import pytest

from robotask import cache, io, paths, progress
from robotask.book import chapters, params, runner
from robotask.cli import parameter_ranges
from robotask.errors import RobotaskError, RobotaskWarning, WarningLog

RANGES = parameter_ranges()


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def _mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_result_files_get_the_umask_mode_not_mkstemps_0600(tmp_path, umask_022):
    assert _mode(io.write_json(tmp_path / "a.json", {"a": 1})) == 0o644
    assert _mode(io.write_text(tmp_path / "b.txt", "x")) == 0o644
    assert _mode(io.write_npz(tmp_path / "c.npz", x=np.zeros(2))) == 0o644
    os.umask(0o027)
    assert _mode(io.write_text(tmp_path / "d.txt", "x")) == 0o640


def test_cache_entries_get_the_umask_mode(tmp_path, monkeypatch, umask_022):
    monkeypatch.setenv("ROBOTASK_CACHE", str(tmp_path))
    store = cache.Cache("modes")
    folder = store.folder("entry", lambda tmp: (tmp / "done.txt").write_text("ok"), marker="done.txt")
    assert _mode(folder) == 0o755 and _mode(folder / "done.txt") == 0o644
    store.npz("arrays", lambda: {"x": np.arange(3)})
    assert _mode(store.path("arrays")) == 0o644


def test_cache_npz_is_computed_once_and_a_corrupt_entry_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("ROBOTASK_CACHE", str(tmp_path))
    store, calls = cache.Cache("c"), []
    compute = lambda: calls.append(1) or {"x": np.arange(3)}  # noqa: E731
    store.npz("e.npz", compute)
    store.npz("e.npz", compute)
    assert len(calls) == 1
    store.path("e.npz").write_bytes(b"PK\x03\x04 half-written")  # what a killed non-atomic writer leaves
    with pytest.warns(UserWarning, match="unreadable cache entry"):
        np.testing.assert_array_equal(store.npz("e.npz", compute)["x"], np.arange(3))
    assert len(calls) == 2


def _plain(monkeypatch, interval="0"):
    monkeypatch.setenv("ROBOTASK_PROGRESS", "1")
    monkeypatch.setenv("ROBOTASK_PROGRESS_INTERVAL", interval)
    return stdio.StringIO()  # not a terminal


def test_progress_in_a_log_is_plain_lines_without_escape_codes(monkeypatch):
    sink = _plain(monkeypatch)
    bar = progress.tqdm(total=600, desc="features", unit="frame", file=sink, leave=False, mininterval=1.0)
    assert isinstance(bar, progress.PlainProgress) and not bar.disable
    for _ in range(2):
        bar.update(300)
    bar.close()
    text = sink.getvalue()
    assert "\x1b" not in text and "\r" not in text
    assert text.splitlines()[0].startswith("features: 300/600 frames (50 %), ")
    assert text.splitlines()[-1].startswith("features: 600/600 frames (100 %), ")
    assert text.splitlines()[-1].endswith(" frame/s")


def test_plain_progress_is_rate_limited_and_ends_with_one_line(monkeypatch):
    sink = _plain(monkeypatch, interval="3600")
    for _ in progress.tqdm(range(1000), desc="galleries", file=sink):
        pass
    assert sink.getvalue().splitlines() == [sink.getvalue().splitlines()[-1]]
    assert sink.getvalue().startswith("galleries: 1000/1000 its (100 %)")


def test_progress_off_with_the_environment_whatever_the_caller_says(monkeypatch):
    sink = _plain(monkeypatch)
    monkeypatch.setenv("ROBOTASK_PROGRESS", "0")
    bar = progress.tqdm(total=5, desc="x", disable=False, file=sink)
    bar.update(5)
    bar.close()
    assert bar.disable and sink.getvalue() == ""


def test_nested_bars_in_a_subprocess_log_never_interleave(tmp_path):
    code = ("from robotask.progress import tqdm\n"
            "from concurrent.futures import ThreadPoolExecutor\n"
            "def work(i):\n"
            "    for _ in tqdm(range(200), desc=f'inner{i}', unit='step'): pass\n"
            "with ThreadPoolExecutor(4) as ex:\n"
            "    list(tqdm(ex.map(work, range(8)), total=8, desc='outer', unit='job'))\n")
    env = {**os.environ, "ROBOTASK_PROGRESS": "1", "ROBOTASK_PROGRESS_INTERVAL": "0"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    lines = proc.stderr.splitlines()
    assert lines and "\x1b" not in proc.stderr and "\r" not in proc.stderr
    import re
    line = re.compile(r"^(outer|inner\d): \d+/\d+ (steps|jobs) \(\d+ %\), [\d.e+]+ (step|job)/s$")
    assert all(line.match(x) for x in lines), [x for x in lines if not line.match(x)][:3]
    assert "outer: 8/8 jobs (100 %)" in proc.stderr


def test_warning_log_shows_each_distinct_warning_once_with_its_count():
    sink = stdio.StringIO()
    with WarningLog(stream=sink):
        for _ in range(3):
            warnings.warn("video cam1: file missing; its features are zeros", RobotaskWarning, stacklevel=1)
        warnings.warn("depth: no depth", UserWarning, stacklevel=1)
        warnings.warn("old API", FutureWarning, stacklevel=1)
    assert sink.getvalue().splitlines() == [
        "robotask: warning (x3): video cam1: file missing; its features are zeros",
        "robotask: warning: depth: no depth",
        "robotask: warning [FutureWarning]: old API",
    ]


def test_cli_prints_repeated_warnings_once_at_the_end():
    code = ("import sys, warnings, robotask.cli as cli\n"
            "from robotask.errors import RobotaskWarning\n"
            "class A: pass\n"
            "def handler(args):\n"
            "    [warnings.warn('audio: no audio stream', RobotaskWarning) for _ in range(5)]\n"
            "    return 0\n"
            "p = cli.build_parser('run')\n"
            "p.parse_args = lambda argv: type('N', (), {'func': staticmethod(handler)})()\n"
            "cli.build_parser = lambda only=None: p\n"
            "sys.exit(cli.main(['run']))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == ["robotask: warning (x5): audio: no audio stream"]


def test_writable_dir_names_the_problem(tmp_path):
    f = tmp_path / "f.txt"
    f.write_text("x")
    with pytest.raises(RobotaskError, match=r"f.txt is an existing file"):
        io.writable_dir(f)
    with pytest.raises(RobotaskError, match=r"f.txt is a file, not a folder"):
        io.writable_dir(f / "sub" / "dir")
    assert io.writable_dir(tmp_path / "new" / "dir").is_dir()


def test_unwritable_folder_fails_for_root_too(tmp_path):
    from robotask.book.badinput import unwritable_folder

    with pytest.raises(RobotaskError, match="is not writable"):
        io.writable_dir(unwritable_folder(tmp_path))


def test_exclusive_lock_refuses_a_second_holder_and_frees_on_exit(tmp_path):
    lock = tmp_path / ".x.lock"
    with io.exclusive_lock(lock, "chapter x"):
        with pytest.raises(RobotaskError, match="chapter x is in use by another run"):
            with io.exclusive_lock(lock, "chapter x"):
                pass
    with io.exclusive_lock(lock, "chapter x"):
        pass


@pytest.mark.parametrize("chapter, override, message", [
    ("02_five_rankers", {"n_trials": 0}, r"'n_trials' = 0 is out of range; expected between 1 and 10000"),
    ("02_five_rankers", {"n_trials": -4}, r"'n_trials' = -4 is out of range"),
    ("10_episode", {"frames": -1}, r"'frames' = -1 is out of range"),
    ("11_windows_features", {"resolution": 0}, r"'resolution' = 0 is out of range"),
    ("07_uncertainty", {"alpha": 1.0}, r"'alpha' = 1.0 is out of range"),
    ("02_five_rankers", {"rankers": "bm25,char"}, r"expects list, got str .*-y 'NAME: \[a, b\]'"),
])
def test_out_of_range_parameters_are_rejected_before_a_kernel(chapter, override, message):
    with pytest.raises(RobotaskError, match=message):
        runner.plan(chapters.select([chapter]), "smoke", None, override, ranges=RANGES)


def test_every_range_names_a_declared_parameter_and_admits_both_sets():
    declared = {n for c in chapters.CHAPTERS for n in params.declared(c.source_path)}
    declared |= {f"{c.source}:{n}" for c in chapters.CHAPTERS for n in params.declared(c.source_path)}  # own rules
    assert set(RANGES) <= declared, set(RANGES) - declared
    for set_name in params.SETS:  # the paper and smoke values are all in range
        runner.plan(list(chapters.CHAPTERS), set_name, None, {}, ranges=RANGES)


def test_non_mapping_parameter_file_is_rejected(tmp_path):
    f = tmp_path / "p.yaml"
    f.write_text("- n_trials\n- 3\n")
    with pytest.raises(RobotaskError, match=r"p.yaml must hold a mapping .* got list"):
        runner.plan(chapters.select(["02_five_rankers"]), "smoke", str(f), {}, ranges=RANGES)


def test_run_refuses_an_output_path_that_is_a_file(tmp_path):
    f = tmp_path / "out"
    f.write_text("x")
    with pytest.raises(RobotaskError, match=r"--out\) .*out is an existing file"):
        runner.run(["02_five_rankers"], "smoke", out_dir=f, log_path=tmp_path / "log.json", ranges=RANGES)


def test_check_rankers_reads_papermill_list_text():
    from robotask.retrieval.rankers.registry import check_rankers

    assert check_rankers("[bm25, char]") == ["bm25", "char"]
    assert check_rankers("['bm25', 'char']") == ["bm25", "char"]
    assert check_rankers("bm25, char") == ["bm25", "char"]
    with pytest.raises(RobotaskError, match=r"unknown ranker 'chr'; valid: .*papermill -y") as err:
        check_rankers("[bm25, chr]")
    assert "'['" not in str(err.value) and "'b'" not in str(err.value)


def test_paths_anchor_on_the_repo():
    assert paths.resolve("x").parent == paths.ROOT
