"""What a task page (``notebooks/12_task.py``) glues beyond what its cells format: the episode of a window
set, how many of the page's scores look like errors; and the heads each of the page's runs trains."""

from __future__ import annotations

import numpy as np

from ...errors import RobotaskError
from ...words import join
from ..features.windowset import WindowSet
from ..tasks.protocols import PROTOCOLS


def episode_values(ws: WindowSet) -> dict:
    """What the page says about the episode: synthetic or real, frames, windows, features, and how far
    the camera (the head) gets from its first position (m)."""
    t = getattr(ws.episode, "t_c2w", None)
    reach = float(np.linalg.norm(t - t[0], axis=1).max()) if t is not None and len(t) else float("nan")
    return {"is_synthetic": bool(getattr(ws.episode, "is_synthetic", False)),
            "n_frames": int(ws.episode.n_frames), "n_windows": int(len(ws.X)), "n_features": int(ws.X.shape[1]),
            "camera_reach_m": reach}


def anomaly_values(records: list[dict]) -> dict[str, object]:
    """How many scores of the page look like errors (``diagnostics.anomaly_records``), in words: "2 on this
    page, in the table above", "none on this page"."""
    return {"n_anomalies": f"{len(records):,} on this page, in the table above" if records else "none on this page"}


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
