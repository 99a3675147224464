"""Seen → unseen on RoboTwin: one seen template per task indexed, accuracy on the other seen and on the unseen
templates, and every template's outcome in every gallery (the templates are fixed sets, so the interval of
unseen − seen resamples them: :func:`robotask.retrieval.statistics.comparison_intervals.arm_comparison`)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from ..protocol.study import predict
from ..rankers.lexical import TextIndex
from ..rankers.registry import check_rankers, score


def seen_unseen(frame: pd.DataFrame, rankers: list[str], n_trials: int, seed: int,
                index: TextIndex | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per trial and ranker: one seen template per task indexed; accuracy (%) on the other seen and on the unseen;
    and per trial, ranker and queried template: ``arm`` (seen/unseen), ``query_id``, ``group`` (task and split,
    within which the templates are resampled) and ``correct``.

    ``frame`` has ``task``, ``text`` and ``split`` (``seen``/``unseen``); tasks need two seen texts.
    """
    rankers = check_rankers(list(rankers))
    seen = {t: g["text"].tolist() for t, g in frame[frame["split"] == "seen"].groupby("task", sort=True)}
    unseen = {t: g["text"].tolist() for t, g in frame[frame["split"] == "unseen"].groupby("task", sort=True)}
    tasks = [t for t in sorted(seen) if len(seen[t]) >= 2 and unseen.get(t)]
    rng = np.random.default_rng(seed)
    index = index or TextIndex(frame["text"].astype(str).tolist())  # each text tokenised and embedded once
    rows, outcomes = [], []
    with threadpool_limits(1):
        for trial in range(n_trials):
            gallery, q = [], {"seen": ([], [], []), "unseen": ([], [], [])}
            for j, t in enumerate(tasks):
                order = rng.permutation(len(seen[t]))
                gallery.append(seen[t][order[0]])
                for i in order[1:]:
                    _add(q["seen"], seen[t][i], j, f"{t}|seen|{i}")
                for i, text in enumerate(unseen[t]):
                    _add(q["unseen"], text, j, f"{t}|unseen|{i}")
            for name in rankers:
                for split, (texts, truth, ids) in q.items():
                    pred, _ = predict(score(name, gallery, texts, index=index), np.arange(len(tasks)), len(tasks))
                    ok = pred == np.asarray(truth)
                    rows.append((trial, name, split, 100.0 * float(np.mean(ok))))
                    outcomes += [(trial, name, split, i, i.rsplit("|", 1)[0], int(c)) for i, c in zip(ids, ok)]
    return (pd.DataFrame(rows, columns=["trial", "ranker", "queries", "accuracy"]),
            pd.DataFrame(outcomes, columns=["trial", "ranker", "arm", "query_id", "group", "correct"]))


def _add(queries: tuple[list, list, list], text: str, task: int, query_id: str) -> None:
    queries[0].append(text)
    queries[1].append(task)
    queries[2].append(query_id)
