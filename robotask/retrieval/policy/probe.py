"""The chapter's computation in one call: placements, accuracies, associations and AUCs on shared replicates.

:func:`run_policy_study` reads the paraphrases and both galleries, scores every paraphrase with every ranker
(:mod:`.placements`), draws the replicate weights once (:mod:`.resampling`) and computes on them accuracy per
type (:mod:`.by_type`), success against retrieval (:mod:`.association`) and the signals' AUCs for the policy's
failure (:mod:`.discrimination`). Deterministic for a given seed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...errors import RobotaskError
from .association import association_measures, gap_by_type
from .by_type import Key, accuracy_by_type, difference, success_by_type, success_difference
from .discrimination import auc_intervals, paired_difference, pride_distance
from .paraphrases import GALLERIES, HIGH_TYPES, gallery_frame, gallery_sizes, load_paraphrases
from .placements import Placements, place_all
from .resampling import Interval, two_stage_weights

SOURCE_SIGNALS = {"keyword": "keyword similarity (negated)", "structural": "structural similarity (negated)",
                  "pride": "PRIDE paraphrase distance"}


def margin_signal(gallery: str, ranker: str) -> str:
    """The name of a ranker's negated-margin signal in one gallery: ``margin:<gallery>:<ranker>``."""
    return f"margin:{gallery}:{ranker}"


@dataclass(frozen=True)
class PolicyStudy:
    """Everything the chapter shows, from one seed and one set of replicates."""

    paraphrases: pd.DataFrame
    galleries: dict[str, dict[str, int]]
    rankers: list[str]
    placements: Placements
    accuracy: pd.DataFrame
    accuracy_replicates: dict[Key, np.ndarray] = field(repr=False)
    success: pd.DataFrame
    associations: pd.DataFrame  # gallery, ranker, measure, estimate, low, high
    aucs: dict[str, Interval]
    within_task_aucs: dict[str, Interval]
    auc_replicates: dict[str, np.ndarray] = field(repr=False)
    within_task_replicates: dict[str, np.ndarray] = field(repr=False)
    success_differences: dict[str, Interval] = field(default_factory=dict)
    n_bootstrap: int = 0
    seconds: dict[str, float] = field(default_factory=dict)

    def accuracy_difference(self, a: Key, b: Key) -> Interval:
        """Paired accuracy difference ``a`` − ``b`` (each ``(gallery, ranker, level, type)``), in points."""
        return difference(self.accuracy, self.accuracy_replicates, a, b)

    def auc_difference(self, a: str, b: str, within_task: bool = False) -> Interval:
        """Paired AUC difference of signals ``a`` − ``b`` (pooled, or within task) with its interval."""
        if within_task:
            return paired_difference(a, b, self.within_task_aucs, self.within_task_replicates)
        return paired_difference(a, b, self.aucs, self.auc_replicates)


def signals_of(paraphrases: pd.DataFrame, placements: Placements) -> dict[str, np.ndarray]:
    """Every signal (higher = failure more likely): the source's three, then each ranker's negated margin."""
    k, s = paraphrases["keyword_similarity"].to_numpy(float), paraphrases["structural_similarity"].to_numpy(float)
    out = {"keyword": -k, "structural": -s, "pride": pride_distance(k, s)}
    for gallery, ranker in placements.keys:
        out[margin_signal(gallery, ranker)] = -placements.column(gallery, ranker, "margin")
    return out


def _associations(study_in: tuple[pd.DataFrame, Placements], weights: np.ndarray) -> pd.DataFrame:
    paraphrases, placements = study_in
    success, tasks = paraphrases["success"].to_numpy(), paraphrases["task"].to_numpy()
    masks = {t: (paraphrases["high"] == t).to_numpy() for t in HIGH_TYPES}
    rows = []
    for gallery, ranker in placements.keys:
        correct = placements.column(gallery, ranker, "correct")
        found = association_measures(weights, correct, success, tasks)
        found.update({f"gap:{t}": iv for t, iv in gap_by_type(weights, correct, success, masks).items()})
        rows.extend(dict(gallery=gallery, ranker=ranker, measure=m, **iv.as_dict()) for m, iv in found.items())
    return pd.DataFrame(rows)


def run_policy_study(*, rankers: list[str], n_bootstrap: int, seed: int, paraphrases_path: str = "",
                     libero_path: str = "") -> PolicyStudy:
    """Run the chapter's study (module docstring)."""
    if n_bootstrap < 1:
        raise RobotaskError(f"n_bootstrap must be at least 1 (got {n_bootstrap})")
    clock = {"start": time.perf_counter()}
    para = load_paraphrases(paraphrases_path) if paraphrases_path else load_paraphrases()
    frames = {g: gallery_frame(para, g, *([libero_path] if libero_path else [])) for g in GALLERIES}
    placements = place_all(para, frames, rankers)
    clock["scored"] = time.perf_counter()
    weights = two_stage_weights(para["task"].to_numpy(), n_bootstrap, seed)
    failure = 1 - para["success"].to_numpy()
    signals = signals_of(para, placements)
    aucs, reps = auc_intervals(signals, failure, weights)
    within, within_reps = auc_intervals(signals, failure, weights, para["task"].to_numpy())
    accuracy, accuracy_replicates = accuracy_by_type(placements, para, weights)
    study = PolicyStudy(paraphrases=para, galleries={g: gallery_sizes(f) for g, f in frames.items()},
                        rankers=list(rankers), placements=placements, accuracy=accuracy,
                        accuracy_replicates=accuracy_replicates, success=success_by_type(para, weights),
                        associations=_associations((para, placements), weights), aucs=aucs,
                        within_task_aucs=within, auc_replicates=reps, within_task_replicates=within_reps,
                        success_differences={f"{a}-{b}": success_difference(para, weights, a, b)
                                             for a, b in (("act", "comp"), ("obj", "comp"), ("act", "obj"))},
                        n_bootstrap=n_bootstrap)
    end = time.perf_counter()
    study.seconds.update(scoring=clock["scored"] - clock["start"], statistics=end - clock["scored"],
                         total=end - clock["start"])
    return study
