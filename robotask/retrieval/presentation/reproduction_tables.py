"""Readers' names for the ids in the retrieval chapters' tables.

A table shows a reader "BM25 maximum (Table 2)", not ``table2.bm25.max``; the result files keep
the ids. Used by chapters ``01_extract_corpus`` and ``05_reproduction_report``.
"""

from __future__ import annotations

import re

import pandas as pd

from ...words import join, verdict
from ..rankers.registry import RANKERS
from .phrases import label

QUANTITY_LABELS = {  # corpus quantities (versus_paper.compare_with_paper and the corpus.* numbers)
    "task_files": "Task files", "tasks": "Tasks in the corpus", "descriptions": "Descriptions",
    "queries_per_trial": "Queries per one-description gallery",
    "other_files": "Task files outside the corpus", "min_per_task": "Fewest descriptions per task",
    "gallery_per_trial": "Gallery texts per one-description gallery",
    "matched_gallery": "Gallery texts per two-description gallery",
    "excluded_per_draw_min": "Fewest queries excluded in a draw",
    "excluded_per_draw_max": "Most queries excluded in a draw",
}
STATISTICS = {"mean": "mean", "sd": "SD", "p5": "5th percentile", "p95": "95th percentile",
              "min": "minimum", "max": "maximum"}
CONDITIONS = {"one": "with one description", "two": "with two descriptions",
              "diff": "gain from a second description"}
POLICIES = {"strict": "under strict scoring", "either": "under either-label scoring",
            "primary": "under primary scoring"}
PAIRED = {"mean_diff": "mean difference", "wins": "galleries won", "ties": "galleries tied",
          "losses": "galleries lost"}
SETTINGS = {"seed": "Seed of the draws", "n_trials": "Random galleries",
            "n_matched_trials": "Matched galleries", "bm25_k1": "BM25 k1", "bm25_b": "BM25 b",
            "word_ngram_max": "Longest word n-gram", "char_ngram_min": "Shortest character n-gram",
            "char_ngram_max": "Longest character n-gram", "lsa_dims": "LSA components"}
SOURCES = {"table2": "Table 2", "table3": "Table 3", "table4": "Table 4"}


def number_label(key: str, source: bool = True) -> str:
    """A number of :func:`robotask.retrieval.reproduction.versus_paper.compare` as a reader names it:
    ``table2.bm25.max`` → "BM25 maximum (Table 2)" (without the table when ``source`` is False),
    ``paired.char-bm25.wins`` → "Char TF-IDF − BM25: galleries won", ``corpus.tasks`` → "Tasks in
    the corpus"; an unknown key as it is."""
    part, _, rest = key.partition(".")
    if part in SOURCES:
        ranker, _, what = rest.partition(".")
        names = {**STATISTICS, **CONDITIONS, **POLICIES}
        where = f" ({SOURCES[part]})" if source else ""
        return f"{label(ranker)} {names.get(what, what)}{where}"
    if part == "first_listed":
        return f"{label(rest)} on the first-listed gallery"
    if part == "paired":
        pair, _, what = rest.partition(".")
        a, _, b = pair.partition("-")
        return f"{label(a)} − {label(b)}: {PAIRED.get(what, what)}"
    if part == "corpus":
        return QUANTITY_LABELS.get(rest, key)
    if part == "settings":
        return SETTINGS.get(rest, key)
    return key


def reading_label(reading: str) -> str:
    """An extraction reading of :func:`robotask.retrieval.reproduction.versus_paper.corpora_under_readings`:
    ``split_one:play_jenga`` → "split the glued literal of play_jenga"."""
    fixed = {"committed": "the committed corpus", "python": "the committed corpus",
             "split_glued": "split every glued join",
             "split_capital": "split where a capital letter follows a letter",
             "dedupe_within_task": "drop texts repeated inside a task",
             "any_fixed_literal": "keep fixed literals of every file"}
    if reading.startswith("split_one:"):
        return f"split the glued literal of {reading.partition(':')[2]}"
    return fixed.get(reading, reading)


# ------------------------------------------------------------------ chapter 01: the extraction tables
EXCLUDED_HEADERS = {"n_fixed_literals": "Fixed strings", "n_templates": "Templates"}


