"""Every number the paper states, as data, and the side-by-side comparison with ours.

Paper: J. Yelamanchi, "Reference Wording Shapes Retrieval of Robot Task Instructions",
arXiv:2610.17549v1. Each value carries where it is stated (section, table, figure). These are
reference values to compare with, never our results.

Used by notebooks ``02_five_rankers``, ``03_second_description``, ``04_scoring_audit`` (paper
values beside ours) and ``05_reproduction_report`` (the full comparison and the claims).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

RANKER_ORDER = ("bm25", "word", "char", "word_char", "lsa")

TABLE2: dict[str, dict[str, float]] = {  # Table 2 (section 4); means also in Figure 2 and the abstract
    "bm25": {"mean": 55.6, "sd": 2.5, "p5": 52.1, "p95": 60.8, "min": 51.1, "max": 62.1},
    "word": {"mean": 54.9, "sd": 3.0, "p5": 50.0, "p95": 59.1, "min": 47.8, "max": 61.6},
    "char": {"mean": 61.3, "sd": 2.6, "p5": 56.9, "p95": 64.8, "min": 55.2, "max": 66.8},
    "word_char": {"mean": 60.9, "sd": 3.0, "p5": 55.6, "p95": 65.5, "min": 53.8, "max": 67.7},
    "lsa": {"mean": 52.8, "sd": 2.9, "p5": 48.3, "p95": 57.3, "min": 47.0, "max": 60.8},
}
TABLE3: dict[str, dict[str, float]] = {  # Table 3 (section 5): matched one vs two descriptions, 30 trials
    "bm25": {"one": 54.0, "two": 64.2, "diff": 10.2},
    "word": {"one": 53.3, "two": 60.7, "diff": 7.4},
    "char": {"one": 59.3, "two": 66.4, "diff": 7.0},
    "word_char": {"one": 59.2, "two": 65.1, "diff": 5.9},
    "lsa": {"one": 52.0, "two": 56.2, "diff": 4.3},
}
TABLE4: dict[str, dict[str, float]] = {  # Table 4 (section 7.1): means over the 80 draws per policy
    "bm25": {"strict": 55.4, "either": 55.6, "primary": 55.6},
    "char": {"strict": 60.9, "either": 61.0, "primary": 61.3},
    "word": {"strict": 54.7, "either": 55.1, "primary": 54.9},
}
FIRST_LISTED: dict[str, float] = {"word_char": 63.8, "char": 62.9}  # section 4, first-listed gallery
PAIRED: dict[tuple[str, str], dict[str, float]] = {  # section 4, paired by trial over 80 galleries
    ("char", "bm25"): {"mean_diff": 5.7, "wins": 79, "ties": 1, "losses": 0},
    ("char", "word"): {"mean_diff": 6.4},
}
CORPUS: dict[str, int] = {  # section 2, section 3 and Table 1
    "task_files": 106, "tasks": 62, "descriptions": 296, "other_files": 44, "min_per_task": 3,
    "gallery_per_trial": 62, "queries_per_trial": 234, "matched_gallery": 124,
    "excluded_per_draw_min": 0, "excluded_per_draw_max": 2,
}
SETTINGS: dict[str, float] = {  # sections 3 and 3.1
    "seed": 413, "n_trials": 80, "n_matched_trials": 30, "bm25_k1": 1.2, "bm25_b": 0.75,
    "word_ngram_max": 2, "char_ngram_min": 3, "char_ngram_max": 5, "lsa_dims": 32,
}
NAMED_ERRORS: tuple[tuple[str, str, str], ...] = (  # section 7.1, first-listed gallery
    ("bm25", "open the microwave door", "open_door"),
    ("char", "plug the charger into the mains", "unplug_charger"),
)
DUPLICATE: tuple[str, tuple[str, ...]] = ("press the light switch", ("lamp_off", "lamp_on"))  # sections 3, 6

WHERE = {"table2": "Table 2, §4 (means also abstract, Fig. 2)", "table3": "Table 3, §5 (char diff also abstract)",
         "table4": "Table 4, §7.1", "first_listed": "§4", "paired": "§4", "corpus": "§2, §3, Table 1",
         "settings": "§3, §3.1"}


@dataclass(frozen=True)
class Claim:
    """A qualitative statement of the paper that our run can confirm or not."""

    id: str
    text: str
    where: str


CLAIMS: tuple[Claim, ...] = (
    Claim("char_best_mean", "Character TF-IDF has the highest mean top-1 accuracy", "Table 2, §4, abstract"),
    Claim("word_char_best_sometimes", "Word+Char has the highest score in some individual galleries", "§4"),
    Claim("char_beats_bm25", "Character TF-IDF outperforms BM25 in 79 of 80 galleries; the remaining draw ties", "§4"),
    Claim("first_listed_reversal", "On the first-listed gallery Word+Char beats character TF-IDF, "
          "while their averages over random galleries reverse", "§4"),
    Claim("second_helps_all", "The added description helps every ranker on average", "§5"),
    Claim("bm25_largest_gain", "BM25 has the largest increase from a second description", "§5"),
    Claim("char_best_two", "Character TF-IDF keeps the highest two-description mean", "§5"),
    Claim("gap_not_artefact", "The char-over-BM25 gap is not an artefact of dropping the switch instruction "
          "(it holds under strict and either-label scoring)", "§7.1"),
    Claim("duplicate_only_switch", "The only exact cross-task duplicate is 'press the light switch' "
          "(lamp_on and lamp_off)", "§3, §6"),
    Claim("excluded_0_to_2", "Between zero and two queries are excluded per draw", "§3"),
    Claim("bm25_microwave_error", "On the first-listed gallery BM25 retrieves open_door for "
          "'open the microwave door'", "§7.1"),
    Claim("char_charger_error", "On the first-listed gallery character TF-IDF retrieves unplug_charger for "
          "'plug the charger into the mains'", "§7.1"),
)


def numbers() -> pd.DataFrame:
    """Every number the paper states, one row each: key, value, unit, where.

    Keys look like ``table2.char.mean``, ``table3.bm25.diff``, ``first_listed.char``,
    ``paired.char-bm25.wins``, ``corpus.descriptions``, ``settings.seed``.
    """
    rows: list[tuple[str, float, str, str]] = []
    for table, unit_of in (("table2", lambda s: "pp" if s == "sd" else "%"),
                           ("table3", lambda s: "pp" if s == "diff" else "%"),
                           ("table4", lambda s: "%")):
        for ranker, stats in globals()[table.upper()].items():
            rows += [(f"{table}.{ranker}.{s}", v, unit_of(s), WHERE[table]) for s, v in stats.items()]
    rows += [(f"first_listed.{r}", v, "%", WHERE["first_listed"]) for r, v in FIRST_LISTED.items()]
    for (a, b), stats in PAIRED.items():
        rows += [(f"paired.{a}-{b}.{s}", v, "pp" if s == "mean_diff" else "count", WHERE["paired"])
                 for s, v in stats.items()]
    rows += [(f"corpus.{k}", v, "count", WHERE["corpus"]) for k, v in CORPUS.items()]
    rows += [(f"settings.{k}", v, "setting", WHERE["settings"]) for k, v in SETTINGS.items()]
    return pd.DataFrame(rows, columns=["key", "paper", "unit", "where"])


def our_numbers(per_trial: pd.DataFrame, corpus: Any, config: Any) -> dict[str, float]:
    """Our values under the keys of :func:`numbers`, from a full study run.

    Parameters
    ----------
    per_trial : tidy per-trial results with conditions one, matched_one/two and first_listed.
    corpus : the :class:`robotask.protocol.Corpus` that was run.
    config : the :class:`robotask.protocol.StudyConfig` that was run.
    """
    from . import statistics

    out: dict[str, float] = {}
    conditions = set(per_trial["condition"])
    if "one" in conditions:
        for row in statistics.summary_table(per_trial).itertuples():
            out.update({f"table2.{row.ranker}.{s}": getattr(row, s) for s in ("mean", "sd", "p5", "p95", "min", "max")})
        for row in statistics.policy_table(per_trial).itertuples():
            out.update({f"table4.{row.ranker}.{s}": getattr(row, s) for s in ("strict", "either", "primary")})
        ran = set(per_trial["ranker"])
        for a, b in PAIRED:
            if {a, b} <= ran:
                p = statistics.paired(per_trial, a, b)
                out.update({f"paired.{a}-{b}.{s}": p[s] for s in ("mean_diff", "wins", "ties", "losses")})
        excl = statistics.exclusion_counts(per_trial)
        out["corpus.excluded_per_draw_min"], out["corpus.excluded_per_draw_max"] = excl.index.min(), excl.index.max()
    if {"matched_one", "matched_two"} <= conditions:
        for row in statistics.matched_table(per_trial).itertuples():
            out.update({f"table3.{row.ranker}.{s}": getattr(row, s) for s in ("one", "two", "diff")})
    audit = per_trial[(per_trial["condition"] == "first_listed") & (per_trial["policy"] == "primary")]
    out.update({f"first_listed.{r.ranker}": r.accuracy for r in audit.itertuples()})
    n_tasks, sizes = len(corpus.tasks), np.asarray(corpus.sizes)
    out.update({"corpus.tasks": n_tasks, "corpus.descriptions": int(sizes.sum()), "corpus.min_per_task": int(sizes.min()),
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


def attainable(percent: float, n: int, decimals: int = 1) -> list[int]:
    """Correct-query counts k with round(100·k/n, decimals) == percent (which denominators fit a stated %).

    Parameters
    ----------
    percent : a stated percentage.
    n : a candidate number of scored queries.
    decimals : decimals the percentage was rounded to.
    """
    return [k for k in range(n + 1) if round(100.0 * k / n, decimals) == round(percent, decimals)]


def check_claims(per_trial: pd.DataFrame, corpus: Any, audit_predictions: pd.DataFrame) -> pd.DataFrame:
    """Mark each of :data:`CLAIMS` reproduced or not, with the evidence from our run.

    Parameters
    ----------
    per_trial : tidy per-trial results of the full study (one, matched, first_listed).
    corpus : the :class:`robotask.protocol.Corpus` that was run.
    audit_predictions : per-query predictions of the first-listed gallery.
    """
    from . import statistics

    s = statistics.summary_table(per_trial).set_index("ranker")
    one = per_trial[(per_trial["condition"] == "one") & (per_trial["policy"] == "primary")]
    wide = one.pivot(index="trial", columns="ranker", values="n_correct")
    best_each = wide.eq(wide.max(axis=1), axis=0)
    m = statistics.matched_table(per_trial).set_index("ranker")
    pol = statistics.policy_table(per_trial).set_index("ranker")
    fl = per_trial[(per_trial["condition"] == "first_listed") & (per_trial["policy"] == "primary")].set_index("ranker")
    cb = statistics.paired(per_trial, "char", "bm25")
    excl = statistics.exclusion_counts(per_trial)
    dup = corpus.frame().query("duplicate")
    dup_texts = sorted(set(dup["text"]))
    pred = audit_predictions.set_index(["ranker", "text"])["predicted"]

    def named(ranker: str, text: str, task: str) -> tuple[bool, str]:
        got = pred.get((ranker, text))
        return got == task, f"{ranker} predicts {got} for '{text}'"

    evidence: dict[str, tuple[bool, str]] = {
        "char_best_mean": (s["mean"].idxmax() == "char", f"highest mean: {s['mean'].idxmax()} ({s['mean'].max():.1f} %)"),
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
        "second_helps_all": (bool((m["diff"] > 0).all()), f"smallest gain {m['diff'].min():+.1f} pp ({m['diff'].idxmin()})"),
        "bm25_largest_gain": (m["diff"].idxmax() == "bm25", f"largest gain: {m['diff'].idxmax()} ({m['diff'].max():+.1f} pp)"),
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


def as_json() -> str:
    """All paper numbers as JSON (for ``summary.json`` files)."""
    return json.dumps({r.key: r.paper for r in numbers().itertuples()}, sort_keys=True)


def denominators(percents: dict[str, float], candidates: range) -> pd.DataFrame:
    """For each stated percentage, the candidate query counts n that can produce it (k/n rounded).

    Parameters
    ----------
    percents : {key: stated percentage}.
    candidates : numbers of scored queries to try.
    """
    rows = []
    for key, value in percents.items():
        fits = [n for n in candidates if attainable(value, n)]
        rows.append({"key": key, "paper": value, "fitting_n": " ".join(map(str, fits)) or "none"})
    return pd.DataFrame(rows)


def alternative_corpora(literals: pd.DataFrame, min_per_task: int = 3) -> dict[str, pd.DataFrame]:
    """Corpora that other readings of the RLBench source would give, from ``literals.csv``.

    ``committed`` = the value Python returns (our corpus); ``split_one:<task>`` = only that
    task's glued literal (two strings fused by a missing comma) split in two; ``split_glued`` =
    every glued literal split (files returning one list of fixed literals); ``dedupe_within_task``
    = texts repeated inside a task kept once. Tasks with fewer than ``min_per_task``
    descriptions are dropped, as in the paper.

    Parameters
    ----------
    literals : ``robotask.corpus.load_literals()``.
    min_per_task : fewest descriptions a task keeps.
    """
    from .extraction import split_pieces

    fixed = literals[literals["status"] == "fixed"]
    single = literals[literals["status"].isin(["fixed", "too_few"])]

    def build(frame: pd.DataFrame, split: Any) -> pd.DataFrame:
        rows = [(r.task, t) for r in frame.itertuples() for t in (split_pieces(list(r.pieces)) if split(r) else [r.text])]
        out = pd.DataFrame(rows, columns=["task", "text"])
        sizes = out.groupby("task")["text"].transform("size")
        return out[sizes >= min_per_task].reset_index(drop=True)

    out = {"committed": build(fixed, lambda r: False)}
    for task in sorted(fixed.loc[fixed["n_glued_joins"] > 0, "task"].unique()):
        out[f"split_one:{task}"] = build(fixed, lambda r, t=task: r.task == t)
    out["split_glued"] = build(single, lambda r: r.n_glued_joins > 0)
    out["dedupe_within_task"] = out["committed"].drop_duplicates(["task", "text"]).reset_index(drop=True)
    return out


def evaluate_corpora(corpora: dict[str, pd.DataFrame], config: Any) -> pd.DataFrame:
    """Run the primary study and the audit gallery on each corpus; one row of headline numbers each.

    Parameters
    ----------
    corpora : {name: DataFrame with task and text}.
    config : the :class:`robotask.protocol.StudyConfig` to run.
    """
    from . import protocol, statistics

    rows = []
    for name, frame in corpora.items():
        corpus = protocol.check_corpus(frame, 2, where=name)
        res = protocol.run_study(corpus, config, parts=("primary", "audit"))
        means = statistics.summary_table(res.per_trial).set_index("ranker")["mean"]
        fl = res.per_trial.query("condition == 'first_listed' and policy == 'primary'").set_index("ranker")
        row = {"corpus": name, "tasks": len(corpus.tasks), "descriptions": len(corpus.texts),
               "first_listed_scored": int(fl["n_queries"].iloc[0])}
        row.update({f"fl_{r}": fl.loc[r, "accuracy"] for r in ("word_char", "char") if r in fl.index})
        row.update({f"mean_{r}": m for r, m in means.items()})
        rows.append(row)
    return pd.DataFrame(rows)
