"""The reproduction report: our numbers under the paper's keys, the comparison, the claims, other corpora.

Used by notebooks ``01`` (the corpus counts and extraction rules beside the paper's), ``02``–``05``
(paper values beside ours) and ``05_reproduction_report`` (the full comparison and the claims).
The paper's numbers are data in :mod:`robotask.retrieval.reproduction.paper`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..protocol.draws import Corpus, check_corpus
from ..protocol.study import StudyConfig, run_study
from ..rlbench.fixed_corpus import corpus_counts
from ..rlbench.joins import JOIN_RULES, split_pieces
from ..statistics import across_galleries
from .paper import CLAIMS, CORPUS, DUPLICATE, NAMED_ERRORS, PAIRED, numbers


def our_numbers(per_trial: pd.DataFrame, corpus: Corpus, config: StudyConfig) -> dict[str, float]:
    """Our values under the keys of :func:`numbers`, from a full study run.

    Parameters
    ----------
    per_trial : tidy per-trial results with conditions one, matched_one/two and first_listed.
    corpus : the :class:`robotask.retrieval.protocol.draws.Corpus` that was run.
    config : the :class:`robotask.retrieval.protocol.study.StudyConfig` that was run.
    """
    out: dict[str, float] = {}
    conditions = set(per_trial["condition"])
    if "one" in conditions:
        for row in across_galleries.summary_table(per_trial).itertuples():
            out.update({f"table2.{row.ranker}.{s}": getattr(row, s) for s in ("mean", "sd", "p5", "p95", "min", "max")})
        for row in across_galleries.policy_table(per_trial).itertuples():
            out.update({f"table4.{row.ranker}.{s}": getattr(row, s) for s in ("strict", "either", "primary")})
        ran = set(per_trial["ranker"])
        for a, b in PAIRED:
            if {a, b} <= ran:
                p = across_galleries.paired(per_trial, a, b)
                out.update({f"paired.{a}-{b}.{s}": p[s] for s in ("mean_diff", "wins", "ties", "losses")})
        excl = across_galleries.exclusion_counts(per_trial)
        out["corpus.excluded_per_draw_min"], out["corpus.excluded_per_draw_max"] = excl.index.min(), excl.index.max()
    if {"matched_one", "matched_two"} <= conditions:
        for row in across_galleries.matched_table(per_trial).itertuples():
            out.update({f"table3.{row.ranker}.{s}": getattr(row, s) for s in ("one", "two", "diff")})
    audit = per_trial[(per_trial["condition"] == "first_listed") & (per_trial["policy"] == "primary")]
    out.update({f"first_listed.{r.ranker}": r.accuracy for r in audit.itertuples()})
    n_tasks, sizes = len(corpus.tasks), np.asarray(corpus.sizes)
    out.update({"corpus.tasks": n_tasks, "corpus.descriptions": int(sizes.sum()),
                "corpus.min_per_task": int(sizes.min()),
                "corpus.gallery_per_trial": n_tasks, "corpus.queries_per_trial": int(sizes.sum()) - n_tasks,
                "corpus.matched_gallery": 2 * n_tasks})
    out.update({f"settings.{k}": v for k, v in (("seed", config.seed), ("n_trials", config.n_trials),
                                               ("n_matched_trials", config.n_matched_trials),
                                               *config.params.items())})
    out["settings.word_ngram_max"] = 2
    return out


def compare(ours: dict[str, float], extra: dict[str, float] | None = None) -> pd.DataFrame:
    """The paper's numbers beside ours: key, unit, where, paper, ours, diff (ours − paper).

    Parameters
    ----------
    ours : values under :func:`numbers` keys (missing keys stay empty).
    extra : values for keys the study does not compute (e.g. the corpus accounting's file counts).
    """
    table = numbers()
    values = {**ours, **(extra or {})}
    table["ours"] = [float(values[k]) if k in values else np.nan for k in table["key"]]
    table["diff"] = table["ours"] - table["paper"]
    return table[["key", "unit", "where", "paper", "ours", "diff"]]


def check_claims(per_trial: pd.DataFrame, corpus: Corpus, audit_predictions: pd.DataFrame) -> pd.DataFrame:
    """Mark each of :data:`CLAIMS` reproduced or not, with the evidence from our run.

    Parameters
    ----------
    per_trial : tidy per-trial results of the full study (one, matched, first_listed).
    corpus : the :class:`robotask.retrieval.protocol.draws.Corpus` that was run.
    audit_predictions : per-query predictions of the first-listed gallery.
    """
    s = across_galleries.summary_table(per_trial).set_index("ranker")
    one = per_trial[(per_trial["condition"] == "one") & (per_trial["policy"] == "primary")]
    wide = one.pivot(index="trial", columns="ranker", values="n_correct")
    best_each = wide.eq(wide.max(axis=1), axis=0)
    m = across_galleries.matched_table(per_trial).set_index("ranker")
    pol = across_galleries.policy_table(per_trial).set_index("ranker")
    fl = per_trial[(per_trial["condition"] == "first_listed") & (per_trial["policy"] == "primary")].set_index("ranker")
    cb = across_galleries.paired(per_trial, "char", "bm25")
    excl = across_galleries.exclusion_counts(per_trial)
    dup = corpus.frame().query("duplicate")
    dup_texts = sorted(set(dup["text"]))
    pred = audit_predictions.set_index(["ranker", "text"])["predicted"]

    def named(ranker: str, text: str, task: str) -> tuple[bool, str]:
        got = pred.get((ranker, text))
        return got == task, f"{ranker} predicts {got} for '{text}'"

    evidence: dict[str, tuple[bool, str]] = {
        "char_best_mean": (s["mean"].idxmax() == "char",
                           f"highest mean: {s['mean'].idxmax()} ({s['mean'].max():.1f} %)"),
        "word_char_best_sometimes": (bool((best_each["word_char"] & (wide["word_char"] > wide["char"])).any()),
                                     f"Word+Char beats char in {int((wide['word_char'] > wide['char']).sum())} "
                                     f"of {len(wide)} galleries"),
        "char_beats_bm25": (cb["wins"] == len(wide) - 1 and cb["ties"] == 1,
                            f"wins / ties / losses: {cb['wins']} / {cb['ties']} / {cb['losses']}"),
        "first_listed_reversal": (fl.loc["word_char", "accuracy"] > fl.loc["char", "accuracy"]
                                  and s.loc["char", "mean"] > s.loc["word_char", "mean"],
                                  f"first-listed Word+Char {fl.loc['word_char', 'accuracy']:.1f} % vs char "
                                  f"{fl.loc['char', 'accuracy']:.1f} %; means {s.loc['word_char', 'mean']:.1f} % vs "
                                  f"{s.loc['char', 'mean']:.1f} %"),
        "second_helps_all": (bool((m["diff"] > 0).all()),
                             f"smallest gain {m['diff'].min():+.1f} pp ({m['diff'].idxmin()})"),
        "bm25_largest_gain": (m["diff"].idxmax() == "bm25",
                              f"largest gain: {m['diff'].idxmax()} ({m['diff'].max():+.1f} pp)"),
        "char_best_two": (m["two"].idxmax() == "char", f"highest two-description mean: {m['two'].idxmax()} "
                          f"({m['two'].max():.1f} %)"),
        "gap_not_artefact": (bool((pol.loc["char", ["strict", "either", "primary"]]
                                   > pol.loc["bm25", ["strict", "either", "primary"]]).all()),
                             "char − BM25: " + ", ".join(f"{p} {pol.loc['char', p] - pol.loc['bm25', p]:+.1f} pp"
                                                         for p in ("strict", "either", "primary"))),
        "duplicate_only_switch": (dup_texts == [DUPLICATE[0]] and sorted(dup["task"]) == sorted(DUPLICATE[1]),
                                  f"cross-task duplicates: {dup_texts} under {sorted(set(dup['task']))}"),
        "excluded_0_to_2": (int(excl.index.min()) >= 0 and int(excl.index.max()) <= 2,
                            "excluded per draw: " + ", ".join(f"{k} in {v} draws" for k, v in excl.items())),
        "bm25_microwave_error": named(*NAMED_ERRORS[0]),
        "char_charger_error": named(*NAMED_ERRORS[1]),
    }
    rows = [{"id": c.id, "claim": c.text, "where": c.where, "reproduced": bool(evidence[c.id][0]),
             "evidence": evidence[c.id][1]} for c in CLAIMS]
    return pd.DataFrame(rows)


def corpora_under_readings(literals: pd.DataFrame, min_per_task: int = 3) -> dict[str, pd.DataFrame]:
    """Corpora that other readings of the RLBench source would give, from ``literals.csv``.

    ``committed`` = the value Python returns (our corpus); ``split_one:<task>`` = only that
    task's glued literal (two strings fused by a missing comma) split in two; ``split_glued`` =
    every glued literal split (files returning one list of fixed literals); ``dedupe_within_task``
    = texts repeated inside a task kept once. Tasks with fewer than ``min_per_task``
    descriptions are dropped, as in the paper.

    Parameters
    ----------
    literals : ``robotask.retrieval.rlbench.fixed_corpus.load_literals()``.
    min_per_task : fewest descriptions a task keeps.
    """
    fixed = literals[literals["status"] == "fixed"]
    single = literals[literals["status"].isin(["fixed", "too_few"])]

    def build(frame: pd.DataFrame, split: Any) -> pd.DataFrame:
        rows = [(r.task,
                 t) for r in frame.itertuples() for t in (split_pieces(list(r.pieces)) if split(r) else [r.text])]
        out = pd.DataFrame(rows, columns=["task", "text"])
        sizes = out.groupby("task")["text"].transform("size")
        return out[sizes >= min_per_task].reset_index(drop=True)

    out = {"committed": build(fixed, lambda r: False)}
    for task in sorted(fixed.loc[fixed["n_glued_joins"] > 0, "task"].unique()):
        out[f"split_one:{task}"] = build(fixed, lambda r, t=task: r.task == t)
    out["split_glued"] = build(single, lambda r: r.n_glued_joins > 0)
    out["dedupe_within_task"] = out["committed"].drop_duplicates(["task", "text"]).reset_index(drop=True)
    return out


def evaluate_corpora(corpora: dict[str, pd.DataFrame], config: StudyConfig) -> pd.DataFrame:
    """Run the primary study and the audit gallery on each corpus; one row of headline numbers each.

    Parameters
    ----------
    corpora : {name: DataFrame with task and text}.
    config : the :class:`robotask.retrieval.protocol.study.StudyConfig` to run.
    """
    rows = []
    for name, frame in corpora.items():
        corpus = check_corpus(frame, 2, where=name)
        res = run_study(corpus, config, parts=("primary", "audit"))
        means = across_galleries.summary_table(res.per_trial).set_index("ranker")["mean"]
        fl = res.per_trial.query("condition == 'first_listed' and policy == 'primary'").set_index("ranker")
        row = {"corpus": name, "tasks": len(corpus.tasks), "descriptions": len(corpus.texts),
               "first_listed_scored": int(fl["n_queries"].iloc[0])}
        row.update({f"fl_{r}": fl.loc[r, "accuracy"] for r in ("word_char", "char") if r in fl.index})
        row.update({f"mean_{r}": m for r, m in means.items()})
        rows.append(row)
    return pd.DataFrame(rows)


def file_counts(accounting: pd.DataFrame) -> dict[str, int]:
    """The extraction accounting's file counts under the paper's keys (the ``extra`` of :func:`compare`):
    every task file of the source repository, and those not kept as tasks with fixed descriptions."""
    return {"corpus.task_files": len(accounting),
            "corpus.other_files": int((accounting["status"] != "fixed").sum())}


def compare_with_paper(corpus_df: pd.DataFrame, accounting: pd.DataFrame,
                       paper: dict | None = None) -> pd.DataFrame:
    """Our counts next to the paper's: task files, tasks, descriptions, queries per trial."""
    paper = CORPUS if paper is None else paper
    ours = {"task_files": len(accounting), **corpus_counts(corpus_df)}
    rows = [{"quantity": k, "ours": ours[k], "paper": int(paper[k]), "difference": ours[k] - int(paper[k])}
            for k in ("task_files", "tasks", "descriptions", "queries_per_trial")]
    return pd.DataFrame(rows)


def _single_list_literals(literals: pd.DataFrame) -> pd.DataFrame:
    """Literals of files that return one list made only of fixed literals (fixed or too_few)."""
    return literals[literals["status"].isin(["fixed", "too_few"])]


def _count(frame: pd.DataFrame, min_descriptions: int) -> tuple[int, int]:
    """Tasks with at least ``min_descriptions`` rows, and their rows."""
    sizes = frame.groupby("task").size()
    kept = sizes[sizes >= min_descriptions]
    return int(len(kept)), int(kept.sum())


JOIN_RULE_CHANGES: dict[str, str] = {
    "python": "value Python returns (the committed corpus)",
    "split_glued": "split every join that fuses two words",
    "split_capital": "split joins where a capitalised piece follows a letter",
}
"""What each extraction join rule (``robotask.retrieval.rlbench.joins.JOIN_RULES``) changes, for tables."""


def rule_alternatives(
    literals: pd.DataFrame, min_descriptions: int = 3, paper: dict | None = None
) -> pd.DataFrame:
    """Tasks and descriptions that alternative extraction rules would give, from ``literals.csv``.

    Rules: every join rule of ``robotask.retrieval.rlbench.joins.JOIN_RULES`` (``python`` is ours);
    ``dedupe_within_task``; ``any_fixed_literal`` (keep the fixed literals of every file, also
    beside templates and in branches); and ``split_one:<task>`` (ours with only that task's glued
    literal split).

    Returns
    -------
    DataFrame
        ``rule, change, tasks, descriptions, matches_paper``.
    """
    paper = CORPUS if paper is None else paper
    single = _single_list_literals(literals)
    ours = literals[literals["status"] == "fixed"]

    def texts(frame: pd.DataFrame, rule_of) -> pd.DataFrame:
        """One row per description when each literal's pieces are read with ``rule_of(task)``."""
        return pd.DataFrame(
            [{"task": r.task, "text": t} for r in frame.itertuples()
             for t in split_pieces(r.pieces, rule_of(r.task))],
            columns=["task", "text"],
        )

    rules = [(name, JOIN_RULE_CHANGES.get(name, name), texts(single, lambda _t, n=name: n))
             for name in JOIN_RULES]
    rules += [
        ("dedupe_within_task", "drop texts repeated inside a task",
         ours.drop_duplicates(["task", "text"])),
        ("any_fixed_literal", "keep fixed literals of every file (branches, templates too)",
         literals),
    ]
    for task in sorted(ours.loc[ours["n_glued_joins"] > 0, "task"].unique()):
        frame = texts(ours, lambda t, chosen=task: "split_glued" if t == chosen else "python")
        rules.append((f"split_one:{task}", f"split only the glued literal of {task}", frame))
    rows = []
    for name, change, frame in rules:
        n_tasks, n_desc = _count(frame, min_descriptions)
        rows.append({"rule": name, "change": change, "tasks": n_tasks, "descriptions": n_desc,
                     "matches_paper": n_tasks == paper["tasks"] and n_desc == paper["descriptions"]})
    return pd.DataFrame(rows, columns=["rule", "change", "tasks", "descriptions", "matches_paper"])


TIE_HEADERS = {"ranker": "Ranker", "paper": "Paper", "ours": "Ours, paper's rule", "ours_ties": "Ours, tie rule",
               "change": "Change (pp)", "tied_per_gallery": "Tied queries per gallery",
               "galleries_with_ties": "Galleries with a tie", "galleries": "Galleries"}
"""Column headers of :func:`table2_under_ties` for a reader."""


def table2_under_ties(per_trial: pd.DataFrame, table2: dict[str, dict[str, float]]) -> pd.DataFrame:
    """Table 2 under both tie rules: per ranker the paper's mean, ours under the paper's rule (ties to the first
    task in sorted order) and under the tie rule (a k-way tie that includes the right task counts 1/k,
    :func:`robotask.retrieval.protocol.study.tie_credit`), the change, the mean tied queries per gallery and the
    galleries with at least one tie (one-description galleries, primary policy)."""
    one = per_trial[(per_trial["condition"] == "one") & (per_trial["policy"] == "primary")]
    by = one.groupby("ranker", sort=False)
    out = pd.DataFrame({"paper": {r: table2[r]["mean"] for r in by.groups if r in table2},
                        "ours": by["accuracy"].mean(), "ours_ties": by["tie_accuracy"].mean(),
                        "tied_per_gallery": by["n_tied"].mean(),
                        "galleries_with_ties": by["n_tied"].apply(lambda n: int((n > 0).sum())),
                        "galleries": by["trial"].nunique()})
    out.insert(3, "change", out["ours_ties"] - out["ours"])
    return out.rename_axis("ranker").reset_index()
