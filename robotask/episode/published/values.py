"""What chapter 15 glues, what it writes to ``summary.json``, and the home page's real-data answer."""

from __future__ import annotations

import math

import pandas as pd

from ...words import pct


def _count(c: pd.DataFrame, word: str) -> int:
    return int((c["verdict"] == word).sum())


def data_values(card, windows: pd.DataFrame) -> dict[str, object]:
    """Sizes: windows and test windows of the sample and of the 14 episodes, runs and published metrics."""
    p = card.predictions
    one, many = p[p["scope"] == "episode"], p[p["scope"] == "episodes"]
    tuned = sorted(set(many.loc[many["parsed"].astype(str) != "", "run"]))
    w_many = windows[windows["scope"] == "episodes"]
    return {"sample_windows": f"{int((windows['scope'] == 'episode').sum()):,}",
            "sample_test": f"{one[one['task'] == 'transition_detection']['window'].nunique():,}",
            "stage_windows": f"{len(w_many):,}", "stage_episodes": f"{w_many['episode'].nunique():,}",
            "test_episodes": f"{many['episode'].nunique():,}",
            "test_windows": f"{many.loc[many['task'] == 'transition_detection', 'window'].nunique():,}",
            "n_tuned": len(tuned), "n_rows": f"{len(p):,}"}


def recompute_values(card) -> dict[str, object]:
    """How many published metrics were recomputed, and the largest difference."""
    r = card.recomputed
    diff = (r["recomputed"] - r["published"]).abs()
    return {"n_published": len(r), "n_within": int((diff <= 1e-6).sum()), "largest_diff": f"{diff.max():.1e}"}


def headline_values(card) -> dict[str, object]:
    """The numbers a reader needs first: boundary accuracy beside its majority, next action beside copying."""
    res = card.results
    def value(scope: str, task: str, run: str, metric: str) -> float:
        d = res[(res["scope"] == scope) & (res["task"] == task) & (res["run"] == run) & (res["metric"] == metric)]
        return float(d["value"].iloc[0]) if len(d) else math.nan
    return {"trans_v6": value("episodes", "transition_detection", "qwen_v6_full_split", "accuracy"),
            "trans_v4": value("episodes", "transition_detection", "qwen_v4_4_epochs", "accuracy"),
            "trans_majority": value("episodes", "transition_detection", "majority", "accuracy"),
            "next_copy_sample": value("episode", "next_action", "copy current", "macro_f1"),
            "next_minimal_sample": value("episode", "next_action", "minimal", "macro_f1"),
            "next_copy_acc": value("episodes", "next_action", "copy current", "accuracy"),
            "next_v4_acc": value("episodes", "next_action", "qwen_v4_4_epochs", "accuracy")}


def verdict_values(card) -> dict[str, object]:
    """Verdict counts per claim: minimal vs MLP, simple vs neural, fine-tuned vs simple and vs majority."""
    c = card.comparisons
    heads = c[c["b"].isin(["mlp", "neural"])]
    tuned = c[~c["a"].isin(["minimal", "mlp", "simple", "neural"])]
    vs_simple, vs_major = tuned[tuned["b"] == "simple"], tuned[tuned["b"] == "majority"]
    out = {}
    for key, part in (("mm", heads[heads["scope"] == "episode"]), ("sn", heads[heads["scope"] == "episodes"]),
                      ("ts", vs_simple), ("tm", vs_major)):
        out |= {f"{key}_n": len(part), f"{key}_higher": _count(part, "higher"), f"{key}_lower": _count(part, "lower"),
                f"{key}_open": _count(part, "not resolved")}
    blocks = c.loc[c["unit"] == "block", "block"]
    out |= {"block_min": int(blocks.min()) if len(blocks) else 0, "block_max": int(blocks.max()) if len(blocks) else 0}
    return out


def projection_values(card) -> dict[str, object]:
    """The projected test episodes of the unresolved fine-tuned − simple comparisons (median and range)."""
    c = card.comparisons
    c = c[(c["b"] == "simple") & (c["verdict"] == "not resolved") & c["episodes_to_resolve"].notna()]
    finite = c.loc[c["episodes_to_resolve"] < float("inf"), "episodes_to_resolve"]
    return {"proj_n": len(c), "proj_finite": len(finite),
            "proj_median": f"{finite.median():,.0f}" if len(finite) else "–",
            "proj_min": f"{finite.min():,.0f}" if len(finite) else "–",
            "proj_max": f"{finite.max():,.0f}" if len(finite) else "–"}


def coverage_values(card, synthetic: pd.DataFrame | None) -> dict[str, object]:
    """Coverage of the action labels: the sample, the 14 episodes, and chapter 14's synthetic folds in words
    (their mean and lowest fold, or a sentence saying that chapter 14 has not run: never a dash)."""
    cov = card.coverage
    def share(scope: str) -> str:
        d = cov[(cov["scope"] == scope) & (cov["task"] == "timeline_action")]
        return pct(100 * float(d["coverage"].iloc[0])) if len(d) else "–"
    syn = synthetic[synthetic["label"] == "action"]["coverage"] if synthetic is not None else pd.Series(dtype=float)
    if len(syn):
        synthetic_words = (f"ran: its folds held out whole synthetic episodes with a mean action coverage of "
                           f"{pct(100 * float(syn.mean()))} (lowest fold {pct(100 * float(syn.min()))})")
    elif synthetic is not None:
        synthetic_words = "ran, but its folds measured no action coverage, so there is none to set beside ours"
    else:
        synthetic_words = ("has not run in this build, so the figure has no synthetic bars and there is no "
                           "synthetic coverage to set beside ours")
    return {"cov_sample": share("episode"), "cov_episodes": share("episodes"), "cov_synthetic": synthetic_words}


def summary_record(card, values: dict[str, object]) -> dict[str, object]:
    """What the chapter writes to ``summary.json`` (the home page reads it: :func:`home_values`)."""
    return {"real_" + k: v for k, v in values.items()} | {
        "real_comparisons": len(card.comparisons), "real_recomputed": len(card.recomputed)}


def home_values(summary: dict | None) -> dict[str, str]:
    """The home page's real-data answer from chapter 15's ``summary.json``, every value a string (glue them
    with ``:s``; dashes when the chapter has not run)."""
    keys = ("n_published", "n_within", "test_episodes", "ts_n", "ts_higher", "ts_open", "tm_n", "tm_lower",
            "next_copy_acc", "trans_majority", "cov_episodes", "proj_median")
    out = {}
    for k in keys:
        v = (summary or {}).get(f"real_{k}", "–")
        out[f"real_{k}"] = f"{v:.3f}" if isinstance(v, float) else str(v)
    return out

