"""What the chapter writes to ``summary.json``, the values its Markdown glues, and the home page's values.

:func:`summary` turns a :class:`~.study.PolicyStudy` into plain JSON (every interval as ``[estimate, low,
high]``); :func:`policy_values` (the chapter) and :func:`policy_answer_values` (the home page) read only that
summary, so the home page needs nothing but the chapter's ``summary.json``.
"""

from __future__ import annotations

from typing import Any

from ...words import UNRESOLVED
from ..rankers.registry import PAPER_RANKERS, display
from .paraphrases import GALLERIES, GALLERY_TITLES, HIGH_TYPES
from .phrases import difference_word, gap_word, share, signal_label
from .probe import PolicyStudy, margin_signal
from .resampling import Interval

TYPE_PAIRS = (("act", "comp"), ("obj", "comp"), ("act", "obj"))
HEADLINE = "char"
"""The ranker the prose reads first when the chapter runs it (the paper's best lexical ranker)."""


def _l(iv: Interval) -> list[float]:
    return [float(iv.estimate), float(iv.low), float(iv.high)]


def _iv(values: list[float]) -> Interval:
    return Interval(*values)


def _comparisons(study: PolicyStudy, within_task: bool = False) -> dict[str, Any]:
    """The paired AUC comparisons the text reads (pooled, or within task): the best signal against the
    runner-up, the best ranker margin and the best paper-ranker margin against the source's PRIDE distance and
    keyword similarity."""
    aucs = study.within_task_aucs if within_task else study.aucs
    ranked = sorted(aucs, key=lambda s: -aucs[s].estimate)
    margins = [s for s in ranked if s.startswith("margin:")]
    lexical = [s for s in margins if s.split(":")[2] in PAPER_RANKERS] or margins
    def diff(a: str, b: str) -> list[float]:
        return _l(study.auc_difference(a, b, within_task))
    out: dict[str, Any] = {"best": ranked[0], "second": ranked[1], "best_minus_second": diff(ranked[0], ranked[1]),
                           "best_margin": margins[0], "best_lexical_margin": lexical[0],
                           "keyword_minus_pride": diff("keyword", "pride")}
    for name in ("pride", "keyword"):
        out[f"best_margin_minus_{name}"] = diff(margins[0], name)
        out[f"best_lexical_margin_minus_{name}"] = diff(lexical[0], name)
    return out


def summary(study: PolicyStudy, seed: int) -> dict[str, Any]:
    """Everything the chapter reads and the home page needs, as JSON."""
    para = study.paraphrases
    success = {r.type: [r.estimate, r.low, r.high] for r in study.success.itertuples(index=False)}
    types = {g: {r: {f"{a}-{b}": _l(study.accuracy_difference((g, r, "high", a), (g, r, "high", b)))
                     for a, b in TYPE_PAIRS} for r in study.rankers} for g in GALLERIES}
    drops = {r: _l(study.accuracy_difference(("originals", r, "all", "all"), ("libero", r, "all", "all")))
             for r in study.rankers}
    return {"seed": seed, "n_bootstrap": study.n_bootstrap, "rankers": study.rankers,
            "data": {"n_paraphrases": len(para), "n_tasks": int(para["task"].nunique()),
                     "n_distinct_texts": int(para["text"].nunique()),
                     "n_by_high": {t: int((para["high"] == t).sum()) for t in HIGH_TYPES},
                     "n_mid_types": int(para["mid"].nunique()), "successes": int(para["success"].sum()),
                     "success": success},
            "galleries": study.galleries,
            "accuracy": study.accuracy.to_dict("records"), "type_differences": types, "gallery_drops": drops,
            "associations": study.associations.to_dict("records"),
            "success_differences": {k: _l(iv) for k, iv in study.success_differences.items()},
            "aucs": {name: _l(iv) for name, iv in study.aucs.items()},
            "within_task_aucs": {name: _l(iv) for name, iv in study.within_task_aucs.items()},
            "auc_comparisons": _comparisons(study), "within_task_comparisons": _comparisons(study, True),
            "seconds": study.seconds}


