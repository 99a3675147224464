"""The retrieval protocol: gallery draws, task scoring, scoring policies, per-trial results.

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
tasks after rounding scores to 1e-9, ties going to the first task in sorted order. Three policies
score a trial: ``primary`` (queries whose exact text belongs to more than one task are excluded),
``strict`` (kept, only the source label counts) and ``either`` (kept, any owning label counts).

Used by notebooks ``02_five_rankers``, ``03_second_description``, ``04_scoring_audit``,
``05_reproduction_report``, by ``benchmarks/retrieval.py`` and by ``robotask retrieval``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from . import io, rankers
from .errors import RobotaskError

CONDITIONS = ("one", "matched_one", "matched_two", "first_listed")
POLICIES = ("primary", "strict", "either")
PARTS = ("primary", "matched", "audit")
MATCHED_DRAWS = ("continue", "reuse")
TIE_DECIMALS = 9
PER_TRIAL_COLUMNS = ["trial", "condition", "ranker", "policy", "n_queries", "n_excluded", "n_correct", "accuracy"]


# --------------------------------------------------------------------------- corpus
@dataclass(frozen=True)
class Corpus:
    """A validated instruction corpus in (task, position) order.

    ``texts[i]`` belongs to task ``tasks[task_of[i]]``; task j's rows are
    ``starts[j] : starts[j] + sizes[j]``; ``owners[i]`` is the boolean row over tasks that
    contain the exact string ``texts[i]``.
    """

    tasks: list[str]
    texts: list[str]
    positions: np.ndarray
    task_of: np.ndarray
    starts: np.ndarray
    sizes: np.ndarray
    owners: np.ndarray

    @property
    def duplicate(self) -> np.ndarray:
        """Rows whose exact text occurs under more than one task."""
        return self.owners.sum(axis=1) > 1

    def frame(self) -> pd.DataFrame:
        """The corpus as a DataFrame (task, position, text, duplicate)."""
        return pd.DataFrame({"task": [self.tasks[j] for j in self.task_of], "position": self.positions,
                             "text": self.texts, "duplicate": self.duplicate})


def check_corpus(frame: pd.DataFrame, min_per_task: int = 2, where: str = "corpus") -> Corpus:
    """Validate a corpus DataFrame (columns ``task``, ``text``, optional ``position``) into a :class:`Corpus`.

    Parameters
    ----------
    frame : one row per description.
    min_per_task : fewest descriptions a task may have (2 for the one-description study, 3 for
        the matched study).
    where : the file or parameter the corpus came from, for error messages.
    """
    missing = [c for c in ("task", "text") if c not in frame.columns]
    if missing:
        raise RobotaskError(f"{where}: missing column(s) {', '.join(missing)}; expected at least 'task' and 'text' "
                            f"(found: {', '.join(map(str, frame.columns)) or 'none'})")
    if len(frame) == 0:
        raise RobotaskError(f"{where}: the corpus is empty; expected at least one description per task")
    frame = frame.copy()
    if frame["task"].isna().any() or frame["text"].isna().any():
        raise RobotaskError(f"{where}: empty 'task' or 'text' cells; every row needs both")
    frame["task"] = frame["task"].astype(str)
    frame["text"] = frame["text"].astype(str)
    if "position" not in frame.columns:
        frame["position"] = frame.groupby("task", sort=False).cumcount()
    frame = frame.sort_values(["task", "position"], kind="stable").reset_index(drop=True)
    sizes = frame.groupby("task", sort=True).size()
    small = sizes[sizes < min_per_task]
    if len(small):
        listed = ", ".join(f"{t} ({n})" for t, n in small.items())
        raise RobotaskError(f"{where}: every task needs at least {min_per_task} descriptions for this design; "
                            f"too few: {listed}")
    tasks = sorted(sizes.index)
    task_index = {t: j for j, t in enumerate(tasks)}
    task_of = frame["task"].map(task_index).to_numpy(np.int64)
    texts = frame["text"].tolist()
    owners = np.zeros((len(texts), len(tasks)), dtype=bool)
    by_text: dict[str, set[int]] = {}
    for text, j in zip(texts, task_of):
        by_text.setdefault(text, set()).add(int(j))
    for i, text in enumerate(texts):
        owners[i, sorted(by_text[text])] = True
    size_arr = sizes.loc[tasks].to_numpy(np.int64)
    starts = np.concatenate([[0], np.cumsum(size_arr)[:-1]]).astype(np.int64)
    return Corpus(tasks, texts, frame["position"].to_numpy(np.int64), task_of, starts, size_arr, owners)


def load_study_corpus(corpus_path: str = "", min_per_task: int = 2) -> Corpus:
    """Load the committed RLBench corpus (``corpus_path=""``) or any CSV with task and text columns.

    Parameters
    ----------
    corpus_path : CSV file; "" = ``data/rlbench/corpus.csv`` through :func:`robotask.corpus.load_corpus`.
    min_per_task : fewest descriptions per task the design needs.
    """
    from .corpus import load_corpus

    where = corpus_path or "data/rlbench/corpus.csv"
    if corpus_path:
        path = Path(corpus_path)
        if not path.is_file():
            raise RobotaskError(f"corpus_path {corpus_path!r}: no such file; expected a CSV with task and text columns")
        try:
            header = pd.read_csv(path, nrows=0, keep_default_na=False)
        except (pd.errors.EmptyDataError, pd.errors.ParserError, UnicodeDecodeError) as exc:
            raise RobotaskError(f"{where}: not a readable CSV ({exc}); expected task and text columns") from None
        missing = [c for c in ("task", "text") if c not in header.columns]
        if missing:
            raise RobotaskError(f"{where}: missing column(s) {', '.join(missing)}; expected at least 'task' and "
                                f"'text' (found: {', '.join(map(str, header.columns)) or 'none'})")
    return check_corpus(load_corpus(corpus_path or None), min_per_task, where)


# --------------------------------------------------------------------------- draws
def draw_permutations(sizes: np.ndarray, n_trials: int, rng: np.random.Generator) -> list[list[np.ndarray]]:
    """``n_trials`` draws: per trial, per task in sorted order, ``rng.permutation(n_task)``.

    Parameters
    ----------
    sizes : descriptions per task, in sorted task order.
    n_trials : number of draws.
    rng : the generator (advanced in place).
    """
    return [[rng.permutation(int(n)) for n in sizes] for _ in range(n_trials)]


@dataclass(frozen=True)
class Draws:
    """The permutations of the primary and the matched study."""

    primary: list[list[np.ndarray]]
    matched: list[list[np.ndarray]]
    matched_draws: str


def make_draws(corpus: Corpus, seed: int, n_trials: int, n_matched_trials: int,
               matched_draws: str = "continue") -> Draws:
    """Draw the primary permutations and the matched ones from one generator.

    Parameters
    ----------
    corpus : the validated corpus.
    seed : ``np.random.default_rng`` seed (paper: 413).
    n_trials : primary trials (paper: 80).
    n_matched_trials : matched trials (paper: 30).
    matched_draws : 'continue' = the matched draws follow the primary ones on the same generator;
        'reuse' = the matched study reuses the first ``n_matched_trials`` primary draws.
    """
    for name, value in (("n_trials", n_trials), ("n_matched_trials", n_matched_trials)):
        if not isinstance(value, (int, np.integer)) or value < 0:
            raise RobotaskError(f"{name} = {value!r}: expected a non-negative integer")
    if matched_draws not in MATCHED_DRAWS:
        raise RobotaskError(f"matched_draws = {matched_draws!r}: expected one of {', '.join(MATCHED_DRAWS)}")
    rng = np.random.default_rng(seed)
    primary = draw_permutations(corpus.sizes, n_trials, rng)
    if matched_draws == "continue":
        matched = draw_permutations(corpus.sizes, n_matched_trials, rng)
    else:
        if n_matched_trials > n_trials:
            raise RobotaskError(f"matched_draws='reuse' needs n_matched_trials ({n_matched_trials}) "
                                f"<= n_trials ({n_trials})")
        matched = primary[:n_matched_trials]
    return Draws(primary, matched, matched_draws)


def design_rows(corpus: Corpus, perms: list[np.ndarray] | None, k: int, query_from: int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Gallery rows, their task indices, and query rows of one draw (``perms=None`` = source order).

    Parameters
    ----------
    corpus : the validated corpus.
    perms : one permutation per task, or None for the first-listed (source-order) gallery.
    k : gallery descriptions per task.
    query_from : first shuffled position (0-based) used as a query.
    """
    gallery, g_task, queries = [], [], []
    for j, (start, n) in enumerate(zip(corpus.starts, corpus.sizes)):
        order = start + (np.arange(n) if perms is None else perms[j])
        gallery.append(order[:k])
        g_task.append(np.full(min(k, n), j))
        queries.append(order[query_from:])
    return np.concatenate(gallery), np.concatenate(g_task), np.concatenate(queries)


