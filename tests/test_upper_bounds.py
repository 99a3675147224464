"""Upper bounds: a value that would make a run take hours or exhaust memory is refused at once, before
any kernel or work starts, with the allowed range, in one line."""

from __future__ import annotations

import resource
import subprocess
import sys
import time

import pytest

from robotask.cli import main, parameter_ranges

ROBOTASK = [sys.executable, "-m", "robotask.cli"]


def test_a_billion_trials_is_refused_in_under_a_second_with_the_range(tmp_path):
    """The refusal costs the command well under a second of processor time (0.2 s: Python, argparse, the
    parameter cell; no pandas, numpy or kernel). Wall time is 0.25 s on an idle 2-core machine; it is only
    bounded loosely here, because other work on a shared machine can delay any process by seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    run = subprocess.run([*ROBOTASK, "run", "02_five_rankers", "-p", "n_trials", "1000000000",
                          "--out", str(tmp_path / "executed")], capture_output=True, text=True, timeout=60)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert run.returncode == 2
    assert run.stderr == ("robotask: error: -p: parameter 'n_trials' = 1000000000 is out of range; "
                          "expected between 1 and 10000 gallery trials (the paper: 80)\n")
    assert cpu < 1.0 and seconds < 10.0, f"refused after {cpu:.2f} s of processor time, {seconds:.2f} s wall"
    assert not (tmp_path / "executed").exists()  # refused before any folder or kernel
    modules = subprocess.run([sys.executable, "-c", "import sys; from robotask.cli import main; "
                              "main(['run', '02_five_rankers', '-p', 'n_trials', '1000000000']); "
                              "print(sorted({m.split('.')[0] for m in sys.modules}))"],
                             capture_output=True, text=True, timeout=60).stdout
    assert "'pandas'" not in modules and "'numpy'" not in modules and "'papermill'" not in modules, modules


def test_every_count_that_costs_time_or_memory_has_an_upper_bound():
    costly = ("n_trials", "n_matched_trials", "n_bootstrap", "n_permutations", "frames", "resolution",
              "softmax_epochs", "mlp_epochs", "n_episodes", "folds", "curve_draws", "timing_episodes",
              "processes", "budget_trials", "size_draws", "size_steps", "lsa_dims", "n_frames_shown")
    ranges = parameter_ranges()
    assert all(ranges[name].high is not None for name in costly), [n for n in costly if ranges[n].high is None]


@pytest.mark.parametrize("argv, message", [
    (["synth", "--out", "X", "--frames", "100000000"],
     "argument --frames: 100000000 is out of range; expected between 1 and 100000 frames"),
    (["synth", "--out", "X", "--resolution", "0"], "argument --resolution: 0 is out of range; expected between 1"),
    (["synth", "--out", "X", "--frames", "many"], "argument --frames: 'many' is not a whole number; expected"),
    (["synth-collection", "--out", "X", "--episodes", "1000000"], "argument --episodes: 1000000 is out of range"),
    (["synth-collection", "--out", "X", "--episodes", "3", "--workers", "0"],
     "argument --workers: 0 is out of range; expected between 1 and 256 processes"),
    (["retrieval", "--trials", "1000000000"], "argument --trials: 1000000000 is out of range; expected between 1 "
                                              "and 10000"),
    (["retrieval", "--seed", "-1"], "argument --seed: -1 is out of range; expected >= 0"),
    (["suite", "--episode", "E", "--out", "X", "--epochs", "10000000"], "argument --epochs: 10000000 is out of range"),
    (["suite", "--episode", "E", "--out", "X", "--mlp-epochs", "0"], "argument --mlp-epochs: 0 is out of range"),
    (["suite", "--collection", "C", "--out", "X", "--folds", "1"], "argument --folds: 1 is out of range; expected "
                                                                   "between 2 and 100 folds"),
    (["suite", "--episode", "E", "--out", "X", "--test-fraction", "nan"], "argument --test-fraction: nan is out of"),
    (["suite", "--episode", "E", "--out", "X", "--jobs", "100000"], "argument --jobs: 100000 is out of range"),
    (["features", "E", "--out", "X", "--workers", "-2"], "argument --workers: -2 is out of range"),
    (["run", "04_scoring_audit", "--jobs", "0"], "argument --jobs: 0 is out of range"),
    (["extract", "--rlbench", "R", "--min-descriptions", "0"], "argument --min-descriptions: 0 is out of range"),
])
def test_command_line_numbers_out_of_range_are_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"robotask: error: {message}") and err.count("\n") == 1, err
    assert "usage:" not in err


def test_a_missing_subcommand_is_one_line_too(capsys):
    assert main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith("robotask: error: the following arguments are required") and err.count("\n") == 1
