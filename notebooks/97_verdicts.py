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
# # Index every verdict the book states
#
# A word that decides ("higher", "behind", "not resolved") is written in this book only over
# an interval of a paired difference. Each chapter writes the verdicts it states, one row each,
# with the difference, its interval, the unit resampled and the method; this page gathers them
# all, groups them by the page that reads them, and checks that one comparison has one set of
# numbers wherever it is stated.
#
# - **Inputs:** every chapter's `verdicts.csv` in the results folder of this build (and chapter 15's
#   `comparisons.csv`, read in the same columns).
# - **Outputs:** `verdicts.csv` of every row, in the results folder of the build and in this page's
#   own; `inconsistent.csv` (the rows of any comparison stated with two sets of numbers);
#   `summary.json`.

# %% tags=["parameters"]
results_root: str = ""  # folder of the chapters results (empty: the results folder of this build)
strict: bool = True  # fail when one comparison has two sets of numbers (else a visible note)
output_dir: str = ""  # result folder (empty: _build/results/97_verdicts)

# %% tags=["remove-input"]
import pandas as pd

from robotask import paths, plots
from robotask.book import (Page, glue_values, inconsistent_verdicts, page_link, read_verdicts,
                           show_md)
from robotask.io import write_csv, write_json
from robotask.words import VERDICT_COLUMNS, count

plots.use_style()
page = Page("97_verdicts")
out = page.output_dir(output_dir)
root = paths.resolve(results_root) if results_root else paths.results_dir()

# %% [markdown]
# ## Every verdict, read once
#
# The rows come from each chapter's result folder, in the columns `chapter, claim, a, b, data,
# metric, difference, low, high, unit, n_units, method, verdict`: the claim is the comparison
# A − B, on the data named, by the metric named, with its interval [low, high] over `n_units`
# resampled units. The index is written to `verdicts.csv` at the root of the results folder, beside
# the chapters' folders, and to this page's folder.

# %%
rows = read_verdicts(root, skip=(page.chapter_id,))  # in the book's order of chapters
write_csv(root / "verdicts.csv", rows)
write_csv(out / "verdicts.csv", rows)
by_verdict = rows["verdict"].value_counts()
n_comparisons = len(rows.drop_duplicates(["a", "b", "data", "metric"]))
glue_values(n_rows=count(len(rows), "verdict"), n_pages=count(rows["chapter"].nunique(), "page"),
            n_comparisons=count(n_comparisons, "comparison"),
            n_unresolved=int(by_verdict.get("not resolved", 0)))

# %% [markdown]
# This build states {glue:text}`n_rows:s` on {glue:text}`n_pages:s`, over
# {glue:text}`n_comparisons:s` (one comparison is one A, B, data and metric);
# {glue:text}`n_unresolved` of them read "not resolved", the interval including zero. The table
# counts each page's verdicts by word; a page that states none is not listed.

# %%
counts = pd.crosstab(rows["chapter"], rows["verdict"]).reindex(list(dict.fromkeys(rows["chapter"])))
by_word = [", ".join(f"{word} {n}" for word, n in row.items() if n) for _, row in counts.iterrows()]
table = pd.DataFrame({"Page": counts.index, "Verdicts": counts.sum(axis=1).to_numpy(),
                      "By word": by_word})
long = "one row per page that states a verdict" if len(table) > 60 else None
page.show_table(table, long_reason=long,
                caption="Verdicts per page, and how many of them read each word (a word the page "
                "never states is left out).")

