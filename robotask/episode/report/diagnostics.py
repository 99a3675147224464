"""Tables of the task pages (``notebooks/12_task.py``) that bound or explain a task's scores.

:func:`diagnostics_table` lists, per protocol, the facts a reader needs to judge a score (the label
coverage, what the MLP was fitted on, the majority class, training fit, gradient step, near-constant
target columns); :func:`anomalies` explains a zero score or a negative pooled R² in a sentence that
the suite summary repeats; :func:`recap_table` gathers the primary metric of every run.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..suite.execution import TaskResult
from ..tasks.registry import TASKS
from .figures_tasks import HEAD_LABELS, ok_results
from .phrases import readable

HEADS = {"minimal": "Minimal head", "mlp": "MLP"}  # as a table row starts


def fit_coverage(result: TaskResult) -> float | None:
    """Share of the test samples whose class occurs in the part the MLP is fitted on (the training
    part minus its validation tail when the protocol early-stops), for classification; else None."""
    data = result.data
    if data is None or data.kind not in ("classification", "binary") or getattr(data, "y", None) is None:
        return None
    fitted = data.extra.get("train_core", data.train) if data.val is not None else data.train
    seen = set(np.asarray(data.y[fitted]).tolist())
    test = np.asarray(data.y[data.test]).tolist()
    return float(np.mean([y in seen for y in test])) if test else None


def majority_class(result: TaskResult) -> tuple[str, bool] | None:
    """The majority baseline's one prediction (the largest training class) and whether it occurs
    among the test labels; None when the baseline is not a majority class."""
    data = result.data
    if data is None or "majority" not in result.info.get("baseline_name", "") or not len(data.train):
        return None
    counts = np.bincount(np.asarray(data.y[data.train], dtype=int), minlength=len(data.class_names))
    top = int(counts.argmax())
    return data.class_names[top], bool((np.asarray(data.y[data.test], dtype=int) == top).any())


def r2_without_tiny(y_train: np.ndarray, y_test: np.ndarray, pred: np.ndarray, floor: float = 1e-3,
                    standardized: bool = False) -> dict[str, Any]:
    """An R² over all target columns and over the columns whose train spread is at least ``floor``.

    Pooled (sum of squared errors over columns ÷ total sum of squares), on raw targets or, with
    ``standardized``, on targets divided by their train std. Also the number of near-constant
    columns and their shares of the test variance and of the squared error.
    """
    std = np.asarray(y_train, dtype=np.float64).std(axis=0)
    tiny = (std < floor) & ((std > 0) if standardized else True)
    scale = np.where(std > 0, std, 1.0) if standardized else np.ones_like(std)
    yt, yp = np.asarray(y_test, np.float64) / scale, np.asarray(pred, np.float64) / scale
    sse, sst = ((yt - yp) ** 2).sum(axis=0), ((yt - yt.mean(axis=0)) ** 2).sum(axis=0)

    def r2(mask: np.ndarray) -> float | None:
        return 1.0 - float(sse[mask].sum()) / float(sst[mask].sum()) if sst[mask].sum() > 0 else None

    return {"r2_all": r2(np.ones_like(tiny)), "r2_rest": r2(~tiny), "n_tiny": int(tiny.sum()),
            "n_columns": int(len(std)), "floor": floor,
            "variance_share": float(sst[tiny].sum() / sst.sum()) if sst.sum() > 0 else 0.0,
            "error_share": float(sse[tiny].sum() / sse.sum()) if sse.sum() > 0 else 0.0}


def _cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "–"
    if isinstance(value, str):
        return value
    return f"{value:,}" if isinstance(value, (int, np.integer)) else readable(float(value))


def diagnostics(result: TaskResult) -> dict[str, Any]:
    """The facts that bound or explain one run's scores, by name (only those that apply)."""
    if not result.ok:
        return {}
    m, info, data = result.metrics.get("minimal", {}), result.info, result.data
    out: dict[str, Any] = {"Train / test samples": f"{info['num_train']:,} / {info['num_test']:,}"}
    if data is not None and data.val is not None:
        core = data.extra.get("train_core", data.train)
        out["MLP fitted on / validated on"] = f"{len(core):,} / {len(data.val):,}"
    if "label_coverage_ceiling" in m and len(info.get("class_names", [])) > 2:
        out["Coverage ceiling (test samples with a class seen in training)"] = (
            f"{100 * m['label_coverage_ceiling']:.1f} %")
        out["Test classes never seen in training"] = len(m.get("unseen_test_classes", []))
    share = fit_coverage(result)
    if share is not None and data.val is not None:
        out["Test samples with a class the MLP was fitted on"] = f"{100 * share:.1f} %"
    top = majority_class(result)
    if top is not None:
        out["Majority baseline's class"] = f"{top[0]} ({'in' if top[1] else 'absent from'} the test part)"
    for head in ("minimal", "mlp"):
        acc = result.metrics.get(head, {}).get("train_final_accuracy",
                                               result.metrics.get(head, {}).get("train_final_train_accuracy"))
        if acc is not None:
            out[f"{HEADS[head]}: train accuracy"] = acc
    if "train_majority_share" in m:
        out["Largest training class share"] = m["train_majority_share"]
    if m.get("step_over_stability_limit") is not None:
        out["Minimal head: gradient step ÷ stability limit 2/L"] = m["step_over_stability_limit"]
    if result.metrics.get("mlp", {}).get("best_epoch") is not None:
        out["MLP: epoch kept"] = int(result.metrics["mlp"]["best_epoch"])
    if m.get("copy_current_action_accuracy") is not None:
        out["Copy-the-current-action accuracy"] = m["copy_current_action_accuracy"]
    if "boundary_f1" in m:
        out["True boundaries matched / predicted boundaries"] = (
            f"{m['matched_boundaries']} of {m['true_boundaries']} / {m['predicted_boundaries']}")
    if "distinct_test_texts" in m:
        out["Distinct caption texts among the test windows"] = m["distinct_test_texts"]
    if info.get("shared_visual_fraction") is not None:
        out["Shifted samples whose visual half is an aligned sample's"] = (
            f"{100 * info['shared_visual_fraction']:.1f} %")
    if data is not None and data.kind == "regression":
        for head in ("minimal", "mlp"):
            if result.outputs.get(head) is None:
                continue
            standardized = "r2_standardized" in result.metrics.get(head, {})
            cause = r2_without_tiny(data.y[data.train], data.y[data.test], result.outputs[head].pred,
                                    standardized=standardized)
            out["Target columns with train std below 10⁻³"] = cause["n_tiny"]
            if cause["n_tiny"]:
                which = "standardised R²" if standardized else "R²"
                out[f"{HEADS[head]}: {which} without them"] = cause["r2_rest"]
    return out


