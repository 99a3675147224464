"""Figures and tables of notebook ``10_episode`` ("The episode"): every modality over a time range.

Each ``figure_*`` function takes a loaded ``Episode`` and a frame range [start, stop) and returns a
matplotlib Figure; ``label_statistics`` and ``modality_table`` give the numbers the chapter prints.
"""

from __future__ import annotations

import textwrap

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ... import plots
from ..files import format as fmt
from ..files import media
from ..files.loader import Episode


def runs(labels: list[str]) -> list[tuple[int, int, str]]:
    """Contiguous runs (start, end inclusive, label) of a per-frame label list ("" kept as a run)."""
    out, start = [], 0
    for i in range(1, len(labels) + 1):
        if i == len(labels) or labels[i] != labels[start]:
            out.append((start, i - 1, labels[start]))
            start = i
    return out


def label_statistics(ep: Episode, window: int = 20, stride: int = 5, test_fraction: float = 0.3) -> dict:
    """Classes, runs and contact balance of an episode's labels (frame and window level).

    ``seen_test_action_share`` is the share of test frames (chronological split) whose action label
    occurs in the training part, the ceiling of action recognition.
    """
    out: dict = {"n_frames": ep.n_frames, "is_synthetic": ep.is_synthetic}
    if ep.captions is not None:
        for key, labels in (("action", ep.captions.action_label), ("subtask", ep.captions.theme)):
            r = [x for x in runs(labels) if x[2]]
            out[f"{key}_classes"] = len({x[2] for x in r})
            out[f"{key}_runs"] = len(r)
            out[f"{key}_max_runs_per_class"] = max(
                (sum(1 for x in r if x[2] == c) for c in {x[2] for x in r}), default=0)
            out[f"{key}_mean_run_frames"] = float(np.mean([x[1] - x[0] + 1 for x in r])) if r else 0.0
        split = int(round(ep.n_frames * (1 - test_fraction)))
        train = set(ep.captions.action_label[:split])
        test = ep.captions.action_label[split:]
        out["seen_test_action_share"] = float(np.mean([a in train for a in test])) if test else 0.0
        out["objects_vocabulary"] = len({o for objs in ep.captions.objects for o in objs})
        out["objects_per_frame"] = float(np.mean([len(o) for o in ep.captions.objects]))
    if ep.contacts is not None:
        hands = (ep.contacts[:, list(fmt.HAND_CONTACT_CHANNELS)] > 0.5).any(axis=1)
        feet = (ep.contacts[:, list(fmt.FOOT_CONTACT_CHANNELS)] > 0.5).any(axis=1)
        starts = range(0, ep.n_frames - window + 1, stride)
        win_hand = [bool(hands[s:s + window].any()) for s in starts]
        win_any = [bool((ep.contacts[s:s + window] > 0).any()) for s in starts]
        out["hand_contact_frame_share"] = float(hands.mean())
        out["foot_contact_frame_share"] = float(feet.mean())
        out["hand_contact_window_share"] = float(np.mean(win_hand)) if win_hand else 0.0
        out["any_contact_window_share"] = float(np.mean(win_any)) if win_any else 0.0
    return out


