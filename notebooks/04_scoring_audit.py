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
# # Audit the scoring: duplicate descriptions and the first-listed gallery
#
# Two checks on how the headline numbers are scored (paper sections 4, 6 and 7.1, Table 4). First,
# does the treatment of the one description that two tasks share change the comparison? Second,
# what does the single deterministic gallery of each task's first-listed description give, and
# which errors remain there?
#
# - **Inputs:** the RLBench corpus or any CSV with `task` and `text` columns.
# - **Outputs:** `per_trial.csv` (all three policies), `predictions.csv` (every query of the
#   first-listed gallery, per ranker), `first_listed_errors.csv`, `draws.csv` and `summary.json`.

# %% tags=["parameters"]
seed: int = 413  # NumPy generator seed of the gallery draws (paper: 413)
n_trials: int = 80  # number of random one-description galleries (paper: 80)
n_matched_trials: int = 30  # matched trials: the draws then match chapter 03 (paper: 30)
rankers: list = ["bm25", "word", "char", "word_char", "lsa"]  # the five of the paper and any others
bm25_k1: float = 1.2  # BM25 term-frequency saturation
bm25_b: float = 0.75  # BM25 length normalisation
char_ngram_min: int = 3  # shortest within-word character n-gram
char_ngram_max: int = 5  # longest within-word character n-gram
lsa_dims: int = 32  # LSA components (at most the gallery TF-IDF rank)
corpus_path: str = ""  # CSV with task and text columns; empty: the RLBench corpus
output_dir: str = ""  # where result files go; empty: _build/results/<chapter>
matched_draws: str = "continue"  # continue the generator after the first draws, or "reuse"
save_all_predictions: bool = False  # also write per-query predictions of every trial

# %% tags=["remove-input"]
from robotask import io
from robotask.book import Page, glue_values
from robotask.io import write_json
from robotask.retrieval import presentation as rp
from robotask.retrieval.perturbations import opposite_tasks
from robotask.retrieval.protocol import load_study_corpus, run_study, study_config
from robotask.retrieval.rankers import PAPER_RANKERS
from robotask.retrieval.reproduction import FIRST_LISTED, NAMED_ERRORS, TABLE4
from robotask.retrieval.statistics import exclusion_counts, policy_table, summary_table

page = Page("04_scoring_audit")
out = page.output_dir(output_dir)

# %% [markdown]
# The audit is the study with `parts=("primary", "audit")`; the predictions hold every query of the
# first-listed gallery.

# %% tags=["show-input"]
corpus = load_study_corpus(corpus_path, min_per_task=2)
config = study_config(globals())  # every study setting of the parameters cell
assert set(PAPER_RANKERS) <= set(config.rankers), (
    f"parameter 'rankers' must hold the paper's {PAPER_RANKERS}")
result = run_study(corpus, config, parts=("primary", "audit"))
files = result.write(out)
per_trial, predictions = result.per_trial, result.predictions

# %% tags=["remove-input"]
duplicates = corpus.frame().query("duplicate")
excluded = exclusion_counts(per_trial)
counts = rp.duplicate_count_values(corpus, duplicates, excluded)  # glued part by part
glue_values(**{k: counts.pop(k) for k in ("n_texts", "n_tasks", "n_dup_texts", "n_dup_rows")})

# %% [markdown]
# ## The duplicated description
#
# The data is the RLBench corpus of {doc}`01_extract_corpus`, {glue:text}`n_texts` descriptions
# of {glue:text}`n_tasks` tasks (or the corpus `corpus_path` names).
# A query whose exact text is a description of several tasks cannot be given a unique gold label
# from the text alone. In this corpus {glue:text}`n_dup_texts` text occurs under more than one
# task, in {glue:text}`n_dup_rows` corpus rows (the table); only these rows are affected by how
# duplicates are scored. (A corpus without a duplicated text shows 0 here, and then the three
# policies below agree by construction.)

# %% tags=["remove-input"]
page.show_table(duplicates.drop(columns="duplicate"), digits=0,
                caption="Description texts listed under more than one task.")
glue_values(**{k: counts.pop(k) for k in ("per_draw", "n_draws")})

# %% [markdown]
# ## Three scoring policies
#
# The paper's headline numbers drop these queries. A sceptical reader may ask whether that choice
# flatters one ranker: a ranker that happens to send the shared text to the "wrong" owner loses
# under strict scoring and not under the primary policy. Scoring the same draws under all three
# policies answers the question directly. The three policies treat such queries as follows:
#
# - **primary (duplicates removed,
#   {term}`accuracy on unambiguous queries`):** they are excluded from the score of the draw;
# - **{term}`strict <Strict scoring>`:** they are kept and only the label of the task file they
#   came from counts;
# - **{term}`either label <Either-label scoring>`:** they are kept and any task that owns the text
#   counts as correct.
#
# Everything else is as in {doc}`02_five_rankers`: the same draws, rankers and tie rule. A copy of
# the shared text is a query only when it is not the indexed description of its task, so the
# primary policy excludes a different number of queries from draw to draw: {glue:text}`per_draw`
# (of {glue:text}`n_draws` draws). The table gives the mean top-1 accuracy over the random
# galleries under each policy, beside the paper's Table 4 {cite:p}`yelamanchi2026reference`.