def diagnostics_table(results: dict[str, TaskResult]) -> pd.DataFrame:
    """:func:`diagnostics` of every protocol that ran, side by side: one row per fact."""
    facts = {p: diagnostics(r) for p, r in ok_results(results).items()}
    names = list(dict.fromkeys(k for f in facts.values() for k in f))
    return pd.DataFrame([{"fact": n, **{p: _cell(f.get(n)) for p, f in facts.items()}} for n in names])


# The original suite's hand-forecasting run on the real sample (spec §7; other data): the ridge's
# and the MLP's MSE and pooled R², beside the MPJPE that suite.PUBLISHED_REAL_SAMPLE holds.
PUBLISHED_HAND = {"minimal_mse": 14.96, "minimal_r2": -1763.4, "mlp_mse": 0.00478, "mlp_r2": 0.437}


def target_text(result: TaskResult) -> str:
    """The target a run scored (the protocol's own, where the task's target depends on it), with the
    hand frame where the task has one."""
    m = result.metrics.get("minimal", {})
    frame = m.get("hand_frame")
    return (m.get("target") or result.info.get("target", "")) + (f", hands in the {frame} frame" if frame else "")


FAR_BELOW_ZERO = -1.0


def anomaly_records(runs: dict[str, dict[str, TaskResult]]) -> list[dict[str, Any]]:
    """Every head score that looks like an error among ``runs`` (schedule → protocol → result), with its cause:
    an exact 0 where no test sample has a class the head was fitted on, and an R² (pooled or standardised)
    below ``FAR_BELOW_ZERO`` (worse than the test mean by more than the test variance itself) with the share
    of its squared error held by target columns whose train spread is below 10⁻³."""
    from .summary import metric_name

    rows = []
    for schedule, results in runs.items():
        for proto, r in ok_results(results).items():
            share = fit_coverage(r)
            for head in ("minimal", "mlp"):
                m, base = r.metrics.get(head, {}), {"Schedule": schedule, "Protocol": proto, "Head": HEAD_LABELS[head]}
                if r.primary.get(head) == 0 and share == 0 and TASKS[r.task].higher_is_better:
                    rows.append({**base, "Metric": metric_name(r.primary["metric"]), "Value": 0.0,
                                 "Cause": "no test sample has a class the head was fitted on"})
                for key in ("r2", "r2_standardized"):
                    if m.get(key) is None or m[key] >= FAR_BELOW_ZERO or r.outputs.get(head) is None:
                        continue
                    c = r2_without_tiny(r.data.y[r.data.train], r.data.y[r.data.test], r.outputs[head].pred,
                                        standardized=key == "r2_standardized")
                    rows.append({**base, "Metric": metric_name(key), "Value": float(m[key]),
                                 "Cause": "near-constant target columns" if c["error_share"] >= 0.5 else
                                 "a poor fit: near-constant columns hold little of the error", "Columns": c["n_tiny"],
                                 "Variance share (%)": 100 * c["variance_share"],
                                 "Error share (%)": 100 * c["error_share"], "Without them": c["r2_rest"]})
    return rows


