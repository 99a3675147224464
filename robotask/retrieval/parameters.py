"""The allowed ranges of the retrieval chapters' numeric parameters (chapters 01–09), and their rules on ``rankers``.

The book wing's runner checks every value against these before a kernel starts; it imports no wing:
the entry point (:func:`robotask.cli.parameter_ranges`) hands it this table. Imports only the core.
A key ``"CHAPTER:NAME"`` holds the rule of one chapter's parameter (``"02_five_rankers:rankers"``: the paper's five
rankers), which the runner checks in place of the rule of ``NAME`` for that chapter (:func:`robotask.book.params.rule`).
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
    """The rule of a ``rankers`` parameter: a non-empty list of registry names, checked before a kernel starts;
    with ``required``, the rule of one chapter (``chapter``), whose list must hold those rankers (``why``: what for)."""

    chapter: str = ""
    required: tuple[str, ...] = ()
    why: str = ""

    def check(self, name: str, value: object, where: str) -> None:
        if not isinstance(value, list):
            return  # the type check names what a list is
        of = f" of chapter {self.chapter}" if self.chapter else ""
        example = f"e.g. -p {name} '[{', '.join(self.required or ('bm25', 'char'))}]'"
        bad = [v for v in value if v not in RANKER_NAMES]
        if bad:
            noun = "ranker" if len(bad) == 1 else "rankers"
            raise RobotaskError(f"{where}: parameter {name!r}{of} names unknown {noun} {', '.join(map(repr, bad))}; "
                                f"valid: {', '.join(RANKER_NAMES)}; give a YAML list, {example}")
        missing = [r for r in self.required if r not in value]
        if missing:
            raise RobotaskError(f"{where}: parameter {name!r}{of} = {value!r} leaves out {', '.join(missing)}; "
                                f"expected a list that holds {self.why}: {', '.join(self.required)} (others may be "
                                f"added), {example}")
        if not value:
            raise RobotaskError(f"{where}: parameter {name!r}{of} is an empty list; expected at least one ranker, "
                                f"{example}")


def chapter_rankers(chapter: str, required: tuple[str, ...], why: str) -> tuple[str, RankerNames]:
    """The entry of ``RANGES`` for the rule of one chapter's ``rankers``: the list must hold ``required``."""
    return f"{chapter}:rankers", RankerNames(low=None, high=None, meaning=f"a list of ranker names that holds {why}",
                                             chapter=chapter, required=required, why=why)


PAPER_FIVE = ("bm25", "word", "char", "word_char", "lsa")
"""The paper's five rankers (``rankers.registry.PAPER_RANKERS``; a test pins the two equal)."""

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
    # What each chapter compares, so its list must hold those rankers (the notebooks' own asserts say the same).
    **dict((
        chapter_rankers("02_five_rankers", PAPER_FIVE, "the paper's five rankers, whose Tables 2 and 3 it reproduces"),
        chapter_rankers("04_scoring_audit", PAPER_FIVE, "the paper's five rankers, whose scoring it audits"),
        chapter_rankers("05_reproduction_report", PAPER_FIVE,
                        "the paper's five rankers, each of which it sets beside the paper's number"),
        chapter_rankers("06_sentence_embeddings", ("minilm", "char"), "MiniLM and Char TF-IDF, which it compares"),
        chapter_rankers("09_libraries", ("bm25", "char"),
                        "BM25 and Char TF-IDF, whose paired wins on each library it counts"),
        chapter_rankers("09_transfer", ("bm25", "word", "char"),
                        "BM25, Word and Char TF-IDF, between which it checks the paper's claims"),
    )),
}
"""Parameter name → allowed range, for every numeric parameter the retrieval chapters declare (and the names of
``rankers``); ``"CHAPTER:rankers"`` → the rankers that chapter's list must hold."""
