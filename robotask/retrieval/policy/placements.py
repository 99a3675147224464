"""Where each paraphrase's own task lands, per gallery and ranker: correct, margin, rank.

Every ranker scores all paraphrases against a whole gallery in one call, each distinct paraphrase once
(:func:`robotask.retrieval.protocol.fixed_gallery.ranker_task_scores`): the embedding rankers embed each distinct
text once. The placement is the fixed-gallery mode's (:func:`~robotask.retrieval.protocol.fixed_gallery.place`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..protocol.fixed_gallery import Gallery, own_tasks, place, ranker_task_scores
from ..rankers.registry import check_rankers

PLACEMENT_COLUMNS = ["gallery", "ranker", "row", "correct", "margin", "rank"]


@dataclass(frozen=True)
class Placements:
    """One row per (gallery, ranker, paraphrase row): :data:`PLACEMENT_COLUMNS`."""

    frame: pd.DataFrame

    def column(self, gallery: str, ranker: str, name: str) -> np.ndarray:
        """``name`` (``correct``, ``margin`` or ``rank``) of every paraphrase, in paraphrase order."""
        rows = self.frame[(self.frame["gallery"] == gallery) & (self.frame["ranker"] == ranker)]
        return rows.sort_values("row")[name].to_numpy()

    @property
    def keys(self) -> list[tuple[str, str]]:
        """The (gallery, ranker) pairs, in the order they were scored."""
        return list(dict.fromkeys(zip(self.frame["gallery"], self.frame["ranker"], strict=True)))


def place_all(paraphrases: pd.DataFrame, galleries: dict[str, pd.DataFrame], rankers: list[str]) -> Placements:
    """Score every paraphrase against every gallery with every ranker."""
    frames = []
    for name, frame in galleries.items():
        gallery = Gallery.from_frame(frame)
        own = own_tasks(gallery, paraphrases["task"], f"gallery {name}")
        for ranker in check_rankers(rankers, "rankers"):
            p = place(ranker_task_scores(ranker, gallery, paraphrases["text"].tolist()), own)
            frames.append(pd.DataFrame({"gallery": name, "ranker": ranker, "row": np.arange(len(paraphrases)),
                                        "correct": p.correct.astype(int), "margin": p.margin, "rank": p.rank}))
    return Placements(pd.concat(frames, ignore_index=True)[PLACEMENT_COLUMNS])
