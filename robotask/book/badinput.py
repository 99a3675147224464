"""Bad input to the book tooling and the core: parameters, outputs, interrupts, the cache (``Case``).

Every case does what a user would do (``robotask run`` with a typo, an output folder that cannot
be written) and must be refused *before a kernel starts*, with a message that names the parameter,
file or folder and what was expected. The appendix chapter ``98_bad_input`` shows them with the
episode and retrieval wings' cases; ``tests/test_bad_input.py`` asserts every one. The runner checks
the studies' parameter ranges, which this wing does not know: :func:`cases` takes them
(:func:`robotask.cli.parameter_ranges`).

The "not writable" case must fail for root too, who ignores permission bits: as root it writes under
``/sys`` (a kernel file system where nobody may create folders); otherwise into a folder of mode 0500.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .. import io
from ..catalogue import Case
from ..errors import RobotaskError
from ..parameters import Ranges
from . import chapters, params, runner

RETRIEVAL = "02_five_rankers"
EPISODE = "10_episode"
FEATURES = "11_windows_features"


def _plan(ranges: Ranges, chapter: str, overrides: dict[str, Any] | None = None,
          params_file: Path | None = None) -> Any:
    """What ``robotask run CHAPTER --set smoke [--params FILE] [-p ...]`` checks before any kernel."""
    return runner.plan(chapters.select([chapter]), "smoke", str(params_file) if params_file else None,
                       overrides or {}, ranges=ranges)


def _cli_value(ranges: Ranges, chapter: str, name: str, text: str) -> Any:
    """``robotask run CHAPTER -p NAME TEXT``: the text parsed as YAML, then checked."""
    return _plan(ranges, chapter, {name: params.parse_cli_value(text)})


def _yaml_file(tmp: Path, text: str) -> Path:
    path = tmp / "params.yaml"
    path.write_text(text)
    return path


ALIAS_BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n" for p, c in zip("abcdefgh", "bcdefghi"))
"""Eight anchors of nine aliases each: 9**9, 387 million strings once expanded, in 300 bytes."""


def _latin1_file(tmp: Path) -> Path:
    path = tmp / "params.yaml"
    path.write_bytes("output_dir: résultats\n".encode("latin-1"))
    return path


def _a_file(tmp: Path) -> Path:
    path = tmp / "results.txt"
    path.write_text("an earlier result\n")
    return path


def unwritable_folder(tmp: Path) -> Path:
    """A folder path that cannot be created or written, for root as well as for other users."""
    if os.geteuid() == 0 and Path("/sys").is_dir():
        return Path("/sys") / "robotask-bad-input" / "out"
    locked = tmp / "read-only"
    locked.mkdir()
    locked.chmod(0o500)
    return locked / "out"


def _disk_full_after(tmp: Path, limit: int = 1000) -> Any:
    """Write a 20 kB CSV result while the file system takes ``limit`` bytes and then reports a full
    disk (``ENOSPC``), as a real full disk does: simulated, so that the case runs anywhere without
    mounting a small file system (``tests/test_disk_full.py`` fills a real one)."""
    import errno
    import shutil
    from unittest import mock

    import pandas as pd

    (tmp / "results.csv").write_text("kept\n", encoding="utf-8")  # a result written before
    real = Path.write_bytes

    def filling(self: Path, data: bytes) -> int:
        real(self, bytes(data[:limit]))
        raise OSError(errno.ENOSPC, "No space left on device")

    full = shutil.disk_usage(tmp)._replace(free=0)
    with mock.patch.object(Path, "write_bytes", filling), mock.patch.object(shutil, "disk_usage", lambda _: full):
        try:
            return io.write_csv(tmp / "results.csv", pd.DataFrame({"accuracy": range(4000)}))
        finally:  # the case fails (as a crash) unless the earlier file is intact and nothing is left over
            if (tmp / "results.csv").read_text(encoding="utf-8") != "kept\n" or len(list(tmp.iterdir())) != 1:
                raise AssertionError("the full disk lost or left a file")


def _cut_write(tmp: Path, signal_name: str = "") -> Any:
    """Ctrl-C (``signal_name`` "") or a real SIGTERM under the CLI's handler while a result file is written over an
    earlier one (cut after 1 kB): that file intact, no partial file (``tests/test_robustness_kill.py``: real ones)."""
    import signal
    from contextlib import nullcontext
    from unittest import mock

    import pandas as pd

    from ..errors import sigterm_as_interrupt

    (tmp / "results.csv").write_text("kept\n", encoding="utf-8")
    real = Path.write_bytes

    def cut(self: Path, data: bytes) -> int:
        real(self, bytes(data[:1000]))
        if not signal_name:
            raise KeyboardInterrupt
        os.kill(os.getpid(), signal.SIGTERM)
        return 1000

    try:
        with sigterm_as_interrupt() if signal_name else nullcontext(), mock.patch.object(Path, "write_bytes", cut):
            io.write_csv(tmp / "results.csv", pd.DataFrame({"accuracy": range(4000)}))
    except KeyboardInterrupt:  # errors.Terminated is one
        if (tmp / "results.csv").read_text(encoding="utf-8") != "kept\n" or len(list(tmp.iterdir())) != 1:
            raise AssertionError("the interrupted write lost or left a file") from None
        said = "terminated (SIGTERM)" if signal_name else "interrupted"
        raise RobotaskError(f"robotask: {said}; files already written are complete (results.csv as it was, no "
                            f"partial file){'; exit code 143' if signal_name else ''}") from None
    return None


def _run_into(ranges: Ranges, out: Path) -> Any:
    """``robotask run 02_five_rankers --set smoke --out OUT`` (refused before its kernel starts)."""
    return runner.run([RETRIEVAL], "smoke", out_dir=out, log_path=out.parent / "run_log.json", ranges=ranges)


def _chapter_busy(ranges: Ranges, tmp: Path) -> Any:
    """A second run of a chapter while a first run holds its lock."""
    out = tmp / "executed"
    with io.exclusive_lock(out / f".{RETRIEVAL}.lock", "the first run"):
        return _run_into(ranges, out)


def _run_with(ranges: Ranges, tmp: Path, name: str, value: str) -> Any:
    """``robotask run`` with environment variable ``name`` set to ``value``, then as it was."""
    from unittest import mock

    with mock.patch.dict(os.environ, {name: value}):
        return _run_into(ranges, tmp / "executed")


def _cache_entry(tmp: Path, spoil: str) -> Any:
    """An ``.npz`` cache entry spoiled (``truncated`` or not matching its checksum): recomputed, never used."""
    import numpy as np

    from .. import cache

    with cache.root_at(tmp / "cache"):
        store = cache.Cache("features")
        store.npz("entry.npz", lambda: {"x": np.arange(1000.0)})
        path = store.path("entry.npz")
        if spoil == "truncated":
            path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
        else:  # other arrays under the checksum of the first ones: what a corrupted copy looks like
            with np.load(path) as z:
                claimed = z[cache.CHECKSUM]
            io.write_npz(path, x=np.arange(1000.0) * 2, **{cache.CHECKSUM: claimed})
        got = store.npz("entry.npz", lambda: {"x": np.arange(1000.0)})
        if not np.array_equal(got["x"], np.arange(1000.0)):
            raise AssertionError("the spoiled entry was used")
        return got


def _cache_folder_changed(tmp: Path) -> Any:
    """A folder entry (a synthetic episode, say) one of whose files changed after it was built: rebuilt."""
    from .. import cache

    with cache.root_at(tmp / "cache"):
        def build(folder: Path) -> None:
            (folder / "video.mp4").write_bytes(b"\x00" * 4096)
            (folder / "annotation.hdf5").write_bytes(b"\x01" * 4096)

        entry = cache.Cache("episodes").folder("episode", build, marker="annotation.hdf5")
        with open(entry / "video.mp4", "r+b") as fh:  # same size, one byte changed
            fh.seek(2048)
            fh.write(b"\xff")
        cache.Cache("episodes").folder("episode", build, marker="annotation.hdf5")
        if (entry / "video.mp4").read_bytes() != b"\x00" * 4096:
            raise AssertionError("the changed entry was used")


def _cache_cannot_keep(tmp: Path, where: str) -> Any:
    """A cache folder that cannot take an entry (``read-only``, for root too, or ``full``, simulated)."""
    import errno
    from unittest import mock

    import numpy as np

    from .. import cache

    with cache.root_at(unwritable_folder(tmp) if where == "read-only" else tmp / "cache"):
        store = cache.Cache("features")
        if where == "read-only":
            got = store.npz("entry.npz", lambda: {"x": np.arange(3)})
        else:
            with mock.patch("zipfile.ZipFile.open", side_effect=OSError(errno.ENOSPC, "No space left on device")):
                got = store.npz("entry.npz", lambda: {"x": np.arange(3)})
            if [p for p in store.root.iterdir() if p.suffix in (".npz", ".tmp")]:
                raise AssertionError("a half-written cache entry was left")
        if not np.array_equal(got["x"], np.arange(3)):
            raise AssertionError("the result was lost")
        return got


def cache_cases() -> list[Case]:
    """The ``cache`` group: spoiled entries and cache folders that cannot take more."""
    return [
        Case("cache", "a cache entry cut to half its bytes", "warning",
             r"entry\.npz: unreadable cache entry; recomputing", lambda tmp: _cache_entry(tmp, "truncated")),
        Case("cache", "a cache entry whose arrays do not match its checksum", "warning",
             r"entry\.npz: cache entry does not match its checksum \(truncated or corrupted\); recomputing it",
             lambda tmp: _cache_entry(tmp, "corrupted")),
        Case("cache", "a cached episode folder with one byte of a video changed", "warning",
             r"episodes/episode: cache entry does not match its checksums \(truncated or corrupted\); rebuilding",
             _cache_folder_changed),
        Case("cache", "a cache folder that cannot be written (for root: a read-only file system)", "warning",
             r"cache folder \S+ cannot keep entry\.npz \(.+\); the result is used but not kept",
             lambda tmp: _cache_cannot_keep(tmp, "read-only")),
        Case("cache", "a full disk under the cache folder (simulated)", "warning",
             r"cache folder \S+ cannot keep entry\.npz \(the disk holding \S+ is full.*\); the result is used "
             r"but not kept", lambda tmp: _cache_cannot_keep(tmp, "full")),
    ]


def parameter_cases(ranges: Ranges) -> list[Case]:
    """The ``parameters`` group: what ``robotask run`` refuses, checked against ``ranges``."""
    return [
        Case("parameters", "unknown chapter: robotask run 02_five_rankerz", "error",
             r"unknown notebook '02_five_rankerz'",
             lambda tmp: runner.run(["02_five_rankerz"], "smoke", out_dir=tmp, ranges=ranges)),
        Case("parameters", "unknown parameter: -p n_trails 3", "error", r"unknown parameter.*n_trails",
             lambda tmp: _cli_value(ranges, RETRIEVAL, "n_trails", "3")),
        Case("parameters", "wrong type: -p n_trials many", "error", r"'n_trials' expects int, got str",
             lambda tmp: _cli_value(ranges, RETRIEVAL, "n_trials", "many")),
        Case("parameters", "wrong type: -p n_trials 2.5", "error", r"'n_trials' expects int, got float",
             lambda tmp: _cli_value(ranges, RETRIEVAL, "n_trials", "2.5")),
        Case("parameters", "trials 0: -p n_trials 0", "error",
             r"'n_trials' = 0 is out of range; expected between 1 and 10000",
             lambda tmp: _cli_value(ranges, RETRIEVAL, "n_trials", "0")),
        Case("parameters", "trials negative: -p n_trials -3", "error", r"'n_trials' = -3 is out of range",
             lambda tmp: _cli_value(ranges, RETRIEVAL, "n_trials", "-3")),
        Case("parameters", "negative frames: -p frames -200", "error",
             r"'frames' = -200 is out of range; expected between 1 and 100000",
             lambda tmp: _cli_value(ranges, EPISODE, "frames", "-200")),
        Case("parameters", "resolution 0: -p resolution 0", "error", r"'resolution' = 0 is out of range",
             lambda tmp: _cli_value(ranges, FEATURES, "resolution", "0")),
        Case("parameters", "negative seed: -p seed -1", "error", r"'seed' = -1 is out of range",
             lambda tmp: _cli_value(ranges, RETRIEVAL, "seed", "-1")),
        Case("parameters", "BM25 b above 1: -p bm25_b 1.5", "error", r"'bm25_b' = 1.5 is out of range",
             lambda tmp: _cli_value(ranges, RETRIEVAL, "bm25_b", "1.5")),
        Case("parameters", "a list given as a string: -p rankers bm25,char", "error",
             r"'rankers' expects list, got str.*-y",
             lambda tmp: _cli_value(ranges, RETRIEVAL, "rankers", "bm25,char")),
        Case("parameters", "papermill-style list text in a YAML file: rankers: '[bm25, char]'", "error",
             r"'rankers' expects list, got str '\[bm25, char\]'",
             lambda tmp: _plan(ranges, RETRIEVAL, params_file=_yaml_file(tmp, "rankers: '[bm25, char]'\n"))),
        Case("parameters", "parameter file is a YAML list, not a mapping", "error", r"params.yaml must hold a mapping",
             lambda tmp: _plan(ranges, RETRIEVAL, params_file=_yaml_file(tmp, "- n_trials\n- 3\n"))),
        Case("parameters", "parameter file is a bare number", "error", r"must hold a mapping.*got int '42'",
             lambda tmp: _plan(ranges, RETRIEVAL, params_file=_yaml_file(tmp, "42\n"))),
        Case("parameters", "parameter file is not valid YAML", "error", r"params.yaml is not valid YAML",
             lambda tmp: _plan(ranges, RETRIEVAL, params_file=_yaml_file(tmp, "n_trials: [3\n"))),
        Case("parameters", "parameter file does not exist", "error", r"parameter file .*missing.yaml does not exist",
             lambda tmp: _plan(ranges, RETRIEVAL, params_file=tmp / "missing.yaml")),
        Case("parameters", "unknown parameter set: --set huge", "error", r"unknown parameter set 'huge'",
             lambda tmp: runner.plan(chapters.select([RETRIEVAL]), "huge", None, {}, ranges=ranges)),
    ]


def bound_cases(ranges: Ranges) -> list[Case]:
    """More of the ``parameters`` group: values that would run for hours or exhaust memory, and parameter
    files too large, too clever (aliases) or not UTF-8; all refused before any kernel starts."""
    return [
        Case("parameters", "a billion trials: -p n_trials 1000000000", "error",
             r"'n_trials' = 1000000000 is out of range; expected between 1 and 10000 gallery trials",
             lambda tmp: _cli_value(ranges, RETRIEVAL, "n_trials", "1000000000")),
        Case("parameters", "a billion bootstrap replicates: -p n_bootstrap 1000000000", "error",
             r"'n_bootstrap' = 1000000000 is out of range; expected between 1 and 100000",
             lambda tmp: _cli_value(ranges, "07_uncertainty", "n_bootstrap", "1000000000")),
        Case("parameters", "ten million frames: -p frames 10000000", "error",
             r"'frames' = 10000000 is out of range; expected between 1 and 100000 frames",
             lambda tmp: _cli_value(ranges, EPISODE, "frames", "10000000")),
        Case("parameters", "a million MLP epochs: -p mlp_epochs 1000000", "error",
             r"'mlp_epochs' = 1000000 is out of range; expected between 1 and 5000 epochs",
             lambda tmp: _cli_value(ranges, "14_collections", "mlp_epochs", "1000000")),
        Case("parameters", "a YAML alias bomb as --params (9 levels of 9 aliases)", "error",
             r"params\.yaml holds 72 YAML aliases \(\*name\); expected at most 16",
             lambda tmp: _plan(ranges, RETRIEVAL, params_file=_yaml_file(tmp, ALIAS_BOMB))),
        Case("parameters", "a parameter file of 2 MB", "error",
             r"params\.yaml holds 2000014 bytes; expected at most 1048576 \(1 MiB\)",
             lambda tmp: _plan(ranges, RETRIEVAL, params_file=_yaml_file(tmp, "n_trials: 3\n# " + "x" * 2_000_000))),
        Case("parameters", "a parameter file in Latin-1, not UTF-8", "error",
             r"params\.yaml is not UTF-8 text \(byte 0xe9 at offset 13\)",
             lambda tmp: _plan(ranges, RETRIEVAL, params_file=_latin1_file(tmp))),
    ]


def output_cases(ranges: Ranges) -> list[Case]:
    """The ``outputs`` group: output folders and files that cannot be written, a chapter already running."""
    return [
        Case("outputs", "--out is an existing file", "error", r"is an existing file; expected a folder",
             lambda tmp: _run_into(ranges, _a_file(tmp))),
        Case("outputs", "--out inside a path whose parent is a file", "error", r"results.txt is a file, not a folder",
             lambda tmp: _run_into(ranges, _a_file(tmp) / "executed")),
        Case("outputs", "a full disk while a result file is written (simulated)", "error",
             r"the disk holding <tmp> is full: writing results\.csv \(\d+\.\d kB\) "
             r"stopped after 1\.0 kB \(0 bytes free\); nothing half-written was left "
             r"and the files written before are unchanged",
             _disk_full_after),
        Case("interrupts", "Ctrl-C while a result file is written over an earlier one", "error",
             r"interrupted; files already written are complete \(results\.csv as it was, no partial file\)",
             _cut_write),
        Case("interrupts", "SIGTERM (kill PID) while a result file is written over an earlier one", "error",
             r"terminated \(SIGTERM\); files already written are complete \(results\.csv as it was, no partial "
             r"file\); exit code 143", lambda tmp: _cut_write(tmp, "SIGTERM")),
        Case("outputs", "--out is not writable (for root: a read-only file system)", "error", r"is not writable",
             lambda tmp: _run_into(ranges, unwritable_folder(tmp))),
        Case("outputs", "ROBOTASK_RESULTS is not writable", "error", r"results folder .* is not writable",
             lambda tmp: _run_with(ranges, tmp, "ROBOTASK_RESULTS", str(unwritable_folder(tmp)))),
        Case("outputs", "parameter output_dir is an existing file", "error",
             r"parameter 'output_dir' .* is an existing file",
             lambda tmp: _plan(ranges, RETRIEVAL, {"output_dir": str(_a_file(tmp))})),
        Case("outputs", "a result file path that is an existing folder", "error",
             r"is an existing folder; expected a file",
             lambda tmp: io.write_json(tmp, {"a": 1})),
        Case("outputs", "a result file under a path whose parent is a file", "error",
             r"results.txt is an existing file",
             lambda tmp: io.write_json(_a_file(tmp) / "summary.json", {"a": 1})),
        Case("outputs", "the same chapter is already running", "error",
             r"chapter 02_five_rankers .* in use by another run.*or set ROBOTASK_LOCK_WAIT=SECONDS to queue",
             lambda tmp: _chapter_busy(ranges, tmp)),
        Case("outputs", "ROBOTASK_LOCK_WAIT=soon (the wait for another run of the chapter)", "error",
             r"ROBOTASK_LOCK_WAIT='soon': expected a number of seconds to wait .*inf: as long as it takes",
             lambda tmp: _run_with(ranges, tmp, "ROBOTASK_LOCK_WAIT", "soon")),
    ]


def _run_cli(ranges: Ranges, *argv: str) -> str:
    """``robotask run ARGV`` through the runner's parser and handler; what it printed."""
    import contextlib
    import io as text_io

    from ..errors import Parser

    sub = Parser(prog="robotask").add_subparsers(dest="command", required=True)
    runner.register_cli(sub, ranges)
    args = sub.choices["run"].parse_args(list(argv))
    with contextlib.redirect_stdout(text_io.StringIO()) as printed:
        args.func(args)
    return printed.getvalue()


