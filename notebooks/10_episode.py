# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Look at every modality of one episode
#
# The twelve episode tasks learn from one egocentric recording in the Xperience-10M format: six
# videos with audio, depth, hand and body motion capture, contacts, an IMU, camera poses and a
# caption that splits the recording into subtasks and actions. This chapter loads such an episode
# with the study's own loader and shows every modality over a chosen time range, so that the later
# chapters' numbers can be read against what the data looks like.
#
# - **Inputs:** an episode folder (`episode_dir`, e.g. the public sample), or, when it is empty, the
#   synthetic episode generated for `frames`, `seed`, `resolution` and `schedule` (cached).
# - **Outputs:** the figures below and `summary.json` (label statistics) in the output folder.

# %% tags=["parameters"]
episode_dir: str = ""  # an Xperience-10M episode folder; empty: the synthetic one
frames: int = 5821  # frames of the synthetic episode (20 fps; 5821 as the real sample)
seed: int = 0  # generator seed of the synthetic episode
resolution: int = 128  # video resolution (pixels) of the synthetic episode
schedule: str = "repeating"  # synthetic action schedule: "repeating" or "sample-like"
start_frame: int = 1200  # first frame of the range shown in detail
n_frames_shown: int = 400  # length of that range in frames (20 per second)
output_dir: str = ""  # where result files go; empty: _build/results/10_episode

# %% tags=["show-input"]
import numpy as np
import pandas as pd

from robotask import plots
from robotask.book import Page, glue_values, show_figure, show_md
from robotask.episode import report
from robotask.episode.files import load_episode
from robotask.episode.synthesis import ensure_episode
from robotask.io import write_json


# %% tags=["show-input"]
page = Page("10_episode")
out = page.output_dir(output_dir)
path = episode_dir or ensure_episode(frames, seed, resolution, schedule)
ep = load_episode(path)
start = min(max(start_frame, 0), ep.n_frames - 1)
stop = min(ep.n_frames, start + max(n_frames_shown, 1))
syn = ep.is_synthetic
origin = (f"written by robotask synth with seed {seed} at {resolution}-pixel video, in the "
          "Xperience-10M format, not the real sample" if syn
          else "a recording read from episode_dir")
glue_values(kind=report.episode_kind(syn, schedule), origin=origin, n_frames=ep.n_frames,
            seconds=ep.n_frames / ep.fps, fps=ep.fps,
            shown=report.frame_range(start, stop))

# %% [markdown]
# The episode on this page is {glue:text}`kind`: {glue:text}`origin`. It has
# {glue:text}`n_frames:,` frames,
# {glue:text}`seconds:.1f` s at {glue:text}`fps:.0f` frames per second, and the detailed figures
# below show {glue:text}`shown`. A synthetic episode is written in exactly the file layout of the
# real one, so everything this part of the book does to it, it can do to a real recording:
# pass `episode_dir` and the same page describes that recording instead.
#
# ## What the folder holds
#
# The loader reads `annotation.hdf5` as the official toolkit does. Camera poses are the
# stereo-left camera in the SLAM world, composed from the stored world-to-body poses and the
# camera-from-body extrinsics; hand joints are in that camera's frame, body joints in the world.
# Depth stays on disk and is read in chunks; the videos and the audio are decoded with PyAV only
# when a figure needs them. The table lists every stream with its rate and shape.
#
# Not every stream is a task input in the same way. The twelve tasks of chapter 12 read
# 20-frame summaries of all of them (chapter 11), but some streams are also targets: the
# caption's labels for the timeline tasks, the hand joints for forecasting, the contacts for the
# contact task, the caption's objects and text for object relevance and grounding, the visual
# streams for retrieval and reconstruction. A task that predicts a stream from itself would be
# trivial, so those tasks leave their target's block out of the input.

# %%
page.show_table(report.modality_table(ep),
                  caption="The streams of the episode: what each records, its rate and size.")

# %% [markdown]
# ## The procedure
#
# The caption names a main task, splits the recording into subtask segments and, inside each, into
# actions with start and end frames; every frame gets the label of the action covering it. The
# timeline shows both levels over the whole episode; the dashed box marks the range shown in detail.

# %%
fig = report.figure_timeline(ep, start, stop)
plots.save_figure(fig, out, "timeline")
show_figure(fig, "fig-episode-timeline",
                   f"The procedure over the whole episode: subtask classes (top) and action "
                   f"classes (bottom), one colour per class; the dashed box marks "
                   f"{report.frame_range(start, stop)}, shown in detail below.",
                   "Two colour-coded bars over time, subtasks above and actions below, "
                   "with a legend naming every class.")
