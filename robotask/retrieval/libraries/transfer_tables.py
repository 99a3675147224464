"""The tables and the claim checks of chapter ``09_transfer``, from
:func:`robotask.retrieval.libraries.transfer.run_transfer`.

Every table has human headers, one row per ranker, pair, claim or category, and the libraries side by
side; cells that combine numbers are formatted here so that the chapter types none.
"""

from __future__ import annotations

import pandas as pd

from ...words import UNRESOLVED, paired_interval, verdict
from ..protocol.study import StudyConfig
from ..rankers.registry import PAPER_RANKERS, RANKERS
from ..statistics import across_galleries
from .transfer import CATEGORIES, LibraryRun, lsa_components

NEARLY_ALL = 0.9
"""'Nearly all galleries': at least this share of them (the paper: 79 of 80, the other one tied)."""
PAIRS = (("char", "bm25"), ("char", "word"))
CONFUSIONS = {  # transfer.CATEGORIES as the tables name them
    "direction": "opposite words", "colour": "colour only", "count": "number only",
    "other variation": "same task, other words", "other task": "another task",
}


def signed(x: float) -> str:
    """A signed number with one decimal and a true minus sign: "+8.8", "−0.2"."""
    return f"{'+' if x >= 0 else '−'}{abs(x):.1f}"


def _summaries(runs: dict[str, LibraryRun]) -> dict[str, pd.DataFrame]:
    return {k: across_galleries.summary_table(r.per_trial).set_index("ranker") for k, r in runs.items()}


def ranker_table(runs: dict[str, LibraryRun]) -> pd.DataFrame:
    """Per ranker and library: mean ± SD and the 5th–95th percentile band over galleries (%)."""
    sums = _summaries(runs)
    rankers = list(next(iter(sums.values())).index)
    rows = [{"Ranker": RANKERS[r].display, **{
        runs[k].library.spec.title: f"{s.loc[r, 'mean']:.1f} ± {s.loc[r, 'sd']:.1f} "
                                    f"({s.loc[r, 'p5']:.1f}–{s.loc[r, 'p95']:.1f})"
        for k, s in sums.items()}} for r in rankers]
    return pd.DataFrame(rows)


def long_summary(runs: dict[str, LibraryRun]) -> pd.DataFrame:
    """Tidy summary: library key, title, ranker and the spread statistics (for figures and summary.json)."""
    return pd.concat([s.reset_index().assign(library=k, title=runs[k].library.spec.title)
                      for k, s in _summaries(runs).items()], ignore_index=True)


def sensitivity(runs: dict[str, LibraryRun]) -> pd.DataFrame:
    """Per ranker and library: width of the 5th–95th percentile band over galleries (pp)."""
    sums = _summaries(runs)
    rankers = list(next(iter(sums.values())).index)
    return pd.DataFrame([{"Ranker": RANKERS[r].display, **{runs[k].library.spec.title: s.loc[r, "p95"] - s.loc[r, "p5"]
                                                           for k, s in sums.items()}} for r in rankers])


def paired(runs: dict[str, LibraryRun]) -> pd.DataFrame:
    """Char − BM25 and char − word per library: mean paired difference and wins, ties, losses of char."""
    rows = []
    for r in runs.values():
        for a, b in PAIRS:
            if {a, b} <= set(r.per_trial["ranker"]):
                d = across_galleries.paired(r.per_trial, a, b)
                rows.append({"Library": r.library.spec.title, "Comparison": f"{RANKERS[a].label} − {RANKERS[b].label}",
                             "Mean difference (pp)": d["mean_diff"], "Char wins": d["wins"], "Ties": d["ties"],
                             "Char loses": d["losses"], "Galleries": d["n_trials"]})
    return pd.DataFrame(rows)


def matched(runs: dict[str, LibraryRun]) -> dict[str, pd.DataFrame]:
    """The matched table (one vs two descriptions) of each library, by key."""
    return {k: across_galleries.matched_table(r.per_trial).set_index("ranker") for k, r in runs.items()}


def gains(runs: dict[str, LibraryRun]) -> pd.DataFrame:
    """Per ranker and library: gain of the second description in pp, with the one → two means."""
    tables = matched(runs)
    rankers = list(next(iter(tables.values())).index)
    return pd.DataFrame([{"Ranker": RANKERS[r].display, **{
        runs[k].library.spec.title: f"{signed(m.loc[r, 'diff'])} ({m.loc[r, 'one']:.1f} → {m.loc[r, 'two']:.1f})"
        for k, m in tables.items()}} for r in rankers])


HOLDS, FAILS = "holds", "does not hold"


def _all_of(words: list[str]) -> str:
    """One claim over several paired comparisons: holds when every one holds, fails when any fails."""
    return FAILS if FAILS in words else HOLDS if all(w == HOLDS for w in words) else UNRESOLVED


