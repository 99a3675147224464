"""What a task page (``notebooks/12_task.py``) glues: the episode, the task, per protocol the primary metric of
every part and each head's verdict against the baseline with its paired interval, and the protocols' changes."""

from __future__ import annotations

from ...errors import RobotaskError
from ...words import PairedInterval, join, number
from ..suite.execution import PUBLISHED_REAL_SAMPLE, TaskResult
from ..suite.fit import SuiteConfig
from ..tasks.builders import FUTURE_FRAMES
from ..tasks.protocols import PROTOCOLS, describe_fixes
from ..tasks.registry import TASKS, TEST_FRACTION, VALIDATION_FRACTION
from . import phrases
from .diagnostics import target_text
from .figures_tasks import ok_results
from .head_intervals import head_words
from .summary import metric_name


def task_values(task: str, runs: dict[str, dict[str, TaskResult]], facts: dict[str, dict],
                intervals: dict[str, dict[str, dict[str, PairedInterval]]], cfg: SuiteConfig,
                resolution: int) -> dict[str, object]:
    """Every glued value of a task page; the first schedule of ``runs`` is the one shown in detail."""
    spec, main = TASKS[task], next(iter(runs))
    results, f, ok = runs[main], facts[main], ok_results(runs[main])
    base = next((r.info["baseline_name"] for r in ok.values()), "trivial")
    out: dict[str, object] = {
        "title": spec.display_name, "question": spec.question, "input": spec.input_desc,
        "target": spec.target_desc, "head": spec.head, "metric": metric_name(spec.primary_metric),
        "direction": "higher" if spec.higher_is_better else "lower", "schedule": main,
        "kind": phrases.episode_kind(f["is_synthetic"], main), **{k: f[k] for k in ("n_frames", "n_windows")},
        "n_features": f["n_features"],
        "schedules": join(runs), "resolution": resolution if f["is_synthetic"] else "–",
        "fixes": join(describe_fixes()).replace("*", ""), "train_pct": round(100 * (1 - TEST_FRACTION)),
        "val_pct": round(100 * VALIDATION_FRACTION), "core_pct": round(100 * (1 - VALIDATION_FRACTION)),
        "future": FUTURE_FRAMES, "hidden": cfg.mlp.hidden_dim, "mlp_epochs": cfg.mlp.epochs,
        "softmax_epochs": cfg.softmax_epochs, "pub_minimal": float(PUBLISHED_REAL_SAMPLE[task]["minimal"]),
        "pub_mlp": float(PUBLISHED_REAL_SAMPLE[task]["mlp"]),
        "baseline_name": base.replace(" (", ", ").replace(")", "")}
    for proto in PROTOCOLS:
        r = results.get(proto)
        out[f"{proto}_status"] = "ran" if r is not None and r.ok else "did not run" if r is not None else "left out"
        out[f"{proto}_n_test"] = f"{r.info['num_test']:,}" if r is not None and r.ok else "–"
        for part in ("baseline", "minimal", "mlp"):
            out[f"{proto}_{part}"] = number(r.primary.get(part)) if r is not None else "–"
        for head in ("minimal", "mlp"):
            word, text = head_words(intervals.get(main, {}).get(proto, {}).get(head))
            out[f"{proto}_{head}_verdict"], out[f"{proto}_{head}_ci"] = word, text
    both = [ok[p] for p in PROTOCOLS if p in ok]
    paired = len(both) == 2
    out["targets"] = phrases.targets(*[target_text(r) for r in both]) if paired else "–"
    for part in ("baseline", "minimal", "mlp"):
        values = [r.primary.get(part) for r in both] if paired else [None, None]
        out[f"{part}_moves"] = phrases.moves(*values)
    return out


def anomaly_values(records: list[dict]) -> dict[str, object]:
    """The page's most negative R² and its cause (``diagnostics.anomaly_records``); dashes when none."""
    r2 = [r for r in records if "Columns" in r]
    if not r2:
        return {"worst_value": "–", "worst_where": "no run of this page", "worst_columns": "–",
                "worst_var": "–", "worst_err": "–", "worst_rest": "–", "worst_explained": "–",
                "n_anomalies": len(records)}
    w = min(r2, key=lambda r: r["Value"])
    return {"worst_value": number(w["Value"], 1), "n_anomalies": len(records),
            "worst_where": f"{w['Head']}, {w['Metric']}, {w['Protocol']} protocol, {w['Schedule']} schedule",
            "worst_columns": f"{w['Columns']:,}", "worst_var": f"{w['Variance share (%)']:.1f}",
            "worst_err": f"{w['Error share (%)']:.2f}", "worst_rest": number(w["Without them"]),
            "worst_explained": "they explain it" if w["Error share (%)"] >= 50 else "they do not explain it"}


def page_heads(heads: list[str], no_mlp: list[str], schedules: list[str],
               protocols: list[str]) -> dict[tuple[str, str], list[str]]:
    """The heads each (schedule, protocol) run of a task page trains: ``heads``, without the MLP on the runs that
    ``no_mlp`` names as "schedule/protocol". An entry whose protocol is unknown, or that is not of that form, is
    a RobotaskError naming the parameter; one whose schedule the page does not run (a real episode, say) is
    ignored."""
    for entry in no_mlp:
        schedule, _, proto = str(entry).partition("/")
        if not schedule or proto not in PROTOCOLS:
            raise RobotaskError(f"no_mlp: {entry!r} is not a run; expected \"schedule/protocol\" with a protocol "
                                f"among {join(PROTOCOLS, 'or')}, e.g. \"sample-like/original\"")
    left_out = set(map(str, no_mlp))
    return {(s, p): [h for h in heads if not (h == "mlp" and f"{s}/{p}" in left_out)]
            for s in schedules for p in protocols}