stats = report.label_statistics(ep)
labels = report.label_values(stats, ep.fps)
glue_values(main_task=ep.captions.main_task,
            **{k: v for k, v in labels.items() if "contact" not in k})

# %% [markdown]
# Read the timeline for two things: how long an action lasts, and whether it comes back. Both
# decide what the label tasks can learn, as the numbers below make precise.
#
# The main task is *{glue:text}`main_task`*. The frames carry {glue:text}`action_classes` in
# {glue:text}`action_runs` (at most {glue:text}`max_runs` of one class; a run lasts
# {glue:text}`run_seconds:.1f` s on average) and {glue:text}`subtask_classes` in
# {glue:text}`subtask_runs`.
#
# How often an action recurs decides what a chronological split can test. Train on the first
# 70 % of the frames and test on the rest, as the timeline tasks do: here
# {glue:text}`seen_test_action_share:.1f` % of the test frames carry an action that also occurs in the
# training part. A test frame whose action never occurs in training cannot be classified
# correctly by any classifier, so this share is the ceiling of action recognition on this
# episode; chapter 11 measures it again on the windows the tasks really use.
#
# The caption also lists the objects in view: {glue:text}`objects`,
# {glue:text}`objects_per_frame:.1f` per frame on average. They are the targets of the
# object-relevance task and part of the text the grounding task retrieves.
#
# ## Six cameras
#
# Four fisheye cameras look forward and to the sides; the rectified stereo pair looks forward, its
# right image shifted by the stereo baseline. Rows are cameras, columns are moments of the range;
# the table under the figure names the action at each moment.

# %%
shown = [int(f) for f in np.linspace(start, stop - 1, 5)]
size = min(resolution, 128) if ep.is_synthetic else 128
fig = report.figure_camera_frames(ep, shown, size=size)
plots.save_figure(fig, out, "cameras")
show_figure(fig, "fig-episode-cameras",
                   "The six cameras (rows) at five moments of the range (columns).",
                   "A grid of camera images: four fisheye views and the stereo pair "
                   "at five moments.")
moments = pd.DataFrame({"frame": shown, "time (s)": [f / ep.fps for f in shown],
                        "action": [ep.captions.action_label[f] or "no action" for f in shown]})
page.show_table(moments, digits=1, caption="The action at each moment shown in the camera figure.")

# %% [markdown]
# ## Depth and confidence
#
# Depth is registered to the stereo-left image and stored at a reduced resolution. Invalid pixels
# are zero, and the confidence (stored as 0–255, read here as 0–1) falls with distance. The
# figure shows the middle frame of the range.

# %%
mid = (start + stop) // 2
depth = report.depth_summary(*ep.depth_frame(mid))
fig = report.figure_depth(ep, mid)
plots.save_figure(fig, out, "depth")
show_figure(fig, "fig-episode-depth", f"Depth and its confidence at frame {mid}.",
                   "Two images side by side: a depth map and its confidence map.")
if not depth["valid_pct"] > 0:
    show_md("**Note.** This frame has no valid depth pixel: the numbers below are not a "
            "measurement.")
glue_values(depth_frame=mid, depth_scale=f"{ep.depth_scale:g}",
            **{f"depth_{k}": v for k, v in depth.items()})

# %% [markdown]
# At frame {glue:text}`depth_frame` the depth map is {glue:text}`depth_height`×{glue:text}`depth_width` pixels, scale
# {glue:text}`depth_scale` of the stereo image. {glue:text}`depth_valid_pct:.1f` % of its pixels are
# valid, with a median depth of {glue:text}`depth_median_m:.2f` m and a mean confidence of
# {glue:text}`depth_confidence:.2f`. The feature extractor of chapter 11 summarises each depth map by
# statistics of its valid pixels, a coarse grid and the same statistics of the confidence.
#
# ## Hands and body
#
# Left: the wrists in the head camera's frame (x right, y down, z forward), with the action
# changes dotted. The hands' motion primitives (reaching, lifting, pouring, stirring, wiping) are
# the signal the hand-forecasting task extrapolates. Right: the same range seen from above in the
# world frame, with the camera path and the SLAM map.

# %%
fig = report.figure_trajectories(ep, start, stop)
plots.save_figure(fig, out, "trajectories")
show_figure(fig, "fig-episode-hands",
                   "Left: both wrists in the head camera's frame over the range, action changes "
                   "dotted. Right: the range from above in the world frame, with the camera path "
                   "and the SLAM map.",
                   "Wrist coordinates over time beside a top view of the camera path and "
                   "point cloud.")
