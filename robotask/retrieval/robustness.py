"""The perturbation study: original and perturbed queries scored in the same galleries, compared pairwise.

Used by notebook ``08_perturbations``. The perturbations themselves are
:mod:`robotask.retrieval.transforms`; a perturbation that leaves a text unchanged marks it *not
applicable*, and accuracy changes are computed on the applicable queries only, against the same
queries unperturbed in the same galleries (paired).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from ..progress import tqdm
from .bootstrap import trial_accuracy
from .draws import Corpus, design_rows, make_draws
from .lexical import TextIndex
from .registry import check_rankers, score
from .study import StudyConfig, predict
from .transforms import check_perturbations, perturbed_texts
from .uncertainty import paired_comparisons
from .vocabulary import opposite_tasks

PER_QUERY_COLUMNS = ["trial", "ranker", "perturbation", "task", "position", "query_id", "text", "perturbed",
                     "applicable", "gold", "predicted_original", "predicted_perturbed", "correct_original",
                     "correct_perturbed", "stays_source"]


def perturbation_gold(corpus: Corpus, name: str, changed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Gold task index of every corpus row after perturbation ``name``, and whether the row is evaluated.

    For ``direction_swap`` the gold label becomes the opposite task and only changed rows of tasks
    that have an opposite are evaluated; for every other perturbation the gold label is the source
    task and every changed row is evaluated.

    Parameters
    ----------
    corpus : robotask.retrieval.draws.Corpus
        The validated corpus.
    name : str
        Perturbation name.
    changed : numpy.ndarray
        Boolean per corpus row: the perturbation changed the text.
    """
    gold = corpus.task_of.copy()
    if name != "direction_swap":
        return gold, changed.copy()
    index = {t: j for j, t in enumerate(corpus.tasks)}
    opposite = {index[a]: index[b] for a, b in opposite_tasks(corpus.tasks).items()}
    has_opp = np.array([j in opposite for j in corpus.task_of])
    gold = np.array([opposite.get(int(j), int(j)) for j in corpus.task_of])
    return gold, changed & has_opp


def run_perturbations(corpus: Corpus, ranker_names: Sequence[str], names: Sequence[str],
                      seed: int = StudyConfig.seed, n_trials: int = StudyConfig.n_trials, perturb_seed: int = 0,
                      params: dict | None = None, progress: bool = False) -> pd.DataFrame:
    """Score original and perturbed held-out queries in the same one-description galleries.

    The galleries are the primary draws of :func:`robotask.retrieval.draws.make_draws` (same seed,
    same trials as the five-ranker chapter); queries whose exact text belongs to several tasks are
    excluded (primary policy). Every query is scored unperturbed and under each perturbation in
    one ranker call per gallery.

    Parameters
    ----------
    corpus : the validated corpus.
    ranker_names : rankers from ``robotask.retrieval.registry.RANKERS``.
    names : perturbations from :data:`robotask.retrieval.transforms.PERTURBATIONS`.
    seed, n_trials : draw seed and number of galleries (paper: 413 and 80).
    perturb_seed : seed of the seeded perturbations (spelling, inflection form).
    params : ranker settings (default: the paper's).
    progress : show a tqdm bar over galleries.

    Returns
    -------
    pandas.DataFrame
        One row per (trial, ranker, perturbation, query) with :data:`PER_QUERY_COLUMNS`.
    """
    ranker_names = check_rankers(list(ranker_names))
    names = check_perturbations(names)
    draws = make_draws(corpus, seed, n_trials, 0)
    variants = perturbed_texts(corpus.texts, names, perturb_seed)
    all_texts = list(corpus.texts) + [t for name in names for t in variants[name]]
    index = TextIndex(all_texts)
    if any(r.startswith("minilm") for r in ranker_names):
        from . import embedding

        embedding.embed(all_texts)  # every vector once, in one fixed batch order
    texts = np.asarray(corpus.texts, dtype=object)
    gold = {}
    for name in names:
        changed = np.array([a != b for a, b in zip(corpus.texts, variants[name])])
        gold[name] = perturbation_gold(corpus, name, changed)
    frames = []
    for trial, perms in enumerate(tqdm(draws.primary, disable=not progress, desc="galleries", leave=False)):
        g_rows, g_task, q_rows = design_rows(corpus, perms, 1, 1)
        q_rows = q_rows[~corpus.duplicate[q_rows]]
        queries = texts[q_rows].tolist() + [variants[n][i] for n in names for i in q_rows]
        for ranker in ranker_names:
            sim = score(ranker, texts[g_rows].tolist(), queries, params, index=index)
            pred, _ = predict(sim, g_task, len(corpus.tasks))
            base = pred[:len(q_rows)]
            for k, name in enumerate(names):
                pp = pred[len(q_rows) * (k + 1): len(q_rows) * (k + 2)]
                frames.append(_query_frame(corpus, q_rows, variants[name], gold[name], base, pp).assign(
                    trial=trial, ranker=ranker, perturbation=name))
    return pd.concat(frames, ignore_index=True)[PER_QUERY_COLUMNS]


