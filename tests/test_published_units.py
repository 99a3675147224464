"""The intervals' units: a moving-block bootstrap over consecutive windows of one episode (its block chosen
from the errors' autocorrelation), a cluster bootstrap over whole episodes across many."""

from __future__ import annotations

import numpy as np
import pandas as pd

from robotask.episode.published import units
from robotask.episode.published.recompute import task_metrics
from robotask.episode.published.verdicts import paired


def test_block_length_follows_the_autocorrelation():
    rng = np.random.default_rng(0)
    iid = rng.integers(0, 2, 400).astype(float)
    runs = np.repeat(rng.integers(0, 2, 20), 20).astype(float)  # errors in runs of 20 windows
    assert units.block_length(iid) <= 2
    assert units.block_length(runs) >= 10
    assert units.block_length(np.zeros(40)) == 1  # no errors: nothing to correlate


def test_the_cluster_bootstrap_draws_whole_episodes():
    episodes = np.repeat(np.array(["a", "b", "c", "d"]), [3, 5, 2, 6])
    w = units.cluster_weights(episodes, 200, seed=3)
    for name in "abcd":
        cols = w[:, episodes == name]
        assert (cols == cols[:, :1]).all()  # every window of an episode weighs the same in a draw
    per_episode = np.stack([w[:, episodes == n][:, 0] for n in "abcd"], axis=1)
    assert (per_episode.sum(axis=1) == 4).all()  # 4 episodes drawn each time, never single windows
    assert np.array_equal(w, units.cluster_weights(episodes, 200, seed=3))


def _run(name: str, true: list[str], pred: list[str], episodes: list[str]) -> pd.DataFrame:
    n = len(true)
    return pd.DataFrame({"scope": "episodes" if len(set(episodes)) > 1 else "episode", "run": name,
                         "task": "timeline_action", "window": [f"w{i}" for i in range(n)], "episode": episodes,
                         "order": range(n), "true": true, "predicted": pred, "parsed": ""})


def test_metric_draws_with_unit_weights_equal_the_metric():
    rng = np.random.default_rng(1)
    labels = np.array(list("abcde"))
    run = _run("x", list(labels[rng.integers(0, 5, 60)]), list(labels[rng.integers(0, 5, 60)]), ["s"] * 60)
    ones = np.ones((1, 60))
    for metric in ("accuracy", "macro_f1"):
        got = units.metric_draws(run, "timeline_action", metric, ones)[0]
        assert abs(got - task_metrics(run, "timeline_action")[metric]) < 1e-12


def test_a_comparison_takes_the_unit_of_its_scope():
    rng = np.random.default_rng(2)
    true = list(np.array(list("ab"))[rng.integers(0, 2, 80)])
    good, bad = list(true), list(np.array(list("ab"))[rng.integers(0, 2, 80)])
    one = paired(_run("good", true, good, ["s"] * 80), _run("bad", true, bad, ["s"] * 80),
                 "timeline_action", "accuracy", seed=0, n_boot=300)
    eps = [f"e{i // 10}" for i in range(80)]
    many = paired(_run("good", true, good, eps), _run("bad", true, bad, eps), "timeline_action", "accuracy",
                  seed=0, n_boot=300)
    assert one["unit"] == "block" and one["block"] >= 1
    assert many["unit"] == "episode" and many["episodes"] == 8
    assert many["verdict"] == "higher" and many["low"] > 0


def test_the_projection_grows_as_the_effect_shrinks():
    draws = np.random.default_rng(4).normal(0.01, 0.02, 1000)
    small = units.episodes_to_resolve(0.01, draws, 14)
    large = units.episodes_to_resolve(0.04, draws, 14)
    assert small > large >= 1
    assert units.episodes_to_resolve(0.0, draws, 14) == float("inf")
