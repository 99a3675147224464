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
# # Attach confidence intervals and paired tests to the ranker comparison
#
# The paper reports gallery variability as percentiles and says, correctly, that these are not
# confidence intervals (section 3.2). This chapter adds what a reader needs to judge the orderings:
# a bootstrap interval of every mean accuracy, paired tests between every two rankers, and a verdict
# on each ordering the paper's Table 2 implies — on the same 80 galleries.
#
# - **Inputs:** the RLBench corpus (or `corpus_path`); the protocol of chapter 02 (same seed and draws).
# - **Outputs:** `intervals.csv`, `pairs.csv`, `claims.csv`, `summary.json` and the figure, in the output folder.

# %% tags=["parameters"]
seed: int = 413  # seed of the gallery draws and of the bootstrap (paper: 413)
n_trials: int = 80  # number of random one-description galleries (paper: 80)
rankers: list = [  # any subset of RANKERS
    "bm25", "word", "char", "word_char", "lsa", "minilm", "minilm_char",
]
n_bootstrap: int = 2000  # bootstrap replicates
n_permutations: int = 20000  # random sign patterns of the permutation test
alpha: float = 0.05  # family-wise level of the ordering verdicts (Holm over all pairs)
corpus_path: str = ""  # CSV with task and text columns; empty: the RLBench corpus
output_dir: str = ""  # where result files go; empty means _build/results/07_uncertainty

# %% tags=["show-input"]
import pandas as pd

from robotask import plots
from robotask.book import Page, glue_values, show_figure
from robotask.io import write_csv, write_json
from robotask.retrieval import presentation as rp
from robotask.retrieval import statistics as st
from robotask.retrieval.protocol import config_from_parameters, load_study_corpus, run_study
from robotask.retrieval.reproduction import PAIRED, TABLE2

plots.use_style()  # the book's figure style, for every figure of this chapter

page = Page("07_uncertainty")
out = page.output_dir(output_dir)
corpus = load_study_corpus(corpus_path, min_per_task=2)
config = config_from_parameters(
    seed=seed, n_trials=n_trials, n_matched_trials=0, rankers=rankers, save_all_predictions=True
)
result = run_study(corpus, config, parts=("primary",))
pq = st.per_query_from_predictions(result.predictions)
acc = 100 * st.trial_accuracy(pq)[rankers]
glue_values(**rp.uncertainty_run_values(pq, rankers, n_trials, seed, n_bootstrap, n_permutations,
                                           alpha))

# %% [markdown]
# **The run.** {glue:text}`n_rankers` rankers and {glue:text}`n_trials` galleries (seed
# {glue:text}`seed`): {glue:text}`n_queries` distinct query descriptions in {glue:text}`n_tasks`
# tasks give {glue:text}`n_scored` scored (gallery, query) pairs per ranker.
#
# ## The question
#
# The paper's Table 2 orders its rankers by mean accuracy over its galleries and gives the 5th and
# 95th percentiles of single galleries beside each mean. A reader who wants to know whether Char
# TF-IDF is *really* better than BM25 needs something else: how far the mean itself could move if
# the study were repeated, and whether a difference between two rankers is larger than that
# movement. Two things could change on a repeat: the galleries drawn (another seed), and the
# instructions themselves (another set of people writing RLBench's descriptions). This chapter
# puts a number on both and then asks, ordering by ordering, which of the paper's statements
# survive.
#
# ## Method
#
# **What varies.** A mean accuracy over galleries depends on two finite samples: the galleries that were
# drawn, and the descriptions RLBench happens to contain. The paper's percentiles describe the first
# only, as a spread, not as uncertainty of the mean.
#
# **{term}`Bootstrap <Bootstrap interval>` (percentile method).** Each of the {glue:text}`n_bootstrap`
# replicates
# 1. resamples the corpus descriptions **within each task** with replacement (a task with *n*
#    descriptions gets *n* draws); a description drawn *k* times counts *k* times as a query in every
#    gallery where it is held out — one resampled instruction set, shared by all galleries;
# 2. resamples the **galleries** (trials) with replacement;
# 3. recomputes every gallery's accuracy with those query weights and averages over the drawn galleries.
#
# The 95 % interval is the 2.5th–97.5th percentile of the replicates. All rankers share each replicate's
# draws, so the interval of a *difference* between rankers is paired. We also report the interval with
# only step 1 ("queries") or only step 2 ("galleries") to show which source dominates.
#
# **Paired tests over galleries.** For rankers A and B, *d* is the per-gallery accuracy difference.
# The *sign-flip permutation test* ({term}`permutation P-value`) compares |mean *d*| with its
# distribution when each *d* gets a random sign: if the two rankers were interchangeable, each
# gallery's difference would be as likely positive as negative. It enumerates every sign pattern
# exactly for at most 16 non-zero differences, otherwise draws {glue:text}`n_permutations` random
# patterns, with P = (1 + hits)/(1 + patterns). The *sign test* is the exact two-sided binomial test
# of wins against losses, ties dropped. Both treat galleries as the random unit for this fixed
# corpus; the bootstrap adds the description sample. P-values of the permutation test are
# Holm-adjusted over all pairs, because testing every pair of rankers at once would otherwise
# produce some small P-values by chance alone.
#
# **Verdict on an ordering "A > B".** *Supported* when the Holm-adjusted permutation P is below
# {glue:text}`alpha:g` **and** the paired bootstrap interval of A − B lies above zero; *contradicted*
# when both hold in the other direction; otherwise *not resolved*. The interval part is the book's
# one rule for deciding words, the same function every chapter calls (`robotask.words`): an
# interval of the paired difference that includes zero is "not resolved", whatever the gap
# between the two means. This chapter adds the permutation test on top because it tests every pair
# at once: Holm's correction keeps the chance of any false "supported" among all the pairs below
# the level, which an interval read pair by pair does not. Requiring both criteria asks the
# difference to be consistent across galleries *and* robust to the instruction sample.

