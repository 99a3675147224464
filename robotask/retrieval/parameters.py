"""The allowed ranges of the retrieval chapters' numeric parameters (chapters 01–09).

The book wing's runner checks every value against these before a kernel starts; it imports no wing:
the entry point (:func:`robotask.cli.parameter_ranges`) hands it this table. Imports only the core.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import RobotaskError
from ..parameters import SEED, Range

RANKER_NAMES = ("bm25", "word", "char", "word_char", "lsa", "minilm", "minilm_char", "static")
"""The registry's ranker names (``rankers.registry.RANKERS``; a test pins the two equal): written out here so that
``robotask run`` checks a ``rankers`` value without importing the rankers."""


@dataclass(frozen=True)
class RankerNames(Range):
    """The rule of every chapter's ``rankers`` parameter: a list of registry names, checked before a kernel starts."""

    def check(self, name: str, value: object, where: str) -> None:
        bad = [v for v in value if v not in RANKER_NAMES] if isinstance(value, list) else []
        if bad:
            noun = "ranker" if len(bad) == 1 else "rankers"
            raise RobotaskError(f"{where}: parameter {name!r} names unknown {noun} {', '.join(map(repr, bad))}; "
                                f"valid: {', '.join(RANKER_NAMES)}; give a YAML list, e.g. -p {name} '[bm25, char]'")


RANGES: dict[str, Range] = {
    "seed": SEED,
    "perturb_seed": SEED,
    # Upper bounds where a value makes a run take hours or exhaust memory: a user who means more runs
    # the protocol from Python (robotask.retrieval.protocol.study.run_study), which has no bound.
    "n_trials": Range(low=1, high=10_000, meaning="between 1 and 10000 gallery trials (the paper: 80)"),
    "n_matched_trials": Range(low=0, high=10_000, meaning="between 0 and 10000 matched trials (the paper: 30)"),
    "n_bootstrap": Range(low=1, high=100_000, meaning="between 1 and 100000 bootstrap replicates"),
    "n_permutations": Range(low=1, high=1_000_000, meaning="between 1 and 1000000 permutations"),
    "n_examples": Range(low=0, high=1_000, meaning="between 0 and 1000 examples"),
    "benchmark_reference_trials": Range(low=0, high=1_000,
                                        meaning="between 0 and 1000 trials (0 skips the benchmark)"),
    "budget_trials": Range(low=1, high=1_000, meaning="between 1 and 1000 galleries per wording budget"),
    "min_budget_tasks": Range(low=1, high=100_000, meaning="between 1 and 100000 tasks"),
    "size_draws": Range(low=1, high=1_000, meaning="between 1 and 1000 galleries per library size"),
    "size_steps": Range(low=1, high=100, meaning="between 1 and 100 library sizes"),
    "size_min": Range(low=2, high=100_000, meaning="between 2 and 100000 tasks (the smallest library)"),
    "alpha": Range(low=1e-12, high=1 - 1e-12, meaning="a level strictly between 0 and 1"),
    "bm25_k1": Range(low=0, high=1_000, meaning="between 0 and 1000 (BM25 saturation)"),
    "bm25_b": Range(low=0, high=1, meaning="between 0 and 1 (BM25 length normalisation)"),
    "char_ngram_min": Range(low=1, high=20, meaning="between 1 and 20 characters"),
    "char_ngram_max": Range(low=1, high=20, meaning="between 1 and 20 characters"),
    "lsa_dims": Range(low=1, high=4_096, meaning="between 1 and 4096 LSA components"),
    "rankers": RankerNames(low=None, high=None, meaning="a list of ranker names"),
}
"""Parameter name → allowed range, for every numeric parameter the retrieval chapters declare (and the names of
``rankers``)."""
