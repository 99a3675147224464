"""The numbers and short phrases behind the home page's answer on the episode suite (Part III).

They read chapter 13's ``summary.json`` (``primary``: one record per schedule, protocol, task and model with
the task's primary metric and its verdict against the strongest baseline of the run, the one the task page
reads, with that baseline's name and the trivial one's; ``recap``: the words of its answer) and chapter 14's."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ...task_names import TASK_TITLES
from ...words import count, join

REASONS = {  # why the trivial baseline can stay ahead of the minimal head on a task, as its page shows
    "Temporal Order Verification": "pair",
    "Multimodal Synchronization Detection": "pair",
    "Hand Trajectory Forecasting": "hold",
}
HAND = "Hand Trajectory Forecasting"


def reasons_for(lost: list[str]) -> dict[str, list[str]]:
    """The tasks the baseline keeps, grouped by kind of reason: ``pair`` (a question about two windows
    together), ``hold`` (the last pose is a strong forecast) and ``other``."""
    groups: dict[str, list[str]] = {"pair": [], "hold": [], "other": []}
    for name in lost:
        groups[REASONS.get(name, "other")].append(name)
    return groups


TIMELINE_BASELINES = ("copy the current action", "the current action's usual successor")
"""Baselines that read the timeline besides the previous window's target (``tasks.baselines.informed_baselines``)."""


def reads_timeline(baseline: str | None) -> bool:
    """Whether a baseline's name is one that reads the timeline: the previous window's label, objects or features,
    or the current action (copied, or its usual successor); not the trivial one nor a pair task's largest class."""
    return bool(baseline) and (str(baseline).startswith("previous window's") or baseline in TIMELINE_BASELINES)


def behind_tasks(primary: Sequence[Mapping], schedule: str, protocol: str, head: str = "minimal",
                 timeline: bool | None = None) -> list[str]:
    """The tasks on which ``head`` is behind the strongest baseline (chapter 13's verdict, from the interval of
    their paired difference), as display names; with ``timeline`` True (False) only those whose strongest
    baseline is (is not) one that reads the timeline (:func:`reads_timeline`)."""
    return [r["name"] for r in primary if r.get("schedule") == schedule and r.get("protocol") == protocol
            and r.get("model") == head and r.get("verdict") == "behind"
            and (timeline is None or reads_timeline(r.get("strongest_baseline")) == timeline)]


def suite_values(s10: Mapping | None, s13: Mapping | None) -> tuple[dict, str]:
    """The numbers and words of the home page's Part III answer, by glue name, and a note for the page ("" when
    none is needed). Every "ahead" and "behind" is chapter 13's verdict against the strongest baseline of the
    run, over a block bootstrap of the test windows (``behind_timeline``: the sample-like, improved-protocol
    tasks on which the minimal head is behind a baseline that reads the timeline, or "no task"); the note names
    the sample-like tasks the minimal head is behind on that the page's bullets (the pair tasks, the hand
    forecast, the timeline baselines) do not explain."""
    dash, nan = "–", float("nan")
    recap_keys = [f"s{i}{k}" for i in (0, 1) for k in ("", "_ran", "_behind", "_pairs", "_minimal_ahead",
                                                       "_mlp_ahead")]
    out: dict[str, object] = {k: dash for k in ("kind", "n_frames", "resolution", *recap_keys)}
    out.update({k: nan for k in ("hold_base", "hold_head")})
    out["behind_timeline"] = dash
    if not (s10 and s13):
        return out, ""
    out.update({k: s13.get("recap", {}).get(k, dash) for k in recap_keys})
    out.update(kind="synthetic" if s10.get("is_synthetic") else "recorded", n_frames=f"{s10['n_frames']:,}",
               resolution=s10.get("resolution", dash))
    primary = s13.get("primary", [])
    hand = [r for r in primary if r.get("name") == HAND and r.get("schedule") == "sample-like"
            and r.get("protocol") == "improved"]
    for r in hand:
        if r.get("model") == "baseline":
            out["hold_base"] = float(r["value"])
        elif r.get("model") == "minimal":
            out["hold_head"] = float(r["value"])
    lost = behind_tasks(primary, "sample-like", "improved")
    timeline = behind_tasks(primary, "sample-like", "improved", timeline=True)
    out["behind_timeline"] = join(timeline) if timeline else "no task" if out["s1"] != dash else dash
    other = [t for t in reasons_for(lost)["other"] if t not in timeline]
    if out["s1"] == dash:
        note = "This build did not run the sample-like schedule: the numbers above that need it read as dashes."
    elif other:
        note = (f"With the sample-like schedule the minimal head is also behind on {join(other)}, which the "
                f"bullets above do not explain; {'its task page shows' if len(other) == 1 else 'their task pages show'}"
                " the baselines and the interval.")
    else:
        note = ""
    return out, note