# %% [markdown]
# ## Result: spread across galleries and intervals of the mean

# %%
spread = st.summary_table(result.per_trial)
ci, reps = st.bootstrap_table(pq, rankers, n_bootstrap, seed)
intervals = rp.with_widths(spread.merge(ci.drop(columns="mean"), on="ranker"))
page.show_table(intervals[rp.WIDTH_COLUMNS], headers=rp.INTERVAL_HEADERS,
                caption="Mean top-1 accuracy with bootstrap 95 % intervals, and the share from "
                        "queries and galleries.")

# %% tags=["remove-input"]
focus = rp.focus_values(intervals)  # Char TF-IDF, the row the next paragraph reads
glue_values(**{k: v for k, v in focus.items() if k not in ("width_min", "width_max")})

# %% [markdown]
# For {glue:text}`focus` the 95 % interval of the mean is
# **{glue:text}`focus_lo:.1f`–{glue:text}`focus_hi:.1f` %** (width {glue:text}`focus_width:.1f` pp).
# Resampling the galleries alone gives a width of {glue:text}`focus_width_galleries:.1f` pp,
# resampling the descriptions alone {glue:text}`focus_width_queries:.1f` pp: the uncertainty of the
# mean comes mainly from {glue:text}`focus_source`. The 5th–95th percentile spread
# ({glue:text}`focus_p5:.1f`–{glue:text}`focus_p95:.1f` %) describes single galleries, not the mean.
# {doc}`06_sentence_embeddings` prints the same intervals: it draws the same bootstrap replicates
# (same seed and number of replicates, and the weights do not depend on which rankers run), so a
# ranker's interval is one number on both pages. (A percentile interval from a finite number of
# replicates moves by a tenth of a point or so when that number changes, so the two pages must use
# the same one.)
#
# Why can the two sources differ? The galleries are the study's own choice, and averaging
# over many of them shrinks their share of the uncertainty; the descriptions are fixed by RLBench,
# and each task has only a handful, so a few easy or hard descriptions move every gallery at once.
# More galleries can shrink the first source but never the second: only more instructions can.

# %%
fig = rp.figure_means_with_intervals(intervals)
plots.save_figure(fig, out, "means_with_intervals")
show_figure(
    fig, "fig-means-intervals",
    "Mean top-1 accuracy (open dot), 95 % bootstrap interval of the mean (thick bar) and 5th–95th "
    f"percentile of single galleries (thin line) for each ranker over {n_trials} galleries.",
    "Interval chart, one row per ranker; interval widths range from "
    f"{intervals['width'].min():.1f} to {intervals['width'].max():.1f} percentage points.",
)
glue_values(width_min=focus["width_min"], width_max=focus["width_max"])

# %% [markdown]
# {numref}`fig-means-intervals` contrasts the two kinds of bar: the thin line is what one gallery can
# give, the thick one is where the mean is. The intervals of the mean are
# {glue:text}`width_min:.1f` to {glue:text}`width_max:.1f` pp wide across the rankers, so two
# rankers whose means differ by less than that cannot be told apart by their intervals alone. They
# can still be told apart by pairing, because both are scored on the same queries in the same
# galleries, which the next section does.
#
# ## Result: every pair of rankers

# %%
pairs = st.all_pairs(rankers)
comp = st.paired_comparisons(pq, pairs, n_bootstrap, seed, n_permutations, replicates=reps["both"])
shared = st.ranker_comparisons(pq, pairs, seed=seed, n_bootstrap=n_bootstrap)  # the book's one
comp[["lo", "hi"]] = shared[["low", "high"]].to_numpy()  # each pair's one interval, on every page
comp["pair"] = rp.pair_labels(comp)
columns = ["pair", "mean_diff", "lo", "hi", "wins", "ties", "losses", "p_sign", "p_perm",
           "p_perm_holm"]
