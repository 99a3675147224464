"""The numbers and short phrases behind the home page's answers on retrieval (Parts I and II).

Each function reads the ``summary.json`` of one chapter, as :func:`robotask.book.report.read_summary`
returns it, and gives a number, a small table or a few words; the home page's Markdown says the rest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from ...words import join, pp
from ..libraries import NEARLY_ALL, nearly_all_verdict
from ..rankers.registry import RANKERS
from ..reproduction import paper
from .phrases import how_many


def char_vs_bm25(transfer: Mapping | None, libraries: Mapping | None) -> pd.DataFrame:
    """Galleries in which Char TF-IDF beats BM25, per library: ``library``, ``wins``, ``galleries``.

    From chapter 09.1's paired table (the paper's corpus, every RLBench task file, CALVIN) and chapter
    09.2's new libraries (RoboCasa, RoboTwin with object words and with a placeholder); a chapter that
    did not run gives no rows. ``verdict`` is the paper's "in nearly all galleries" decided as both chapters
    decide it (:func:`robotask.retrieval.libraries.nearly_all_verdict`)."""
    rows = []
    for r in (transfer or {}).get("paired", []):
        if r.get("Comparison", "").endswith("BM25"):
            rows.append({"library": r["Library"], "wins": int(r["Char wins"]), "galleries": int(r["Galleries"])})
    names = {"robocasa": "RoboCasa", "robotwin": "RoboTwin (object words)",
             "robotwin_placeholder": "RoboTwin (placeholder)"}
    for key, name in names.items():
        if libraries and f"char_beats_bm25_{key}" in libraries:
            rows.append({"library": name, "wins": int(libraries[f"char_beats_bm25_{key}"]),
                         "galleries": int(libraries[f"galleries_{key}"])})
    table = pd.DataFrame(rows, columns=["library", "wins", "galleries"])
    return table.assign(verdict=[nearly_all_verdict(w, n) for w, n in zip(table["wins"], table["galleries"])])


def second_description_gains(matched: Mapping, paper_table3: Mapping) -> pd.DataFrame:
    """Gain (pp) from a second indexed description per ranker, ours and the paper's, with the spread
    (sd of the per-gallery gain) and the galleries the second description helped: chapter 03's table3."""
    rows = [{"ranker": r, "ours": v["diff"], "paper": paper_table3.get(r, {}).get("diff"), "sd": v["sd_diff"],
             "better": int(v["two_better"]), "galleries": int(v["n_trials"])}
            for r, v in matched.items()]
    return pd.DataFrame(rows)


def offset(table2: Mapping, paper_table2: Mapping) -> dict[str, float]:
    """Our Table 2 means minus the paper's over the rankers both have: ``mean``, ``low``, ``high`` (pp)."""
    diffs = [table2[r]["mean"] - paper_table2[r]["mean"] for r in paper_table2 if r in table2]
    return {"mean": sum(diffs) / len(diffs), "low": min(diffs), "high": max(diffs)}


def direction(value: float) -> str:
    """"above" or "below" (a difference of exactly 0 reads "at")."""
    return "above" if value > 0 else "below" if value < 0 else "at"


def leader(means: Mapping[str, float], names: Sequence[str] = ()) -> str:
    """The key with the highest value, ties to the first in ``names`` order (then by name)."""
    order = {n: i for i, n in enumerate(names)}
    return min(means, key=lambda r: (-means[r], order.get(r, len(order)), r))


def transfer_verdict_values(table: pd.DataFrame) -> dict[str, str]:
    """The libraries on which the paper's "Char TF-IDF beats BM25 in nearly all galleries" holds, does not
    hold and is not resolved (``table``: :func:`char_vs_bm25`), as ``transfer_holds``, ``transfer_fails``
    and ``transfer_open``: the joined names, or "none"; ``transfer_open_sentence`` is "" when none is open."""
    def names(word: str) -> str:
        hit = table.loc[table["verdict"] == word, "library"].tolist()
        return join(hit) if hit else "none"

    open_ = names("not resolved")
    return {"transfer_holds": names("holds"), "transfer_fails": names("does not hold"), "transfer_open": open_,
            "transfer_open_sentence": "" if open_ == "none" else f"It is not resolved on {open_}.",
            "nearly_all_pct": f"{100 * NEARLY_ALL:.0f}"}