def _iv(a: pd.Series, b: pd.Series) -> tuple[str, str]:
    """(verdict of a − b, its evidence "+0.1 pp (95 % interval −0.3 to +0.5)"), paired over the index."""
    iv = paired_interval(a.to_numpy(float), b.to_numpy(float))
    return (verdict(iv.low, iv.high, above=HOLDS, below=FAILS),
            f"{signed(iv.mean)} pp (95 % interval {signed(iv.low)} to {signed(iv.high)})")


def share_interval(wins: int, n: int) -> tuple[float, float]:
    """Exact (Clopper–Pearson) 95 % interval of a share of ``wins`` in ``n`` galleries, as fractions."""
    from scipy import stats  # here: scipy.stats costs every page that imports the libraries 0.4 s

    ci = stats.binomtest(int(wins), int(n)).proportion_ci(0.95)
    return float(ci.low), float(ci.high)


def nearly_all_verdict(wins: int, n: int) -> str:
    """Whether "in nearly all galleries" holds for ``wins`` of ``n``: "holds" when the exact 95 % interval of
    the share lies above :data:`NEARLY_ALL`, "does not hold" when below, else "not resolved"."""
    lo, hi = share_interval(wins, n)
    return verdict(lo - NEARLY_ALL, hi - NEARLY_ALL, above=HOLDS, below=FAILS)


def claim_verdicts(one: pd.DataFrame, gain: pd.DataFrame, second: str = "description"
                   ) -> dict[str, tuple[str, str]]:
    """Each claim of the paper on one library: (verdict, evidence), decided by :mod:`robotask.words`.

    ``one``: one-wording accuracy (%), galleries × rankers; ``gain``: matched gain of a second ``second``
    (pp), matched trials × rankers. Only the paper's rankers take part; the claim about Word TF-IDF is
    left out when it was not run. A mean comparison holds when the 95 % interval of the paired difference
    lies above zero, fails when it lies below, and is "not resolved" when it includes zero; "nearly all
    galleries" holds when the exact interval of the share of galleries Char TF-IDF wins lies above
    :data:`NEARLY_ALL`.
    """
    one = one[[r for r in one.columns if r in PAPER_RANKERS]]
    gain = gain[[r for r in gain.columns if r in PAPER_RANKERS]]
    others = [r for r in one.columns if r != "char"]
    best = one[others].mean().idxmax()
    verdicts = [_iv(one["char"], one[r])[0] for r in others]
    found = {"Char TF-IDF has the highest mean": (_all_of(verdicts), (
        f"Char {one['char'].mean():.1f} %, best other {RANKERS[best].label} {one[best].mean():.1f} %, "
        f"difference {_iv(one['char'], one[best])[1]}"))}
    wins, n = int((one["char"] > one["bm25"]).sum()), len(one)
    lo, hi = share_interval(wins, n)
    found[f"Char TF-IDF beats BM25 in nearly all galleries (at least {100 * NEARLY_ALL:.0f} %)"] = (
        nearly_all_verdict(wins, n), f"ahead in {wins} of {n} (share 95 % interval {100 * lo:.0f}–{100 * hi:.0f} %)")
    if "word" in one.columns:
        found["Char TF-IDF beats word TF-IDF on average"] = _iv(one["char"], one["word"])
    zero = pd.Series(0.0, index=gain.index)
    helps = {r: _iv(gain[r], zero) for r in gain.columns}
    low = min(gain.columns, key=lambda r: paired_interval(gain[r].to_numpy(float), zero.to_numpy()).low)
    found[f"A second {second} helps every ranker"] = (_all_of([v for v, _ in helps.values()]), (
        f"least sure gain {RANKERS[low].label} {helps[low][1]}"))
    rival = gain.drop(columns="bm25").mean().idxmax()
    found[f"BM25 gains most from a second {second}"] = (
        _all_of([_iv(gain["bm25"], gain[r])[0] for r in gain.columns if r != "bm25"]),
        f"BM25 {signed(gain['bm25'].mean())} pp, largest other {RANKERS[rival].label} "
        f"{signed(gain[rival].mean())} pp, difference {_iv(gain['bm25'], gain[rival])[1]}")
    return found


