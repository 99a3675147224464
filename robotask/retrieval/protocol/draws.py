"""The validated corpus of a study and its gallery draws.

One *draw* is, for every task in sorted task-id order, a permutation of that task's
descriptions (``rng.permutation(n_task)`` from one ``np.random.default_rng(seed)``). A design
puts the first ``k`` shuffled descriptions of each task in the gallery and uses those from
shuffled position ``query_from`` on as queries (the designs are listed in
:mod:`robotask.retrieval.protocol.study`).

Used by :mod:`robotask.retrieval.protocol.study`, the perturbation study and the chapters' analyses.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ... import paths
from ...errors import RobotaskError
from ...words import named
from ..rankers.normalise import normalise_all
from .corpus_file import read_corpus_file, too_few

MATCHED_DRAWS = ("continue", "reuse")


@dataclass(frozen=True)
class Corpus:
    """A validated instruction corpus in (task, position) order.

    ``texts[i]`` belongs to task ``tasks[task_of[i]]``; task j's rows are
    ``starts[j] : starts[j] + sizes[j]``; ``owners[i]`` is the boolean row over tasks that
    contain the text ``texts[i]`` (compared in its normal form, :mod:`robotask.retrieval.rankers.normalise`;
    ``texts`` are kept as authored).
    """

    tasks: list[str]
    texts: list[str]
    positions: np.ndarray
    task_of: np.ndarray
    starts: np.ndarray
    sizes: np.ndarray
    owners: np.ndarray

    @functools.cached_property
    def duplicate(self) -> np.ndarray:
        """Rows whose text (in its normal form) occurs under more than one task (computed once, read-only)."""
        dup = self.owners.sum(axis=1) > 1
        dup.flags.writeable = False
        return dup

    def frame(self) -> pd.DataFrame:
        """The corpus as a DataFrame (task, position, text, duplicate)."""
        return pd.DataFrame({"task": [self.tasks[j] for j in self.task_of], "position": self.positions,
                             "text": self.texts, "duplicate": self.duplicate})


def check_corpus(frame: pd.DataFrame, min_per_task: int = 2, where: str = "corpus") -> Corpus:
    """Validate a corpus DataFrame (columns ``task``, ``text``, optional ``position``) into a :class:`Corpus`.

    Parameters
    ----------
    frame : one row per description.
    min_per_task : fewest descriptions a task may have (2 for the one-description study, 3 for
        the matched study).
    where : the file or parameter the corpus came from, for error messages.
    """
    missing = [c for c in ("task", "text") if c not in frame.columns]
    if missing:
        raise RobotaskError(f"{where}: missing {named('column', missing)}; expected at least 'task' and 'text' "
                            f"(found: {', '.join(map(str, frame.columns)) or 'none'})")
    if len(frame) == 0:
        raise RobotaskError(f"{where}: the corpus is empty; expected at least one description per task")
    frame = frame.copy()
    if frame["task"].isna().any() or frame["text"].isna().any():
        raise RobotaskError(f"{where}: empty 'task' or 'text' cells; every row needs both")
    frame["task"] = frame["task"].astype(str)
    frame["text"] = frame["text"].astype(str)
    if "position" not in frame.columns:
        frame["position"] = frame.groupby("task", sort=False).cumcount()
    frame = frame.sort_values(["task", "position"], kind="stable").reset_index(drop=True)
    sizes = frame.groupby("task", sort=True).size()
    n_small, listed = too_few(frame, min_per_task)
    if n_small:
        raise RobotaskError(f"{where}: every task needs at least {min_per_task} descriptions for this design; "
                            f"too few: {listed}")
    tasks = sorted(sizes.index)
    task_index = {t: j for j, t in enumerate(tasks)}
    task_of = frame["task"].map(task_index).to_numpy(np.int64)
    texts = frame["text"].tolist()
    owners = np.zeros((len(texts), len(tasks)), dtype=bool)
    same = normalise_all(texts)  # one text in two Unicode forms is one text
    by_text: dict[str, set[int]] = {}
    for text, j in zip(same, task_of):
        by_text.setdefault(text, set()).add(int(j))
    for i, text in enumerate(same):
        owners[i, sorted(by_text[text])] = True
    size_arr = sizes.loc[tasks].to_numpy(np.int64)
    starts = np.concatenate([[0], np.cumsum(size_arr)[:-1]]).astype(np.int64)
    return Corpus(tasks, texts, frame["position"].to_numpy(np.int64), task_of, starts, size_arr, owners)


def load_study_corpus(corpus_path: str = "", min_per_task: int = 2, label: str = "task",
                      keep_repeats: bool = False) -> Corpus:
    """Load the committed RLBench corpus (``corpus_path=""``) or any corpus file a user brings.

    Parameters
    ----------
    corpus_path : CSV or YAML file read by :func:`robotask.retrieval.protocol.corpus_file.read_corpus_file`;
        "" = ``data/rlbench/corpus.csv``.
    min_per_task : fewest descriptions per task the design needs.
    label : ``task`` or ``variation`` (``<task>:<variation>``, for corpora with a variation column).
    keep_repeats : keep a text repeated within a task instead of raising.

    One rule for repeated texts: a corpus the study ships (a file under the repository's ``data/``)
    is read as its source authored it, repeats kept, whether it is the default or named; a corpus a
    user brings raises on a repeated text unless ``keep_repeats``.
    """
    if not corpus_path:
        corpus_path = "data/rlbench/corpus.csv"
    keep_repeats = keep_repeats or paths.resolve(corpus_path).resolve().is_relative_to(paths.DATA.resolve())
    frame = read_corpus_file(corpus_path, label, min_texts=min_per_task, keep_repeats=keep_repeats)
    return check_corpus(frame, min_per_task, str(corpus_path))


# --------------------------------------------------------------------------- draws
def draw_permutations(sizes: np.ndarray, n_trials: int, rng: np.random.Generator) -> list[list[np.ndarray]]:
    """``n_trials`` draws: per trial, per task in sorted order, ``rng.permutation(n_task)``.

    Parameters
    ----------
    sizes : descriptions per task, in sorted task order.
    n_trials : number of draws.
    rng : the generator (advanced in place).
    """
    return [[rng.permutation(int(n)) for n in sizes] for _ in range(n_trials)]


@dataclass(frozen=True)
class Draws:
    """The permutations of the primary and the matched study."""

    primary: list[list[np.ndarray]]
    matched: list[list[np.ndarray]]
    matched_draws: str


def make_draws(corpus: Corpus, seed: int, n_trials: int, n_matched_trials: int,
               matched_draws: str = MATCHED_DRAWS[0]) -> Draws:
    """Draw the primary permutations and the matched ones from one generator.

    Parameters
    ----------
    corpus : the validated corpus.
    seed : ``np.random.default_rng`` seed (paper: 413).
    n_trials : primary trials (paper: 80).
    n_matched_trials : matched trials (paper: 30).
    matched_draws : 'continue' = the matched draws follow the primary ones on the same generator;
        'reuse' = the matched study reuses the first ``n_matched_trials`` primary draws.
    """
    for name, value in (("n_trials", n_trials), ("n_matched_trials", n_matched_trials)):
        if not isinstance(value, (int, np.integer)) or value < 0:
            raise RobotaskError(f"{name} = {value!r}: expected a non-negative integer")
    if matched_draws not in MATCHED_DRAWS:
        raise RobotaskError(f"matched_draws = {matched_draws!r}: expected one of {', '.join(MATCHED_DRAWS)}")
    rng = np.random.default_rng(seed)
    primary = draw_permutations(corpus.sizes, n_trials, rng)
    if matched_draws == "continue":
        matched = draw_permutations(corpus.sizes, n_matched_trials, rng)
    else:
        if n_matched_trials > n_trials:
            raise RobotaskError(f"matched_draws='reuse' needs n_matched_trials ({n_matched_trials}) "
                                f"<= n_trials ({n_trials})")
        matched = primary[:n_matched_trials]
    return Draws(primary, matched, matched_draws)


def design_rows(corpus: Corpus, perms: list[np.ndarray] | None, k: int, query_from: int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Gallery rows, their task indices, and query rows of one draw (``perms=None`` = source order).

    Parameters
    ----------
    corpus : the validated corpus.
    perms : one permutation per task, or None for the first-listed (source-order) gallery.
    k : gallery descriptions per task.
    query_from : first shuffled position (0-based) used as a query.
    """
    gallery, g_task, queries = [], [], []
    for j, (start, n) in enumerate(zip(corpus.starts, corpus.sizes)):
        order = start + (np.arange(n) if perms is None else perms[j])
        gallery.append(order[:k])
        g_task.append(np.full(min(k, n), j))
        queries.append(order[query_from:])
    return np.concatenate(gallery), np.concatenate(g_task), np.concatenate(queries)