# --------------------------------------------------------------------------- scoring
def task_scores(scores: np.ndarray, g_task: np.ndarray, n_tasks: int) -> np.ndarray:
    """S(t, q) = max over task t's gallery columns; (n_queries, n_tasks), -inf for empty tasks.

    Parameters
    ----------
    scores : (n_queries, n_gallery) similarities.
    g_task : task index of each gallery column, non-decreasing.
    n_tasks : number of tasks.
    """
    out = np.full((scores.shape[0], n_tasks), -np.inf)
    if scores.shape[1] == 0:
        return out
    present, starts = np.unique(g_task, return_index=True)
    out[:, present] = np.maximum.reduceat(scores, starts, axis=1)
    return out


def predict(scores: np.ndarray, g_task: np.ndarray, n_tasks: int) -> tuple[np.ndarray, np.ndarray]:
    """Predicted task index and its (rounded) score for each query; ties → first task in sorted order.

    Parameters
    ----------
    scores : (n_queries, n_gallery) similarities.
    g_task : task index of each gallery column (non-decreasing).
    n_tasks : number of tasks.
    """
    s = np.round(task_scores(scores, g_task, n_tasks), TIE_DECIMALS)
    pred = np.argmax(s, axis=1)  # argmax returns the first maximum: the earliest task id
    return pred, s[np.arange(len(pred)), pred]


