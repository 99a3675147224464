"""The tables of chapters 06 to 09.1 shaped for a reader: which columns, in which order, under which headers.

The frames the chapters write to their result folders keep the ids; these functions add the labels and pick
the columns a page shows.
"""

from __future__ import annotations

import pandas as pd

from ...words import UNRESOLVED, verdict, verdict_row
from ..libraries.transfer_tables import NEARLY_ALL, share_interval
from ..rankers.registry import PAPER_RANKERS, RANKERS
from ..statistics.comparison_intervals import comparison, gain_differences, matched_comparisons
from .phrases import label

HOLDS, FAILS = "holds", "does not hold"

# Accuracy with the interval of its mean (chapters 06 and 07).
INTERVAL_HEADERS = {"label": "Ranker", "in paper": "In the paper", "sd": "SD", "p5": "5th pct.",
                    "p95": "95th pct.", "lo": "95 % CI low", "hi": "95 % CI high", "width": "CI width",
                    "width_queries": "Width: queries only", "width_galleries": "Width: galleries only"}
WIDTH_COLUMNS = ["label", "mean", "sd", "p5", "p95", "min", "max", "lo", "hi", "width", "width_queries",
                 "width_galleries"]


def with_in_paper(summary: pd.DataFrame, ci: pd.DataFrame) -> pd.DataFrame:
    """Chapter 06: ``summary_table`` with the bootstrap interval of each mean (``ci``: ``bootstrap_table``)
    and, third, whether the paper reports the ranker ("yes" or "not in the paper")."""
    out = summary.merge(ci[["ranker", "lo", "hi"]], on="ranker")
    out.insert(2, "in paper", ["yes" if RANKERS[r].in_paper else "not in the paper" for r in out["ranker"]])
    return out


def in_paper_view(summary: pd.DataFrame) -> pd.DataFrame:
    """Chapter 06: the columns of :func:`with_in_paper` a reader sees, rankers by their labels."""
    view = summary.assign(label=[label(r) for r in summary["ranker"]])
    return view[["label", "in paper", "mean", "sd", "p5", "p95", "min", "max", "lo", "hi"]]


def with_widths(intervals: pd.DataFrame) -> pd.DataFrame:
    """Chapter 07: the width of every interval (both resamplings, queries only, galleries only) added to
    ``intervals`` (``lo``/``hi`` with the suffixes ``""``, ``_queries``, ``_galleries``), and rankers by their
    display names."""
    out = intervals.copy()
    for part in ("", "_queries", "_galleries"):
        out[f"width{part}"] = out[f"hi{part}"] - out[f"lo{part}"]
    out["label"] = [RANKERS[r].display for r in out["ranker"]]
    return out


def pair_labels(comp: pd.DataFrame) -> list[str]:
    """Each row's pair of rankers (``a``, ``b``) as "MiniLM − Char TF-IDF"."""
    return [f"{label(a)} − {label(b)}" for a, b in zip(comp["a"], comp["b"])]


CONFUSION_HEADERS = {"ranker": "Ranker", "n_queries": "Queries per gallery (mean)",
                     "to_opposite": "Sent to the opposite task (%)", "share_of_errors": "Share of errors (%)"}

PERTURBATION_HEADERS = {"label": "Ranker", "n_per_trial": "Queries per gallery", "original": "Original (%)",
                        "perturbed": "Perturbed (%)", "change": "Change (pp)", "lo": "95 % CI low",
                        "hi": "95 % CI high", "p_perm": "P (permutation)"}
SWAP_TASK_HEADERS = {"task": "Source task", "opposite": "Opposite task", "queries": "Queries",
                     "original": "Finds source, unperturbed (%)", "swapped": "Finds opposite, swapped (%)",
                     "change": "Change (pp)"}


def starred_labels(rankers: pd.Series) -> list[str]:
    """Ranker labels with " *" after those the paper does not report (chapter 08's footnote)."""
    return [RANKERS[r].label + ("" if RANKERS[r].in_paper else " *") for r in rankers]