def plain_plurals(text: str) -> str:
    """ "2 fixed description(s)" → "2 fixed descriptions": a counted "(s)" plural made definite."""
    def fix(m: re.Match) -> str:
        n, words, stem = m.group(1), m.group(2), m.group(3)
        return f"{n}{words}{stem}{'' if int(n) == 1 else 's'}"

    return re.sub(r"\b(\d+)((?: [a-z]+)*? )([a-z]+)\(s\)", fix, text)


def plain_reasons(frame: pd.DataFrame, column: str = "reason") -> pd.DataFrame:
    """``frame`` with the extractor's reasons in ``column`` read as plain plurals."""
    return frame.assign(**{column: frame[column].map(plain_plurals)})


def excluded_files(accounting: pd.DataFrame) -> pd.DataFrame:
    """The accounting rows of the files left out of the corpus, by status and file, reasons plain."""
    excluded = accounting[accounting["status"] != "fixed"].sort_values(["status", "file"])
    return plain_reasons(excluded)[["file", "status", "reason", "n_fixed_literals", "n_templates"]]


def quantities(comparison: pd.DataFrame) -> pd.DataFrame:
    """``versus_paper.compare_with_paper`` with each quantity named for a reader."""
    return comparison.assign(quantity=comparison["quantity"].replace(QUANTITY_LABELS))


# ------------------------------------------------------------------ chapters 02 to 04: the study's tables
TABLE2_HEADERS = {"label": "Ranker", "sd": "SD", "p5": "5th pct.", "p95": "95th pct.",
                  "paper_mean": "Paper mean", "diff_pp": "Ours − paper (pp)"}
PAIR_HEADERS = {"a": "Ranker A", "b": "Ranker B", "n_trials": "Galleries", "mean_diff": "Mean A − B (pp)",
                "sd_diff": "SD (pp)", "min_diff": "Min (pp)", "max_diff": "Max (pp)", "lo": "95 % CI low",
                "hi": "95 % CI high", "verdict": "A is"}


def ranker_table(summary: pd.DataFrame, paper_table: dict) -> pd.DataFrame:
    """``across_galleries.summary_table`` beside the paper's Table 2 means (``paper.TABLE2``)."""
    paper_mean = [paper_table.get(r, {}).get("mean") for r in summary["ranker"]]
    table = summary.assign(paper_mean=paper_mean)
    table["diff_pp"] = table["mean"] - table["paper_mean"]
    return table.drop(columns=["ranker", "n_trials"])


def paired(paired_table: pd.DataFrame) -> pd.DataFrame:
    """``across_galleries.paired_table`` with the two rankers of each pair by their labels."""
    return paired_table.assign(a=paired_table["a"].map(label), b=paired_table["b"].map(label))
TABLE3_HEADERS = {"label": "Ranker", "one": "One description", "two": "Two descriptions",
                  "diff": "Gain (pp)", "sd_diff": "SD of gain (pp)", "two_better": "Two better",
                  "same": "Same", "two_worse": "Two worse", "lo": "Gain: 95 % CI low", "hi": "Gain: 95 % CI high",
                  "verdict": "Two against one", "paper_one": "Paper: one",
                  "paper_two": "Paper: two", "paper_diff": "Paper: gain (pp)"}


def second_description_table(matched: pd.DataFrame, paper_table: dict) -> pd.DataFrame:
    """``across_galleries.matched_table`` beside the paper's Table 3 (``paper.TABLE3``)."""
    table = matched[["label", "one", "two", "diff", "lo", "hi", "verdict", "two_better", "same", "two_worse"]].copy()
    for col in ("one", "two", "diff"):
        table[f"paper_{col}"] = [paper_table.get(r, {}).get(col) for r in matched["ranker"]]
    return table


