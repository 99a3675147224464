"""Across-gallery statistics of per-trial accuracies and paired method comparisons.

The spread statistics describe variation across reference galleries drawn from one corpus;
they are not confidence intervals. Percentiles use NumPy's default ``method="linear"``
(Hyndman–Fan type 7), stated once here as :data:`PERCENTILE_METHOD`.

Used by notebooks ``02_five_rankers``, ``03_second_description``, ``04_scoring_audit``,
``05_reproduction_report`` and by ``robotask retrieval``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...errors import RobotaskError
from ...words import paired_interval, verdict
from ..rankers.registry import RANKERS

PERCENTILE_METHOD = "linear"


def spread(values: np.ndarray) -> dict[str, float]:
    """Mean, sample SD (ddof=1), 5th/95th percentiles, min and max of ``values``.

    Parameters
    ----------
    values : one accuracy per trial.
    """
    v = np.asarray(values, dtype=np.float64)
    if v.size == 0:
        raise RobotaskError("no trials to summarise; expected at least one per-trial accuracy")
    p5, p95 = np.percentile(v, [5, 95], method=PERCENTILE_METHOD)
    return {"n_trials": int(v.size), "mean": float(v.mean()),
            "sd": float(v.std(ddof=1)) if v.size > 1 else float("nan"),
            "p5": float(p5), "p95": float(p95), "min": float(v.min()), "max": float(v.max())}


def _select(per_trial: pd.DataFrame, condition: str, policy: str) -> pd.DataFrame:
    """Rows of one condition and policy; raise if there are none."""
    sel = per_trial[(per_trial["condition"] == condition) & (per_trial["policy"] == policy)]
    if sel.empty:
        raise RobotaskError(f"no per-trial rows for condition {condition!r}, policy {policy!r}")
    return sel


def summary_table(per_trial: pd.DataFrame, condition: str = "one", policy: str = "primary") -> pd.DataFrame:
    """Table-2-style summary: one row per ranker (in run order) with label and spread statistics.

    Parameters
    ----------
    per_trial : tidy per-trial results of :func:`robotask.retrieval.protocol.study.run_study`.
    condition, policy : which design and scoring policy to summarise.
    """
    sel = _select(per_trial, condition, policy)
    rows = [{"ranker": name, "label": RANKERS[name].display, **spread(grp["accuracy"].to_numpy())}
            for name, grp in sel.groupby("ranker", sort=False)]
    return pd.DataFrame(rows)


def paired(per_trial: pd.DataFrame, a: str, b: str, condition: str = "one", policy: str = "primary",
           ) -> dict[str, float]:
    """Compare ranker ``a`` with ``b`` trial by trial: mean difference (pp) and wins / ties / losses of ``a``,
    with the Student-t 95 % interval of the paired difference over trials and the word
    :func:`robotask.words.verdict` reads from it ("higher", "lower" or "not resolved").

    Ties compare the counts of correct queries (the query set of a trial is shared).

    Parameters
    ----------
    per_trial : tidy per-trial results.
    a, b : ranker names.
    condition, policy : design and scoring policy.
    """
    sel = _select(per_trial, condition, policy)
    wide = sel.pivot(index="trial", columns="ranker", values=["accuracy", "n_correct"])
    for name in (a, b):
        if name not in wide["accuracy"].columns:
            raise RobotaskError(f"ranker {name!r} was not run; ran: {', '.join(wide['accuracy'].columns)}")
    diff = (wide["accuracy"][a] - wide["accuracy"][b]).to_numpy()
    nc = (wide["n_correct"][a] - wide["n_correct"][b]).to_numpy()
    iv = paired_interval(wide["accuracy"][a].to_numpy(), wide["accuracy"][b].to_numpy())
    return {"a": a, "b": b, "n_trials": int(len(diff)), "mean_diff": float(diff.mean()),
            "sd_diff": float(diff.std(ddof=1)) if len(diff) > 1 else float("nan"),
            "min_diff": float(diff.min()), "max_diff": float(diff.max()),
            "wins": int((nc > 0).sum()), "ties": int((nc == 0).sum()), "losses": int((nc < 0).sum()),
            "lo": iv.low, "hi": iv.high, "verdict": verdict(iv.low, iv.high)}


def paired_table(per_trial: pd.DataFrame, pairs: list[tuple[str, str]], condition: str = "one",
                 policy: str = "primary") -> pd.DataFrame:
    """:func:`paired` for several (a, b) pairs, one row each.

    Parameters
    ----------
    per_trial : tidy per-trial results.
    pairs : (a, b) ranker pairs.
    condition, policy : design and scoring policy.
    """
    return pd.DataFrame([paired(per_trial, a, b, condition, policy) for a, b in pairs])


def matched_table(per_trial: pd.DataFrame, policy: str = "primary") -> pd.DataFrame:
    """Table-3-style: mean accuracy with one and two gallery descriptions, paired difference and wins.

    Parameters
    ----------
    per_trial : tidy per-trial results with conditions ``matched_one`` and ``matched_two``.
    policy : scoring policy.
    """
    one = _select(per_trial, "matched_one", policy).set_index(["ranker", "trial"])
    two = _select(per_trial, "matched_two", policy).set_index(["ranker", "trial"])
    if not one.index.equals(two.index) or not (one["n_queries"] == two["n_queries"]).all():
        raise RobotaskError("matched conditions do not share their query sets; expected identical queries")
    rows = []
    for name in one.index.get_level_values("ranker").unique():
        a, b = one.loc[name], two.loc[name]
        d = (b["accuracy"] - a["accuracy"]).to_numpy()
        nc = (b["n_correct"] - a["n_correct"]).to_numpy()
        iv = paired_interval(b["accuracy"].to_numpy(), a["accuracy"].to_numpy())
        rows.append({"ranker": name, "label": RANKERS[name].display, "n_trials": len(d),
                     "one": float(a["accuracy"].mean()), "two": float(b["accuracy"].mean()),
                     "diff": float(d.mean()), "sd_diff": float(d.std(ddof=1)) if len(d) > 1 else float("nan"),
                     "lo": iv.low, "hi": iv.high, "verdict": verdict(iv.low, iv.high),
                     "two_better": int((nc > 0).sum()), "same": int((nc == 0).sum()),
                     "two_worse": int((nc < 0).sum())})
    return pd.DataFrame(rows)


def identical_queries(per_trial: pd.DataFrame) -> bool:
    """Whether the matched conditions (``matched_one``, ``matched_two``) scored as many queries in every
    trial and for every ranker and policy, as they must when both rank the same queries."""
    counts = per_trial.pivot_table(index=["trial", "ranker"], columns="condition", values="n_queries")
    return bool((counts["matched_one"] == counts["matched_two"]).all())


def policy_table(per_trial: pd.DataFrame, condition: str = "one") -> pd.DataFrame:
    """Table-4-style: mean accuracy per ranker under the strict, either-label and primary policies.

    Parameters
    ----------
    per_trial : tidy per-trial results.
    condition : design.
    """
    sel = per_trial[per_trial["condition"] == condition]
    if sel.empty:
        raise RobotaskError(f"no per-trial rows for condition {condition!r}")
    wide = sel.pivot_table(index="ranker", columns="policy", values="accuracy", aggfunc="mean", sort=False)
    out = wide.reindex(columns=["strict", "either", "primary"]).reset_index()
    out.insert(1, "label", [RANKERS[n].display for n in out["ranker"]])
    return out


def exclusion_counts(per_trial: pd.DataFrame, condition: str = "one") -> pd.Series:
    """How many trials excluded 0, 1, 2, … duplicate queries under the primary policy.

    Parameters
    ----------
    per_trial : tidy per-trial results.
    condition : design.
    """
    sel = _select(per_trial, condition, "primary").drop_duplicates("trial")
    return sel["n_excluded"].value_counts().sort_index()
