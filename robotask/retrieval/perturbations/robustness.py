"""The perturbation study: original and perturbed queries scored in the same galleries, compared pairwise.

Used by notebook ``08_perturbations``. The perturbations themselves are
:mod:`robotask.retrieval.perturbations.transforms`; a perturbation that leaves a text unchanged marks it *not
applicable*, and accuracy changes are computed on the applicable queries only, against the same
queries unperturbed in the same galleries (paired).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from ...progress import tqdm
from ..protocol.draws import Corpus, design_rows, make_draws
from ..protocol.study import StudyConfig, predict
from ..rankers.lexical import TextIndex
from ..rankers.registry import check_rankers, score
from .robustness_stats import paired_outcomes, table_rows
from .transforms import check_perturbations, perturbed_texts
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
    corpus : robotask.retrieval.protocol.draws.Corpus
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

    The galleries are the primary draws of :func:`robotask.retrieval.protocol.draws.make_draws` (same seed,
    same trials as the five-ranker chapter); queries whose exact text belongs to several tasks are
    excluded (primary policy). Every query is scored unperturbed and under each perturbation in
    one ranker call per gallery.

    Parameters
    ----------
    corpus : the validated corpus.
    ranker_names : rankers from ``robotask.retrieval.rankers.registry.RANKERS``.
    names : perturbations from :data:`robotask.retrieval.perturbations.transforms.PERTURBATIONS`.
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
        from ..rankers import embedding

        embedding.embed(all_texts)  # every vector once, in one fixed batch order
    texts = np.asarray(corpus.texts, dtype=object)
    blocks = []
    with threadpool_limits(1):  # as run_study: small matrices, and the LSA bits do not depend on the cores
        for perms in tqdm(draws.primary, disable=not progress, desc="galleries", leave=False):
            blocks.append(_score_gallery(corpus, perms, texts, variants, names, ranker_names, params, index))
    return _per_query_frame(corpus, ranker_names, names, variants, blocks)


def _score_gallery(corpus: Corpus, perms: np.ndarray, texts: np.ndarray, variants: dict[str, list[str]],
                   names: list[str], ranker_names: list[str], params: dict | None, index: TextIndex
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Predictions of every ranker for the original and perturbed queries of one gallery draw."""
    g_rows, g_task, q_rows = design_rows(corpus, perms, 1, 1)
    q_rows = q_rows[~corpus.duplicate[q_rows]]
    gallery = texts[g_rows].tolist()
    queries = texts[q_rows].tolist() + [variants[n][i] for n in names for i in q_rows]
    preds = [predict(score(r, gallery, queries, params, index=index), g_task, len(corpus.tasks))[0]
             for r in ranker_names]
    return q_rows, np.stack(preds)


def _block_rows(q_rows: np.ndarray, preds: np.ndarray, n_names: int) -> dict[str, np.ndarray]:
    """Row layout of one gallery: ranker-major, then perturbation, then query (as ``PER_QUERY_COLUMNS``).

    ``preds`` holds, per ranker, the predictions of the original queries followed by those of each
    perturbation's queries.
    """
    n_rankers, n_q = len(preds), len(q_rows)
    base = preds[:, :n_q]
    return {"row": np.tile(q_rows, n_rankers * n_names),
            "ranker": np.repeat(np.arange(n_rankers), n_names * n_q),
            "name": np.tile(np.repeat(np.arange(n_names), n_q), n_rankers),
            "base": np.repeat(base[:, None, :], n_names, axis=1).ravel(),
            "pert": preds[:, n_q:n_q * (n_names + 1)].ravel()}


def _per_query_frame(corpus: Corpus, ranker_names: list[str], names: list[str], variants: dict[str, list[str]],
                     blocks: list[tuple[np.ndarray, np.ndarray]]) -> pd.DataFrame:
    """Per-query outcomes of every gallery (``blocks``: query rows and predictions per trial) in one frame."""
    parts = [_block_rows(q_rows, preds, len(names)) for q_rows, preds in blocks]
    at = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    trial = np.repeat(np.arange(len(parts), dtype=np.int64), [len(p["row"]) for p in parts])
    row, k, base, pp = at["row"], at["name"], at["base"], at["pert"]
    tasks = np.asarray(corpus.tasks, dtype=object)
    query_id = np.array([f"{corpus.tasks[j]}:{p}" for j, p in zip(corpus.task_of, corpus.positions)], dtype=object)
    gold = [perturbation_gold(corpus, n, np.array([a != b for a, b in zip(corpus.texts, variants[n])]))
            for n in names]
    g = np.stack([gd for gd, _ in gold])[k, row]
    truth = corpus.task_of[row]
    return pd.DataFrame({
        "trial": trial, "ranker": np.asarray(ranker_names, dtype=object)[at["ranker"]],
        "perturbation": np.asarray(names, dtype=object)[k], "task": tasks[truth],
        "position": corpus.positions[row], "query_id": query_id[row],
        "text": np.asarray(corpus.texts, dtype=object)[row],
        "perturbed": np.array([variants[n] for n in names], dtype=object)[k, row],
        "applicable": np.stack([ev for _, ev in gold])[k, row], "gold": tasks[g],
        "predicted_original": tasks[base], "predicted_perturbed": tasks[pp],
        "correct_original": base == truth, "correct_perturbed": pp == g, "stays_source": pp == truth,
    })[PER_QUERY_COLUMNS]