def modality_table(ep: Episode) -> pd.DataFrame:
    """One row per modality: what the loader returned and its shape."""
    def shape(x):
        """Shape as text, or "missing"."""
        return "×".join(map(str, x.shape)) if x is not None else "missing"

    rows = [
        ("camera poses (stereo-left → world)", shape(ep.R_c2w), "from slam/quat_wxyz, trans_xyz, cam01/T_c0_b"),
        ("SLAM point cloud (filtered)", shape(ep.point_cloud), f"{ep.raw_point_cloud_size} points stored"),
        ("left / right hand joints", shape(ep.left_joints), "camera frame, metres"),
        ("body keypoints", shape(ep.body_keypoints), "world frame, metres"),
        ("contacts", shape(ep.contacts), "21 body joints, 0–1"),
        ("IMU accel + gyro", shape(ep.imu.accel) if ep.imu else "missing",
         f"{ep.imu.accel.shape[0] / max(ep.n_frames, 1):.0f} samples per frame" if ep.imu else ""),
        ("depth + confidence", "×".join(map(str, ep.depth_shape)) if ep.depth_shape else "missing",
         f"scale {ep.depth_scale:g}"),
        ("captions", f"{len(ep.captions.segments)} segments" if ep.captions else "missing",
         ep.captions.main_task if ep.captions else ""),
    ]
    for s in fmt.VIDEO_STREAMS:
        p = ep.path / fmt.video_file(s)
        rows.append((f"video {s}", "present" if p.is_file() else "missing",
                     "carries the audio" if s == fmt.AUDIO_STREAM else ""))
    return pd.DataFrame(rows, columns=["modality", "shape", "note"])


def wrap_label(name: str, width: int = 26) -> str:
    """A class name on at most two lines, never cut."""
    lines = textwrap.wrap(name, width)
    return name if len(lines) <= 1 else lines[0] + "\n" + " ".join(lines[1:])


def _qualitative_pool() -> list[tuple]:
    """60 colours in an order where neighbours differ clearly: the 10 saturated tab20 hues, then dark
    tab20b shades alternating with light tab20 ones, then the remaining tab20b and tab20c shades."""
    tab20, tab20b, tab20c = (plt.get_cmap(n) for n in ("tab20", "tab20b", "tab20c"))
    dark = [tab20b(i) for k in (0, 1) for i in range(k, 20, 4)]
    light = [tab20(i) for i in range(1, 20, 2)]
    pool = [tab20(i) for i in range(0, 20, 2)] + [c for pair in zip(dark, light) for c in pair]
    pool += [tab20b(i) for k in (2, 3) for i in range(k, 20, 4)]
    return pool + [tab20c(i) for k in range(4) for i in range(k, 20, 4)]


def _colours(labels: list[str]) -> dict[str, tuple]:
    """A distinct colour per label in order of first appearance (60 before any repeats); labels that
    follow each other in the episode get neighbouring pool entries, which differ in hue."""
    pool = _qualitative_pool()
    return {lab: pool[k % len(pool)] for k, lab in enumerate(dict.fromkeys(x for x in labels if x))}


def _number_runs(ax: plt.Axes, labels: list[str], col: dict[str, tuple], t: float, min_width: float) -> None:
    """Write each class's number (its place in ``col``) on its runs at least ``min_width`` seconds long."""
    number = {lab: k + 1 for k, lab in enumerate(col)}
    for a, b, lab in runs(labels):
        if lab and (b - a + 1) * t >= min_width:
            dark = np.dot(col[lab][:3], (0.299, 0.587, 0.114)) < 0.45
            ax.text((a + b + 1) / 2 * t, 0, str(number[lab]), ha="center", va="center", fontsize=6,
                    color="white" if dark else "black")


def _timeline_row(ax: plt.Axes, name: str, labels: list[str], span: tuple[float, float], total: float) -> None:
    """One level of the timeline: numbered coloured runs, the detail range boxed, a numbered legend."""
    t = 1 / fmt.FPS
    col = _colours(labels)
    for a, b, lab in runs(labels):
        if lab:
            ax.barh(0, (b - a + 1) * t, left=a * t, color=col[lab], edgecolor="white", height=0.8)
    _number_runs(ax, labels, col, t, min_width=0.015 * total)
    ax.axvspan(*span, facecolor="none", edgecolor="black", lw=1.2, ls="--")
    ax.set_yticks([0], [name])
    ax.grid(False)
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in col.values()]
    ax.legend(handles, [f"{k + 1} {lab}" for k, lab in enumerate(col)], loc="upper left", bbox_to_anchor=(1.01, 1.0),
              fontsize=6, ncol=2 if len(col) > 12 else 1, frameon=False, title=f"{name} ({len(col)})",
              title_fontsize=7)


