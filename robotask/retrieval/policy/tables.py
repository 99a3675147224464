"""The chapter's tables: numbers with their intervals as "83.9 (73.6 to 92.8)", one row per ranker or signal."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..rankers.registry import display
from .paraphrases import HIGH_TITLES, HIGH_TYPES
from .phrases import difference_word, gap_word, signal_label, type_label
from .resampling import Interval


def shown(estimate: float, low: float, high: float, digits: int = 1) -> str:
    """``83.9 (73.6 to 92.8)``, negative numbers with a true minus; a missing number as "—"."""
    def one(x: float) -> str:
        return "—" if pd.isna(x) else f"{x:.{digits}f}".replace("-", "\u2212")
    return f"{one(estimate)} ({one(low)} to {one(high)})"


def _iv(iv: Interval, digits: int = 1) -> str:
    return shown(iv.estimate, iv.low, iv.high, digits)


def data_table(para: pd.DataFrame, success: pd.DataFrame) -> pd.DataFrame:
    """Per ``high`` type (and all): paraphrases, distinct texts, the policy's success (%) with its interval
    (``success``: :func:`.success_by_type`'s)."""
    rows = []
    for r in success[success["level"].isin(["all", "high"])].itertuples(index=False):
        part = para if r.level == "all" else para[para["high"] == r.type]
        rows.append({"Paraphrase type": "all" if r.level == "all" else f"{r.type}: {HIGH_TITLES[r.type]}",
                     "Paraphrases": r.n, "Distinct texts": part["text"].nunique(),
                     "Policy success (%) (95 % interval)": shown(r.estimate, r.low, r.high)})
    return pd.DataFrame(rows)


def accuracy_table(accuracy: pd.DataFrame, rankers: list[str], gallery: str, level: str) -> pd.DataFrame:
    """Rankers × types of ``level`` (``high`` or ``mid``; ``all`` first): accuracy (%) [interval] in ``gallery``."""
    acc = accuracy[(accuracy["gallery"] == gallery) & accuracy["level"].isin(["all", level])]
    cells = acc.assign(cell=[shown(e, lo, hi) for e, lo, hi in zip(acc.estimate, acc.low, acc.high, strict=True)])
    wide = cells.pivot(index="ranker", columns="type", values="cell")
    types = list(dict.fromkeys(acc["type"]))
    wide = wide.loc[rankers, types]
    wide.index = [display(r) for r in wide.index]
    wide.columns = [type_label(t) for t in wide.columns]
    return wide.reset_index(names="Ranker")


def mid_table(accuracy: pd.DataFrame, success: pd.DataFrame, ranker: str) -> pd.DataFrame:
    """Per ``mid`` kind of change: paraphrases, the policy's success, ``ranker``'s accuracy in both galleries
    (each [interval]) and the range of every ranker's accuracy among the 130 LIBERO tasks."""
    acc = accuracy[accuracy["level"] == "mid"].set_index(["gallery", "ranker", "type"])
    success = success[success["level"] == "mid"].set_index("type")
    rows = []
    for kind in success.index:
        def cell(gallery: str, kind: str = kind) -> str:
            r = acc.loc[(gallery, ranker, kind)]
            return shown(r.estimate, r.low, r.high)
        spread = acc.xs(("libero", kind), level=("gallery", "type"))["estimate"]
        rows.append({"Kind of change (mid)": kind, "Paraphrases": int(success.at[kind, "n"]),
                     "Policy success (%)": shown(*success.loc[kind, ["estimate", "low", "high"]]),
                     f"{display(ranker)}, 10 originals": cell("originals"),
                     f"{display(ranker)}, 130 LIBERO tasks": cell("libero"),
                     "All rankers, 130 LIBERO tasks": f"{spread.min():.1f} to {spread.max():.1f}"})
    return pd.DataFrame(rows)


def association_table(associations: pd.DataFrame, rankers: list[str], gallery: str) -> pd.DataFrame:
    """Per ranker in ``gallery``: success when retrieved and missed, the gap, odds ratios, within-task measures."""
    assoc = associations[associations["gallery"] == gallery].set_index(["ranker", "measure"])
    rows = []
    for ranker in rankers:
        def iv(measure: str, ranker: str = ranker) -> Interval:
            return Interval.from_row(assoc.loc[(ranker, measure)])
        rows.append({"Ranker": display(ranker), "Success when retrieved (%)": _iv(iv("success_retrieved")),
                     "Success when missed (%)": _iv(iv("success_missed")), "Gap (pp)": _iv(iv("gap")),
                     "Odds ratio": _iv(iv("odds_ratio"), 2), "Within task: gap (pp)": _iv(iv("mh_gap")),
                     "Within task: odds ratio": _iv(iv("mh_odds_ratio"), 2),
                     "Success, retrieved vs missed": gap_word(iv("gap"))})
    return pd.DataFrame(rows)


def type_gap_table(associations: pd.DataFrame, rankers: list[str], gallery: str) -> pd.DataFrame:
    """Per ranker in ``gallery``: the gap (success when retrieved minus when missed, points) within each ``high``
    type, with its interval and its word."""
    assoc = associations[associations["gallery"] == gallery].set_index(["ranker", "measure"])
    rows = []
    for ranker in rankers:
        row = {"Ranker": display(ranker)}
        for t in HIGH_TYPES:
            iv = Interval.from_row(assoc.loc[(ranker, f"gap:{t}")])
            row[f"{type_label(t)}: gap (pp)"] = f"{_iv(iv)}, {gap_word(iv)}"
        rows.append(row)
    return pd.DataFrame(rows)


def auc_table(aucs: dict[str, Interval], within: dict[str, Interval],
              comparisons: dict[str, Any]) -> pd.DataFrame:
    """Every signal's AUC for the policy's failure [interval] and within task, and its difference from the
    reference signal with the Holm-adjusted interval (``comparisons``: :func:`.auc_comparisons`'s, pooled)."""
    reference, holm = comparisons["reference"], comparisons["against_reference"]
    name = signal_label(reference)
    rows = []
    for signal, iv in sorted(aucs.items(), key=lambda kv: -kv[1].estimate):
        lead = Interval(*holm[signal]) if signal in holm else None
        rows.append({"Signal": signal_label(signal), "AUC (95 % interval)": _iv(iv, 3),
                     "Within-task AUC": _iv(within[signal], 3),
                     f"This minus {name} (Holm-adjusted interval)": "—" if lead is None else _iv(lead, 3),
                     f"Against {name}": "—" if lead is None else difference_word(lead, "better", "worse")})
    return pd.DataFrame(rows)
