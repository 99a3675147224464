"""The cost of each ranker: seconds to index one gallery and queries scored per second (one gallery, timed once)."""

from __future__ import annotations

import time

import pandas as pd
from threadpoolctl import threadpool_limits

from ..rankers.registry import check_rankers, score


def cost(gallery: list[str], queries: list[str], rankers: list[str], repeats: int = 1) -> pd.DataFrame:
    """Per ranker: seconds to index ``gallery`` (scored against one query) and queries per second (all queries).

    The first call of each ranker warms it (model tables loaded) and is not timed. Wall-clock, one thread.
    """
    rows = []
    with threadpool_limits(1):
        for name in check_rankers(list(rankers)):
            score(name, gallery[:2], queries[:1])
            t0 = time.perf_counter()
            for _ in range(repeats):
                score(name, gallery, queries[:1])
            index_s = (time.perf_counter() - t0) / repeats
            t0 = time.perf_counter()
            for _ in range(repeats):
                score(name, gallery, queries)
            all_s = (time.perf_counter() - t0) / repeats
            rows.append((name, index_s, len(queries) / max(all_s, 1e-9)))
    return pd.DataFrame(rows, columns=["ranker", "index_seconds", "queries_per_second"])
