"""Nothing lost, round four: alias bombs, huge texts, odd collection folders, non-finite sensor values,
two builds into one folder. Each is refused or handled with one clear line (issue 35)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import h5py
import numpy as np
import pytest

from robotask import io
from robotask.book import chapters, params, runner
from robotask.cli import main, parameter_ranges
from robotask.errors import RobotaskError, RobotaskWarning

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n" for p, c in zip("abcdefgh", "bcdefghi"))


def test_a_yaml_alias_bomb_as_params_is_refused_at_once(tmp_path):
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(BOMB)  # 9**9 = 387 million strings once expanded
    start = time.perf_counter()
    with pytest.raises(RobotaskError, match=r"parameter file .*bomb\.yaml holds 72 YAML aliases \(\*name\); "
                                            r"expected at most 16"):
        runner.plan(chapters.select(["02_five_rankers"]), "smoke", str(bomb), {}, ranges=parameter_ranges())
    assert time.perf_counter() - start < 1.0
    with pytest.raises(RobotaskError, match=r"^-p rankers holds 72 YAML aliases"):
        params.parse_cli_value(BOMB.replace("\n", "\n"), "-p rankers")
    few = tmp_path / "few.yaml"
    few.write_text("base: &r [bm25, char]\n")  # an anchor without aliases is fine (then unknown here)
    assert params.load_yaml(few) == {"base": ["bm25", "char"]}


def test_a_huge_or_non_utf8_parameter_file_is_refused(tmp_path):
    huge = tmp_path / "huge.yaml"
    huge.write_text("n_trials: 3\n# " + "x" * (1 << 20) + "\n")
    with pytest.raises(RobotaskError, match=r"huge\.yaml holds \d+ bytes; expected at most 1048576 \(1 MiB\)"):
        params.load_yaml(huge)
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(b"output_dir: r\xe9sultats\n")
    with pytest.raises(RobotaskError, match=r"latin\.yaml is not UTF-8 text \(byte 0xe9 at offset 13\)"):
        params.load_yaml(latin)


def test_an_instruction_of_a_megabyte_is_refused_with_the_limit(tmp_path):
    from robotask.retrieval.protocol.corpus_file import read_corpus_file

    big = "pick up the cup " * 65_536  # 1 MiB
    csv = tmp_path / "corpus.csv"
    csv.write_text(f"task,text\nopen_box,open the box\nopen_box,{big}\nclose_box,close it\nclose_box,shut it\n")
    with pytest.raises(RobotaskError, match=r"corpus\.csv: data row 2 has a text of 1048576 characters "
                                            r"\('pick up the cup pick up the cu'\.\.\.\); expected at most 10000"):
        read_corpus_file(csv)
    yml = tmp_path / "library.yaml"
    yml.write_text(f"open_box: [open the box, '{big}']\nclose_box: [close it, shut it]\n")
    with pytest.raises(RobotaskError, match=r"library\.yaml: key 'open_box', item 1 has a text of 1048576 "
                                            r"characters"):
        read_corpus_file(yml)
    assert main(["retrieval", "--corpus", str(csv), "--trials", "1", "--rankers", "bm25"]) == 2


@pytest.fixture(scope="module")
def small_collection(tmp_path_factory) -> Path:
    from robotask.episode.badinput import template

    root = tmp_path_factory.mktemp("col") / "col"
    root.mkdir()
    for name in ("ep0", "ep1"):
        os.symlink(template(), root / name)
    return root


def test_a_symlink_loop_and_a_non_utf8_name_are_unusable_episodes_with_their_reasons(small_collection, tmp_path):
    from robotask.episode.files.manifest import load_collection

    root = tmp_path / "col"
    root.mkdir()
    for name in ("ep0", "ep1"):
        os.symlink(os.readlink(small_collection / name), root / name)
    os.symlink("loop", root / "loop")
    os.symlink(os.readlink(small_collection / "ep0"), os.fsdecode(bytes(root) + b"/ep\xff"))
    collection = load_collection(root)
    assert collection.ids == ["ep0", "ep1"]
    reasons = dict(zip(collection.problems["episode_id"], collection.problems["reason"]))
    assert reasons == {"ep\\xff": "the folder name is not UTF-8 (ep\\xff); rename it",
                       "loop": f"a symlink loop ({root}/loop leads back to itself)"}
    out = tmp_path / "features"
    assert main(["features", "--collection", str(root), "--out", str(out), "--workers", "1"]) == 1
    failures = (out / "failures.csv").read_text(encoding="utf-8")
    assert "ep\\xff,validate,the folder name is not UTF-8" in failures and "loop,validate,a symlink loop" in failures
    assert (out / "ep0" / "windows.csv").is_file() and (out / "ep1" / "windows.csv").is_file()


def _edited(tmp: Path, key: str, change) -> Path:
    from robotask.episode.badinput import episode_copy

    ep = episode_copy(tmp)
    with h5py.File(ep / "annotation.hdf5", "a") as f:
        values = f[key][()].astype(np.float64)
        change(values.reshape(len(values), -1))
        f[key][...] = values
    return ep


def _nan_rows(a):
    a[5:8] = np.nan


def _inf_cell(a):
    a[9, 0] = np.inf


@pytest.mark.parametrize("key, change, message", [
    ("imu/accel_xyz", _nan_rows, r"imu/accel_xyz has NaN or inf in 3 of 600 samples \(first 5\); they are "
                                 r"interpolated"),
    ("imu/gyro_xyz", _inf_cell, r"imu/gyro_xyz has NaN or inf in 1 of 600 samples \(first 9\)"),
    ("depth/depth", _nan_rows, r"depth/depth has NaN or inf values \(first in frame 5\); they are read as 0"),
    ("depth/depth", _inf_cell, r"depth/depth has NaN or inf values \(first in frame 9\)"),
    ("hand_mocap/left_joints_3d", _inf_cell, r"invalid mocap frames \(NaN, inf or all-zero\) "
                                             r"\{'hand_mocap/left_joints_3d': 1\}"),
    ("full_body_mocap/keypoints", _inf_cell, r"invalid mocap frames .*'body_keypoints': 1"),
])
def test_non_finite_sensor_values_warn_and_never_reach_the_features(tmp_path, key, change, message):
    from robotask.episode.features.windowset import load_window_set

    ep = _edited(tmp_path, key, change)
    with pytest.warns(RobotaskWarning if not key.startswith(("hand", "full")) else UserWarning, match=message):
        ws = load_window_set(ep, cache=False, workers=1)
    assert np.isfinite(ws.X).all()


def test_imu_gaps_are_interpolated_from_the_samples_around_them():
    from robotask.episode.files.finite import interpolate_non_finite

    a = np.array([[0.0, 10.0], [np.nan, 0.0], [np.inf, 0.0], [3.0, 40.0]])
    with pytest.warns(RobotaskWarning, match="2 of 4 samples"):
        interpolate_non_finite(a, "x")
    np.testing.assert_allclose(a, [[0, 10], [1, 20], [2, 30], [3, 40]])


def test_a_second_build_into_the_same_out_is_refused_while_the_first_holds_it(tmp_path, capsys):
    out = tmp_path / "col"
    with io.output_lock(out):
        assert main(["synth-collection", "--out", str(out), "--episodes", "1", "--frames", "60",
                     "--resolution", "16", "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"robotask: error: --out {out} is in use by another run (lock {tmp_path}/.col.lock); "
                          "wait for it to finish or write elsewhere") and err.count("\n") == 1
    assert not out.exists()


def test_two_collection_builds_into_one_out_at_once(tmp_path):
    """Two real processes: one builds the collection, the other is refused in one line; the result is whole."""
    out = tmp_path / "col"
    env = {**os.environ, "ROBOTASK_CACHE": str(tmp_path / "cache"), "ROBOTASK_PROGRESS": "0"}
    argv = [sys.executable, "-m", "robotask.cli", "synth-collection", "--out", str(out), "--episodes", "3",
            "--frames", "600", "--resolution", "32", "--workers", "1"]  # about 5 s
    first = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not out.exists() and first.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)  # the first holds the lock once it creates the folder
    second = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300)
    assert first.wait(timeout=300) == 0, first.stderr.read()
    if second.returncode == 0:
        pytest.skip("the first build finished before the second reached the lock")
    assert second.returncode == 2 and second.stderr.startswith(f"robotask: error: --out {out} is in use by "
                                                               "another run"), second.stderr
    assert second.stderr.count("\n") == 1
    from robotask.episode.files.manifest import load_collection

    assert load_collection(out).ids == ["ep0000", "ep0001", "ep0002"]


def test_a_handled_case_is_judged_by_the_note_it_returns():
    from robotask.catalogue import Case, run_case

    def warns(tmp):
        import warnings

        warnings.warn("degraded", RobotaskWarning, stacklevel=2)
        return "rebuilt"

    assert run_case(Case("g", "ok", "handled", r"^rebuilt in <tmp>$", lambda tmp: f"rebuilt in {tmp}")).ok
    assert run_case(Case("g", "silent", "handled", r"rebuilt", lambda tmp: None)).got == "nothing"
    assert run_case(Case("g", "loud", "handled", r"rebuilt", warns)).got == "warning"
