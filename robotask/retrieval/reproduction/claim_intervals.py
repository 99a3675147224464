"""Paired intervals for the paper's claims (chapter ``05_reproduction_report``): galleries and descriptions resampled.

Every claim that orders two accuracies ("has the highest mean", "helps every ranker", "beats") is decided by the
interval of a paired difference, never by the point estimates alone. One replicate resamples the corpus
descriptions within each task (a description drawn k times counts k times wherever it is a query) and the
galleries of the design, both with replacement, and recomputes every arm's mean accuracy with those weights
(:mod:`robotask.retrieval.statistics.bootstrap`); all arms of a design share each replicate's draws, so a
difference (or a difference of differences) between arms is paired. The first-listed gallery is one fixed
gallery: there only the descriptions are resampled. The interval is the 2.5th to 97.5th percentile of the
replicate differences; :func:`robotask.words.verdict` reads it ("not resolved" when it includes zero).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...errors import RobotaskError
from ...words import pp, verdict
from ..statistics import description_weights, percentile_interval, replicate_means, trial_weights

UNIT = "gallery and description"
METHOD = "paired percentile bootstrap, galleries and descriptions within tasks resampled together"


@dataclass(frozen=True)
class Arms:
    """Per-query outcomes of one design as trial × description arrays, one per arm (NaN = not a query)."""

    trials: np.ndarray
    tasks: np.ndarray  # source task of each description column
    values: dict[str, np.ndarray]

    def point(self, arm: str) -> float:
        """The mean over trials of each trial's accuracy (%), as the per-trial table computes it."""
        v = self.values[arm]
        present = ~np.isnan(v)
        per_trial = np.where(present, v, 0).sum(axis=1) / np.maximum(present.sum(axis=1), 1)
        return float(100 * per_trial[present.any(axis=1)].mean())


def design_arms(predictions: pd.DataFrame, condition: str, policy: str = "primary",
                rankers: list[str] | None = None) -> Arms:
    """The arms (one per ranker) of one condition of a study's per-query predictions.

    Parameters
    ----------
    predictions : ``StudyResult.predictions`` of a run that kept every prediction.
    condition : ``one``, ``matched_one``, ``matched_two`` or ``first_listed``.
    policy : ``primary`` (queries whose text two tasks share are left out), ``strict`` or ``either``.
    rankers : the rankers to keep (default: every ranker of the condition).
    """
    sub = predictions[predictions["condition"] == condition]
    if sub.empty:
        raise RobotaskError(f"predictions: no rows for condition {condition!r}; expected a run that kept every "
                            "prediction (save_all_predictions=True)")
    column = "correct_either" if policy == "either" else "correct"
    ids = sub["task"].astype(str) + ":" + sub["position"].astype(str)
    order = sub.assign(_id=ids)[["task", "position", "_id"]].drop_duplicates("_id").sort_values(["task", "position"])
    col = pd.Series(np.arange(len(order)), index=order["_id"].to_numpy())[ids].to_numpy()
    trials, row = np.unique(sub["trial"].to_numpy(), return_inverse=True)
    value = sub[column].to_numpy(dtype=np.float64)
    if policy == "primary":
        value = np.where(sub["duplicate"].to_numpy(dtype=bool), np.nan, value)
    values = {}
    for ranker in rankers or list(dict.fromkeys(sub["ranker"])):
        mask = (sub["ranker"] == ranker).to_numpy()
        out = np.full((len(trials), len(order)), np.nan)
        out[row[mask], col[mask]] = value[mask]
        values[ranker] = out
    return Arms(trials, order["task"].to_numpy(), values)


def replicates(arms: Arms, n_bootstrap: int, seed: int) -> dict[str, np.ndarray]:
    """Replicate mean accuracies (%) of every arm, all arms sharing each replicate's galleries and descriptions."""
    rng = np.random.default_rng(seed)
    w_desc = description_weights(arms.tasks, n_bootstrap, rng)
    w_trial = trial_weights(len(arms.trials), n_bootstrap, rng)
    out = {}
    for name, v in arms.values.items():
        present = ~np.isnan(v)
        den = w_desc @ present.T.astype(np.float64)
        out[name] = 100 * replicate_means(np.where(present, v, 0.0), den, w_desc, w_trial)
    return out


def contrast(arms: Arms, reps: dict[str, np.ndarray], plus: list[str], minus: list[str]) -> dict[str, float]:
    """Point difference sum(plus) − sum(minus) (pp) and its percentile interval over the shared replicates."""
    diff = sum(arms.point(a) for a in plus) - sum(arms.point(b) for b in minus)
    rep = sum(reps[a] for a in plus) - sum(reps[b] for b in minus)
    low, high = percentile_interval(rep)
    return {"difference": diff, "low": low, "high": high}


def _best_other(arms: Arms | None, claimed: str, among: list[str], score: Callable[[str], float]) -> str:
    """The arm among ``among`` (``claimed`` aside) with the highest point value: the runner-up a claim must beat."""
    others = [a for a in among if a != claimed]
    return max(others, key=score)