# %% tags=["remove-input"]
table4_ours = rp.scoring_policy_table(policy_table(per_trial), TABLE4)
page.show_table(table4_ours.drop(columns="ranker"), digits=1, headers=rp.POLICY_HEADERS,
                caption="Top-1 accuracy under each scoring policy, beside the paper's Table 4.")
policies = table4_ours.set_index("ranker")[["strict", "either", "primary"]]
glue_values(**counts, **rp.scoring_policy_values(policies))  # counts: n_queries and bound

# %% [markdown]
# Does the treatment of the duplicate change the paper's central comparison? Char TF-IDF minus
# BM25 is {glue:text}`gap_strict:+.1f` pp under strict scoring, {glue:text}`gap_either:+.1f` pp
# under either-label scoring and {glue:text}`gap_primary:+.1f` pp under the primary policy: the gap
# {glue:text}`gap_sign` across the three policies. Over all rankers the policy moves a mean by at
# most {glue:text}`max_shift:.1f` pp, and the order of the rankers is {glue:text}`order_same`
# under all three. That is what one should expect: the copies of the shared text are at most
# {glue:text}`n_dup_rows` of the {glue:text}`n_queries` queries of a gallery, so no policy can
# move an accuracy by more than about {glue:text}`bound:.1f` points.
#
# How to read the table: each row is one ranker, scored on the same draws three times. Only the
# copies of the shared text are scored differently from one column to the next, so the difference
# between two columns of a row is the whole effect of the policy on that ranker. Either-label
# scoring can never fall below strict scoring, because a query that strict scoring counts right
# is right under either label too; the chapter checks this for every ranker before it ends.
#
# ## The first-listed gallery
#
# The audit gallery is deterministic: each task is represented by its first description in
# source order (position 0) and the rest are queries, scored under the same three policies. It is
# the one gallery for which the paper reports per-query errors, and the one a reader can rebuild
# without a random generator.

# %% tags=["remove-input"]
audit = rp.first_listed_table(per_trial, list(config.rankers), FIRST_LISTED)
page.show_table(audit.assign(ranker=audit["ranker"].map(rp.label)), digits=1,
                headers=rp.POLICY_HEADERS,
                caption="The first-listed gallery: accuracy per policy, beside the paper's (%).")
fl = audit.set_index("ranker")
summary = summary_table(per_trial).set_index("ranker")
glue_values(n_trials=n_trials, **rp.first_listed_values(fl, summary, FIRST_LISTED))

# %% [markdown]
# On this one gallery, over {glue:text}`fl_n` scored queries, Word+Char scores
# {glue:text}`fl_wc:.1f` % and Char TF-IDF {glue:text}`fl_c:.1f` % (paper:
# {glue:text}`paper_wc:.1f` % and {glue:text}`paper_c:.1f` %). Averaged over the
# {glue:text}`n_trials` random galleries the order of the two is {glue:text}`fl_order`: Word+Char
# {glue:text}`mean_wc:.1f` %, Char TF-IDF {glue:text}`mean_c:.1f` %. The first-listed accuracy lies
# inside the range of the random galleries for {glue:text}`n_inside`: it is one draw among many,
# and one draw can order two close methods differently from their averages.

# %% tags=["remove-input"]
first = corpus.frame().sort_values("position").groupby("task")["text"].first().to_dict()
fl_pred = predictions[predictions["condition"] == "first_listed"]
dup_pred = fl_pred[fl_pred["duplicate"]][["ranker", "task", "text", "predicted"]]
page.show_table(dup_pred.assign(ranker=dup_pred["ranker"].map(rp.label)),
                headers={"task": "Its task", "text": "Query", "predicted": "Predicted"},
                caption="The copies of the duplicated text on the first-listed gallery.")
facts = rp.duplicate_values(dup_pred, fl, first)
glue_values(premise=rp.premise(facts.pop("applies")), **facts)

# %% [markdown]
# ### Why strict equals either-label scoring here
#
# The explanation below rests on a premise that the data checks: neither copy indexed, no ranker
# predicting an owner. In this run the premise {glue:text}`premise`.
#
# On the first-listed gallery, strict and either-label accuracy are {glue:text}`strict_either` for
# every ranker. This follows from the data, and the table above shows it. Neither copy of
# “{glue:text}`dup_text`” is listed first in its task ({glue:text}`dup_owners`), so both copies
# are queries and the gallery holds the owners' first descriptions, {glue:text}`owners_text`. The
# two copies are the same string, so every ranker gives both the same prediction. If that
# prediction were one of the owners, strict scoring would count one copy right and either-label
# scoring both, and the two policies would differ by one query. But {glue:text}`n_hit` predicts
# an owner: every ranker sends the query to {glue:text}`dup_predicted`, whose indexed text
# “{glue:text}`dup_predicted_text`” shares the content words *{glue:text}`guess_words`* with it,
# while the owners' texts share only *{glue:text}`owner_words`*. Both copies are wrong under both
# policies, so the policies agree. In a random gallery an owner may index another description, and
# there the policies can differ.
#
# ## Residual errors on the first-listed gallery
#
# Which queries does no training-free ranker get right, and why? The first table counts each
# ranker's wrong answers on the first-listed gallery (primary policy) and how many of them every
# ranker gets wrong; the full list is in `first_listed_errors.csv`.

