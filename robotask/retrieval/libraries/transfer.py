"""Does the paper's ranking transfer? The same protocol on four instruction libraries (chapter ``09_transfer``).

The libraries (:data:`LIBRARIES`): the paper's corpus (``data/rlbench/corpus.csv``), every RLBench
task file at task level and at variation level (``data/rlbench/full/corpus.csv``), and CALVIN's
language annotations (``data/calvin/corpus.csv``). Each is run with one
:class:`~robotask.retrieval.protocol.study.StudyConfig`: the one-description galleries on the whole library,
and the matched one- versus two-description study on its labels with at least three texts (the
matched draws follow the primary ones on the same generator, as in chapter ``03``). One function
per step; the tables for the chapter are in :mod:`robotask.retrieval.libraries.transfer_tables`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from ..protocol.corpus_file import read_corpus_file
from ..protocol.draws import Corpus, check_corpus, design_rows
from ..protocol.study import StudyConfig, StudyResult, predict, run_study
from ..rankers.registry import score
from ..statistics.bootstrap import per_query_from_predictions


@dataclass(frozen=True)
class LibrarySpec:
    """Where a library comes from and how its texts are labelled."""

    key: str
    title: str
    path: str
    label: str  # "task" or "variation"
    keep_repeats: bool  # keep a text the source lists twice within a label, as authored


LIBRARIES: dict[str, LibrarySpec] = {s.key: s for s in (
    LibrarySpec("rlbench62", "RLBench-62", "data/rlbench/corpus.csv", "task", True),
    LibrarySpec("rlbench_task", "RLBench-full (tasks)", "data/rlbench/full/corpus.csv", "task", False),
    LibrarySpec("rlbench_variation", "RLBench-full (variations)", "data/rlbench/full/corpus.csv", "variation", True),
    LibrarySpec("calvin", "CALVIN", "data/calvin/corpus.csv", "task", False),
)}
COLOURS = frozenset("red maroon lime green blue navy yellow cyan magenta silver gray grey orange olive purple "
                    "teal azure violet rose black white pink".split())
OPPOSITES = (("open", "close"), ("on", "off"), ("up", "down"), ("left", "right"), ("in", "out"),
             ("plug", "unplug"), ("push", "pull"), ("put", "take"), ("lift", "lower"), ("insert", "remove"))
CATEGORIES = ("direction", "colour", "count", "other variation", "other task")
"""Kinds of confusion: the labels differ in a pair of opposite words (:data:`OPPOSITES`), only in colours, only in
numbers, are
two variations of one task that differ otherwise, or are different tasks."""


@dataclass
class Library:
    """A validated library: its corpus, and per label its source task and its words."""

    spec: LibrarySpec
    corpus: Corpus
    source: dict[str, str]  # label -> RLBench/CALVIN task id
    words: dict[str, frozenset[str]]  # label -> words of the task id and variation values


def _words(*parts: str) -> frozenset[str]:
    return frozenset(w for p in parts for w in re.split(r"[_|\s:]+", str(p).lower()) if w)


def load_library(key: str) -> Library:
    """Read library ``key`` of :data:`LIBRARIES` (validated, see :mod:`robotask.retrieval.protocol.corpus_file`)."""
    spec = LIBRARIES[key]
    frame = read_corpus_file(spec.path, spec.label, keep_repeats=spec.keep_repeats)
    corpus = check_corpus(frame, 2, spec.path)
    labels = frame.drop_duplicates("task")
    source = dict(zip(labels["task"], labels["source_task"] if "source_task" in labels else labels["task"]))
    value = labels["variation_value"] if spec.label == "variation" else pd.Series("", index=labels.index)
    words = {t: _words(source[t], v) for t, v in zip(labels["task"], value)}
    return Library(spec, corpus, source, words)


def one_word_neighbours(corpus: Corpus) -> np.ndarray:
    """Per text: does a text of another label have the same words but one (same length, one word swapped)?"""
    owners: dict[tuple, set[int]] = {}
    keys = []
    for text, j in zip(corpus.texts, corpus.task_of):
        tokens = text.lower().split()
        mine = [tuple(tokens[:i] + ["\0"] + tokens[i + 1:]) for i in range(len(tokens))]
        keys.append(mine)
        for key in mine:
            owners.setdefault(key, set()).add(int(j))
    return np.array([any(owners[k] - {int(j)} for k in mine) for mine, j in zip(keys, corpus.task_of)])


def overview(libraries: dict[str, Library]) -> pd.DataFrame:
    """One row per library: labels, texts, texts per label, queries per gallery, shared and near-identical texts."""
    rows = []
    for lib in libraries.values():
        c = lib.corpus
        rows.append({"Library": lib.spec.title, "Labels": len(c.tasks), "Texts": len(c.texts),
                     "Texts per label": f"{int(c.sizes.min())}–{int(c.sizes.max())} (median {np.median(c.sizes):g})",
                     "Queries per gallery": len(c.texts) - len(c.tasks),
                     "Texts under several labels": int(c.duplicate.sum()),
                     "One word from another label (%)": 100.0 * one_word_neighbours(c).mean()})
    return pd.DataFrame(rows)


def category(lib: Library, truth: str, predicted: str) -> str:
    """The kind of confusion (one of :data:`CATEGORIES`) of predicting ``predicted`` for ``truth``."""
    mine, theirs = lib.words[truth] - lib.words[predicted], lib.words[predicted] - lib.words[truth]
    if any({a, b} <= mine | theirs and not {a, b} <= mine and not {a, b} <= theirs for a, b in OPPOSITES):
        return "direction"
    if mine and theirs and (mine | theirs) <= COLOURS:
        return "colour"
    if mine and theirs and all(w.isdigit() for w in mine | theirs):
        return "count"
    return "other variation" if lib.source[truth] == lib.source[predicted] else "other task"


@dataclass
class LibraryRun:
    """What the chapter keeps of one library's run (the per-query predictions are summarised, not kept)."""

    library: Library
    per_trial: pd.DataFrame  # conditions one, matched_one, matched_two
    matched_labels: int  # labels with at least three texts (the matched study's)
    errors: pd.DataFrame  # ranker, category, errors (over all primary trials)
    task_right: pd.Series  # per ranker: share of wrong predictions that name the right source task (%)
    examples: pd.DataFrame  # errors of example_ranker in the first gallery (check with verify_examples)
    example_ranker: str
    gallery: dict[str, str]  # label -> its indexed text in the first gallery
    per_query: pd.DataFrame | None = None  # primary outcome of every gallery x query x ranker (the intervals')
    matched_predictions: pd.DataFrame | None = None  # the matched study's per-query predictions (its intervals')


