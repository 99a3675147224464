"""Figures of notebook ``11_windows_features``: block sizes, window labels, label coverage per schedule."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ... import plots
from ..features import windows as W
from .figures_episode import wrap_label

GROUP_OF_PREFIX = (("hand_", "motion"), ("body_", "motion"), ("camera_", "motion"), ("imu_", "motion"),
                   ("audio_", "motion"), ("depth_", "visual"), ("video_", "visual"), ("caption_", "text"),
                   ("slam_", "static"), ("calibration", "static"))
# x tick of the real sample's bars: its own windows.csv, not an episode of ours
REAL_SAMPLE_TICK = "real sample\n(its windows.csv;\nother data, hatched)"
GROUP_COLOURS = {"motion": plots.PALETTE[0], "visual": plots.PALETTE[1], "text": plots.PALETTE[2],
                 "static": plots.PALETTE[7]}


def block_group(name: str) -> str:
    """Task input group of a block: motion, visual, text or static.

    Parameters
    ----------
    name : str
        Block name from the manifest.
    """
    return next((g for p, g in GROUP_OF_PREFIX if name.startswith(p)), "static")


def manifest_table(manifest: Sequence[dict]) -> pd.DataFrame:
    """The manifest as a table: block, group, columns [start, end), dim.

    Parameters
    ----------
    manifest : sequence of dict
        Blocks {name, start, end, dim}.
    """
    return pd.DataFrame([{"block": b["name"], "group": block_group(b["name"]), "start": b["start"],
                          "end": b["end"], "dim": b["dim"]} for b in manifest])


def figure_block_sizes(manifest: Sequence[dict]) -> plt.Figure:
    """Horizontal bars of the 18 blocks' dimensions in manifest order, coloured by input group.

    Parameters
    ----------
    manifest : sequence of dict
        Blocks {name, start, end, dim}.
    """
    table = manifest_table(manifest)
    fig, ax = plt.subplots(figsize=(8.0, 5.0), layout="constrained")
    y = np.arange(len(table))[::-1]
    ax.barh(y, table["dim"], color=[GROUP_COLOURS[g] for g in table["group"]])
    for yi, d in zip(y, table["dim"]):
        ax.text(d + 10, yi, str(d), va="center", fontsize=8)
    ax.set_yticks(y, table["block"], fontsize=8)
    ax.set_xlabel("dimensions (7 temporal statistics × per-step values; static blocks once)")
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in GROUP_COLOURS.values()]
    ax.legend(handles, [f"{g} ({table.loc[table.group == g, 'dim'].sum()})" for g in GROUP_COLOURS],
              loc="upper left", bbox_to_anchor=(1.01, 1.0), title="input group (dimensions)")
    ax.set_title(f"Feature layout: {int(table['dim'].sum())} dimensions in {len(table)} blocks")
    return fig


def figure_window_labels(windows: pd.DataFrame, column: str = "action_label",
                       test_fraction: float = 0.3) -> plt.Figure:
    """Majority-label fractions (left) and the labelled windows over time, train vs test, unseen marked (right).

    Parameters
    ----------
    windows : pd.DataFrame
        Window table of :func:`robotask.episode.features.windows.window_table`.
    column : str
        "action_label" or "subtask_label".
    test_fraction : float
        Held-out fraction of the chronological split.
    """
    frac_col = column.replace("_label", "_fraction")
    fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(11.0, 4.0), gridspec_kw={"width_ratios": [1, 2.2]},
                                   layout="constrained")
    ax0.hist(windows[frac_col], bins=np.linspace(0, 1, 21), color=plots.PALETTE[0])
    ax0.axvline(0.6, color="k", ls="--", lw=1)
    ax0.set_xlabel("majority fraction of the window's non-empty labels")
    ax0.set_ylabel("windows")
    ax0.set_title("label purity (dashed: 0.6 threshold)")
    lab = windows[[not W.is_empty_label(x) for x in windows[column]]]
    order = list(dict.fromkeys(lab[column]))
    y = lab[column].map({c: i for i, c in enumerate(order)}).to_numpy()
    split = W.split_point(len(lab), test_fraction)
    seen = set(lab[column].iloc[:split])
    x = lab["center_frame"].to_numpy()
    is_test = np.arange(len(lab)) >= split
    unseen = is_test & ~lab[column].isin(seen).to_numpy()
    ax1.scatter(x[~is_test], y[~is_test], s=6, color=plots.PALETTE[0], label="train")
    ax1.scatter(x[is_test & ~unseen], y[is_test & ~unseen], s=6, color=plots.PALETTE[2], label="test, label seen")
    ax1.scatter(x[unseen], y[unseen], s=10, marker="x", color=plots.PALETTE[3], label="test, label unseen")
    ax1.set_yticks(range(len(order)), [wrap_label(c, 32) for c in order], fontsize=6 if len(order) > 12 else 8)
    ax1.set_xlabel("window centre frame")
    ax1.set_title(f"{column.split('_')[0]} label of each labelled window")
    ax1.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, markerscale=2)
    return fig


def figure_schedule_coverage(table: pd.DataFrame, reference: dict | None = None) -> plt.Figure:
    """Bars: fraction of test windows whose label was seen in training, per episode and label kind.

    Parameters
    ----------
    table : pd.DataFrame
        Columns ``episode``, ``labels`` (action / subtask), ``coverage`` (fraction).
    reference : dict, optional
        The real sample's values (other data), e.g. ``windows.REAL_SAMPLE_COVERAGE``; drawn hatched.
    """
    rows = table[["episode", "labels", "coverage"]].copy()
    if reference:
        ref = pd.DataFrame([{"episode": REAL_SAMPLE_TICK, "labels": k, "coverage": reference[k]}
                            for k in ("action", "subtask") if k in reference])
        rows = pd.concat([rows, ref], ignore_index=True)
    episodes = list(dict.fromkeys(rows["episode"]))
    kinds = list(dict.fromkeys(rows["labels"]))
    fig, ax = plt.subplots(figsize=(7.5, 3.8), layout="constrained")
    width = 0.8 / len(kinds)
    for k, kind in enumerate(kinds):
        for e, ep in enumerate(episodes):
            val = rows.loc[(rows.episode == ep) & (rows.labels == kind), "coverage"]
            if val.empty:
                continue
            other = ep == REAL_SAMPLE_TICK
            ax.bar(e + (k - (len(kinds) - 1) / 2) * width, 100 * float(val.iloc[0]), width,
                   color=plots.PALETTE[k], hatch="//" if other else None, alpha=0.5 if other else 1.0,
                   label=kind if e == 0 else None)
    ax.set_xticks(range(len(episodes)), episodes, fontsize=8)
    ax.set_ylabel("test windows with a label seen in training (%)")
    ax.set_ylim(0, 105)
    ax.legend(title="labels", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.set_title("Chronological 70/30 split: label coverage of the test part")
    return fig


LAYOUT_HEADERS = {"block": "Block", "group": "Group", "start": "First column", "end": "End column",
                  "dim": "Dimensions", "present": "Present"}
COVERAGE_HEADERS = {"episode": "Episode", "labels": "Labels", "test windows": "Test windows",
                    "seen in training": "Seen in training", "coverage": "Coverage (%)",
                    "unseen classes": "Unseen classes"}


def layout_table(manifest: Sequence[dict], present: dict[str, bool]) -> pd.DataFrame:
    """:func:`manifest_table` with a "present" column (yes/no) and readers' headers."""
    table = manifest_table(manifest).assign(
        present=["yes" if present.get(b["name"], True) else "no" for b in manifest])
    return table.rename(columns=LAYOUT_HEADERS)