# %% tags=["remove-input"]
errors = fl_pred[~fl_pred["duplicate"] & ~fl_pred["correct"]]
io.write_csv(out / "first_listed_errors.csv", errors)
n_rankers = len(config.rankers)
page.show_table(rp.error_counts(errors, n_rankers), digits=0,
                caption="Wrong answers per ranker, and how many every ranker gets wrong.")
page.show_table(rp.error_examples(errors, first, opposite_tasks(corpus.tasks), n_rankers),
                headers=rp.ERROR_HEADERS, caption="One wrong answer of each kind on the "
                "first-listed gallery (the most common prediction when several rankers miss it).")
per_text = errors.groupby("text")["ranker"].nunique()  # how many rankers miss each query
glue_values(n_shared=int((per_text == n_rankers).sum()), n_rankers=n_rankers,
            n_error_queries=errors["text"].nunique())

# %% [markdown]
# {glue:text}`n_shared` queries are missed by all {glue:text}`n_rankers` rankers, out of
# {glue:text}`n_error_queries` that at least one ranker misses. The second table shows one example
# of each kind of error, chosen by rule (the shortest query of each kind) rather than by hand:
#
# - A query that shares **no content word** with its task's indexed text (a paraphrase by
#   synonym) is out of reach of every lexical ranker: no shared term links the two, and character
#   n-grams help only where the words share a stem.
# - A query sent to the **opposite task** (open ↔ close, put ↔ take) matches the object words of
#   both tasks; the one word that tells them apart is a direction word that the indexed text of
#   its own task may not use. {doc}`08_perturbations` swaps direction words on purpose.
# - A query that shares words with its own text can still be **outvoted**: a generic verb such as
#   *open* or *get* occurs in many tasks' texts, and when the query's distinctive word is not in
#   the gallery, another task's text that shares the generic words wins the tie or the weighting.
# - An error of **one ranker only**, which the others get right, comes from how that ranker
#   represents text (whole words and word pairs, character pieces, or latent dimensions), not from
#   the query itself.
#
# What could make this reading wrong? These are the errors of one gallery: a query that every
# ranker misses here may be found in a gallery that indexes another description of its task. And
# the example of each kind is the shortest query of that kind, chosen to illustrate it; the table
# does not say how common each kind is. The counts per ranker in the first table, and the full
# list in `first_listed_errors.csv`, are the measure of how many errors there are.

# %% tags=["remove-input"]
named = rp.named_errors(fl_pred, NAMED_ERRORS)
page.show_table(named.assign(ranker=named["ranker"].map(rp.label)), headers=rp.NAMED_HEADERS,
                caption="The errors the paper names, and what our rankers predict for them.")
glue_values(n_named=len(named), named_occur=int(named["occurs"].sum()))

# %% [markdown]
# Of the {glue:text}`n_named` residual errors the paper names for this gallery,
# {glue:text}`named_occur` recur in our run with the same wrong prediction (the table). An error
# that recurs in an independent reimplementation belongs to the query and the
# gallery, not to one implementation.
#
# How to read the table: each row is one error the paper names for one ranker, with the task the
# paper says that ranker predicts and the task ours predicts for the same query on the same
# gallery. An error that does not recur is not a fault of either implementation: the paper's
# corpus is not exactly ours ({doc}`05_reproduction_report` compares them), and where two tasks
# score almost alike for a query, a small difference in the indexed texts can turn the prediction.
#
# ## What we found
#
# - The duplicate treatment moves a ranker's mean by at most {glue:text}`max_shift:.1f` pp, and the
#   order of the rankers is {glue:text}`order_same` under all three policies.
# - On the first-listed gallery strict and either-label scoring are {glue:text}`strict_either`,
#   because every ranker sends both copies of the shared text to a third task.
# - The first-listed gallery's accuracy lies inside the range of the random galleries for
#   {glue:text}`n_inside`; as one draw among many it can order two close methods differently from
#   their averages.
# - Of the paper's {glue:text}`n_named` named residual errors, {glue:text}`named_occur` recur on
#   our audit gallery;
#   {glue:text}`n_shared` of its queries defeat every ranker.

# %% tags=["remove-input"]
write_json(out / "summary.json", {
    "duplicates": duplicates["text"].unique().tolist(), "excluded_per_draw": excluded.to_dict(),
    "table4": policies.to_dict(orient="index"),
    "first_listed": fl[["strict", "either", "primary", "n_scored"]].to_dict(orient="index"),
    "named_errors": named.to_dict(orient="records"),
    "files": sorted([p.name for p in files.values()] + ["first_listed_errors.csv"])})
assert (table4_ours["either"] >= table4_ours["strict"] - 1e-12).all()
assert excluded.index.max() <= len(duplicates)
