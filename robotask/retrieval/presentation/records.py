"""What chapters 02 to 08 write to their ``summary.json``: one function per chapter, the record the home page
(:mod:`.answers`) and readers of the result folder read back.

Each function only gathers what the chapter computed; the notebook writes the record with
``robotask.io.write_json`` and asserts its invariants.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd


def _names(files: Mapping[str, Path]) -> list[str]:
    return [p.name for p in files.values()]


def five_rankers_record(result: Any, stats: pd.DataFrame, diffs: pd.DataFrame | None,
                        files: Mapping[str, Path]) -> dict:
    """Chapter 02: the corpus and design, Table 2 by ranker (``stats``: ``summary_table`` indexed by ranker),
    the paired differences (``diffs``; None when no pair ran) and the files written (``result.write``)."""
    corpus, config = result.corpus, result.config
    return {"n_tasks": len(corpus.tasks), "n_descriptions": len(corpus.texts), "n_trials": config.n_trials,
            "seed": config.seed, "table2": stats.drop(columns="label").to_dict(orient="index"),
            "paired": diffs.to_dict(orient="records") if diffs is not None else [],
            "files": sorted(_names(files))}


def second_description_record(config: Any, identical: bool, matched: pd.DataFrame, alt: pd.DataFrame | None,
                              files: Mapping[str, Path]) -> dict:
    """Chapter 03: the matched design, whether the two conditions shared their queries, Table 3 by ranker
    (``matched``: ``matched_table``) and under the other reading of the draws (``alt``; None when it did
    not run)."""
    def by_ranker(table: pd.DataFrame) -> dict:
        return table.set_index("ranker").drop(columns="label").to_dict(orient="index")

    return {"n_matched_trials": config.n_matched_trials, "matched_draws": config.matched_draws,
            "identical_queries": identical, "table3": by_ranker(matched),
            "table3_other_reading": by_ranker(alt) if alt is not None else None,
            "files": sorted(_names(files))}


def scoring_audit_record(duplicates: pd.DataFrame, excluded: pd.Series, policies: pd.DataFrame,
                         first_listed: pd.DataFrame, named: pd.DataFrame, files: Mapping[str, Path],
                         extra_files: list[str]) -> dict:
    """Chapter 04: the duplicated texts, the exclusions per draw, Table 4 (``policies``: ranker → policy),
    the first-listed gallery by ranker, the paper's named errors as we score them, and the files written
    (``files`` from ``result.write``, ``extra_files`` by the chapter)."""
    return {"duplicates": duplicates["text"].unique().tolist(), "excluded_per_draw": excluded.to_dict(),
            "table4": policies.to_dict(orient="index"),
            "first_listed": first_listed[["strict", "either", "primary", "n_scored"]].to_dict(orient="index"),
            "named_errors": named.to_dict(orient="records"), "files": sorted(_names(files) + extra_files)}


def reproduction_record(comparison: pd.DataFrame, values: Mapping, claims: pd.DataFrame,
                        bench: Mapping | None, files: Mapping[str, Path], extra_files: list[str]) -> dict:
    """Chapter 05: how many paper numbers were compared (``values``: ``comparison_values``), which claims
    reproduce, whether the fast path matched the plain reference (None when not timed), and the files
    written."""
    return {"n_numbers": int(len(comparison)), "n_accuracies": int(values["n_acc"]),
            "exact_accuracies": values["n_exact"], "table2_mean_diff": float(values["t2_mean"]),
            "claims": {r.id: bool(r.reproduced) for r in claims.itertuples()},
            "fast_path_identical": None if bench is None else bool(bench["identical"]),
            "files": sorted(_names(files) + extra_files)}


def embedding_record(summary: pd.DataFrame, comp: pd.DataFrame, confusions: pd.DataFrame, *, n_trials: int,
                     seed: int, n_bootstrap: int, files: list[str]) -> dict:
    """Chapter 06: the accuracies with their intervals by ranker (``summary``, without its label columns), the
    paired comparisons, the opposite-task confusions and the files written."""
    return {"n_trials": n_trials, "seed": seed, "n_bootstrap": n_bootstrap,
            "summary": summary.set_index("ranker").drop(columns=["label", "in paper"]).to_dict("index"),
            "paired": comp.to_dict(orient="records"), "opposite_confusions": confusions.to_dict("records"),
            "files": files}


def uncertainty_record(intervals: pd.DataFrame, claims: pd.DataFrame, *, n_trials: int, seed: int,
                       n_bootstrap: int, n_permutations: int, alpha: float, files: list[str]) -> dict:
    """Chapter 07: the settings of the bootstrap and tests, every ranker's interval (``intervals``, without
    its label), the verdicts on the paper's orderings and the files written."""
    return {"n_trials": n_trials, "seed": seed, "n_bootstrap": n_bootstrap, "n_permutations": n_permutations,
            "alpha": alpha, "intervals": intervals.set_index("ranker").drop(columns="label").to_dict(orient="index"),
            "claims": claims.to_dict(orient="records"), "files": files}


def perturbation_record(table: pd.DataFrame, pairs: list[tuple[str, str]], *, n_trials: int, seed: int,
                        perturb_seed: int, perturbations: list[str], rankers: list[str], files: list[str]) -> dict:
    """Chapter 08: the settings, the opposite task pairs, every change (``table``, without its label) and the
    files written."""
    return {"n_trials": n_trials, "seed": seed, "perturb_seed": perturb_seed, "perturbations": perturbations,
            "rankers": rankers, "opposite_pairs": [list(p) for p in pairs],
            "table": table.drop(columns="label").to_dict(orient="records"), "files": files}