def _shared_rows(claim: str, table: pd.DataFrame, data: str, names: tuple[str, str] | None) -> list[dict]:
    """Rows of a comparison table of :mod:`robotask.retrieval.statistics` (the interval every page reads)."""
    return [{"claim": claim, "a": names[0] if names else r.a, "b": names[1] if names else r.b, "data": data,
             "difference": r.difference, "low": r.low, "high": r.high, "unit": UNIT, "n_units": int(r.n_descriptions),
             "method": f"{r.method} over {r.n_galleries} galleries and {r.n_descriptions} descriptions"}
            for r in table.itertuples()]


def _own_row(claim: str, arms: Arms, reps: dict, a: str, b: str, data: str, unit: str, n_bootstrap: int) -> dict:
    """The row of A − B from this module's bootstrap (``unit`` says what it resamples)."""
    n_units = int((~np.isnan(arms.values[a])).any(axis=0).sum())
    method = (f"{METHOD}, {n_bootstrap} replicates" if unit == UNIT else
              f"paired percentile bootstrap, descriptions within tasks resampled, {n_bootstrap} replicates")
    return {"claim": claim, "a": a, "b": b, "data": data, **contrast(arms, reps, [a], [b]), "unit": unit,
            "n_units": n_units, "method": method}


def claim_comparisons(predictions: pd.DataFrame, rankers: list[str], n_bootstrap: int, seed: int
                      ) -> pd.DataFrame:
    """The paired comparisons that decide the paper's ordering claims (:data:`..paper.CLAIMS`), one row each.

    ``claim`` (the claim id), ``a``, ``b`` (arms; ``bm25@two`` is BM25 with two indexed descriptions, ``bm25@gain``
    its gain from the second), ``data`` (the design and policy), ``difference``, ``low``, ``high`` (pp, A − B,
    the claim's side first), ``unit``, ``n_units`` (descriptions resampled) and ``method``.

    The comparisons of random galleries under the primary policy are those every page reads
    (:func:`robotask.retrieval.statistics.ranker_comparisons`, ``matched_comparisons`` and ``gain_differences``,
    with their number of replicates), so a comparison has the same numbers here as on chapters 02, 03 and 07;
    the strict and either policies and the one fixed first-listed gallery use this module's bootstrap with
    ``n_bootstrap`` replicates.

    Parameters
    ----------
    predictions : per-query predictions of the one-description, matched and first-listed designs.
    rankers : the paper's rankers that ran.
    n_bootstrap, seed : replicates of this module's own intervals, and the seed of every interval.
    """
    from ..statistics import gain_differences, matched_comparisons, per_query_from_predictions, ranker_comparisons

    rows: list[dict] = []

    def shared(claim: str, table: pd.DataFrame, data: str, names: tuple[str, str] | None = None) -> None:
        rows.extend(_shared_rows(claim, table, data, names))

    def own(claim: str, arms: Arms, a: str, b: str, data: str, unit: str = UNIT) -> None:
        rows.append(_own_row(claim, arms, replicates(arms, n_bootstrap, seed), a, b, data, unit, n_bootstrap))

    pq = per_query_from_predictions(predictions, "one")
    means = pq.groupby(["trial", "ranker"])["correct"].mean().groupby("ranker").mean()
    runner = _best_other(None, "char", rankers, lambda r: means[r])
    one = "one description, primary"
    shared("char_best_mean", ranker_comparisons(pq, [("char", runner)], seed=seed), one)
    shared("char_beats_bm25", ranker_comparisons(pq, [("char", "bm25")], seed=seed), one)
    shared("first_listed_reversal", ranker_comparisons(pq, [("char", "word_char")], seed=seed), one)
    for policy in ("strict", "either"):
        arms = design_arms(predictions, "one", policy, ["char", "bm25"])
        own("gap_not_artefact", arms, "char", "bm25", f"one description, {policy}")
    shared("gap_not_artefact", ranker_comparisons(pq, [("char", "bm25")], seed=seed), one)
    audit = design_arms(predictions, "first_listed", "primary", ["word_char", "char"])
    own("first_listed_reversal", audit, "word_char", "char",
        "first-listed gallery, primary", unit="descriptions (one fixed gallery)")
    gains = matched_comparisons(predictions, rankers, seed=seed)
    for r in rankers:
        shared("second_helps_all", gains[gains["a"] == r], "matched", (f"{r}@two", f"{r}@one"))
    gain = gains.set_index("a")["difference"]
    runner = _best_other(None, "bm25", rankers, lambda r: gain[r])
    shared("bm25_largest_gain", gain_differences(predictions, [("bm25", runner)], seed=seed),
           "matched, gain of the second description", ("bm25@gain", f"{runner}@gain"))
    two = per_query_from_predictions(predictions, "matched_two")
    means = two.groupby(["trial", "ranker"])["correct"].mean().groupby("ranker").mean()
    runner = _best_other(None, "char", rankers, lambda r: means[r])
    shared("char_best_two", ranker_comparisons(two, [("char", runner)], seed=seed), "matched, two descriptions",
           ("char@two", f"{runner}@two"))
    return pd.DataFrame(rows)