def error_counts(lib: Library, predictions: pd.DataFrame) -> tuple[pd.DataFrame, pd.Series]:
    """Wrong primary predictions per ranker and :func:`category`; share naming the right source task."""
    wrong = predictions[~predictions["correct"] & ~predictions["duplicate"]]
    pairs = wrong.groupby(["ranker", "task", "predicted"], sort=False).size().rename("errors").reset_index()
    pairs["category"] = [category(lib, t, p) for t, p in zip(pairs["task"], pairs["predicted"])]
    pairs["same_task"] = [lib.source[t] == lib.source[p] for t, p in zip(pairs["task"], pairs["predicted"])]
    counts = pairs.groupby(["ranker", "category"], sort=False)["errors"].sum().reset_index()
    same = pairs[pairs["same_task"]].groupby("ranker", sort=False)["errors"].sum()
    total = pairs.groupby("ranker", sort=False)["errors"].sum()
    return counts, (100.0 * same.reindex(total.index, fill_value=0) / total).rename("task_right")


def first_gallery(lib: Library, result: StudyResult) -> dict[str, str]:
    """The text indexed for each label in the first one-description gallery."""
    g_rows, _, _ = design_rows(lib.corpus, result.draws.primary[0], 1, 1)
    return {t: lib.corpus.texts[g_rows[j]] for j, t in enumerate(lib.corpus.tasks)}


def error_examples(lib: Library, result: StudyResult, ranker: str, per_category: int = 2) -> pd.DataFrame:
    """Up to ``per_category`` wrong predictions of ``ranker`` per category in the first gallery, with
    the indexed texts of the true and the predicted label (in task and position order)."""
    p = result.predictions
    sel = p[(p["trial"] == 0) & (p["ranker"] == ranker) & ~p["correct"] & ~p["duplicate"]].copy()
    indexed = first_gallery(lib, result)
    sel["category"] = [category(lib, t, q) for t, q in zip(sel["task"], sel["predicted"])]
    sel = sel.sort_values(["task", "position"], kind="stable").groupby("category", sort=False).head(per_category)
    sel["order"] = [CATEGORIES.index(c) for c in sel["category"]]
    sel = sel.sort_values(["order", "task", "position"], kind="stable")
    return pd.DataFrame({"category": sel["category"], "query": sel["text"], "truth": sel["task"],
                         "truth_indexed": sel["task"].map(indexed), "predicted": sel["predicted"],
                         "predicted_indexed": sel["predicted"].map(indexed)}).reset_index(drop=True)