def two_readings(matched: pd.DataFrame, alt: pd.DataFrame, used: str,
                 other: str) -> tuple[pd.DataFrame, dict[str, str]]:
    """The matched tables of the two readings of the draws side by side, and their headers."""
    cols = ["ranker", "one", "two", "diff"]
    both = matched[cols[:1] + ["label"] + cols[1:]].merge(alt[cols], on="ranker", suffixes=("", f"_{other}"))
    headers = {"label": "Ranker"}
    for suffix, name in (("", used), (f"_{other}", other)):
        headers.update({f"one{suffix}": f"One ({name})", f"two{suffix}": f"Two ({name})",
                        f"diff{suffix}": f"Gain ({name}, pp)"})
    return both.drop(columns="ranker"), headers


# ------------------------------------------------------------------ chapter 04: the audit's tables
POLICY_HEADERS = {"label": "Ranker", "ranker": "Ranker", "strict": "Strict", "either": "Either label",
                  "primary": "Primary", "paper_strict": "Paper: strict", "paper_either": "Paper: either",
                  "paper_primary": "Paper: primary", "n_scored": "Scored queries", "paper": "Paper: primary"}
ERROR_KINDS = {  # kind: what the example shows, in the order the table shows them
    "no_shared_word": "every ranker misses it: it shares no content word with its task's indexed text",
    "opposite": "the opposite task is predicted (open ↔ close, put ↔ take, up ↔ down)",
    "outvoted": "every ranker misses it, though it shares words with its task's indexed text",
    "one_ranker": "one ranker misses it, the others get it right",
}


def scoring_policy_table(per_trial_table: pd.DataFrame, paper_table: dict) -> pd.DataFrame:
    """``across_galleries.policy_table`` beside the paper's Table 4 (``paper.TABLE4``)."""
    table = per_trial_table.copy()
    for policy in ("strict", "either", "primary"):
        table[f"paper_{policy}"] = [paper_table.get(r, {}).get(policy) for r in table["ranker"]]
    return table.rename_axis(columns=None)


def first_listed_table(per_trial: pd.DataFrame, rankers: list[str], stated: dict) -> pd.DataFrame:
    """The first-listed gallery per ranker: accuracy under each policy, scored queries, the paper's."""
    first = per_trial[per_trial["condition"] == "first_listed"]
    audit = first.pivot(index="ranker", columns="policy", values="accuracy")
    audit = audit.reindex(index=rankers, columns=["strict", "either", "primary"]).reset_index()
    scored = first[first["policy"] == "primary"].set_index("ranker")["n_queries"]
    audit["n_scored"] = [scored[r].item() for r in audit["ranker"]]
    audit["paper"] = [stated.get(r) for r in audit["ranker"]]
    return audit.rename_axis(columns=None)


def error_examples(errors: pd.DataFrame, gallery: dict[str, str], opposites: dict[str, str],
                   n_rankers: int) -> pd.DataFrame:
    """One wrong answer of the first-listed gallery per kind of :data:`ERROR_KINDS` (the shortest
    query of each kind), with the task's indexed text, what was predicted and by how many rankers.

    ``errors``: the wrong predictions (``ranker, text, task, predicted``); ``gallery``: task → its
    indexed text; ``opposites``: :func:`robotask.retrieval.perturbations.vocabulary.opposite_tasks`.
    """
    from ..reproduction.error_analysis import content_words

    by_query = errors.groupby(["text", "task"], sort=True).agg(
        missed_by=("ranker", lambda r: ", ".join(label(x) for x in r) if r.nunique() < n_rankers else "all"),
        n=("ranker", "nunique"), predicted=("predicted", lambda p: p.mode().iloc[0])).reset_index()
    own = by_query.apply(lambda r: len(content_words(r.text) & content_words(gallery[r.task])), axis=1)
    everyone = by_query["n"] == n_rankers
    kinds = {"no_shared_word": everyone & (own == 0),
             "opposite": by_query.apply(lambda r: opposites.get(r.task) == r.predicted, axis=1),
             "outvoted": everyone & (own > 0), "one_ranker": by_query["n"] == 1}
    rows, seen = [], set()
    for kind, mask in kinds.items():
        pool = by_query[mask & ~by_query["text"].isin(seen)]
        for r in pool.sort_values("text", key=lambda t: t.str.len(), kind="stable").head(1).itertuples():
            seen.add(r.text)
            rows.append({"kind": ERROR_KINDS[kind], "query": r.text, "task": r.task,
                         "indexed": gallery[r.task], "predicted": r.predicted, "missed_by": r.missed_by})
    return pd.DataFrame(rows, columns=["kind", "query", "task", "indexed", "predicted", "missed_by"])


