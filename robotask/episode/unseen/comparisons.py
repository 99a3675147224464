"""Chapter 14's paired comparisons, from the long result table of :func:`design.run_settings`.

Values are oriented where they are compared: a difference is taken in the metric's sense of better (for an
error, lower is better), and every deciding word comes from :func:`robotask.words.verdict` over a paired
interval: over folds (head against baseline, chronological against unseen), over held-out groups (a shift
against random folds of its size) or over draws (a learning-curve point against its baseline, or against the
point before it). ``drop`` is positive when the unseen (or shifted) setting is worse.

The units of these intervals are not independent: the training sets of two folds (groups, draws) share
episodes, and so do the test sets of two draws. Every interval is therefore the *corrected resampled t* of
Nadeau and Bengio (2003, *Inference for the generalization error*): the variance of the mean difference over
``n`` units is ``(1/n + n_test/n_train) · s²`` instead of ``s²/n``, with ``n − 1`` degrees of freedom
(:func:`corrected_interval`). Each family of tests a table reads carries Holm's adjusted P (:func:`holm`)
beside the count of resolved tests that chance alone would give (:func:`chance_count`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...words import PairedInterval, count, verdict
from ..features.windowset import WindowSet
from ..files.manifest import Collection
from ..report.head_intervals import deciding_metric
from ..suite.fit import SuiteConfig
from ..tasks.registry import TASKS
from .design import MODEL_HEADS, Setting, cv_settings, run_settings
from .strongest import by_unit, deciding_sign, mean_of, sign, strongest_name, strongest_of, with_deciding

#: The method of every chapter-14 interval, as the verdict index names it.
METHOD = "corrected resampled t (Nadeau and Bengio 2003)"
LEVEL = 0.95


def corrected_interval(diffs: np.ndarray | list[float], ratio: float, level: float = LEVEL) -> tuple[
        PairedInterval, float]:
    """The corrected resampled t interval of the mean of ``diffs`` (one paired difference per fold, group or
    draw, whose training sets overlap) and its two-sided P against zero.

    The variance of the mean is ``(1/n + ratio) · s²`` (Nadeau and Bengio 2003), ``ratio`` being the test
    episodes over the training episodes of one unit; ``ratio`` 0 gives the plain paired Student-t. One unit, or
    no finite difference, gives an unbounded (or empty) interval and P = NaN; no spread at all gives the mean
    itself (P = 0 unless the mean is 0).
    """
    from scipy import stats  # here: scipy costs an import the rest of the chapter's helpers do not need

    x = np.asarray(diffs, dtype=float)
    x = x[np.isfinite(x)]
    n = int(x.size)
    if n == 0:
        return PairedInterval(np.nan, np.nan, np.nan, 0, level), np.nan
    mean = float(x.mean())
    if n == 1:
        return PairedInterval(mean, -np.inf, np.inf, 1, level), np.nan
    se = float(np.sqrt((1.0 / n + max(ratio, 0.0)) * x.var(ddof=1)))
    if se == 0:
        return PairedInterval(mean, mean, mean, n, level), float(mean == 0)
    half = float(stats.t.ppf(0.5 + level / 2, n - 1)) * se
    p = float(2 * stats.t.sf(abs(mean) / se, n - 1))
    return PairedInterval(mean, mean - half, mean + half, n, level), p


def holm(p: pd.Series | np.ndarray | list[float]) -> np.ndarray:
    """Holm's step-down adjusted P-values of one family of tests (NaN stays NaN and is not counted)."""
    p = np.asarray(p, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(np.isfinite(p))
    m = len(ok)
    order = ok[np.argsort(p[ok], kind="stable")]
    running = 0.0
    for i, j in enumerate(order):
        running = max(running, min(1.0, (m - i) * p[j]))
        out[j] = running
    return out


def chance_count(tests: int, level: float = LEVEL) -> float:
    """How many of ``tests`` intervals would exclude zero by chance alone if no difference were real."""
    return tests * (1 - level)


def with_holm(rows: pd.DataFrame, by: list[str] | None = None, prefix: str = "") -> pd.DataFrame:
    """``rows`` with ``{prefix}p_holm``: Holm's adjusted P within each family (``by`` columns; None: one)."""
    rows = rows.copy()
    col = f"{prefix}p"
    if col not in rows or rows.empty:
        rows[f"{prefix}p_holm"] = np.nan
        return rows
    groups = [rows.index] if not by else [g.index for _, g in rows.groupby(by, sort=False)]
    rows[f"{prefix}p_holm"] = np.nan
    for idx in groups:
        rows.loc[idx, f"{prefix}p_holm"] = holm(rows.loc[idx, col].to_numpy())
    return rows


def _ratio(results: pd.DataFrame) -> float:
    """The correction's test/train ratio of the settings in ``results`` (column ``test_train``, their mean; 0
    when unknown)."""
    r = results["test_train"].astype(float).dropna() if "test_train" in results else pd.Series(dtype=float)
    return float(r.mean()) if len(r) else 0.0


def _paired(a: pd.Series, b: pd.Series, sign: float, above: str, below: str, ratio: float = 0.0) -> dict:
    """Mean, corrected interval, P and word of the oriented paired difference ``sign · (a − b)`` over a shared
    index (``ratio``: test over training episodes of one unit)."""
    both = pd.concat([a.astype(float), b.astype(float)], axis=1, join="inner").dropna()
    iv, p = corrected_interval(sign * (both.iloc[:, 0].to_numpy() - both.iloc[:, 1].to_numpy()), ratio)
    return {"diff": iv.mean, "lo": iv.low, "hi": iv.high, "pairs": iv.n, "ratio": ratio, "p": p,
            "verdict": verdict(iv.low, iv.high, above=above, below=below)}


def fold_summary(results: pd.DataFrame, study: str = "cv") -> pd.DataFrame:
    """Per protocol, task and head (the trivial baseline's row included): mean and sd of the primary metric
    over folds (every repeat's); the deciding metric (accuracy on a pair task) and its mean; the strongest
    baseline (:func:`strongest_of`) and its mean; folds won against it and the corrected interval of head −
    strongest baseline on the deciding metric over the folds (``diff``, ``lo``, ``hi``, ``p``, ``p_holm`` within
    the protocol and head; ``verdict`` "beats", "behind" or not); and, beside it, the trivial baseline's mean
    and head − trivial baseline on the primary metric (``trivial_diff`` … ``trivial_verdict``)."""
    d = with_deciding(results[results["study"] == study])
    ratio = _ratio(d)
    rows = []
    for (proto, task), t in d.groupby(["protocol", "task"], sort=False):
        strongest, sb = strongest_of(t)
        b = by_unit(t[t["head"] == "baseline"])
        for head, g in t[t["head"].isin(("baseline", *MODEL_HEADS))].groupby("head", sort=False):
            v = by_unit(g)
            vd = by_unit(g, "deciding") if "deciding" in g else v
            gain = _paired(vd, sb, deciding_sign(task), "beats", "behind", ratio)
            trivial = _paired(v, b, sign(task), "beats", "behind", ratio)
            rows.append({"protocol": proto, "task": task, "metric": g["metric"].iloc[0],
                         "higher_is_better": bool(g["higher_is_better"].iloc[0]), "head": head,
                         "mean": float(v.mean()) if v.notna().any() else np.nan,
                         "sd": float(v.std(ddof=1)) if v.notna().sum() > 1 else np.nan,
                         "folds": int(v.notna().sum()), "of": int(len(v)),
                         "wins": int((deciding_sign(task) * (vd - sb.reindex(vd.index)) > 0).sum()), **gain,
                         "deciding_metric": deciding_metric(task), "deciding_mean": mean_of(vd),
                         "deciding_sd": float(vd.std(ddof=1)) if vd.notna().sum() > 1 else np.nan,
                         "strongest": strongest, "strongest_mean": mean_of(sb), "trivial_mean": mean_of(b),
                         **{f"trivial_{k}": trivial[k] for k in ("diff", "lo", "hi", "p", "verdict")}})
    out = pd.DataFrame(rows)
    return with_holm(out[out["head"] != "baseline"], ["protocol", "head"]).combine_first(out)[
        [*out.columns, "p_holm"]] if len(out) else out


def transfer_rows(summary: pd.DataFrame, protocol: str, head: str = "minimal") -> pd.DataFrame:
    """Per task under one protocol: folds with a result, folds won, mean, sd, the strongest baseline and the
    interval against it (on the deciding metric), and the trivial baseline's mean beside it."""
    d = summary[(summary["protocol"] == protocol) & (summary["head"] == head)].set_index("task")
    return d.loc[[t for t in TASKS if t in d.index], ["metric", "higher_is_better", "mean", "sd", "folds", "of",
                                                      "wins", "diff", "lo", "hi", "pairs", "ratio", "p", "p_holm",
                                                      "verdict", "deciding_metric", "deciding_mean", "deciding_sd",
                                                      "strongest", "strongest_mean", "trivial_mean",
                                                      "trivial_verdict"]].reset_index()


def beaten(summary: pd.DataFrame, protocol: str, head: str = "minimal") -> tuple[list[str], int]:
    """Tasks whose head beats the strongest baseline (corrected interval over folds above zero), and the number
    that ran."""
    t = transfer_rows(summary, protocol, head)
    ran = t[t["folds"] > 0]
    return ran[ran["verdict"] == "beats"]["task"].tolist(), len(ran)


def chronological_drop(results: pd.DataFrame, protocol: str, head: str = "minimal") -> pd.DataFrame:
    """Per task: the single-episode split of each fold's episodes against the same test windows after training
    on as many *other* episodes' early parts (study ``matched``), paired over folds: means, the drop (positive:
    worse on unseen episodes), its corrected interval, P, Holm's P over the tasks and the word."""
    d = results[(results["protocol"] == protocol) & (results["head"] == head)]
    ratio = _ratio(d[d["study"] == "matched"])
    rows = []
    for task in TASKS:
        c, u = (by_unit(d[(d["study"] == s) & (d["task"] == task)]) for s in ("chronological", "matched"))
        drop = _paired(c, u, sign(task), "worse on unseen episodes", "better on unseen episodes", ratio)
        rows.append({"task": task, "metric": TASKS[task].primary_metric, "chronological": c.mean(),
                     "unseen": u.mean(), **drop})
    return with_holm(pd.DataFrame(rows))


def shift_drop(results: pd.DataFrame, head: str = "minimal") -> pd.DataFrame:
    """Per task and shift: held-out groups against random folds of the same sizes, paired by group (each
    group's random folds averaged over the partitions drawn): means, the drop (positive: the shift is worse),
    its corrected interval over groups, P, Holm's P over every task and shift, and its word ("hurts", "helps"
    or "not resolved"). A shift with fewer than two groups that ran is not in the table (see
    :func:`shifts_not_run`)."""
    d = results[results["study"].isin(["group", "random"]) & (results["head"] == head)]
    rows = []
    for (task, shift), g in d.groupby(["task", "shift"], sort=False):
        grp = g[g["study"] == "group"].set_index("fold")["value"].astype(float)
        rnd = g[g["study"] == "random"].assign(value=lambda x: x["value"].astype(float)).groupby("fold")["value"].mean()
        rows.append({"task": task, "shift": shift, "metric": TASKS[task].primary_metric, "held_out": grp.mean(),
                     "random": rnd.mean(), "groups": int(grp.notna().sum()),
                     "partitions": int(g.loc[g["study"] == "random", "draw"].nunique()) if "draw" in g else 1,
                     **_paired(rnd, grp, sign(task), "hurts", "helps", _ratio(g[g["study"] == "group"]))})
    out = pd.DataFrame(rows)
    return with_holm(out) if len(out) else out


def shifts_not_run(episodes: pd.DataFrame, requested: list[str], results: pd.DataFrame) -> dict[str, str]:
    """Per requested shift that gives no interval: the reason, in words (empty: every shift ran).

    A shift runs when the manifest has its column with at least two values, and at least two of its held-out
    groups produced a result for some task; otherwise no interval over its groups exists."""
    out = {}
    for shift in requested:
        if shift not in episodes.columns:
            out[shift] = f"the collection's manifest has no {shift} column"
        elif (n := int(episodes[shift].nunique())) < 2:
            out[shift] = f"the collection has {n} {shift} value{'s' if n != 1 else ''}; holding one out needs two"
        else:
            ran = {"study", "shift", "status", "fold"} <= set(results.columns)
            d = results[(results["study"] == "group") & (results["shift"] == shift)
                        & (results["status"] == "ok")] if ran else pd.DataFrame({"fold": []})
            if d["fold"].nunique() < 2:
                out[shift] = f"fewer than two held-out {shift}s gave a result, so no interval over them exists"
    return out


def hurt_tasks(shifts: pd.DataFrame, shift: str) -> list[str]:
    """Tasks the shift hurts: the paired interval of its drop over groups lies above zero."""
    d = shifts[shifts["shift"] == shift] if len(shifts) else shifts
    return d[d["verdict"] == "hurts"]["task"].tolist() if len(d) else []


def curve_summary(results: pd.DataFrame) -> pd.DataFrame:
    """Per task, head and number of training episodes (the trivial baseline's rows included; the informed
    baselines only compete for the strongest): mean, lowest and highest of the primary metric over the draws;
    for a head, the strongest baseline at that size (:func:`strongest_of` over the draws) and its deciding mean,
    and the corrected interval of head − strongest baseline on the deciding metric over the draws, whose test
    sets overlap (``gain_diff``, ``gain_lo``, ``gain_hi``, ``gain_p``, ``gain_p_holm`` over the tasks at one
    size; ``verdict`` "ahead", "behind" or not)."""
    d = with_deciding(results[(results["study"] == "curve")].assign(value=lambda x: x["value"].astype(float)))
    ratio = _ratio(d)
    shown = d[d["head"].isin(("baseline", *MODEL_HEADS))]
    out = shown.groupby(["task", "head", "n_train"], sort=False)["value"].agg(
        mean="mean", lo="min", hi="max", draws="count").reset_index()
    strongest = {k: strongest_of(g, unit="draw") for k, g in d.groupby(["task", "n_train"], sort=False)}
    gains = []
    for _, r in out.iterrows():
        name, b = strongest[(r["task"], r["n_train"])]
        at = shown[(shown["task"] == r["task"]) & (shown["n_train"] == r["n_train"]) & (shown["head"] == r["head"])]
        h = at.set_index("draw")["deciding" if "deciding" in at else "value"].astype(float)
        gain = _paired(h, b, deciding_sign(r["task"]), "ahead", "behind", ratio) if r["head"] != "baseline" else {}
        gains.append({**{k if k == "verdict" else f"gain_{k}": v for k, v in gain.items()},
                      **({"strongest": name, "strongest_mean": mean_of(b)} if gain else {})})
    out = pd.concat([out, pd.DataFrame(gains, index=out.index)], axis=1)
    heads = out[out["head"] != "baseline"]
    out["gain_p_holm"] = with_holm(heads, ["head", "n_train"], "gain_")["gain_p_holm"] if len(heads) else np.nan
    out["higher_is_better"] = out["task"].map(lambda t: TASKS[t].higher_is_better)
    out["metric"] = out["task"].map(lambda t: TASKS[t].primary_metric)
    out["deciding_metric"] = out["task"].map(deciding_metric)
    return out


def curve_steps(results: pd.DataFrame, head: str = "minimal") -> pd.DataFrame:
    """Per task, paired over draws (each draw keeps its test episodes): the change from the smallest to the
    largest training set and over the last doubling, in the metric's sense of better, each with its word."""
    d = results[(results["study"] == "curve") & (results["head"] == head)]
    ratio = _ratio(d)
    rows = []
    for task, g in d.groupby("task", sort=False):
        by = g.assign(value=g["value"].astype(float)).pivot_table(index="draw", columns="n_train", values="value")
        if by.shape[1] < 2:
            continue
        sizes, s = list(by.columns), sign(task)
        whole = _paired(by[sizes[-1]], by[sizes[0]], s, "improves", "worsens", ratio)
        last = _paired(by[sizes[-1]], by[sizes[-2]], s, "still improving", "worsens", ratio)
        rows.append({"task": task, **{f"whole_{k}": v for k, v in whole.items()},
                     **{f"last_{k}": v for k, v in last.items()}})
    out = pd.DataFrame(rows)
    return with_holm(with_holm(out, prefix="whole_"), prefix="last_") if len(out) else out


def episodes_needed(curve: pd.DataFrame, task: str, head: str = "minimal") -> int | None:
    """Fewest training episodes from which the head is "ahead" of the baseline (paired interval over the draws
    above zero) at every larger size tried; None when it is not ahead at the largest."""
    h = curve[(curve["task"] == task) & (curve["head"] == head)].sort_values("n_train")
    need = None
    for n, word in zip(reversed(h["n_train"].tolist()), reversed(h["verdict"].tolist())):
        if word != "ahead":
            break
        need = int(n)
    return need


def epoch_effect(cut: pd.DataFrame, full: pd.DataFrame) -> pd.DataFrame:
    """Per task and head (baseline aside): the folds' mean with the chapter's epochs and with the suite's, and
    suite's − chapter's paired over folds in the metric's sense of better ("better", "worse" or not resolved)."""
    rows = []
    for (task, head), c in cut[(cut["study"] == "cv") & cut["head"].isin(MODEL_HEADS)].groupby(["task", "head"],
                                                                                             sort=False):
        f = full[(full["study"] == "cv") & (full["task"] == task) & (full["head"] == head)]
        cv_, fv = (by_unit(x) for x in (c, f))
        rows.append({"task": task, "head": head, "cut": cv_.mean(), "full": fv.mean(),
                     **_paired(fv, cv_, sign(task), "better", "worse", _ratio(c))})
    return pd.DataFrame(rows)


def epoch_check(coll: Collection, sets: dict[str, WindowSet], *, episodes: int, folds: int, protocol: str,
                mlp_protocols: list[str], cut: SuiteConfig, full: SuiteConfig, jobs: int = 1) -> pd.DataFrame | None:
    """:func:`epoch_effect` of the cross-validation under ``protocol`` of the first ``episodes`` episodes, run
    with the chapter's epochs (``cut``) and with the suite's (``full``); None when ``episodes`` is 0."""
    cv = cv_settings(coll.episodes.head(episodes), folds, [protocol], mlp_protocols) if episodes else []
    if not cv:
        return None
    subset = {e: sets[e] for e in coll.ids[:episodes]}
    return epoch_effect(*(run_settings(subset, cv, c, jobs=jobs) for c in (cut, full)))


def fold_coverage(sets: dict[str, WindowSet], cv: list[Setting]) -> pd.DataFrame:
    """Per fold (of one protocol): share of test windows whose action / subtask label occurs in training."""
    rows = []
    for s in cv:
        for column in ("action_label", "subtask_label"):
            seen = {str(x) for e in s.split.train for x in sets[e].windows[column] if str(x)}
            test = [str(x) for e in s.split.test for x in sets[e].windows[column] if str(x)]
            rows.append({"fold": s.labels["fold"], "label": column.split("_")[0],
                         "coverage": float(np.mean([t in seen for t in test])) if test else float("nan")})
    return pd.DataFrame(rows)


def far_below_at_first(curve: pd.DataFrame) -> list[str]:
    """Tasks whose minimal head has a mean R² far below zero (below the task pages' ``FAR_BELOW_ZERO``, −1) at the
    smallest training size of the learning curve."""
    from ..report.diagnostics import FAR_BELOW_ZERO

    first = curve[(curve["head"] == "minimal") & (curve["n_train"] == curve["n_train"].min())]
    return first[first["metric"].astype(str).str.startswith("r2") & (first["mean"] < FAR_BELOW_ZERO)]["task"].tolist()


VERDICT_COLUMNS = ("chapter", "claim", "a", "b", "data", "metric", "difference", "low", "high", "unit", "n_units",
                   "method", "verdict")


def _rows(d: pd.DataFrame, claim: str, a: str, b: str, data: str, unit: str, prefix: str = "",
          family: str = "", design: str = "") -> list[dict]:
    """Verdict-index rows of one table (``prefix``: its columns' prefix), one per task (and shift or size);
    ``design`` (folds, shift, curve size; formatted as ``claim`` is) goes into ``data``, so that each
    comparison has one row."""
    word = "verdict" if prefix in ("", "gain_") else f"{prefix}verdict"
    out = []
    for _, r in d.iterrows():
        if not np.isfinite(r.get(f"{prefix}diff", np.nan)):
            continue
        fill = {k: r[k] for k in ("shift", "n_train", "strongest") if k in r and pd.notna(r[k])}
        fill["episodes"] = count(int(fill["n_train"]), "training episode") if "n_train" in fill else ""
        fill["strongest"] = strongest_name(fill.get("strongest", ""))
        holm_p = r.get(f"{prefix}p_holm", np.nan)
        where = ", ".join(x for x in (data, design.format(**fill)) if x)
        out.append({"chapter": "14_collections", "claim": claim.format(**fill),
                    "a": a.format(**fill), "b": b.format(**fill),
                    "data": f"{where}: {TASKS[r['task']].display_name}",
                    "metric": r["deciding_metric"] if word == "verdict" and "deciding_metric" in r
                    else TASKS[r["task"]].primary_metric,
                    "difference": r[f"{prefix}diff"], "low": r[f"{prefix}lo"], "high": r[f"{prefix}hi"],
                    "unit": unit.format(**fill), "n_units": int(r[f"{prefix}pairs"]),
                    "method": f"{METHOD}, test/train {r[f'{prefix}ratio']:.2f}"
                              + (f"; Holm P {holm_p:.3f} over the {family}" if np.isfinite(holm_p) else ""),
                    "verdict": r[word]})
    return out


def verdict_index(summary: pd.DataFrame, drops: dict[str, pd.DataFrame], shifts: pd.DataFrame,
                  curve: pd.DataFrame, steps: pd.DataFrame, data: str, repeats: int, folds: int) -> pd.DataFrame:
    """Every verdict the chapter states, one row each in the book's index format (:data:`VERDICT_COLUMNS`):
    head against baseline per protocol, chronological against unseen, each shift, each learning-curve point and
    step. Differences are oriented in the metric's sense of better."""
    fold_unit = f"fold ({repeats} repeats of {folds} grouped folds)"
    rows = []
    for proto, g in summary[summary["head"] != "baseline"].groupby("protocol", sort=False):
        for head, h in g.groupby("head", sort=False):
            rows += _rows(h, "the head beats the strongest baseline on unseen episodes", head, "{strongest}",
                          f"{data}, {proto} protocol", fold_unit, family="tasks", design="grouped folds")
    for proto, d in drops.items():
        rows += _rows(d, "worse on unseen episodes than under the chronological split", "chronological split",
                      "unseen episodes trained on as much", f"{data}, {proto} protocol", fold_unit, family="tasks",
                      design="grouped folds")
    if len(shifts):
        rows += _rows(shifts, "a new {shift} hurts", "random folds of the same size", "held-out {shift}",
                      data, "held-out {shift}", family="tasks and shifts", design="held-out {shift}")
    h = curve[curve["head"] == "minimal"] if len(curve) else curve
    if len(h):
        rows += _rows(h, "the head is ahead of the strongest baseline with {episodes}", "minimal head",
                      "{strongest}", data, "learning-curve draw", "gain_", family="tasks at that size",
                      design="learning curve at {episodes}")
    if len(steps):
        rows += _rows(steps, "the head improves from the smallest to the largest training set", "largest",
                      "smallest", data, "learning-curve draw", "whole_", family="tasks", design="learning curve")
        rows += _rows(steps, "the head is still improving over the last doubling", "largest", "half of it", data,
                      "learning-curve draw", "last_", family="tasks", design="learning curve")
    return pd.DataFrame(rows, columns=list(VERDICT_COLUMNS))