def perturbation_view(table: pd.DataFrame) -> pd.DataFrame:
    """Chapter 08: the columns of ``perturbation_table`` (with ``label``) a reader sees, perturbations in
    words."""
    view = table.assign(perturbation=table["perturbation"].str.replace("_", " "))
    return view[["perturbation", "label", "n_per_trial", "original", "perturbed", "change", "lo", "hi", "wins",
                 "ties", "losses", "p_perm"]]


def flip_table(table: pd.DataFrame) -> pd.DataFrame:
    """Chapter 08: for the direction swap, how often each ranker finds the source task unperturbed, follows
    the flip to the opposite task, or stays on the source task (%)."""
    ds = table[table["perturbation"] == "direction_swap"]
    return ds[["label", "n_per_trial", "original", "perturbed", "stays_source"]].rename(columns={
        "original": "source task, unperturbed (%)", "perturbed": "follows flip: opposite task (%)",
        "stays_source": "stays on source task (%)"}).reset_index(drop=True)


HIGHEST, BEATS_WORD = "Char TF-IDF has the highest mean", "Char TF-IDF beats word TF-IDF on average"
NEARLY = f"Char TF-IDF beats BM25 in nearly all galleries (at least {100 * NEARLY_ALL:.0f} %)"
HELPS, BM25_MOST = "A second description helps every ranker", "BM25 gains most from a second description"
"""The claims of chapter 09.1 that the shared two-way interval decides (galleries and texts resampled)."""


def _signed(x: float) -> str:
    """One decimal with a sign and a true minus; two where one would read "0.0" for a bound off zero."""
    digits = 2 if 0 < abs(x) < 0.05 else 1
    return f"{'+' if x >= 0 else '−'}{abs(x):.{digits}f}"


def _evidence(c: dict) -> str:
    return f"{_signed(c['difference'])} pp (95 % interval {_signed(c['low'])} to {_signed(c['high'])})"


