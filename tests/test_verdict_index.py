"""The index of every verdict (chapter 97): reading each chapter's verdicts.csv, chapter 15's comparisons.csv
mapped to the same columns, and the check that one comparison has one row's numbers on every page."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from robotask.book import provenance
from robotask.errors import RobotaskError
from robotask.io import write_csv
from robotask.words import VERDICT_COLUMNS, verdict_row


def row(chapter: str, a: str = "Char TF-IDF", b: str = "Word+Char", difference: float = -0.6, low: float = -1.07,
        high: float = -0.27, data: str = "RLBench-62", metric: str = "top-1 accuracy (pp)") -> dict:
    return verdict_row(chapter=chapter, claim=f"{a} against {b}", a=a, b=b, data=data, metric=metric,
                       difference=difference, low=low, high=high, unit="gallery and description", n_units=80,
                       method="two-way bootstrap")


def write_rows(folder, rows) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    write_csv(folder / "verdicts.csv", pd.DataFrame(rows, columns=list(VERDICT_COLUMNS)))


COMPARISONS = pd.DataFrame({
    "scope": ["episode", "collection"], "task": ["timeline_action", "next_action"], "metric": ["f1", "accuracy"],
    "a": ["minimal", "simple"], "b": ["mlp", "neural"], "a_value": [0.5, 0.7], "b_value": [0.4, 0.72],
    "difference": [0.1, -0.02], "low": [0.02, -0.05], "high": [0.2, 0.01], "unit": ["block", "episode"],
    "verdict": ["higher", "not resolved"]})


def test_every_chapter_s_rows_are_read_in_chapter_order(tmp_path):
    write_rows(tmp_path / "07_uncertainty", [row("07_uncertainty"), row("07_uncertainty", b="BM25")])
    write_rows(tmp_path / "02_five_rankers", [row("02_five_rankers")])
    write_rows(tmp_path / "97_verdicts", [row("97_verdicts")])  # the index's own folder, skipped
    (tmp_path / "03_second_description").mkdir()  # a chapter that states no verdict
    rows = provenance.read_verdicts(tmp_path, skip=("97_verdicts",))
    assert list(rows.columns) == list(VERDICT_COLUMNS)
    assert rows["chapter"].tolist() == ["02_five_rankers", "07_uncertainty", "07_uncertainty"]
    assert rows["verdict"].tolist() == ["lower", "lower", "lower"] and rows["n_units"].tolist() == [80, 80, 80]


def test_chapter_15_comparisons_are_mapped_to_the_index_columns(tmp_path):
    folder = tmp_path / "15_real_episodes"
    folder.mkdir()
    write_csv(folder / "comparisons.csv", COMPARISONS)
    rows = provenance.read_verdicts(tmp_path)
    assert list(rows.columns) == list(VERDICT_COLUMNS) and len(rows) == 2
    first = rows.iloc[0]
    assert (first["chapter"], first["a"], first["b"], first["data"]) == ("15_real_episodes", "minimal", "mlp",
                                                                         "episode: timeline_action")
    assert first["claim"] == "minimal against mlp on timeline_action" and first["unit"].startswith("block")
    assert "episodes" in rows.iloc[1]["method"] and rows["n_units"].isna().all()
    assert rows["verdict"].tolist() == ["higher", "not resolved"]


def test_a_chapter_s_own_verdicts_win_over_its_comparisons(tmp_path):
    folder = tmp_path / "15_real_episodes"
    write_rows(folder, [row("15_real_episodes")])
    write_csv(folder / "comparisons.csv", COMPARISONS)
    assert len(provenance.read_verdicts(tmp_path)) == 1


def test_no_results_and_empty_files_give_no_rows(tmp_path):
    assert provenance.read_verdicts(tmp_path / "absent").empty
    (tmp_path / "02_five_rankers").mkdir()
    (tmp_path / "02_five_rankers" / "verdicts.csv").write_text("\n")
    write_rows(tmp_path / "07_uncertainty", [])
    rows = provenance.read_verdicts(tmp_path)
    assert rows.empty and list(rows.columns) == list(VERDICT_COLUMNS)


def test_a_file_missing_a_column_is_one_clear_error(tmp_path):
    folder = tmp_path / "02_five_rankers"
    folder.mkdir()
    write_csv(folder / "verdicts.csv", pd.DataFrame([row("02_five_rankers")]).drop(columns=["low"]))
    with pytest.raises(RobotaskError, match=r"02_five_rankers/verdicts.csv: missing column\(s\) low"):
        provenance.read_verdicts(tmp_path)


def test_the_same_comparison_with_the_same_numbers_is_consistent():
    rows = pd.DataFrame([row("02_five_rankers"), row("09_transfer"),
                         row("07_uncertainty", a="Word+Char", b="Char TF-IDF", difference=0.6, low=0.27, high=1.07),
                         row("07_uncertainty", b="BM25", difference=5.0, low=1.0, high=9.0)])
    assert provenance.inconsistent_verdicts(rows).empty


def test_one_comparison_with_two_intervals_is_reported():
    # the example: "lower" in 02, "leads" in 09.1, "not resolved" in 07, for one comparison
    rows = pd.DataFrame([row("02_five_rankers"),
                         row("09_transfer", a="Word+Char", b="Char TF-IDF", difference=0.7, low=0.3, high=1.1),
                         row("07_uncertainty", difference=-0.7, low=-1.7, high=0.3),
                         row("07_uncertainty", b="BM25", difference=5.0, low=1.0, high=9.0),
                         row("02_five_rankers", metric="top-5", difference=math.nan, low=math.nan, high=math.nan),
                         row("09_transfer", metric="top-5", difference=math.nan, low=math.nan, high=math.nan)])
    bad = provenance.inconsistent_verdicts(rows)
    assert bad["chapter"].tolist() == ["02_five_rankers", "09_transfer", "07_uncertainty"]
    assert bad["comparison"].tolist() == [1, 1, 1]
    assert bad["verdict"].tolist() == ["lower", "higher", "not resolved"]


def test_a_difference_beyond_float_noise_counts():
    rows = pd.DataFrame([row("02_five_rankers"), row("09_transfer", low=-1.07 + 1e-13),
                         row("07_uncertainty", high=-0.2701)])
    # every row of the comparison is shown, the one that agrees with the first too
    assert provenance.inconsistent_verdicts(rows)["chapter"].tolist() == ["02_five_rankers", "09_transfer",
                                                                          "07_uncertainty"]
    assert provenance.inconsistent_verdicts(rows.iloc[:2]).empty


def test_rows_come_in_the_book_s_order_and_link_to_their_page(tmp_path):
    write_rows(tmp_path / "zz_retired", [row("zz_retired")])
    write_rows(tmp_path / "12_task_next_action", [row("12_task_next_action")])
    write_rows(tmp_path / "02_five_rankers", [row("02_five_rankers")])
    rows = provenance.read_verdicts(tmp_path)
    assert rows["chapter"].tolist() == ["02_five_rankers", "12_task_next_action", "zz_retired"]
    assert provenance.page_link("12_task_next_action") == "{doc}`12_task_next_action`"
    assert provenance.page_link("zz_retired") == "`zz_retired`"


def test_each_comparison_s_rows_are_listed_together():
    rows = pd.DataFrame([row("02_five_rankers"), row("02_five_rankers", b="BM25", difference=4.0, low=1.0, high=7.0),
                         row("07_uncertainty", low=-2.0), row("07_uncertainty", b="BM25", difference=5.0, low=1.0,
                                                              high=9.0)])
    bad = provenance.inconsistent_verdicts(rows)
    assert bad["comparison"].tolist() == [1, 1, 2, 2]
    assert bad["chapter"].tolist() == ["02_five_rankers", "07_uncertainty"] * 2



def _policy_words(study: dict) -> tuple[list[dict], dict[str, object], dict]:
    """Chapter 09.3's steps on a small study (tests/test_policy.py), as notebooks/09_policy.py runs them: its
    rows of the index, every deciding word its Markdown prints by glue name, computed the way the page glues it
    (a word, a share of rankers "k of n rankers", a count of signals), and the signals' comparisons."""
    from robotask.retrieval.policy import (
        Interval,
        accuracy_verdicts,
        association_verdicts,
        by_type,
        discrimination,
        phrases,
        signal_verdicts,
        values,
    )

    design, rankers, reps, para = study["design"], study["rankers"], study["accuracy_reps"], study["para"]
    top, galleries = values.headline(rankers), ("originals", "libero")
    drops = {r: by_type.difference(design, reps, ("originals", r, "all", "all"), ("libero", r, "all", "all"))
             for r in rankers}
    leads = {g: by_type.leader(design, reps, g, rankers) for g in galleries}
    pairs = (("act", "comp"), ("obj", "comp"), ("act", "obj"))
    types = {g: {r: {f"{a}-{b}": by_type.difference(design, reps, (g, r, "high", a), (g, r, "high", b))
                     for a, b in pairs} for r in rankers} for g in galleries}
    act_comp = by_type.success_difference(para, design, "act", "comp")
    pooled = discrimination.auc_comparisons(study["aucs"], study["reps"], design)
    within = discrimination.auc_comparisons(study["within"], study["within_reps"], design)
    rows = [*accuracy_verdicts(design, drops, leads, types),
            *association_verdicts(design, study["associations"], rankers, act_comp),
            *signal_verdicts(design, pooled, within)]
    assoc = study["associations"].set_index(["gallery", "ranker", "measure"])

    def gap(g: str, m: str, r: str = top) -> str:
        return phrases.gap_word(Interval.from_row(assoc.loc[(g, r, m)]))

    def retrieved(g: str, m: str) -> str:
        return phrases.share([gap(g, m, r) for r in rankers], "higher when retrieved")

    def higher(intervals: list[Interval]) -> str:
        return phrases.share([phrases.difference_word(iv) for iv in intervals], "higher")

    def signal(k: str, comparisons: dict = pooled) -> str:
        return phrases.difference_word(Interval(*comparisons[k]))

    words = {
        "drop_share": higher(list(drops.values())),
        **{f"{g}_lead_word": phrases.difference_word(leads[g][2], "ahead", "behind") for g in galleries},
        **{f"{g}_{a}_{b}_share": higher([types[g][r][f"{a}-{b}"] for r in rankers])
           for g, a, b in (("libero", "act", "comp"), ("libero", "obj", "comp"), ("libero", "act", "obj"),
                           ("originals", "act", "comp"), ("originals", "act", "obj"))},
        "unresolved": "not resolved",  # action-only against object-only "for any other ranker"
        "libero_gap_word": gap("libero", "gap"), "libero_mh_word": gap("libero", "mh_gap"),
        **{f"{g}_gap_share": retrieved(g, "gap") for g in galleries},
        **{f"{g}_mh_share": retrieved(g, "mh_gap") for g in galleries},
        **{f"libero_gap_{t}_share": retrieved("libero", f"gap:{t}") for t in ("act", "obj", "comp")},
        "success_act_minus_comp_word": phrases.difference_word(act_comp),
        **{f"{k}_word": signal(k) for k in ("best_margin_minus_pride", "keyword_minus_pride",
                                            "best_lexical_margin_minus_pride")},
        "within_best_margin_minus_pride_word": signal("best_margin_minus_pride", within),
        "n_above_pride": pooled["n_above_reference"], "n_below_pride": pooled["n_below_reference"]}
    return rows, words, pooled


