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
# # Run one task of the episode suite with two heads, a baseline and two protocols
#
# The book executes this page once for each of the twelve tasks of the episode task suite. It
# states the task's question, shows its inputs and target on real windows, trains the minimal head
# of the original suite and the small neural MLP on the same inputs and split, scores both beside
# a trivial baseline, once under the original protocol (as published, weaknesses included) and
# once under the improved protocol, and reads what the numbers mean.
#
# - **Inputs:** an episode folder (`episode_dir`), or the synthetic episode generated for
#   `frames`, `seed`, `resolution` and `schedule`; the task id `task`.
# - **Outputs:** per protocol, the original artifact layout (`<task>/` and `neural_mlp/<task>/`:
#   metrics, predictions, per-class metrics, confusion matrix, model files), the figures below and
#   `summary.json` in the output folder.

# %% tags=["parameters"]
task: str = "timeline_action"  # one of robotask.episode.tasks.TASK_IDS (set per chapter by the book)
episode_dir: str = ""  # episode folder, e.g. the real sample; empty: the synthetic episode below
frames: int = 5821  # frames of the synthetic episode (5821 as the real sample → 1161 windows)
seed: int = 0  # generator seed of the synthetic episode
resolution: int = 128  # video resolution (pixels) of the synthetic episode
schedule: str = "repeating"  # synthetic action schedule: "repeating" or "sample-like"
heads: list = ["minimal", "mlp"]  # any subset of robotask.episode.suite.HEADS
protocol: str = "both"  # "original", "improved" or "both"
softmax_epochs: int = 400  # epochs of the linear heads (400 as published)
mlp_epochs: int = 80  # epochs of the MLP (80 as published)
output_dir: str = ""  # where result files go; empty: _build/results/12_task_<task>

# %%
import matplotlib.pyplot as plt

from robotask import plots
from robotask.book import report
from robotask.episode import figures_tasks, fixes, minimal_heads, suite, synth, tasks, windowset
from robotask.episode.mlp import MLPConfig
from robotask.io import write_json

spec = tasks.get_task(task)
protocols = list(fixes.PROTOCOLS) if protocol == "both" else [fixes.get_protocol(protocol).name]
out = report.output_dir(output_dir, f"12_task_{task}")
ws = windowset.load_window_set(episode_dir or synth.ensure_episode(frames, seed, resolution, schedule))
cfg = suite.SuiteConfig(softmax_epochs, MLPConfig(epochs=mlp_epochs))
kind = f"synthetic (`{schedule}` schedule)" if ws.episode.is_synthetic else "real"
report.show_md(f"## {spec.display_name} (`{spec.id}`)\n\n**Question.** {spec.question}\n\n"
               f"**Input:** {spec.input_desc}. **Target:** {spec.target_desc}. **Minimal head:** {spec.head}. "
               f"**Primary metric:** `{spec.primary_metric}` ({'higher' if spec.higher_is_better else 'lower'} "
               f"is better).\n\nThe episode is {kind}: {ws.episode.n_frames} frames, {len(ws.X)} windows of "
               f"{ws.X.shape[1]} features.")

# %% [markdown]
# ## Method

# %% tags=["hide-input"]
report.show_md(
    f"Samples are built from the shared windows (for the pair tasks, from pairs of windows) in time "
    f"order and split chronologically: the first {1 - tasks.TEST_FRACTION:.0%} train, the rest test. Inputs "
    f"are z-scored with train statistics. The **minimal head** is the original's: a class-weighted linear "
    f"softmax trained by {softmax_epochs} epochs of full-batch gradient descent (learning rate "
    f"{minimal_heads.SOFTMAX_LR}), a dual ridge regression (λ = {minimal_heads.RIDGE_LAMBDA:g}), or a weighted multi-label "
    f"logistic regression. The **MLP** (LayerNorm → {cfg.mlp.hidden_dim} → GELU → {cfg.mlp.hidden_dim} → GELU, "
    f"dropout {cfg.mlp.dropout}, AdamW, {mlp_epochs} epochs) sees the same inputs and split. The "
    f"**baseline** needs no learning at all: the majority class, always positive, the last observed hand "
    f"pose, the train mean, or a random ranking. The **improved protocol** switches on every fix of the "
    f"spec's list of weaknesses: " + ", ".join(fixes.describe_fixes()) + "."
)

# %%
results = {p: suite.run_task(task, ws, fixes.get_protocol(p), suite.parse_heads(heads), out / p, cfg)
           for p in protocols}
ok = figures_tasks.ok_results(results)
first = next(iter(ok.values()), None)
if first is not None:
    report.show_md(f"**Samples.** {first.info['num_train']} train and {first.info['num_test']} test samples "
                   f"({next(iter(ok))} protocol), {first.info['feature_dim']} input columns. A few test samples "
                   f"and what the task asks to predict:")
    report.show_table(figures_tasks.examples_table(first), digits=3)
report.show_md(figures_tasks.status_text(results) or "The task ran under every requested protocol.")

# %% [markdown]
# ## Results
#
# The table lists the primary metric and the secondary ones for the baseline, the minimal head
# and the MLP under each protocol.

# %%
table = figures_tasks.metrics_table(results)
if len(table):
    report.show_table(table, digits=3)

# %%
for proto, res in ok.items():
    for name, fig in figures_tasks.task_figures(task, res):
        plots.save_figure(fig, out, f"{proto}_{name}")
        report.show_md(f"*{name.replace('_', ' ')}, {proto} protocol*")
        plt.show()

# %% [markdown]
# ## What the result means

# %%
report.show_md(figures_tasks.interpret(task, results))

# %% [markdown]
# ## What we found

# %%
primary = {p: r.primary for p, r in results.items()}
value = figures_tasks.format_metric
lines = [f"- {p}: baseline {value(v['baseline'])}, minimal {value(v['minimal'])}, MLP {value(v['mlp'])} ({v['metric']})"
         for p, v in primary.items()]
report.show_md(f"**{spec.display_name}**, primary metric `{spec.primary_metric}`:\n" + "\n".join(lines))
write_json(out / "summary.json", {"task": task, "primary": primary,
                                  "status": {p: r.status for p, r in results.items()}})
for p, r in ok.items():
    assert r.primary["baseline"] is not None
    assert all(r.primary[h] is not None for h in suite.parse_heads(heads))
    assert (out / p / task / "metrics.json").exists()