def helps_phrase(verdicts: Sequence[str]) -> str:
    """What a second wording does, read from the verdict of each ranker's gain (chapter 03's interval):
    "gives a higher accuracy for every ranker", or for "k of n rankers", with the others not resolved or lower."""
    v = list(verdicts)
    k, low, n = v.count("higher"), v.count("lower"), len(v)
    rest = ("" if k == n else f" (lower for {how_many(low, n, 'ranker')}, not resolved for the others)" if low
            else " (not resolved for any)" if k == 0 else " (not resolved for the others)")
    return f"gives a higher accuracy, by the 95 % interval of its paired gain, for {how_many(k, n, 'ranker')}{rest}"


def chance_phrase(standard_errors: Sequence[float]) -> str:
    """Whether our means' offsets from the paper's, in standard errors of the difference of two means, could be the
    luck of the draws, ranker by ranker as chapter 05 decides it (within 1.96 standard errors: its normal 95 %
    interval includes zero): "too many to be the luck of the draws" for none, else "within the luck of the draws
    for k of n rankers"."""
    z = [abs(x) for x in standard_errors]
    k = sum(x < 1.96 for x in z)
    return ("too many to be the luck of the draws for every ranker" if k == 0
            else f"within the luck of the draws for {how_many(k, len(z), 'ranker')}")


NAN = float("nan")
DASH = "–"


def _signed(x: float) -> str:
    """One decimal with a sign and a true minus: "+0.7", "−0.3"."""
    return f"{'+' if x >= 0 else '−'}{abs(x):.1f}"


def _label(ranker: str) -> str:
    return RANKERS[ranker].label if ranker in RANKERS else ranker


def ranking_answer_values(s02: Mapping | None, wins: pd.DataFrame) -> dict:
    """The home page's first answer (does the paper's ranking of the rankers hold, and transfer?), by glue
    name, dashes and NaN where a chapter did not run. ``wins`` is :func:`char_vs_bm25`."""
    theirs = paper.PAIRED[("char", "bm25")]
    out: dict[str, object] = {
        "char_paper": paper.TABLE2["char"]["mean"], "bm25_paper": paper.TABLE2["bm25"]["mean"],
        "wins_theirs": int(theirs["wins"]), "gal_theirs": int(theirs["wins"] + theirs["ties"] + theirs["losses"]),
        "n_libraries": len(wins), **transfer_verdict_values(wins),
        "n_galleries": join(sorted({str(n) for n in wins["galleries"]}), "or") if len(wins) else DASH,
        "wins_paper": int(wins.iloc[0]["wins"]) if len(wins) else DASH,
        "gal_paper": int(wins.iloc[0]["galleries"]) if len(wins) else DASH,
        "char_ours": NAN, "bm25_ours": NAN, "lead_ours": DASH, "lead_runner": DASH, "lead_diff": DASH,
        "lead_lo": DASH, "lead_hi": DASH, "lead_reading": DASH, "n_tasks_ours": DASH, "n_texts_ours": DASH,
    }
    if s02:
        t2 = s02["table2"]
        out.update(char_ours=t2["char"]["mean"], bm25_ours=t2["bm25"]["mean"], n_tasks_ours=s02.get("n_tasks", DASH),
                   n_texts_ours=s02.get("n_descriptions", DASH),
                   lead_ours=_label(leader({r: v["mean"] for r, v in t2.items() if r in paper.TABLE2},
                                           paper.RANKER_ORDER)))
        lead = s02.get("leader")  # the shared interval of the leader against the runner-up (chapter 02)
        if lead:
            out.update(lead_ours=_label(lead["a"]), lead_runner=_label(lead["b"]),
                       lead_diff=_signed(lead["difference"]), lead_lo=_signed(lead["low"]),
                       lead_hi=_signed(lead["high"]),
                       lead_reading="resolved" if lead["verdict"] == "higher" else "not resolved")
    return out


