"""The values chapters 06 to 08 glue (the rankers and tests beyond the paper): one dict per ``glue`` call, numbers
as the prose shows them, with the words of :mod:`.phrases`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from ...words import count, join, verdict, verdict_row
from ..statistics.comparison_intervals import comparison, ranker_comparisons
from .phrases import (
    cache_source,
    claims_with,
    criteria_agreement,
    dominant_source,
    how_many,
    label,
    p_value,
    shown,
    time_ratio,
)
from .values import perturbation_values

NAN = float("nan")


# ------------------------------------------------------------------ chapter 06: sentence embeddings
def embedding_run_values(corpus: Any, rankers: Sequence[str], neural: Sequence[str], t_load: float,
                         seconds: Mapping[str, float], cached: bool, n_encoded: int, n_trials: int, seed: int,
                         n_permutations: int) -> dict:
    """Chapter 06: the run (``corpus``: a ``protocol.Corpus``) and its cost: the seconds to load the model and
    embed every text (``t_load``), those of the lexical and embedding groups (``seconds``), where the vectors
    came from (``cached``: the disk cache was on; ``n_encoded``: texts the model embedded), and which of the
    rankers beyond MiniLM this run left out."""
    n_distinct = len(set(corpus.texts))
    t_neural = t_load + seconds["neural"]
    return {"n_tasks": len(corpus.tasks), "n_texts": len(corpus.texts), "n_distinct": n_distinct,
            "n_trials": n_trials, "seed": seed, "t_load": t_load, "t_neural": t_neural,
            "t_lexical": seconds["lexical"], "vectors": cache_source(cached, n_encoded, n_distinct),
            "neural_names": join([label(r) for r in neural]),
            "cost_reading": time_ratio(t_neural, seconds["lexical"]),
            "left_out": join([label(r) for r in ("minilm_char", "static") if r not in rankers]) or "nothing",
            "n_permutations_text": f"{n_permutations:,}"}


def embedding_accuracy_values(summary: pd.DataFrame) -> dict:
    """Chapter 06: the mean accuracies of MiniLM, Char TF-IDF, the fusion and the static embedding (a dash
    for one that did not run), and how many times wider Char TF-IDF's band of single galleries is than the
    interval of its mean (``summary``: by ranker, with ``p5``, ``p95``, ``lo`` and ``hi``)."""
    by = summary.set_index("ranker")
    acc, char = by["mean"], by.loc["char"]
    return {"acc_minilm": acc["minilm"], "acc_char": acc["char"], "acc_fusion": shown(acc.get("minilm_char", NAN)),
            "acc_static": shown(acc.get("static", NAN)),
            "band_ratio": (char["p95"] - char["p5"]) / (char["hi"] - char["lo"])}


def embedding_pair_values(comp: pd.DataFrame, n_permutations: int) -> dict:
    """Chapter 06: MiniLM against Char TF-IDF (``mc_*``) and the fusion against MiniLM alone (``fusion_*``,
    read from the row MiniLM − fusion turned round; dashes when the fusion did not run), each with its
    paired interval and verdict, and the floor of a permutation P-value."""
    rows = comp.set_index(["a", "b"])
    mc = rows.loc[("minilm", "char")]
    fused = rows.reindex([("minilm", "minilm_char")]).iloc[0]  # NaN when the fusion did not run
    f_d, f_lo, f_hi = -fused["mean_diff"], -fused["hi"], -fused["lo"]  # the fusion minus MiniLM
    return {"mc_wins": int(mc["wins"]), "mc_ties": int(mc["ties"]), "mc_losses": int(mc["losses"]),
            "mc_diff": shown(mc["mean_diff"], True), "mc_lo": shown(mc["lo"], True),
            "mc_hi": shown(mc["hi"], True), "mc_verdict": verdict(mc["lo"], mc["hi"]),
            "p_floor": 1 / (1 + n_permutations), "fusion_d": shown(f_d, True), "fusion_lo": shown(f_lo, True),
            "fusion_hi": shown(f_hi, True), "fusion_verdict": verdict(f_lo, f_hi) if f_lo == f_lo else "—"}


def no_overlap_comparison(both: pd.DataFrame, seed: int) -> dict[str, object]:
    """Chapter 06: MiniLM − Char TF-IDF on the queries that share no content word with their task's indexed
    text, with its two-way interval over galleries and those descriptions (a :func:`comparison` row)."""
    none = both[both["shared"] == 0]
    ids = none["task"].astype(str) + ":" + none["position"].astype(str)
    pq = pd.concat([pd.DataFrame({"trial": none["trial"], "ranker": r, "task": none["task"], "query_id": ids,
                                  "correct": none[f"correct_{r}"].astype(int)}) for r in ("minilm", "char")])
    return comparison(ranker_comparisons(pq, [("minilm", "char")], seed=seed), "minilm", "char")


def no_overlap_row(both: pd.DataFrame, seed: int, *, data: str) -> dict[str, object]:
    """Chapter 06's ``verdicts.csv`` row of :func:`no_overlap_comparison` (the paragraph's numbers, from the
    same cached replicates)."""
    c = no_overlap_comparison(both, seed)
    return verdict_row(chapter="06_sentence_embeddings", claim="MiniLM against Char TF-IDF on the queries that "
                       "share no content word with the indexed description", a=label("minilm"), b=label("char"),
                       data=f"{data}, queries with no shared word", metric="top-1 accuracy",
                       difference=c["difference"], low=c["low"], high=c["high"], unit="gallery and description",
                       n_units=int(c["n_descriptions"]),
                       method=f"{c['method']} over {c['n_galleries']} galleries and {c['n_descriptions']} descriptions")


def no_overlap_values(both: pd.DataFrame, seed: int) -> dict:
    """Chapter 06: the queries that share no content word with their task's indexed text (``both``:
    ``error_analysis.paired_predictions`` of MiniLM and Char TF-IDF): their share, each ranker's accuracy on
    them, and MiniLM minus Char TF-IDF paired gallery by gallery with its interval over galleries and
    descriptions (:func:`robotask.retrieval.statistics.ranker_comparisons`, seed ``seed``) and verdict."""
    none = both[both["shared"] == 0]
    c = no_overlap_comparison(both, seed)
    return {"no_overlap_share": 100 * len(none) / len(both), "no_overlap_minilm": 100 * none["correct_minilm"].mean(),
            "no_overlap_char": 100 * none["correct_char"].mean(), "no_overlap_d": shown(c["difference"], True),
            "no_overlap_lo": shown(c["low"], True), "no_overlap_hi": shown(c["high"], True),
            "no_overlap_verdict": c["verdict"]}


def opposite_values(confusions: pd.DataFrame, cos_opposite: float, cos_paraphrase: float) -> dict:
    """Chapter 06: how often MiniLM and Char TF-IDF send a query to the opposite task (``confusions``:
    ``error_analysis.opposite_confusions``), and MiniLM's cosine of a command to its opposite and to a
    paraphrase."""
    from .phrases import cosine_reading

    conf = confusions.set_index("ranker")
    return {"opp_minilm": conf.loc["minilm", "to_opposite"], "opp_char": conf.loc["char", "to_opposite"],
            "opp_share": conf.loc["minilm", "share_of_errors"], "cos_opposite": float(cos_opposite),
            "cos_paraphrase": float(cos_paraphrase),
            "cos_reading": cosine_reading(float(cos_opposite), float(cos_paraphrase))}


# ------------------------------------------------------------------ chapter 07: uncertainty
def uncertainty_run_values(per_query: pd.DataFrame, rankers: Sequence[str], n_trials: int, seed: int,
                           n_bootstrap: int, n_permutations: int, alpha: float) -> dict:
    """Chapter 07: the run's size (``per_query``: ``per_query_from_predictions``) and the settings of its
    bootstrap and tests, counts written with thousands separators."""
    return {"n_rankers": len(rankers), "n_trials": n_trials, "seed": seed, "n_tasks": per_query["task"].nunique(),
            "n_queries": per_query["query_id"].nunique(), "n_scored": f"{len(per_query) // len(rankers):,}",
            "n_bootstrap": f"{n_bootstrap:,}", "n_permutations": f"{n_permutations:,}", "alpha": alpha}


FOCUS_PARTS = ("lo", "hi", "width", "width_galleries", "width_queries", "p5", "p95")


def focus_values(intervals: pd.DataFrame) -> dict:
    """Chapter 07: the interval of Char TF-IDF's mean (the first ranker's when Char TF-IDF did not run), its
    width from each source of uncertainty and which dominates, and the range of widths over rankers."""
    rankers = list(intervals["ranker"])
    focus_ranker = "char" if "char" in rankers else rankers[0]
    focus = intervals.set_index("ranker").loc[focus_ranker]
    return {**{f"focus_{key}": focus[key] for key in FOCUS_PARTS}, "focus": label(focus_ranker),
            "width_min": intervals["width"].min(), "width_max": intervals["width"].max(),
            "focus_source": dominant_source(focus["width_queries"], focus["width_galleries"])}


def separation_values(comp: pd.DataFrame, intervals: pd.DataFrame, alpha: float, n_permutations: int) -> dict:
    """Chapter 07: how many pairs differ by both criteria (Holm-adjusted permutation P below ``alpha`` and a
    paired interval that excludes zero), how many of those have overlapping single-mean intervals, and the
    floors of the plain and Holm-adjusted permutation P-values."""
    separated = (comp["p_perm_holm"] < alpha) & ((comp["lo"] > 0) | (comp["hi"] < 0))
    lo_hi = intervals.set_index("ranker")[["lo", "hi"]]
    overlap = pd.Series([max(lo_hi.loc[[a, b], "lo"]) <= min(lo_hi.loc[[a, b], "hi"])
                         for a, b in zip(comp["a"], comp["b"])], index=comp.index)
    return {"n_pairs": len(comp), "n_sig": int(separated.sum()), "n_overlap_sig": int((separated & overlap).sum()),
            "p_floor": 1 / (1 + n_permutations), "holm_floor": len(comp) / (1 + n_permutations)}


def ordering_values(claims: pd.DataFrame, paper_pair: Mapping[str, float], alpha: float) -> dict:
    """Chapter 07: how many of the paper's orderings are supported, not resolved or contradicted (and which),
    and Char TF-IDF over BM25 beside the paper's record (``paper_pair``: ``paper.PAIRED[("char", "bm25")]``);
    dashes, and a note in ``cb_ran``, when either ranker did not run."""
    said = claims["verdict"].value_counts()
    out: dict[str, Any] = {}
    for key in ("supported", "not resolved", "contradicted"):
        name = key.replace(" ", "_")
        out |= {f"n_{name}": int(said.get(key, 0)), f"claims_{name}": claims_with(claims, key)}
    out |= {"n_claims": len(claims), "paper_wins": int(paper_pair["wins"]),
            "paper_ties": count(paper_pair["ties"], "tie"),
            "paper_galleries": int(paper_pair["wins"] + paper_pair["ties"] + paper_pair["losses"])}
    has_cb = "char > bm25" in set(claims["claim"])
    out["cb_ran"] = "" if has_cb else " (this run leaves out Char TF-IDF or BM25, parameter `rankers`: dashes)"
    nan_row = dict.fromkeys(("wins", "ties", "losses", "p_sign", "p_perm_holm", "lo", "hi"), NAN)
    cb = claims.set_index("claim").loc["char > bm25"] if has_cb else nan_row
    return out | {"cb_wins": shown(cb["wins"], digits=0), "cb_ties": shown(cb["ties"], digits=0),
                  "cb_losses": shown(cb["losses"], digits=0), "cb_sign": p_value(cb["p_sign"]),
                  "cb_holm": p_value(cb["p_perm_holm"]), "cb_lo": shown(cb["lo"], True),
                  "cb_hi": shown(cb["hi"], True),
                  "cb_agreement": criteria_agreement(cb["p_perm_holm"], cb["lo"], cb["hi"], alpha)}


# ------------------------------------------------------------------ chapter 08: perturbations
def perturbation_run_values(corpus: Any, per_query: pd.DataFrame, rankers: Sequence[str],
                            perturbations: Sequence[str], every_perturbation: Iterable[str], n_trials: int,
                            seed: int) -> dict:
    """Chapter 08: the run's size and what it left out: perturbations of ``every_perturbation`` not run, and
    the rankers the chapter's readings name (Char TF-IDF, Word TF-IDF, BM25, MiniLM) that did not run."""
    left_out = [p for p in every_perturbation if p not in perturbations]
    left_out += [label(r) for r in ("char", "word", "bm25", "minilm") if r not in rankers]
    return {"n_rankers": len(rankers), "n_perturbations": len(perturbations), "n_trials": n_trials, "seed": seed,
            "n_queries": per_query["query_id"].nunique(), "n_texts": len(corpus.texts),
            "n_tasks": len(corpus.tasks), "left_out": ", ".join(left_out) or "nothing"}


