"""What chapters 10 and 13 glue: the episode's values, and the suite summary's from the long table of primary
metrics and verdicts (:func:`robotask.episode.report.summary.primary_long`; its tables are in :mod:`.tables`)."""

from __future__ import annotations

import pandas as pd

from ...words import count, join
from ..files.loader import Episode
from .figures_episode import depth_summary, imu_summary, label_statistics, label_words, motion_summary
from .phrases import contact_label, episode_kind, frame_range, of_tasks, pair_leaders
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


def episode_values(ep: Episode, start: int, stop: int, schedule: str, seed: int, resolution: int) -> dict:
    """Every value chapter 10 glues: the episode, its labels, and the depth, motion and IMU of the range."""
    stats, mid, syn = label_statistics(ep), (start + stop) // 2, ep.is_synthetic
    depth = depth_summary(*ep.depth_frame(mid))
    return {"kind": episode_kind(syn, schedule), "kind_short": "synthetic" if syn else "real", "seed": seed,
            "resolution": resolution if syn else "–", "n_frames": ep.n_frames, "seconds": ep.n_frames / ep.fps,
            "fps": ep.fps, "shown": frame_range(start, stop), "main_task": ep.captions.main_task,
            **label_words(stats, ep.fps), "depth_frame": mid, "depth_scale": f"{ep.depth_scale:g}",
            **{f"depth_{k}": v for k, v in depth.items()}, **motion_summary(ep, start, stop),
            **{f"imu_{k}": v for k, v in imu_summary(ep, start, stop).items()},
            "contact_verdict": contact_label(stats["any_contact_window_share"]),
            "hand_verdict": contact_label(stats["hand_contact_window_share"])}
