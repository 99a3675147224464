"""What chapter 13 glues: the suite summary's recap from the long table of primary metrics and verdicts
(:func:`robotask.episode.report.summary.primary_long`; its tables are in :mod:`.tables`)."""

from __future__ import annotations

import pandas as pd

from ...words import count, join
from .phrases import of_tasks, pair_leaders
from .summary import ran, verdict_tasks

PAIR_TASKS = ("temporal_order", "misalignment_detection")


def recap_values(long: pd.DataFrame, schedules: list[str], proto: str) -> dict[str, str]:
    """Per schedule (``s0_``, ``s1_``, …): its name, the tasks that ran, on how many each head is ahead of the
    baseline ("5 of the 11 tasks"), the tasks on which the minimal head is behind, and the pair tasks' leaders."""
    out: dict[str, str] = {}
    for i, s in enumerate(list(schedules) + ["–"] * (2 - len(schedules))):
        n, keys = ran(long, s, proto), ("", "_ran", "_behind", "_pairs", "_minimal_ahead", "_mlp_ahead")
        behind = verdict_tasks(long, s, proto, "minimal", "behind")
        sel = long[(long["schedule"] == s) & (long["protocol"] == proto) & long["task"].isin(PAIR_TASKS)]
        words = {t: dict(zip(g["model"], g["verdict"])) for t, g in sel[sel["model"] != "baseline"].groupby("task")}
        out.update({f"s{i}": s, f"s{i}_ran": count(n, "task"), f"s{i}_behind": join(behind) if behind else "no task",
                    f"s{i}_pairs": pair_leaders(words),
                    **{f"s{i}_{m}_ahead": of_tasks(len(verdict_tasks(long, s, proto, m, "ahead")), n)
                       for m in ("minimal", "mlp")}} if n else {f"s{i}{k}": "–" for k in keys})
    return out


def by_schedule(recap: dict[str, str], schedules: list[str]) -> dict[str, str]:
    """:func:`recap_values` read across the schedules that ran, one phrase per quantity, so that a page never
    names a schedule the build did not run: "5 of the 11 tasks on repeating and 3 of the 11 tasks on
    sample-like"; the tasks behind as "Temporal Order on repeating; no task on sample-like"."""
    idx = [i for i, _ in enumerate(schedules[:2])]
    on = lambda key: [f"{recap[f's{i}_{key}']} on {recap[f's{i}']}" for i in idx]  # noqa: E731
    return {"ran_by": join(on("ran")), "minimal_ahead_by": join(on("minimal_ahead")),
            "mlp_ahead_by": join(on("mlp_ahead")), "behind_by": "; ".join(on("behind")),
            "pairs_by": "; ".join(on("pairs"))}