def verify_examples(run: LibraryRun, config: StudyConfig) -> bool:
    """Re-score each example query against the whole first gallery and check the prediction it shows."""
    if run.examples.empty:
        return True
    labels = run.library.corpus.tasks
    sim = score(run.example_ranker, [run.gallery[t] for t in labels], run.examples["query"].tolist(), config.params)
    pred, _ = predict(sim, np.arange(len(labels)), len(labels))
    return [labels[j] for j in pred] == run.examples["predicted"].tolist()


def matched_subset(corpus: Corpus, min_texts: int = 3) -> Corpus:
    """The labels with at least ``min_texts`` texts (the matched study indexes two, queries the third on)."""
    frame = corpus.frame()
    keep = frame.groupby("task")["text"].transform("size") >= min_texts
    return check_corpus(frame[keep].drop(columns="duplicate"), min_texts)


def run_library(lib: Library, config: StudyConfig, n_examples: int = 2, progress: bool = False) -> LibraryRun:
    """The primary study (per-query predictions summarised) and the matched study on ≥ 3-text labels."""
    primary = run_study(lib.corpus, replace(config, save_all_predictions=True), parts=("primary",),
                        progress=progress)
    errors, task_right = error_counts(lib, primary.predictions)
    ranker = "char" if "char" in config.rankers else config.rankers[0]
    examples = error_examples(lib, primary, ranker, n_examples)
    subset = matched_subset(lib.corpus)
    matched = run_study(subset, replace(config, save_all_predictions=True), parts=("matched",), progress=progress)
    per_trial = pd.concat([primary.per_trial, matched.per_trial], ignore_index=True)
    return LibraryRun(lib, per_trial, len(subset.tasks), errors, task_right, examples, ranker,
                      first_gallery(lib, primary), per_query_from_predictions(primary.predictions),
                      matched.predictions[["condition", "trial", "ranker", "task", "position", "duplicate", "correct"]])


def run_transfer(keys: list[str], config: StudyConfig, n_examples: int = 2,
                 progress: bool = False) -> dict[str, LibraryRun]:
    """Load and run every library in ``keys`` (keys of :data:`LIBRARIES`) with the same settings."""
    from ...errors import RobotaskError

    unknown = [k for k in keys if k not in LIBRARIES]
    if unknown or not keys:
        raise RobotaskError(f"libraries: unknown {', '.join(map(repr, unknown)) or 'none given'}; "
                            f"expected some of {', '.join(LIBRARIES)}")
    return {k: run_library(load_library(k), config, n_examples, progress) for k in keys}


def lsa_components(lib: Library, config: StudyConfig, dims: tuple[int, ...] = (32, 128, 512)) -> pd.DataFrame:
    """LSA with ``dims`` components, and word TF-IDF, on the first one-description gallery of ``lib``: top-1
    accuracy (%, primary policy) and the share (%) of answers naming the right source task (the task file)."""
    from ..protocol.draws import draw_permutations

    c = lib.corpus
    g_rows, g_task, q_rows = design_rows(c, draw_permutations(c.sizes, 1, np.random.default_rng(config.seed))[0], 1, 1)
    q_rows = q_rows[~c.duplicate[q_rows]]
    texts = np.asarray(c.texts, dtype=object)
    gallery, queries, truth = texts[g_rows].tolist(), texts[q_rows].tolist(), c.task_of[q_rows]
    src = np.array([lib.source[t] for t in c.tasks], dtype=object)
    rows = []
    for name, params in [("lsa", {**config.params, "lsa_dims": d}) for d in dims] + [("word", config.params)]:
        pred, _ = predict(score(name, gallery, queries, params), g_task, len(c.tasks))
        rows.append({"ranker": name, "components": params["lsa_dims"] if name == "lsa" else None,
                     "accuracy": 100.0 * float(np.mean(pred == truth)),
                     "right_task_file": 100.0 * float(np.mean(src[pred] == src[truth]))})
    return pd.DataFrame(rows)