ERROR_HEADERS = {"kind": "Kind of error", "query": "Query", "task": "Its task",
                 "indexed": "Its task's indexed text", "predicted": "Predicted", "missed_by": "Missed by"}


# ------------------------------------------------------------------ chapter 05: the report's tables
PAPER_PARTS = {"table2": "Table 2 (random galleries)", "table3": "Table 3 (second description)",
               "table4": "Table 4 (scoring policies)", "first_listed": "First-listed gallery",
               "paired": "Paired comparisons", "corpus": "Corpus", "settings": "Settings"}
OVERVIEW_HEADERS = {"stated": "Numbers stated", "compared": "Compared", "agree": "Equal at one decimal",
                    "within_1": "Within 1 unit", "mean_diff": "Mean ours − paper"}
LARGEST_HEADERS = {"key": "Number", "where": "Where in the paper", "diff": "Ours − paper"}
DENOMINATOR_HEADERS = {"key": "Number", "paper": "Paper (%)", "fitting_n": "Counts n that fit",
                       "fits_paper_234": "Fits the paper's", "fits_ours": "Fits ours"}
GAP_HEADERS = {"label": "Ranker", "ours": "Ours (%)", "paper": "Paper (%)", "diff": "Ours − paper (pp)",
               "se_of_diff": "SE of the difference (pp)", "diff_in_se": "Difference in SE",
               "lo": "95 % CI low", "hi": "95 % CI high", "verdict": "Ours is"}


def comparison_overview(comparison: pd.DataFrame) -> pd.DataFrame:
    """One row per part of the paper: how many numbers, how many compared and agree, the mean
    difference (``versus_paper.compare``). A number agrees when equal at the paper's one decimal."""
    frame = comparison.assign(source=comparison["key"].str.split(".").str[0])
    rows = []
    for source, grp in frame.groupby("source", sort=False):
        both = grp.dropna(subset=["ours"])
        rows.append({"numbers": PAPER_PARTS.get(source, source), "stated": len(grp), "compared": len(both),
                     "agree": int((both["diff"].abs() < 0.05).sum()),
                     "within_1": int((both["diff"].abs() <= 1.0).sum()),
                     "mean_diff": both["diff"].mean() if len(both) else float("nan")})
    return pd.DataFrame(rows)


def largest_differences(comparison: pd.DataFrame, n: int) -> pd.DataFrame:
    """The ``n`` compared numbers furthest from the paper's, largest first, named for a reader."""
    both = comparison.dropna(subset=["ours"])
    both = both[both["unit"] != "setting"]
    top = both.loc[both["diff"].abs().sort_values(ascending=False, kind="stable").index[:n]]
    return top.assign(key=[number_label(k, source=False) for k in top["key"]])


def ranker_labels(text: str) -> str:
    """Ranker ids outside quotes as their labels: "highest mean: char" → "highest mean: Char TF-IDF"."""
    ids = "|".join(sorted(map(re.escape, RANKERS), key=len, reverse=True))
    parts = re.split(r"('[^']*')", text)
    return "".join(p if p.startswith("'") else re.sub(rf"\b({ids})\b", lambda m: label(m.group(1)), p)
                   for p in parts)


def plain_lists(text: str) -> str:
    """Python list reprs inside a sentence as words: "['lamp_off', 'lamp_on']" → "lamp_off and lamp_on"."""
    def words(m: re.Match) -> str:
        items = re.findall(r"'([^']*)'|\"([^\"]*)\"|([^,\s][^,]*)", m.group(1))
        return join([next(x for x in item if x).strip() for item in items])

    return re.sub(r"\[([^\[\]]*)\]", words, text)


def claims_table(claims: pd.DataFrame) -> pd.DataFrame:
    """``versus_paper.check_claims`` for a reader: evidence with ranker labels and plain lists."""
    evidence = claims["evidence"].map(plain_lists).map(ranker_labels)
    return claims[["claim", "where", "reproduced", "evidence"]].assign(evidence=evidence)