def figure_timeline(ep: Episode, start: int = 0, stop: int | None = None) -> plt.Figure:
    """Subtask and action runs over the whole episode, one colour and number per class, a legend each."""
    stop = ep.n_frames if stop is None else stop
    total = ep.n_frames / fmt.FPS
    levels = (("subtask", ep.captions.theme), ("action", ep.captions.action_label))
    rows = [max(3, -(-n // 2) if n > 12 else n) for n in (len({x for x in lab if x}) for _, lab in levels)]
    fig, axes = plt.subplots(2, 1, figsize=(10, 1.2 + 0.14 * sum(rows)), sharex=True, layout="constrained",
                             gridspec_kw={"height_ratios": rows})
    for ax, (name, labels) in zip(axes, levels):
        _timeline_row(ax, name, labels, (start / fmt.FPS, stop / fmt.FPS), total)
    axes[-1].set_xlabel("time (s); numbers name the class (legend); dashed box: the range shown in detail below")
    axes[-1].set_xlim(0, total)
    return fig


def figure_camera_frames(ep: Episode, frames: list[int], size: int = 128) -> plt.Figure:
    """Frames of all six cameras (rows) at the given annotation frames (columns)."""
    last = max(frames) + 1
    fig, axes = plt.subplots(len(fmt.VIDEO_STREAMS), len(frames), figsize=(1.6 * len(frames) + 0.6, 10),
                             squeeze=False)
    for r, stream in enumerate(fmt.VIDEO_STREAMS):
        p = ep.path / fmt.video_file(stream)
        imgs = {}
        if p.is_file():
            for i, img in enumerate(media.iter_video_frames(p, size, last, fill="none")):
                if i in frames:
                    imgs[i] = img
        for c, f in enumerate(frames):
            ax = axes[r, c]
            img = imgs.get(f)
            ax.imshow(img if img is not None else np.zeros((size, size, 3), np.uint8))
            ax.set_xticks([])
            ax.set_yticks([])
            ax.grid(False)
            if r == 0:
                ax.set_title(f"{f / fmt.FPS:.1f} s", fontsize=8)
            if c == 0:
                ax.set_ylabel(stream.replace("_", "\n"), fontsize=7)
    fig.tight_layout()
    return fig


def figure_depth(ep: Episode, frame: int) -> plt.Figure:
    """Depth (metres) and confidence of one frame at the stored resolution."""
    depth, conf = ep.depth_frame(frame)
    fig, axes = plt.subplots(1, 2, figsize=(7.5, 3.4), layout="constrained")
    if depth is None:
        for ax in axes:
            ax.text(0.5, 0.5, "no depth", ha="center")
        return fig
    lo, hi = ep.depth_min or 0.0, ep.depth_max or 4.0
    im = axes[0].imshow(np.where(depth > 0, depth, np.nan), cmap="viridis", vmin=lo, vmax=hi)
    fig.colorbar(im, ax=axes[0], label="depth (m)")
    axes[0].set_title(f"depth, frame {frame}\n(white: no valid depth)")
    if conf is not None:
        im = axes[1].imshow(conf, cmap="gray", vmin=0, vmax=255)
        fig.colorbar(im, ax=axes[1], label="confidence (0–255)")
    axes[1].set_title(f"confidence, frame {frame}\n(higher: more reliable)")
    for ax in axes:
        ax.grid(False)
        ax.set_xticks([])
        ax.set_yticks([])
    return fig


def _action_edges(ep: Episode, start: int, stop: int) -> list[int]:
    """Frames in (start, stop) where the action label changes."""
    if ep.captions is None:
        return []
    lab = ep.captions.action_label
    return [i for i in range(max(start, 1), stop) if lab[i] != lab[i - 1]]


def _mark_actions(ax: plt.Axes, ep: Episode, start: int, stop: int, color: str = "k") -> None:
    """Dotted vertical lines at the action changes of the range."""
    for i in _action_edges(ep, start, stop):
        ax.axvline(i / fmt.FPS, color=color, lw=0.8, ls=":")


def figure_trajectories(ep: Episode, start: int, stop: int) -> plt.Figure:
    """Wrist positions in the camera frame over time, and a top view of camera, wrists and body in world."""
    t = np.arange(start, stop) / fmt.FPS
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6), gridspec_kw={"width_ratios": [1.6, 1]},
                             layout="constrained")
    ax = axes[0]
    for joints, name, ls in ((ep.left_joints, "left", "--"), (ep.right_joints, "right", "-")):
        if joints is None:
            continue
        for k, axis in enumerate("xyz"):
            ax.plot(t, joints[start:stop, 0, k], ls=ls, color=plots.PALETTE[k], lw=1.2,
                    label=f"{name} wrist {axis}")
    _mark_actions(ax, ep, start, stop)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("wrist position, camera frame (m)")
    ax.legend(ncol=2, fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.15))
    ax.set_title("Hands in the camera frame (dotted: action changes)")
    ax = axes[1]
    ax.plot(ep.t_c2w[start:stop, 0], ep.t_c2w[start:stop, 1], color="k", label="camera")
    if ep.body_keypoints is not None:
        for j, name, c in ((20, "left wrist", plots.PALETTE[0]), (21, "right wrist", plots.PALETTE[3])):
            ax.plot(ep.body_keypoints[start:stop, j, 0], ep.body_keypoints[start:stop, j, 1], color=c, lw=1.2,
                    label=name)
        ax.scatter(ep.body_keypoints[start, :22, 0], ep.body_keypoints[start, :22, 1], s=8, color="0.5",
                   label="body joints (first frame)")
    if ep.point_cloud is not None and len(ep.point_cloud):
        pc = ep.point_cloud
        ax.scatter(pc[:, 0], pc[:, 1], s=1, color="0.8", zorder=0, label="SLAM points")
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_xlabel("world x (m)")
    ax.set_ylabel("world y (m)")
    ax.legend(fontsize=7, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.15))
    ax.set_title("Top view, world frame")
    return fig