def _query_frame(corpus: Corpus, q_rows: np.ndarray, variant: list[str], gold: tuple[np.ndarray, np.ndarray],
                 base: np.ndarray, pp: np.ndarray) -> pd.DataFrame:
    """Per-query outcomes of one gallery, ranker and perturbation (without the trial/ranker/name columns)."""
    g, evaluated = gold
    truth = corpus.task_of[q_rows]
    return pd.DataFrame({
        "task": [corpus.tasks[j] for j in truth],
        "position": corpus.positions[q_rows],
        "query_id": [f"{corpus.tasks[j]}:{p}" for j, p in zip(truth, corpus.positions[q_rows])],
        "text": np.asarray(corpus.texts, dtype=object)[q_rows], "perturbed": [variant[i] for i in q_rows],
        "applicable": evaluated[q_rows], "gold": [corpus.tasks[j] for j in g[q_rows]],
        "predicted_original": [corpus.tasks[j] for j in base],
        "predicted_perturbed": [corpus.tasks[j] for j in pp],
        "correct_original": base == truth,
        "correct_perturbed": pp == g[q_rows],
        "stays_source": pp == truth,
    })


def _paired_frame(per_query: pd.DataFrame) -> pd.DataFrame:
    """Stack original and perturbed outcomes as pseudo-rankers ``<ranker>|<perturbation>|orig/pert``."""
    sub = per_query[per_query["applicable"]]
    parts = []
    for column, tag in (("correct_original", "orig"), ("correct_perturbed", "pert")):
        part = sub[["trial", "task", "query_id"]].copy()
        part["ranker"] = sub["ranker"] + "|" + sub["perturbation"] + "|" + tag
        part["correct"] = sub[column].astype(int)
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def perturbation_table(per_query: pd.DataFrame, n_bootstrap: int = 1000, seed: int = StudyConfig.seed,
                       n_permutations: int = 20000) -> pd.DataFrame:
    """Per ranker and perturbation: coverage, accuracy before/after, paired change with interval and test.

    Accuracies are means over trials of the per-trial accuracy on the applicable queries (percent).
    The interval of the change is the percentile bootstrap of :mod:`robotask.retrieval.bootstrap`
    (descriptions resampled within tasks and galleries resampled, shared by both arms); the P-value
    is the sign-flip permutation test over trials.

    Parameters
    ----------
    per_query : pandas.DataFrame
        Output of :func:`run_perturbations`.
    n_bootstrap, seed, n_permutations : int
        Bootstrap replicates, seed, and permutations.

    Returns
    -------
    pandas.DataFrame
        ``ranker, perturbation, n_per_trial, original, perturbed, change, lo, hi, p_perm,
        wins, ties, losses`` (wins = trials where the perturbed accuracy is higher) and
        ``stays_source`` (percent of perturbed predictions still naming the source task).
    """
    stacked = _paired_frame(per_query)
    pairs = [(f"{r}|{p}|pert", f"{r}|{p}|orig")
             for r in per_query["ranker"].unique() for p in per_query["perturbation"].unique()]
    pairs = [pq for pq in pairs if (stacked["ranker"] == pq[0]).any()]
    comp = paired_comparisons(stacked, pairs, n_bootstrap, seed, n_permutations)
    acc = trial_accuracy(stacked)
    app = per_query[per_query["applicable"]]
    stays = app.groupby(["ranker", "perturbation", "trial"])["stays_source"].mean().groupby(
        ["ranker", "perturbation"]).mean()
    counts = app.groupby(["ranker", "perturbation", "trial"]).size().groupby(["ranker", "perturbation"]).mean()
    rows = []
    for _, c in comp.iterrows():
        ranker, pert, _ = c["a"].split("|")
        rows.append({"ranker": ranker, "perturbation": pert, "n_per_trial": counts[(ranker, pert)],
                     "original": 100 * acc[c["b"]].mean(), "perturbed": 100 * acc[c["a"]].mean(),
                     "change": c["mean_diff"], "lo": c["lo"], "hi": c["hi"], "p_perm": c["p_perm"],
                     "wins": c["wins"], "ties": c["ties"], "losses": c["losses"],
                     "stays_source": 100 * stays[(ranker, pert)]})
    return pd.DataFrame(rows)


def no_opposite_stay_rate(per_query: pd.DataFrame) -> pd.Series:
    """Direction swaps on tasks without an opposite task: percent of predictions still naming the source task."""
    sub = per_query[(per_query["perturbation"] == "direction_swap") & ~per_query["applicable"]
                    & (per_query["text"] != per_query["perturbed"])]
    return 100 * sub.groupby("ranker", sort=False)["stays_source"].mean()
