"""One interval per comparison: the shared two-way interval, its cache, its orientation and its index rows."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from robotask.errors import RobotaskError
from robotask.retrieval import statistics as st
from robotask.retrieval.statistics import comparison_intervals as ci
from robotask.words import VERDICT_COLUMNS


def _per_query(seed: int = 0, n_trials: int = 12, n_tasks: int = 5, n_desc: int = 4) -> pd.DataFrame:
    """Three rankers on the same galleries: "good" answers most queries, "twin" the same with one description
    flipped, "weak" fewer; one description per task is indexed (not a query) in each gallery."""
    rng = np.random.default_rng(seed)
    rows = []
    for t in range(n_trials):
        for j in range(n_tasks):
            indexed = rng.integers(n_desc)
            for i in range(n_desc):
                if i == indexed:
                    continue
                ok = rng.random() < 0.8
                for ranker, correct in (("good", ok), ("twin", ok if (j, i) != (0, 1) else not ok),
                                        ("weak", ok and rng.random() < 0.6)):
                    rows.append((t, ranker, f"t{j}:{i}", f"t{j}", int(correct)))
    return pd.DataFrame(rows, columns=["trial", "ranker", "query_id", "task", "correct"])


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ROBOTASK_CACHE", str(tmp_path / "cache"))


def test_the_shared_interval_is_chapter_07s_two_way_bootstrap():
    pq = _per_query()
    pairs = [("good", "weak"), ("good", "twin")]
    shared = st.ranker_comparisons(pq, pairs, seed=3, n_bootstrap=400)
    seven = st.paired_comparisons(pq, pairs, 400, 3, n_permutations=100)  # descriptions and galleries
    assert np.allclose(shared[["difference", "low", "high"]].to_numpy(), seven[["mean_diff", "lo", "hi"]].to_numpy())
    row = shared.iloc[0]
    assert row["verdict"] == "higher" and row["n_galleries"] == 12 and row["n_descriptions"] == 20
    # a pair's interval does not depend on which other rankers ran: the replicate draws never do
    alone = st.ranker_comparisons(pq[pq["ranker"] != "twin"], [("good", "weak")], seed=3, n_bootstrap=400)
    assert alone.iloc[0]["low"] == row["low"] and alone.iloc[0]["high"] == row["high"]


def test_a_difference_that_rests_on_one_description_is_not_resolved():
    # "good" and "twin" differ on one description only: resampling the descriptions leaves it out of some
    # replicates, so a difference that rests on it cannot be resolved, however many galleries agree
    pq = _per_query()
    row = st.ranker_comparisons(pq, [("good", "twin")], seed=0, n_bootstrap=1000).iloc[0]
    assert row["low"] <= 0 <= row["high"] and row["verdict"] == "not resolved"


def test_the_cache_serves_the_same_replicates_and_the_orientation_turns():
    pq = _per_query()
    first = st.ranker_comparisons(pq, [("good", "weak")], seed=1, n_bootstrap=300)
    entries = sorted(p.name for p in ci.STORE.root.glob("*.npz"))
    assert len(entries) == 2 and all(e.startswith(("good-", "weak-")) for e in entries)
    again = st.ranker_comparisons(pq, [("good", "weak")], seed=1, n_bootstrap=300)
    pd.testing.assert_frame_equal(first, again)
    turned = st.comparison(first, "weak", "good")
    assert turned["difference"] == -first.iloc[0]["difference"] and turned["verdict"] == "lower"
    assert (turned["low"], turned["high"]) == (-first.iloc[0]["high"], -first.iloc[0]["low"])
    with pytest.raises(RobotaskError, match="was not computed"):
        st.comparison(first, "good", "twin")


def test_verdict_rows_are_the_index_format_with_the_unit_and_method():
    table = st.ranker_comparisons(_per_query(), [("good", "weak")], seed=1, n_bootstrap=300)
    rows = st.verdict_rows(table, chapter="02", data="toy", claims={("weak", "good"): "weak against good"},
                           labels={"good": "Good", "weak": "Weak"})
    assert list(rows[0]) == list(VERDICT_COLUMNS)
    assert rows[0]["a"] == "Weak" and rows[0]["verdict"] == "lower" and rows[0]["unit"] == "gallery and description"
    assert rows[0]["n_units"] == 20 and "300 replicates over 12 galleries and 20 descriptions" in rows[0]["method"]


def test_matched_gains_pair_the_two_conditions_on_the_same_queries():
    pq = _per_query()
    predictions = pd.concat([
        pd.DataFrame({"condition": cond, "trial": pq["trial"], "ranker": "good", "task": pq["task"],
                      "position": pq["query_id"].str.split(":").str[1].astype(int), "duplicate": False,
                      "correct": pq["correct"] if cond == "matched_one" else 1})
        for cond in ("matched_one", "matched_two")])
    gains = st.matched_comparisons(predictions[predictions["ranker"] == "good"].drop_duplicates(
        ["condition", "trial", "task", "position"]), ["good"], seed=0, n_bootstrap=300)
    assert gains.iloc[0]["a"] == "good" and gains.iloc[0]["difference"] > 0 and gains.iloc[0]["verdict"] == "higher"


def _matched(pq: pd.DataFrame, gainer: str) -> pd.DataFrame:
    """Matched predictions: each ranker's outcomes with one description, and with two where ``gainer`` answers
    every query."""
    one = pq.assign(condition="matched_one")
    two = pq.assign(condition="matched_two", correct=np.where(pq["ranker"] == gainer, 1, pq["correct"]))
    both = pd.concat([one, two], ignore_index=True)
    return both.assign(position=both["query_id"].str.split(":").str[1].astype(int), duplicate=False)


def test_gain_differences_and_the_claims_about_a_second_text():
    from robotask.retrieval import presentation as rp

    pq = _per_query().replace({"ranker": {"good": "bm25", "weak": "char", "twin": "word"}})
    predictions = _matched(pq, "bm25")  # only BM25 gains from the second text
    gains = st.gain_differences(predictions, [("bm25", "char")], seed=0, n_bootstrap=300)
    assert gains.iloc[0]["difference"] > 0 and gains.iloc[0]["verdict"] == "higher"
    found = rp.second_text_claims(predictions, ["bm25", "char", "word"], seed=0)
    helps, most = found["A second description helps every ranker"], found["BM25 gains most from a second description"]
    assert helps[0] == "not resolved" and "least sure gain" in helps[1]  # Char and Word TF-IDF gain nothing
    assert most[0] == "holds" and most[1].startswith("BM25 +")


def test_two_way_leaders_read_the_shared_interval_not_the_galleries_alone():
    from robotask.retrieval import presentation as rp

    table = st.ranker_comparisons(_per_query().replace({"ranker": {"good": "char", "twin": "word_char"}}),
                                  [("char", "word_char")], seed=0, n_bootstrap=500)
    leaders = pd.DataFrame([{"Library": "toy", "Leader": "Char TF-IDF", "Mean (%)": 80.0,
                             "Runner-up": "Word+Char", "Runner-up mean (%)": 79.0, "Difference (pp)": 1.0,
                             "95 % interval": "+0.5 to +1.5", "Verdict": "Char TF-IDF leads"}])
    shown = rp.two_way_leaders(leaders, {"toy": table}).iloc[0]
    row = table.iloc[0]
    assert shown["Verdict"] == "not resolved" and shown["Difference (pp)"] == row["difference"]
    assert shown["95 % interval"] != "+0.5 to +1.5"


def test_contrast_slope_weights_recover_a_line_and_resample_descriptions():
    from robotask.retrieval.statistics.comparison_intervals import contrast, slope_weights

    w = slope_weights({"a@2": 2, "a@4": 4, "a@8": 8})
    assert sum(w.values()) == pytest.approx(0.0)
    assert sum(wi * (10 - 3 * np.log2(x)) for wi, x in zip(w.values(), (2, 4, 8))) == pytest.approx(-3.0)
    # arm a@8 is right on one description of one task only, a@2 on none: every gallery gives the same
    # difference, but a replicate that leaves that description out sees none
    rows = [{"trial": t, "ranker": arm, "query_id": f"t{j}-{i}", "task": f"t{j}",
             "correct": int(arm == "a@8" and j == 0 and i == 0)}
            for t in range(10) for arm in ("a@2", "a@8") for j in range(3) for i in range(4)]
    c = contrast(pd.DataFrame(rows), {"a@8": 1.0, "a@2": -1.0}, seed=0, n_bootstrap=500)
    assert c["difference"] == pytest.approx(100 / 12) and c["low"] == 0.0 and c["verdict"] == "not resolved"


def test_contrast_reads_a_study_pivoted_once_with_the_same_numbers():
    from robotask.retrieval.statistics.comparison_intervals import arm_outcomes, contrast

    rng = np.random.default_rng(3)
    frame = pd.DataFrame([{"trial": t, "ranker": arm, "query_id": f"t{j}-{i}", "task": f"t{j}",
                           "correct": int(rng.random() < p)}
                          for t in range(6) for arm, p in (("x", 0.7), ("y", 0.4), ("z", 0.5))
                          for j in range(3) for i in range(4)])
    weights = {"x": 1.0, "y": -0.5, "z": -0.5}
    once = arm_outcomes(frame)
    assert contrast(once, weights, seed=2, n_bootstrap=300) == contrast(frame, weights, seed=2, n_bootstrap=300)
    with pytest.raises(RobotaskError, match="no rows for w"):
        contrast(once, {"w": 1.0}, seed=2)