def verdict_table(per_library: dict[str, dict[str, tuple[str, str]]]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(table of "verdict: evidence" cells by library title, claim × library verdict words)."""
    names = list(next(iter(per_library.values())))
    cells = pd.DataFrame([{"Claim": c, **{t: f"{v[c][0]}: {v[c][1]}" for t, v in per_library.items()}}
                          for c in names])
    words = pd.DataFrame({t: [v[c][0] for c in names] for t, v in per_library.items()}, index=names)
    return cells, words


def _wide(per_trial: pd.DataFrame, condition: str) -> pd.DataFrame:
    sel = per_trial[(per_trial["condition"] == condition) & (per_trial["policy"] == "primary")]
    return sel.pivot(index="trial", columns="ranker", values="accuracy")


def claims(runs: dict[str, LibraryRun]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(table of "verdict: evidence" cells, claim × library verdicts) for the paper's five claims."""
    return verdict_table({r.library.spec.title: claim_verdicts(
        _wide(r.per_trial, "one"), _wide(r.per_trial, "matched_two") - _wide(r.per_trial, "matched_one"))
        for r in runs.values()})


def leader_table(runs: dict[str, LibraryRun]) -> pd.DataFrame:
    """Per library: the paper's ranker with the highest mean, the runner-up, the paired difference with its 95 %
    interval over galleries, and the verdict: the leader's label where the interval lies above zero, else
    "not resolved"."""
    rows = []
    for r in runs.values():
        wide = _wide(r.per_trial, "one")
        wide = wide[[c for c in wide.columns if c in PAPER_RANKERS]]
        means = wide.mean()
        top, second = sorted(means.index, key=lambda n: (-means[n], n))[:2]
        iv = paired_interval(wide[top].to_numpy(float), wide[second].to_numpy(float))
        rows.append({"Library": r.library.spec.title, "Leader": RANKERS[top].label, "Mean (%)": means[top],
                     "Runner-up": RANKERS[second].label, "Runner-up mean (%)": means[second],
                     "Difference (pp)": iv.mean, "95 % interval": f"{signed(iv.low)} to {signed(iv.high)}",
                     "Verdict": verdict(iv.low, iv.high, above=f"{RANKERS[top].label} leads",
                                        below=UNRESOLVED)})
    return pd.DataFrame(rows)


def error_shares(runs: dict[str, LibraryRun], rankers: tuple[str, ...] = ("char", "minilm")) -> pd.DataFrame:
    """Per library and kind of confusion: errors per gallery and share of errors (%) of each of ``rankers``."""
    rows = []
    for r in runs.values():
        n = r.per_trial["trial"][r.per_trial["condition"] == "one"].nunique()
        wide = r.errors.pivot(index="category", columns="ranker", values="errors").fillna(0)
        wide = wide.reindex([c for c in CATEGORIES if c in wide.index])
        for cat in wide.index:
            row = {"Library": r.library.spec.title, "Confusion": CONFUSIONS.get(cat, cat)}
            for name in rankers:
                if name in wide.columns:
                    row[f"{RANKERS[name].label}: errors per gallery"] = wide.loc[cat, name] / n
                    row[f"{RANKERS[name].label}: share of errors (%)"] = 100.0 * wide.loc[cat, name] / wide[name].sum()
            rows.append(row)
    return pd.DataFrame(rows)


def near_shares(shares: pd.DataFrame, ranker: str = "char") -> pd.Series:
    """Per library (title): the share (%) of ``ranker``'s wrong answers in every row of
    :func:`error_shares` but *another task*, i.e. between labels one word apart or of one task."""
    column = f"{RANKERS[ranker].label}: share of errors (%)"
    near = shares[shares["Confusion"] != CONFUSIONS["other task"]]
    return near.groupby("Library", sort=False)[column].sum()


def examples(run: LibraryRun) -> pd.DataFrame:
    """The verified errors of one library with human headers."""
    shown = run.examples.assign(category=run.examples["category"].map(lambda c: CONFUSIONS.get(c, c)))
    return shown.rename(columns={
        "category": "Confusion", "query": "Query", "truth": "True label", "truth_indexed": "Indexed for the true label",
        "predicted": f"{RANKERS[run.example_ranker].label} predicts", "predicted_indexed": "Indexed for the "
                                                                                           "prediction"})



def variation_numbers(run: LibraryRun, config: StudyConfig) -> dict[str, object]:
    """What chapter 09.1 reads at variation level: queries left out per gallery, the share (%) of Char TF-IDF's
    wrong answers naming the right task file, and LSA by number of components (:func:`.transfer.lsa_components`)."""
    t = run.per_trial
    one = t[(t["condition"] == "one") & (t["policy"] == "primary")]
    lsa = lsa_components(run.library, config)
    return {"var_excluded": f"{one.drop_duplicates('trial')['n_excluded'].mean():.0f}",
            "var_task_right": float(run.task_right.get("char", float("nan"))),
            "lsa_small": lsa["accuracy"].iloc[0], "lsa_mid": lsa["accuracy"].iloc[1],
            "lsa_large": lsa["accuracy"].iloc[2], "word_var": lsa["accuracy"].iloc[3],
            "lsa_task": lsa["right_task_file"].iloc[0], "lsa_mid_dims": int(lsa["components"].iloc[1]),
            "lsa_large_dims": int(lsa["components"].iloc[2]), "n_var_labels": len(run.library.corpus.tasks)}
