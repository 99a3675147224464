"""``run_suite`` writes the original's output layout, computed notes, and never a path made of episode text."""

from __future__ import annotations

import json

import h5py
import numpy as np
import pytest

from robotask.episode.badinput import episode_copy
from robotask.episode.features.windowset import load_window_set
from robotask.episode.files import format as fmt
from robotask.episode.suite.execution import run_suite
from robotask.episode.suite.fit import SuiteConfig
from robotask.episode.suite.phrases import baseline_notes, fit_notes, step_notes

EVIL = ["../../evil", "/tmp/robotask-evil", "..\\..\\evil", "a/../../../evil"]


@pytest.fixture(scope="module")
def evil_run(tmp_path_factory):
    """A tiny episode whose objects and subtask names are path-traversal strings, run through the suite."""
    root = tmp_path_factory.mktemp("evil")
    ep = episode_copy(root)
    with h5py.File(ep / fmt.ANNOTATION, "a") as f:
        key = next(k for k in fmt.CAPTION_KEYS if k in f)
        doc = json.loads(f[key][()].decode() if isinstance(f[key][()], bytes) else f[key][()])
        for k, seg in enumerate(doc["segments"]):
            seg["Sub Task"] = EVIL[k % len(EVIL)]
            seg["objects"] = {ref: [EVIL[(k + j) % len(EVIL)]] for j, ref in enumerate(seg.get("objects") or {})}
        del f[key]
        f[key] = np.bytes_(json.dumps(doc).encode())
    out = root / "out"
    ws = load_window_set(ep, cache=False, workers=1)
    report = run_suite(ws, "object_relevance,timeline_subtask,hand_trajectory_forecast", "minimal", "original", out,
                       SuiteConfig(save_models=True), progress=False)
    return root, out, report


def test_window_artifacts_are_written_beside_the_summary(evil_run):
    _, out, report = evil_run
    for name in ("summary_report.json", "available_modalities.json", "feature_manifest.json", "windows.csv",
                 "shared_windows.npz"):
        assert (out / name).is_file(), name
    modalities = json.loads((out / "available_modalities.json").read_text())
    assert modalities["block_status"]["video_fisheye_cam0"] == "present"
    assert modalities["video_fisheye_cam0"]["decoded_frames"] == modalities["num_frames"]
    summary = json.loads((out / "summary_report.json").read_text())
    assert set(summary["notes"]) == set(report["results"])


def test_episode_text_never_becomes_a_path(evil_run):
    root, out, report = evil_run
    assert any(n in EVIL for n in report["results"]["object_relevance"].info["class_names"])
    created = [p for p in root.rglob("*")]
    assert all(p == out or out in p.parents or p.name == "episode" or "episode" in p.parts for p in created)
    assert not any("evil" in part for p in created for part in p.relative_to(root).parts)
    assert not (root.parent / "evil").exists()


def test_notes_are_computed_from_the_numbers():
    primary = {"metric": "mpjpe", "higher_is_better": False, "baseline": 0.017, "minimal": 0.031, "mlp": 0.012}
    assert baseline_notes(primary, "zero velocity") == [
        "the zero velocity baseline (mpjpe 0.017) beats the minimal head (0.031)"]
    fit = fit_notes({"minimal": {"train_final_accuracy": 0.5, "train_majority_share": 0.5, "train_final_loss": 12.3}})
    assert fit and "did not fit its training set" in fit[0] and "12.3" in fit[0]
    assert not fit_notes({"minimal": {"train_final_accuracy": 0.9, "train_majority_share": 0.5}})
    steps = step_notes({"minimal": {"step_over_stability_limit": 25.0, "step_size": 0.12, "loss_smoothness": 416.7}})
    assert steps and "25.0× the stability limit" in steps[0]
    assert not step_notes({"minimal": {"step_over_stability_limit": 0.5, "step_size": 0.12, "loss_smoothness": 8}})


def test_pair_note_states_the_shared_halves():
    from robotask.episode.suite.phrases import pair_notes
    assert not pair_notes(None)
    note = pair_notes(0.75)[0]
    assert "75.0 %" in note and "memorising" in note