def policy_counts(corpus: Corpus, q_rows: np.ndarray, pred: np.ndarray) -> dict[str, tuple[int, int, int]]:
    """(n_queries, n_excluded, n_correct) of each scoring policy for one trial and ranker.

    Parameters
    ----------
    corpus : the validated corpus.
    q_rows : corpus rows used as queries.
    pred : predicted task index per query.
    """
    dup = corpus.duplicate[q_rows]
    strict = pred == corpus.task_of[q_rows]
    either = corpus.owners[q_rows, pred]
    n, n_dup = len(q_rows), int(dup.sum())
    return {
        "primary": (n - n_dup, n_dup, int(strict[~dup].sum())),
        "strict": (n, 0, int(strict.sum())),
        "either": (n, 0, int(either.sum())),
    }


# --------------------------------------------------------------------------- the study
@dataclass
class StudyConfig:
    """Everything that fixes a run of the protocol (defaults = the paper's settings)."""

    seed: int = 413
    n_trials: int = 80
    n_matched_trials: int = 30
    rankers: list[str] = field(default_factory=lambda: list(rankers.PAPER_RANKERS))
    params: dict[str, Any] = field(default_factory=lambda: dict(rankers.DEFAULTS))
    matched_draws: str = "continue"
    save_all_predictions: bool = False

    def __post_init__(self) -> None:
        self.rankers = rankers.check_rankers(self.rankers)
        unknown = sorted(set(self.params) - set(rankers.DEFAULTS))
        if unknown:
            raise RobotaskError(f"unknown ranker parameter(s) {', '.join(unknown)}; "
                                f"expected some of {', '.join(rankers.DEFAULTS)}")
        self.params = {**rankers.DEFAULTS, **self.params}
        if not isinstance(self.n_trials, (int, np.integer)) or self.n_trials < 0:
            raise RobotaskError(f"n_trials = {self.n_trials!r}: expected a non-negative integer")
        if not isinstance(self.n_matched_trials, (int, np.integer)) or self.n_matched_trials < 0:
            raise RobotaskError(f"n_matched_trials = {self.n_matched_trials!r}: expected a non-negative integer")


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


def _prediction_frame(corpus: Corpus, condition: str, trial: int, ranker: str, q_rows: np.ndarray,
                      pred: np.ndarray, top: np.ndarray) -> pd.DataFrame:
    """Per-query predictions of one trial and ranker."""
    truth = corpus.task_of[q_rows]
    return pd.DataFrame({
        "condition": condition, "trial": trial, "ranker": ranker,
        "task": [corpus.tasks[j] for j in truth], "position": corpus.positions[q_rows],
        "text": [corpus.texts[i] for i in q_rows], "duplicate": corpus.duplicate[q_rows],
        "predicted": [corpus.tasks[j] for j in pred], "score": top,
        "correct": pred == truth, "correct_either": corpus.owners[q_rows, pred],
    })


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
        per_trial, predictions = _evaluate(corpus, config, designs(draws, parts), progress)
    return StudyResult(per_trial, predictions, draws, corpus, config)