page.show_table(st.format_p(comp[columns]), headers=rp.PAIRED_HEADERS,
                caption="Paired ranker differences with intervals and Holm-corrected P-values.")

# %% tags=["remove-input"]
glue_values(**rp.separation_values(comp, intervals, alpha, n_permutations))

# %% [markdown]
# Every interval of this chapter resamples the galleries and the descriptions together (the
# two-way bootstrap above), paired over rankers; chapters 02, 06 and 09.1 read the same interval for
# the same pair, computed once by `robotask.retrieval.statistics.ranker_comparisons`.
#
# Reading the table: each row is one pair A − B. *Mean difference* is the average over galleries of
# A's accuracy minus B's; the interval beside it is the paired bootstrap interval (both resamplings
# at once). *Wins*, *ties* and *losses* count galleries where A answers more, as many or fewer
# queries correctly. *P (sign test)* asks whether wins and losses could be a fair coin; *P
# (permutation)* asks the same of the signed differences, so it also weighs how large they are; *P
# (Holm)* is the permutation P-value after the correction for testing every pair at once.
#
# Pairs that differ by both criteria (Holm-adjusted permutation P below {glue:text}`alpha:g` and a
# paired bootstrap interval that excludes zero): **{glue:text}`n_sig` of {glue:text}`n_pairs`**.
# Pairs among them whose single-mean intervals overlap: {glue:text}`n_overlap_sig`. For such a
# pair the intervals of the previous section would call the difference unclear, while pairing
# resolves it.
#
# **Why the smallest P-values differ between columns and chapters.** A permutation P-value from
# random sign patterns is (1 + hits)/(1 + patterns): even when no random pattern reaches the observed
# difference, the observed pattern itself counts once, so P cannot fall below 1/(1 + patterns), here
# {glue:text}`p_floor:.1g`. (With at most 16 non-zero differences the test enumerates every pattern
# instead, and its floor is set by their number.) Chapter 06, *Sentence embeddings*, prints
# unadjusted P-values with the same floor. Holm's adjustment multiplies the smallest of the
# {glue:text}`n_pairs` P-values by their number, so the adjusted column cannot go below about
# {glue:text}`holm_floor:.1g`. A P-value at its floor says "smaller than any the test can
# resolve", not an exact probability; more patterns would lower the floor.
#
# ## Which of the paper's orderings hold here?
#
# Every ordering implied by the paper's Table 2 means (among the rankers the paper reports), judged
# on our run.

# %%
paper_means = {r: v["mean"] for r, v in TABLE2.items()}
orderings = st.paper_orderings(paper_means, rankers)
claims = st.ordering_verdicts(comp, orderings, alpha)
claims["paper_diff"] = [paper_means[a] - paper_means[b] for a, b in
                        (c.split(" > ") for c in claims["claim"])]
page.show_table(
    st.format_p(claims[["claim", "paper_diff", "mean_diff", "lo", "hi", "wins", "ties",
                                 "losses", "p_perm_holm", "verdict"]]).assign(
        claim=claims["claim"].map(rp.claim_label)),
    headers=rp.PAIRED_HEADERS,
    caption="The paper's ranking claims, tested on paired differences.")

# %% tags=["remove-input"]
glue_values(**rp.ordering_values(claims, PAIRED[("char", "bm25")], alpha))

# %% [markdown]
# Of the {glue:text}`n_claims` orderings, the verdict is *supported* for
# {glue:text}`n_supported` ({glue:text}`claims_supported`), *not resolved* for
# {glue:text}`n_not_resolved` ({glue:text}`claims_not_resolved`) and *contradicted* for
# {glue:text}`n_contradicted` ({glue:text}`claims_contradicted`). "Not resolved" is not a refutation:
# it says that this corpus and these galleries cannot tell the two rankers apart at the level used.
# The table gives the paper's difference for each ordering beside ours, to compare with the widths
# of the intervals above.
#
# The paper's strongest statement is Char TF-IDF over BM25 in {glue:text}`paper_wins` of
# {glue:text}`paper_galleries` galleries with {glue:text}`paper_ties`
# {cite:p}`yelamanchi2026reference`. Here{glue:text}`cb_ran` Char TF-IDF is ahead in {glue:text}`cb_wins`,
# level in {glue:text}`cb_ties` and behind in {glue:text}`cb_losses` of the galleries (sign test
# {glue:text}`cb_sign`); the Holm-adjusted permutation test gives {glue:text}`cb_holm` and the paired
# bootstrap interval runs from {glue:text}`cb_lo` to {glue:text}`cb_hi` pp: **{glue:text}`cb_agreement`**.
# The two criteria can disagree for a reason worth knowing: the permutation test treats the
# corpus as fixed and asks only whether the difference is consistent across galleries, while the
# bootstrap also resamples the instructions. A difference that every gallery shows but that rests
# on a few descriptions passes the first and fails the second.
#
# ## Per-gallery paired differences
#
# A comparison whose dots straddle zero depends on the draw.