def figure_imu(ep: Episode, start: int, stop: int) -> plt.Figure:
    """Accelerometer and gyroscope over the frames [start, stop), at IMU rate."""
    fig, axes = plt.subplots(2, 1, figsize=(10, 4.2), sharex=True, layout="constrained")
    if ep.imu is None or ep.imu.keyframe_indices is None:
        axes[0].text(0.5, 0.5, "no IMU", ha="center")
        return fig
    lo, hi = ep.imu.frame_range(start, stop)
    ts = (ep.imu.timestamps_ns[lo:hi] - ep.imu.timestamps_ns[ep.imu.keyframe_indices[0]]) / 1e9
    for ax, data, unit in ((axes[0], ep.imu.accel, "specific force (m/s²)"),
                             (axes[1], ep.imu.gyro, "angular rate (rad/s)")):
        for k, axis in enumerate("xyz"):
            ax.plot(ts, data[lo:hi, k], lw=0.8, color=plots.PALETTE[k], label=axis)
        _mark_actions(ax, ep, start, stop)
        ax.set_ylabel(unit)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="axis", title_fontsize=7)
    axes[1].set_xlabel("time (s)")
    axes[0].set_title("IMU: accelerometer (top) and gyroscope (bottom); dotted: action changes")
    return fig


def figure_spectrogram(ep: Episode, start: int, stop: int, sample_rate: int = 16000) -> plt.Figure:
    """Log spectrogram of the audio over [start, stop) with action changes and hand-contact onsets."""
    from scipy.signal import spectrogram  # here, not at the top: scipy.signal takes ~1 s to import
    fig, ax = plt.subplots(figsize=(10, 3.4), layout="constrained")
    audio = media.read_audio(ep.audio_path, sample_rate) if ep.audio_path is not None else None
    if audio is None:
        ax.text(0.5, 0.5, "no audio", ha="center")
        return fig
    x, sr = audio
    a, b = int(start / fmt.FPS * sr), int(stop / fmt.FPS * sr)
    f, tt, S = spectrogram(x[a:b], fs=sr, nperseg=512, noverlap=384)
    mesh = ax.pcolormesh(tt + start / fmt.FPS, f / 1000, 10 * np.log10(S + 1e-12), shading="auto",
                         cmap="magma")
    fig.colorbar(mesh, ax=ax, pad=0.01, label="power spectral density\n(dB re full scale²/Hz)")
    _mark_actions(ax, ep, start, stop, color="0.85")
    if ep.contacts is not None:
        for ch in fmt.HAND_CONTACT_CHANNELS:
            on = np.flatnonzero(np.diff((ep.contacts[start:stop, ch] > 0.5).astype(int)) > 0) + start + 1
            ax.plot(on / fmt.FPS, np.full(len(on), 7.5), "v", color="w", ms=5)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("frequency (kHz)")
    ax.set_title("Audio of fisheye_cam0.mp4 (dotted: action changes; ▼: hand-contact onsets)")
    ax.grid(False)
    return fig


