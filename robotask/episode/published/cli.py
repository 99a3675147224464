"""``robotask score PREDICTIONS… [--windows FILE] [--task TASK] [--out DIR] [--seed N] [--n-bootstrap N]``.

Scores prediction files in the original suite's formats (one episode or many; see :mod:`.formats`), each
``[NAME=]PATH`` a run (named by the original's layout when no name is given: :func:`default_name`). It prints every
run's metric with its interval (blocks of consecutive windows on one episode, whole episodes across many), the
baselines beside it, and the paired verdicts between the runs and against the baselines; with ``--out`` it
writes ``recomputed.csv`` (the metrics of a ``metrics.json`` found beside a prediction file, recomputed),
``results.csv``, ``comparisons.csv``, ``baselines.csv`` and ``coverage.csv``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ... import paths
from ...errors import RobotaskError
from ...io import output_lock, write_csv
from ...parameters import SEED, Range, option
from ...task_names import TASK_IDS
from .recompute import PRIMARY

SCORED = tuple(PRIMARY)  # the tasks whose predictions are labels, sets or pairs (not arrays)
BOOTSTRAP = Range(low=1, high=100_000, meaning="between 1 and 100000 bootstrap replicates")
RECOMPUTED_COLUMNS = ("source", "run", "task", "metric", "published", "recomputed")
COMPARISON_COLUMNS = ("scope", "task", "metric", "a", "b", "a_value", "b_value", "difference", "low", "high",
                      "unit", "verdict")


def register_cli(subparsers: Any) -> None:
    """Add ``robotask score``."""
    p = subparsers.add_parser("score", help="score prediction files in the original suite's formats",
                              description="Score predictions.csv files of the original suite (one episode or "
                              "many; a fine-tuned run's answers), each a run: every metric with its 95 % "
                              "interval (moving blocks of windows on one episode, whole episodes across many), "
                              "the baselines beside it and paired verdicts. A metrics.json beside a file is "
                              "recomputed.")
    p.add_argument("predictions", nargs="+", metavar="[NAME=]PREDICTIONS",
                   help="predictions.csv of one run (single- or multi-episode format), optionally named")
    p.add_argument("--windows", type=paths.from_caller,
                   help="the single-episode windows.csv (labels of the train windows, for the majority class)")
    p.add_argument("--task", choices=SCORED, help="the task, when the files' folders do not name it")
    p.add_argument("--out", type=paths.from_caller, help="folder for recomputed.csv, comparisons.csv, ...")
    p.add_argument("--seed", type=option(SEED), default=0, help="seed of the bootstrap resamples")
    p.add_argument("--n-bootstrap", type=option(BOOTSTRAP), default=1000, help="bootstrap resamples")
    p.set_defaults(func=_cli_score)


def default_name(path: Path) -> str:
    """A run's name from the original's layout: ``mlp``/``neural`` under ``neural_mlp``, else ``minimal``/
    ``simple`` in a task folder (``simple``, ``neural``: the 128-episode stage), else the file's stem."""
    many = any("multi_episode" in part for part in path.parts)
    if "neural_mlp" in path.parts:
        return "neural" if many else "mlp"
    if path.parent.name in TASK_IDS:
        return "simple" if many else "minimal"
    return path.stem


def named_paths(items: list[str]) -> list[tuple[str, Path]]:
    """``[NAME=]PATH`` arguments as (run name, absolute path); unnamed runs take their folder's role."""
    out: list[tuple[str, Path]] = []
    for item in items:
        name, _, path = item.rpartition("=") if "=" in item else ("", "", item)
        p = Path(paths.from_caller(path))
        if not name:
            name = default_name(p)
            name = name if name not in (n for n, _ in out) else f"{name}_{len(out) + 1}"
        if name in (n for n, _ in out):
            raise RobotaskError(f"run name {name!r} is given twice; name each run once (NAME=PATH)")
        out.append((name, p))
    return out


def _print(card: Any) -> None:
    res = card.results
    for (scope, task), part in res.groupby(["scope", "task"], sort=False):
        print(f"{task} ({'one episode' if scope == 'episode' else f'{part.episodes.iloc[0]} episodes'}, "
              f"{part.windows.iloc[0]} windows)")
        for r in part.itertuples(index=False):
            unit = f"blocks of {int(r.block)}" if r.unit == "block" else "episodes"
            print(f"  {r.run:>14} {r.metric} {r.value:.3f} [{r.low:.3f}, {r.high:.3f}] (95%, resampling {unit})")
    for b in card.baselines.to_dict("records"):
        print(f"baseline {b['baseline']} of {b['task']}: {b['class']} (from the {b['taken_from']})")
    for r in card.comparisons.itertuples(index=False):
        print(f"{r.task}: {r.a} − {r.b} {r.metric} {r.difference:+.3f} [{r.low:+.3f}, {r.high:+.3f}] "
              f"per {r.unit}: {r.verdict}")


def _cli_score(args: Any) -> int:
    """Handler of ``robotask score``."""
    from .scorecard import score_files

    named = named_paths(args.predictions)
    windows = Path(args.windows) if args.windows else None
    if args.out:
        paths.outside_inputs(args.out, {f"the folder of {p.name}": p.parent for _, p in named})
    card = score_files(named, windows, args.task, int(args.seed), int(args.n_bootstrap))
    _print(card)
    if args.out:
        out = Path(args.out)
        with output_lock(out):
            write_csv(out / "recomputed.csv", card.recomputed[list(RECOMPUTED_COLUMNS)])
            write_csv(out / "results.csv", card.results)
            comparisons = card.comparisons
            write_csv(out / "comparisons.csv", comparisons[list(COMPARISON_COLUMNS)] if len(comparisons)
                      else comparisons)
            write_csv(out / "baselines.csv", card.baselines)
            write_csv(out / "coverage.csv", card.coverage)
        print(f"wrote recomputed.csv, results.csv, comparisons.csv, baselines.csv and coverage.csv to {out}")
    return 0