def offset_answer_values(s02: Mapping | None, s03: Mapping | None, s05: Mapping | None) -> dict:
    """The home page's second answer (what a second wording adds, how far our means lie from the paper's and
    how many of its claims hold), by glue name, dashes and NaN where a chapter did not run."""
    out: dict[str, object] = {
        "second_helps": DASH, "gain_ours": NAN, "gain_paper": NAN, "gain_sd": NAN, "gain_better": DASH,
        "gain_n": DASH, "gain_min": NAN, "gain_max": NAN, "off_mean": NAN, "off_dir": DASH, "off_low": NAN,
        "off_high": NAN, "se_min": NAN, "se_max": NAN, "chance": DASH, "n_claims": DASH, "n_claims_ok": DASH,
    }
    if s02:
        t2 = s02["table2"]
        off = offset(t2, paper.TABLE2)
        n, theirs_n = s02["n_trials"], paper.SETTINGS["n_trials"]  # galleries behind each mean
        se = [abs(t2[r]["mean"] - paper.TABLE2[r]["mean"])
              / (t2[r]["sd"] ** 2 / n + paper.TABLE2[r]["sd"] ** 2 / theirs_n) ** 0.5 for r in paper.TABLE2 if r in t2]
        out.update(off_mean=abs(off["mean"]), off_dir=direction(off["mean"]), off_low=off["low"],
                   off_high=off["high"], se_min=min(se), se_max=max(se), chance=chance_phrase(se))
    if s03:
        gains = second_description_gains(s03["table3"], paper.TABLE3)
        char = gains.set_index("ranker").loc["char"]
        out.update(second_helps=helps_phrase([v.get("verdict", "") for v in s03["table3"].values()]),
                   gain_ours=float(char["ours"]),
                   gain_paper=float(char["paper"]), gain_sd=float(char["sd"]), gain_better=int(char["better"]),
                   gain_n=int(char["galleries"]), gain_min=float(gains["ours"].min()),
                   gain_max=float(gains["ours"].max()))
    if s05:
        out.update(n_claims=len(s05["claims"]), n_claims_ok=sum(bool(v) for v in s05["claims"].values()))
    return out


def worst_lead_phrase(worst: Mapping | None, leaders: list[Mapping]) -> str:
    """Whether the ranker with the largest drop drops *most*: its lead over the runner-up under the same
    rewrite (chapter 08's leader comparison, a paired interval), as a phrase for the home page."""
    row = next((r for r in leaders if worst and r["perturbation"] == worst["perturbation"]
                and r["measure"] == "size"), None)
    if row is None:
        return "its lead over the next ranker has no interval in this build"
    low, high = pp(row["low"], unit=""), pp(row["high"], unit="")
    interval = f"{pp(row['difference'], unit='')} points, 95 % interval {low} to {high}"
    if row["verdict"] == "higher" and row["a"] == worst["ranker"]:
        return f"ahead of the next ranker, {_label(row['b'])}, by {interval}"
    return f"not resolved against {_label(row['b'])} ({interval})"


def part_two_answer_values(s06: Mapping | None, s07: Mapping | None, s08: Mapping | None,
                           s09: Mapping | None) -> dict:
    """The numbers and phrases of the home page's Part II bullets (embeddings, uncertainty, rewrites, more
    wordings and larger libraries), by glue name."""
    m = s06["summary"].get("minilm", {}) if s06 else {}
    verdicts = [c["verdict"] for c in s07["claims"]] if s07 else []
    worst = min(s08["table"], key=lambda r: r["change"]) if s08 else None
    falls = [-v for v in (s09 or {}).get("size_slope_per_doubling_pts", {}).values()] or [NAN]
    return {
        "minilm": m.get("mean", NAN), "minilm_lo": m.get("lo", NAN), "minilm_hi": m.get("hi", NAN),
        "char06": s06["summary"]["char"]["mean"] if s06 else NAN,
        "n_orderings": len(verdicts), "n_supported": verdicts.count("supported"),
        "worst_drop": -worst["change"] if worst else NAN, "worst_ranker": _label(worst["ranker"]) if worst else DASH,
        "worst_kind": worst["perturbation"].replace("_", " ") if worst else DASH,
        "worst_lead": worst_lead_phrase(worst, (s08 or {}).get("leaders", [])),
        "fall_min": min(falls), "fall_max": max(falls), "n_max": (s09 or {}).get("size_n_max", DASH),
        "best_small": _label(s09["size_best_at_smallest"]) if s09 else DASH,
        "best_large": _label(s09["size_best_at_largest"]) if s09 else DASH,
        "budget_gain": (s09 or {}).get("budget_robotwin_gain_char_pts", NAN),
        "budget_lo": (s09 or {}).get("budget_robotwin_gain_char_interval", [NAN, NAN])[0],
        "budget_hi": (s09 or {}).get("budget_robotwin_gain_char_interval", [NAN, NAN])[1],
        "budget_k": (s09 or {}).get("budget_robotwin_k_max", DASH),
    }