def depth_summary(depth: np.ndarray | None, confidence: np.ndarray | None) -> dict:
    """Size, valid share (%), median depth (m) and mean confidence (0–1) of one depth frame (None: no depth)."""
    if depth is None:
        return {"height": 0, "width": 0, "valid_pct": 0.0, "median_m": float("nan"),
                "confidence": float("nan")}
    valid = depth > 0
    return {"height": int(depth.shape[0]), "width": int(depth.shape[1]),
            "valid_pct": 100 * float(valid.mean()),
            "median_m": float(np.median(depth[valid])) if valid.any() else float("nan"),
            "confidence": float(confidence[valid].mean() / 255) if valid.any() else float("nan")}


def motion_summary(ep: Episode, start: int, stop: int) -> dict:
    """Mean right-wrist distance from the camera and the camera's path length over [start, stop), in m."""
    wrist = np.linalg.norm(ep.right_joints[start:stop, 0], axis=1).mean()
    path = np.linalg.norm(np.diff(ep.t_c2w[start:stop], axis=0), axis=1).sum()
    return {"wrist_distance_m": float(wrist), "camera_path_m": float(path)}


def imu_summary(ep: Episode, start: int, stop: int) -> dict:
    """IMU samples of [start, stop), per frame, mean specific force (m/s²) and gyroscope spread (rad/s)."""
    lo, hi = ep.imu.frame_range(start, stop)
    accel, gyro = ep.imu.accel[lo:hi], ep.imu.gyro[lo:hi]
    n = len(accel)
    return {"samples": n, "per_frame": n / max(stop - start, 1),
            "force": float(np.linalg.norm(accel.mean(0))) if n else float("nan"),
            "gyro_std": float(gyro.std(0).mean()) if n else float("nan")}


def label_values(stats: dict, fps: float) -> dict:
    """:func:`label_statistics` as the page glues it: counts with their nouns ("29 action classes"),
    shares in percent, run lengths in seconds."""
    from ...words import count

    words = {f"{k}_{w}": count(stats[f"{k}_{w}"], f"{k} class" if w == "classes" else "run")
             for k in ("action", "subtask") for w in ("classes", "runs")}
    return {**words, "max_runs": count(stats["action_max_runs_per_class"], "run"),
            "run_seconds": stats["action_mean_run_frames"] / fps,
            "objects": count(stats["objects_vocabulary"], "distinct object"),
            "objects_per_frame": stats["objects_per_frame"],
            **{k: 100 * v for k, v in stats.items() if k.endswith("_share")}}