def coverage_table(sources: dict[str, object]) -> pd.DataFrame:
    """Label coverage of the chronological split, one row per episode (``sources``: name → folder)
    and label level: test windows, those whose label occurs in training, their share, unseen classes."""
    from ..features.windowset import episode_windows
    from ..files.loader import load_episode

    rows = []
    for name, src in sources.items():
        table = episode_windows(load_episode(src))
        for labels in ("action", "subtask"):
            cov = W.split_coverage(table, f"{labels}_label")
            rows.append({"episode": name, "labels": labels, "test windows": cov["n_test"],
                         "seen in training": cov["n_test_seen"], "coverage": cov["coverage"],
                         "unseen classes": len(cov["unseen_test_classes"])})
    return pd.DataFrame(rows)


def coverage_display(coverage: pd.DataFrame) -> pd.DataFrame:
    """The coverage table for the page: coverage in percent, readers' headers."""
    return coverage.assign(coverage=100 * coverage["coverage"]).rename(columns=COVERAGE_HEADERS)


def spread_counts(x_train: np.ndarray) -> tuple[int, int]:
    """Columns with no spread (std < 10⁻⁶) and a tiny one (10⁻⁶ ≤ std < 10⁻³) in training."""
    std = np.asarray(x_train).astype(np.float64).std(axis=0)
    return int((std < 1e-6).sum()), int(((std >= 1e-6) & (std < 1e-3)).sum())