def _accuracy(s: dict[str, Any], gallery: str, ranker: str, level: str = "all", kind: str = "all") -> list[float]:
    row = next(r for r in s["accuracy"] if (r["gallery"], r["ranker"], r["level"], r["type"]) ==
               (gallery, ranker, level, kind))
    return [row["estimate"], row["low"], row["high"]]


def _association(s: dict[str, Any], gallery: str, ranker: str, measure: str) -> Interval:
    row = next(r for r in s["associations"] if (r["gallery"], r["ranker"], r["measure"]) == (gallery, ranker, measure))
    return Interval(row["estimate"], row["low"], row["high"])


def headline(s: dict[str, Any]) -> str:
    """The ranker the prose reads first: Char TF-IDF when run, else the first ranker."""
    return HEADLINE if HEADLINE in s["rankers"] else s["rankers"][0]


def _glue_interval(out: dict[str, Any], key: str, values: list[float]) -> None:
    out[key], out[f"{key}_low"], out[f"{key}_high"] = values


def association_values(s: dict[str, Any]) -> dict[str, Any]:
    """Per gallery: how many rankers see higher success when they retrieve, the gaps' range, the headline's."""
    out: dict[str, Any] = {}
    top = headline(s)
    for g in GALLERIES:
        gaps = [_association(s, g, r, "gap") for r in s["rankers"]]
        within = [_association(s, g, r, "mh_gap") for r in s["rankers"]]
        out[f"{g}_gap_share"] = share([gap_word(iv) for iv in gaps], "higher when retrieved")
        out[f"{g}_mh_share"] = share([gap_word(iv) for iv in within], "higher when retrieved")
        out[f"{g}_gap_min"], out[f"{g}_gap_max"] = min(iv.estimate for iv in gaps), max(iv.estimate for iv in gaps)
        for measure in ("success_retrieved", "success_missed", "gap", "mh_gap", "mh_odds_ratio"):
            _glue_interval(out, f"{g}_{measure}", _l(_association(s, g, top, measure)))
        out[f"{g}_gap_word"] = gap_word(_association(s, g, top, "gap"))
        for t in HIGH_TYPES:
            _glue_interval(out, f"{g}_gap_{t}", _l(_association(s, g, top, f"gap:{t}")))
            out[f"{g}_gap_{t}_share"] = share([gap_word(_association(s, g, r, f"gap:{t}")) for r in s["rankers"]],
                                              "higher when retrieved")
        out[f"{g}_mh_word"] = gap_word(_association(s, g, top, "mh_gap"))
    return out


def retrieval_values(s: dict[str, Any]) -> dict[str, Any]:
    """Accuracy in each gallery, the gallery drop, and action-only against both-reworded paraphrases."""
    out: dict[str, Any] = {}
    top = headline(s)
    for g in GALLERIES:
        acc = {r: _accuracy(s, g, r) for r in s["rankers"]}
        best = max(acc, key=lambda r: acc[r][0])
        out[f"{g}_best"] = display(best)
        _glue_interval(out, f"{g}_best_acc", acc[best])
        _glue_interval(out, f"{g}_acc", acc[top])
        for a, b in TYPE_PAIRS:
            words = [difference_word(_iv(s["type_differences"][g][r][f"{a}-{b}"])) for r in s["rankers"]]
            out[f"{g}_{a}_{b}_share"] = share(words, "higher")
            _glue_interval(out, f"{g}_{a}_{b}", s["type_differences"][g][top][f"{a}-{b}"])
        for t in HIGH_TYPES:
            _glue_interval(out, f"{g}_acc_{t}", _accuracy(s, g, top, "high", t))
    drops = [difference_word(_iv(s["gallery_drops"][r])) for r in s["rankers"]]
    out["drop_share"] = share(drops, "higher")
    _glue_interval(out, "drop", s["gallery_drops"][top])
    return out


