"""The retrieval protocol: designs, task scoring, scoring policies, per-trial results.

One *draw* is, for every task in sorted task-id order, a permutation of that task's
descriptions (``rng.permutation(n_task)`` from one ``np.random.default_rng(seed)``). A design
puts the first ``k`` shuffled descriptions of each task in the gallery and uses those from
shuffled position ``query_from`` on as queries:

============== ========================= === ==========
condition      draws                      k   query_from
============== ========================= === ==========
one            the ``n_trials`` primary    1   1
matched_one    ``n_matched_trials`` more   1   2
matched_two    the same draws              2   2
first_listed   source order (audit)        1   1
============== ========================= === ==========

The task score is S(t, q) = max over task t's gallery texts; the prediction is the argmax over
tasks after rounding scores to 1e-9, ties going to the first task in sorted order (the paper's rule,
kept as the reproduction's ``accuracy``). Beside it, every accuracy has a tie-aware twin (the rule is
stated once, in :func:`robotask.retrieval.protocol.prediction.tie_credit`): a query whose top score k tasks
share is *tied*, and counts 1/k when its right task is among the k. Three policies
score a trial: ``primary`` (queries whose text, in its normal form, belongs to more than one task are excluded),
``strict`` (kept, only the source label counts) and ``either`` (kept, any owning label counts).

The corpus and the draws are :mod:`robotask.retrieval.protocol.draws`; the settings of a run are one
:class:`StudyConfig`, whose field defaults are the paper's settings.

Used by notebooks ``02_five_rankers`` to ``07_uncertainty``, by ``benchmarks/retrieval.py`` and by
``robotask retrieval``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from ... import io, paths
from ...errors import RobotaskError
from ...parameters import SEED, option
from ...words import named
from ..parameters import RANGES
from ..rankers.lexical import PAPER_SETTINGS, SETTING_NAMES, TextIndex
from ..rankers.registry import PAPER_RANKERS, RANKERS, check_rankers, score
from .draws import Corpus, Draws, design_rows, load_study_corpus, make_draws
from .prediction import TIE_DECIMALS, policy_counts, predict, predict_ties, task_scores, tie_credit  # noqa: F401

CONDITIONS = ("one", "matched_one", "matched_two", "first_listed")
POLICIES = ("primary", "strict", "either")
PARTS = ("primary", "matched", "audit")
PER_TRIAL_COLUMNS = ["trial", "condition", "ranker", "policy", "n_queries", "n_excluded", "n_correct", "accuracy",
                     "n_tied", "tie_accuracy"]
"""The paper's columns, then the tie-aware ones (:func:`tie_credit`): ``n_tied`` queries whose top score is shared
by two or more tasks, and ``tie_accuracy`` (%), each tied query counting 1/k of a hit."""


# --------------------------------------------------------------------------- the study
@dataclass(frozen=True, kw_only=True)
class StudyConfig:
    """Everything that fixes a run of the protocol; each field default is the paper's setting.

    Build one with keyword arguments, or from a chapter's parameters with :func:`config_from_parameters`.
    ``params`` holds the ranker settings (:class:`~robotask.retrieval.rankers.lexical.RankerSettings`;
    missing ones take the paper's values).
    """

    seed: int = 413  # NumPy generator seed of the draws
    n_trials: int = 80  # one-description galleries
    n_matched_trials: int = 30  # matched trials (one and two descriptions)
    rankers: list[str] = field(default_factory=lambda: list(PAPER_RANKERS))
    params: dict[str, Any] = field(default_factory=PAPER_SETTINGS.as_dict)
    matched_draws: str = "continue"  # see robotask.retrieval.protocol.draws.make_draws
    save_all_predictions: bool = False  # keep per-query predictions of every trial

    def __post_init__(self) -> None:
        object.__setattr__(self, "rankers", check_rankers(self.rankers))
        unknown = sorted(set(self.params) - set(SETTING_NAMES))
        if unknown:
            raise RobotaskError(f"unknown {named('ranker parameter', unknown)}; "
                                f"expected some of {', '.join(SETTING_NAMES)}")
        object.__setattr__(self, "params", {**PAPER_SETTINGS.as_dict(), **self.params})
        for name, least in (("n_trials", 1), ("n_matched_trials", 0)):
            value = getattr(self, name)
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
                raise RobotaskError(f"{name} = {value!r}: expected an integer of at least {least}")
            if value < least:
                raise RobotaskError(f"{name} must be at least {least} (got {value})")


STUDY_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(StudyConfig) if f.name != "params")


def config_from_parameters(**parameters: Any) -> StudyConfig:
    """A :class:`StudyConfig` from a chapter's parameters, given by keyword (the same names).

    Ranker settings (``bm25_k1``, ``bm25_b``, ``char_ngram_min``, ``char_ngram_max``, ``lsa_dims``)
    go into ``params``; the others (``seed``, ``n_trials``, ``n_matched_trials``, ``rankers``,
    ``matched_draws``, ``save_all_predictions``) are fields. Anything not given takes the paper's value.
    """
    unknown = sorted(set(parameters) - set(SETTING_NAMES) - set(STUDY_FIELDS))
    if unknown:
        raise RobotaskError(f"unknown {named('study parameter', unknown)}; "
                            f"expected some of {', '.join(STUDY_FIELDS + SETTING_NAMES)}")
    params = {k: v for k, v in parameters.items() if k in SETTING_NAMES}
    rest = {k: v for k, v in parameters.items() if k in STUDY_FIELDS}
    if "rankers" in rest:
        rest["rankers"] = list(rest["rankers"])
    return StudyConfig(params=params, **rest)


STUDY_PARAMETERS: tuple[str, ...] = (*STUDY_FIELDS, *SETTING_NAMES)
"""The parameters of a chapter that runs the study (chapters 02 to 05): each a field or ranker setting."""


def study_config(parameters: dict[str, Any]) -> StudyConfig:
    """:func:`config_from_parameters` of the :data:`STUDY_PARAMETERS` that ``parameters`` holds. A chapter passes
    its ``globals()``, so its parameters cell is the one place where the study's settings are written."""
    return config_from_parameters(**{k: parameters[k] for k in STUDY_PARAMETERS if k in parameters})


def other_reading(config: StudyConfig) -> tuple[str, StudyConfig | None]:
    """The other reading of the paper's "the same random generator" for the matched draws: its name
    ("reuse" for "continue" and back) and the config that draws it without saving every prediction, or
    None when "reuse" would need more primary trials than ``config`` has matched ones."""
    other = "reuse" if config.matched_draws == "continue" else "continue"
    if other == "reuse" and config.n_matched_trials > config.n_trials:
        return other, None
    return other, replace(config, matched_draws=other, save_all_predictions=False)


@dataclass
class StudyResult:
    """Per-trial accuracies (tidy), per-query predictions, and the draws that produced them."""

    per_trial: pd.DataFrame
    predictions: pd.DataFrame
    draws: Draws
    corpus: Corpus
    config: StudyConfig

    def draws_frame(self) -> pd.DataFrame:
        """The permutations as a table: study, trial, task, shuffled positions (space-separated)."""
        rows = [(study, t, self.corpus.tasks[j], " ".join(map(str, p)))
                for study, draws in (("primary", self.draws.primary), ("matched", self.draws.matched))
                for t, perms in enumerate(draws) for j, p in enumerate(perms)]
        return pd.DataFrame(rows, columns=["study", "trial", "task", "permutation"])

    def write(self, out_dir: str | Path) -> dict[str, Path]:
        """Write ``per_trial.csv``, ``predictions.csv`` and ``draws.csv`` atomically; return their paths."""
        out = Path(out_dir)
        return {
            "per_trial": io.write_csv(out / "per_trial.csv", self.per_trial),
            "predictions": io.write_csv(out / "predictions.csv", self.predictions),
            "draws": io.write_csv(out / "draws.csv", self.draws_frame()),
        }


def designs(draws: Draws, parts: tuple[str, ...]) -> list[tuple[str, int, list[np.ndarray] | None, int, int]]:
    """The (condition, trial, perms, k, query_from) evaluations that ``parts`` ask for."""
    out: list[tuple[str, int, list[np.ndarray] | None, int, int]] = []
    if "primary" in parts:
        out += [("one", t, p, 1, 1) for t, p in enumerate(draws.primary)]
    if "matched" in parts:
        for t, p in enumerate(draws.matched):
            out += [("matched_one", t, p, 1, 2), ("matched_two", t, p, 2, 2)]
    if "audit" in parts:
        out.append(("first_listed", 0, None, 1, 1))
    return out


def _prediction_columns(corpus: Corpus, condition: str, trial: int, ranker: str, q_rows: np.ndarray,
                        pred: np.ndarray, top: np.ndarray, at_top: np.ndarray) -> dict[str, Any]:
    """Per-query predictions of one trial and ranker, column by column; the last two columns are the tie
    rule's (``n_top``: tasks tied at the top score, ``tie_credit``: :func:`tie_credit` of the source task)."""
    truth = corpus.task_of[q_rows]
    n_top = np.count_nonzero(at_top, axis=1)
    tasks, texts = np.asarray(corpus.tasks, dtype=object), np.asarray(corpus.texts, dtype=object)
    return {
        "condition": condition, "trial": trial, "ranker": ranker,
        "task": tasks[truth], "position": corpus.positions[q_rows],
        "text": texts[q_rows], "duplicate": corpus.duplicate[q_rows],
        "predicted": tasks[pred], "score": top,
        "correct": pred == truth, "correct_either": corpus.owners[q_rows, pred],
        "n_top": n_top, "tie_credit": at_top[np.arange(len(q_rows)), truth] / np.maximum(n_top, 1),
    }


def _prediction_frame(parts: list[dict[str, Any]]) -> pd.DataFrame:
    """The frame of every part of :func:`_prediction_columns`, in order: the frames of the parts concatenated,
    built at once (each text column is checked once, not once per trial and ranker)."""
    if len(parts) == 1:
        return pd.DataFrame(parts[0])
    sizes = [len(part["task"]) for part in parts]

    def column(name: str) -> np.ndarray:
        if np.ndim(parts[0][name]):
            return np.concatenate([part[name] for part in parts])
        kind = np.int64 if isinstance(parts[0][name], (int, np.integer)) else object
        return np.concatenate([np.full(n, part[name], dtype=kind) for n, part in zip(sizes, parts)])

    return pd.DataFrame({name: column(name) for name in parts[0]})


def run_study(corpus: Corpus, config: StudyConfig | None = None, parts: tuple[str, ...] = PARTS,
              progress: bool = False) -> StudyResult:
    """Run the protocol: every requested design × trial × ranker, all queries scored in one call.

    Parameters
    ----------
    corpus : the validated corpus (:func:`check_corpus`).
    config : the protocol settings (default: the paper's).
    parts : any of 'primary' (80 one-description galleries), 'matched' (one vs two
        descriptions) and 'audit' (the first-listed gallery).
    progress : show a tqdm bar over evaluations.
    """

    config = config or StudyConfig()
    bad = [p for p in parts if p not in PARTS]
    if bad:
        raise RobotaskError(f"parts {bad}: expected any of {', '.join(PARTS)}")
    if "matched" in parts and config.n_matched_trials > 0 and int(corpus.sizes.min()) < 3:
        small = [f"{t} ({n})" for t, n in zip(corpus.tasks, corpus.sizes) if n < 3]
        raise RobotaskError("the matched study needs at least 3 descriptions per task; too few: " + ", ".join(small))
    draws = make_draws(corpus, config.seed, config.n_trials, config.n_matched_trials, config.matched_draws)
    with threadpool_limits(1):  # small matrices: one BLAS thread is faster and the result does not change
        per_trial, predictions = evaluate(corpus, config, designs(draws, parts), progress)
    return StudyResult(per_trial, predictions, draws, corpus, config)


def run_timed(corpus: Corpus, groups: dict[str, list[str]], seed: int, n_trials: int
              ) -> tuple[StudyResult, dict[str, float]]:
    """The primary study of each group of rankers in turn (``groups``: name → rankers), every prediction
    kept, and the wall-clock seconds of each group.

    The result holds the rows of all groups, in the order of ``groups``, with the draws and config of the
    last group (all groups draw the same galleries from ``seed``).
    """
    import time

    runs, seconds = {}, {}
    for name, rankers in groups.items():
        start = time.perf_counter()
        config = config_from_parameters(seed=seed, n_trials=n_trials, n_matched_trials=0, rankers=rankers,
                                        save_all_predictions=True)
        runs[name] = run_study(corpus, config, parts=("primary",))
        seconds[name] = time.perf_counter() - start
    result = runs[name]
    result.per_trial = pd.concat([r.per_trial for r in runs.values()], ignore_index=True)
    result.predictions = pd.concat([r.predictions for r in runs.values()], ignore_index=True)
    return result, seconds


def evaluate(corpus: Corpus, config: StudyConfig, todo: list, progress: bool = False
             ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Score every design in ``todo`` (from :func:`designs`) with every ranker; return (per_trial, predictions)."""
    from ...progress import tqdm

    index = TextIndex(corpus.texts)
    texts = np.asarray(corpus.texts, dtype=object)
    rows, preds = [], []
    for condition, trial, perms, k, query_from in tqdm(todo, disable=not progress, desc="galleries", leave=False):
        g_rows, g_task, q_rows = design_rows(corpus, perms, k, query_from)
        gallery, queries = texts[g_rows].tolist(), texts[q_rows].tolist()
        for name in config.rankers:
            sim = score(name, gallery, queries, config.params, index=index)
            pred, top, at_top = predict_ties(sim, g_task, len(corpus.tasks))
            for policy, (n_q, n_ex, n_ok, n_tied, hits) in policy_counts(corpus, q_rows, pred, at_top).items():
                rows.append((trial, condition, name, policy, n_q, n_ex, n_ok, 100.0 * n_ok / n_q if n_q else np.nan,
                             n_tied, 100.0 * hits / n_q if n_q else np.nan))
            if config.save_all_predictions or condition == "first_listed":
                preds.append(_prediction_columns(corpus, condition, trial, name, q_rows, pred, top, at_top))
    per_trial = pd.DataFrame(rows, columns=PER_TRIAL_COLUMNS)
    predictions = _prediction_frame(preds or [_prediction_columns(
        corpus, "", 0, "", np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0),
        np.zeros((0, len(corpus.tasks)), bool))])
    return per_trial, predictions


# --------------------------------------------------------------------------- CLI
def register_cli(subparsers: Any) -> None:
    """Add ``robotask retrieval``: run the protocol on a corpus and print the Table-2-style summary."""
    p = subparsers.add_parser("retrieval", help="rank held-out instructions over random galleries (Table 2 summary)")
    p.add_argument("--corpus", default="", type=paths.from_caller,
                   help="CSV with task and text columns, or YAML mapping tasks to "
                   "lists of texts (default: the RLBench corpus)")
    p.add_argument("--label", default="task",
                   help="task (default), or variation (task:variation; needs a variation column)")
    p.add_argument("--keep-repeated-texts", action="store_true",
                   help="keep a text repeated within a task of --corpus or --gallery (default: an error; a repeated "
                   "query is always scored on its own)")
    p.add_argument("--trials", type=option(RANGES["n_trials"]), default=StudyConfig.n_trials,
                   help=f"number of random one-description galleries (default: %(default)s; "
                   f"{RANGES['n_trials'].meaning})")
    p.add_argument("--rankers", default=",".join(PAPER_RANKERS),
                   help=f"comma-separated ranker names, of: {', '.join(RANKERS)} (default: %(default)s, the paper's)")
    p.add_argument("--seed", type=option(SEED), default=StudyConfig.seed,
                   help="NumPy generator seed of the draws (default: %(default)s, the paper's)")
    p.add_argument("--out", default="", type=paths.from_caller,
                   help="folder for per_trial.csv, predictions.csv, draws.csv (with --gallery: fixed_predictions.csv, "
                   "fixed_accuracy.csv); every column is described in book/data_dictionary.md")
    p.add_argument("--gallery", default="", type=paths.from_caller,
                   help="fixed gallery (task,text CSV or YAML): score --queries against it, no draws")
    p.add_argument("--queries", default="", type=paths.from_caller,
                   help="queries (task,text CSV or YAML) for --gallery, read and scored in chunks; a repeated query "
                   "is scored on its own")
    p.add_argument("--all-predictions", action="store_true",
                   help="write per-query predictions of every trial (default: the first-listed gallery only)")
    p.set_defaults(func=cli_main)


def cli_main(args: Any) -> int:
    """Handler of ``robotask retrieval``."""
    from ..statistics.across_galleries import summary_table
    from .corpus_file import check_label

    if getattr(args, "gallery", "") or getattr(args, "queries", ""):
        from .fixed_gallery import cli_main as fixed_main

        return fixed_main(args)
    if args.trials < 1:
        raise RobotaskError(f"--trials must be at least 1 (got {args.trials})")
    label = check_label(getattr(args, "label", "task"), "--label")
    config = StudyConfig(seed=args.seed, n_trials=args.trials, n_matched_trials=0,
                         rankers=check_rankers(args.rankers, "--rankers"),
                         save_all_predictions=bool(getattr(args, "all_predictions", False)))
    corpus = load_study_corpus(args.corpus, min_per_task=2, label=label,
                               keep_repeats=bool(getattr(args, "keep_repeated_texts", False)))
    result = run_study(corpus, config, parts=("primary", "audit"))
    if args.out:
        result.write(args.out)
    table = summary_table(result.per_trial, condition="one", policy="primary")
    unit = "variations" if label == "variation" else "tasks"
    galleries = "gallery" if args.trials == 1 else "galleries"
    print(f"{len(corpus.tasks)} {unit}, {len(corpus.texts)} descriptions, {args.trials} {galleries}, seed {args.seed}")
    print(f"accuracy (% of held-out descriptions whose own {label} is ranked first) over the {args.trials} "
          f"{galleries}: mean, sd, 5th and 95th percentile, min, max")
    one = result.per_trial.query("condition == 'one' and policy == 'primary'").groupby("ranker", sort=False)
    table["tie_mean"] = table["ranker"].map(one["tie_accuracy"].mean())
    table["tied"] = table["ranker"].map(one["n_tied"].mean())
    print(table.round(1).to_string(index=False))
    print("tie_mean: the mean under the tie rule (a k-way tie that includes the own task counts 1/k; names never "
          "decide); tied: queries per gallery whose top score two or more tasks share")
    if args.out:
        print(f"wrote per_trial.csv, predictions.csv and draws.csv to {args.out}; columns: book/data_dictionary.md")
    return 0
