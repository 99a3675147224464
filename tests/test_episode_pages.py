"""Presentation helpers of the episode pages: the suite summary (chapter 13) and the task pages."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402

from robotask.episode import figures_suite  # noqa: E402
from robotask.episode.tasks import TASKS  # noqa: E402


def _long() -> pd.DataFrame:
    rows = []
    # improved rows first, as the task chapters may write them: the figure must not follow this
    for schedule in ("repeating", "sample-like"):
        for protocol, shift in (("improved", 0.1), ("original", 0.0)):
            for t, spec in TASKS.items():
                for model, v in (("baseline", 0.1), ("minimal", 0.3 + shift), ("mlp", 0.4)):
                    rows.append({"schedule": schedule, "protocol": protocol, "task": t, "model": model,
                                 "metric": spec.primary_metric, "value": v, "status": "ok",
                                 "higher_is_better": spec.higher_is_better})
    return pd.DataFrame(rows)


def test_caption_names_the_bar_groups_in_the_drawn_order():
    long = _long()
    order = figures_suite.bar_order(long)
    assert order == [("repeating", "original"), ("repeating", "improved"),
                     ("sample-like", "original"), ("sample-like", "improved")]
    fig = figures_suite.figure_summary(long)
    ticks = [t.get_text().replace("\n", " ") for t in fig.axes[0].get_xticklabels()]
    assert ticks == [f"{s} {p}" for s, p in order]
    caption = figures_suite.summary_caption(["repeating", "sample-like"], ["original", "improved"], order)
    assert ", ".join(ticks) in caption
    titles = " ".join(ax.get_title() for ax in fig.axes)
    assert "_" not in titles and "macro f1" not in titles and "macro-F1" in titles


def test_schedule_and_fix_text_uses_metric_names():
    text = figures_suite.schedule_and_fix_text(_long(), ["repeating"], ["original", "improved"])
    assert "better by 0.100" in text
    for key in ("macro_f1", "macro f1", "(mrr,", "(r2,", "(mpjpe,", "top5"):
        assert key not in text


def test_lower_is_better_verdicts_speak_of_error():
    from robotask.episode import sentences as S

    text = S.head_verdicts("hand_trajectory_forecast", {"baseline": 0.024, "minimal": 0.035, "mlp": 0.02},
                           "zero velocity")
    assert "the minimal head (0.035) has a larger error than it" in text
    assert "the MLP (0.020) has a smaller error than it" in text and "falls below" not in text
    nested = S.head_verdicts("caption_grounding", {"baseline": 0.01, "minimal": 0.1}, "random ranking (expected)")
    assert "The baseline (random ranking, expected) scores 0.010" in nested and "))" not in nested


def test_majority_absent_is_claimed_only_when_true():
    import numpy as np

    from robotask.episode import sentences as S

    names = ["pick", "place", "wipe"]
    text = S.majority_absent(names, np.array([0, 0, 0, 1]), np.array([1, 2, 2]), "majority class")
    assert "always predicts *pick*" in text and "3 train samples" in text and "3 test samples" in text
    assert S.majority_absent(names, np.array([0, 0, 1]), np.array([0, 2]), "majority class") == ""
    assert S.majority_absent(names, np.array([0, 0, 1]), np.array([1, 2]), "train mean") == ""


def test_metric_table_shows_ceiling_as_percentage_and_ranks_as_integers():
    from robotask.episode import figures_tasks as F

    table = F._readable(pd.DataFrame({"protocol": ["improved"] * 3, "model": ["b", "m", "p"],
                                      "label_coverage_ceiling": [float("nan"), 1.0, 1.0],
                                      "median_rank": [174.5, 8.0, float("nan")]}))
    assert list(table["label_coverage_ceiling"]) == ["100.0 %"] * 3
    assert list(table["median_rank"]) == ["174.5", "8", "–"]
