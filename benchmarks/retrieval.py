"""Time the whole retrieval study against a plain reference implementation, in one process.

The study: 80 one-description galleries, the 30-trial matched study (one and two descriptions)
and the first-listed audit gallery, five rankers. The reference refits every scikit-learn
vectorizer per gallery and scores one query at a time. Both must give identical predictions.

    .venv/bin/python benchmarks/retrieval.py [--reference-trials N] [--corpus FILE]

Prints both wall times and the ratio, and saves them to ``_build/benchmarks/retrieval.json``
(read by the book's reproduction pages).
"""

from __future__ import annotations

import argparse

from robotask import io, paths
from robotask.retrieval.protocol import load_study_corpus, reference


def main() -> None:
    """Run the benchmark and print the timings."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="", help="CSV with task and text columns (default: RLBench corpus)")
    parser.add_argument("--reference-trials", type=int, default=None,
                        help="run the reference on the designs of the first N trials only (default: all)")
    parser.add_argument("--repeats", type=int, default=3, help="repetitions of the fast study (minimum kept)")
    args = parser.parse_args()
    corpus = load_study_corpus(args.corpus, min_per_task=3)
    result = reference.time_against_reference(corpus, repeats=args.repeats, reference_trials=args.reference_trials,
                                 progress=True)
    print(f"fast study (80 trials + 30 matched x 2 + audit, 5 rankers): {result['study_s']:.2f} s wall, "
          f"{result['study_cpu_s']:.2f} s CPU")
    print(f"compared designs: {result['n_evaluations']} gallery x ranker evaluations, "
          f"{result['n_predictions']} predictions")
    print(f"  fast path      {result['fast_s']:8.2f} s")
    print(f"  plain reference {result['reference_s']:7.2f} s")
    print(f"  ratio           {result['ratio']:7.1f} x")
    print(f"identical predictions: {result['identical']}")
    io.write_json(paths.BUILD / "benchmarks" / "retrieval.json", result)
    assert result["identical"], "fast path and plain reference disagree"


if __name__ == "__main__":
    main()