glue_values(**report.motion_summary(ep, start, stop),
            **{k: v for k, v in labels.items() if k.startswith(("hand_contact", "foot_contact"))})

# %% [markdown]
# Over the range the right wrist stays {glue:text}`wrist_distance_m:.2f` m from the camera on average and
# the camera moves {glue:text}`camera_path_m:.2f` m. These are the scales of the hand-forecasting task:
# its error, the {term}`MPJPE`, is a distance in metres between predicted and true joints, so it
# can only be read against how far a wrist moves in a second.
#
# Hand contact covers {glue:text}`hand_contact_frame_share:.1f` % of all frames and foot contact
# {glue:text}`foot_contact_frame_share:.1f` %; {glue:text}`hand_contact_window_share:.1f` % of
# the 20-frame windows contain a hand contact.
#
# ## IMU
#
# The IMU samples specific force and angular rate several times per frame; `imu/keyframe_indices`
# maps each frame to its sample. Gravity dominates the accelerometer; the head turning toward the
# active object shows in the gyroscope.

# %%
imu = report.imu_summary(ep, start, stop)
fig = report.figure_imu(ep, start, stop)
plots.save_figure(fig, out, "imu")
show_figure(fig, "fig-episode-imu",
                   "Accelerometer (specific force) and gyroscope over the range.",
                   "Two line plots of three IMU axes each over time.")
if not imu["samples"]:
    show_md("**Note.** The range holds no IMU sample: the numbers below are not a measurement.")
glue_values(**{f"imu_{k}": v for k, v in imu.items()})

# %% [markdown]
# The range holds {glue:text}`imu_samples:,` IMU samples, {glue:text}`imu_per_frame:.1f` per
# frame. The mean specific force has a magnitude of {glue:text}`imu_force:.2f` m/s²: over a
# range the head's accelerations average out and gravity remains. The angular rate has a standard
# deviation of {glue:text}`imu_gyro_std:.3f` rad/s per axis. Chapter 11 summarises the IMU
# samples of each window the same way as every other stream, so the head's turns toward an
# object reach the motion input group of the tasks.
#
# ## Audio
#
# The AAC track of `fisheye_cam0.mp4`, decoded to 16 kHz mono. Touching an object, pouring,
# twisting a lid, stirring and wiping each leave their own trace in the spectrogram; the feature
# extractor keeps 24 numbers per 50 ms of it.

# %%
fig = report.figure_spectrogram(ep, start, stop)
plots.save_figure(fig, out, "spectrogram")
show_figure(fig, "fig-episode-audio", "Spectrogram of the audio track over the range.",
                   "A spectrogram: frequency against time, colour showing power.")

# %% [markdown]
# Last, whether the contact labels vary over the windows: a label that every window carries, or
# none, is a constant, and no head can learn it.

# %%
kind_short = "synthetic" if syn else "real"
glue_values(kind_short=kind_short, any_contact_window_share=labels["any_contact_window_share"],
            hand_verdict=report.contact_label(stats["hand_contact_window_share"]),
            contact_verdict=report.contact_label(stats["any_contact_window_share"]))

# %% [markdown]
# ## What we found
#
# - The loader reads this {glue:text}`kind_short` episode with every modality present and
#   aligned on one {glue:text}`fps:.0f` Hz frame clock; a real recording goes through the same
#   code.
# - Its labels hold {glue:text}`action_classes` and {glue:text}`subtask_classes`;
#   {glue:text}`seen_test_action_share:.1f` % of the chronological test frames carry an action seen in
#   training, which caps what any action classifier can score.
# - Hand contacts (a hand channel above 0.5) occur in {glue:text}`hand_contact_window_share:.1f` %
#   of the windows: a hand-contact label is {glue:text}`hand_verdict`. The original suite's
#   contact label (any of the 21 channels above 0) is set in
#   {glue:text}`any_contact_window_share:.1f` % of the windows: {glue:text}`contact_verdict`.
#   A foot contact counts in that label, and the feet touch the ground in
#   {glue:text}`foot_contact_frame_share:.1f` % of the frames; where that makes the label a
#   constant, the contact task's improved protocol uses only the channels that vary
#   ({doc}`12_task_contact_prediction`).

# %%
summary = {"episode": kind_short, "schedule": schedule if syn else "",
           "resolution": resolution if syn else "–", "range": [start, stop], **stats}
write_json(out / "summary.json", summary)
assert ep.R_c2w.shape == (ep.n_frames, 3, 3) and stats["action_classes"] >= 1
assert not ep.is_synthetic or 0 < stats["hand_contact_window_share"] < 1
