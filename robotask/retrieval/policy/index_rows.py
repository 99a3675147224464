"""The chapter's rows of the book's index of verdicts (``verdicts.csv``, read by chapter 97).

One row per deciding word the page prints, in the columns of :data:`robotask.words.VERDICT_COLUMNS`: the
difference A − B that the word reads, its studentised interval over the chapter's :class:`~.resampling.Design`
(the ten tasks are the units; their paraphrases are resampled within them), the method, with the Holm family
where the page picks a leader or compares a family of signals with PRIDE's distance, and the word itself as the
page prints it (:mod:`.phrases`). A share ("5 of 7 rankers") states one word per ranker, so each ranker's
comparison is a row. Nothing here computes an interval: every one comes from the chapter's steps.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ...words import verdict_row
from ..rankers.registry import display
from .paraphrases import GALLERIES, GALLERY_TITLES, HIGH_TITLES, HIGH_TYPES
from .phrases import difference_word, gap_word, signal_label
from .resampling import Design, Interval

CHAPTER = "09_policy"
UNIT = "task"
ACCURACY = "retrieval accuracy (%)"
SUCCESS = "policy success (%)"
STATED_TYPE_PAIRS = (("libero", "act", "comp"), ("libero", "obj", "comp"), ("libero", "act", "obj"),
                     ("originals", "act", "comp"), ("originals", "act", "obj"))
"""The paired differences between paraphrase types whose share of rankers the page prints (gallery, A, B)."""

Leads = dict[str, tuple[str, str, Interval]]
"""Per gallery, :func:`.by_type.leader`'s most accurate ranker, the runner-up and the Holm-adjusted lead."""


def method(design: Design, family: str = "") -> str:
    """The method of every row: the chapter's bootstrap, and the Holm family when there is one."""
    text = (f"studentised (bootstrap-t) cluster bootstrap over tasks and the paraphrases within them, "
            f"{design.n_replicates:,} replicates")
    return f"{text}; Holm over {family}" if family else text


def where(gallery: str, kind: str = "") -> str:
    """The ``data`` of a row: LIBERO-Para in one gallery, and the paraphrase type when the row is about one."""
    text = f"LIBERO-Para, gallery of the {GALLERY_TITLES[gallery]}"
    return f"{text}, {kind}: {HIGH_TITLES[kind]}" if kind else text


def _row(design: Design, claim: str, a: str, b: str, data: str, metric: str, iv: Interval, word: str,
         family: str = "") -> dict[str, Any]:
    row = verdict_row(chapter=CHAPTER, claim=claim, a=a, b=b, data=data, metric=metric, difference=iv.estimate,
                      low=iv.low, high=iv.high, unit=UNIT, n_units=design.n_groups, method=method(design, family))
    return {**row, "verdict": word}


def accuracy_verdicts(design: Design, drops: dict[str, Interval], leads: Leads,
                      types: dict[str, dict[str, dict[str, Interval]]]) -> list[dict[str, Any]]:
    """Rows of the accuracy section: each ranker's 10-original accuracy minus its accuracy among the 130 files
    (``drops``), the leader of each gallery against the runner-up (``leads``, Holm over every pair of rankers)
    and each ranker's paired type differences the page reads (``types[gallery][ranker]["act-comp"]``)."""
    rows = [_row(design, "accuracy lost to the distractors of the 130 LIBERO tasks",
                 f"{display(r)}, {GALLERY_TITLES['originals']}", f"{display(r)}, {GALLERY_TITLES['libero']}",
                 "LIBERO-Para, every paraphrase", ACCURACY, iv, difference_word(iv)) for r, iv in drops.items()]
    pairs = len(drops) * (len(drops) - 1) // 2
    rows += [_row(design, "the most accurate ranker against the next", display(best), display(second), where(g),
                  ACCURACY, lead, difference_word(lead, "ahead", "behind"), f"the {pairs} pairs of rankers")
             for g, (best, second, lead) in leads.items()]
    for g, a, b in STATED_TYPE_PAIRS:
        for r, by_pair in types[g].items():
            iv = by_pair[f"{a}-{b}"]
            rows.append(_row(design, f"{HIGH_TITLES[a]} against {HIGH_TITLES[b]}: retrieval",
                             f"{display(r)}, {a}", f"{display(r)}, {b}", where(g), ACCURACY, iv,
                             difference_word(iv)))
    return rows


def association_verdicts(design: Design, associations: pd.DataFrame, rankers: list[str],
                         success_act_comp: Interval) -> list[dict[str, Any]]:
    """Rows of the association section: per gallery and ranker, the policy's success when retrieved minus when
    missed, pooled and within task (Mantel–Haenszel); per type among the 130 files; and the policy's own
    success on action-only rewordings minus on rewordings of both (``success_act_comp``)."""
    by = associations.set_index(["gallery", "ranker", "measure"])
    measures = [(g, m, "") for g in GALLERIES for m in ("gap", "mh_gap")]
    measures += [("libero", f"gap:{t}", t) for t in HIGH_TYPES]
    rows = []
    for g, m, kind in measures:
        metric = f"{SUCCESS}, within task (Mantel–Haenszel)" if m == "mh_gap" else SUCCESS
        for r in rankers:
            iv = Interval.from_row(by.loc[(g, r, m)])
            rows.append(_row(design, "the policy succeeds more often where the ranker retrieves the task",
                             f"where {display(r)} retrieves", f"where {display(r)} misses", where(g, kind),
                             metric, iv, gap_word(iv)))
    rows.append(_row(design, "the policy on action-only rewordings against rewordings of both",
                     f"policy, act: {HIGH_TITLES['act']}", f"policy, comp: {HIGH_TITLES['comp']}",
                     "LIBERO-Para, every paraphrase", SUCCESS, success_act_comp, difference_word(success_act_comp)))
    return rows


def signal_verdicts(design: Design, pooled: dict[str, Any], within_task: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows of the signals' section: every signal's ROC AUC minus PRIDE's distance (``pooled``,
    :func:`.discrimination.auc_comparisons`'s; the table's word "better" or "worse", Holm over the family), and
    the best ranker margin within task minus PRIDE's distance, the one within-task word the page prints."""
    reference = signal_label(pooled["reference"])
    family = f"the {pooled['n_compared']} signals compared with {reference}"
    data = "LIBERO-Para, the policy's failure on each paraphrase"
    rows = []
    for signal, values in pooled["against_reference"].items():
        iv = Interval(*values)
        rows.append(_row(design, f"a signal against {reference}", signal_label(signal), reference, data,
                         "ROC AUC", iv, difference_word(iv, "better", "worse"), family))
    best, iv = within_task["best_margin"], Interval(*within_task["best_margin_minus_pride"])
    rows.append(_row(design, f"the best ranker margin within task against {reference}", signal_label(best),
                     reference, data, "within-task ROC AUC", iv, difference_word(iv),
                     f"the {within_task['n_compared']} signals compared with {reference} within task"))
    return rows