def test_chapter_09_3_indexes_every_verdict_word_its_page_prints(tmp_path):
    """Chapter 09.3 (notebooks/09_policy.py) writes one row per deciding word its Markdown prints, a share of
    rankers counting one row per ranker, and 97 reads them, linked to 09.3's page. A deciding word added to the
    page (a glued ``*_word`` or ``*_share``) without a row here fails the first assertion."""
    import re

    from test_policy import _study

    from robotask import paths
    from robotask.retrieval.policy import phrases

    rows, words, pooled = _policy_words(_study(["bm25", "char"], 20, 3))
    markdown = (paths.ROOT / "notebooks" / "09_policy.py").read_text()
    printed = re.findall(r"\{glue:text\}`(\w+_word|\w+_share|n_above_pride|n_below_pride|unresolved)[`:]", markdown)
    assert set(printed) == set(words)
    write_rows(tmp_path / "09_policy", rows)
    index = provenance.read_verdicts(tmp_path)
    assert list(index.columns) == list(VERDICT_COLUMNS) and (index["chapter"] == "09_policy").all()
    assert index["verdict"].notna().all() and (index["unit"] == "task").all() and (index["n_units"] == 10).all()
    includes_zero = ~(index["low"] > 0) & ~(index["high"] < 0)
    assert (includes_zero == (index["verdict"] == "not resolved")).all()
    assert not index.duplicated(list(provenance.COMPARISON_KEY)).any()
    assert provenance.inconsistent_verdicts(index).empty
    assert provenance.page_link("09_policy") == "{doc}`09_policy`"

    def part(data: str, metric: str, claim: str) -> pd.DataFrame:
        return index[(index["data"] == data) & (index["metric"] == metric) & index["claim"].str.startswith(claim)]

    def share(stated: pd.DataFrame, word: str) -> str:
        return phrases.share(stated["verdict"].tolist(), word)

    libero, originals = "LIBERO-Para, gallery of the 130 LIBERO tasks", "LIBERO-Para, gallery of the 10 originals"
    acc, success = "retrieval accuracy (%)", "policy success (%)"
    within = "policy success (%), within task (Mantel–Haenszel)"
    gap, kinds = "the policy succeeds more often", {"act": "action reworded", "obj": "object reworded",
                                                     "comp": "both reworded"}
    shares = {"drop_share": (part("LIBERO-Para, every paraphrase", acc, "accuracy lost"), "higher"),
              "libero_gap_share": (part(libero, success, gap), "higher when retrieved"),
              "originals_gap_share": (part(originals, success, gap), "higher when retrieved"),
              "libero_mh_share": (part(libero, within, gap), "higher when retrieved"),
              "originals_mh_share": (part(originals, within, gap), "higher when retrieved"),
              **{f"libero_gap_{t}_share": (part(f"{libero}, {t}: {kinds[t]}", success, gap), "higher when retrieved")
                 for t in kinds}}
    for g, data in (("libero", libero), ("originals", originals)):
        for a, b in (("act", "comp"), ("obj", "comp"), ("act", "obj")):
            shares[f"{g}_{a}_{b}_share"] = (part(data, acc, f"{kinds[a]} against {kinds[b]}"), "higher")
    for name in printed:
        if name in shares:
            stated, word = shares[name]
            assert len(stated) == 2 and share(stated, word) == words[name], name
    assert set(part(libero, acc, "action reworded against object reworded")["verdict"]) <= {"higher", "not resolved"}
    by = {"libero_lead_word": part(libero, acc, "the most accurate"),
          "originals_lead_word": part(originals, acc, "the most accurate"),
          "libero_gap_word": part(libero, success, gap).query("a == 'where Char TF-IDF retrieves'"),
          "libero_mh_word": part(libero, within, gap).query("a == 'where Char TF-IDF retrieves'"),
          "success_act_minus_comp_word": part("LIBERO-Para, every paraphrase", success, "the policy on"),
          "within_best_margin_minus_pride_word": index[index["metric"] == "within-task ROC AUC"]}
    for name, stated in by.items():
        assert stated["verdict"].tolist() == [words[name]], name
    # every signal against PRIDE's distance, with the table's word; the prose reads three of them as higher/lower
    signals = index[index["metric"] == "ROC AUC"].set_index("a")
    assert len(signals) == pooled["n_compared"] and set(signals["b"]) == {"PRIDE paraphrase distance"}
    assert (signals["verdict"] == "better").sum() == words["n_above_pride"]
    assert (signals["verdict"] == "worse").sum() == words["n_below_pride"]
    table_word = {"higher": "better", "lower": "worse", "not resolved": "not resolved"}
    for k in ("best_margin", "keyword", "best_lexical_margin"):
        label = phrases.signal_label(pooled[k] if k != "keyword" else "keyword")
        assert signals.at[label, "verdict"] == table_word[words[f"{k}_minus_pride_word"]], k