#: What chapter 14's ``summary.json`` says of its design (``unseen_<key>``): frames, pixels, subjects,
#: scenes, the epochs of its heads and the suite's (and their phrases), and learning-curve draws per point.
UNSEEN_SIZE = ("frames", "res", "n_subjects", "n_scenes", "softmax_epochs", "mlp_epochs", "suite_softmax",
               "suite_mlp", "softmax_phrase", "mlp_phrase", "draws")


def unseen_values(s14: Mapping | None) -> tuple[dict, bool]:
    """The home page's unseen-episode answer from chapter 14's ``summary.json`` (its ``unseen_*`` keys),
    by glue name, and whether chapter 14 wrote that answer."""
    def titles(ids: Sequence[str]) -> str:
        return join(TASK_TITLES.get(t, t) for t in ids) if ids else "no task"

    keys = ("unseen_episodes", "unseen_folds", "unseen_protocol", "unseen_transfer_tasks", "unseen_tasks_ran",
            "unseen_drop_tasks", "unseen_shift_hurts", "unseen_episodes_needed")
    if not s14 or not all(k in s14 for k in keys):
        return {k: "–" for k in (*(f"u_{k}" for k in UNSEEN_SIZE), "u_episodes", "u_folds", "u_protocol",
                                 "u_kind", "u_won", "u_ran", "u_won_tasks", "u_drop", "u_drop_tasks",
                                 "u_subject", "u_scene", "u_first", "u_never")}, False
    hurts, need = s14["unseen_shift_hurts"], s14["unseen_episodes_needed"]
    not_run, drops = s14.get("unseen_shifts_not_run", {}), s14["unseen_drop_tasks"]
    size = {f"u_{k}": s14.get(f"unseen_{k}", "–") for k in UNSEEN_SIZE}
    return size | {"u_episodes": s14["unseen_episodes"], "u_folds": s14["unseen_folds"],
            "u_protocol": s14["unseen_protocol"], "u_kind": "synthetic" if s14.get("unseen_synthetic") else "recorded",
            "u_won": len(s14["unseen_transfer_tasks"]), "u_ran": s14["unseen_tasks_ran"],
            "u_won_tasks": titles(s14["unseen_transfer_tasks"]),
            "u_drop": f"{count(len(drops), 'task')} ({titles(drops)})" if drops else "no task",
            "u_drop_tasks": titles(drops), "u_subject": shift_clause("subject", hurts, not_run, titles),
            "u_scene": shift_clause("scene", hurts, not_run, titles),
            "u_first": titles([t for t, n in need.items() if n == 1]),
            "u_never": titles([t for t, n in need.items() if n is None])}, True


def shift_clause(shift: str, hurts: Mapping[str, Sequence[str]], not_run: Mapping[str, str],
                 titles: Callable[[Sequence[str]], str]) -> str:
    """What holding out one ``shift`` group (subject, scene) found, or why it did not run: never a claim over
    zero groups: "hurts Object Relevance", "did not run (the collection has 1 subject value…)"."""
    if shift in not_run:
        return f"did not run ({not_run[shift]})"
    if shift not in hurts:
        return "did not run (the chapter's parameter `shifts` left it out in this build)"
    return f"hurts {titles(hurts[shift])}"