def _evaluate(corpus: Corpus, config: StudyConfig, todo: list, progress: bool) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Score every design in ``todo`` with every ranker; return (per_trial, predictions)."""
    from robotask.progress import tqdm

    index = rankers.TextIndex(corpus.texts)
    texts = np.asarray(corpus.texts, dtype=object)
    rows, preds = [], []
    for condition, trial, perms, k, query_from in tqdm(todo, disable=not progress, desc="galleries", leave=False):
        g_rows, g_task, q_rows = design_rows(corpus, perms, k, query_from)
        gallery, queries = texts[g_rows].tolist(), texts[q_rows].tolist()
        for name in config.rankers:
            sim = rankers.score(name, gallery, queries, config.params, index=index)
            pred, top = predict(sim, g_task, len(corpus.tasks))
            for policy, (n_q, n_ex, n_ok) in policy_counts(corpus, q_rows, pred).items():
                rows.append((trial, condition, name, policy, n_q, n_ex, n_ok, 100.0 * n_ok / n_q if n_q else np.nan))
            if config.save_all_predictions or condition == "first_listed":
                preds.append(_prediction_frame(corpus, condition, trial, name, q_rows, pred, top))
    per_trial = pd.DataFrame(rows, columns=PER_TRIAL_COLUMNS)
    predictions = pd.concat(preds, ignore_index=True) if preds else _prediction_frame(
        corpus, "", 0, "", np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0))
    return per_trial, predictions


# --------------------------------------------------------------------------- reference + benchmark
def reference_predictions(corpus: Corpus, config: StudyConfig, todo: list,
                          progress: bool = False) -> dict[tuple[str, int, str], np.ndarray]:
    """Plain implementation: refit every scikit-learn vectorizer per gallery, score query by query.

    Returns ``{(condition, trial, ranker): predicted task indices}`` for comparison with the
    fast path.

    Parameters
    ----------
    corpus, config : as for :func:`run_study`.
    todo : designs from :func:`designs`.
    progress : show a tqdm bar.
    """
    from robotask.progress import tqdm

    out = {}
    for condition, trial, perms, k, query_from in tqdm(todo, disable=not progress, desc="reference", leave=False):
        g_rows, g_task, q_rows = design_rows(corpus, perms, k, query_from)
        gallery = [corpus.texts[i] for i in g_rows]
        for name in config.rankers:
            scorer = rankers.plain_scorer(name, gallery, config.params)
            pred = [int(predict(scorer(corpus.texts[i])[None, :], g_task, len(corpus.tasks))[0][0]) for i in q_rows]
            out[(condition, trial, name)] = np.asarray(pred, dtype=np.int64)
    return out


def fast_predictions(corpus: Corpus, predictions: pd.DataFrame) -> dict[tuple[str, int, str], np.ndarray]:
    """``{(condition, trial, ranker): predicted task indices}`` from a predictions table."""
    index = {t: j for j, t in enumerate(corpus.tasks)}
    return {key: grp["predicted"].map(index).to_numpy(np.int64)
            for key, grp in predictions.groupby(["condition", "trial", "ranker"], sort=False)}


def benchmark(corpus: Corpus | None = None, config: StudyConfig | None = None, repeats: int = 3,
              reference_trials: int | None = 2, progress: bool = False) -> dict[str, Any]:
    """Time the whole study (fast path) and the plain reference in one process; compare predictions.

    The plain reference takes minutes for the whole study, so by default it runs only the
    designs of the first two trials (primary and matched) plus the audit gallery, and the ratio
    compares both paths on that same subset; ``benchmarks/retrieval.py`` runs it on everything.

    Parameters
    ----------
    corpus : the validated corpus (default: the committed RLBench corpus).
    config : protocol settings (default: the paper's five rankers, 80 + 30 trials, audit).
    repeats : repetitions of the full fast study (the minimum is reported as ``study_s``).
    reference_trials : None = the reference runs every design; n = only designs with trial < n
        (primary, matched and audit), and the speed ratio compares both paths on that subset.
    progress : show a tqdm bar for the reference.

    Returns
    -------
    dict with ``study_s`` (wall time of the full fast study, parts primary+matched+audit),
    ``study_cpu_s`` (its CPU time, less sensitive to other load on the machine), ``fast_s`` and
    ``reference_s`` (the compared designs), ``ratio``, ``n_evaluations`` (gallery × ranker),
    ``n_predictions`` and ``identical`` (every prediction equal).
    """
    corpus = corpus if corpus is not None else load_study_corpus("", min_per_task=3)
    config = config or StudyConfig()
    times, cpu = [], []
    for _ in range(max(1, repeats)):
        t0, c0 = time.perf_counter(), time.process_time()
        run_study(corpus, config)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    draws = make_draws(corpus, config.seed, config.n_trials, config.n_matched_trials, config.matched_draws)
    todo = [d for d in designs(draws, PARTS) if reference_trials is None or d[1] < reference_trials]
    full = StudyConfig(**{**config.__dict__, "save_all_predictions": True})
    with threadpool_limits(1):
        t0 = time.perf_counter()
        _evaluate(corpus, config, todo, False)
        fast_s = time.perf_counter() - t0
        fast = fast_predictions(corpus, _evaluate(corpus, full, todo, False)[1])
    t0 = time.perf_counter()
    ref = reference_predictions(corpus, config, todo, progress)
    reference_s = time.perf_counter() - t0
    identical = set(fast) == set(ref) and all(np.array_equal(fast[k], ref[k]) for k in ref)
    return {"study_s": min(times), "study_cpu_s": min(cpu), "fast_s": fast_s, "reference_s": reference_s, "ratio": reference_s / fast_s,
            "n_evaluations": len(ref), "n_predictions": int(sum(len(v) for v in ref.values())),
            "reference_trials": reference_trials, "identical": bool(identical)}


# --------------------------------------------------------------------------- CLI
def register_cli(subparsers: Any) -> None:
    """Add ``robotask retrieval``: run the protocol on a corpus and print the Table-2-style summary."""
    p = subparsers.add_parser("retrieval", help="rank held-out instructions over random galleries (Table 2 summary)")
    p.add_argument("--corpus", default="", help="CSV with task and text columns (default: the RLBench corpus)")
    p.add_argument("--trials", type=int, default=80, help="number of random one-description galleries")
    p.add_argument("--rankers", default=",".join(rankers.PAPER_RANKERS), help="comma-separated ranker names")
    p.add_argument("--seed", type=int, default=413, help="NumPy generator seed of the draws")
    p.add_argument("--out", default="", help="folder for per_trial.csv, predictions.csv, draws.csv (optional)")
    p.add_argument("--all-predictions", action="store_true",
                   help="write per-query predictions of every trial (default: the first-listed gallery only)")
    p.set_defaults(func=cli_main)


def cli_main(args: Any) -> int:
    """Handler of ``robotask retrieval``."""
    from .statistics import summary_table

    if args.trials < 0:
        raise RobotaskError(f"--trials {args.trials}: expected a non-negative integer")
    config = StudyConfig(seed=args.seed, n_trials=args.trials, n_matched_trials=0,
                         rankers=rankers.check_rankers(args.rankers, "--rankers"),
                         save_all_predictions=bool(getattr(args, "all_predictions", False)))
    corpus = load_study_corpus(args.corpus, min_per_task=2)
    result = run_study(corpus, config, parts=("primary", "audit"))
    if args.out:
        result.write(args.out)
    table = summary_table(result.per_trial, condition="one", policy="primary")
    print(f"{len(corpus.tasks)} tasks, {len(corpus.texts)} descriptions, {args.trials} galleries, seed {args.seed}")
    print(table.round(1).to_string(index=False))
    return 0


def config_from_parameters(seed: int = 413, n_trials: int = 80, n_matched_trials: int = 30,
                           rankers: list[str] | None = None, bm25_k1: float = 1.2, bm25_b: float = 0.75,
                           char_ngram_min: int = 3, char_ngram_max: int = 5, lsa_dims: int = 32,
                           matched_draws: str = "continue", save_all_predictions: bool = False) -> StudyConfig:
    """A :class:`StudyConfig` from the notebook parameters of chapters 02–05 (same names).

    Parameters
    ----------
    seed, n_trials, n_matched_trials, matched_draws, save_all_predictions : the protocol.
    rankers : ranker names (default: the paper's five).
    bm25_k1, bm25_b, char_ngram_min, char_ngram_max, lsa_dims : ranker settings.
    """
    from . import rankers as rk

    return StudyConfig(seed=seed, n_trials=n_trials, n_matched_trials=n_matched_trials,
                       rankers=list(rankers) if rankers is not None else list(rk.PAPER_RANKERS),
                       params={"bm25_k1": bm25_k1, "bm25_b": bm25_b, "char_ngram_min": char_ngram_min,
                               "char_ngram_max": char_ngram_max, "lsa_dims": lsa_dims},
                       matched_draws=matched_draws, save_all_predictions=save_all_predictions)