def two_way_leaders(leaders: pd.DataFrame, comps: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Chapter 09.1's leader table with each library's interval and verdict from the shared two-way
    interval (galleries and descriptions, :func:`robotask.retrieval.statistics.ranker_comparisons`);
    ``comps`` maps the library title to its comparisons."""
    names = {spec.label: r for r, spec in RANKERS.items()}
    out = leaders.copy()
    for i, row in out.iterrows():
        c = comparison(comps[row["Library"]], names[row["Leader"]], names[row["Runner-up"]])
        out.loc[i, "Difference (pp)"] = c["difference"]
        out.loc[i, "95 % interval"] = f"{_signed(c['low'])} to {_signed(c['high'])}"
        out.loc[i, "Verdict"] = verdict(c["low"], c["high"], above=f"{row['Leader']} leads", below=UNRESOLVED)
    return out


def _all_of(found: dict[str, dict]) -> str:
    ws = [verdict(c["low"], c["high"], above=HOLDS, below=FAILS) for c in found.values()]
    return FAILS if FAILS in ws else HOLDS if all(w == HOLDS for w in ws) else UNRESOLVED


def second_text_claims(predictions: pd.DataFrame, rankers: list[str], seed: int) -> dict[str, tuple[str, str]]:
    """The two claims about a second description on one library, from its matched study's per-query
    ``predictions``: every paper ranker's gain (two − one) and BM25's gain against every other's, each with
    the two-way interval over matched galleries and queried texts."""
    rankers = [r for r in rankers if r in PAPER_RANKERS]
    table = matched_comparisons(predictions, rankers, seed=seed)  # one pass; each ranker's draws are the same
    gains = {r: comparison(table, r, r) for r in rankers}
    least = min(gains, key=lambda r: gains[r]["low"])
    found = {HELPS: (_all_of(gains), f"least sure gain {RANKERS[least].label} {_evidence(gains[least])}")}
    if "bm25" in rankers and len(rankers) > 1:
        table = gain_differences(predictions, [("bm25", r) for r in rankers if r != "bm25"], seed=seed)
        vs = {r: comparison(table, "bm25", r) for r in table["b"]}
        rival = max(vs, key=lambda r: gains[r]["difference"])
        found[BM25_MOST] = (_all_of(vs), f"BM25 {_signed(gains['bm25']['difference'])} pp, largest other "
                                         f"{RANKERS[rival].label} {_signed(gains[rival]['difference'])} pp, "
                                         f"difference {_evidence(vs[rival])}")
    return found


def two_way_claims(cells: pd.DataFrame, words: pd.DataFrame, comps: dict[str, pd.DataFrame],
                   means: dict[str, pd.Series], second: dict[str, dict[str, tuple[str, str]]] | None = None
                   ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Chapter 09.1's claim table and verdicts with the claims about one-description means decided by the
    shared two-way interval (``comps`` and ``means``, per ranker, by library title), and the claims about a
    second description replaced by ``second`` (by title, :func:`second_text_claims`) where given."""
    cells, words = cells.set_index("Claim"), words.copy()
    for title, table in comps.items():
        m = means[title]
        others = [r for r in m.index if r != "char" and r in PAPER_RANKERS]
        found = {r: comparison(table, "char", r) for r in others}
        word = _all_of(found)
        best = max(others, key=lambda r: m[r])
        decided = {HIGHEST: (word, f"Char {m['char']:.1f} %, best other {RANKERS[best].label} "
                                   f"{m[best]:.1f} %, difference {_evidence(found[best])}")}
        if "word" in found:
            c = found["word"]
            decided[BEATS_WORD] = (verdict(c["low"], c["high"], above=HOLDS, below=FAILS), _evidence(c))
        decided |= (second or {}).get(title, {})
        for claim, (w, evidence) in decided.items():
            if claim in cells.index:
                cells.loc[claim, title], words.loc[claim, title] = f"{w}: {evidence}", w
    return cells.reset_index(), words


def claim_rows(predictions: pd.DataFrame, per_trial: pd.DataFrame, rankers: list[str], seed: int, *,
               chapter: str, data: str) -> list[dict[str, object]]:
    """The rows of ``verdicts.csv`` behind chapter 09.1's claims that :func:`two_way_claims` does not index
    through the ranker comparisons: "nearly all galleries" (the exact interval of the share of galleries Char
    TF-IDF wins over BM25, less the share the claim names; its unit is the gallery) and the two claims about a
    second description (each ranker's gain and BM25's gain against every other's, the two-way intervals of
    :func:`second_text_claims`, read from the same cache). ``per_trial``: the library's per-gallery accuracies
    (condition ``one``, policy ``primary``)."""
    one = per_trial[(per_trial["condition"] == "one") & (per_trial["policy"] == "primary")]
    wide = one.pivot(index="trial", columns="ranker", values="accuracy")
    rows = []
    if {"char", "bm25"} <= set(wide.columns):
        wins, n = int((wide["char"] > wide["bm25"]).sum()), len(wide)
        lo, hi = share_interval(wins, n)
        rows.append(verdict_row(chapter=chapter, claim=NEARLY, a="share of galleries Char TF-IDF wins over BM25",
                                b=f"{100 * NEARLY_ALL:.0f} % of galleries", data=data, metric="share of galleries (%)",
                                difference=100 * (wins / n - NEARLY_ALL), low=100 * (lo - NEARLY_ALL),
                                high=100 * (hi - NEARLY_ALL), unit="gallery", n_units=n,
                                method="exact (Clopper–Pearson) 95 % interval of a share"))
    paper = [r for r in rankers if r in PAPER_RANKERS]
    gains = matched_comparisons(predictions, paper, seed=seed)
    pairs = [("bm25", r) for r in paper if r != "bm25"] if "bm25" in paper else []
    more = gain_differences(predictions, pairs, seed=seed) if pairs else gains.iloc[:0]
    for table, claim, a, b, metric in (
            (gains, HELPS, "{a} with two descriptions", "{b} with one", "top-1 accuracy"),
            (more, BM25_MOST, "{a} gain", "{b} gain", "gain from a second description (pp)")):
        for _, c in table.iterrows():
            rows.append(verdict_row(chapter=chapter, claim=claim, a=a.format(a=label(c["a"])),
                                    b=b.format(b=label(c["b"])), data=data, metric=metric,
                                    difference=c["difference"], low=c["low"], high=c["high"],
                                    unit="gallery and description", n_units=int(c["n_descriptions"]),
                                    method=f"{c['method']} over {c['n_galleries']} matched galleries and "
                                           f"{c['n_descriptions']} descriptions"))
    return rows
