"""Seen → unseen on RoboTwin: one seen template per task indexed, accuracy on the other seen and on the unseen
templates."""

from __future__ import annotations

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from ..protocol.study import predict
from ..rankers.lexical import TextIndex
from ..rankers.registry import check_rankers, score


def seen_unseen(frame: pd.DataFrame, rankers: list[str], n_trials: int, seed: int,
                index: TextIndex | None = None) -> pd.DataFrame:
    """Per trial and ranker: one seen template per task indexed; accuracy (%) on the other seen and on the unseen.

    ``frame`` has ``task``, ``text`` and ``split`` (``seen``/``unseen``); tasks need two seen texts.
    """
    rankers = check_rankers(list(rankers))
    seen = {t: g["text"].tolist() for t, g in frame[frame["split"] == "seen"].groupby("task", sort=True)}
    unseen = {t: g["text"].tolist() for t, g in frame[frame["split"] == "unseen"].groupby("task", sort=True)}
    tasks = [t for t in sorted(seen) if len(seen[t]) >= 2 and unseen.get(t)]
    rng = np.random.default_rng(seed)
    index = index or TextIndex(frame["text"].astype(str).tolist())  # each text tokenised and embedded once
    rows = []
    with threadpool_limits(1):
        for trial in range(n_trials):
            gallery, q = [], {"seen": ([], []), "unseen": ([], [])}
            for j, t in enumerate(tasks):
                order = rng.permutation(len(seen[t]))
                gallery.append(seen[t][order[0]])
                for i in order[1:]:
                    q["seen"][0].append(seen[t][i])
                    q["seen"][1].append(j)
                for text in unseen[t]:
                    q["unseen"][0].append(text)
                    q["unseen"][1].append(j)
            for name in rankers:
                for split, (texts, truth) in q.items():
                    pred, _ = predict(score(name, gallery, texts, index=index), np.arange(len(tasks)), len(tasks))
                    rows.append((trial, name, split, 100.0 * float(np.mean(pred == np.asarray(truth)))))
    return pd.DataFrame(rows, columns=["trial", "ranker", "queries", "accuracy"])