def signal_values(s: dict[str, Any]) -> dict[str, Any]:
    """The AUCs the prose reads and the verdicts of the paired comparisons (``within_`` keys: within task)."""
    out: dict[str, Any] = {}
    for prefix, aucs, c in (("", s["aucs"], s["auc_comparisons"]),
                            ("within_", s["within_task_aucs"], s["within_task_comparisons"])):
        for key in ("best", "second", "best_margin", "best_lexical_margin"):
            out[f"{prefix}{key}_signal"] = signal_label(c[key])
            _glue_interval(out, f"{prefix}auc_{key}", aucs[c[key]])
        for key in ("pride", "keyword", "structural"):
            _glue_interval(out, f"{prefix}auc_{key}", aucs[key])
        for key in ("best_minus_second", "best_margin_minus_pride", "best_margin_minus_keyword",
                    "best_lexical_margin_minus_pride", "best_lexical_margin_minus_keyword", "keyword_minus_pride"):
            _glue_interval(out, f"{prefix}{key}", c[key])
            out[f"{prefix}{key}_word"] = difference_word(_iv(c[key]))
    top = headline(s)
    for g in GALLERIES:
        _glue_interval(out, f"auc_{g}_margin", s["aucs"][margin_signal(g, top)])
        _glue_interval(out, f"within_auc_{g}_margin", s["within_task_aucs"][margin_signal(g, top)])
    return out


def policy_values(s: dict[str, Any]) -> dict[str, Any]:
    """Every value the chapter glues, from its summary."""
    d = s["data"]
    out: dict[str, Any] = {"n_paraphrases": f"{d['n_paraphrases']:,}", "n_tasks": d["n_tasks"],
                           "n_distinct": f"{d['n_distinct_texts']:,}", "n_mid_types": d["n_mid_types"],
                           "n_successes": f"{d['successes']:,}", "n_bootstrap": f"{s['n_bootstrap']:,}",
                           "n_rankers": len(s["rankers"]), "headline": display(headline(s)),
                           "seconds": (s.get("seconds") or {}).get("total", float("nan")), "unresolved": UNRESOLVED}
    out.update({f"n_{t}": f"{n:,}" for t, n in d["n_by_high"].items()})
    for kind, values in d["success"].items():
        _glue_interval(out, f"success_{kind.replace('+', '_')}", values)
    for pair, values in s["success_differences"].items():
        key = f"success_{pair.replace('-', '_minus_')}"
        _glue_interval(out, key, values)
        out[f"{key}_word"] = difference_word(_iv(values))
    for g, sizes in s["galleries"].items():
        out[f"{g}_tasks"], out[f"{g}_texts"], out[f"{g}_title"] = sizes["tasks"], sizes["texts"], GALLERY_TITLES[g]
    return {**out, **retrieval_values(s), **association_values(s), **signal_values(s)}


def policy_answer_values(s: dict[str, Any] | None) -> dict[str, Any]:
    """The home page's values (keys prefixed ``policy_``), from the chapter's ``summary.json``
    (:func:`robotask.book.report.read_summary`); none when the chapter did not run (the page shows dashes)."""
    if s is None:
        return {}
    v = policy_values(s)
    keys = ["n_paraphrases", "n_tasks", "headline", "libero_success_retrieved", "libero_success_missed",
            "libero_gap", "libero_gap_low", "libero_gap_high", "libero_gap_word", "libero_gap_share",
            "libero_mh_gap", "libero_mh_gap_low", "libero_mh_gap_high", "libero_mh_word", "libero_acc_act",
            "libero_acc_comp", "libero_act_comp", "libero_act_comp_low", "libero_act_comp_high",
            "best_signal", "auc_best", "auc_best_low", "auc_best_high", "auc_pride", "best_margin_signal",
            "auc_best_margin", "best_margin_minus_pride", "best_margin_minus_pride_low",
            "best_margin_minus_pride_high", "best_margin_minus_pride_word", "success_all",
            "libero_gap_act", "libero_gap_obj", "libero_gap_comp", "libero_gap_comp_low", "libero_gap_comp_high",
            "libero_gap_comp_share", "libero_gap_act_share", "libero_gap_obj_share", "success_act", "success_comp",
            "success_act_minus_comp", "success_act_minus_comp_low", "success_act_minus_comp_high",
            "success_act_minus_comp_word"]
    return {f"policy_{k}": v[k] for k in keys}
