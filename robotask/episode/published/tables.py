"""Chapter 15's tables, shaped for a reader from a :class:`~.scorecard.Scorecard`."""

from __future__ import annotations

import pandas as pd

from ...task_names import TASK_TITLES

SCOPES = {"episode": "one sample episode", "episodes": "14 unseen episodes"}
NAIVE = ("majority", "always yes", "copy current")


def _task(t: str) -> str:
    return TASK_TITLES.get(t, "JSON answers" if t == "answer" else t)


def recomputed_summary(recomputed: pd.DataFrame) -> pd.DataFrame:
    """Per scope and group of runs: how many published metrics, the largest |recomputed − published|."""
    d = recomputed.assign(group=recomputed["run"].map(
        lambda r: r if r in ("minimal", "mlp", "simple", "neural") else "fine-tuned runs"),
        diff=(recomputed["recomputed"] - recomputed["published"]).abs())
    out = d.groupby(["scope", "group"], sort=False).agg(metrics=("metric", "size"), largest=("diff", "max"))
    out = out.reset_index()
    out["scope"] = out["scope"].map(SCOPES)
    return out.rename(columns={"scope": "data", "group": "runs", "metrics": "published metrics",
                               "largest": "largest |recomputed − published|"})


def recomputed_rows(recomputed: pd.DataFrame, runs: tuple[str, ...]) -> pd.DataFrame:
    """``published, recomputed, difference`` for the chosen runs' metrics."""
    d = recomputed[recomputed["run"].isin(runs)]
    return pd.DataFrame({"run": d["run"], "task": d["task"].map(_task), "metric": d["metric"],
                         "published": d["published"], "recomputed": d["recomputed"],
                         "difference": d["recomputed"] - d["published"]})


def _with_interval(value: float, low: float, high: float) -> str:
    """A value and its interval as a reader reads them, with a true minus: "0.612 (0.519 to 0.734)"."""
    return f"{value:.3f} ({low:.3f} to {high:.3f})".replace("-", "−")


def results_beside_baselines(results: pd.DataFrame, scope: str,
                             metric_of: dict[str, str] | None = None) -> pd.DataFrame:
    """One row per task: each run's value with its interval, the baselines in the last columns."""
    d = results[results["scope"] == scope]
    if metric_of:
        d = d[d.apply(lambda r: r["metric"] == metric_of.get(r["task"], r["metric"]), axis=1)]
    runs = [r for r in dict.fromkeys(d["run"]) if r not in NAIVE] + [r for r in NAIVE if r in set(d["run"])]
    cell = d.assign(text=d.apply(lambda r: _with_interval(r["value"], r["low"], r["high"]), axis=1))
    wide = cell.pivot_table(index=["task", "metric"], columns="run", values="text", aggfunc="first", sort=False)
    wide = wide.reindex(columns=runs).fillna("–").reset_index()
    wide["task"] = wide["task"].map(_task)
    return wide


def verdict_table(comparisons: pd.DataFrame) -> pd.DataFrame:
    """The comparisons as a reader reads them: A − B, the difference, its interval and unit, the verdict."""
    c = comparisons
    return pd.DataFrame({"task": c["task"].map(_task), "A − B": c["a"] + " − " + c["b"], "metric": c["metric"],
                         "difference": c["difference"], "low": c["low"], "high": c["high"],
                         "unit": c["unit"].where(c["unit"] == "episode", "blocks of " + c["block"].fillna(0)
                                                 .astype(int).astype(str)),
                         "verdict": c["verdict"]})


def projection_table(comparisons: pd.DataFrame) -> pd.DataFrame:
    """Unresolved comparisons across episodes with a finite projection, sorted by the episodes needed."""
    c = comparisons[(comparisons["unit"] == "episode") & (comparisons["verdict"] == "not resolved")]
    c = c[c["episodes_to_resolve"].notna() & (c["episodes_to_resolve"] < float("inf"))]
    c = c.sort_values("episodes_to_resolve")
    return pd.DataFrame({"task": c["task"].map(_task), "A − B": c["a"] + " − " + c["b"], "metric": c["metric"],
                         "difference": c["difference"], "test episodes now": c["episodes"],
                         "projected to resolve": c["episodes_to_resolve"].astype(int)})


def coverage_display(coverage: pd.DataFrame) -> pd.DataFrame:
    """Coverage per scope and label task, in percent, with the check against the train windows."""
    return pd.DataFrame({"data": coverage["scope"].map(SCOPES), "task": coverage["task"].map(_task),
                         "test windows": coverage["test_windows"], "labels unseen in train": coverage["unseen_labels"],
                         "coverage = accuracy ceiling (%)": coverage["coverage"] * 100,
                         "original's list vs train windows": coverage["checked"]})