def fits_counts(fitting: pd.Series, counts: set[int]) -> list[bool]:
    """Whether each "fitting_n" cell of ``paper.denominators`` ("229 232" or "none") holds a count."""
    return [f != "none" and bool(counts & set(map(int, f.split()))) for f in fitting]


def draw_gap(summary: pd.DataFrame, paper_table: dict, n_trials: int, paper_trials: int) -> pd.DataFrame:
    """Our Table 2 means against the paper's, in standard errors of the difference of the two means.

    The two means come from independent draws (``n_trials`` galleries of ours, ``paper_trials`` of the paper's),
    so the difference has the standard error √(SD²/n + SD_paper²/n_paper); ``lo``/``hi`` are its 95 % normal
    interval and ``verdict`` the word :func:`robotask.words.verdict` reads from it.
    """
    stats = summary.set_index("ranker")
    se_paper = pd.Series({r: paper_table[r]["sd"] / paper_trials ** 0.5 for r in stats.index})
    se = (stats["sd"] ** 2 / n_trials + se_paper ** 2) ** 0.5
    gap = pd.DataFrame({"label": stats["label"], "ours": stats["mean"],
                        "paper": [paper_table[r]["mean"] for r in stats.index]})
    gap["diff"] = gap["ours"] - gap["paper"]
    gap["se_of_diff"] = se
    gap["diff_in_se"] = gap["diff"] / se
    gap["lo"], gap["hi"] = gap["diff"] - 1.96 * se, gap["diff"] + 1.96 * se
    gap["verdict"] = [verdict(lo, hi) for lo, hi in zip(gap["lo"], gap["hi"])]
    return gap


def fingerprint_readings(alt: pd.DataFrame, stated: dict) -> list[str]:
    """The extraction readings whose first-listed gallery gives both of the paper's percentages."""
    hit = ((alt["fl_word_char"].round(1) == stated["word_char"]) & (alt["fl_char"].round(1) == stated["char"]))
    return list(alt.loc[hit, "corpus"])


def alternative_headers(columns) -> dict[str, str]:
    """Headers of the alternative-readings table: "Mean: Char TF-IDF", "First-listed: BM25"."""
    fixed = {"corpus": "Reading", "tasks": "Tasks", "descriptions": "Descriptions",
             "first_listed_scored": "First-listed: scored queries"}
    heads = {}
    for col in columns:
        if col in fixed:
            heads[col] = fixed[col]
        elif col.startswith(("fl_", "mean_")):
            kind, _, ranker = col.partition("_")
            heads[col] = f"{'First-listed' if kind == 'fl' else 'Mean'}: {label(ranker)}"
    return heads


def reading_names(readings) -> str:
    """Extraction readings as the table names them, joined; "none" when there are none."""
    names = [reading_label(r) for r in readings]
    return "; ".join(names) if names else "none"
NAMED_HEADERS = {"paper_says": "Paper: predicted", "ours": "Ours: predicted", "occurs": "Same error"}


def error_counts(errors: pd.DataFrame, n_rankers: int) -> pd.DataFrame:
    """Wrong answers per ranker, and how many of them every one of the ``n_rankers`` gets wrong."""
    shared = errors.groupby("text")["ranker"].transform("nunique") == n_rankers
    counts = errors.assign(shared=shared).groupby("ranker", sort=False).agg(
        errors=("text", "size"), shared_by_all=("shared", "sum")).reset_index()
    return counts.assign(ranker=counts["ranker"].map(label))


def named_errors(predictions: pd.DataFrame, named: tuple) -> pd.DataFrame:
    """The errors the paper names (``paper.NAMED_ERRORS``: ranker, query, predicted task) beside our
    prediction for the same query on the first-listed gallery."""
    rows = []
    for ranker, text, task in named:
        got = predictions.loc[(predictions["ranker"] == ranker) & (predictions["text"] == text), "predicted"]
        rows.append({"ranker": ranker, "query": text, "paper_says": task, "ours": got.iloc[0] if len(got) else None})
    frame = pd.DataFrame(rows)
    return frame.assign(occurs=frame["ours"] == frame["paper_says"])