def _spoilt_log(tmp: Path, text: str) -> Any:
    """A run log holding ``text`` (cut short, or not a JSON object) gets this run's record, with a warning."""
    (tmp / "run_log.json").write_text(text, encoding="utf-8")
    runner._record(tmp / "run_log.json", chapters.select([RETRIEVAL])[0], "smoke", {"n_trials": 3}, 1.0)


def run_cases(ranges: Ranges) -> list[Case]:
    """What ``robotask run`` refuses, rebuilds and lists (group ``runs``)."""
    listed = lambda tmp: next(t.split("#")[0].strip() for t in _run_cli(  # noqa: E731
        ranges, RETRIEVAL, "--list", "--set", "smoke").splitlines() if "n_trials" in t)
    return [
        Case("runs", "robotask run -p n_trials 10 with no chapter named", "error",
             r"names no chapter, so it would run every chapter.*or add --all",
             lambda tmp: _run_cli(ranges, "-p", "n_trials", "10")),
        Case("runs", "a run log cut short (half of its JSON)", "warning",
             r"run log .*run_log\.json is not a JSON object .*rebuilt from this run's chapters",
             lambda tmp: _spoilt_log(tmp, '{"02_five_rankers": {"chapter": "02_fi')),
        Case("runs", "a run log that holds a JSON list, not an object", "warning",
             r"run_log\.json is not a JSON object \(it holds a JSON list", lambda tmp: _spoilt_log(tmp, "[1, 2]")),
        Case("runs", "robotask run 02_five_rankers --list --set smoke", "handled",
             r"n_trials: int = 3  \(default 80\)", listed),
        Case("runs", "the list syntax the unknown-ranker error suggests: -p rankers '[bm25, char]'", "handled",
             r"\['bm25', 'char'\]",  # chapter 07 has no rule of its own on rankers (02 needs the paper's five)
             lambda tmp: repr(_cli_value(ranges, "07_uncertainty", "rankers", "[bm25, char]")[0][1]["rankers"])),
    ]

def cases(ranges: Ranges) -> list[Case]:
    """The book wing's bad-input cases (groups ``parameters``, ``outputs``, ``interrupts``, ``cache``); ``ranges``: the
    studies' parameter ranges, merged (:func:`robotask.cli.parameter_ranges`)."""
    return parameter_cases(ranges) + bound_cases(ranges) + output_cases(ranges) + run_cases(ranges) + cache_cases()


__all__ = ["bound_cases", "cache_cases", "cases", "output_cases", "parameter_cases", "run_cases", "unwritable_folder"]