# %%
key = st.pairs_among([("char", "bm25"), ("char", "word"), ("char", "word_char"), ("bm25", "word"),
                      ("word_char", "bm25"), ("bm25", "lsa"), ("minilm", "char"),
                      ("minilm", "minilm_char")], rankers)
fig = rp.figure_paired_differences(acc, key, seed)
plots.save_figure(fig, out, "paired_differences")
show_figure(
    fig, "fig-paired-differences",
    "Per-gallery accuracy difference of ranker pairs (dots, one per gallery) and their mean "
    "(black bar); the dashed line is zero.",
    f"Strip chart of {len(key)} ranker pairs, one row each, differences in percentage points.")

# %% [markdown]
# {numref}`fig-paired-differences` shows each pair gallery by gallery. A pair whose dots all sit on
# one side of zero is consistent across galleries, whatever its mean; a pair whose dots spread over
# both sides depends on which description happened to be indexed. The pairs shown are the paper's
# comparisons (Char TF-IDF against BM25, Word TF-IDF and Word+Char; Word+Char against BM25; BM25
# against Word TF-IDF and LSA) and the two embedding comparisons of chapter 06, as far as this run
# has their rankers. The sign test
# reads only which side of zero each dot is on; the permutation test also reads how far from zero
# the dots are, which is why the two can disagree for a pair whose few losses are large.
#
# ## What this chapter does not show
#
# - **Other tasks.** The bootstrap resamples RLBench's descriptions of *these* tasks: it says how
#   far the means could move with another set of instructions for the same tasks. How the rankers
#   do on other tasks and other libraries is a different question, which chapter 09.1, *Transfer*,
#   asks directly.
# - **Other protocols.** Every interval is conditional on the paper's protocol: one indexed
#   description per task, top-1 accuracy and primary scoring. A different protocol (chapter 04
#   compares the scoring policies) can change the means and so the verdicts.
# - **Practical size.** A supported ordering can rest on a difference of a point or less; whether
#   that matters for a robot is not a statistical question. The paired differences and their
#   intervals are in the table to judge it.
#
# ## What we found
#
# - **Intervals.** The 95 % bootstrap intervals of the mean are {glue:text}`width_min:.1f` to
#   {glue:text}`width_max:.1f` pp wide; for {glue:text}`focus` most of the width comes from
#   {glue:text}`focus_source`.
# - **Orderings.** Of the {glue:text}`n_claims` orderings implied by the paper's Table 2, supported
#   on this corpus: {glue:text}`n_supported`; not resolved: {glue:text}`n_not_resolved`;
#   contradicted: {glue:text}`n_contradicted`.
# - **Pairing.** Pairs that differ by both criteria although their single-mean intervals overlap:
#   {glue:text}`n_overlap_sig` of {glue:text}`n_pairs`. Pairing resolves them because both rankers
#   are scored on identical queries.

# %%
labels = {r: rp.label(r) for r in rankers}
rows = st.verdict_rows(shared, chapter="07_uncertainty", data=corpus_path or "RLBench-62",
                       claims={(a, b): f"{labels[a]} above {labels[b]}"
                               for a, b in (c.split(" > ") for c in claims["claim"])},
                       labels=labels)
write_csv(out / "verdicts.csv", pd.DataFrame(rows))
write_csv(out / "intervals.csv", intervals)
write_csv(out / "pairs.csv", comp)
write_csv(out / "claims.csv", claims)
write_json(out / "summary.json", {
    "n_trials": n_trials, "seed": seed, "n_bootstrap": n_bootstrap,
    "n_permutations": n_permutations, "alpha": alpha,
    "intervals": intervals.set_index("ranker").drop(columns="label").to_dict("index"),
    "claims": claims.to_dict(orient="records"),
    "files": ["claims.csv", "intervals.csv", "pairs.csv", "verdicts.csv"]})
assert (intervals["lo"] <= intervals["mean"] + 1e-9).all()
assert (intervals["mean"] <= intervals["hi"] + 1e-9).all()
assert comp["p_perm"].between(0, 1).all() and (comp["p_perm_holm"] >= comp["p_perm"] - 1e-12).all()
assert len(comp) == len(rankers) * (len(rankers) - 1) // 2
