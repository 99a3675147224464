"""The ranker the chapter reads first, and the home page's values from the chapter's ``summary.json``.

The chapter glues its own values cell by cell; the home page needs nothing but the chapter's ``summary.json``
(every interval there as ``[estimate, low, high]``), read by :func:`policy_answer_values`.
"""

from __future__ import annotations

from typing import Any

from ..rankers.registry import display
from .phrases import difference_word, gap_word, share, signal_label
from .resampling import Interval

HEADLINE = "char"
"""The ranker the prose reads first when the chapter runs it (the paper's best lexical ranker)."""


def headline(rankers: list[str]) -> str:
    """The ranker the prose reads first: Char TF-IDF when run, else the first ranker."""
    return HEADLINE if HEADLINE in rankers else rankers[0]


def _row(records: list[dict[str, Any]], **key: str) -> Interval:
    return Interval.from_row(next(r for r in records if all(r[k] == v for k, v in key.items())))


def policy_answer_values(s: dict[str, Any] | None) -> dict[str, Any]:
    """The home page's values (keys prefixed ``policy_``), from the chapter's ``summary.json``
    (:func:`robotask.book.report.read_summary`); none when the chapter did not run (the page shows dashes)."""
    if s is None:
        return {}
    d, rankers, top, c = s["data"], s["rankers"], headline(s["rankers"]), s["auc_comparisons"]

    def assoc(measure: str, ranker: str = top) -> Interval:
        return _row(s["associations"], gallery="libero", ranker=ranker, measure=measure)

    def ranker_share(measure: str) -> str:
        return share([gap_word(assoc(measure, r)) for r in rankers], "higher when retrieved")

    def accuracy(kind: str) -> float:
        return _row(s["accuracy"], gallery="libero", ranker=top, level="high", type=kind).estimate

    act_comp, margin_pride = Interval(*s["success_differences"]["act-comp"]), Interval(*c["best_margin_minus_pride"])
    v: dict[str, Any] = {
        "n_paraphrases": f"{d['n_paraphrases']:,}", "n_tasks": d["n_tasks"], "headline": display(top),
        "success_all": d["success"]["all"][0], "success_act": d["success"]["act"][0],
        "success_comp": d["success"]["comp"][0], "libero_acc_act": accuracy("act"),
        "libero_acc_comp": accuracy("comp"), "libero_success_retrieved": assoc("success_retrieved").estimate,
        "libero_success_missed": assoc("success_missed").estimate, "libero_gap_word": gap_word(assoc("gap")),
        "libero_gap_share": ranker_share("gap"), "libero_mh_word": gap_word(assoc("mh_gap")),
        "libero_gap_act": assoc("gap:act").estimate, "libero_gap_obj": assoc("gap:obj").estimate,
        **{f"libero_gap_{t}_share": ranker_share(f"gap:{t}") for t in ("act", "obj", "comp")},
        "best_signal": signal_label(c["best"]), "auc_pride": s["aucs"]["pride"][0],
        "best_margin_signal": signal_label(c["best_margin"]), "auc_best_margin": s["aucs"][c["best_margin"]][0],
        "success_act_minus_comp_word": difference_word(act_comp),
        "best_margin_minus_pride_word": difference_word(margin_pride),
        **assoc("gap").as_values("libero_gap"), **assoc("mh_gap").as_values("libero_mh_gap"),
        **assoc("gap:comp").as_values("libero_gap_comp"), **Interval(*s["aucs"][c["best"]]).as_values("auc_best"),
        **Interval(*s["type_differences"]["libero"][top]["act-comp"]).as_values("libero_act_comp"),
        **act_comp.as_values("success_act_minus_comp"), **margin_pride.as_values("best_margin_minus_pride")}
    return {f"policy_{k}": value for k, value in v.items()}