def perturbations_values(table: pd.DataFrame, names: Iterable[str]) -> dict:
    """Chapter 08: :func:`perturbation_values` of every perturbation in ``names``, and the spelling change of
    Char TF-IDF, Word TF-IDF, BM25 and MiniLM with its interval (``spelling_<ranker>``, ``…_lo``, ``…_hi``)."""
    values: dict[str, object] = {}
    for name in names:
        values |= perturbation_values(table, name)
    typo = table[table["perturbation"] == "spelling"].set_index("ranker")
    for r in ("char", "word", "bm25", "minilm"):
        values |= {f"spelling_{r}{k}": shown(typo[c].get(r, NAN), True)
                   for k, c in (("", "change"), ("_lo", "lo"), ("_hi", "hi"))}
    return values


SWAP_DASHES = ("follow_top", "follow_min", "follow_max", "stays_min", "stays_max", "no_opp_min", "no_opp_max",
               "n_rise", "rise_ranker")
SWAP_NUMBERS = ("near_original", "near_swapped", "near_share", "rise_from", "rise_to")


def swap_values(table: pd.DataFrame, no_opposite: pd.Series | None, near: Mapping[str, float] | None) -> dict:
    """Chapter 08: the direction swap: how often the prediction follows the flip or stays on the source task
    (range over rankers, and the ranker that follows most), how often it stays for tasks without an opposite
    (``no_opposite``: ``no_opposite_stay_rate``), the word overlap before and after the swap (``near``:
    ``swap_overlap``), and the largest rise; dashes and NaN when the swap did not run (``None``)."""
    if no_opposite is None or near is None:
        return dict.fromkeys(SWAP_DASHES, "—") | dict.fromkeys(SWAP_NUMBERS, NAN)
    ds = table[table["perturbation"] == "direction_swap"].set_index("ranker")
    swap = {"follow": ds["perturbed"], "stays": ds["stays_source"], "no_opp": no_opposite}
    top = ds["change"].idxmax()
    return {"follow_top": label(ds["perturbed"].idxmax()), **{f"{k}_min": shown(v.min()) for k, v in swap.items()},
            **{f"{k}_max": shown(v.max()) for k, v in swap.items()}, "near_original": near["original"],
            "near_swapped": near["swapped"], "near_share": near["share_closer"],
            "n_rise": how_many(int((ds["lo"] > 0).sum()), len(ds), "ranker"), "rise_ranker": label(top),
            "rise_from": ds["original"][top], "rise_to": ds["perturbed"][top]}