STATUS = ("reproduced", "not resolved", "not reproduced")


def _arm(name: str) -> str:
    """An arm for a reader: ``bm25@two`` → "bm25 with two descriptions", ``bm25@gain`` → "bm25's gain"."""
    ranker, _, part = name.partition("@")
    return {"": ranker, "one": f"{ranker} with one description", "two": f"{ranker} with two descriptions",
            "gain": f"{ranker}'s gain"}[part]


def _signed(x: float) -> str:
    """``x`` to one decimal with its sign, a true minus sign for a negative value."""
    return pp(x, unit="")


def claim_status(claims: pd.DataFrame, comparisons: pd.DataFrame) -> pd.DataFrame:
    """``claims`` (:func:`..versus_paper.check_claims`) with each claim's ``status`` and its intervals in the evidence.

    A claim that orders accuracies is *reproduced* when every interval it reads lies on its side of zero, *not
    reproduced* when its rule fails on the point values and one interval lies on the other side, and *not
    resolved* otherwise; a claim about counts or facts keeps its rule. ``reproduced`` becomes True only for
    *reproduced*.
    """
    out = claims.copy()
    status, evidence = [], []
    for row in out.itertuples():
        rows = comparisons[comparisons["claim"] == row.id]
        words = [verdict(r.low, r.high) for r in rows.itertuples()]
        if rows.empty:
            status.append("reproduced" if row.reproduced else "not reproduced")
            evidence.append(row.evidence)
            continue
        read = "; ".join(f"{_arm(r.a)} − {_arm(r.b)} ({r.data}) {_signed(r.difference)} pp ({_signed(r.low)} to "
                         f"{_signed(r.high)}): {w}" for r, w in zip(rows.itertuples(), words))
        if not row.reproduced and "lower" in words:
            status.append("not reproduced")
        elif row.reproduced and all(w == "higher" for w in words):
            status.append("reproduced")
        elif not row.reproduced and all(w == "higher" for w in words):
            status.append("not reproduced")  # the intervals agree but the claim's count or fact fails
        else:
            status.append("not resolved")
        evidence.append(f"{row.evidence}; {read}")
    out["status"] = status
    out["evidence"] = evidence
    out["reproduced"] = out["status"] == "reproduced"
    return out


def claim_values(claims: pd.DataFrame) -> dict[str, object]:
    """How many claims each status holds, and the wording of the others ("none" when there are none)."""
    def listed(word: str) -> str:
        return "; ".join(f"“{c}”" for c in claims.loc[claims["status"] == word, "claim"]) or "none"

    counts = claims["status"].value_counts()
    return {"n_claims": len(claims), "n_ok": int(counts.get("reproduced", 0)),
            "n_open": int(counts.get("not resolved", 0)), "n_missed": int(counts.get("not reproduced", 0)),
            "missed": listed("not reproduced"), "open": listed("not resolved")}


def chapter_verdicts(chapter: str, comparisons: pd.DataFrame, claims: pd.DataFrame, gap: pd.DataFrame,
                     data: str, n_trials: int, paper_trials: int) -> pd.DataFrame:
    """The chapter's ``verdicts.csv`` (:data:`robotask.words.VERDICT_COLUMNS`): every claim interval, and each
    Table 2 mean against the paper's (``gap``: a normal interval of the difference of two independent means,
    the paper's descriptions being unknown to us, so only the two studies' galleries vary)."""
    from ...words import VERDICT_COLUMNS, verdict_row
    from ..rankers import display

    def named(arm: str) -> str:  # the names chapters 02 and 03 give the same arms
        ranker, _, part = arm.partition("@")
        label = display(ranker)
        return {"": label, "one": f"{label}, one description", "two": f"{label}, two descriptions",
                "gain": f"{label}, gain of a second description"}[part]

    text = claims.set_index("id")["claim"]
    rows = [verdict_row(chapter=chapter, claim=text[r.claim], a=named(r.a), b=named(r.b),
                        data=data if r.data in ("one description, primary", "matched") else f"{data}, {r.data}",
                        metric="top-1 accuracy", difference=r.difference, low=r.low, high=r.high, unit=r.unit,
                        n_units=r.n_units, method=r.method) for r in comparisons.itertuples()]
    rows += [verdict_row(chapter=chapter, claim="our Table 2 mean against the paper's", a=f"{display(r)} (ours)",
                         b=f"{display(r)} (paper)", data=f"{data}, Table 2", metric="top-1 accuracy",
                         difference=g["diff"], low=g["lo"], high=g["hi"], unit="galleries of both studies",
                         n_units=n_trials + paper_trials,
                         method="normal interval of the difference of two independent means")
             for r, g in gap.iterrows()]
    return pd.DataFrame(rows, columns=list(VERDICT_COLUMNS))