def perturbation_table(per_query: pd.DataFrame, n_bootstrap: int = 1000, seed: int = StudyConfig.seed,
                       n_permutations: int = 20000) -> pd.DataFrame:
    """Per ranker and perturbation: coverage, accuracy before/after, paired change with interval and test.

    Accuracies are means over trials of the per-trial accuracy on the applicable queries (percent).
    The interval of the change is the percentile bootstrap of :mod:`robotask.retrieval.statistics.bootstrap`
    (descriptions resampled within tasks and galleries resampled, shared by both arms); the P-value
    is the sign-flip permutation test over trials. The numbers are those of
    :func:`robotask.retrieval.statistics.uncertainty.paired_comparisons` on the original and perturbed outcomes
    stacked as pseudo-rankers, computed on arrays (:mod:`robotask.retrieval.perturbations.robustness_stats`).

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
    outcomes = paired_outcomes(per_query)
    return pd.DataFrame(table_rows(outcomes, n_bootstrap, seed, n_permutations))


def no_opposite_stay_rate(per_query: pd.DataFrame) -> pd.Series:
    """Direction swaps on tasks without an opposite task: percent of predictions still naming the source task."""
    sub = per_query[(per_query["perturbation"] == "direction_swap") & ~per_query["applicable"]
                    & (per_query["text"] != per_query["perturbed"])]
    return 100 * sub.groupby("ranker", sort=False)["stays_source"].mean()


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def _overlap(text: str, others: list[str]) -> float:
    """Mean word Jaccard similarity of ``text`` with each of ``others`` (NaN when there are none)."""
    w = _words(text)
    sims = [len(w & _words(o)) / max(len(w | _words(o)), 1) for o in others]
    return float(np.mean(sims)) if sims else float("nan")


def swap_overlap(corpus: Corpus, per_query: pd.DataFrame) -> dict[str, float]:
    """How much a direction-swapped query resembles its new gold task, against the original query and its own task.

    For every applicable swapped query: the mean word Jaccard similarity of the original text with the *other*
    descriptions of its own task (``original``), and of the swapped text with the descriptions of the opposite
    task (``swapped``); ``share_closer`` is the percent of queries whose swapped text is the closer of the two.
    The swap maps several verbs (*close*, *shut*, *closed*) onto one (*open*), often the verb every
    description of the opposite task uses, which can make a swapped query easier to place than the original.
    """
    rows = per_query[(per_query["perturbation"] == "direction_swap") & per_query["applicable"]]
    rows = rows.drop_duplicates("query_id")
    by_task: dict[str, list[str]] = {}
    for text, j in zip(corpus.texts, corpus.task_of):
        by_task.setdefault(corpus.tasks[j], []).append(text)
    if rows.empty:
        return {"original": float("nan"), "swapped": float("nan"), "share_closer": float("nan"), "n": 0}
    own = np.array([_overlap(r.text, [t for t in by_task[r.task] if t != r.text] or by_task[r.task])
                    for r in rows.itertuples()])
    swapped = np.array([_overlap(r.perturbed, by_task[r.gold]) for r in rows.itertuples()])
    return {"original": float(np.nanmean(own)), "swapped": float(np.nanmean(swapped)),
            "share_closer": float(100 * np.mean(swapped > own)), "n": len(rows)}


def swap_by_task(per_query: pd.DataFrame, ranker: str) -> pd.DataFrame:
    """Direction swaps, per source task, for one ranker: queries, percent finding the source task unperturbed,
    percent following the swap to the opposite task, and the change (pp), largest gain first."""
    rows = per_query[(per_query["perturbation"] == "direction_swap") & per_query["applicable"]
                     & (per_query["ranker"] == ranker)]
    table = rows.groupby("task").agg(opposite=("gold", "first"), queries=("query_id", "nunique"),
                                     original=("correct_original", "mean"), swapped=("correct_perturbed", "mean"))
    table[["original", "swapped"]] *= 100
    table["change"] = table["swapped"] - table["original"]
    return table.sort_values("change", ascending=False).reset_index()
