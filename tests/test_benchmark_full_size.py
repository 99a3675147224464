"""Page 99's full-size cluster table and projection (``robotask.book.benchmarks``), from a saved result of
``benchmarks/collection_scale.py --full-size N --cluster-workers 1,2`` (values made up for the test)."""

from __future__ import annotations

import math

import pytest

from robotask.book.benchmarks import RELEASE_EPISODES, full_size_cluster_text, full_size_throughput, release_projection

FULL = {"episodes": 4, "frames": 5821, "resolution": 128,
        "decode_floor": {"episodes": 4, "processes": 1, "seconds": 36.0},
        "points": [{"path": "streamed", "episodes": 4, "workers": 0, "features_s": 40.0, "wall_s": 200.0,
                    "peak_gb": 0.9}],
        "cluster": [{"episodes": 4, "workers": 2, "features_s": 30.0, "wall_s": 150.0, "peak_gb_per_worker": 0.7,
                     "worker_peaks_gb": [0.7, 0.6], "client_peak_gb": 0.3},
                    {"episodes": 4, "workers": 1, "features_s": 50.0, "wall_s": 190.0, "peak_gb_per_worker": 0.8,
                     "worker_peaks_gb": [0.8], "client_peak_gb": 0.3}]}


def test_throughput_gives_episodes_per_hour_of_features_and_suite_beside_the_floor():
    table = full_size_throughput({"full_size": FULL})
    assert list(table["Worker processes"]) == [1, 1, 1, 2]  # floor, one process, then the clusters by size
    assert table["Run"].iloc[0].startswith("decoding the videos")
    assert table["Episodes per hour"].tolist() == pytest.approx([400.0, 60.0, 60.0, 80.0])  # 4 × 3600 / seconds
    assert table["Wall time (s)"].tolist() == pytest.approx([36.0, 240.0, 240.0, 180.0])
    assert table["Peak memory (GB)"].iloc[1:].tolist() == pytest.approx([0.9, 0.8, 0.7])
    assert math.isnan(table["Peak memory (GB)"].iloc[0])  # the floor measured no memory
    assert table["Client's peak memory (GB)"].iloc[2:].tolist() == pytest.approx([0.3, 0.3])


def test_projection_divides_the_release_by_one_machine_times_the_machines():
    table = release_projection({"full_size": FULL}, machines=(1, 2, 10))
    per_machine = 4 * 3600 / 180.0  # the two-worker cluster is the machine
    assert table["Hours for 12,103 episodes (projection)"].tolist() == pytest.approx(
        [RELEASE_EPISODES / per_machine, RELEASE_EPISODES / (2 * per_machine), RELEASE_EPISODES / (10 * per_machine)])
    assert "linearly" in full_size_cluster_text({"full_size": FULL})
    assert "2 workers" in full_size_cluster_text({"full_size": FULL})
    assert "the suite took 83 % of the time" in full_size_cluster_text({"full_size": FULL})  # 150 of 180 s


def test_without_cluster_points_the_page_says_so_in_one_sentence():
    old = {"full_size": {k: v for k, v in FULL.items() if k not in ("cluster", "decode_floor")}}
    for result in ({}, old):
        assert full_size_throughput(result) is None
        assert release_projection(result) is None
        text = full_size_cluster_text(result)
        assert text.count(".") == 1 and text.endswith(".") and "no full size run on a cluster" in text
        assert "—" not in text and "–" not in text and " - " not in text