# %% [markdown]
# ## How a word is decided, and over what
#
# Every row reads the same rule, `robotask.words.verdict`: the word says which way the difference
# A − B goes only when its whole 95 % interval lies on one side of zero; otherwise it is *not
# resolved*. What differs from page to page is what the interval resamples, and that is chosen by
# what varies in the claim:
#
# - **Retrieval (chapters 02–09.2):** galleries and descriptions together (a two-way bootstrap,
#   paired over rankers), because a claim about a ranker is a claim about other wordings of the same
#   tasks as much as about other galleries; fixed template sets resample their templates.
# - **Retrieval beside a policy (chapter 09.3):** its ten tasks, and the paraphrases within each
#   drawn task, in a studentised (bootstrap-t) interval, because paraphrases of one task share its
#   scene and its difficulty; Holm's correction where a leader or a signal is read from a family.
# - **The task pages (12.x):** blocks of consecutive test windows, because neighbouring windows
#   overlap and their errors are alike; each head is set against the task's strongest baseline.
# - **Chapter 14:** folds, held-out groups and learning-curve draws whose training sets overlap,
#   with the corrected resampled t of Nadeau and Bengio, and Holm's correction where a section
#   reads many tests.
# - **Chapter 15:** blocks of consecutive windows on the one real episode, whole episodes on the
#   fourteen.
#
# A page that names a leader ("the most accurate", "the largest drop") decides it from the leader
# minus the runner-up, never from two separate intervals.

# %% [markdown]
# ## One comparison, one set of numbers
#
# The same A, B, data and metric must have the same difference and interval on every row (B against
# A counts as A against B with its signs turned): a comparison is computed once and read
# everywhere. The check below lists every row of a comparison that breaks this, numbered by
# comparison.

# %%
bad = inconsistent_verdicts(rows)
write_csv(out / "inconsistent.csv", bad)
includes_zero = ~(rows["low"] > 0) & ~(rows["high"] < 0)  # a missing end includes it too
misread = rows[includes_zero != (rows["verdict"] == "not resolved")]
glue_values(n_bad=count(int(bad["comparison"].max()) if len(bad) else 0, "comparison"),
            n_misread=count(len(misread), "row"))
if len(bad):
    columns = ["comparison", "chapter", "a", "b", "data", "metric", "difference", "low", "high",
               "verdict"]
    page.show_table(bad[columns], digits=3,
                    long_reason="every row of each comparison stated with two sets of numbers"
                    if len(bad) > 60 else None,
                    caption="Comparisons stated with different numbers on different rows.")
if len(bad) and not strict:
    show_md("**Note.** This build ran with `strict` off (the smoke set does): the rows above are "
            "reported here and not treated as a failure.")

# %% [markdown]
# {glue:text}`n_bad:s` of this build break the rule. At the study's scale the page fails when one
# does; at the smoke scale, where chapters run with fewer draws each and so compute one comparison
# on different draws, it shows them under a note instead. A second check reads each row's word
# against its own interval: "not resolved" exactly when the interval includes zero. Here
# {glue:text}`n_misread:s` break it.
#
# ## The verdicts, page by page
#
# Each page's verdicts, linked to the page that reads them; the difference and its interval are in
# the metric's unit, and the method line names what was resampled.

# %%
shown = ["claim", "a", "b", "data", "metric", "difference", "low", "high", "n_units", "verdict"]
for chapter, part in rows.groupby("chapter", sort=False):
    words = ", ".join(f"{n} {w}" for w, n in part["verdict"].value_counts().items())
    methods = "; ".join(f"{m} (unit: {u})" for m, u in part[["method", "unit"]].drop_duplicates()
                        .itertuples(index=False))
    stated = count(len(part), "verdict")
    show_md(f"**{page_link(chapter)}**: {stated} ({words}). Method: {methods}.")
    page.show_table(part[shown], digits=3, headers={"n_units": "Units", "a": "A", "b": "B"},
                    long_reason="every verdict this page states" if len(part) > 60 else None)

# %% [markdown]
# ## What we found
#
# The book states {glue:text}`n_rows:s` on {glue:text}`n_pages:s`, and {glue:text}`n_bad:s` of its
# comparisons are stated with two sets of numbers. `verdicts.csv` holds every row, for a reader who
# wants to check a word against its interval.

# %% tags=["remove-input"]
n_bad = int(bad["comparison"].max()) if len(bad) else 0
write_json(out / "summary.json", {"rows": len(rows), "pages": int(rows["chapter"].nunique()),
                                  "verdicts": {str(k): int(v) for k, v in by_verdict.items()},
                                  "inconsistent_comparisons": n_bad, "misread_rows": len(misread),
                                  "files": ["verdicts.csv", "inconsistent.csv", "summary.json"]})
assert list(rows.columns) == list(VERDICT_COLUMNS)
assert not (strict and len(bad)), f"{len(bad)} rows state one comparison with different numbers"