def anomaly_table(records: list[dict[str, Any]]) -> pd.DataFrame:
    """:func:`anomaly_records` as a table; a dash where a column does not apply to a row's cause; scores as text
    with a true minus and at most 4 significant digits (an R² of −1.597 × 10⁶, not −1596867.820)."""
    table = pd.DataFrame(records)
    for column in ("Value", "Without them"):
        if column in table:
            table[column] = table[column].map(lambda v: readable(None if pd.isna(v) else float(v)))
    return table.fillna("–")


def recap_table(runs: dict[str, dict[str, TaskResult]],
                intervals: dict[str, dict[str, dict[str, Any]]] | None = None) -> pd.DataFrame:
    """Primary metric of the trivial baseline and both heads for every schedule and protocol of a page, the
    strongest baseline on the deciding metric, and each head's verdict against it with its paired interval
    (``head_intervals.run_intervals``). Numbers are text with a true minus, at most 4 significant digits."""
    from .head_intervals import head_words, strongest_baseline
    rows = []
    for schedule, results in runs.items():
        for proto, r in results.items():
            row = {"Schedule": schedule, "Protocol": proto, "Status": "ran" if r.ok else r.status}
            for part, label in (("baseline", "Trivial baseline"), ("minimal", "Minimal head"), ("mlp", "MLP")):
                row[label] = readable(r.primary.get(part))
            if r.ok:
                name, value = strongest_baseline(r)
                row["Strongest baseline (deciding metric)"] = f"{name}: {readable(value)}"
            for head, label in (("minimal", "Minimal head"), ("mlp", "MLP")):
                if intervals is not None and r.ok:
                    word, text = head_words((intervals.get(schedule, {}).get(proto) or {}).get(head))
                    row[f"{label} − strongest baseline"] = f"{word}: {text}" if text != "–" else "–"
            rows.append(row)
    return pd.DataFrame(rows)


def baselines_table(results: dict[str, TaskResult]) -> pd.DataFrame:
    """Every baseline of every protocol that ran, scored on the task's deciding metric on the whole test part,
    the strongest marked: the one each head's verdict reads."""
    from .head_intervals import baseline_scores, deciding_metric, strongest_baseline
    from .summary import metric_name

    rows = []
    for proto, r in ok_results(results).items():
        best = strongest_baseline(r)[0]
        for name, value in baseline_scores(r).items():
            rows.append({"Protocol": proto, "Baseline": name, "Metric": metric_name(deciding_metric(r.task)),
                         "Score": readable(value), "Strongest": "yes" if name == best else ""})
    return pd.DataFrame(rows, columns=["Protocol", "Baseline", "Metric", "Score", "Strongest"])


def published_table(task: str, result: TaskResult | None, camera_reach_m: float) -> pd.DataFrame:
    """The original suite's published real-sample numbers (other data) beside ours under the original protocol;
    for hand forecasting also the published MSE and pooled R² of both heads and how far our wearer's head moves."""
    from ..suite.execution import PUBLISHED_REAL_SAMPLE
    from .summary import metric_name

    pub, spec = PUBLISHED_REAL_SAMPLE[task], TASKS[task]
    ours = {h: (result.metrics.get(h, {}) if result is not None and result.ok else {}) for h in ("minimal", "mlp")}
    rows = [(f"{HEADS[h]}: {metric_name(spec.primary_metric)}", pub[h], ours[h].get(spec.primary_metric))
            for h in ("minimal", "mlp")]
    if task == "hand_trajectory_forecast":
        rows += [(f"{HEADS[h]}: {name}", PUBLISHED_HAND[f"{h}_{key}"], ours[h].get(key))
                 for h in ("minimal", "mlp") for key, name in (("mse", "MSE (m²)"), ("r2", "pooled R²"))]
        rows.append(("Farthest the head gets from its first position (m)", float("nan"), camera_reach_m))
    return pd.DataFrame([{"Quantity": q, "Published, real sample": readable(None if p != p else float(p)),
                          "Ours, original protocol": readable(None if o is None else float(o))} for q, p, o in rows])
